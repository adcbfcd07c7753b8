"""Open-face rule sweeps: one key of the variant string over several values, every point on the
same decks, in the table layout of the 13-card sweep (:func:`cpstats.sweep` hands open-face
variants here; registered as the game's ``sweep`` run).

- Decision: the sweep is the engine's (:class:`~cpstats.engine.sweep.Sweep`: its loop, its row,
  its pairing) with open face's hooks: the too-few-events rule needs each figure's batch sums,
  which only the game's result holds (:func:`~cpstats.ofc.result.figure_batches`), a PAR sheet's
  points may be read from runs already played (``known``), every point must share one play, and
  the metrics and their words are the game's.
- Decision: each point is ``variant.replace(**{key: value})``, the key as the variant string
  writes it (``royalties.front.QQ``, ``fantasyland.stay``, ``fantasyland.cards`` =
  ``14/15/16/17``); every point is played with the sweep's one root seed, so hand h of every
  point starts from the same deck (:func:`~cpstats.ofc.simulation.compare`'s pairing).
- Decision: estimates and intervals are :meth:`~cpstats.ofc.SimulationResult.figures`' (batch t on
  linearised ratios, Wilson for a rare proportion); a paired difference is Student's t on the
  per-batch differences of the linearised ratios, and it has no interval when fewer than
  :data:`~cpstats.engine.paired.MIN_EVENT_BATCHES` batches differ in their sums (the 13-card
  sweep's rule, :func:`~cpstats.engine.paired.paired_difference`); a linearised difference is
  nonzero in every batch once the estimates differ, so the batches are told apart by their sums.
- Decision: rake figures (and ``sd_after_charges``) are in the default metrics only where some
  point's rules charge; asked for where the rules charge nothing (``metrics=``, or
  ``hands_per_hour`` for ``rake_per_seat_per_hour``), a point's figure is 0 with method
  :data:`~cpstats.ofc.result.NO_CHARGE`, and its difference to a first point that charges nothing
  too is exactly 0 (interval 0 to 0), not "too few events". So is the difference of a figure
  before charges (:func:`~cpstats.ofc.result.before_charges`: the SD, hit and push rates, fouls,
  royalties, Fantasyland) between points that differ only in their rake: they play the same hands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from cpstats.errors import OptionError, check_whole
from cpstats.ofc.result import (NO_CHARGE, FigureBatches, SimulationResult, before_charges, charges_nothing,
                                figure_batches, without_rake)
from cpstats.ofc.setters import seat_setters, seats_label, seats_params
from cpstats.ofc.simulation import BLOCK_HANDS, check_one_play, play_of, simulate
from cpstats.ofc.rules import Variant, ofc_key_name
from cpstats.engine.points import metric_names
from cpstats.engine.paired import paired_difference
from cpstats.engine.stats import check_confidence, half_width
from cpstats.engine.sweep import SWEEP_COLUMNS, Sweep
from cpstats.engine.catalogue import resolve_figures
from cpstats.engine.figures_text import catalogue_labels
from cpstats.ofc.catalogue import FIGURES
from cpstats.ofc.table_figures import POSITIONS

__all__ = ["run_sweep", "ofc_sweep_variants", "OFC_SWEEP_METRICS", "OFC_METRIC_LABELS"]

#: What each figure a sweep can report is, as tables and charts name it (table order): the catalogue's label.
OFC_METRIC_LABELS = {m: label[:1].upper() + label[1:] for m, label in catalogue_labels(
    ("royalty", "royalty_front", "royalty_middle", "royalty_back", "royalty_rate_front", "royalty_rate_middle",
     "royalty_rate_back", "foul_rate", "scoop_rate", "fl_entry_rate", "fl_stay_rate", "fl_share", "fl_value",
     "rake_per_seat_per_hand", "rake_per_seat_per_hour", "rake_share", "mean_seat0", "mean_after_charges", "sd",
     "sd_after_charges", "hit_frequency", "push_rate"), resolve_figures(FIGURES)).items()}
#: Every metric an open-face sweep can report.
OFC_SWEEP_METRICS = tuple(OFC_METRIC_LABELS)
_DEFAULT = ("royalty", "foul_rate", "scoop_rate", "fl_entry_rate", "fl_stay_rate", "fl_value", "sd",
            "hit_frequency")
#: Figures that can be negative (a player's result, a position's value): their intervals are not clipped at 0.
_SIGNED = ("fl_value", "mean_seat", "mean_after_charges", "mean_acting_", "value_of_acting_last",
           "mean_per_match_after_charges")


def parameter_words(key: str) -> str:
    """A key in words: ``royalties.front.QQ`` -> ``Royalty for QQ in front (units)``."""
    head, _, tail = key.partition(".")
    if head == "royalties":
        row, _, hand = tail.partition(".")
        return f"Royalty for {hand.replace('_', ' ')} in the {row} (units)"
    words = {"fantasyland.stay": "Fantasyland stay rule", "fantasyland.stay_cards": "Fantasyland stay cards",
             "fantasyland.cards": "Fantasyland cards for QQ/KK/AA/trips", "players": "Players at the table",
             "scoring.row": "Points per row", "scoring.scoop": "Scoop bonus (units)", "rake": "Rake model",
             "rake.percent": "Rake, share of the points won", "rake.amount": "Rake amount (units)",
             "deal": "Deal"}
    return words.get(key, key.replace(".", ": ").replace("_", " ").capitalize())


def ofc_sweep_variants(v: Variant, parameter: str, values: Sequence[Any]) -> tuple[str, list[Variant]]:
    """(the key as the variant string writes it, one variant per value), checked before anything
    runs: an unknown key or a value the rules refuse is the variant parser's one line."""
    if not isinstance(parameter, str) or not parameter.strip():
        raise OptionError(f"parameter={parameter!r} is invalid: a key of the open-face variant string "
                          f"such as royalties.front.QQ, fantasyland.stay or rake.percent")
    key = ofc_key_name(parameter, values[0])
    if key == "name":
        raise OptionError("parameter='name' is invalid: a label does not change the game; sweep a rule "
                          "key such as royalties.front.QQ or fantasyland.stay")
    return key, [v.replace(**{key: value}) for value in values]


