"""The designer's figures of a 13-card result, each for the whole run and for every batch: the
comparison figures that :func:`~cpstats.thirteen.paired.paired_metrics`, the sweep and the engine's
paired compare read (:data:`METRICS`), defined once here.

A ratio (a rate over live pairs, the rake share of gross) is given per batch as the batch's own
ratio; a figure the result lacks per batch (saved before summary format 3) has None for them.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from cpstats.errors import OptionError
from cpstats.rules.house import Rake, RakeModel
from cpstats.engine.base import FigureBatches, Result
from cpstats.engine.catalogue import of_the_play, resolve_figures
from cpstats.engine.paired import half_width
from cpstats.engine.stats import batch_variances, check_confidence
from cpstats.thirteen import house
from cpstats.thirteen.catalogue import FIGURES

__all__ = ["METRICS", "SIGNED_METRICS", "BEFORE_CHARGES", "without_charges", "charges_anything", "metric_batches", "figure_batches"]

#: Figures by key: (words, unit, games it is shown for: "all", "banked" or "symmetric").
METRICS = {
    "bank_mean": ("bank's result per hand (seat 0; banked game)", "units", "banked"),
    "house_edge": ("house edge per unit wagered (banked game; = element of risk)", "share", "banked"),
    "sd": ("SD of a player's result per hand before house charges", "units", "all"),
    "sd_after_charges": ("SD of a player's result per hand after house charges", "units", "all"),
    "mean_after_charges": ("a player's mean result per hand after house charges", "units", "all"),
    "scoop_rate": ("scoop rate (a hand scoops a given opponent)", "share", "all"),
    "home_run_rate": ("home-run rate (a hand scoops every opponent)", "share", "all"),
    "foul_rate": ("foul rate per hand", "share", "all"),
    "royalty_per_hand": ("royalties paid per hand (units changing hands, whole table)", "units", "all"),
    "natural_per_hand": ("naturals paid per hand (units changing hands, whole table)", "units", "all"),
    "rake_per_hand": ("house take per hand (rake, commission, fees)", "units", "all"),
    "rake_per_seat_per_hand": ("cost per player per hand (house take / seats)", "units", "symmetric"),
    "rake_per_seat_per_hour": ("house take per seat-hour (units an hour)", "units", "all"),
    "rake_share": ("house take as a share of gross winnings", "share", "all"),
}


#: Figures that can be negative; every other figure's interval is clipped at 0 from below.
SIGNED_METRICS = frozenset({"bank_mean", "house_edge", "mean_after_charges"})

#: Figures of the play alone, before any house charge (their basis in the catalogue): two variants
#: that differ only in their house charges (rake, commission, fees, the pace) give them exactly
#: equal on common deals.
BEFORE_CHARGES = frozenset(name for name in METRICS if of_the_play(name, resolve_figures(FIGURES)))

def without_charges(v):
    """The variant's rules of play: ``v`` with no rake, commission or fee (and a fixed name), so
    two variants that differ only in what the house charges compare equal."""
    return replace(v, name="play", rake=Rake(), bank=replace(v.bank, commission=0.0, fee=0.0))


def charges_anything(v) -> bool:
    """Whether the house charges anything under ``v``'s rules (a rake or time fee, a commission, a fee)."""
    return v.rake.model is not RakeModel.NONE or v.bank.commission > 0 or v.bank.fee > 0


def _pace(result: Result, hands_per_hour: float | None) -> float:
    pace = result.variant.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
    if isinstance(pace, bool) or not isinstance(pace, (int, float, np.number)) \
            or not np.isfinite(pace) or pace <= 0:
        raise OptionError(f"hands_per_hour={pace!r} is invalid: a pace above 0 hands an hour")
    return float(pace)


def _player_sd(s, seats: slice) -> tuple[float, np.ndarray | None]:
    n = s.batch_sizes.sum()
    var = np.maximum(s.net_sq_sum / n - (s.net_sum / n) ** 2, 0.0)
    per_batch = batch_variances(s.net_by_batch, s.net_sq_by_batch, s.batch_sizes)
    whole = float(np.sqrt(var[seats]).mean())
    return whole, None if per_batch is None else np.sqrt(per_batch[:, seats]).mean(axis=1)


