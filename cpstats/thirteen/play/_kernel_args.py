"""The lookup arrays the setters' kernels take, built once per ordering and cached.

Shared by the baselines (:mod:`cpstats.thirteen.play.baselines`) and the ``ev`` search
(:mod:`cpstats.thirteen.play.ev_setter`): the card keys and rank tables of a variant's high
hands, the subset index tables of a 13-card hand, and the best-flush table of an ordering.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from cpstats.thirteen.rules.ids import HandOrdering
from cpstats.hands import tables as _tables
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.play import _greedy_kernel as _gk


@lru_cache(maxsize=1)
def _subset_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """five_pos (1287, 5), three_pos (286, 3), rest_mid and rest_front (1287, 56)."""
    fives = list(itertools.combinations(range(13), 5))
    threes = list(itertools.combinations(range(13), 3))
    five_index = {c: i for i, c in enumerate(fives)}
    three_index = {c: i for i, c in enumerate(threes)}
    # Interleaved (middle, front) pairs: a back's 56 splits sit in 224 contiguous bytes.
    rest = np.empty((1287, 56, 2), dtype=np.uint16)
    rest_mid = rest[:, :, 0]
    rest_front = rest[:, :, 1]
    for b, back in enumerate(fives):
        rest = [p for p in range(13) if p not in back]
        for j, mid in enumerate(itertools.combinations(rest, 5)):
            rest_mid[b, j] = five_index[mid]
            rest_front[b, j] = three_index[tuple(p for p in rest if p not in mid)]
    return (np.array(fives, dtype=np.uint8), np.array(threes, dtype=np.uint8), rest_mid,
            rest_front)


def _rank_args(variant: Variant) -> tuple[np.ndarray, ...]:
    """Card keys, five-card tables, three-card table and common scales of the variant's high
    hands (under H5 the back and front are H1 hands; the low middle has its own tables)."""
    order = "H1" if variant.ranking is HandOrdering.DEUCE_TO_SEVEN else variant.ranking.value
    t = _tables.five_card_tables(order)
    return (_tables.CARD_KEY, _tables.CARD_BIT, t.nonflush, t.flush, _tables.three_card_table(),
            t.common, _tables.three_card_common(order))


def _low_middle(variant: Variant) -> bool:
    return variant.ranking is HandOrdering.DEUCE_TO_SEVEN


@lru_cache(maxsize=None)
def _flush_best(order: str) -> np.ndarray:
    """``uint16[8192]``: the strongest five-card subset of every rank mask under ``order``."""
    return _gk.flush_best_table(_tables.five_card_tables(order).flush)
