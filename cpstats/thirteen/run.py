"""The 13-card runs: deal, set and settle millions of deals block by block into summary tables
(the game's registered ``simulate`` and ``compare``, behind :func:`cpstats.simulate` and
:func:`cpstats.compare`).

Each block of deals (see :mod:`cpstats.cards.blocks`) is dealt from its own SeedSequence child, set
by the strategy, settled by :func:`cpstats.thirteen.settlement.settle_many` and reduced to additive
summaries (:mod:`cpstats.thirteen.summary`) by the engine's block runner
(:mod:`cpstats.engine.runner`), so memory stays flat however many deals run, and the same seed
gives bit-identical results whatever the executor: summaries are merged in block order.

With ``out=DIR`` every finished block is written at once (``block-000012.npz``, plus
``hands-000012.parquet`` when ``keep_hands``), so an interrupted run started again with
``resume=True`` reuses them and ends with the result an uninterrupted run would have had
(:mod:`cpstats.engine.files`).
"""

from __future__ import annotations

import dataclasses
import os
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd

from cpstats.cards.blocks import BLOCK_DEALS, DEALER, BlockPlan, check_executor, root_seed, shuffled_decks
from cpstats.errors import OptionError
from cpstats.rules.house import BankSetter
from cpstats.thirteen.rules.ids import HandOrdering
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.settlement import seat_charges
from cpstats.engine.batches import batch_count, batch_of
from cpstats.engine.files import prepare_out, run_digest
from cpstats.engine.runner import BlockJob, BlockOutput, run_blocks, versions
from cpstats.engine.stats import check_confidence
from cpstats.thirteen.block import SetHands
from cpstats.thirteen.outcomes import outcome_summary
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.summary import (SUMMARY_FORMAT, SimulationSummary, hands_frame, net_summary,
                                      settle_block, setting_summary, static_key, tie_gain)

__all__ = ["simulate", "compare", "house_way_bank", "BANK_HOUSE_WAY"]


# -- strategies ------------------------------------------------------------------------------

def _decide(setter: Any, hands: np.ndarray, variant: Variant, rng: np.random.Generator):
    """(settings, declare, surrender) for dealt hands (N, 13) by a resolved setter, a strategy
    name or callable: the play layer's unchecked entry, since the verb checked the setter and
    the engine dealt the hands (the strategy's output is still checked)."""
    from cpstats.thirteen.play.api import _set_dealt

    decisions = _set_dealt(setter, hands, variant, rng)
    return (np.ascontiguousarray(decisions.settings, dtype=np.uint8),
            np.asarray(decisions.declare, dtype=bool), np.asarray(decisions.surrender, dtype=bool))


def _set_deals(setter: Any, hands: np.ndarray, variant: Variant, rng: np.random.Generator):
    """((settings, declare, surrender), own) for a block's hands (D, H, 13), each (D, H, ...):
    ``own`` is every hand set by ``setter`` alone when the bank sets otherwise, else None.

    Every hand is set by ``setter`` in one call, as before the rule existed (so ``bank.setter=ev``
    plays exactly as then); with ``bank.setter=house-way`` the bank's hands (seat 0) are then set
    again by the house way's kernel. The setter's own play of the bank's hands is kept: the game
    it makes, ties pushed, is symmetric, which the house edge's control variate needs."""
    d, h = hands.shape[:2]
    own = tuple(np.asarray(x).reshape(d, h, *np.shape(x)[1:])
                for x in _decide(setter, hands.reshape(-1, 13), variant, rng))
    if not house_way_bank(variant):
        return own, None
    from cpstats.thirteen.play.house_way import house_way

    k = variant.hands_per_player
    bank = house_way(np.ascontiguousarray(hands[:, :k]).reshape(-1, 13), variant)
    played = tuple(x.copy() for x in own)
    for out, mine in zip(played, (bank.settings, bank.declare, bank.surrender)):
        out[:, :k] = np.asarray(mine).reshape(d, k, *out.shape[2:])
    return played, own


def _house_way_gain(v: Variant, hands: np.ndarray, own: tuple, net: np.ndarray) -> np.ndarray:
    """The bank's result per deal less what it would have netted, ties pushed and no charge, had
    it set as the players (``own``: every hand by the run's setter). That game is symmetric, so
    its mean is 0 and this difference has the bank's mean with most of the players' luck taken out."""
    pushed = dataclasses.replace(v, bank=dataclasses.replace(v.bank, wins_ties=False,
                                                             commission=0.0, fee=0.0))
    push_net, _, _, _ = settle_block(pushed, hands, *own)
    return net[:, 0] - push_net[:, 0]


def house_way_bank(v: Variant) -> bool:
    """Whether ``v``'s bank (seat 0) sets by the house way: a banked game, ``bank.setter=house-way``."""
    return v.bank.banked and v.bank.setter is BankSetter.HOUSE_WAY


def _check_bank(v: Variant) -> None:
    """Refuse a run whose bank would set a low middle (H5) by the house way, which has no rules for it."""
    if house_way_bank(v) and v.ranking is HandOrdering.DEUCE_TO_SEVEN:
        raise OptionError(f"bank.setter='house-way' is invalid for {v}: the house way sets high "
                          "rows (ranking=H1 or H4), not a low middle (H5); set bank.setter=ev")


