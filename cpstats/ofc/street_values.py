"""The default ``rollout``'s street models: values of partial boards learned from exact-endgame self-play.

``rollout-exact`` (the previous default) values its earlier streets by rollouts that finish by
clairvoyant hindsight, optimistic about completing Fantasyland and flush or straight draws. The
default ``rollout`` (kernel code 6, formerly named ``rollout-learned``) values them instead by
models of that play, one street at a time (:mod:`cpstats.ofc._value_kernel`):

- **Labels** (:func:`label_hands`): self-play hands (heads-up, ``rollout-exact`` by default);
  for each seat the board after each street but the last is a row of :data:`FEATURES`, and its
  label is the exact expected final objective of that seat's board before the last street
  (:func:`cpstats.ofc._place_exact.last_street_mean` over every draw of the last street, in
  ``rollout-exact``'s objective: a Fantasyland entry at its told value, a foul at the foul
  value). That is the final objective with the last street's luck integrated out, so the labels
  are unbiased for it and of lower variance; for the board before the last street it is exact.
- **Off-policy rows** (:func:`off_policy_rows`): the lookahead asks the models about boards the
  policy would not play, where models fitted to on-policy rows alone were off by far more
  (mean squared error 8.7 against 1.3 on the board before the last street). So every option of
  each played deal on the street before the last is a row too, labelled exactly; the earlier
  streets' options are labelled by the lookahead over the later street's model (fitted value
  iteration, from the last street back).
- **Models** (:func:`fit_model`): ``HistGradientBoostingRegressor`` per street (fixed
  ``random_state``, no early stopping, :data:`TREE_SETTINGS`), exported to flat arrays
  (:func:`export_trees`) that the kernel walks; the prediction equals ``model.predict``.
- **Play**: a ``rollout`` seat decides each street whose next street has a model and is
  not the last by one deal of lookahead valued by that model, among the options its own street's
  model values best (:func:`cpstats.ofc._value_kernel.learned_option`); the last two streets
  stay exact.
- **Rounds** (:func:`train_round`): round 0 labels ``rollout-exact``'s self-play; each later
  round labels the self-play of the previous round's models (each round's bot labels the next),
  on new decks (seed ``seed + round``). Rounds are added while the matches say the new round
  gains, so the shipped models are one round's (:data:`cpstats.apps.cli.train_ofc.STREET_ROUNDS`):
  a second round (of the models of streets 1-3, before street 0 had one), trained on 6,000
  hands of the first round's play (27 minutes), played as well as the first and no better (+0.00 +- 0.16 a hand, 3,000 deals paired against the same
  opponent; docs/measurements.md#bench_ofc_play).

The models of the presets and of the shipped runs' variants are shipped (:data:`SHIPPED_DIR`,
:func:`shipped_path`, written by ``cpstats train-ofc --street-values HANDS VARIANT``, seed, hands
and seconds recorded in the file; the same seed gives the same arrays; 6,000 hands, 17 to 23
minutes a Pineapple variant on one core). That command fits a designer's own rules into
cpstats' cache folder instead (:func:`cache_folder`; an installed package is never written to),
where :func:`street_model` looks after the package (:func:`model_path`). A variant with neither
has none: ``rollout`` then plays exactly as
``rollout-exact``, and a run's metadata says so (``street models none``). The models are fitted
heads-up and keyed by the whole variant but its rake, so a rake never changes the play.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import time
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from cpstats._atomic import atomic_path, writable_folder
from cpstats._resources import cache_root
from cpstats.errors import OptionError, check_whole
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc.entry_value import play_args
from cpstats.ofc.placement import DEFAULT_HINDSIGHT, DEFAULT_SAMPLES, DEFAULT_TOP
from cpstats.rules.house import Rake
from cpstats.rules.open_face import OfcVariant, resolve_ofc_variant

__all__ = ["StreetModel", "FEATURES", "label_hands", "fit_street_models", "export_trees", "street_model",
           "train_street_models", "write_shipped", "SHIPPED_DIR", "cache_folder", "model_path", "SelfPlay", "self_play", "off_policy_rows"]

FEATURES = _vk.FEATURES
SHIPPED_DIR = Path(__file__).resolve().parents[1] / "data" / "ofc"
#: Settings of the boosted trees (per street); small enough that a heads-up hand stays within 100 ms.
TREE_SETTINGS = {"max_iter": 200, "learning_rate": 0.1, "max_leaf_nodes": 31, "min_samples_leaf": 40,
                 "l2_regularization": 1.0, "early_stopping": False}
BOOT_SAMPLES = 8  # sampled next deals behind an earlier street's off-policy label
BOOT_OPTIONS = 24  # options (best board_h first) of an earlier street's deal labelled off-policy


class StreetModel(NamedTuple):
    """Flat trees of every street's model (the kernel's layout, :mod:`cpstats.ofc._value_kernel`)."""

    mi: np.ndarray  # int64[nodes, 3]: feature, left, right (left -1 for a leaf)
    mf: np.ndarray  # float64[nodes]: threshold, or the leaf value
    roots: np.ndarray  # int64[streets, trees]: first node of each tree, -1 padding
    base: np.ndarray  # float64[streets]: baseline prediction, NaN where the street has no model


def shipped_path(variant: OfcVariant, folder: Path | str = SHIPPED_DIR) -> Path:
    """Where ``variant``'s street models are (or are written): its variant string with the rake
    left out (a rake never moves the play), as the file name when it is a plain name (a preset),
    else as its first 12 hex digits of SHA-256 (variant strings hold ``/``, ``,`` and brackets);
    the file's record names the variant in full."""
    return Path(folder) / f"street_values-{_model_key(variant)}.npz"


