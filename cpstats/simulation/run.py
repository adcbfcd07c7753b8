"""Simulation: deal, set and settle millions of deals block by block into summary tables.

Each block of deals (see :mod:`cpstats.cards.blocks`) is dealt from its own SeedSequence child, set
by the strategy, settled by :func:`cpstats.settlement.settle_many` and reduced to additive
summaries (:mod:`cpstats.simulation.summary`), so memory stays flat however many deals run, and
the same seed gives bit-identical results whatever the executor: summaries are merged in block
order.

With ``out=DIR`` every finished block is written at once (``block-000012.npz``, plus
``hands-000012.parquet`` when ``keep_hands``), so an interrupted run started again with
``resume=True`` reuses them and ends with the result an uninterrupted run would have had
(:mod:`cpstats.simulation.files`).
"""

from __future__ import annotations

import os
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd

from cpstats.cards.blocks import BLOCK_DEALS, DEALER, BlockPlan, check_executor, root_seed, shuffled_decks
from cpstats.errors import OptionError, check_whole
from cpstats.rules import AnyVariant, Variant, load_variant
from cpstats.settlement import seat_charges
from cpstats.simulation.block import SetHands
from cpstats.simulation.games import game_runs
from cpstats.simulation.files import prepare_out, run_digest
from cpstats.simulation.outcomes import outcome_summary
from cpstats.simulation.result import SimulationResult
from cpstats.simulation.runner import BlockJob, BlockOutput, run_blocks, versions
from cpstats.simulation.stats import check_confidence
from cpstats.simulation.summary import (SUMMARY_FORMAT, SimulationSummary, batch_count, batch_of,
                                        hands_frame, net_summary, settle_block, setting_summary,
                                        static_key, tie_gain)

__all__ = ["simulate", "compare"]


# -- strategies ------------------------------------------------------------------------------

def _decide(setter: Any, hands: np.ndarray, variant: Variant, rng: np.random.Generator):
    """(settings, declare, surrender) for hands (N, 13) by a setter, a strategy name or callable."""
    from cpstats.strategies import set_hands

    decisions = set_hands(hands, variant, strategy=setter, rng=rng)
    return (np.ascontiguousarray(decisions.settings, dtype=np.uint8),
            np.asarray(decisions.declare, dtype=bool), np.asarray(decisions.surrender, dtype=bool))


# -- one block -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Spec:
    """Everything a worker needs for a block: picklable, no open files."""

    variant: str
    setter: Any
    entropy: Any
    spawn_key: tuple
    block_deals: int
    keep_hands: bool
    out: str | None
    deals: int
    batches: int
    digest: str


def _play_block(spec: _Spec, block: int, size: int) -> BlockOutput:
    """Deal, set, settle and summarise one block (with ``keep_hands``, its settings and rows)."""
    from cpstats.rules.variant import parse_variant

    v = parse_variant(spec.variant)
    root = np.random.SeedSequence(spec.entropy, spawn_key=spec.spawn_key)
    decks = shuffled_decks(root, block, size)
    h = v.players * v.hands_per_player
    hands = decks[:, : 13 * h].reshape(size, h, 13)
    # the strategy's own randomness: a grandchild of the block's seed, apart from the deal's stream
    strategy_rng = np.random.default_rng(
        np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (block, 0)))
    settings, declare, surrender = _decide(spec.setter, hands.reshape(-1, 13), v, strategy_rng)
    net, rake, declared, held = settle_block(v, hands, settings, declare, surrender)
    settings = settings.reshape(size, h, 13)
    first = block * spec.block_deals
    batch = batch_of(first, size, spec.deals, spec.batches)
    gain = tie_gain(v, settings, declared, surrender.reshape(size, h), net)
    set_hands = SetHands.of(v, settings, surrender, declared)  # ranked once for both summaries
    static = setting_summary(v, size, settings, surrender, declared, held, set_hands)
    summary = SimulationSummary(
        **net_summary(v, net, rake, batch, spec.batches, gain), **static,
        **outcome_summary(v, settings, surrender.reshape(size, h), declared, net, batch,
                          spec.batches, seat_charges(v, net, rake), set_hands))
    if not spec.keep_hands:
        return BlockOutput(summary)
    kept = {"settings": settings, "declare": declare.reshape(size, h),
            "surrender": surrender.reshape(size, h), "held": held, "net": net, "rake": rake,
            "first": first, "static": static, "rules": static_key(v)}
    rows = None
    if spec.out is not None:
        rows = hands_frame(v, settings, kept["declare"], kept["surrender"], net, rake, held, first)
    return BlockOutput(summary, rows, kept)


