"""Kernels of one open-face board: its three ranks, and its value under a variant's tables.

A board is 13 int8 codes ``[front(3), middle(5), back(5)]``. :func:`board_ranks` reads the H1
rank tables of :mod:`cpstats.hands.tables`, held here as module globals (numba freezes them
into the compiled code), so that callers pass only the board. :func:`board_value` takes the
:class:`~cpstats.ofc.rules.RuleArrays` arrays as separate arguments, in this order (what
:func:`cpstats.ofc.board.table_args` returns)::

    front_royalty, middle_royalty, back_royalty, front_common, middle_common, fl_entry_cards,
    fl_stay_front, fl_stay_middle, fl_stay_back, fl_stay_cards, row_points

so that ``board_value(f, m, b, *table_args(variant))`` works in Python and in njit code. The
kernels never branch on the variant: every rule is in the tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.hands import tables as _tables

_CACHE = True

CARD_KEY = np.ascontiguousarray(_tables.CARD_KEY, dtype=np.int64)
CARD_BIT = np.ascontiguousarray(_tables.CARD_BIT, dtype=np.int64)
NONFLUSH = np.ascontiguousarray(_tables.five_card_tables("H1").nonflush)
FLUSH = np.ascontiguousarray(_tables.five_card_tables("H1").flush)
THREE = np.ascontiguousarray(_tables.three_card_table())


@njit(cache=_CACHE, nogil=True, inline="always")
def rank5_at(cards, s):
    """H1 rank (0..7461) of the five codes ``cards[s:s + 5]`` (all dealt, distinct)."""
    c0 = cards[s]
    c1 = cards[s + 1]
    c2 = cards[s + 2]
    c3 = cards[s + 3]
    c4 = cards[s + 4]
    if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
        return np.int64(FLUSH[CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4]])
    return np.int64(NONFLUSH[CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4]])


@njit(cache=_CACHE, nogil=True, inline="always")
def rank3_at(cards, s):
    """H2 rank (0..454) of the three codes ``cards[s:s + 3]``."""
    return np.int64(THREE[(cards[s] >> 2) * 169 + (cards[s + 1] >> 2) * 13 + (cards[s + 2] >> 2)])


@njit(cache=_CACHE, nogil=True)
def board_ranks(board, out):
    """Fill ``out`` (int64[3]) with the front rank3, middle rank5 and back rank5 of a complete
    board (no -1 slots: an empty slot gives a meaningless rank)."""
    out[0] = rank3_at(board, 0)
    out[1] = rank5_at(board, 3)
    out[2] = rank5_at(board, 8)


@njit(cache=_CACHE, nogil=True)
def board_value(front_r3, middle_r5, back_r5, front_royalty, middle_royalty, back_royalty,
                front_common, middle_common, fl_entry_cards, fl_stay_front, fl_stay_middle,
                fl_stay_back, fl_stay_cards, row_points):
    """``(fouled, royalty, fl_cards, stays)`` of a board with these ranks (OFC-FOUL,
    OFC-R-*, OFC-FL-ENTRY, OFC-FL-STAY-*): a fouled board (back below middle, or middle below
    front on the common scale) has no royalty, no entry and no stay; ``fl_cards`` is the
    Fantasyland deal it earns from a normal hand, ``stays`` whether it would keep a Fantasyland
    player there (the caller uses one or the other)."""
    fouled = back_r5 < middle_r5 or middle_common[middle_r5] < front_common[front_r3]
    if fouled:
        return True, np.int64(0), np.int64(0), False
    royalty = front_royalty[front_r3] + middle_royalty[middle_r5] + back_royalty[back_r5]
    stays = fl_stay_front[front_r3] or fl_stay_middle[middle_r5] or fl_stay_back[back_r5]
    return False, royalty, fl_entry_cards[front_r3], stays


@njit(cache=_CACHE, nogil=True)
def next_fantasy(in_fantasy, fl_cards, stays, fl_stay_cards):
    """Cards the player is dealt next hand (0 = a normal hand): a Fantasyland hand stays with
    ``fl_stay_cards[0]`` or leaves; a normal hand enters with ``fl_cards``."""
    if in_fantasy:
        return fl_stay_cards[0] if stays else np.int64(0)
    return fl_cards


@njit(cache=_CACHE, nogil=True)
def boards_kernel(boards, front_royalty, middle_royalty, back_royalty, front_common,
                  middle_common, fl_entry_cards, fl_stay_front, fl_stay_middle, fl_stay_back,
                  fl_stay_cards, row_points, ranks, fouled, royalty, fl_cards, stays):
    """Ranks (N, 3), row royalties (N, 3: front, middle, back; 0 on a foul), fouls, entry cards
    and stays of ``boards`` (N, 13) into the output arrays."""
    for i in range(boards.shape[0]):
        f = rank3_at(boards[i], 0)
        m = rank5_at(boards[i], 3)
        b = rank5_at(boards[i], 8)
        ranks[i, 0] = f
        ranks[i, 1] = m
        ranks[i, 2] = b
        foul, total, cards, stay = board_value(
            f, m, b, front_royalty, middle_royalty, back_royalty, front_common, middle_common,
            fl_entry_cards, fl_stay_front, fl_stay_middle, fl_stay_back, fl_stay_cards,
            row_points)
        fouled[i] = foul
        fl_cards[i] = cards
        stays[i] = stay
        royalty[i, 0] = 0 if foul else front_royalty[f]
        royalty[i, 1] = 0 if foul else middle_royalty[m]
        royalty[i, 2] = 0 if foul else back_royalty[b]