@lru_cache(maxsize=64)
def _model_key(variant: OfcVariant) -> str:
    """The file key of :func:`shipped_path` (cached: it is asked for every hand played)."""
    text = str(dataclasses.replace(variant, rake=Rake()))
    return text if re.fullmatch(r"[a-z0-9-]+", text) else hashlib.sha256(text.encode()).hexdigest()[:12]


class SelfPlay(NamedTuple):
    """Self-play hands: decks int8[hands, 52], final boards int8[hands, players, 13] and each
    seat's discards a street int8[hands, players, streets] (-1 where none)."""

    decks: np.ndarray
    boards: np.ndarray
    discards: np.ndarray


def self_play(variant: OfcVariant | str, hands: int, seed: int, *, model: StreetModel | None = None) -> SelfPlay:
    """``hands`` normal hands of ``rollout-exact`` self-play (``rollout`` by ``model`` when given);
    decks and strategy seeds from ``seed``."""
    v = resolve_ofc_variant(variant)
    hands = check_whole("hands", hands, 1)
    args = play_args(v)
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


def _kernel_args(v: OfcVariant):
    args = play_args(v)
    return (np.array(v.cards_dealt, dtype=np.int64), np.array(v.cards_kept, dtype=np.int64), *args[:6],
            args.vt[0], args.prm[0])


def label_hands(variant: OfcVariant | str, hands: int | SelfPlay, seed: int = 0, *,
                model: StreetModel | None = None) -> tuple[np.ndarray, np.ndarray]:
    """On-policy labels: (X float64[hands * players, streets - 1, N_FEATURES], y float64[hands *
    players]); row ``i`` holds one seat's boards after each street but the last and the label of
    all of them (module docstring). ``hands``: a count of new :func:`self_play` hands (``seed``,
    ``model``) or played ones."""
    v = resolve_ofc_variant(variant)
    play = hands if isinstance(hands, SelfPlay) else self_play(v, hands, seed, model=model)
    n, n_p, streets = play.discards.shape
    x = np.empty((n, n_p, streets - 1, _vk.N_FEATURES))
    y = np.empty((n, n_p))
    args = _kernel_args(v)
    for h in range(n):
        _vk.hand_rows(play.decks[h], play.boards[h], play.discards[h], *args, x[h], y[h])
    return x.reshape(n * n_p, streets - 1, -1), y.ravel()


