"""The field the ``ev`` setter plays against: row-rank distributions and their card-removal
correction (:class:`RowTables`, :class:`CardRemoval`), the rank classes the correction works
on, and where a variant's tables come from (:func:`load_tables`, :func:`tables_record`).

:mod:`cpstats.thirteen.play.training` trains and fits them; :mod:`cpstats.thirteen.play.ev_setter`
turns them into the search's kernel arrays.

Where tables come from, in this order: tables the caller names (``tables="2-4"``:
another variant's, *borrowed*, or a :class:`RowTables`); the tables shipped with the package
for a preset whose strategy-relevant rules (:func:`strategy_rules`) equal the variant's
(*shipped*: ``2-4(players=2)`` and ``2-4(rake=...)`` play with ``2-4``'s); tables trained
earlier for the same rules, read from the cache folder (:func:`cache_dir`, *cache*); otherwise
they are trained now (:data:`QUICK_TRAINING`, :data:`TRAINING_TIME` on 2 cores, with a
progress bar) and written to the cache (*trained now*). No variant silently plays with
another's tables. A cached file is trusted only if its values are distributions
(:meth:`RowTables.check_values`); a damaged one is trained again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import warnings
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from cpstats._atomic import atomic_path
from cpstats._resources import CACHE_ENV, cache_root
from cpstats._resources import STRATEGIES_DIR as TABLES_DIR  # cpstats/data/strategies
from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.thirteen.rules.presets import preset_names
from cpstats.thirteen.rules.variant import resolve_variant
from cpstats.thirteen.rules.variant import Variant, get_preset
from cpstats.thirteen.play import _ev_kernel as _sk

__all__ = ["TablesWarning", "RowTables", "CardRemoval", "load_tables", "resolve_tables",
           "tables_record", "strategy_rules", "strategy_digest", "cache_dir", "set_trainer",
           "rank_classes", "TABLES_DIR", "CACHE_ENV", "QUICK_TRAINING", "SOURCES",
           "SUIT_SQUARES_MEAN", "REMOVAL_RATIO_LIMITS", "FRONT_CLASSES", "MAX_CLASSES",
           "training_progress", "TRAINING_TIME"]


class TablesWarning(UserWarning):
    """Row tables could not be cached, or a cached file did not read and is trained again."""


#: Mean of the sum of squared suit lengths of a random 13-card hand (a card-removal feature).
SUIT_SQUARES_MEAN = _sk.SUIT_SQUARES_MEAN


#: How far card removal may move a rank class's probability, as a ratio of the field's (before
#: the probabilities are renormalised to sum to one).
REMOVAL_RATIO_LIMITS = (_sk.RATIO_LO, _sk.RATIO_HI)

#: Rank classes of a three-card row, and of a five-card row (the most a row has).
FRONT_CLASSES, MAX_CLASSES = 37, 100


@lru_cache(maxsize=4)
def rank_classes(ordering: str = "H1") -> tuple[np.ndarray, np.ndarray]:
    """(int64[455], int64[7462]): the class of every three-card and five-card rank, the
    category and the rank that decides it first (the pair's, the trips', the top pair's, the
    straight's or flush's top card, the high card), kickers dropped. The ranks of a class are
    one contiguous run; classes are numbered weakest first."""
    def ids(keys):
        seen: dict[tuple, int] = {}
        return np.array([seen.setdefault(tuple(k[:2]), len(seen)) for k in keys], dtype=np.int64)

    return ids(_tables.three_card_keys()), ids(_tables.five_card_tables(ordering).keys)


@dataclass(frozen=True)
class CardRemoval:
    """How the field's row distributions move with the cards a player holds.

    The player's hand is summarised by 14 features ``x``: the cards held of each rank minus
    one, and the sum of the squared suit lengths minus its mean (:data:`SUIT_SQUARES_MEAN`).
    ``front`` (FRONT_CLASSES, 14), ``middle`` and ``back`` (MAX_CLASSES, 14) hold, per rank
    class of the row (:func:`rank_classes`), the change of the class's probability in the
    opponents' row per unit of each feature (least squares,
    :func:`cpstats.thirteen.play.training.fit_card_removal`). Given a hand, class ``c`` of field probability
    ``P[c]`` gets ``P[c] * (1 + ratio[c])`` with ``ratio[c] = slope[c] @ x / P[c]`` clipped to
    :data:`REMOVAL_RATIO_LIMITS`, then renormalised so the probabilities sum to one (unless the
    sum is outside [0.5, 2], which is clipped); the ranks within a class keep their field
    proportions. A first-order model: holding two aces makes the opponents' pairs of aces rarer,
    whatever their kickers.
    ``meta`` records the fit.
    """

    front: np.ndarray
    middle: np.ndarray
    back: np.ndarray
    meta: dict

    def __post_init__(self) -> None:
        for name, classes in (("front", FRONT_CLASSES), ("middle", MAX_CLASSES),
                              ("back", MAX_CLASSES)):
            shape = np.shape(getattr(self, name))
            if shape != (classes, 14):
                raise OptionError(f"CardRemoval.{name} has shape {shape}; expected ({classes}, 14)"
                                  " (rank classes x features): tables fitted by an older cpstats "
                                  "must be refitted with cpstats.thirteen.play.training.fit_card_removal")

    def slopes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.front, self.middle, self.back


@dataclass(frozen=True)
class RowTables:
    """The field's row-rank distributions the ``ev`` setter plays against.

    ``front`` (455,), ``middle`` and ``back`` (7462,) are probabilities of each rank in the
    field's rows; ``variant`` is the variant string they were trained for; ``meta`` the
    training record (seed, deals, iterations, convergence); ``removal`` the card-removal
    correction (:class:`CardRemoval`), or None to ignore card removal.
    """

    front: np.ndarray
    middle: np.ndarray
    back: np.ndarray
    variant: str
    meta: dict
    removal: CardRemoval | None = None

    def save(self, path: str | Path) -> None:
        """Write an ``.npz`` with the three distributions, the card-removal correction and the
        metadata."""
        extra = {}
        if self.removal is not None:
            r = self.removal
            extra = {"removal_front": r.front, "removal_middle": r.middle,
                     "removal_back": r.back, "removal_meta": np.array(json.dumps(r.meta))}
        np.savez_compressed(path, front=self.front, middle=self.middle, back=self.back,
                            variant=np.array(self.variant), meta=np.array(json.dumps(self.meta)),
                            **extra)

    @classmethod
    def load(cls, path: str | Path) -> RowTables:
        with open(path, "rb") as fh:  # np.load would read other bytes as a pickle, and say so
            if fh.read(4) != b"PK\x03\x04":
                raise OptionError(f"{path} is not an .npz file of row tables")
        with np.load(path, allow_pickle=False) as data:
            removal = None
            if "removal_front" in data:
                removal = CardRemoval(data["removal_front"], data["removal_middle"],
                                      data["removal_back"],
                                      json.loads(str(data["removal_meta"])))
            tables = cls(data["front"], data["middle"], data["back"], str(data["variant"]),
                         json.loads(str(data["meta"])), removal)
        tables.check_values()
        return tables

    def check_values(self) -> None:
        """Refuse tables no search can trust (a damaged or hand-edited file that still reads):
        each row a distribution over its ranks (finite, >= 0, summing to 1 within 1e-6) and a
        finite card-removal correction. An OptionError names the first bad array."""
        for name, size in (("front", 455), ("middle", 7462), ("back", 7462)):
            p = np.asarray(getattr(self, name))
            if (p.shape != (size,) or not np.issubdtype(p.dtype, np.floating)
                    or not np.isfinite(p).all() or (p < 0).any() or abs(p.sum() - 1) > 1e-6):
                raise OptionError(f"RowTables.{name} is invalid: a probability for each of its "
                                  f"{size} ranks (finite, >= 0, summing to 1)")
        for name, slope in zip(("front", "middle", "back"),
                               self.removal.slopes() if self.removal is not None else ()):
            if not np.isfinite(slope).all():
                raise OptionError(f"CardRemoval.{name} is invalid: its slopes must be finite")


# -- where a variant's tables come from ----------------------------------------------------

#: Part of every cache key: raise it when training or the row model changes so that tables
#: cached before no longer fit.
CACHE_FORMAT = 2  # 2: H5 tables rank the back on the high scale

#: Where a variant's tables came from (:func:`resolve_tables`); ``given``: a RowTables passed in.
SOURCES = ("shipped", "cache", "trained now", "borrowed", "given")

#: :func:`~cpstats.thirteen.play.training.train_tables` options of the training on the fly:
#: 60,000 hands a round, under a third of the shipped tables' 200,000, and fewer refinements.
#: benchmarks/bench_training.py measures the time (well under a minute on 2 cores) and the
#: strength (a duplicate match against the shipped 2-4 tables). A fixed seed: the same rules
#: train the same tables on any machine.
QUICK_TRAINING: dict[str, Any] = {
    "deals": 60_000, "rounds": 16, "patience": 2, "refine": 3, "refine_deals": 120_000,
    "check_deals": 60_000, "removal_deals": 30_000, "rng": 20261129}

#: What the training on the fly takes on 2 cores (the notice it prints says it).
TRAINING_TIME = "about half a minute"

_TRAINER: list[Callable[..., RowTables]] = []
_PROGRESS = [True]
_READ: dict[str, tuple[int, RowTables]] = {}
_UNSAVED: dict[str, RowTables] = {}
_LOCK = threading.RLock()


def set_trainer(train: Callable[..., RowTables]) -> None:
    """Make ``train`` the function that trains missing tables (``train_tables``, which
    :mod:`cpstats.thirteen.play.training` registers on import: it sits above this module, so it
    is handed in rather than imported)."""
    _TRAINER[:] = [train]


@contextmanager
def training_progress(show: bool) -> Iterator[None]:
    """Show (or hide) the progress bar of tables trained on the fly inside the ``with`` block:
    ``cpstats ... --quiet`` hides it. The one line saying that tables are being trained stays,
    since it explains the wait."""
    before = _PROGRESS[0]
    _PROGRESS[0] = bool(show)
    try:
        yield
    finally:
        _PROGRESS[0] = before


def cache_dir() -> Path:
    """The folder of tables trained on the fly: ``tables`` in cpstats' cache folder
    (:func:`cpstats._resources.cache_root`: ``$CPSTATS_CACHE_DIR`` when set, else the user's
    cache folder by ``platformdirs``)."""
    return cache_root() / "tables"


def strategy_rules(variant: Variant | str) -> dict:
    """The rules that move the ``ev`` setter's choices, as a plain dict (what tables are keyed by).

    Every option but the preset ``name``, the ``rake`` (its jackpot included), the ``stakes``,
    a bank's commission or fee, which tax or scale results once the hands are set, and who sets the
    bank's hand (``bank.setter``: training values a banked game as a ring game, docs/house_way.md); plus the scoring numbers
    resolved for the table (:meth:`~cpstats.thirteen.rules.variant.Variant.scoring_params`: a race's four-handed
    scoop point, the home run as ``home_run`` leaves it, so that flag itself goes).

    Decision: ``players`` is left out when the scoring has no home run. The ev model's value is
    then the number of opponents times the value against one (rows, royalties, naturals and
    surrender alike), so the best setting, and the tables training converges to, do not depend
    on it (training deals four hands a deck at any table). A home run (a bonus, or a multiplier
    other than the scoop's) pays for beating every opponent, valued as ``P(win) ** opponents``
    (``_ev_kernel.pair_value``): there the seat count stays.
    """
    v = resolve_variant(variant)
    rules = v.to_dict()
    for key in ("name", "rake", "stakes", "home_run"):
        rules.pop(key, None)
    for key in ("commission", "fee", "setter"):  # charged on wins after the hands are set; the bank's own way
        rules["bank"].pop(key, None)
    params = asdict(v.scoring_params())
    rules["resolved_scoring"] = params
    if not _home_run(params):
        rules.pop("players", None)
    return rules


def _home_run(params: dict) -> bool:
    """Whether the ev model values a home run (``pair_value``'s test, conservatively)."""
    bonus, times = params.get("home_run_bonus", 0), params.get("home_run_multiplier", 1)
    return bonus != 0 or times != 1 or times != params.get("scoop_multiplier", 1)


def _floats(value: Any) -> Any:
    """``value`` with every number a float (``0`` and ``0.0`` are the same rule)."""
    if isinstance(value, dict):
        return {k: _floats(x) for k, x in value.items()}
    if isinstance(value, (list, tuple)):
        return [_floats(x) for x in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


@lru_cache(maxsize=256)
def strategy_digest(variant: Variant | str) -> str:
    """16 hex digits of the SHA-256 of :func:`strategy_rules` (and :data:`CACHE_FORMAT`):
    variants with the same digest are set with the same tables."""
    text = json.dumps({"format": CACHE_FORMAT, "rules": _floats(strategy_rules(variant))},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _table_file(name: str) -> Path:
    return TABLES_DIR / f"{name}.npz"


def _read(path: Path) -> RowTables:
    """The tables in ``path``, read once per version of the file: the same file gives the same
    object, and ``ev`` builds its row model once per tables object."""
    stamp = path.stat().st_mtime_ns
    hit = _READ.get(str(path))
    if hit is None or hit[0] != stamp:
        hit = (stamp, RowTables.load(path))
        _READ[str(path)] = hit
    return hit[1]


@lru_cache(maxsize=1)
def _shipped_index() -> dict[str, tuple[str, ...]]:
    """The presets with shipped tables, by strategy digest."""
    index: dict[str, tuple[str, ...]] = {}
    for name in preset_names():
        if _table_file(name).exists():
            digest = strategy_digest(get_preset(name))
            index[digest] = index.get(digest, ()) + (name,)
    return index


def _shipped(v: Variant, digest: str) -> RowTables | None:
    """Shipped tables of a preset with the variant's strategy rules (its own preset first),
    whose stored variant still has those rules."""
    for name in sorted(_shipped_index().get(digest, ()), key=lambda n: n != v.name):
        tables = _read(_table_file(name))
        try:
            if strategy_digest(tables.variant) == digest:
                return tables
        except OptionError:  # a stored variant string the rules no longer read
            continue
    return None


def _cached(path: Path, digest: str) -> RowTables | None:
    """Tables cached in ``path`` for these rules, or None (a file that does not read, or was
    trained for other rules, is trained again, with a :class:`TablesWarning`)."""
    if not path.exists():
        return _UNSAVED.get(digest)
    try:
        tables = _read(path)
    except Exception as err:  # noqa: BLE001 - any damage to a cache file means: train again
        warnings.warn(f"ev: the cached tables {path} do not read ({err}); training them again",
                      TablesWarning, stacklevel=5)
        return None
    if tables.meta.get("rules_digest") != digest:
        warnings.warn(f"ev: the cached tables {path} were trained for other rules; training "
                      "them again", TablesWarning, stacklevel=5)
        return None
    return tables


def _canonical(v: Variant) -> Variant:
    """The variant trained for a digest: no rake or stakes, four seats where they do not
    matter, so equal rules train the same tables whichever variant asked first."""
    from dataclasses import replace

    from cpstats.rules.house import Rake

    plain = replace(v, rake=Rake(), stakes=None)
    if plain.players == 4 or plain.hands_per_player != 1:
        return plain
    four = replace(plain, players=4)
    return four if strategy_digest(four) == strategy_digest(v) else plain


def _train_now(v: Variant, digest: str, path: Path) -> RowTables:
    """Train tables for ``v`` (:data:`QUICK_TRAINING`, threads on every core), say so in one
    line on stderr with a progress bar, and write them to ``path``."""
    from concurrent.futures import ThreadPoolExecutor

    from tqdm.auto import tqdm

    if not _TRAINER:
        raise OptionError(f"no row tables for {str(v)!r} and no trainer: import "
                          "cpstats.thirteen.play.training")
    target = _canonical(v)
    options = dict(QUICK_TRAINING)
    # progress: a round, the check, the card-removal fit's three passes
    steps = options["rounds"] + options["refine"] + 1 + 3
    print(f"cpstats: no ev tables for {target} yet: training them now ({TRAINING_TIME} on 2 "
          "cores)", file=sys.stderr, flush=True)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool, \
            tqdm(total=steps, desc="training ev tables", unit="step", disable=not _PROGRESS[0]) as bar:
        t = _TRAINER[0](target, **options, executor=pool, progress=bar.update)
    tables = RowTables(t.front, t.middle, t.back, t.variant,
                       {**t.meta, "rules_digest": digest, "on_the_fly": True}, t.removal)
    if _write(tables, path, digest):
        print(f"cpstats: ev tables for {target} kept in {path}", file=sys.stderr, flush=True)
    return tables


def _write(tables: RowTables, path: Path, digest: str) -> bool:
    """Write ``tables`` to the cache atomically (no temporary file is left by a failure, a full
    disk say); whether they were written. If not, they are kept in memory for the session,
    and a :class:`TablesWarning` says so."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as tmp:
            tables.save(tmp)
    except OSError as err:
        warnings.warn(f"ev: the tables trained for {tables.variant} could not be cached in "
                      f"{path} ({err.strerror or err}); they are kept for this session only",
                      TablesWarning, stacklevel=5)
        _UNSAVED[digest] = tables
        return False
    _READ[str(path)] = (path.stat().st_mtime_ns, tables)
    return True


def _named(tables: Any) -> Variant:
    """The variant named by ``tables=`` (whose tables to borrow)."""
    if not isinstance(tables, (str, Variant)):
        raise OptionError(f"tables={tables!r} is invalid: name a preset or a variant string "
                          "whose tables to borrow, or pass RowTables")
    try:
        return resolve_variant(tables)
    except OptionError as err:
        raise OptionError(f"tables={str(tables)!r} is invalid: {err}") from None


def resolve_tables(variant: Variant | str, tables: Any = None) -> tuple[RowTables, str]:
    """(tables, source): the row tables ``ev`` sets ``variant``'s hands with, and where they came
    from (one of :data:`SOURCES`; see the module docstring for the order).

    ``tables`` borrows: a preset name or variant string (its tables, found the same way;
    ``"borrowed"`` unless its strategy rules are the variant's own) or :class:`RowTables`
    (``"given"``). None: the variant's own, shipped, cached or trained now.
    """
    v = resolve_variant(variant)
    if isinstance(tables, RowTables):
        return tables, "given"
    if tables is not None:
        other = _named(tables)
        found, source = resolve_tables(other)
        return found, source if strategy_digest(other) == strategy_digest(v) else "borrowed"
    digest = strategy_digest(v)
    shipped = _shipped(v, digest)
    if shipped is not None:
        return shipped, "shipped"
    path = cache_dir() / f"{digest}.npz"
    with _LOCK:  # threads asking for the same missing tables wait for one training
        cached = _cached(path, digest)
        if cached is not None:
            return cached, "cache"
        return _train_now(v, digest, path), "trained now"


def load_tables(variant: Variant | str, *, tables: Any = None) -> RowTables:
    """The row tables ``ev`` sets ``variant``'s hands with (:func:`resolve_tables`): shipped
    for a preset's rules, else cached, else trained now; another variant's only when
    ``tables`` names it."""
    return resolve_tables(variant, tables)[0]


def tables_record(variant: Variant | str, *, tables: Any = None,
                  with_source: bool = False) -> dict:
    """What identifies the row tables ``ev`` plays ``variant`` with (``tables`` as
    :func:`resolve_tables`'): the variant they were trained for, their training seed, deals and
    rounds, and the first 16 hex digits of the SHA-256 of their arrays, card-removal correction
    included. Simulation metadata records it, so a result names its setter.

    ``with_source`` adds ``source``, where they came from (:data:`SOURCES`). It is left out by
    default because the record is part of a run's identity (a resumed run must match it) and
    the source is not: a run that trains the tables and its resume, which reads them from the
    cache, use the same tables; simulations keep it beside, as ``tables_source``.
    """
    t, source = resolve_tables(variant, tables)
    digest = hashlib.sha256()
    arrays = [t.front, t.middle, t.back]
    if t.removal is not None:
        arrays += list(t.removal.slopes())
    for arr in arrays:
        digest.update(np.ascontiguousarray(arr, dtype=np.float64).tobytes())
    record = {"trained_for": t.variant, "seed": t.meta.get("seed"), "deals": t.meta.get("deals"),
              "rounds": t.meta.get("rounds"), "sha256": digest.hexdigest()[:16]}
    return {**record, "source": source} if with_source else record
