"""Kernels of the hands layer's ranking and settings: five- and three-card ranks from flat
uint8 arrays into ``out`` buffers (checked and unchecked), a setting's rows split out, and the
check that a setting holds its hand's cards. Plain arrays in, arithmetic only; loops index with
unsigned integers and keep table lookups in the loop body, which measured fastest here."""

from __future__ import annotations

import numpy as np
from numba import njit

_CACHE = True

from cpstats.cards._bits import popcount

@njit(cache=_CACHE, nogil=True)
def rank5_kernel(flat, card_key, card_bit, nonflush, flush, out):
    """Rank five-card hands given as one flat uint8 array (5 codes a hand) into ``out`` uint16.

    Flat indexing measured 1.6x faster here than indexing a (N, 5) array.
    """
    for i in range(out.shape[0]):
        b = 5 * i
        c0 = flat[b]
        c1 = flat[b + 1]
        c2 = flat[b + 2]
        c3 = flat[b + 3]
        c4 = flat[b + 4]
        if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
            out[i] = flush[card_bit[c0] | card_bit[c1] | card_bit[c2] | card_bit[c3] | card_bit[c4]]
        else:
            out[i] = nonflush[card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3] + card_key[c4]]


@njit(cache=_CACHE, nogil=True)
def rank3_kernel(flat, table, out):
    """Rank three-card hands given as one flat uint8 array (3 codes a hand) into ``out`` uint16."""
    for i in range(out.shape[0]):
        b = 3 * i
        out[i] = table[(flat[b] >> 2) * 169 + (flat[b + 1] >> 2) * 13 + (flat[b + 2] >> 2)]


# A hand is valid exactly when the OR of its cards' bits (``_bits.CARD_MASK``) has one bit per
# card: a code of 52 and up adds none, a repeated card adds none.
@njit(cache=_CACHE, nogil=True)
def rank5_checked_kernel(flat, card_key, card_bit, nonflush, flush, card_mask, out):
    """``rank5_kernel`` that first checks each hand (``CARD_MASK``): returns the index of the
    first hand holding a code >= 52 or a card twice (ranks before it written), or -1."""
    for i in range(out.shape[0]):
        b = 5 * i
        c0 = flat[b]
        c1 = flat[b + 1]
        c2 = flat[b + 2]
        c3 = flat[b + 3]
        c4 = flat[b + 4]
        if popcount(card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3] | card_mask[c4]) != 5:
            return i
        if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
            out[i] = flush[card_bit[c0] | card_bit[c1] | card_bit[c2] | card_bit[c3] | card_bit[c4]]
        else:
            out[i] = nonflush[card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3] + card_key[c4]]
    return -1


@njit(cache=_CACHE, nogil=True)
def rank3_checked_kernel(flat, table, card_mask, out):
    """``rank3_kernel`` that checks each hand as ``rank5_checked_kernel`` does; returns 0 when
    every hand is valid, else non-zero (``first_bad_hand`` then names the hand).

    ``table`` is the three-card table padded to ``THREE_TABLE_SIZE`` entries, so that any uint8
    codes index inside it: the loop then needs no exit, which measured 5% faster than returning
    at the first bad hand (this kernel does little else).
    """
    bad = 0
    for i in range(out.shape[0]):
        b = 3 * i
        c0 = flat[b]
        c1 = flat[b + 1]
        c2 = flat[b + 2]
        bad |= popcount(card_mask[c0] | card_mask[c1] | card_mask[c2]) ^ 3
        out[i] = table[(c0 >> 2) * 169 + (c1 >> 2) * 13 + (c2 >> 2)]
    return bad


# Entries of a three-card table indexed by (c0 >> 2) * 169 + (c1 >> 2) * 13 + (c2 >> 2) for any
# uint8 codes (c >> 2 <= 63).
THREE_TABLE_SIZE = 63 * 169 + 63 * 13 + 63 + 1


@njit(cache=_CACHE, nogil=True)
def split_settings_kernel(settings, check, card_mask, front, middle, back):
    """Copy the settings (N, 13) into contiguous ``front`` (N, 3), ``middle`` and ``back``
    (N, 5), faster than numpy's strided copy of short rows; with ``check``, each setting is
    first checked as ``first_bad_hand`` does. Returns the first bad setting's index, or -1."""
    for i in range(settings.shape[0]):
        if check:
            m = np.int64(0)
            for k in range(13):
                m |= card_mask[settings[i, k]]
            if popcount(m) != 13:
                return i
        for c in range(3):
            front[i, c] = settings[i, c]
        for c in range(5):
            middle[i, c] = settings[i, 3 + c]
            back[i, c] = settings[i, 8 + c]
    return -1


@njit(cache=_CACHE, nogil=True)
def first_unlike_row(hands, settings, card_mask):
    """Index of the first row where ``settings`` (uint8) is not a permutation of ``hands``
    (valid hands, same shape), or -1: the same set of cards, every code < 52."""
    for i in range(hands.shape[0]):
        m = np.int64(0)
        s = np.int64(0)
        for k in range(hands.shape[1]):
            m |= card_mask[hands[i, k]]
            s |= card_mask[settings[i, k]]
        if m != s or popcount(s) != hands.shape[1]:
            return i
    return -1
