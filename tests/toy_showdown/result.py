"""The toy showdown's result: its figures, each with its value on every batch, on the engine's
results base (so ``figures()``, compare, sweep, solve and ``until=`` need nothing more).

Figures: ``mean_seat{i}``, seat ``i``'s net a deal (0 by symmetry); ``pair_rate``, the share of
hands holding a pair or better (1,296,420 of the 2,598,960 five-card hands); ``bonus_per_deal``,
the units paid as bonuses a deal (``bonus * P * (P - 1)`` times the 74,628 hands of trips or better
over 2,598,960).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from cpstats.engine.base import FigureBatches, Result
from cpstats.engine.stats import check_confidence, half_width
from cpstats.errors import OptionError
from toy_showdown.block import ShowdownSummary
from toy_showdown.rules import ShowdownVariant

__all__ = ["ShowdownResult"]

_METHOD = "Student's t on batch means"


def _figure(sums: np.ndarray, trials: np.ndarray, level: float) -> FigureBatches:
    """A ratio of sums to trials, its batch values and its t interval."""
    batches = sums / trials
    estimate, half = float(sums.sum() / trials.sum()), half_width(batches, level)
    return FigureBatches(estimate, estimate - half, estimate + half, batches, _METHOD)


@dataclass
class ShowdownResult(Result):
    """A run: its variant, merged summary and metadata (what the engine's files save and read
    back as ``ShowdownResult(v, summary, metadata)``), and the rows a run kept."""

    variant: ShowdownVariant
    summary: ShowdownSummary
    metadata: dict[str, Any]
    kept: list[pd.DataFrame] | None = None
    out: Any = None

    @classmethod
    def figure_names(cls, v: ShowdownVariant) -> list[str]:
        """The figures a run of ``v`` gives, in the order of :meth:`figures`."""
        return [*(f"mean_seat{i}" for i in range(v.players)), "pair_rate", "bonus_per_deal"]

    def figure_batches(self, confidence: float = 0.95) -> dict[str, FigureBatches]:
        level, s = check_confidence(confidence), self.summary
        sizes = s.batch_sizes.astype(float)
        out = {f"mean_seat{i}": _figure(s.net_by_batch[:, i], sizes, level) for i in range(self.variant.players)}
        out["pair_rate"] = _figure(s.pairs_by_batch, sizes * self.variant.players, level)
        out["bonus_per_deal"] = _figure(s.bonus_by_batch, sizes, level)
        return out

    def rows(self) -> pd.DataFrame:
        """One row a deal and seat (``deal``, ``seat``, ``hand``, ``rank``, ``net``) of a run that
        kept them."""
        if not self.kept:
            raise OptionError("rows are not kept: run simulate(..., keep_hands=True)")
        return pd.concat(self.kept, ignore_index=True)

    def distribution(self) -> pd.DataFrame:
        """The net a deal: each value and how often each seat had it (``seat_0`` ...)."""
        rows = self.rows()
        table = pd.crosstab(rows["net"], rows["seat"]).rename(columns=lambda seat: f"seat_{seat}")
        return table.rename_axis(columns=None).reset_index()
