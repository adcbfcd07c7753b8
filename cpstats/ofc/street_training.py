"""Training the conditioned street models (:mod:`cpstats.ofc.street_values`) from exact-endgame self-play over rule draws.

- **Variants** (:func:`cpstats.ofc.rule_features.training_variants`): the shipped runs' variants
  (``anchor_hands`` self-play hands each) and ``draws`` rule draws around the presets (``hands``
  each), draw ``i`` from SeedSequence child ``i`` of the seed.
- **Labels** (:func:`label_hands`): ``rollout-exact`` self-play of each variant, told that
  variant's entry value; for each seat the board after each street but the last is a row of
  :data:`~cpstats.ofc.street_values.FEATURES` (the board's features, then the variant's rule
  numbers), labelled by the exact expected final objective of that seat's board before the last
  street (:func:`cpstats.ofc._place_exact.last_street_mean`: the final objective with the last
  street's luck integrated out, in the variant's own objective).
- **Off-policy rows** (:func:`off_policy_rows`): every option of each played deal on the street
  before the last, labelled exactly; the :data:`BOOT_OPTIONS` options of best ``board_h`` of an
  earlier street, labelled by the lookahead over the later street's new model (fitted value
  iteration, from the last street back). The lookahead asks the models about boards the policy
  would not play, where models fitted to on-policy rows alone were far off.
- **Models** (:func:`fit_model`): a ``HistGradientBoostingRegressor`` per deal and street
  (fixed ``random_state``, no early stopping, :data:`TREE_SETTINGS`), exported to flat arrays
  (:func:`export_trees`) whose prediction equals ``model.predict``.
- **Work**: each variant's self-play and labels, and each street's off-policy rows, are tasks of
  ``workers`` processes (at most the machine's cores), gathered in variant order; the fits run in
  the main process. The file is the same whatever the worker count (every task is a function of
  its variant and seed). The workers ignore Ctrl-C: the main process hears it, ends every worker
  at once and passes the ``KeyboardInterrupt`` on (the command line's one line "interrupted").
- **Size**: at most :data:`MAX_TRAINING_HANDS` self-play hands in all (draws x hands and the
  anchors' hands), refused in one line before any work.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shlex
import signal
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from cpstats._atomic import atomic_path, writable_file
from cpstats.errors import OptionError, check_whole
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _train_kernel as _tk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc.entry_value import rollout_args
from cpstats.ofc.placement import DEFAULT_HINDSIGHT, DEFAULT_SAMPLES, DEFAULT_TOP, stacked
from cpstats.ofc.rule_features import ANCHORS, RULE_FEATURES, rule_vector, trained_ranges, training_variants
from cpstats.ofc.street_values import FEATURES, MODEL_ARRAYS, StreetModel, Trees
from cpstats.ofc.rules import Deal, Variant, parse_ofc_variant, resolve_ofc_variant

__all__ = ["TREE_SETTINGS", "DRAWS", "HANDS", "ANCHOR_HANDS", "SEED", "SelfPlay", "self_play", "label_hands",
           "off_policy_rows", "export_trees", "fit_model", "train_street_models", "write_models",
           "MAX_TRAINING_HANDS", "check_training_size", "max_workers"]

#: Settings of the boosted trees (per deal and street).
TREE_SETTINGS = {"max_iter": 200, "learning_rate": 0.1, "max_leaf_nodes": 31, "min_samples_leaf": 40,
                 "l2_regularization": 1.0, "early_stopping": False}
BOOT_SAMPLES = 8  # sampled next deals behind an earlier street's off-policy label
BOOT_OPTIONS = 24  # options (best board_h first) of an earlier street's deal labelled off-policy
# The shipped file's recipe: 300 rule draws x 14 hands and 300 hands of each shipped variant, 23
# minutes on 2 cores (the 40-draw x 40-hand recipe before it drew the rules less widely and played as
# well on common deals; docs/measurements.md#bench_ofc_play).
DRAWS = 300  # rule draws of the shipped file
HANDS = 14  # self-play hands a rule draw
ANCHOR_HANDS = 300  # self-play hands of each shipped run's variant
SEED = 2026
MAX_ROWS = 1_500_000  # rows a street's fit reads at most (a fixed subsample beyond)
#: Self-play hands of a training at most (draws x hands + anchors x anchor_hands; the shipped file's
#: 6,300). A street's rows take about 150 KB a hand of four players in the main process (up to 27
#: options of 57 features a seat, and their concatenation), 7.5 GB at the cap; at about 0.4 s of
#: CPU a hand, about 5.5 hours of one core.
MAX_TRAINING_HANDS = 50_000


def max_workers() -> int:
    """The most worker processes a training takes: this machine's cores (``os.cpu_count()``);
    more would only queue for them."""
    return os.cpu_count() or 1


def check_training_size(draws: int, hands: int, anchor_hands: int, *, anchors: int = len(ANCHORS),
                        names: tuple[str, str, str] = ("draws", "hands", "anchor_hands")) -> int:
    """The self-play hands of a training (``draws`` x ``hands`` + ``anchors`` x ``anchor_hands``),
    or one OptionError line naming the options (``names``) when past :data:`MAX_TRAINING_HANDS`."""
    total = draws * hands + anchors * anchor_hands
    if total > MAX_TRAINING_HANDS:
        raise OptionError(f"{names[0]} {draws:,} x {names[1]} {hands:,} + {anchors} anchors x {names[2]} "
                          f"{anchor_hands:,} = {total:,} self-play hands is invalid: at most "
                          f"{MAX_TRAINING_HANDS:,} (about 150 KB of rows a hand in memory, 7.5 GB at the cap; "
                          f"the shipped file's recipe is {DRAWS * HANDS + len(ANCHORS) * ANCHOR_HANDS:,})")
    return total


class SelfPlay(NamedTuple):
    """Self-play hands: decks int8[hands, 52], final boards int8[hands, players, 13] and each
    seat's discards a street int8[hands, players, streets] (-1 where none)."""

    decks: np.ndarray
    boards: np.ndarray
    discards: np.ndarray


