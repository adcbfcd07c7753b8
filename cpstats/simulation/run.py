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
from collections import deque
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from cpstats.cards.blocks import BLOCK_DEALS, DEALER, BlockPlan, check_executor, root_seed, shuffled_decks
from cpstats.errors import OptionError, check_whole
from cpstats.rules import Variant, resolve_variant
from cpstats.settlement import seat_charges
from cpstats.simulation.files import prepare_out, read_block, run_digest, write_block
from cpstats.simulation.outcomes import outcome_keys, outcome_summary
from cpstats.simulation.result import SimulationResult
from cpstats.simulation.stats import batch_mean_interval, check_confidence
from cpstats.simulation.summary import (SUMMARY_FORMAT, batch_count, batch_of, hands_frame,
                                        merge, net_summary_keys, settle_block, setting_summary_keys,
                                        static_key, summarise, tie_gain)

__all__ = ["simulate", "compare"]


# -- strategies ------------------------------------------------------------------------------

def _decide(strategy: Any, hands: np.ndarray, variant: Variant, rng: np.random.Generator,
            tables: Any = None):
    """(settings, declare, surrender) for hands (N, 13) by a strategy name or callable."""
    from cpstats.strategies import set_hands

    decisions = set_hands(hands, variant, strategy=strategy, rng=rng, tables=tables)
    return (np.ascontiguousarray(decisions.settings, dtype=np.uint8),
            np.asarray(decisions.declare, dtype=bool), np.asarray(decisions.surrender, dtype=bool))


# -- one block -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Spec:
    """Everything a worker needs for a block: picklable, no open files."""

    variant: str
    strategy: Any
    entropy: Any
    spawn_key: tuple
    block_deals: int
    keep_hands: bool
    out: str | None
    deals: int
    batches: int
    digest: str
    tables: Any = None


def _run_block(spec: _Spec, block: int, size: int) -> tuple[dict, dict | None]:
    """Deal, set, settle and summarise one block; write it to ``spec.out`` when given."""
    from cpstats.rules.variant import load_variant

    v = load_variant(spec.variant)
    root = np.random.SeedSequence(spec.entropy, spawn_key=spec.spawn_key)
    decks = shuffled_decks(root, block, size)
    h = v.players * v.hands_per_player
    hands = decks[:, : 13 * h].reshape(size, h, 13)
    # the strategy's own randomness: a grandchild of the block's seed, apart from the deal's stream
    strategy_rng = np.random.default_rng(
        np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (block, 0)))
    settings, declare, surrender = _decide(spec.strategy, hands.reshape(-1, 13), v, strategy_rng,
                                           spec.tables)
    net, rake, declared, held = settle_block(v, hands, settings, declare, surrender)
    settings = settings.reshape(size, h, 13)
    first = block * spec.block_deals
    batch = batch_of(first, size, spec.deals, spec.batches)
    gain = tie_gain(v, settings, declared, surrender.reshape(size, h), net)
    summary = summarise(v, size, hands, settings, declare, surrender, net, rake, declared, held,
                         batch, spec.batches, gain)
    summary.update(outcome_summary(v, settings, surrender.reshape(size, h), declared, net, batch,
                                   spec.batches, seat_charges(v, net, rake)))
    kept = None
    if spec.keep_hands:
        kept = {"settings": settings, "declare": declare.reshape(size, h),
                "surrender": surrender.reshape(size, h), "held": held, "net": net, "rake": rake,
                "first": first, "static": {k: summary[k] for k in setting_summary_keys()},
                "rules": static_key(v)}
    if spec.out is not None:
        out = Path(spec.out)
        if kept is not None:
            frame = hands_frame(v, settings, kept["declare"], kept["surrender"], net, rake, held, first)
            tmp = out / f".hands-{block:06d}.parquet"
            frame.to_parquet(tmp, index=False)
            os.replace(tmp, out / f"hands-{block:06d}.parquet")
        write_block(out, block, summary, spec.digest)
    return summary, kept


def _metadata(v: Variant, strategy, root, deals, block_deals, tables=None) -> dict:
    import numba
    import scipy

    from cpstats._version import __version__

    meta = {"variant": str(v), "strategy": strategy if isinstance(strategy, str) else repr(strategy),
            "deals": int(deals), "entropy": str(root.entropy), "spawn_key": list(root.spawn_key),
            "block_deals": int(block_deals), "batches": batch_count(deals), "dealer": DEALER,
            "summary_format": SUMMARY_FORMAT, "cpstats": __version__, "numpy": np.__version__,
            "pandas": pd.__version__, "numba": numba.__version__, "scipy": scipy.__version__}
    if strategy == "ev":
        from cpstats.strategies import tables_record

        # found (trained if need be) here, before any block, so workers read them from the cache
        record = tables_record(v, tables=tables, with_source=True)
        meta["tables_source"] = record.pop("source")
        meta["tables"] = record
    meta["run_digest"] = run_digest(meta)
    return meta


