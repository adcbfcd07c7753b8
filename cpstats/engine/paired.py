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

__all__ = ["MIN_EVENT_BATCHES", "TOO_FEW_EVENTS", "deals_for_interval", "paired_difference"]

#: A paired difference rests on the deals where the two runs' results differ (a rare hand that a
#: rule pays). Where fewer of the run's batches than this hold such a deal, the difference is
#: given without an interval: t on batch differences that are nearly all 0 claims a band far
#: narrower than the truth (a run that never met the hand shows 0 to 0).
MIN_EVENT_BATCHES = 10
#: The note of a difference given without an interval.
TOO_FEW_EVENTS = "too few events"


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
