"""Lookup tables for hand ranking, built once per process from a declaration of the ranking.

The ranking is declared as a sort key per hand class (category, then the ranks that decide ties);
sorting the distinct keys *is* the ranking. Five-card hands are looked up by a perfect hash:
flushes by the 13-bit rank mask, everything else by the sum of per-rank keys below, whose
five-card sums are unique for every rank multiset (checked when the table is built).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

CATEGORIES_5 = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
)
CATEGORIES_3 = ("high_card", "pair", "three_of_a_kind")

# Greedy keys: the smallest increasing integers whose sums over five ranks (each rank at most
# four times) never collide. 6,175 rank multisets map into 0..360,918.
RANK_KEYS = np.array(
    [0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415], dtype=np.uint32
)
NONFLUSH_SIZE = int(RANK_KEYS[-1]) * 4 + int(RANK_KEYS[-2]) + 1
CARD_KEY = np.repeat(RANK_KEYS, 4)
CARD_BIT = np.repeat((1 << np.arange(13)).astype(np.uint16), 4)

ORDERINGS = ("H1", "H4", "H5")
_PAD = 6  # key length: category plus up to five deciding ranks
_STRAIGHT, _FLUSH, _STRAIGHT_FLUSH = 4, 5, 8


def _straight_high(ranks_desc: tuple[int, ...], ordering: str) -> float | None:
    """High card of a five-distinct-rank straight (wheel: 3), or None; H4 puts the wheel second."""
    if ranks_desc[0] - ranks_desc[4] == 4:
        return float(ranks_desc[0])
    if ranks_desc == (12, 3, 2, 1, 0) and ordering != "H5":
        return 11.5 if ordering == "H4" else 3.0
    return None


def _key5(ranks: tuple[int, ...], flush: bool, ordering: str) -> tuple[float, ...]:
    counts = {r: ranks.count(r) for r in set(ranks)}
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    pattern = tuple(c for _, c in groups)
    deciding = tuple(float(r) for r, _ in groups)
    if pattern == (1, 1, 1, 1, 1):
        high = _straight_high(tuple(sorted(ranks, reverse=True)), ordering)
        if high is not None:
            key = (_STRAIGHT_FLUSH if flush else _STRAIGHT, high)
        else:
            key = (_FLUSH if flush else 0,) + deciding
    else:
        category = {(2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6, (4, 1): 7}[pattern]
        key = (category,) + deciding
    return key + (-1.0,) * (_PAD - len(key))


def _key3(ranks: tuple[int, ...]) -> tuple[float, ...]:
    counts = {r: ranks.count(r) for r in set(ranks)}
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    category = {(1, 1, 1): 0, (2, 1): 1, (3,): 3}[tuple(c for _, c in groups)]
    key = (category,) + tuple(float(r) for r, _ in groups)
    return key + (-1.0,) * (_PAD - len(key))


@dataclass(frozen=True)
class RankTables:
    """Tables for one five-card ordering (H1 standard, H4 wheel second, H5 deuce-to-seven low)."""

    ordering: str
    nonflush: np.ndarray  # uint16[NONFLUSH_SIZE]: rank by sum of CARD_KEY
    flush: np.ndarray  # uint16[8192]: rank by OR of CARD_BIT
    category: np.ndarray  # uint8[7462]: category index of each rank
    common: np.ndarray  # uint16[7462]: position on the front/middle common scale (H3)
    keys: tuple[tuple[float, ...], ...]  # sorted class keys, weakest first


@lru_cache(maxsize=None)
def five_card_tables(ordering: str = "H1") -> RankTables:
    """Build (once) the five-card tables for an ordering."""
    classes: list[tuple[tuple[float, ...], int, bool]] = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            classes.append((_key5(ranks, False, ordering), _nonflush_index(ranks), False))
    for ranks in itertools.combinations(range(13), 5):
        mask = sum(1 << r for r in ranks)
        classes.append((_key5(ranks, True, ordering), mask, True))
    keys = sorted({k for k, _, _ in classes})
    if ordering == "H5":
        keys = keys[::-1]  # the best low hand is the weakest high hand
    position = {k: i for i, k in enumerate(keys)}
    nonflush = np.zeros(NONFLUSH_SIZE, dtype=np.uint16)
    flush = np.zeros(8192, dtype=np.uint16)
    filled = np.zeros(NONFLUSH_SIZE, dtype=bool)
    for key, index, is_flush in classes:
        if is_flush:
            flush[index] = position[key]
        else:
            if filled[index]:
                raise AssertionError("rank keys collide: the five-card perfect hash is broken")
            filled[index] = True
            nonflush[index] = position[key]
    category = np.array([int(k[0]) for k in keys], dtype=np.uint8)
    if ordering == "H5":
        # An H5 middle is a low hand: it is never compared with the front (the back is, under H1).
        common = np.zeros(len(keys), dtype=np.uint16)
    else:
        scale = _common_keys(ordering)
        common = np.array([scale[k] for k in keys], dtype=np.uint16)
    return RankTables(ordering, nonflush, flush, category, common, tuple(keys))


def _nonflush_index(ranks: tuple[int, ...]) -> int:
    return int(sum(int(RANK_KEYS[r]) for r in ranks))


@lru_cache(maxsize=None)
def three_card_keys() -> tuple[tuple[float, ...], ...]:
    """Sorted keys of the 455 three-card classes (H2), weakest first."""
    return tuple(sorted({_key3(r) for r in itertools.combinations_with_replacement(range(13), 3)
                         if max(r.count(x) for x in r) <= 3}))


@lru_cache(maxsize=None)
def three_card_table() -> np.ndarray:
    """uint16[13**3]: rank of the three-card hand with ranks (a, b, c) at a*169 + b*13 + c."""
    position = {k: i for i, k in enumerate(three_card_keys())}
    table = np.zeros(13**3, dtype=np.uint16)
    for a, b, c in itertools.product(range(13), repeat=3):
        table[a * 169 + b * 13 + c] = position[_key3((a, b, c))]
    return table


@lru_cache(maxsize=None)
def _common_keys(ordering: str) -> dict[tuple[float, ...], int]:
    """Position of every three- and five-card key on the common front/middle scale (H3).

    Under H5 the back (a high hand, H1) is the row compared with the front, so H5 uses H1's scale.
    """
    base = "H1" if ordering == "H5" else ordering
    keys5 = {_key5(r, False, base) for r in itertools.combinations_with_replacement(range(13), 5)
             if max(r.count(x) for x in r) <= 4}
    keys5 |= {_key5(r, True, base) for r in itertools.combinations(range(13), 5)}
    merged = sorted(keys5 | set(three_card_keys()))
    return {k: i for i, k in enumerate(merged)}


@lru_cache(maxsize=None)
def three_card_common(ordering: str = "H1") -> np.ndarray:
    """uint16[455]: position of each three-card rank on the common scale of ``ordering``."""
    scale = _common_keys(ordering)
    return np.array([scale[k] for k in three_card_keys()], dtype=np.uint16)
