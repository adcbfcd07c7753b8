"""The field the ``ev`` setter plays against: row-rank distributions and their card-removal
correction (:class:`RowTables`, :class:`CardRemoval`), the rank classes the correction works
on, and the shipped tables (:func:`load_tables`, :func:`tables_record`).

:mod:`cpstats.strategies.training` trains and fits them; :mod:`cpstats.strategies.ev_setter`
turns them into the search's kernel arrays.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from cpstats._resources import STRATEGIES_DIR as TABLES_DIR  # cpstats/data/strategies
from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.rules.variant import Variant
from cpstats.strategies import _ev_kernel as _sk
from cpstats.strategies.api import _variant

__all__ = ["TablesWarning", "RowTables", "CardRemoval", "load_tables", "tables_record",
           "rank_classes", "TABLES_DIR", "SUIT_SQUARES_MEAN", "REMOVAL_RATIO_LIMITS",
           "FRONT_CLASSES", "MAX_CLASSES"]


class TablesWarning(UserWarning):
    """Row tables trained for another variant are in use."""


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
    :func:`cpstats.strategies.training.fit_card_removal`). Given a hand, class ``c`` of field probability
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
                                  "must be refitted with cpstats.strategies.training.fit_card_removal")

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
        import json

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
        import json

        with np.load(path) as data:
            removal = None
            if "removal_front" in data:
                removal = CardRemoval(data["removal_front"], data["removal_middle"],
                                      data["removal_back"],
                                      json.loads(str(data["removal_meta"])))
            return cls(data["front"], data["middle"], data["back"], str(data["variant"]),
                       json.loads(str(data["meta"])), removal)


def _table_file(name: str) -> Path:
    return TABLES_DIR / f"{name}.npz"


@lru_cache(maxsize=32)
def _load_file(path: str) -> RowTables:
    return RowTables.load(path)


def load_tables(variant: Variant | str, *, fallback: str = "2-4") -> RowTables:
    """The shipped row tables for ``variant``.

    Looks for tables trained for exactly this variant (``cpstats/data/strategies/<name>.npz`` whose
    stored variant string matches); otherwise uses the ``fallback`` preset's tables and warns
    (:class:`TablesWarning`) naming both variants.
    """
    v = _variant(variant)
    path = _table_file(v.name)
    if path.exists():
        tables = _load_file(str(path))
        if tables.variant == str(v):
            return tables
    path = _table_file(fallback)
    if not path.exists():
        raise OptionError(f"no trained row tables for {str(v)!r} nor for {fallback!r} in "
                          f"{TABLES_DIR}: run cpstats.strategies.training.train_tables")
    tables = _load_file(str(path))
    warnings.warn(f"ev: no row tables trained for variant {str(v)!r}; using the tables trained "
                  f"for {tables.variant!r}", TablesWarning, stacklevel=3)
    return tables


def tables_record(variant: Variant | str) -> dict:
    """What identifies the row tables ``ev`` plays ``variant`` with: the variant they were
    trained for, their training seed, deals and rounds, and the first 16 hex digits of the
    SHA-256 of their arrays, card-removal correction included (simulation metadata records it,
    so a result names its setter)."""
    import hashlib

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TablesWarning)
        t = load_tables(variant)
    digest = hashlib.sha256()
    arrays = [t.front, t.middle, t.back]
    if t.removal is not None:
        arrays += list(t.removal.slopes())
    for arr in arrays:
        digest.update(np.ascontiguousarray(arr, dtype=np.float64).tobytes())
    return {"trained_for": t.variant, "seed": t.meta.get("seed"), "deals": t.meta.get("deals"),
            "rounds": t.meta.get("rounds"), "sha256": digest.hexdigest()[:16]}

