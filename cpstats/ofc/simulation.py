"""Open-face simulation: play hands block by block, settle them, and summarise them.

The machinery is the 13-card runs' (:mod:`cpstats.engine`): hands are cut into fixed blocks
(:class:`~cpstats.cards.blocks.BlockPlan`); block i plays from a numpy Generator seeded by
SeedSequence child i (:func:`~cpstats.cards.blocks.block_seed`), so any executor (None, a
``concurrent.futures`` pool, a Dask client) gives identical numbers; block summaries are merged
in block order; with ``out=DIR`` every finished block is written (``block-NNNNNN.npz`` and
``hands-NNNNNN.parquet``, one row per hand and seat) and a run started again with
``resume=True`` keeps its finished blocks and redoes blocks of another run
(:mod:`cpstats.engine.files`).

Fantasyland carries over from hand to hand within a block. It cannot carry across blocks: blocks
run in parallel and each must be repeatable alone. Decision: every block starts with nobody in
Fantasyland and first plays ``burn_in`` hands (default 8) from its own stream that are not
counted, then the counted hands from the state they leave. A player's Fantasyland state forgets
its start within a few hands (entry and stay are each well below 1), so 8 hands leave no
measurable start-up bias; ``burn_in`` is recorded in the metadata and is part of the run's
identity.

Decks: hand h of block i is the h-th ``permutation(52)`` of the block's Generator after the
burn-in (``play_hands`` draws a deck and one strategy seed per hand, whatever the variant), so
two variants run with the same seed play the same decks: :func:`compare` pairs them.

:func:`simulate` and :func:`compare` are the open-face runs behind :func:`cpstats.simulate` and
:func:`cpstats.compare` (registered in :mod:`cpstats.ofc`), with the verbs' keyword names
(``deals``, ``keep_hands``, ``block_deals``; this game's own ``burn_in`` besides).
"""

from __future__ import annotations

import os
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd

from cpstats.cards.blocks import BlockPlan, block_seed, check_executor, root_seed
from cpstats.errors import OptionError, check_whole
from cpstats.ofc.entry_value import play_identity
from cpstats.ofc._place_kernel import FAST, ROLLOUT_LEARNED
from cpstats.ofc.placement import strategy_code
from cpstats.ofc.play import _play, _Table
from cpstats.ofc.result import SUMMARY_FORMAT, SimulationResult, SimulationSummary, paired_figures, summarise_hands
from cpstats.ofc.rules import GAME, Variant, parse_ofc_variant, resolve_ofc_variant
from cpstats.ofc.settlement import settle_table
from cpstats.ofc.street_values import model_identity
from cpstats.ofc.setters import as_ofc_setter, seat_budget, seat_setters, seats_label, seats_params
from cpstats.engine.files import prepare_out, run_digest
from cpstats.engine.runner import BlockJob, BlockOutput, run_blocks, versions
from cpstats.engine.stats import check_confidence
from cpstats.engine.batches import batch_count, batch_of

__all__ = ["simulate", "compare", "acting_last", "play_of", "check_one_play", "BLOCK_HANDS", "BURN_IN"]

BLOCK_HANDS = 512
LEARNED_CODES = (ROLLOUT_LEARNED, FAST)  # the plays that read the street models
BURN_IN = 8
_NAMES = np.array([r + s for r in "23456789TJQKA" for s in "cdhs"])


@dataclass(frozen=True)
class _Spec:
    """Everything a worker needs for a block: picklable, no open files."""

    variant: str
    strategies: tuple[str, ...]
    entropy: Any
    spawn_key: tuple
    block_hands: int
    burn_in: int
    hands: int
    batches: int
    digest: str
    out: str | None
    rows: bool
    samples: tuple[int, ...]
    top: int
    first_seat: int = 0


def _play_block(spec: _Spec, block: int, size: int) -> BlockOutput:
    """Play, settle and summarise one block (after its burn-in), with its rows when asked."""
    v = parse_ofc_variant(spec.variant)
    root = np.random.SeedSequence(spec.entropy, spawn_key=spec.spawn_key)
    gen = np.random.default_rng(block_seed(root, block))
    # the seats' setters were resolved by the verb: the play layer's unchecked entry
    codes = np.array([strategy_code(name) for name in spec.strategies], dtype=np.int64)
    options = {"codes": codes, "samples": np.array(spec.samples, dtype=np.int64), "top": spec.top}
    start = np.zeros(v.players, dtype=np.int64)
    table = _Table(v, spec.first_seat)
    if spec.burn_in:
        start = _play(v, spec.burn_in, gen, state=start, table=table, **options).next_fantasy
    if v.match.rounds:  # the counted hands open a match: nobody in Fantasyland, the buy-in each
        start, table = np.zeros(v.players, dtype=np.int64), _Table(v, table.first)
    played = _play(v, size, gen, state=start, table=table, **options)
    settled = settle_table(v, played)
    first = block * spec.block_hands
    batch = batch_of(first, size, spec.hands, spec.batches)
    summary = summarise_hands(v, played.fantasy_cards, settled, batch, spec.batches, played)
    rows = None
    if spec.out is not None and spec.rows:
        rows = hands_rows(played.boards, played.fantasy_cards, settled, first)
    return BlockOutput(summary, rows)