def simulate(variant: Variant | str, deals: int, players: int | None = None, strategy: Any = "ev",
             rng=None, executor: Executor | None = None, keep_hands: bool = False,
             out: str | os.PathLike | None = None, *, resume: bool = False, progress: bool = False,
             block_deals: int = BLOCK_DEALS, tables: Any = None) -> SimulationResult:
    """Deal, set and settle ``deals`` deals under ``variant`` and summarise them.

    Parameters
    ----------
    variant
        A Variant, preset name or variant string.
    deals
        Number of deals, 1 to :data:`~cpstats.cards.blocks.MAX_DEALS`.
    players
        Seats (2-4); None keeps the variant's.
    strategy
        Strategy name (see :mod:`cpstats.strategies`) or callable.
    rng
        Seed, SeedSequence, Generator or None (a Generator gives its next child each call).
    executor
        Any ``concurrent.futures``-style executor (a Dask client's included); None is serial.
        Blocks are submitted a window at a time and merged in block order as they finish.
    keep_hands
        Keep the settings in memory (for :meth:`SimulationResult.rescore` and
        :attr:`SimulationResult.hands`) and, with ``out``, write one Parquet file of rows per
        block.
    out
        Folder for finished blocks (and rows); with ``resume=True`` finished blocks of this
        same run (variant, seed, deals, strategy and tables) are reused; blocks of another run
        or that do not read are done again (``metadata["blocks_redone"]``).
    tables
        The ``ev`` setter's row tables (:func:`~cpstats.strategies.set_hands`): None for the
        variant's own (a variant without shipped tables has them trained now, about a minute,
        and cached for the next run), or a preset name or variant string to borrow its tables.
        ``metadata["tables"]`` identifies the tables and ``metadata["tables_source"]`` says
        where they came from (shipped, cache, trained now, borrowed).

    Examples
    --------
    >>> result = simulate("2-4", 2_000, strategy="greedy", rng=1)
    >>> abs(float(result.moments()["mean"].sum())) < 1e-9  # zero-sum between seats
    True
    """
    v = resolve_variant(variant)
    if players is not None:
        check_whole("players", players, 2)
    if players is not None and players != v.players:
        v = v.replace(players=players)
    plan = BlockPlan(deals, block_deals)
    check_executor(executor)
    root = root_seed(rng)
    meta = _metadata(v, strategy, root, deals, block_deals, tables)
    out_path = prepare_out(out, meta, resume)
    spec = _Spec(str(v), strategy, root.entropy, tuple(root.spawn_key), block_deals, keep_hands,
                 None if out_path is None else str(out_path), int(deals), meta["batches"],
                 meta["run_digest"], tables)
    from tqdm.auto import tqdm

    bar = tqdm(total=int(deals), unit="deal", unit_scale=True, disable=not progress,
               desc=f"simulating {v}")
    total, kept, redone = None, ([] if keep_hands else None), 0
    try:
        for block, (summary, block_kept), was_redone in _blocks_in_order(spec, plan, executor,
                                                                        out_path, resume):
            total = merge(total, summary)
            if keep_hands:
                kept.append(block_kept)
            redone += was_redone
            bar.update(plan.size(block))
    finally:
        bar.close()
    meta["blocks_redone"] = redone
    return SimulationResult(v, total, meta, kept=kept, out=out_path)


def _blocks_in_order(spec: _Spec, plan: BlockPlan, executor, out_path: Path | None, resume: bool):
    """Yield (block, (summary, kept), redone) in block order, planning blocks lazily.

    Finished blocks of this run in ``out_path`` are read instead of run (not with ``keep_hands``,
    whose settings are not on disk). With an executor at most ``window`` blocks are in flight.
    """
    keys = None

    def stored(b: int):
        nonlocal keys
        if out_path is None or not resume or spec.keep_hands:
            return None, False
        if keys is None:
            keys = frozenset(_expected_keys(spec))
        return read_block(out_path, b, spec.digest, keys)

    if executor is None:
        for b in range(plan.blocks):
            done, redo = stored(b)
            yield b, (done, None) if done is not None else _run_block(spec, b, plan.size(b)), redo
        return
    window = 4 * (os.cpu_count() or 1) + 8
    pending: deque = deque()
    for b in range(plan.blocks):
        done, redo = stored(b)
        pending.append((b, (done, None) if done is not None
                        else executor.submit(_run_block, spec, b, plan.size(b)), redo))
        while len(pending) >= window or (pending and not hasattr(pending[0][1], "result")):
            yield _finished(pending.popleft())
    while pending:
        yield _finished(pending.popleft())


def _finished(item):
    block, work, redo = item
    return block, (work.result() if hasattr(work, "result") else work), redo


def _expected_keys(spec: _Spec) -> list[str]:
    """The summary keys a block of this run holds (to refuse a block of another layout)."""
    from cpstats.rules.variant import load_variant

    return [*net_summary_keys(load_variant(spec.variant)), *setting_summary_keys(), *outcome_keys()]