def kernel_args(v: Variant) -> tuple:
    """(deal, keep, the rank tables, ``rollout-exact``'s value tables) of the labelling kernels."""
    args = rollout_args(v)
    return (np.array(v.cards_dealt, dtype=np.int64), np.array(v.cards_kept, dtype=np.int64), *args[:6],
            args.vt, args.prm)


def self_play(variant: Variant | str, hands: int, seed: int | np.random.SeedSequence, *,
              model: StreetModel | None = None) -> SelfPlay:
    """``hands`` normal hands of ``rollout-exact`` self-play (``rollout`` by ``model`` when given);
    decks and strategy seeds from ``seed``."""
    v = resolve_ofc_variant(variant)
    hands = check_whole("hands", hands, 1)
    args = stacked(rollout_args(v))  # rollout-exact and rollout play by the first (here the only) tables
    deal = np.array(v.cards_dealt, dtype=np.int64)
    keep = np.array(v.cards_kept, dtype=np.int64)
    samples = np.full(v.players, DEFAULT_SAMPLES, np.int64)
    out = SelfPlay(np.empty((hands, 52), np.int8), np.empty((hands, v.players, 13), np.int8),
                   np.empty((hands, v.players, deal.size), np.int8))
    codes = np.full(v.players, _pk.ROLLOUT_EXACT if model is None else _pk.ROLLOUT_LEARNED, np.int64)
    gen = np.random.default_rng(seed)
    for h in range(hands):
        out.decks[h] = gen.permutation(52)
        hand_seed = np.uint64(gen.integers(0, 2**63))
        _vk.play_streets(out.decks[h], codes, deal, keep, samples, DEFAULT_TOP, DEFAULT_HINDSIGHT, hand_seed,
                         args, out.boards[h], out.discards[h], model=model)
    return out