def hands_rows(boards: np.ndarray, fantasy_cards: np.ndarray, s, first: int = 0) -> pd.DataFrame:
    """One row per hand and seat: the board's rows as text, Fantasyland cards (0 = a normal
    hand), foul, royalty per row, scoops, Fantasyland earned and stay, net and rake."""
    n, players = boards.shape[:2]
    text = _NAMES[boards.reshape(-1, 13).astype(np.int64)]
    rows = [pd.Series(text[:, a:b].tolist()).str.join(" ") for a, b in ((0, 3), (3, 8), (8, 13))]
    royalty = s.royalty.reshape(-1, 3)
    return pd.DataFrame({
        "hand": np.repeat(np.arange(first, first + n, dtype=np.int64), players),
        "seat": np.tile(np.arange(players, dtype=np.int8), n),
        "fantasy_cards": fantasy_cards.reshape(-1).astype(np.int8),
        "front": rows[0], "middle": rows[1], "back": rows[2],
        "foul": s.fouled.reshape(-1),
        "royalty_front": royalty[:, 0].astype(np.int16),
        "royalty_middle": royalty[:, 1].astype(np.int16),
        "royalty_back": royalty[:, 2].astype(np.int16),
        "scoops": s.scoops.reshape(-1).astype(np.int8),
        "fl_cards": s.fl_cards.reshape(-1).astype(np.int8),
        "stays": s.stays.reshape(-1),
        "net": s.net.reshape(-1).astype(np.int32),
        "rake": s.rake.reshape(-1).astype(np.float32),
    })


def _metadata(v: Variant, seats, root, hands, block_hands, burn_in, first_seat: int = 0) -> dict:
    meta = {"game": GAME, "variant": str(v), "strategy": seats_label(seats),
            "deals": int(hands), "entropy": str(root.entropy), "spawn_key": list(root.spawn_key),
            "block_deals": int(block_hands), "batches": batch_count(hands), "burn_in": burn_in,
            "dealer": f"numpy default_rng(block child).permutation(52) a hand, burn-in {burn_in}",
            "summary_format": SUMMARY_FORMAT, **versions()}
    if first_seat:  # the seat after the button at the first hand, when it is not seat 0
        meta["first_seat"] = int(first_seat)
    play = play_identity(v, tuple(s.name for s in seats))
    models = None
    if any(strategy_code(s.name) in LEARNED_CODES for s in seats):  # its street models are part of what it plays by
        models = model_identity(v)
        shown = "none (plays as rollout-exact)" if models["digest"] == "none" else models["digest"]
        play += f", street models {shown}"
    if play is not None:  # what a rollout plays by: part of the run's identity
        meta["play"] = play
    meta["run_digest"] = run_digest(meta)
    meta["setter"] = seats_params(seats)  # beside the identity, which the strategy label carries
    if models is not None:  # the file, its digest and whether the variant's rules lie in its trained ranges
        meta["street_models"] = models
    return meta


def play_of(meta: dict) -> str:
    """The play a run's figures describe, as one comparison must share it: its strategy label and,
    where the street models play, their digest (``none`` when it played as rollout-exact). Every
    seat playing one setter is that setter's label, so variants of other player counts compare."""
    seats = meta["strategy"].split("/")
    label = seats[0] if len(set(seats)) == 1 else meta["strategy"]
    models = meta.get("street_models")
    return label + ("" if models is None else f", street models {models['digest']}")


def check_one_play(metas: Sequence[dict | str], labels: Sequence[str], what: str) -> str:
    """The one play of runs compared together, or one line naming two points played otherwise
    (a comparison never mixes two strengths); each of ``metas`` a run's metadata or the play
    :func:`play_of` read from it (a sweep's ``attrs["plays"]``)."""
    plays = [m if isinstance(m, str) else play_of(m) for m in metas]
    for label, play in zip(labels, plays):
        if play != plays[0]:
            raise OptionError(f"{what} would mix two plays: {labels[0]!r} is played by {plays[0]} and {label!r} by "
                              f"{play}; play every point with one setter and one street-model file")
    return plays[0]