def _metadata(v: Variant, setter, root, deals, block_deals) -> dict:
    from cpstats.strategies.setters import EvSetter, Setter, setter_params

    strategy = setter.name if isinstance(setter, Setter) else setter
    meta = {"variant": str(v), "strategy": strategy if isinstance(strategy, str) else repr(strategy),
            "deals": int(deals), "entropy": str(root.entropy), "spawn_key": list(root.spawn_key),
            "block_deals": int(block_deals), "batches": batch_count(deals), "dealer": DEALER,
            "summary_format": SUMMARY_FORMAT, **versions()}
    if isinstance(setter, EvSetter):
        from cpstats.strategies import tables_record

        # found (trained if need be) here, before any block, so workers read them from the cache
        record = tables_record(v, tables=setter.tables, with_source=True)
        meta["tables_source"] = record.pop("source")
        meta["tables"] = record
    meta["run_digest"] = run_digest(meta)
    # beside the identity: "strategy" and "tables" already say everything the setter decides
    meta["setter"] = setter_params(setter)
    return meta


def simulate(variant: AnyVariant | str, deals: int, players: int | None = None, setter: Any = "ev",
             rng=None, executor: Executor | None = None, keep_hands: bool = False,
             out: str | os.PathLike | None = None, *, resume: bool = False, progress: bool = False,
             block_deals: int | None = None, until: Any = None, strategy: Any = None,
             tables: Any = None) -> SimulationResult:
    """Deal, set and settle ``deals`` deals under ``variant`` and summarise them.

    Either game: an open-face variant (``ofc-*``) is played by :mod:`cpstats.ofc`'s runs with
    the same keywords (``setter="ev"`` is its strong strategy, ``rollout``; ``keep_hands``
    writes its rows to ``out``; ``block_deals=None`` is each game's own block size) and gives an
    :class:`~cpstats.ofc.OfcResult`.

    Parameters
    ----------
    variant
        A variant of either game, a preset name, a variant string or a variant file.
    deals
        Number of deals, 1 to :data:`~cpstats.cards.blocks.MAX_DEALS`.
    players
        Seats (2-4); None keeps the variant's.
    setter
        Who sets the hands: a name (``"ev"``, ``"greedy"``, ``"random"``, or another registered
        strategy's), a setter object carrying its settings (``EvSetter(tables="2-4")``,
        ``GreedySetter()``, ``RandomSetter()``; open face: ``Rollout(samples=128)``, ``OfcGreedy()``,
        ``OfcRandom()``) or a callable (see :mod:`cpstats.strategies`). ``metadata["setter"]``
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
        ``metadata["tables"]`` identifies its row tables (:class:`~cpstats.strategies.EvSetter`:
        a variant without shipped tables has them trained now, about half a minute, and cached)
        and ``metadata["tables_source"]`` says where they came from (shipped, cache, trained
        now, borrowed).
    until
        ``{figure: half-width}`` (e.g. ``{"house_edge": 0.0005}``): play until each figure's 95%
        half-width is at most its value, ``deals`` then the most played; the run is the fixed-deals
        run of the length it stops at (:mod:`cpstats.simulation.sequential`, ``metadata["until"]``).
    strategy, tables
        Deprecated (they go in the next release): ``strategy=`` is ``setter=``, and
        ``tables=X`` is ``setter=EvSetter(tables=X)``.

    Examples
    --------
    >>> result = simulate("2-4", 2_000, setter="greedy", rng=1)
    >>> abs(float(result.moments()["mean"].sum())) < 1e-9  # zero-sum between seats
    True
    >>> type(simulate("ofc-pineapple", 20, setter="random", rng=1)).__name__
    'OfcResult'
    """
    from cpstats.strategies.setters import as_setter, setter_option

    setter = setter_option(setter, strategy, tables)
    if until is not None:
        from cpstats.simulation.sequential import run_until

        return run_until(simulate, variant, deals, until, rng=rng, players=players, setter=setter,
                         executor=executor, keep_hands=keep_hands, out=out, resume=resume,
                         progress=progress, block_deals=block_deals)
    v = load_variant(variant)
    if v.game != "13-card":
        return game_runs(v.game).simulate(v, deals, players=players, setter=setter, rng=rng,
                                          executor=executor, keep_hands=keep_hands, out=out,
                                          resume=resume, progress=progress, block_deals=block_deals)
    setter = as_setter(setter)
    block_deals = BLOCK_DEALS if block_deals is None else block_deals
    if players is not None:
        check_whole("players", players, 2)
    if players is not None and players != v.players:
        v = v.replace(players=players)
    plan = BlockPlan(deals, block_deals)
    check_executor(executor)
    root = root_seed(rng)
    meta = _metadata(v, setter, root, deals, block_deals)
    out_path = prepare_out(out, meta, resume)
    spec = _Spec(str(v), setter, root.entropy, tuple(root.spawn_key), block_deals, keep_hands,
                 None if out_path is None else str(out_path), int(deals), meta["batches"],
                 meta["run_digest"])
    job = BlockJob(_play_block, spec, spec.out, spec.digest, SimulationSummary)
    run = run_blocks(job, plan, executor=executor, out_path=out_path, resume=resume,
                     keys=lambda: SimulationSummary.layout(v), keep=keep_hands, progress=progress,
                     desc=f"simulating {v}")
    meta["blocks_redone"] = run.redone
    return SimulationResult(v, run.summary, meta, kept=run.kept, out=out_path)