def _table_metrics(vs: Sequence[Variant]) -> tuple[str, ...]:
    """The figures of the table rules the points play (OFC-BUTTON's rotation, OFC-STAKES, OFC-MATCH)."""
    out: list[str] = []
    if any(x.button.rotates for x in vs):
        players = max(x.players for x in vs)
        out += [f"mean_acting_{name}" for name in POSITIONS[players]] + ["value_of_acting_last"]
    if any(x.stakes.limited for x in vs):
        out += ["stakes_bind_rate", "unpaid_share"]
    if any(x.match.rounds for x in vs):
        out += ["sd_per_match", "mean_per_match_after_charges", "match_out_rate", "hands_per_match",
                "rake_per_match"]
    return tuple(out)


def _metrics(metrics: Sequence[str] | None, vs: Sequence[Variant],
             hands_per_hour: float | None) -> list[str]:
    table = _table_metrics(vs)
    if metrics is None:
        chosen = list(_DEFAULT)
        if not all(charges_nothing(x.rake) for x in vs):
            chosen += ["sd_after_charges", "rake_per_seat_per_hand"]
        if hands_per_hour is not None:
            chosen.append("rake_per_seat_per_hour")
        return chosen + [m for m in ("sd_per_match", "value_of_acting_last") if m in table]
    return metric_names(metrics, (*OFC_SWEEP_METRICS, *table), where=" for an open-face sweep")


def run_sweep(v: Variant, parameter: str, values: Sequence[Any], *, deals: int,
              metrics: Sequence[str] | None = None, setter: Any = "ev", rng=None,
              executor: Executor | None = None, hands_per_hour: float | None = None,
              confidence: float = 0.95, block_deals: int | None = None,
              on_point: Callable[[int, Variant], None] | None = None,
              points: Sequence[Variant] | None = None,
              known: Mapping[str, SimulationResult] | None = None, what: str = "this sweep") -> pd.DataFrame:
    """The open-face sweep behind :func:`cpstats.sweep`: the engine's sweep
    (:class:`~cpstats.engine.sweep.Sweep`) with this game's figures, their difference rule
    (module docstring), words and ``attrs``. Its keywords are the verb's (``deals`` are hands a
    point; ``setter`` as the verb resolved it, or a name: ``ev`` is ``Rollout()``, an ``EvSetter``
    with tables is refused; ``points`` the verb's checked points, None: built here). Returns the
    13-card sweep's table with a ``method`` column last (each estimate's interval method);
    ``attrs`` say ``unit="hands"``. ``known`` holds points already played on these deals (variant
    string -> result, such as a PAR sheet's own run and that run charged another rake), read
    instead of played again; one of other deals is refused. A point played otherwise than the
    first (another setter or street-model file) stops the sweep in one line naming ``what``.

    Examples
    --------
    >>> import cpstats
    >>> t = cpstats.sweep("ofc-pineapple", "royalties.back.pair", [0, 1], deals=200,
    ...                   setter="random", rng=1, metrics=["royalty"])
    >>> t[["value", "metric"]].values.tolist(), bool(t["diff"].iloc[1] > 0)
    ([[0, 'royalty'], [1, 'royalty']], True)
    """
    level = check_confidence(confidence)
    check_whole("deals", deals, 2, "an interval needs two")
    seats = seat_setters(setter, v.players)
    if points is None:
        key, points = ofc_sweep_variants(v, parameter, values)
    else:
        key = ofc_key_name(parameter, values[0])
    chosen = _metrics(metrics, points, hands_per_hour)
    return _OfcSweep(v=v, key=key, values=values, points=points, deals=deals, setter=setter, level=level, rng=rng,
                     metrics=chosen, executor=executor, hands_per_hour=hands_per_hour,
                     block_deals=BLOCK_HANDS if block_deals is None else block_deals, on_point=on_point,
                     seats=seats, known=known or {}, what=what).table()


