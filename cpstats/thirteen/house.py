"""House money, defined once: what a seat pays the house a hand and the edge it needs to break even.

Every view (``SimulationResult.house``, the PAR sheet's operator economics and typical charges,
the House edge and rake tab) takes these figures from here, so one run gives one number.

- The house's charge per hand is the rake proper plus, in a banked game, the bank's commission
  or fee (the settlement's ``rake``); a time charge is per seat-hour, so per hand it is
  ``amount x seats / hands_per_hour`` at the pace asked for.
- The **break-even skill edge** is the edge per hand a player needs over the field to break
  even after every house charge: its share of the charge (``charge / seats``) in a game between
  players; in a banked game the player's expected loss to the house a hand, the bank's tie
  advantage and its commission or fee included (``3 x house edge`` on the 3-unit wager).
- The jackpot drop is its own figure, never in the charge, its share of gross or the break-even
  edge: it returns to the players as jackpots.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cpstats.errors import OptionError
from cpstats.rules.house import BankSetter, RakeModel
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.stats import batch_mean_interval
from cpstats.thirteen.summary import SimulationSummary

__all__ = ["BANKED_WAGER", "Estimate", "check_pace", "charge_per_hand", "bank_edge_sums", "bank_edge",
           "break_even_edge"]

#: A banked game's initial wager: one unit on each of the three rows, staked before the deal.
BANKED_WAGER = 3.0


class Estimate(NamedTuple):
    """A figure with its interval and standard error (equal ends and SE 0 for a figure that is
    set, not estimated)."""

    estimate: float
    ci_low: float
    ci_high: float
    se: float = 0.0

    def scaled(self, factor: float) -> Estimate:
        low, high = sorted((self.ci_low * factor, self.ci_high * factor))
        return Estimate(self.estimate * factor, low, high, self.se * abs(factor))


def check_pace(variant: Variant, hands_per_hour: float | None) -> float:
    """The pace asked for, or the variant's own (``rake.hands_per_hour``): one default for every view."""
    pace = variant.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
    if isinstance(pace, bool) or not isinstance(pace, (int, float, np.number)) \
            or not np.isfinite(pace) or pace <= 0:
        raise OptionError(f"hands_per_hour={pace!r} is invalid: a pace above 0 hands an hour")
    return float(pace)


def charge_per_hand(variant: Variant, summary: SimulationSummary, hands_per_hour: float,
                    confidence: float = 0.95) -> Estimate:
    """The house's charge per hand (table), Student's t on the batch means; a time charge is
    re-priced at ``hands_per_hour`` (the run charged it at the variant's own pace)."""
    mean, se, half = batch_mean_interval(summary.rake_by_batch, summary.batch_sizes, confidence)
    shift = 0.0
    if variant.rake.model is RakeModel.TIME:
        shift = variant.rake.amount * variant.players * (1 / hands_per_hour - 1 / variant.rake.hands_per_hour)
    mean = float(mean) + shift
    return Estimate(mean, mean - float(half), mean + float(half), float(se))


def bank_edge_sums(variant: Variant, summary: SimulationSummary, *, charges: bool = True) -> tuple[np.ndarray, str]:
    """(Per-batch sums of the house edge per deal, method) of a banked game: the bank's gain per
    player seat from winning ties (a control variate: the game with ties pushed has mean 0 when
    every seat plays alike; where the bank sets by the house way, its result less what it would have
    netted setting as the players, ties pushed) plus, with ``charges``, the house's charges, over the
    3-unit wager."""
    opponents = max(variant.players - 1, 1)
    if summary.tie_gain_by_batch is not None:
        per_deal = summary.tie_gain_by_batch.astype(float)
        if variant.bank.setter is BankSetter.HOUSE_WAY:
            method = ("control variate: the bank's result less what it would have netted, ties pushed, had it "
                      "set as the players (that game's mean is 0)")
        else:
            method = "control variate: the bank's gain from winning ties (the pushed game's mean is 0)"
    else:  # results saved before the control variate was recorded
        per_deal = summary.net_by_batch[:, 0].astype(float)
        method = "raw mean of the bank's result"
    if charges:
        per_deal = per_deal + summary.rake_by_batch
    return per_deal / (opponents * BANKED_WAGER), method


def bank_edge(variant: Variant, summary: SimulationSummary, confidence: float = 0.95) -> tuple[Estimate, str]:
    """(House edge per unit of the 3-unit wager, method) of a banked game (:func:`bank_edge_sums`),
    Student's t on the batch means."""
    sums, method = bank_edge_sums(variant, summary)
    edge, se, half = batch_mean_interval(sums, summary.batch_sizes, confidence)
    edge, half = float(edge), float(half)
    return Estimate(edge, edge - half, edge + half, float(se)), method


def break_even_edge(variant: Variant, charge: Estimate, edge: Estimate | None = None) -> Estimate:
    """The break-even skill edge (module docstring) from the charge per hand and, in a banked
    game, the house edge per unit of wager."""
    if variant.bank.banked:
        if edge is None:
            raise OptionError("a banked game's break-even edge needs its house edge")
        return edge.scaled(BANKED_WAGER)
    return charge.scaled(1 / variant.players)
