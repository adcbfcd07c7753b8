"""What both games' results share: one table API over a typed, additive summary.

A result holds its ``variant``, its merged block ``summary`` (a
:class:`~cpstats.engine.additive.Additive`) and its ``metadata``; views read it through its
methods, never through the summary. Every result gives:

- ``deals``: how many deals (open face: hands) were played;
- ``figures()``: every figure, tidy, one row each with :data:`FIGURE_COLUMNS`;
- ``rows()``: one row per deal and seat (when the run kept or wrote them);
- ``distribution()``: the net per deal, value by value and seat by seat;
- ``figure_batches()``: the figures that pair, each with its value on every batch, which the
  engine's compare and sweep difference batch by batch (:mod:`cpstats.engine.defaults`);
  ``figures()`` defaults to their table;
- ``figure_names(v)`` (a class method): every figure name a run of ``v`` gives, known from the
  rules without a run, so a verb checks a figure's name before it plays
  (:func:`cpstats.engine.lookup.check_metric`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = ["FIGURE_COLUMNS", "FigureBatches", "Result"]

#: The columns every result's ``figures()`` starts with.
FIGURE_COLUMNS = ("metric", "estimate", "ci_low", "ci_high", "method")


class FigureBatches(NamedTuple):
    """One figure of a run as a paired difference needs it: the figure with its interval and
    ``method``, and ``batches`` (B,), its value on each batch (a batch's own value, or its
    linearised share of a ratio): their spread over the batches is the estimate's standard error,
    and on common deals batch j of two runs holds the same deals."""

    estimate: float
    ci_low: float
    ci_high: float
    batches: np.ndarray
    method: str


class Result(ABC):
    """Base of every game's result (:class:`~cpstats.thirteen.result.SimulationResult`,
    :class:`~cpstats.ofc.SimulationResult`)."""

    variant: object
    summary: object
    metadata: dict

    @property
    def deals(self) -> int:
        """Deals played (open face: hands, burn-in hands apart)."""
        return int(self.summary.deals)  # type: ignore[attr-defined]

    @property
    def setter(self) -> str:
        """Who played the hands, for a table or a caption: the run's strategy (a game's result may
        say more, the 13-card one which row tables ev played)."""
        return str(self.metadata.get("strategy", "?"))

    @property
    def batches(self) -> int:
        """Batches of consecutive deals the intervals are made on."""
        return len(self.summary.batch_sizes)  # type: ignore[attr-defined]

    @classmethod
    @abstractmethod
    def figure_names(cls, v: object) -> list[str]:
        """Every figure name a run of ``v`` gives, in the order of the table its game looks figures
        up in (:attr:`~cpstats.engine.games.GameRuns.figure_table`, else :meth:`figures`), from the
        rules alone. Each game's result declares its own."""

    @abstractmethod
    def figure_batches(self, confidence: float = 0.95) -> dict[str, FigureBatches]:
        """The figures that pair on common deals, by name, each with its batch values."""

    def figures(self, confidence: float = 0.95) -> pd.DataFrame:
        """Every figure with its interval: :data:`FIGURE_COLUMNS`, one row a figure (by default
        the table of :meth:`figure_batches`; a game's result may give more)."""
        rows = [(name, f.estimate, f.ci_low, f.ci_high, f.method)
                for name, f in self.figure_batches(confidence).items()]
        return pd.DataFrame(rows, columns=list(FIGURE_COLUMNS))

    @abstractmethod
    def rows(self) -> pd.DataFrame:
        """One row per deal and seat."""

    @abstractmethod
    def distribution(self) -> pd.DataFrame:
        """The net per deal: ``net`` and a count per seat."""