def compare(variants: Sequence[AnyVariant | str], deals: int, *, setter: Any = "ev", rng=None,
            executor: Executor | None = None, block_deals: int | None = None,
            confidence: float = 0.95, labels: Sequence[str] | None = None,
            hands_per_hour: float | None = None, tidy: bool = False, strategy: Any = None,
            tables: Any = None) -> pd.DataFrame:
    """Side-by-side figures of several variants on common deals, with paired differences.

    Every variant plays the same deals (the same seed) with ``setter`` (as :func:`simulate`'s);
    ``ev`` plays each variant with its own row tables (unless ``EvSetter(tables=...)`` names
    others), so where a variant changes how hands are set the settings are redone; the
    ``tables`` and ``tables_source`` columns say which set each variant's hands (trained for
    which variant, and from where). ``strategy=`` and ``tables=`` are deprecated (as
    :func:`simulate`'s).

    ``tidy=True`` returns :func:`~cpstats.simulation.paired.paired_metrics`: one row per variant
    and figure (SD, scoop, home-run and foul rates, royalties and naturals paid per hand, house
    take per hand and per seat-hour at ``hands_per_hour``, rake share; seat 0's mean and the
    house edge in banked games, the cost per player in symmetric ones) with ``estimate, ci_low,
    ci_high`` and the paired difference to the first variant ``diff, diff_ci_low, diff_ci_high``:
    Student's t (``batches - 1`` degrees of freedom) on the per-batch differences. Both tables
    carry ``setter`` (who set each variant's hands: a baseline's name, or ev with its tables) and
    ``attrs`` with the strategy (the setter's name), its settings (``setter``), deals, seed
    entropy, pairing and confidence, so a table handed on
    says how it was made.

    The default wide table has one row per variant (``label``, from ``labels`` or the variant
    string): ``rake_per_hand``, and for every figure of the tidy table the columns ``FIGURE``,
    ``FIGURE_ci_low``, ``FIGURE_ci_high``, ``FIGURE_diff``, ``FIGURE_diff_ci_low``,
    ``FIGURE_diff_ci_high`` and ``FIGURE_diff_note`` (NaN, or an empty note, where a game has no
    such figure; the note says ``too few events`` where a difference has no interval). Seat 0's
    mean is ``bank_mean`` (the bank's result between the seats, before its commission, which is
    the house's: ``house_take_per_hand``; the edge after it is ``house_edge``), given for banked
    games only. ``sd`` is a player's SD (seats averaged, the bank left out), ``sd_diff`` with
    ``sd_diff_ci_low`` and ``sd_diff_ci_high`` its paired difference (NaN where batches hold one
    deal, under 60 deals).
    """
    from cpstats.simulation.paired import paired_metrics
    from cpstats.strategies.setters import as_setter, setter_option, setter_params

    setter = setter_option(setter, strategy, tables)
    level = check_confidence(confidence)
    if not isinstance(tidy, (bool, np.bool_)):
        raise OptionError(f"tidy={tidy!r} is invalid: True (one row per figure) or False (one per variant)")
    if isinstance(variants, (str, os.PathLike)) or getattr(variants, "game", None) is not None:
        raise OptionError(f"variants={str(variants)!r} is invalid: a list of two or more variants")
    vs = [load_variant(v) for v in variants]
    if len(vs) < 2:
        raise OptionError(f"compare needs at least two variants, got {len(vs)}")
    games = sorted({v.game for v in vs})
    if len(games) > 1:
        raise OptionError(f"compare plays one game on common deals: these variants are of {' and '.join(games)}")
    if games != ["13-card"]:
        return game_runs(games[0]).compare(vs, deals, setter=setter, rng=rng, executor=executor,
                                           block_deals=block_deals, confidence=level,
                                           labels=labels, hands_per_hour=hands_per_hour, tidy=tidy)
    setter = as_setter(setter)
    block_deals = BLOCK_DEALS if block_deals is None else block_deals
    root = root_seed(rng)
    results = [simulate(v, deals, setter=setter, rng=root, executor=executor,
                        block_deals=block_deals) for v in vs]
    figures = paired_metrics(results, labels, hands_per_hour=hands_per_hour, confidence=level)
    figures.insert(3, "setter", [results[i].setter for i in figures["run"]])
    run = {"strategy": results[0].metadata["strategy"], "setter": setter_params(setter), "deals": int(deals), "entropy": str(root.entropy), "pairing": "common deals",
           "confidence": level}
    if tidy:
        figures.attrs.update(run)
        return figures
    rows = []
    for i, (v, r) in enumerate(zip(vs, results)):
        mine = figures[figures["run"] == i].set_index("metric")
        row = {"label": mine["label"].iloc[0], "variant": str(v), "setter": r.setter,
               "rake_per_hand": r.rake_per_deal()}
        for key in figures["metric"].unique():
            for suffix, column in (("", "estimate"), ("_ci_low", "ci_low"), ("_ci_high", "ci_high"),
                                   ("_diff", "diff"), ("_diff_ci_low", "diff_ci_low"),
                                   ("_diff_ci_high", "diff_ci_high"), ("_diff_note", "diff_note")):
                blank = "" if column == "diff_note" else np.nan
                row[key + suffix] = mine.at[key, column] if key in mine.index else blank
        if "tables" in r.metadata:
            row.update(tables=r.metadata["tables"]["trained_for"], tables_source=r.metadata["tables_source"])
        rows.append(row)
    wide = pd.DataFrame(rows)
    wide.attrs.update(run)
    return wide
