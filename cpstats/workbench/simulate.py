"""The verbs :func:`simulate` and :func:`compare`: validate once, resolve the setter once, and call
the runs the variant's game registered (:class:`~cpstats.engine.games.GameRuns`) with the one set
of keyword names; a game that registered no compare gets the engine's
(:func:`~cpstats.engine.defaults.compare_figures`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from cpstats.errors import OptionError, check_whole
from cpstats.engine.registry import AnyVariant, load_variant
from cpstats.engine.base import Result
from cpstats.engine.defaults import compare_figures
from cpstats.engine.games import runs_of
from cpstats.engine.sequential import run_until
from cpstats.engine.stats import check_confidence

__all__ = ["simulate", "compare", "seated", "bulk_setter"]


def seated(v: AnyVariant, players: int | None) -> AnyVariant:
    """``v`` at a table of ``players`` seats (None keeps the variant's)."""
    if players is None:
        return v
    check_whole("players", players, 2)
    return v if players == v.players else v.replace(players=players)


def bulk_setter(v: AnyVariant, setter: Any) -> Any:
    """The setter a verb that plays many runs plays ``v`` with: ``setter``, or when it is None the
    game's setter for bulk runs (:attr:`~cpstats.engine.games.GameRuns.bulk_setter`; open face
    ``fast`` under the Pineapple deal, ``rollout`` under the classic), else the game's default
    (:attr:`~cpstats.engine.games.GameRuns.default_setter`)."""
    if setter is not None:
        return setter
    runs = runs_of(v)
    chosen = runs.bulk_setter(v) if callable(runs.bulk_setter) else runs.bulk_setter
    return chosen or runs.default_setter


def simulate(variant: AnyVariant | str, deals: int, players: int | None = None, setter: Any = None,
             rng=None, executor: Executor | None = None, keep_hands: bool = False,
             out: str | os.PathLike | None = None, *, resume: bool = False, progress: bool = False,
             block_deals: int | None = None, until: Any = None) -> Result:
    """Deal, set and settle ``deals`` deals under ``variant`` and summarise them.

    Any game: the variant's game plays it (:class:`~cpstats.engine.games.GameRuns`); a 13-card
    variant gives a :class:`~cpstats.thirteen.result.SimulationResult`, an open-face one
    (``ofc-*``: ``deals`` are hands; ``keep_hands`` writes its rows to ``out``) an
    :class:`~cpstats.ofc.SimulationResult`.

    Parameters
    ----------
    variant
        A variant of any game, a preset name, a variant string or a variant file.
    deals
        Number of deals, 1 to :data:`~cpstats.cards.blocks.MAX_DEALS`.
    players
        Seats (2-4); None keeps the variant's.
    setter
        Who sets the hands: None for the game's default
        (:attr:`~cpstats.engine.games.GameRuns.default_setter`: 13-card ``ev``, open face
        ``rollout``), a name (``"ev"``, ``"greedy"``, ``"random"``, or another registered
        strategy's), a setter object carrying its settings (``EvSetter(tables="2-4")``,
        ``GreedySetter()``, ``RandomSetter()``; open face: ``Rollout(samples=128)``, ``ofc.GreedySetter()``,
        ``ofc.RandomSetter()``) or a callable (see :mod:`cpstats.thirteen.play`). ``metadata["setter"]``
        records its name and settings.
    rng
        Seed, SeedSequence, Generator or None (a Generator gives its next child each call).
    executor
        Any ``concurrent.futures``-style executor (a Dask client's included); None is serial.
        Blocks are submitted a window at a time and merged in block order as they finish.
    keep_hands
        Keep the settings in memory (for :meth:`SimulationResult.rescore` and
        :meth:`SimulationResult.rows`) and, with ``out``, write one Parquet file of rows per
        block.
    out
        Folder for finished blocks (and rows); with ``resume=True`` finished blocks of this
        same run (variant, seed, deals, setter and its tables) are reused; blocks of another run
        or that do not read are done again (``metadata["blocks_redone"]``). With ``ev``,
        ``metadata["tables"]`` identifies its row tables (:class:`~cpstats.thirteen.play.EvSetter`:
        a variant without shipped tables has them trained now, about half a minute, and cached)
        and ``metadata["tables_source"]`` says where they came from (shipped, cache, trained
        now, borrowed).
    block_deals
        Deals a block (None: the game's own block size).
    until
        ``{figure: half-width}`` (e.g. ``{"house_edge": 0.0005}``): play until each figure's 95%
        half-width is at most its value, ``deals`` then the most played; the run is the fixed-deals
        run of the length it stops at (:mod:`cpstats.engine.sequential`, ``metadata["until"]``).

    Examples
    --------
    >>> result = simulate("2-4", 2_000, setter="greedy", rng=1)
    >>> abs(float(result.moments()["mean"].sum())) < 1e-9  # zero-sum between seats
    True
    >>> type(simulate("ofc-pineapple", 20, setter="random", rng=1)).__module__
    'cpstats.ofc.result'
    """
    v = seated(load_variant(variant), players)
    runs = runs_of(v)
    options = {"setter": runs.resolve_setter(setter, v), "executor": executor,
               "keep_hands": keep_hands, "out": out, "resume": resume, "progress": progress,
               "block_deals": block_deals}
    if until is not None:
        return run_until(runs.simulate, v, deals, until, rng=rng, **options)
    return runs.simulate(v, deals, rng=rng, **options)


def compare(variants: Sequence[AnyVariant | str], deals: int, *, players: int | None = None,
            setter: Any = None, rng=None,
            executor: Executor | None = None, block_deals: int | None = None,
            confidence: float = 0.95, labels: Sequence[str] | None = None,
            hands_per_hour: float | None = None, tidy: bool = False) -> pd.DataFrame:
    """Side-by-side figures of several variants of one game on common deals, with paired
    differences to the first.

    Every variant plays the same deals (the same seed) with ``setter`` (as :func:`simulate`'s),
    at ``players`` seats when given (None keeps each variant's, as :func:`simulate`'s ``players``);
    the table is the game's (:func:`cpstats.thirteen.run.compare`: a wide table, or with
    ``tidy=True`` one row per variant and figure; open face: one tidy table of its figures,
    :func:`cpstats.ofc.simulation.compare`), each estimate with its interval and the paired
    difference to the first variant with its interval (Student's t on the per-batch differences).

    Examples
    --------
    >>> table = compare(["2-4", "2-4(scoring.scoop_bonus=3)"], 600, setter="greedy", rng=1, tidy=True)
    >>> float(table.query("run == 0")["diff"].abs().max())
    0.0
    """
    level = check_confidence(confidence)
    if not isinstance(tidy, (bool, np.bool_)):
        raise OptionError(f"tidy={tidy!r} is invalid: True (one row per figure) or False (one per variant)")
    if isinstance(variants, (str, os.PathLike)) or getattr(variants, "game", None) is not None:
        raise OptionError(f"variants={str(variants)!r} is invalid: a list of two or more variants")
    vs = [seated(load_variant(v), players) for v in variants]
    if len(vs) < 2:
        raise OptionError(f"compare needs at least two variants, got {len(vs)}")
    games = sorted({v.game for v in vs})
    if len(games) > 1:
        raise OptionError(f"compare plays one game on common deals: these variants are of {' and '.join(games)}")
    runs = runs_of(vs[0])
    run = runs.compare or functools.partial(compare_figures, runs.simulate)
    return run(vs, deals, setter=runs.resolve_setter(setter, vs[0]), rng=rng, executor=executor,
               block_deals=block_deals, confidence=level, labels=labels, hands_per_hour=hands_per_hour,
               tidy=tidy)
