"""The verb :func:`sweep`: one rule parameter over several values, every point on the same deals,
validated once (the values listed and every point built and checked before anything runs, the
setter resolved once), and played by the sweep the variant's game registered (or the engine's,
:func:`~cpstats.engine.sweep.sweep_figures`), which takes the resolved points and setter as they are.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import pandas as pd

from cpstats.engine.registry import AnyVariant, game_of, load_variant
from cpstats.engine.games import runs_of
from cpstats.engine.points import metric_list, sweep_points, sweep_values
from cpstats.engine.sweep import sweep_figures
from cpstats.engine.sequential import sweep_until
from cpstats.workbench.simulate import bulk_setter

__all__ = ["sweep"]


def sweep(variant: AnyVariant | str, parameter: str, values: Sequence[Any], *, deals: int | None = None,
          metrics: Sequence[str] | None = None, setter: Any = None, rng=None,
          executor: Executor | None = None, hands_per_hour: float | None = None,
          confidence: float = 0.95, block_deals: int | None = None,
          on_point: Callable[[int, AnyVariant], None] | None = None) -> pd.DataFrame:
    """One rule parameter over ``values``, every point simulated on the same deals.

    Parameters
    ----------
    variant
        The variant swept (any game's variant, preset name or variant string).
    parameter
        A key of the variant string (13-card: ``royalties.front_trips``, ``scoring.scoop_bonus``,
        ``rake.percent``, ``rake.cap``, ``rake.amount``, ``bank.commission``, ``surrender``,
        ``players``...; open face: ``royalties.front.QQ``, ``royalties.back.straight``,
        ``fantasyland.stay``, ``fantasyland.cards``...); each point is ``variant`` with it set to
        one value.
    values
        The values, first one the baseline of the paired differences; each once (two values
        that give the same rules are refused).
    deals
        Deals per point (open face: hands), exactly that many. None is the game's default: a
        game with a designer precision (:class:`~cpstats.engine.games.Precision`; open face:
        Fantasyland entry and foul rates within +-0.5 points, royalties a board within +-0.1,
        95%) grows the whole sweep in stages until every point's estimate and every paired
        difference to the first point (that has an interval) are within it, every point on the
        same deals, at most the precision's cap (``attrs["until"]`` records the half-widths
        reached and whether the cap came first, :func:`~cpstats.engine.sequential.sweep_until`);
        another game plays :class:`~cpstats.engine.games.RunSizes` ``sweep`` deals (13-card:
        100,000).
    metrics
        Names of the game's sweep figures (13-card: :data:`cpstats.thirteen.sweep.METRICS`; open
        face: :data:`cpstats.ofc.sweep.OFC_SWEEP_METRICS`), a list or one comma-separated text;
        None for the game's defaults.
    setter, executor, block_deals
        As :func:`~cpstats.workbench.simulate`'s; None is the game's setter for bulk runs (13-card
        ``ev``, open face ``fast``, ``rollout`` under the classic deal). With ``ev`` each 13-card point
        plays tables for its own rules (shipped, cached, or trained on first use and cached: about half
        a minute a variant on 2 cores) unless ``EvSetter(tables=...)`` names the tables of every point.
        The numbers are the same whichever executor runs the blocks.
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

    Returns
    -------
    DataFrame
        One row per point and metric: ``parameter``, ``value``, ``variant``, ``metric``, ``label``,
        ``estimate``, ``ci_low``, ``ci_high``, ``diff`` (the paired difference to the first point),
        ``diff_ci_low``, ``diff_ci_high`` (NaN where it rests on too few differing deals),
        ``diff_events``, ``diff_note`` and ``deals_for_interval`` (as
        :func:`~cpstats.thirteen.paired.paired_metrics`); ``attrs`` holds the parameter in words,
        the variant swept (``base``), the ``unit`` deals count, deals, seed entropy, strategy, the
        setter's settings (``setter``), who set each point's hands (``setters``), the confidence
        and the ``pairing``; open face adds the ``play`` every point shares and each point's
        ``street_models``; a default-length sweep of a game with a precision adds ``until``.

    Examples
    --------
    >>> table = sweep("2-4", "scoring.scoop_bonus", [0, 3], deals=600, setter="greedy", rng=1,
    ...               metrics=["scoop_rate", "sd"])
    >>> table[["value", "metric"]].values.tolist()
    [[0, 'scoop_rate'], [0, 'sd'], [3, 'scoop_rate'], [3, 'sd']]
    >>> float(table.loc[table["value"] == 0, "diff"].abs().max())
    0.0
    """
    v = load_variant(variant)
    runs = runs_of(v)
    chosen = runs.setter(bulk_setter(v, setter), v)
    values = sweep_values(values, parameter)
    points = sweep_points(v, game_of(v).key_name(parameter), values)  # every point checked before anything runs
    metrics = metric_list(metrics)  # one list for every path: the precision's stages too
    run = runs.sweep or functools.partial(sweep_figures, runs.simulate)
    options = dict(setter=chosen, executor=executor, hands_per_hour=hands_per_hour, block_deals=block_deals,
                   on_point=on_point, points=points)
    if deals is None and runs.precision is not None:
        p = runs.precision
        most = max(2, min(p.most, p.budget // len(values)))
        return sweep_until(run, v, parameter, values, most, p.targets, rng=rng, confidence=confidence,
                           metrics=metrics, pilot=min(p.pilot, most), **options)
    return run(v, parameter, values, deals=runs.sizes.sweep if deals is None else deals, metrics=metrics,
               rng=rng, confidence=confidence, **options)