def off_policy_rows(variant: OfcVariant | str, play: SelfPlay, street: int, model: StreetModel,
                    seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the boards after ``street`` that the played deals offered and the policy may not
    have played: every option of the street before the last, labelled exactly
    (:func:`cpstats.ofc._value_kernel.option_rows`); the :data:`BOOT_OPTIONS` options of best
    ``board_h`` of an earlier street, labelled by ``model``'s lookahead over
    :data:`BOOT_SAMPLES` sampled next deals (:func:`cpstats.ofc._value_kernel.lookahead_rows`)."""
    v = resolve_ofc_variant(variant)
    n, n_p, streets = play.discards.shape
    args = _kernel_args(v)
    exact = street == streets - 2
    width = 3 ** max(v.cards_kept) * max(v.cards_dealt) if exact else BOOT_OPTIONS
    x = np.empty((n, n_p, width, _vk.N_FEATURES))
    y = np.empty((n, n_p, width))
    seeds = np.random.default_rng(seed).integers(0, 2**63, size=n)
    for h in range(n):
        hand = (play.decks[h], play.boards[h], play.discards[h])
        if exact:
            _vk.option_rows(*hand, *args, x[h], y[h])
        else:
            _vk.lookahead_rows(*hand, *args[:2], street, BOOT_SAMPLES, np.uint64(seeds[h]), *args[2:], *model,
                               x[h], y[h])
    keep = ~np.isnan(y.ravel())
    return x.reshape(-1, _vk.N_FEATURES)[keep], y.ravel()[keep]


def export_trees(models: dict[int, object], streets: int) -> StreetModel:
    """Flat arrays of fitted ``HistGradientBoostingRegressor`` models keyed by street (after
    which the board is valued), ``streets`` rows (NaN base where a street has no model)."""
    mi, mf = [], []
    n_trees = max((len(m._predictors) for m in models.values()), default=0)
    roots = np.full((streets, max(n_trees, 1)), -1, dtype=np.int64)
    base = np.full(streets, np.nan)
    start = 0
    for s, m in sorted(models.items()):
        base[s] = float(np.ravel(m._baseline_prediction)[0])
        for t, (tree,) in enumerate(m._predictors):
            nodes = tree.nodes
            leaf = nodes["is_leaf"].astype(bool)
            if (nodes["is_categorical"].astype(bool) & ~leaf).any():
                raise ValueError("export_trees: categorical splits are not supported")
            roots[s, t] = start
            mi.append(np.stack([nodes["feature_idx"], np.where(leaf, -1, nodes["left"].astype(np.int64) + start),
                                nodes["right"].astype(np.int64) + start], axis=1))
            mf.append(np.where(leaf, nodes["value"], nodes["num_threshold"]))
            start += len(nodes)
    if not mi:
        return StreetModel(np.zeros((0, 3), np.int64), np.zeros(0), roots, base)
    return StreetModel(np.concatenate(mi).astype(np.int64), np.concatenate(mf).astype(np.float64), roots, base)


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
    """One street's ``HistGradientBoostingRegressor`` (:data:`TREE_SETTINGS`, random_state ``seed``)."""
    return _regressor()(random_state=seed, **TREE_SETTINGS).fit(x, y)


def fit_street_models(x: np.ndarray, y: np.ndarray, streets: tuple[int, ...], seed: int) -> dict[int, object]:
    """A model per street of ``streets`` (the board after that street) fitted to the on-policy
    rows ``x[:, s]`` and labels ``y`` of :func:`label_hands` alone."""
    return {s: fit_model(x[:, s], y, seed) for s in streets}


def train_round(variant: OfcVariant | str, hands: int, seed: int, round_index: int = 0,
                model: StreetModel | None = None, streets: tuple[int, ...] | None = None) -> StreetModel:
    """Round ``round_index`` of :func:`train_street_models`: ``hands`` self-play hands (seed
    ``seed + round_index``) played by ``model`` (``rollout-exact`` when None) and the street
    models fitted to them from the last street back (module docstring): each street's model on
    its on-policy rows and its off-policy rows (:func:`off_policy_rows`, labelled by the later
    streets' new models); the trees' random state is ``seed`` in every round. ``streets``: the
    streets whose boards get a model, by default every street but the last."""
    v = resolve_ofc_variant(variant)
    n_streets = len(v.cards_dealt)
    streets = _model_streets(v, streets)
    play = self_play(v, hands, seed + round_index, model=model)
    x, y = label_hands(v, play)
    fitted: dict[int, object] = {}
    new = export_trees(fitted, n_streets)
    for s in sorted(streets, reverse=True):
        xo, yo = off_policy_rows(v, play, s, new, seed + round_index)
        fitted[s] = fit_model(np.concatenate([x[:, s], xo]), np.concatenate([y, yo]), seed)
        new = export_trees(fitted, n_streets)
    return new


def train_street_models(variant: OfcVariant | str = "ofc-pineapple", *, hands: int = 8000, seed: int = 2026,
                        streets: tuple[int, ...] | None = None, rounds: int = 1) -> tuple[StreetModel, dict]:
    """``rounds`` rounds of :func:`train_round`, each round after the first played by the
    previous round's models (each round's bot labels the next). Returns the last round's model
    and its record (seed, hands, rounds, streets, seconds)."""
    _regressor()  # before the self-play, not after it
    v = resolve_ofc_variant(variant)
    streets = _model_streets(v, streets)
    t = time.time()
    model = None
    for r in range(check_whole("rounds", rounds, 1)):
        model = train_round(v, hands, seed, r, model, streets)
    return model, training_record(v, hands, seed, rounds, streets, time.time() - t)


def _model_streets(v: OfcVariant, streets: tuple[int, ...] | None) -> tuple[int, ...]:
    """The streets whose boards get a model: ``streets``, or every street but the last (whose
    board is complete). The first street's model prunes the first street's options: with it the
    bot took 2.3 times the default's time, not 3.6, and gained +0.65 a hand (docs/measurements.md)."""
    return tuple(range(len(v.cards_dealt) - 1)) if streets is None else tuple(streets)


def training_record(v: OfcVariant, hands: int, seed: int, rounds: int, streets: tuple[int, ...],
                    seconds: float) -> dict:
    """What a shipped model file records of its training (the command reproduces it from this)."""
    return {"variant": str(v), "seed": seed, "hands": hands, "rounds": rounds, "streets": list(streets),
            "features": list(FEATURES), "trees": TREE_SETTINGS, "boot_samples": BOOT_SAMPLES,
            "boot_options": BOOT_OPTIONS, "seconds": round(seconds, 1)}


def cache_folder() -> Path:
    """Where the street models fitted for a variant the package does not ship go: ``ofc`` in
    cpstats' cache folder (:func:`cpstats._resources.cache_root`), never the installed package."""
    return cache_root() / "ofc"


def model_path(variant: OfcVariant) -> Path:
    """The file ``variant``'s street models are read from: the package's (:data:`SHIPPED_DIR`)
    when it ships them, else the cache's (:func:`cache_folder`), which may not exist."""
    shipped = shipped_path(variant)
    return shipped if shipped.exists() else shipped_path(variant, cache_folder())


def write_shipped(presets: tuple[str, ...] = ("ofc-pineapple",), *, hands: int = 8000, seed: int = 2026,
                  rounds: int = 1, folder: Path | str | None = None) -> dict:
    """Train the variants' street models and write ``street_values-<variant>.npz`` into ``folder``
    (the record as a JSON string in the file's ``record``). Without ``folder``: a variant the
    package ships models for is re-fitted in place (:data:`SHIPPED_DIR`, the maintainers'
    command), any other goes to :func:`cache_folder`, where :func:`street_model` finds it."""
    variants = [resolve_ofc_variant(name) for name in presets]
    paths = [shipped_path(v, folder) if folder is not None else model_path(v) for v in variants]
    for v, path in zip(variants, paths):  # before hours of fitting, not after
        try:
            writable_folder("folder", path.parent)
        except OptionError as err:
            if folder is not None:
                raise
            raise OptionError(f"the street models of {v} go to {str(path)!r}, which cannot be written "
                              f"({str(err).split(': ', 1)[1]}): name another folder (cpstats train-ofc --out)") from None
    out = {}
    for v, path in zip(variants, paths):
        model, record = train_street_models(v, hands=hands, seed=seed, rounds=rounds)
        with atomic_path(path) as tmp:
            with open(tmp, "wb") as f:
                np.savez_compressed(f, **model._asdict(), record=np.array(json.dumps(record)))
        out[str(v)] = {**record, "path": str(path), "nodes": int(model.mi.shape[0])}
    return out


def street_model(variant: OfcVariant) -> StreetModel | None:
    """The street models of ``variant`` (:func:`model_path`: shipped, else fitted into the cache),
    None when it has none; read once per file version."""
    path = model_path(variant)
    return _load(path, path.stat().st_mtime_ns) if path.exists() else None


@lru_cache(maxsize=16)
def _load(path: Path, stamp: int) -> StreetModel:
    with np.load(path) as f:
        return StreetModel(f["mi"].astype(np.int64), f["mf"].astype(np.float64), f["roots"].astype(np.int64),
                           f["base"].astype(np.float64))
