"""13-card rule sweeps: one rule parameter over a range of values, every point on the same deals.

:func:`sweep` is the engine's sweep (:class:`~cpstats.engine.sweep.Sweep`: its loop, its row, its
pairing) with this game's hooks: its figures and their words, the low end of an interval clipped
at 0 for a figure that cannot be negative, and a table without ``method``. Each point is one
variant per value (the variant string's keys: ``royalties.front_trips``, ``scoring.scoop_bonus``,
``rake.percent``, ``players``...), simulated on the deals of one seed; the tidy table has per point
and metric the estimate with its interval, and the paired difference to the first point with its
interval, in the layout every game's sweep shares, so the chart and the command line read them all.

- Decision: every interval is Student's t (``batches - 1`` degrees of freedom) on the run's 30
  batches: a metric's per-batch values for its own interval (batch means, or batch ratios for
  rates), the per-batch differences between a point and the first for the paired difference.
  The batches hold the same deals at every point, so the common noise cancels; a value given
  twice gives a difference of exactly 0 with a zero-width interval.
- Decision: every figure and its batch values are those of
  :func:`~cpstats.thirteen.paired.metric_batches` (from the summary's per-batch arrays, so no
  hands are kept); a metric keeps its sweep name, mapped by :data:`PAIRED_NAMES`, and paired.py's
  name is accepted too. Its definitions hold: royalties paid per hand are the units royalties move
  to the seats that make them (each deal settled again without royalties and naturals as declared);
  in a banked game the house take is the house's commission and fees only, not the bank's gain
  (seat 0's mean, ``mean_seat0``, shows that: its result between the seats, before commission,
  which a commission therefore does not move; ``house_edge`` is the edge after it, as
  :meth:`~cpstats.thirteen.result.SimulationResult.house` gives it); a time fee's take per hand is priced at
  ``hands_per_hour``, as :meth:`~cpstats.thirteen.result.SimulationResult.house` prices it.
- Decision: a sweep over ``players`` deals the same decks at every point, so seats 0..k-1 hold the
  same 13 cards whatever the seat count, but a point with more players deals more hands: the
  pairing is partial (nested deals). Its differences stay valid (batches are independent) with
  wider intervals than a sweep on the same table; ``attrs["pairing"]`` says ``nested deals``.
- Decision: seat 0's mean is a default metric only where seats differ (a banked game, whose bank is
  seat 0, or a stakes matrix); in a symmetric game it is noise around minus the rake share and
  is shown, when asked for, under a label that says so. The house edge is a default, and
  possible, only in banked games.
- Decision: a paired difference resting on too few differing deals (fewer than
  :data:`~cpstats.engine.paired.MIN_EVENT_BATCHES` batches with a nonzero difference, such
  as a front-trips royalty in a short run) has no interval: ``diff_note`` says ``too few
  events`` and ``deals_for_interval`` how many deals a point would need
  (:func:`~cpstats.engine.paired.paired_difference`, the rule ``compare`` uses).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from cpstats.cards.blocks import BLOCK_DEALS
from cpstats.errors import OptionError, check_whole
from cpstats.thirteen.rules.ids import NATURAL_NAMES, ROYALTY_ROWS
from cpstats.thirteen.rules.variant import Variant
from cpstats.rules.check import suggest
from cpstats.thirteen.rules.text import ALIASES, KEY_INDEX
from cpstats.engine.base import FigureBatches
from cpstats.engine.stats import check_confidence, half_width
from cpstats.engine.points import metric_names, sweep_points, sweep_values
from cpstats.engine.sweep import SWEEP_COLUMNS, Sweep
from cpstats.engine.catalogue import resolve_figures
from cpstats.engine.figures_text import catalogue_labels
from cpstats.thirteen.catalogue import FIGURES
from cpstats.thirteen.paired import SIGNED_METRICS, metric_batches
from cpstats.thirteen.metrics import BEFORE_CHARGES, charges_anything, without_charges
from cpstats.thirteen.result import SimulationResult

__all__ = ["sweep", "key_name", "parameter_label", "point_batches", "METRICS", "METRIC_LABELS",
           "PAIRED_NAMES"]

#: Every metric a sweep can report, in table order.
METRICS = ("mean_seat0", "house_edge", "sd", "sd_after_charges", "mean_after_charges", "scoop_rate",
           "home_run_rate", "royalty_per_hand", "rake_per_hand", "rake_per_seat_per_hour", "foul_rate")
#: What each metric is, as tables and charts name it: the catalogue's label.
METRIC_LABELS = {m: label[:1].upper() + label[1:]
                 for m, label in catalogue_labels(METRICS, resolve_figures(FIGURES)).items()}
#: Each metric's key in :data:`cpstats.thirteen.paired.METRICS`, whose definition it uses
#: (``bank_mean`` is seat 0's mean, there shown for banked games only).
PAIRED_NAMES = {"mean_seat0": "bank_mean", "house_edge": "house_edge", "sd": "sd", "sd_after_charges": "sd_after_charges",
                "mean_after_charges": "mean_after_charges", "scoop_rate": "scoop_rate",
                "home_run_rate": "home_run_rate", "royalty_per_hand": "royalty_per_hand",
                "rake_per_hand": "rake_per_hand", "rake_per_seat_per_hour": "rake_per_seat_per_hour",
                "foul_rate": "foul_rate"}
_FROM_PAIRED = {paired: name for name, paired in PAIRED_NAMES.items()}

_WORDS = {
    "players": "Players at the table", "surrender": "Surrender price (units per opponent)",
    "misset": "Mis-set penalty (units)", "royalties.unit": "Royalty for every royalty hand (units)",
    "scoring.scoop_bonus": "Scoop bonus (units)", "scoring.scoop_multiplier": "Scoop multiplier",
    "scoring.home_run_bonus": "Home-run bonus (units)", "scoring.row": "Points per row",
    "scoring.home_run_multiplier": "Home-run multiplier", "scoring.majority": "Majority bonus (units)",
    "rake.percent": "Rake (share of the pot)", "rake.cap": "Rake cap (units)",
    "rake.amount": "Rake or time fee (units)", "rake.threshold": "Rake threshold (units of pot)",
    "rake.hands_per_hour": "Hands per hour", "rake.jackpot_drop": "Jackpot drop per hand (units)",
    "bank.commission": "Bank commission (share of a win)", "bank.fee": "Bank fee per hand (units)",
    "rake": "Rake model", "royalties": "Royalty schedule", "naturals": "Natural schedule",
    "scoring": "Scoring system", "bank": "Bank", "royalty_mode": "Royalty mode",
    "home_run": "Home run in play", "royalties.payment": "Royalty payment",
}


def parameter_label(parameter: str) -> str:
    """A parameter's name in words for a chart or table: ``royalties.front_trips`` ->
    ``Royalty for front trips (units)``, ``rake.percent`` -> ``Rake (share of the pot)``."""
    key = _canonical(parameter)
    if key in _WORDS:
        return _WORDS[key]
    head, _, tail = key.partition(".")
    if head == "royalties" and tail in ROYALTY_ROWS:
        return f"Royalty for {tail.replace('_', ' ')} (units)"
    if head == "naturals" and tail in NATURAL_NAMES:
        return f"Natural {tail.replace('_', ' ')} pays (units)"
    if head == "scoring" and tail in ("front", "middle", "back"):
        return f"Points for the {tail} row"
    return key.replace(".", ": ").replace("_", " ").capitalize()


def _canonical(parameter: str) -> str:
    name = str(parameter).strip().lower()
    return ALIASES.get(name, name)


def key_name(parameter: str) -> str:
    """``parameter`` as the 13-card variant string writes it (an alias resolved); an unknown key
    (or ``name``, a label) is one line with close matches."""
    if not isinstance(parameter, str) or _canonical(parameter) not in KEY_INDEX \
            or _canonical(parameter) == "name":
        keys = [k for k in KEY_INDEX if k != "name"]
        raise OptionError(f"parameter={parameter!r} is invalid: a key of the variant string such as "
                          f"royalties.front_trips, scoring.scoop_bonus, rake.percent or players"
                          f"{suggest(str(parameter), keys)}")
    return _canonical(parameter)


def _asymmetric(v: Variant) -> bool:
    return v.bank.banked or v.stakes is not None


def _metrics(metrics: Sequence[str] | None, vs: Sequence[Variant],
             hands_per_hour: float | None) -> list[str]:
    if metrics is None:
        chosen = [m for m in METRICS if m not in ("home_run_rate", "mean_after_charges")]
        if not any(_asymmetric(v) for v in vs):
            chosen.remove("mean_seat0")
        if not any(v.bank.banked for v in vs):
            chosen.remove("house_edge")
        if hands_per_hour is None:
            chosen.remove("rake_per_seat_per_hour")
        if not any(charges_anything(v) for v in vs):
            chosen.remove("sd_after_charges")  # the sd itself
        return chosen
    out = metric_names(metrics, METRICS, aliases=_FROM_PAIRED)
    plain = next((v for v in vs if not v.bank.banked), None)
    if "house_edge" in out and plain is not None:
        raise OptionError(f"metrics='house_edge' is invalid for {plain}: a house edge is a banked "
                          f"game's (set bank=, e.g. bank=S-BANK)")
    return out


def _check_pace(hands_per_hour: float | None) -> float | None:
    if hands_per_hour is None:
        return None
    ok = isinstance(hands_per_hour, (int, float, np.number)) and not isinstance(hands_per_hour, bool)
    if not ok or not math.isfinite(hands_per_hour) or hands_per_hour <= 0:
        raise OptionError(f"hands_per_hour={hands_per_hour!r} is invalid: a pace above 0 hands an hour")
    return float(hands_per_hour)


# -- per-batch figures of one point ---------------------------------------------------------------

def point_batches(result: SimulationResult, metrics: Sequence[str],
                  hands_per_hour: float | None = None) -> dict[str, tuple[float, np.ndarray]]:
    """Each metric of one point as (estimate, per-batch values): the estimate from every deal, the
    batch values for its interval and for paired differences. The figures are
    :func:`~cpstats.thirteen.paired.metric_batches`' (read from the summary's per-batch arrays,
    summary format 3), under the names of :data:`PAIRED_NAMES`; seat 0's mean is shown in every
    game, not only banked ones. A batch without a value (too few deals) is NaN.

    Raises
    ------
    OptionError
        A metric the result lacks (saved before the summary recorded per-batch counts).
    """
    s = result.summary
    figures = metric_batches(result, hands_per_hour)
    figures.setdefault("bank_mean", (float(s.net_sum[0]) / result.deals,
                                     s.net_by_batch[:, 0] / s.batch_sizes))
    out = {}
    for m in metrics:
        if PAIRED_NAMES[m] not in figures:
            raise OptionError(f"metrics={m!r} is invalid for this result: it was saved before the summary "
                              f"recorded per-batch counts (summary format 3); run it again")
        est, per = figures[PAIRED_NAMES[m]]
        out[m] = est, np.full(len(s.batch_sizes), np.nan) if per is None else per
    return out


def _label(metric: str, v: Variant) -> str:
    if metric == "mean_seat0":
        if v.bank.banked:  # nets are between the seats: the commission is the house's, apart
            return "The bank's (seat 0's) " + METRIC_LABELS[metric].lower().replace(", seat 0", "").replace(
                "before house charges", "before commission")
        return METRIC_LABELS[metric] + (" (symmetric game: noise around minus the rake share)"
                                        if not _asymmetric(v) else "")
    if metric in ("sd", "sd_after_charges") and v.bank.banked:
        return METRIC_LABELS[metric] + ", player seats"
    return METRIC_LABELS[metric]


# -- the sweep -----------------------------------------------------------------------------------

def sweep(v: Variant, parameter: str, values: Sequence[Any], *, deals: int,
          metrics: Sequence[str] | None = None, setter: Any, rng=None,
          executor: Executor | None = None, hands_per_hour: float | None = None,
          confidence: float = 0.95, block_deals: int | None = None,
          on_point: Callable[[int, Variant], None] | None = None,
          points: Sequence[Variant] | None = None) -> pd.DataFrame:
    """One 13-card rule parameter over ``values``, every point simulated on the same deals: the
    engine's sweep (:class:`~cpstats.engine.sweep.Sweep`) with this game's figures, words and
    ``attrs``, registered as the game's sweep behind :func:`cpstats.sweep`, which checks every
    point and resolves the setter first.

    Parameters
    ----------
    v
        The variant swept.
    parameter
        A key of the variant string (``royalties.front_trips``, ``scoring.scoop_bonus``,
        ``rake.percent``, ``rake.cap``, ``rake.amount``, ``bank.commission``, ``surrender``,
        ``players``...); each point is ``v`` with it set to one value.
    values
        The values, first one the baseline of the paired differences; each once (two values
        that give the same rules are refused).
    deals
        Deals per point.
    metrics
        Names from :data:`METRICS` (or their :data:`PAIRED_NAMES` in paired.py, shown under the
        sweep's name); None for the defaults: SD, scoop rate, royalties paid per hand,
        house take per hand (and per seat-hour with ``hands_per_hour``), foul rate, and seat 0's
        mean where seats differ (banked, stakes).
    setter
        The resolved setter (:func:`~cpstats.thirteen.play.setters.as_setter`'s: the verb resolved
        it). With ``ev`` each point plays tables for its own rules (shipped, cached, or trained on
        first use and cached: about half a minute a variant on 2 cores) unless
        ``EvSetter(tables=...)`` names the tables of every point.
    executor, block_deals
        As :func:`cpstats.simulate` (``block_deals=None``: the game's own block size); the numbers
        are the same whichever executor runs the blocks.
    rng
        Seed, SeedSequence or Generator: one root for every point, so every point deals the same
        decks (a Generator gives its next child once, for the whole sweep).
    hands_per_hour
        Pace of the per-seat-hour figure and of a time fee's take per hand (default each
        point's ``rake.hands_per_hour``).
    confidence
        Level of every interval.
    on_point
        Called with (index, variant) before each point is simulated (a progress line).
    points
        The points, ``v`` with ``parameter`` at each value, as the verb checked them (None: built
        and checked here).

    Returns
    -------
    DataFrame
        As :func:`cpstats.sweep`'s: one row per point and metric with the estimate, its interval and
        the paired difference to the first point (``attrs``: the parameter in words, ``unit="deals"``,
        the seed, who set each point's hands, the ``pairing``); no ``method`` column.

    Examples
    --------
    >>> from cpstats.thirteen.rules.variant import get_preset
    >>> from cpstats.thirteen.play.setters import GreedySetter
    >>> table = sweep(get_preset("2-4"), "scoring.scoop_bonus", [0, 3], deals=600, setter=GreedySetter(),
    ...               rng=1, metrics=["scoop_rate", "sd"])
    >>> table[["value", "metric"]].values.tolist()
    [[0, 'scoop_rate'], [0, 'sd'], [3, 'scoop_rate'], [3, 'sd']]
    >>> float(table.loc[table["value"] == 0, "diff"].abs().max())
    0.0
    """
    from cpstats.thirteen.play.setters import BASELINES

    block_deals = BLOCK_DEALS if block_deals is None else block_deals
    level = check_confidence(confidence)
    check_whole("deals", deals, 2, "an interval needs two")
    if _canonical(parameter).startswith("surrender") and isinstance(setter, BASELINES):
        raise OptionError(f"parameter={parameter!r} with setter={setter.name!r} is invalid: the baselines "
                          f"never surrender, so every point would be the same game; sweep surrender "
                          f"with setter='ev'")
    if points is None:
        values = sweep_values(values, parameter)
        points = sweep_points(v, key_name(parameter), values)
    chosen = _metrics(metrics, points, hands_per_hour)
    return _ThirteenSweep(v=v, key=_canonical(parameter), values=values, points=points, deals=deals,
                          setter=setter, level=level, rng=rng, metrics=chosen, executor=executor,
                          hands_per_hour=_check_pace(hands_per_hour), block_deals=block_deals,
                          on_point=on_point).table()


class _ThirteenSweep(Sweep):
    """The engine's sweep with the 13-card figures (:func:`point_batches`, the low end clipped at 0
    for a figure that cannot be negative), labels and ``attrs``; a table without ``method``."""

    columns = tuple(c for c in SWEEP_COLUMNS if c != "method")

    def choose(self) -> list[str]:
        return list(self.metrics)

    def play(self, i: int, point: Variant, root: np.random.SeedSequence, played: Sequence[Any]) -> SimulationResult:
        return _simulate_point(point, self.deals, self.setter, root, self.executor, self.block_deals)

    def figures(self, result: SimulationResult, chosen: Sequence[str]) -> dict[str, FigureBatches]:
        out = {}
        for m, (est, per) in point_batches(result, chosen, self.hands_per_hour).items():
            half = half_width(per[np.isfinite(per)], self.level)
            low = est - half if PAIRED_NAMES.get(m, m) in SIGNED_METRICS else max(est - half, 0.0)
            out[m] = FigureBatches(est, low, est + half, per, "")
        return out

    def unchanged(self, metric: str, point: Variant, first: Variant) -> bool:
        return PAIRED_NAMES[metric] in BEFORE_CHARGES and without_charges(point) == without_charges(first)

    def label(self, metric: str, point: Variant) -> str:
        return _label(metric, point)

    def attrs(self, root: np.random.SeedSequence, results: Sequence[SimulationResult]) -> dict[str, Any]:
        from cpstats.thirteen.play.setters import setter_params

        return dict(parameter=self.key, parameter_label=parameter_label(self.key), base=str(self.v),
                    unit="deals", game=self.v.game, deals=int(self.deals), entropy=str(root.entropy),
                    strategy=str(setter_params(self.setter)["name"]), setter=setter_params(self.setter),
                    setters=[r.setter for r in results], confidence=self.level,
                    pairing="nested deals" if self.key == "players" else "common deals")


def _simulate_point(v: Variant, deals: int, setter: Any, root: np.random.SeedSequence,
                    executor: Executor | None, block_deals: int) -> SimulationResult:
    """One point: the root seed of the sweep, so every point deals the same decks."""
    from cpstats.thirteen.run import simulate

    return simulate(v, deals, setter=setter, rng=root, executor=executor, block_deals=block_deals)