def label_hands(variant: Variant | str, hands: int | SelfPlay, seed: int = 0, *,
                model: StreetModel | None = None, rules: np.ndarray | None = None,
                tabs: tuple | None = None) -> tuple[np.ndarray, np.ndarray]:
    """On-policy labels: (X float64[hands * players, streets - 1, N_FEATURES], y float64[hands *
    players]); row ``i`` holds one seat's boards after each street but the last and the label of
    all of them (module docstring). ``hands``: a count of new :func:`self_play` hands (``seed``,
    ``model``) or played ones; ``rules`` and ``tabs`` default to the variant's."""
    v = resolve_ofc_variant(variant)
    play = hands if isinstance(hands, SelfPlay) else self_play(v, hands, seed, model=model)
    n, n_p, streets = play.discards.shape
    x = np.empty((n, n_p, streets - 1, _vk.N_FEATURES))
    y = np.empty((n, n_p))
    args = kernel_args(v) if tabs is None else tabs
    rules = rule_vector(v) if rules is None else rules
    for h in range(n):
        _tk.hand_rows(play.decks[h], play.boards[h], play.discards[h], *args, rules, x[h], y[h])
    return x.reshape(n * n_p, streets - 1, -1), y.ravel()


def off_policy_rows(variant: Variant | str, play: SelfPlay, street: int, trees: Trees | None, seed: int, *,
                    rules: np.ndarray | None = None, tabs: tuple | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the boards after ``street`` that the played deals offered and the policy may not
    have played: every option of the street before the last, labelled exactly
    (:func:`cpstats.ofc._train_kernel.option_rows`); the :data:`BOOT_OPTIONS` options of best
    ``board_h`` of an earlier street, labelled by ``trees``' lookahead over :data:`BOOT_SAMPLES`
    sampled next deals (:func:`cpstats.ofc._train_kernel.lookahead_rows`)."""
    v = resolve_ofc_variant(variant)
    n, n_p, streets = play.discards.shape
    args = kernel_args(v) if tabs is None else tabs
    rules = rule_vector(v) if rules is None else rules
    exact = street == streets - 2
    width = 3 ** max(v.cards_kept[1:]) * max(v.cards_dealt[1:]) if exact else BOOT_OPTIONS
    x = np.empty((n, n_p, width, _vk.N_FEATURES))
    y = np.empty((n, n_p, width))
    seeds = np.random.default_rng(seed).integers(0, 2**63, size=n)
    for h in range(n):
        hand = (play.decks[h], play.boards[h], play.discards[h])
        if exact:
            _tk.option_rows(*hand, *args, rules, x[h], y[h])
        else:
            _tk.lookahead_rows(*hand, *args[:2], street, BOOT_SAMPLES, np.uint64(seeds[h]), *args[2:], *trees, rules,
                               x[h], y[h])
    keep = ~np.isnan(y.ravel())
    return x.reshape(-1, _vk.N_FEATURES)[keep], y.ravel()[keep]


def export_trees(models: dict[int, object], streets: int) -> Trees:
    """Flat arrays of fitted ``HistGradientBoostingRegressor`` models keyed by street (after
    which the board is valued), ``streets`` rows (NaN base where a street has no model)."""
    nodes, values = [], []
    n_trees = max((len(m._predictors) for m in models.values()), default=0)
    roots = np.full((streets, max(n_trees, 1)), -1, dtype=np.int64)
    base = np.full(streets, np.nan)
    start = 0
    for s, m in sorted(models.items()):
        base[s] = float(np.ravel(m._baseline_prediction)[0])
        for t, (tree,) in enumerate(m._predictors):
            nd = tree.nodes
            leaf = nd["is_leaf"].astype(bool)
            if (nd["is_categorical"].astype(bool) & ~leaf).any():
                raise ValueError("export_trees: categorical splits are not supported")
            if (nd["left"][~leaf] != np.flatnonzero(~leaf) + 1).any():
                raise ValueError("export_trees: a left child is not the next node")
            roots[s, t] = start
            nodes.append(np.stack([np.where(leaf, -1, nd["feature_idx"]),
                                   np.where(leaf, -1, nd["right"].astype(np.int64) + start)], axis=1))
            values.append(np.where(leaf, nd["value"], nd["num_threshold"]))
            start += len(nd)
    if not nodes:
        return Trees(np.zeros((0, 2), np.int32), np.zeros(0), roots, base)
    return Trees(np.concatenate(nodes).astype(np.int32), np.concatenate(values).astype(np.float64), roots, base)


def _regressor():
    """scikit-learn's ``HistGradientBoostingRegressor``, or one line saying how to install it (only
    fitting needs it: the shipped models play without it)."""
    try:
        from sklearn.ensemble import HistGradientBoostingRegressor
    except ImportError:
        raise OptionError("fitting street models needs scikit-learn: pip install 'cpstats[train]' "
                          "(or pip install scikit-learn)") from None
    return HistGradientBoostingRegressor


def fit_model(x: np.ndarray, y: np.ndarray, seed: int):
    """One street's ``HistGradientBoostingRegressor`` (:data:`TREE_SETTINGS`, random_state ``seed``),
    on one OpenMP thread: the same trees as on two (checked), and on a shared machine two threads
    fitted 5 to 12 times slower (their barriers wait for a busy core; docs/measurements.md)."""
    from threadpoolctl import threadpool_limits

    regressor = _regressor()
    with threadpool_limits(limits=1, user_api="openmp"):
        return regressor(random_state=seed, **TREE_SETTINGS).fit(x, y)


class _Draw(NamedTuple):
    """One trained variant's self-play and rows (what the tasks hand back)."""

    variant: str
    rules: np.ndarray
    tabs: tuple
    play: SelfPlay
    x: np.ndarray  # on-policy rows [seats, streets - 1, features]
    y: np.ndarray
    seconds: float