def simulate(variant: Variant | str, deals: int, *, setter: Any = "rollout",
             rng=None, executor: Executor | None = None, keep_hands: bool = False,
             out: str | os.PathLike | None = None, resume: bool = False, progress: bool = False,
             block_deals: int | None = None, burn_in: int = BURN_IN, first_seat: int = 0) -> SimulationResult:
    """Play ``deals`` open-face hands under ``variant`` and summarise them (the game's registered
    run, behind :func:`cpstats.simulate`).

    Parameters
    ----------
    variant
        An :class:`~cpstats.ofc.rules.Variant`, OFC preset name or variant string.
    deals
        Hands to count (burn-in hands apart).
    setter
        Who places the cards: a setter object (:class:`~cpstats.ofc.setters.Rollout` with its
        ``samples`` and ``top``, :class:`~cpstats.ofc.setters.GreedySetter`,
        :class:`~cpstats.ofc.setters.RandomSetter`) or a name (``"rollout"``, ``"ev"`` the same,
        ``"greedy"``, ``"random"``) for every seat, or one per seat. ``metadata["setter"]``
        records its settings.
    rng
        Seed, SeedSequence, Generator or None (as :func:`cpstats.simulate`).
    executor
        Any ``concurrent.futures``-style executor (a Dask client's too); None is serial.
    out, resume, keep_hands
        Folder for finished blocks and (``keep_hands``) their Parquet rows, one per hand and seat;
        ``resume=True`` keeps the finished blocks of this same run and redoes any of another run
        (``metadata["blocks_redone"]``), and with ``keep_hands`` plays again (same numbers) a
        finished block whose rows were not written.
    block_deals, burn_in
        Hands per block (None: :data:`BLOCK_HANDS`), and uncounted hands each block plays first
        (see the module).
    first_seat
        The seat acting first at each block's first hand (0: seat 0; with ``button=fixed`` on every
        hand): :func:`acting_last` plays one deck with each seat first.

    Examples
    --------
    >>> r = simulate("ofc-pineapple", 200, setter="random", rng=1, block_deals=100)
    >>> r.deals, bool(r.figures().set_index("metric").at["foul_rate", "estimate"] > 0.5)
    (200, True)
    """
    hands, block_hands = deals, BLOCK_HANDS if block_deals is None else block_deals
    v = resolve_ofc_variant(variant)
    seats = seat_setters(setter, v.players)
    budget, top = seat_budget(seats)
    plan = BlockPlan(hands, check_whole("block_deals", block_hands, 1))
    check_executor(executor)
    burn_in = check_whole("burn_in", burn_in, 0)
    first_seat = check_whole("first_seat", first_seat, 0)
    if first_seat >= v.players:
        raise OptionError(f"first_seat={first_seat} is invalid: a seat of 0..{v.players - 1}")
    root = root_seed(rng)
    meta = _metadata(v, seats, root, hands, block_hands, burn_in, first_seat)
    out_path = prepare_out(out, meta, resume)
    spec = _Spec(str(v), tuple(s.name for s in seats), root.entropy, tuple(root.spawn_key), int(block_hands), burn_in,
                 int(hands), meta["batches"], meta["run_digest"],
                 None if out_path is None else str(out_path), bool(keep_hands), budget, top, first_seat)
    job = BlockJob(_play_block, spec, spec.out, spec.digest, SimulationSummary)

    def reusable(block: int) -> bool:  # a finished block whose rows were not written is played again
        return not spec.rows or (out_path / f"hands-{block:06d}.parquet").exists()

    run = run_blocks(job, plan, executor=executor, out_path=out_path, resume=resume,
                     keys=lambda: SimulationSummary.layout(v),
                     reusable=reusable, progress=progress, desc=f"playing {v}", unit="hand")
    meta["blocks_redone"] = run.redone
    return SimulationResult(v, run.summary, meta, out=out_path)