@dataclass(frozen=True, kw_only=True)
class _OfcSweep(Sweep):
    """The engine's sweep with open face's figures (:func:`~cpstats.ofc.result.figure_batches`, the
    low end clipped at 0 for a figure that cannot be negative) and their difference rule, known
    points read instead of played, one play for every point, labels and ``attrs``; ``method`` last."""

    seats: tuple
    known: Mapping[str, SimulationResult]
    what: str

    columns = tuple(c for c in SWEEP_COLUMNS if c != "method") + ("method",)

    def choose(self) -> list[str]:
        return list(self.metrics)

    def play(self, i: int, point: Variant, root: np.random.SeedSequence,
             played: Sequence[SimulationResult]) -> SimulationResult:
        result = self.known.get(str(point))
        if result is None:
            result = simulate(point, self.deals, setter=self.setter, rng=root, executor=self.executor,
                              block_deals=self.block_deals, keep_hands=False)
        else:
            _check_known(result, point, self.deals, root, self.block_deals)
        check_one_play([r.metadata for r in (*played, result)], [str(x) for x in self.values[:i + 1]], self.what)
        return result

    def figures(self, result: SimulationResult, chosen: Sequence[str]) -> dict[str, FigureBatches]:
        figures = figure_batches(result, self.level, self.hands_per_hour)
        for m in chosen:
            if m not in figures:
                raise OptionError(f"metrics={m!r} is invalid for {result.variant}: it has no such figure")
        return {m: f if m.startswith(_SIGNED) else f._replace(ci_low=max(f.ci_low, 0.0)) for m, f in figures.items()}

    def difference(self, mine: FigureBatches, first: FigureBatches, same: bool) -> tuple[float, float, str, float]:
        """Student's t on the per-batch differences of the linearised ratios; the batches that
        differ in their sums count the events (module docstring); two points charging nothing
        differ by exactly 0."""
        if mine.method == first.method == NO_CHARGE:
            return 0.0, 0.0, "", np.nan
        if mine.sums.shape != first.sums.shape:  # a pooled figure over other seats (a players sweep)
            differs = np.ones(mine.sums.shape[-1])
        else:
            differs = (mine.sums != first.sums).any(axis=0).astype(np.float64)
        # the 0/1 batches that differ give the events, the note and the deals an interval needs
        _, events, note, needed = paired_difference(differs, int(self.deals), self.level, same_rules=same)
        if "too few hands" in (mine.method, first.method):
            return np.nan, events, note or "too few hands", needed
        if note or not np.isfinite(mine.estimate - first.estimate):
            return np.nan, events, note, needed
        return 0.0 if events == 0 else half_width(mine.linear - first.linear, self.level), events, note, needed

    def unchanged(self, metric: str, point: Variant, first: Variant) -> bool:
        return before_charges(metric) and without_rake(point) == without_rake(first)

    def label(self, metric: str, point: Variant) -> str:
        note = " (symmetric game: noise around 0)" if metric == "mean_seat0" else ""
        if metric not in OFC_METRIC_LABELS:  # a figure of the table rules
            label = catalogue_labels([metric], resolve_figures(FIGURES))[metric]
            return label[:1].upper() + label[1:]
        return OFC_METRIC_LABELS[metric] + note

    def attrs(self, root: np.random.SeedSequence, results: Sequence[SimulationResult]) -> dict[str, Any]:
        seats = self.seats
        name = seats[0].name if len(set(seats)) == 1 else seats_label(seats)
        metas = [r.metadata for r in results]
        return dict(parameter=self.key, parameter_label=parameter_words(self.key), base=str(self.v),
                    deals=int(self.deals), entropy=str(root.entropy), strategy=name, setter=seats_params(seats),
                    setters=[name] * len(results), confidence=self.level, play=play_of(metas[0]),
                    plays=[play_of(m) for m in metas], street_models=[m.get("street_models") for m in metas],
                    pairing="nested deals" if self.key == "players" else "common deals", unit="hands",
                    game=self.v.game)


def _check_known(result: SimulationResult, point: Variant, deals: int, root, block: int) -> None:
    meta = result.metadata
    ours = (str(root.entropy), list(root.spawn_key), int(deals), int(block))
    theirs = (meta["entropy"], list(meta["spawn_key"]), int(meta["deals"]), int(meta["block_deals"]))
    if str(result.variant) != str(point) or ours != theirs:
        raise OptionError(f"known[{str(point)!r}] is invalid: a run of {result.variant} on other deals "
                          f"(entropy, spawn key, hands, block) {theirs} than the sweep's {ours}")