def _play_task(task: tuple) -> _Draw:
    text, hands, (entropy, spawn_key) = task
    t = time.process_time()
    v = parse_ofc_variant(text)
    tabs = kernel_args(v)
    rules = rule_vector(v)
    play = self_play(v, hands, np.random.SeedSequence(entropy, spawn_key=spawn_key))
    x, y = label_hands(v, play, rules=rules, tabs=tabs)
    return _Draw(text, rules, tabs, play, x, y, time.process_time() - t)


def _rows_task(task: tuple) -> tuple[np.ndarray, np.ndarray, float]:
    text, play, street, trees, seed, rules, tabs = task
    t = time.process_time()
    x, y = off_policy_rows(parse_ofc_variant(text), play, street, trees, seed, rules=rules, tabs=tabs)
    return x, y, time.process_time() - t


def _map(pool, fn, tasks):
    return pool.map(fn, tasks, chunksize=1) if pool is not None else [fn(t) for t in tasks]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool(workers: int):
    """``workers`` processes that ignore Ctrl-C (the main process ends them); SIGINT is ignored
    in the main thread while they start too, so one that arrives before a worker's initializer
    runs cannot print that worker's traceback. multiprocessing's Pool for its public
    ``terminate()``: a worker killed outright leaves its ``map`` waiting, which Ctrl-C ends."""
    if threading.current_thread() is not threading.main_thread():
        return multiprocessing.Pool(workers, initializer=_ignore_sigint)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return multiprocessing.Pool(workers, initializer=_ignore_sigint)
    finally:
        signal.signal(signal.SIGINT, previous)