def compare(variants: Sequence[Variant | str], deals: int, *, setter: Any = "rollout",
            rng=None, executor: Executor | None = None, labels: Sequence[str] | None = None,
            confidence: float = 0.95, block_deals: int | None = None, burn_in: int = BURN_IN,
            hands_per_hour: float | None = None) -> pd.DataFrame:
    """Figures of several OFC variants played on common decks, with paired differences.

    Every variant is played with the same seed, so hand h of every run starts from the same
    shuffled deck; the per-batch differences of each figure to the first variant give the
    ``diff`` interval (Student's t, ``batches - 1`` degrees of freedom), far tighter than two
    independent runs. Returns :func:`~cpstats.ofc.result.paired_figures`' table: ``label``,
    ``variant``, ``strategy``, ``metric``, ``estimate``, ``ci_low``, ``ci_high``, ``diff``, ``diff_ci_low``,
    ``diff_ci_high``, ``method``. ``deals`` (hands), ``setter`` and ``block_deals`` are
    :func:`simulate`'s.
    """
    level = check_confidence(confidence)
    if isinstance(variants, (str, Variant)):
        raise OptionError(f"variants={str(variants)!r} is invalid: a list of two or more OFC variants")
    vs = [resolve_ofc_variant(v) for v in variants]
    if len(vs) < 2:
        raise OptionError(f"compare needs at least two variants, got {len(vs)}")
    labels = [str(v) for v in vs] if labels is None else [str(x) for x in labels]
    if len(labels) != len(vs):
        raise OptionError(f"labels={labels!r} is invalid: one label per variant ({len(vs)})")
    root = root_seed(rng)
    results = [simulate(v, deals, setter=seat_setters(setter, v.players), rng=root,
                        executor=executor, block_deals=block_deals, burn_in=burn_in) for v in vs]
    play = check_one_play([r.metadata for r in results], labels, "compare")
    table = paired_figures(results, labels, level, hands_per_hour)
    table.attrs.update(play=play, street_models={lab: r.metadata.get("street_models") for lab, r in zip(labels, results)})
    return table


def acting_last(variant: Variant | str, deals: int, *, setter: Any = "fast", rng=None,
                executor: Executor | None = None, confidence: float = 0.95, block_deals: int | None = None,
                burn_in: int = BURN_IN) -> tuple[pd.DataFrame, list[SimulationResult]]:
    """The value of acting last, paired: the same decks played once with each seat first (a fixed
    button; each seat dealt the same cards whatever its position, :mod:`cpstats.ofc.play`), so a seat's
    result acting last less its result acting first on the same cards is the position's worth with
    the cards' luck taken out. Returns the figures (``value_of_acting_last`` and each position's
    ``mean_acting_<position>``, batch t on the runs' common batches) and the runs.

    Examples
    --------
    >>> table, runs = acting_last("ofc-pineapple", 40, setter="greedy", rng=1, block_deals=40)
    >>> float(table.set_index("metric").at["value_of_acting_last", "estimate"])  # greedy ignores others' cards
    0.0
    """
    level = check_confidence(confidence)
    v = resolve_ofc_variant(variant).replace(button="fixed", button__fantasyland="hold")
    root = root_seed(rng)
    runs = [simulate(v, deals, setter=setter, rng=root, executor=executor, block_deals=block_deals,
                     burn_in=burn_in, first_seat=f) for f in range(v.players)]
    check_one_play([r.metadata for r in runs], [f"seat {f} first" for f in range(v.players)], "acting_last")
    players, sizes = v.players, runs[0].summary.batch_sizes
    by_position = np.zeros((players, len(sizes)))
    for f, r in enumerate(runs):
        for seat in range(players):
            by_position[(seat - f) % players] += r.summary.net_by_batch[:, seat]
    rows = []
    from cpstats.ofc.result import _figure
    from cpstats.ofc.table_figures import POSITIONS
    for k, name in zip((0, *range(1, players - 1), players - 1), POSITIONS[players]):
        est, low, high, _, method = _figure("m", (by_position[k], sizes * players), level)
        rows.append((f"mean_acting_{name}", est, low, high, method))
    est, low, high, _, method = _figure("m", (by_position[-1] - by_position[0], sizes * players), level)
    rows.append(("value_of_acting_last", est, low, high, f"{method}, paired: the same decks with each seat first"))
    return pd.DataFrame(rows, columns=["metric", "estimate", "ci_low", "ci_high", "method"]), runs


# -- the shared verbs (cpstats.simulate, cpstats.compare; registered in cpstats.ofc) ---------

def _workbench_options(setter: Any, block_deals: int | None) -> tuple[Any, int]:
    """The open-face setter and block size for the shared verbs' keywords: ``ev`` (the 13-card
    strong setter's name) means ``Rollout()``; an ``EvSetter`` with tables is refused."""
    seats = setter if isinstance(setter, (list, tuple)) else as_ofc_setter(setter)
    return seats, BLOCK_HANDS if block_deals is None else block_deals


def _compare_runs(vs: Sequence[Variant], deals: int, *, setter: Any = "rollout", rng=None, executor=None,
                  block_deals: int | None = None, confidence: float = 0.95,
                  labels: Sequence[str] | None = None, hands_per_hour: float | None = None,
                  tidy: bool = False) -> pd.DataFrame:
    """:func:`compare`'s table of figures on common decks; open face has one table, tidy, whatever
    ``tidy`` says (its figures are ratios that a wide table would only repeat)."""
    chosen, block = _workbench_options(setter, block_deals)
    table = compare(vs, deals, setter=chosen, rng=rng, executor=executor, labels=labels,
                    confidence=confidence, block_deals=block, hands_per_hour=hands_per_hour)
    return table.rename(columns={"strategy": "setter"})

