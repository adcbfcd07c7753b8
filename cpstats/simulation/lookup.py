"""Where a figure is read: the one lookup of a result's tidy figures (either game) and the checks of a
figure's name and target, shared by :mod:`cpstats.simulation.solve`, :mod:`~cpstats.simulation.design`
and sequential runs (:mod:`cpstats.simulation.sequential`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.rules import AnyVariant
from cpstats.rules.check import suggest

__all__ = ["figure_table", "check_metric", "check_target", "SIGNED", "ALIASES"]

#: Figures that can be negative: every other one refuses a negative target.
SIGNED = frozenset({"bank_mean", "house_edge", "fl_value"})
#: Other names of the figures (the sweep's names and words a designer uses).
ALIASES = {"house_per_hand": "house_take_per_hand", "house_per_seat_hour": "house_take_per_seat_hour",
           "mean_seat0": "bank_mean", "rake_per_seat_hour": "house_take_per_seat_hour",
           "edge": "house_edge", "royalty_per_board": "royalty", "fantasyland_entry_rate": "fl_entry_rate"}

def figure_table(result: Any, confidence: float = 0.95) -> pd.DataFrame:
    """A result's tidy figures, ``metric, estimate, ci_low, ci_high, method``, for either game:
    an open-face result's :meth:`~cpstats.ofc.OfcResult.figures`; for a 13-card result the
    comparison figures of :func:`~cpstats.simulation.paired.paired_metrics` (sd, scoop rate, house
    edge, rake share...: the names ``compare`` and ``sweep`` use) followed by every other row of
    :meth:`~cpstats.simulation.SimulationResult.figures` (per-seat moments, rates, royalties...)."""
    columns = ["metric", "estimate", "ci_low", "ci_high", "method"]
    if result.variant.game != "13-card":
        return result.figures(confidence)
    from cpstats.simulation.paired import paired_metrics

    table = paired_metrics([result], confidence=confidence).assign(method="batch t")[columns]
    more = result.figures(confidence)
    more = more.loc[~more["metric"].isin(table["metric"]), columns]
    return pd.concat([table, more], ignore_index=True)


def _probe_names(v: AnyVariant, simulate: Callable) -> list[str]:
    """The figure names a run of ``v`` gives (a few deals set by greedy: names do not depend on play)."""
    deals = 60 if v.game == "13-card" else 4
    return list(figure_table(simulate(v, deals, setter="greedy", rng=0))["metric"])


def check_metric(v: AnyVariant, metric: str, simulate: Callable) -> str:
    """``metric`` as the game's figures name it, or a one-line refusal (an unknown name with close
    matches, or a figure another kind of game has); ``simulate`` plays the few deals that
    name the figures."""
    from cpstats.simulation.paired import METRICS

    if not isinstance(metric, str) or not metric.strip():
        raise OptionError(f"metric={metric!r} is invalid: a figure's name such as house_edge, sd or rake_share")
    name = ALIASES.get(metric.strip().lower(), metric.strip().lower())
    names = _probe_names(v, simulate)
    if name in names:
        return name
    if v.game == "13-card" and name in METRICS:
        raise OptionError(f"metric={metric!r} is not defined for {v}: it is the figure of a "
                          f"{METRICS[name][2]} game ({METRICS[name][0]})")
    raise OptionError(f"metric={metric!r} is not a figure of the {v.game} game: choose from "
                      f"{', '.join(names)}{suggest(name, names)}")


def check_target(metric: str, target: Any) -> float:
    ok = isinstance(target, (int, float, np.number)) and not isinstance(target, bool)
    if not ok or not math.isfinite(target):
        raise OptionError(f"target={target!r} is invalid: a finite number")
    if target < 0 and metric not in SIGNED and not metric.startswith("mean_seat"):
        raise OptionError(f"target={target!r} is impossible: {metric} cannot be negative")
    if target > 1 and (metric.endswith("_rate") or metric in ("rake_share", "fl_share")):
        raise OptionError(f"target={target!r} is impossible: {metric} is a share, at most 1")
    return float(target)
