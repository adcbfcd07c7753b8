"""Open-face rule sweeps: one key of the variant string over several values, every point on the
same decks, in the table layout of the 13-card sweep (:func:`cpstats.sweep` hands open-face
variants here; registered as the game's ``sweep`` run).

- Decision: the game owns its sweep (a ``sweep`` entry of its
  :class:`~cpstats.engine.games.GameRuns`) rather than the shared sweep reshaping
  ``compare``'s table: the too-few-events rule needs each figure's batch sums, which only the
  game's result holds (:func:`~cpstats.ofc.result.figure_batches`), and the metrics and their
  words are the game's.
- Decision: each point is ``variant.replace(**{key: value})``, the key as the variant string
  writes it (``royalties.front.QQ``, ``fantasyland.stay``, ``fantasyland.cards`` =
  ``14/15/16/17``); every point is played with the sweep's one root seed, so hand h of every
  point starts from the same deck (:func:`~cpstats.ofc.simulation.compare`'s pairing).
- Decision: estimates and intervals are :meth:`~cpstats.ofc.OfcResult.figures`' (batch t on
  linearised ratios, Wilson for a rare proportion); a paired difference is Student's t on the
  per-batch differences of the linearised ratios, and it has no interval when fewer than
  :data:`~cpstats.engine.paired.MIN_EVENT_BATCHES` batches differ in their sums (the 13-card
  sweep's rule, :func:`~cpstats.engine.paired.paired_difference`); a linearised difference is
  nonzero in every batch once the estimates differ, so the batches are told apart by their sums.
- Decision: rake figures are in the default metrics only where some point's rules charge; asked
  for where the rules charge nothing (``metrics=``, or ``hands_per_hour`` for ``rake_per_hour``),
  a point's figure is 0 with method :data:`~cpstats.ofc.result.NO_CHARGE`, and its difference to a
  first point that charges nothing too is exactly 0 (interval 0 to 0), not "too few events".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from cpstats.cards.blocks import root_seed
from cpstats.errors import OptionError, check_whole, deprecated_alias
from cpstats.ofc.result import NO_CHARGE, FigureBatches, OfcResult, charges_nothing, figure_batches
from cpstats.ofc.setters import seat_setters, seats_label, seats_params
from cpstats.ofc.simulation import _workbench_options, check_one_play, play_of, simulate
from cpstats.ofc.rules import OfcVariant, ofc_key_name
from cpstats.engine.points import metric_names
from cpstats.engine.paired import paired_difference
from cpstats.engine.stats import check_confidence, half_width

__all__ = ["run_sweep", "ofc_sweep_variants", "OFC_SWEEP_METRICS", "OFC_METRIC_LABELS"]

#: What each figure a sweep can report is, as tables and charts name it (table order).
OFC_METRIC_LABELS = {
    "royalty": "Royalties per board (units)",
    "royalty_front": "Front royalties per board (units)",
    "royalty_middle": "Middle royalties per board (units)",
    "royalty_back": "Back royalties per board (units)",
    "royalty_rate_front": "Boards paid a front royalty",
    "royalty_rate_middle": "Boards paid a middle royalty",
    "royalty_rate_back": "Boards paid a back royalty",
    "foul_rate": "Foul rate (per board)",
    "scoop_rate": "Scoop rate (per player and opponent)",
    "fl_entry_rate": "Fantasyland entry (per normal board)",
    "fl_stay_rate": "Fantasyland stay (per Fantasyland board)",
    "fl_share": "Hands played in Fantasyland",
    "fl_value": "Fantasyland hand less a normal hand (units)",
    "rake_per_hand": "Rake per hand, per seat (units)",
    "rake_per_hour": "Rake per seat-hour (units)",
    "rake_share": "Rake over the points won",
    "mean_seat0": "Seat 0 mean per hand (units; symmetric game: noise around minus the rake share)",
}
#: Every metric an open-face sweep can report.
OFC_SWEEP_METRICS = tuple(OFC_METRIC_LABELS)
_DEFAULT = ("royalty", "foul_rate", "scoop_rate", "fl_entry_rate", "fl_stay_rate", "fl_value")
_SIGNED = ("fl_value", "mean_seat0")


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


def ofc_sweep_variants(v: OfcVariant, parameter: str, values: Sequence[Any]) -> tuple[str, list[OfcVariant]]:
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


def _metrics(metrics: Sequence[str] | None, vs: Sequence[OfcVariant],
             hands_per_hour: float | None) -> list[str]:
    if metrics is None:
        chosen = list(_DEFAULT)
        if not all(charges_nothing(x.rake) for x in vs):
            chosen.append("rake_per_hand")
        if hands_per_hour is not None:
            chosen.append("rake_per_hour")
        return chosen
    return metric_names(metrics, OFC_SWEEP_METRICS, where=" for an open-face sweep")


def _point_row(mine: FigureBatches, first: FigureBatches | None, same: bool, hands: int,
               level: float, signed: bool) -> dict:
    """One point's figure and its paired difference to the first point (none where the first
    point lacks the figure, such as a seat it does not seat)."""
    row = {"estimate": mine.estimate, "ci_low": mine.ci_low if signed else max(mine.ci_low, 0.0),
           "ci_high": mine.ci_high}
    if first is None:
        return {**row, "diff": np.nan, "diff_ci_low": np.nan, "diff_ci_high": np.nan,
                "diff_events": np.nan, "diff_note": "", "deals_for_interval": np.nan, "method": mine.method}
    diff = mine.estimate - first.estimate
    if mine.method == first.method == NO_CHARGE:
        return {**row, "diff": 0.0, "diff_ci_low": 0.0, "diff_ci_high": 0.0, "diff_events": 0.0,
                "diff_note": "", "deals_for_interval": np.nan, "method": NO_CHARGE}
    differs = (mine.sums != first.sums).any(axis=0).astype(np.float64)
    # the 0/1 batches that differ give the events, the note and the deals an interval needs
    _, events, note, needed = paired_difference(differs, hands, level, same_rules=same)
    if "too few hands" in (mine.method, first.method):
        half, note = np.nan, note or "too few hands"
    elif note or not np.isfinite(diff):
        half = np.nan
    else:
        half = 0.0 if events == 0 else half_width(mine.linear - first.linear, level)
    return {**row, "diff": diff, "diff_ci_low": diff - half, "diff_ci_high": diff + half,
            "diff_events": events, "diff_note": note, "deals_for_interval": needed, "method": mine.method}


def run_sweep(v: OfcVariant, parameter: str, values: Sequence[Any], *, deals: int,
              metrics: Sequence[str] | None = None, setter: Any = "ev", rng=None,
              executor: Executor | None = None, hands_per_hour: float | None = None,
              confidence: float = 0.95, block_deals: int | None = None,
              on_point: Callable[[int, OfcVariant], None] | None = None,
              known: Mapping[str, OfcResult] | None = None, what: str = "this sweep") -> pd.DataFrame:
    """The open-face sweep behind :func:`cpstats.sweep` (its keywords; ``deals`` are hands a
    point, ``setter="ev"`` is ``Rollout()``, an ``EvSetter`` with tables is refused). Returns the 13-card
    sweep's table with a ``method`` column (each estimate's interval method); ``attrs`` say
    ``unit="hands"``. ``known`` holds points already played on these deals (variant string ->
    result, such as a PAR sheet's own run and that run charged another rake), read instead of
    played again; one of other deals is refused. A point played otherwise than the first (another
    setter or street-model file) stops the sweep in one line naming ``what``.

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
    played, block = _workbench_options(setter, block_deals)
    seats = seat_setters(played, v.players)
    name = seats[0].name if len(set(seats)) == 1 else seats_label(seats)
    key, vs = ofc_sweep_variants(v, parameter, values)
    chosen = _metrics(metrics, vs, hands_per_hour)
    root = root_seed(rng)
    rows, setters, metas, first = [], [], [], None
    for i, (value, point) in enumerate(zip(values, vs)):
        if on_point is not None:
            on_point(i, point)
        result = (known or {}).get(str(point))
        if result is None:
            result = simulate(point, deals, setter=played, rng=root, executor=executor, block_deals=block,
                              keep_hands=False)
        else:
            _check_known(result, point, deals, root, block)
        metas.append(result.metadata)
        check_one_play(metas, [str(x) for x in values[:i + 1]], what)
        figures = figure_batches(result, level, hands_per_hour)
        first = figures if first is None else first
        setters.append(name)
        for m in chosen:
            if m not in figures:
                raise OptionError(f"metrics={m!r} is invalid for {point}: it has no such figure")
            rows.append({"parameter": key, "value": value, "variant": str(point), "metric": m,
                         "label": OFC_METRIC_LABELS[m],
                         **_point_row(figures[m], first.get(m), i == 0,
                                      int(deals), level, m in _SIGNED)})
    frame = pd.DataFrame(rows)
    frame.attrs.update(parameter=key, parameter_label=parameter_words(key), base=str(v), deals=int(deals),
                       entropy=str(root.entropy), strategy=name, setter=seats_params(seats), setters=setters,
                       confidence=level, play=play_of(metas[0]), plays=[play_of(m) for m in metas],
                       street_models=[m.get("street_models") for m in metas],
                       pairing="nested deals" if key == "players" else "common deals", unit="hands",
                       game=v.game)
    return frame


def _check_known(result: OfcResult, point: OfcVariant, deals: int, root, block: int) -> None:
    meta = result.metadata
    ours = (str(root.entropy), list(root.spawn_key), int(deals), int(block))
    theirs = (meta["entropy"], list(meta["spawn_key"]), int(meta["deals"]), int(meta["block_deals"]))
    if str(result.variant) != str(point) or ours != theirs:
        raise OptionError(f"known[{str(point)!r}] is invalid: a run of {result.variant} on other deals "
                          f"(entropy, spawn key, hands, block) {theirs} than the sweep's {ours}")


sweep_ofc = deprecated_alias("sweep_ofc", "cpstats.sweep", run_sweep)