def compare(variants: Sequence[Variant | str], deals: int, *, strategy: Any = "ev", rng=None,
            executor: Executor | None = None, block_deals: int = BLOCK_DEALS,
            confidence: float = 0.95, tables: Any = None, labels: Sequence[str] | None = None,
            hands_per_hour: float | None = None, tidy: bool = False) -> pd.DataFrame:
    """Side-by-side figures of several variants on common deals, with paired differences.

    Every variant plays the same deals (the same seed); each sets them with its own strategy
    tables, so where a variant changes how hands are set the settings are redone. ``tables`` (as
    :func:`simulate`'s) apply to every variant; with ``ev`` the ``tables`` and ``tables_source``
    columns say which set each variant's hands (trained for which variant, and from where).

    ``tidy=True`` returns :func:`~cpstats.simulation.paired.paired_metrics`: one row per variant
    and figure (SD, scoop, home-run and foul rates, royalties and naturals paid per hand, house
    take per hand and per seat-hour at ``hands_per_hour``, rake share; seat 0's mean and the
    house edge in banked games, the cost per player in symmetric ones) with ``estimate, ci_low,
    ci_high`` and the paired difference to the first variant ``diff, diff_ci_low, diff_ci_high``:
    Student's t (``batches - 1`` degrees of freedom) on the per-batch differences. Both tables
    carry ``setter`` (who set each variant's hands: a baseline's name, or ev with its tables) and
    ``attrs`` with the strategy, deals, seed entropy, pairing and confidence, so a table handed on
    says how it was made.

    The default wide table has one row per variant (``label``, from ``labels`` or the variant
    string): ``mean_seat0`` and its paired difference ``diff_vs_first`` (``diff_ci_low``,
    ``diff_ci_high``: t on the batch means of per-deal differences; only meaningful in banked
    games), ``rake_per_hand``, and for every figure of the tidy table the columns ``FIGURE``,
    ``FIGURE_ci_low``, ``FIGURE_ci_high``, ``FIGURE_diff``, ``FIGURE_diff_ci_low``,
    ``FIGURE_diff_ci_high`` (NaN where a game has no such figure). ``sd`` is a player's SD
    (seats averaged, the bank left out), ``sd_diff_vs_first`` with ``sd_diff_ci_low`` and
    ``sd_diff_ci_high`` its paired difference (NaN where batches hold one deal, under 60 deals).
    """
    from cpstats.simulation.paired import paired_metrics

    level = check_confidence(confidence)
    if not isinstance(tidy, (bool, np.bool_)):
        raise OptionError(f"tidy={tidy!r} is invalid: True (one row per figure) or False (one per variant)")
    vs = [resolve_variant(v) for v in variants]
    if len(vs) < 2:
        raise OptionError(f"compare needs at least two variants, got {len(vs)}")
    root = root_seed(rng)
    results = [simulate(v, deals, strategy=strategy, rng=root, executor=executor,
                        block_deals=block_deals, tables=tables) for v in vs]
    figures = paired_metrics(results, labels, hands_per_hour=hands_per_hour, confidence=level)
    figures.insert(3, "setter", [results[i].setter for i in figures["run"]])
    run = {"strategy": strategy, "deals": int(deals), "entropy": str(root.entropy), "pairing": "common deals",
           "confidence": level}
    if tidy:
        figures.attrs.update(run)
        return figures
    rows = []
    base = results[0]
    for i, (v, r) in enumerate(zip(vs, results)):
        mine = figures[figures["run"] == i].set_index("metric")
        diff = r.summary["batch_sums"][:, :1] - base.summary["batch_sums"][:, :1]
        mean_diff, _, half = batch_mean_interval(diff, r.summary["batch_sizes"], level)
        mean_diff, half = float(mean_diff[0]), float(half[0])
        row = {"label": mine["label"].iloc[0], "variant": str(v), "setter": r.setter,
               "mean_seat0": float(r.summary["net_s1"][0]) / r.deals,
               "rake_per_hand": float(r.summary["rake_s1"]) / r.deals,
               "diff_vs_first": mean_diff, "diff_ci_low": mean_diff - half, "diff_ci_high": mean_diff + half}
        for key in figures["metric"].unique():
            for suffix, column in (("", "estimate"), ("_ci_low", "ci_low"), ("_ci_high", "ci_high"),
                                   ("_diff", "diff"), ("_diff_ci_low", "diff_ci_low"),
                                   ("_diff_ci_high", "diff_ci_high")):
                row[key + suffix] = mine.at[key, column] if key in mine.index else np.nan
        row["sd_diff_vs_first"] = row["sd_diff"]
        if "tables" in r.metadata:
            row.update(tables=r.metadata["tables"]["trained_for"], tables_source=r.metadata["tables_source"])
        rows.append(row)
    wide = pd.DataFrame(rows)
    wide.attrs.update(run)
    return wide