def train_street_models(*, draws: int = DRAWS, hands: int = HANDS, anchor_hands: int = ANCHOR_HANDS,
                        seed: int = SEED, workers: int = 1, progress=None,
                        variants: list[Variant | str] | None = None) -> tuple[dict[str, Trees], dict]:
    """The street models of every deal (module docstring) and their record. ``workers``
    processes share the self-play and labelling; ``progress`` (a callable taking a line) hears
    each stage; ``variants`` (each played ``hands`` hands) replaces the anchors and draws (tests)."""
    _regressor()  # before the self-play, not after it
    draws = check_whole("draws", draws, 0)
    hands = check_whole("hands", hands, 1)
    anchor_hands = check_whole("anchor_hands", anchor_hands, 1)
    workers = check_whole("workers", workers, 1)
    if workers > max_workers():
        raise OptionError(f"workers={workers:,} is invalid: at most {max_workers()}, this machine's cores "
                          "(more would only queue for them)")
    if variants is None:
        check_training_size(draws, hands, anchor_hands)
    else:
        check_training_size(len(variants), hands, 0, anchors=0)
    say = progress or (lambda line: None)
    start, cpu, load = time.time(), time.process_time(), os.getloadavg()[0]
    if variants is None:
        variants = training_variants(draws, seed)
        n_anchor = len(variants) - draws
    else:
        variants, n_anchor, draws = [resolve_ofc_variant(v) for v in variants], 0, len(variants)
    children = np.random.SeedSequence(seed + 1).spawn(len(variants))
    tasks = [(str(v), anchor_hands if i < n_anchor else hands, (c.entropy, c.spawn_key))
             for i, (v, c) in enumerate(zip(variants, children))]
    pool = _pool(workers) if workers > 1 else None
    try:
        played = _map(pool, _play_task, tasks)
        say(f"self-play and labels of {len(played)} variants: {time.time() - start:.0f} s")
        worker_cpu = [sum(d.seconds for d in played)]
        out = {}
        for deal in Deal:
            mine = [d for d, v in zip(played, variants) if v.deal is deal]
            out[str(deal)] = _fit_deal(mine, len(Variant(deal=deal).cards_dealt), seed, pool, say, worker_cpu)
    except BaseException:  # Ctrl-C or a failure: every worker ends now, no queued task runs
        if pool is not None:
            pool.terminate()
            pool.join()
        raise
    if pool is not None:
        pool.close()
        pool.join()
    record = {"seed": seed, "draws": draws, "hands": hands, "anchor_hands": anchor_hands,
              "variants": len(variants), "anchors": [str(v) for v in variants[:n_anchor]],
              "features": list(FEATURES), "rule_features": list(RULE_FEATURES), "trees": TREE_SETTINGS,
              "boot_samples": BOOT_SAMPLES, "boot_options": BOOT_OPTIONS, "max_rows": MAX_ROWS,
              "ranges": trained_ranges(variants, np.array([d.rules for d in played])),
              "streets": {k: np.flatnonzero(~np.isnan(t.base)).tolist() for k, t in out.items()},
              "workers": workers, "seconds": round(time.time() - start, 1),
              "worker_cpu_seconds": round(sum(worker_cpu), 1), "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
              "main_cpu_seconds": round(time.process_time() - cpu, 1),
              "command": f"cpstats train-ofc --street-values {hands} --draws {draws} --anchor-hands {anchor_hands} "
                         f"--seed {seed}"}
    return out, record


def _fit_deal(played: list[_Draw], streets: int, seed: int, pool, say, worker_cpu: list[float]) -> Trees:
    """The trees of one deal's streets, fitted from the last street back (module docstring)."""
    fitted: dict[int, object] = {}
    trees = export_trees(fitted, streets)
    for s in range(streets - 2, -1, -1):
        t = time.time()
        tasks = [(d.variant, d.play, s, trees, seed + 7919 * s + i, d.rules, d.tabs) for i, d in enumerate(played)]
        rows = _map(pool, _rows_task, tasks)
        worker_cpu.append(sum(r[2] for r in rows))
        x = np.concatenate([d.x[:, s] for d in played] + [r[0] for r in rows])
        y = np.concatenate([d.y for d in played] + [r[1] for r in rows])
        del rows
        if len(y) > MAX_ROWS:  # a fixed subsample: the fit's time grows with its rows
            keep = np.sort(np.random.default_rng(seed + s).choice(len(y), MAX_ROWS, replace=False))
            x, y = x[keep], y[keep]
        t_rows = time.time() - t
        fitted[s] = fit_model(x, y, seed)
        trees = export_trees(fitted, streets)
        say(f"street {s}: {len(y):,} rows from {len(played)} variants ({t_rows:.0f} s), fitted in "
            f"{time.time() - t - t_rows:.0f} s")
        del x, y
    return trees


def write_models(path: Path | str, **options: Any) -> dict:
    """Train (:func:`train_street_models`, ``options``) and write the street-model file ``path``
    (checked writable before the training; the shipped file is written only when named,
    :data:`~cpstats.ofc.street_values.SHIPPED_PATH`); returns its record with the path and node counts."""
    path = Path(path)
    writable_file("out", path)
    trees, record = train_street_models(**options)
    record["command"] += f" --out {shlex.quote(str(path))}"
    arrays = {f"{deal}_{name}": getattr(t, name) for deal, t in trees.items() for name in MODEL_ARRAYS}
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **arrays, record=np.array(json.dumps(record)))
    return {**record, "path": str(path), "nodes": {k: int(t.values.shape[0]) for k, t in trees.items()}}