def _after_charges(s, seats: slice) -> dict[str, tuple[float, np.ndarray | None]]:
    """A player's mean and SD after house charges (net less the seat's share of the charge), the
    mean over the player seats as :func:`_player_sd`; none for a summary saved before format 4."""
    if s.charge_sum is None or s.charge_by_batch is None:
        return {}
    n = s.batch_sizes.sum()
    mean = (s.net_sum - s.charge_sum) / n
    var = np.maximum(s.after_charge_sq_sum / n - mean**2, 0.0)
    after_by_batch = s.net_by_batch - s.charge_by_batch
    per_batch = batch_variances(after_by_batch, s.after_charge_sq_by_batch, s.batch_sizes)
    count = len(range(*seats.indices(len(mean))))  # summed before dividing: a game without charges gives 0
    return {"sd_after_charges": (float(np.sqrt(var[seats]).mean()),
                                 None if per_batch is None else np.sqrt(per_batch[:, seats]).mean(axis=1)),
            "mean_after_charges": (float(after_by_batch[:, seats].sum() / n / count),
                                   after_by_batch[:, seats].sum(axis=1) / s.batch_sizes / count)}


def _house_take(result: Result, pace: float) -> tuple[float, np.ndarray]:
    """Rake per hand, a time charge re-priced at ``pace`` (it is charged per hour whatever the pace)."""
    v, s = result.variant, result.summary
    shift = 0.0
    if v.rake.model is RakeModel.TIME:
        shift = v.rake.amount * v.players * (1 / pace - 1 / v.rake.hands_per_hour)
    return result.rake_per_deal() + shift, s.rake_by_batch / s.batch_sizes + shift


def metric_batches(result: Result, hands_per_hour: float | None = None
                   ) -> dict[str, tuple[float, np.ndarray | None]]:
    """Every figure of :data:`METRICS` shown for ``result``'s game: (whole-run value, per-batch
    values or None where the result lacks them, e.g. saved before summary format 3)."""
    v, s = result.variant, result.summary
    sizes = s.batch_sizes.astype(float)
    banked = v.bank.banked
    hands = v.players * v.hands_per_player
    out: dict[str, tuple[float, np.ndarray | None]] = {}

    def ratio(key: str, top: np.ndarray | None, den: np.ndarray | None) -> None:
        if top is not None:
            with np.errstate(divide="ignore", invalid="ignore"):
                out[key] = float(top.sum() / den.sum()), top / den

    if banked:
        out["bank_mean"] = float(s.net_sum[0]) / result.deals, s.net_by_batch[:, 0] / sizes
        per, _ = house.bank_edge_sums(v, s)
        out["house_edge"] = float(per.sum() / sizes.sum()), per / sizes
    players = slice(1, None) if banked and v.players > 1 else slice(None)
    out["sd"] = _player_sd(s, players)
    out.update(_after_charges(s, players))
    for key, top, bottom in (("scoop_rate", s.scoops_by_batch, s.pairs_played_by_batch),
                             ("home_run_rate", s.home_runs_by_batch, sizes * hands),
                             ("foul_rate", s.fouls_by_batch, sizes * hands),
                             ("royalty_per_hand", s.royalty_paid_by_batch, sizes),
                             ("natural_per_hand", s.natural_paid_by_batch, sizes)):
        ratio(key, top, bottom)
    pace = _pace(result, hands_per_hour)
    take, take_batches = _house_take(result, pace)
    out["rake_per_hand"] = take, take_batches
    if not banked:
        out["rake_per_seat_per_hand"] = take / v.players, take_batches / v.players
    out["rake_per_seat_per_hour"] = take * pace / v.players, take_batches * pace / v.players
    if s.gross_by_batch is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            out["rake_share"] = (take * result.deals / float(s.gross_sum) if s.gross_sum else np.nan,
                                 (take_batches * sizes) / s.gross_by_batch)
    return out


def figure_batches(result: Result, confidence: float = 0.95,
                   hands_per_hour: float | None = None) -> dict[str, FigureBatches]:
    """Every figure of :func:`metric_batches` with its interval (Student's t on the batch values,
    the low end clipped at 0 for a figure that cannot be negative, as :func:`paired_metrics`
    gives it), for the engine's paired compare and sweep. A figure without batch values (a result
    saved before summary format 3) is left out."""
    level = check_confidence(confidence)
    out = {}
    for key, (value, batches) in metric_batches(result, hands_per_hour).items():
        if batches is None:
            continue
        half = half_width(batches, level)
        low = value - half if key in SIGNED_METRICS else max(value - half, 0.0)
        out[key] = FigureBatches(value, low, value + half, batches, "batch t")
    return out
