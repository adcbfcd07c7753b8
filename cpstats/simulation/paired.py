"""The designer's figures of several results side by side, each with its interval and its paired
difference to the first.

Every figure is computed for the whole run and for each of its batches (30 by default). Its
interval is Student's t (``batches - 1`` degrees of freedom) on the batch values; a ratio (a rate
over live pairs, the rake share of gross) uses batch ratios. Two runs on the same deals (same
seed, deals and batch plan: :func:`~cpstats.simulation.compare`, or the shipped reference results)
are paired batch by batch: the difference's interval is t on the per-batch differences, which
leave out the noise the common deals share. Runs on other deals are compared as independent:
the standard errors add in quadrature (``method`` says which).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from cpstats.rules.house import RakeModel
from cpstats.errors import OptionError
from cpstats.rules.describe import short_label
from cpstats.simulation.result import SimulationResult
from cpstats.simulation import house
from cpstats.simulation.stats import batch_variances, check_confidence, t_value

__all__ = ["METRICS", "SIGNED_METRICS", "MIN_EVENT_BATCHES", "TOO_FEW_EVENTS", "metric_batches",
           "paired_metrics", "paired_difference"]

#: Figures by key: (words, unit, games it is shown for: "all", "banked" or "symmetric").
METRICS = {
    "bank_mean": ("bank's result per hand (seat 0; banked game)", "units", "banked"),
    "house_edge": ("house edge per unit wagered (banked game; = element of risk)", "share", "banked"),
    "sd": ("SD of a player's result per hand", "units", "all"),
    "scoop_rate": ("scoop rate (a hand scoops a given opponent)", "share", "all"),
    "home_run_rate": ("home-run rate (a hand scoops every opponent)", "share", "all"),
    "foul_rate": ("foul rate per hand", "share", "all"),
    "royalty_per_hand": ("royalties paid per hand (units changing hands, whole table)", "units", "all"),
    "natural_per_hand": ("naturals paid per hand (units changing hands, whole table)", "units", "all"),
    "house_take_per_hand": ("house take per hand (rake, commission, fees)", "units", "all"),
    "cost_per_player": ("cost per player per hand (house take / seats)", "units", "symmetric"),
    "house_take_per_seat_hour": ("house take per seat-hour (units an hour)", "units", "all"),
    "rake_share": ("house take as a share of gross winnings", "share", "all"),
}


#: Figures that can be negative; every other figure's interval is clipped at 0 from below.
SIGNED_METRICS = frozenset({"bank_mean", "house_edge"})

#: A paired difference rests on the deals where the two runs' results differ (a rare hand that a
#: rule pays). Where fewer of the run's batches than this hold such a deal, the difference is
#: given without an interval: t on batch differences that are nearly all 0 claims a band far
#: narrower than the truth (a run that never met the hand shows 0 to 0).
MIN_EVENT_BATCHES = 10
#: The note of a difference given without an interval.
TOO_FEW_EVENTS = "too few events"


def _pace(result: SimulationResult, hands_per_hour: float | None) -> float:
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


def _house_take(result: SimulationResult, pace: float) -> tuple[float, np.ndarray]:
    """Rake per hand, a time charge re-priced at ``pace`` (it is charged per hour whatever the pace)."""
    v, s = result.variant, result.summary
    shift = 0.0
    if v.rake.model is RakeModel.TIME:
        shift = v.rake.amount * v.players * (1 / pace - 1 / v.rake.hands_per_hour)
    return result.rake_per_deal() + shift, s.rake_by_batch / s.batch_sizes + shift


def metric_batches(result: SimulationResult, hands_per_hour: float | None = None
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
    out["sd"] = _player_sd(s, slice(1, None) if banked and v.players > 1 else slice(None))
    for key, top, bottom in (("scoop_rate", s.scoops_by_batch, s.pairs_played_by_batch),
                             ("home_run_rate", s.home_runs_by_batch, sizes * hands),
                             ("foul_rate", s.fouls_by_batch, sizes * hands),
                             ("royalty_per_hand", s.royalty_paid_by_batch, sizes),
                             ("natural_per_hand", s.natural_paid_by_batch, sizes)):
        ratio(key, top, bottom)
    pace = _pace(result, hands_per_hour)
    take, take_batches = _house_take(result, pace)
    out["house_take_per_hand"] = take, take_batches
    if not banked:
        out["cost_per_player"] = take / v.players, take_batches / v.players
    out["house_take_per_seat_hour"] = take * pace / v.players, take_batches * pace / v.players
    if s.gross_by_batch is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            out["rake_share"] = (take * result.deals / float(s.gross_sum) if s.gross_sum else np.nan,
                                 (take_batches * sizes) / s.gross_by_batch)
    return out


def _common_deals(a: SimulationResult, b: SimulationResult) -> bool:
    keys = ("entropy", "spawn_key", "deals", "batches", "block_deals")
    return (all(a.metadata.get(k) == b.metadata.get(k) for k in keys)
            and np.array_equal(a.summary.batch_sizes, b.summary.batch_sizes))


def _same_rules(a: SimulationResult, b: SimulationResult) -> bool:
    """The same rules set by the same setter: on common deals their figures are the same."""
    return str(a.variant) == str(b.variant) and all(
        a.metadata.get(k) == b.metadata.get(k) for k in ("strategy", "tables"))


def _interval(values: np.ndarray | None, confidence: float) -> float:
    """t half-width on batch values (NaN without them or with any undefined batch)."""
    if values is None or len(values) < 2 or not np.isfinite(values).all():
        return float("nan")
    return t_value(confidence, len(values)) * float(values.std(ddof=1)) / np.sqrt(len(values))


def deals_for_interval(events: int, deals: int, batches: int, confidence: float = 0.95) -> float:
    """Deals a run needs for :data:`MIN_EVENT_BATCHES` of its ``batches`` to hold a differing deal,
    from ``events`` batches of a run of ``deals`` that did.

    Differing deals are taken as rare and independent (Poisson, rate r a deal): a batch of n deals
    holds one with chance 1 - exp(-r n), so ``events`` of ``batches`` estimate r n = -ln(1 -
    events / batches), and the deals needed are ``deals * ln(1 - k / batches) / ln(1 - events /
    batches)``. With no differing deal seen, r is below -ln(1 - confidence) / deals (3 / deals at
    95%: the rule of three), so the figure is a lower bound.
    """
    need = -np.log1p(-MIN_EVENT_BATCHES / batches)
    if events:
        seen = -np.log1p(-min(events, batches - 1) / batches)
    else:  # the rule of three: r * deals < -ln(1 - confidence), r n < that / batches
        seen = -np.log1p(-confidence) / batches
    return float(np.ceil(deals * need / seen))


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
        return _interval(diff_batches, level), float(events), "", float("nan")
    batches = len(diff_batches)
    needed = deals_for_interval(events, deals, batches, level)
    if events:
        return (float("nan"), float(events),
                f"{TOO_FEW_EVENTS}: {events} of {batches} batches differ (an interval needs "
                f"{MIN_EVENT_BATCHES}); about {needed:,.0f} deals would give one", needed)
    return (float("nan"), 0.0, f"{TOO_FEW_EVENTS}: no batch differs (an interval needs "
            f"{MIN_EVENT_BATCHES}); if the rules can differ here, at least {needed:,.0f} deals "
            f"would give one", needed)


def _row(key: str, run: int, label: str, variant: str, mine, base, paired: bool, level: float,
         deals: int = 0, same_rules: bool = False) -> dict:
    words, unit, _ = METRICS[key]
    value, batches = mine
    half = _interval(batches, level)
    low = value - half if key in SIGNED_METRICS else max(value - half, 0.0)  # rates, SDs and takes are >= 0
    row = {"run": run, "label": label, "variant": variant, "metric": key, "description": words, "unit": unit,
           "estimate": value, "ci_low": low, "ci_high": value + half}
    none = {"diff_events": np.nan, "diff_note": "", "deals_for_interval": np.nan}
    if base is None:
        return {**row, "diff": np.nan, "diff_ci_low": np.nan, "diff_ci_high": np.nan, "method": "", **none}
    diff = value - base[0]
    if paired:
        both = None if batches is None or base[1] is None else batches - base[1]
        dhalf, events, note, needed = paired_difference(both, deals, level, same_rules=same_rules)
        method, none = "paired batches", {"diff_events": events, "diff_note": note,
                                          "deals_for_interval": needed}
    else:
        dhalf = float(np.hypot(half, _interval(base[1], level)))
        method = "independent runs"
    return {**row, "diff": diff, "diff_ci_low": diff - dhalf, "diff_ci_high": diff + dhalf, "method": method,
            **none}


def _default_labels(results: Sequence[SimulationResult]) -> list[str]:
    short = [short_label(r.variant) for r in results]
    return short if len(set(short)) == len(short) else [str(r.variant) for r in results]


def paired_metrics(results: Sequence[SimulationResult], labels: Sequence[str] | None = None, *,
                   hands_per_hour: float | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """One row per result and figure: estimate with its interval, and the difference to the
    first result with its interval.

    Parameters
    ----------
    results
        Two or more results; the first is the base (A) every other is compared with.
    labels
        Short names for the results (default: :func:`cpstats.rules.describe.short_label` of each
        variant, or the variant strings when two short labels would be the same).
    hands_per_hour
        Pace for the house take per seat-hour (None: each variant's ``rake.hands_per_hour``).
    confidence
        Level of every interval.

    Returns
    -------
    pandas.DataFrame
        ``run`` (position in ``results``), ``label``, ``variant``, ``metric`` (a key of
        :data:`METRICS`), ``description``, ``unit``, ``estimate``, ``ci_low``, ``ci_high`` (its low
        end clipped at 0 for a figure that cannot be negative; a figure never seen in the run has
        the interval 0 to 0: batch means cannot bound what no batch saw),
        ``diff`` (this result less the first), ``diff_ci_low``, ``diff_ci_high``, ``method``
        (``paired batches`` or ``independent runs``), and for a paired difference
        ``diff_events`` (batches holding a deal where the two differ), ``diff_note`` and
        ``deals_for_interval``: with fewer than :data:`MIN_EVENT_BATCHES` such batches the
        difference has no interval (NaN ends), the note says ``too few events`` and the deals a
        run would need for one (:func:`paired_difference`). The same rules and setter on the
        same deals differ by exactly 0, interval 0 to 0. A figure shows only for the games it
        describes: seat 0's (the bank's) mean and the house edge in banked games; the cost per
        player in symmetric games (seat 0's mean is 0 up to noise there). The base's own
        difference is exactly 0; a difference to a base lacking the figure is NaN.

    Examples
    --------
    >>> from cpstats.simulation import simulate
    >>> runs = [simulate(v, 1_000, setter="greedy", rng=1)
    ...         for v in ("2-4", "2-4(rake=percent,rake.percent=0.05)")]
    >>> table = paired_metrics(runs, ["no rake", "5% rake"]).set_index(["label", "metric"])
    >>> bool(table.loc[("5% rake", "cost_per_player"), "diff_ci_low"] > 0)
    True
    """
    level = check_confidence(confidence)
    results = list(results)
    if not results:
        raise OptionError("paired_metrics needs at least one result")
    names = _default_labels(results) if labels is None else [str(x) for x in labels]
    if len(names) != len(results):
        raise OptionError(f"labels has {len(names)} names for {len(results)} results: one a result")
    if labels is not None and len(set(names)) != len(names):
        raise OptionError(f"labels={names!r} is invalid: each result needs its own name")
    figures = [metric_batches(r, hands_per_hour) for r in results]
    rows = []
    for i, (r, name, mine) in enumerate(zip(results, names, figures)):
        paired = _common_deals(results[0], r)
        same = paired and _same_rules(results[0], r)
        for key in METRICS:
            if key in mine:
                rows.append(_row(key, i, name, str(r.variant), mine[key], figures[0].get(key), paired,
                                 level, r.deals, same))
    return pd.DataFrame(rows)