#: ``metadata["bank"]`` of a run whose bank set by the house way (a result labels it "bank: house way").
BANK_HOUSE_WAY = "house way"


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
    from cpstats.thirteen.rules.variant import parse_variant

    v = parse_variant(spec.variant)
    root = np.random.SeedSequence(spec.entropy, spawn_key=spec.spawn_key)
    decks = shuffled_decks(root, block, size)
    h = v.players * v.hands_per_player
    hands = decks[:, : 13 * h].reshape(size, h, 13)
    # the strategy's own randomness: a grandchild of the block's seed, apart from the deal's stream
    strategy_rng = np.random.default_rng(
        np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (block, 0)))
    (settings, declare, surrender), own = _set_deals(spec.setter, hands, v, strategy_rng)
    net, rake, declared, held = settle_block(v, hands, settings, declare, surrender)
    first = block * spec.block_deals
    batch = batch_of(first, size, spec.deals, spec.batches)
    gain = (tie_gain(v, settings, declared, surrender, net) if own is None
            else _house_way_gain(v, hands, own, net))
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
    from cpstats.thirteen.play.setters import EvSetter, Setter, setter_params

    strategy = setter.name if isinstance(setter, Setter) else setter
    meta = {"variant": str(v), "strategy": strategy if isinstance(strategy, str) else repr(strategy),
            "deals": int(deals), "entropy": str(root.entropy), "spawn_key": list(root.spawn_key),
            "block_deals": int(block_deals), "batches": batch_count(deals), "dealer": DEALER,
            "summary_format": SUMMARY_FORMAT, **versions()}
    if isinstance(setter, EvSetter):
        from cpstats.thirteen.play import tables_record

        # found (trained if need be) here, before any block, so workers read them from the cache
        record = tables_record(v, tables=setter.tables, with_source=True)
        meta["tables_source"] = record.pop("source")
        meta["tables"] = record
    if house_way_bank(v):
        meta["bank"] = BANK_HOUSE_WAY  # who set seat 0, whatever set the players
    meta["run_digest"] = run_digest(meta)
    # beside the identity: "strategy" and "tables" already say everything the setter decides
    meta["setter"] = setter_params(setter)
    return meta


def simulate(v: Variant, deals: int, *, setter: Any = "ev", rng=None, executor: Executor | None = None,
             keep_hands: bool = False, out: str | os.PathLike | None = None, resume: bool = False,
             progress: bool = False, block_deals: int | None = None) -> SimulationResult:
    """The 13-card run behind :func:`cpstats.simulate` (registered as the game's ``simulate``):
    deal, set and settle ``deals`` deals of ``v`` block by block and summarise them.

    ``setter`` is a setter object, a registered strategy's name or a callable (the verb resolved
    it: :func:`~cpstats.thirteen.play.setters.as_setter`); ``block_deals=None`` is
    :data:`~cpstats.cards.blocks.BLOCK_DEALS`. The other keywords are :func:`cpstats.simulate`'s.
    In a banked game with ``bank.setter=house-way`` (the default) ``setter`` sets the players
    and the house way the bank (seat 0); ``metadata["bank"]`` then says ``house way``.

    Examples
    --------
    >>> from cpstats import get_preset
    >>> result = simulate(get_preset("2-4"), 2_000, setter="greedy", rng=1)
    >>> abs(float(result.moments()["mean"].sum())) < 1e-9  # zero-sum between seats
    True
    """
    from cpstats.thirteen.play.setters import as_setter

    setter = as_setter(setter)
    _check_bank(v)
    block_deals = BLOCK_DEALS if block_deals is None else block_deals
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


def compare(vs: Sequence[Variant], deals: int, *, setter: Any = "ev", rng=None,
            executor: Executor | None = None, block_deals: int | None = None,
            confidence: float = 0.95, labels: Sequence[str] | None = None,
            hands_per_hour: float | None = None, tidy: bool = False) -> pd.DataFrame:
    """Side-by-side figures of several variants on common deals, with paired differences.

    The 13-card compare behind :func:`cpstats.compare` (registered as the game's ``compare``).
    Every variant plays the same deals (the same seed) with ``setter`` (as :func:`simulate`'s);
    ``ev`` plays each variant with its own row tables (unless ``EvSetter(tables=...)`` names
    others), so where a variant changes how hands are set the settings are redone; the
    ``tables`` and ``tables_source`` columns say which set each variant's hands (trained for
    which variant, and from where).

    ``tidy=True`` returns :func:`~cpstats.thirteen.paired.paired_metrics`: one row per variant
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
    the house's: ``rake_per_hand``; the edge after it is ``house_edge``), given for banked
    games only. ``sd`` is a player's SD (seats averaged, the bank left out), ``sd_diff`` with
    ``sd_diff_ci_low`` and ``sd_diff_ci_high`` its paired difference (NaN where batches hold one
    deal, under 60 deals).
    """
    from cpstats.thirteen.paired import paired_metrics
    from cpstats.thirteen.play.setters import as_setter, setter_params

    setter = as_setter(setter)
    level = check_confidence(confidence)
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
