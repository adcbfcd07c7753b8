"""Paired differences of two runs on common deals, shared by every game's compare and sweep.

Two runs on the same deals (the same seed, deals and batch plan) hold the same deals in batch j, so
a figure's per-batch differences leave out the noise the common deals share: the difference's
interval is Student's t on them (``batches - 1`` degrees of freedom). A difference resting on few
differing deals (a rare hand a rule pays) gets no interval (:func:`paired_difference`).
"""

from __future__ import annotations

import numpy as np

from cpstats.engine.batches import BATCHES
from cpstats.engine.stats import half_width

__all__ = ["MIN_EVENT_BATCHES", "TOO_FEW_EVENTS", "DIFFERENCE_COLUMNS", "deals_for_interval", "paired_difference",
           "batch_difference", "difference_of", "paired_row", "ROUNDING"]

#: A paired difference rests on the deals where the two runs' results differ (a rare hand that a
#: rule pays). Where fewer of the run's batches than this hold such a deal, the difference is
#: given without an interval: t on batch differences that are nearly all 0 claims a band far
#: narrower than the truth (a run that never met the hand shows 0 to 0).
MIN_EVENT_BATCHES = 10
#: The note of a difference given without an interval.
TOO_FEW_EVENTS = "too few events"
#: The columns of a paired difference in a compare or sweep row (:func:`paired_row`).
DIFFERENCE_COLUMNS = ("diff", "diff_ci_low", "diff_ci_high", "diff_events", "diff_note", "deals_for_interval")


def deals_for_interval(events: int, deals: int, batches: int, confidence: float = 0.95) -> float:
    """Deals a run needs for :data:`MIN_EVENT_BATCHES` of its batches to hold a differing deal,
    from ``events`` of the ``batches`` batches of a run of ``deals`` that did.

    Differing deals are taken as rare and independent (Poisson, rate r a deal): a batch of m deals
    holds one with chance 1 - exp(-r m), so ``events`` of ``batches`` batches estimate r =
    -ln(1 - events / batches) batches / deals. The longer run has
    :data:`~cpstats.engine.batches.BATCHES` (B) batches of D / B deals, k of which must hold
    one: D = -B ln(1 - k / B) / r, never fewer than B. With no differing deal seen, r is below
    -ln(1 - confidence) / deals (3 / deals at 95%: the rule of three), so the figure is a lower
    bound. A run of fewer than k batches (a few deals: one batch a deal) gets a number too.
    """
    if events:
        rate = -np.log1p(-min(events, batches - 1) / batches) * batches / deals
    else:
        rate = -np.log1p(-confidence) / deals
    need = -np.log1p(-MIN_EVENT_BATCHES / BATCHES)
    return float(max(np.ceil(BATCHES * need / rate), BATCHES))


def paired_difference(diff_batches: np.ndarray | None, deals: int, level: float, *,
                      same_rules: bool = False) -> tuple[float, float, str, float]:
    """(half-width, batches holding a difference, note, deals that would give an interval) of a
    paired difference from its per-batch differences.

    Rule: a difference rests on the deals where the two runs differ; the batches with a nonzero
    difference count them (each holds at least one). With fewer than :data:`MIN_EVENT_BATCHES`
    such batches the half-width is NaN and the note says ``too few events`` and how many deals
    would give an interval (:func:`deals_for_interval`; ``at least`` where none differed). The
    same rules on the same deals (``same_rules``) differ by exactly 0: half-width 0, no note.
    """
    if diff_batches is None or len(diff_batches) < 2 or not np.isfinite(diff_batches).all():
        return float("nan"), float("nan"), "", float("nan")
    events = int(np.count_nonzero(diff_batches))
    if same_rules and not events:
        return 0.0, 0.0, "", float("nan")
    if events >= MIN_EVENT_BATCHES:
        return half_width(diff_batches, level), float(events), "", float("nan")
    batches = len(diff_batches)
    needed = deals_for_interval(events, deals, batches, level)
    if events:
        return (float("nan"), float(events),
                f"{TOO_FEW_EVENTS}: {events} of {batches} batches differ (an interval needs "
                f"{MIN_EVENT_BATCHES}); about {needed:,.0f} deals would give one", needed)
    return (float("nan"), 0.0, f"{TOO_FEW_EVENTS}: no batch differs (an interval needs "
            f"{MIN_EVENT_BATCHES}); if the rules can differ here, at least {needed:,.0f} deals "
            f"would give one", needed)


#: Differences within this share of the values are rounding: a figure computed from equal deals
#: along two paths (a result less an equal charge, squared) differs by ~1e-15, not by a deal.
ROUNDING = 1e-12


def difference_of(mine, first):
    """``mine - first`` (numbers or arrays) with the differences that are rounding (within
    :data:`ROUNDING` of the values) set to exactly 0."""
    a, b = np.asarray(mine, dtype=float), np.asarray(first, dtype=float)
    diff = a - b
    return np.where(np.abs(diff) <= ROUNDING * np.maximum(np.abs(a), np.abs(b)), 0.0, diff)


def batch_difference(mine, first, same_rules: bool, deals: int, level: float) -> tuple[float, float, str, float]:
    """:func:`paired_difference` of two figures' per-batch values (each with ``batches``, as
    :class:`~cpstats.engine.base.FigureBatches`): the paired difference of runs on common deals."""
    return paired_difference(difference_of(mine.batches, first.batches), deals, level, same_rules=same_rules)


def paired_row(mine, first, difference: tuple[float, float, str, float] | None) -> dict:
    """A figure's row of a compare or a sweep: its estimate, interval and method (``mine``: any
    figure with ``estimate``, ``ci_low``, ``ci_high`` and ``method``), then its difference to
    ``first``'s estimate with the interval ``diff -+ half`` and the rest of ``difference`` =
    (half-width, batches holding a difference, note, deals an interval needs), as
    :func:`paired_difference` gives them (:data:`DIFFERENCE_COLUMNS`). Without a first figure (a
    seat the first point does not seat) the difference is NaN."""
    row = {"estimate": mine.estimate, "ci_low": mine.ci_low, "ci_high": mine.ci_high, "method": mine.method}
    if first is None or difference is None:
        return {**row, "diff": np.nan, "diff_ci_low": np.nan, "diff_ci_high": np.nan, "diff_events": np.nan,
                "diff_note": "", "deals_for_interval": np.nan}
    half, events, note, needed = difference
    diff = float(difference_of(mine.estimate, first.estimate))
    return {**row, "diff": diff, "diff_ci_low": diff - half, "diff_ci_high": diff + half, "diff_events": events,
            "diff_note": note, "deals_for_interval": needed}
