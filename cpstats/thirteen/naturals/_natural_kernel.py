"""Natural detection kernels: the bit mask of the naturals a packed 13-card hand holds, for
arrays of hands (checked or not) and fused with the dealer for natural frequencies."""

from __future__ import annotations

import numpy as np
from numba import njit

_CACHE = True

from cpstats.cards._bits import pack_hand, popcount, rank_masks
from cpstats.cards._deal_kernel import BATCH_PRODUCTS, BATCH_SIZES, PACKED_BIT, _deal_packed

# Natural bits, in the order of naturals.NATURALS.
DRAGON, CLEAN_DRAGON, ONE_SUIT, SIX_PAIRS, FIVE_PAIRS_TRIPS, FOUR_TRIPS, THREE_QUADS = 0, 1, 2, 3, 4, 5, 6
THREE_STRAIGHTS, THREE_FLUSHES, THREE_STRAIGHT_FLUSHES = 7, 8, 9
ALL_ONE_COLOUR, TWELVE_ONE_COLOUR, ALL_LOW, ALL_HIGH = 10, 11, 12, 13
NO_PICTURES, ALL_PICTURES, TWELVE_PICTURES, SIX_AND_ABOVE = 14, 15, 16, 17


HASH_BITS = 12
_HASH_SHIFT = np.uint64(64 - HASH_BITS)
_HASH_MULT = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=_CACHE, nogil=True, inline="always")
def key_slot(key):
    """Home slot of a rank-count key in a table of 2**HASH_BITS (Fibonacci hashing)."""
    return np.int64((np.uint64(key) * _HASH_MULT) >> _HASH_SHIFT)


@njit(cache=_CACHE, nogil=True, inline="always")
def _has_key(table, key):
    """``key`` is in the open-addressing ``table`` (-1 marks an empty slot)."""
    slot = key_slot(key)
    mask = table.shape[0] - 1
    while table[slot] != -1:
        if table[slot] == key:
            return True
        slot = (slot + 1) & mask
    return False


@njit(cache=_CACHE, nogil=True)
def _straight_flush_split(m0, m1_, m2_, m3, five_masks, three_masks):
    """True if the four suits' rank masks split into two five-card and one three-card straight flush."""
    suit_masks = (m0, m1_, m2_, m3)
    for s1 in range(4):
        for a in range(five_masks.shape[0]):
            m1 = five_masks[a]
            if (suit_masks[s1] & m1) != m1:
                continue
            for s2 in range(s1, 4):
                for b in range(five_masks.shape[0]):
                    m2 = five_masks[b]
                    if s2 == s1 and (b <= a or (m1 & m2) != 0):
                        continue
                    if (suit_masks[s2] & m2) != m2:
                        continue
                    for s3 in range(4):
                        rest = suit_masks[s3]
                        if s3 == s1:
                            rest = rest & ~m1
                        if s3 == s2:
                            rest = rest & ~m2
                        for c in range(three_masks.shape[0]):
                            if rest == three_masks[c]:
                                other = 0
                                for s in range(4):
                                    left = suit_masks[s]
                                    if s == s1:
                                        left &= ~m1
                                    if s == s2:
                                        left &= ~m2
                                    if s == s3:
                                        left &= ~three_masks[c]
                                    other |= left
                                if other == 0:
                                    return True
    return False


@njit(cache=_CACHE, nogil=True, inline="always")
def natural_bits(packed, suit_bits, count_bits, spread, support, straight_table, five_masks,
                 three_masks):
    """Bit mask of the naturals held by one packed 13-card hand (bits as the constants above).

    Rank counts are read bit-parallel from the four suit masks (``rank_masks``); naturals
    decided by the suit counts or by how many ranks are held 2, 3 and 4 times come from two
    small tables (``naturals.suit_count_bits``, ``rank_count_bits``);
    ``spread`` maps a 13-bit mask to 3 bits per rank for the three-straights count keys.
    """
    s0, s1, s2, s3, a1, a2, a3, a4 = rank_masks(packed)
    bits = suit_bits[popcount(s0) * 196 + popcount(s1) * 14 + popcount(s2)]
    bits |= count_bits[popcount(a2) * 20 + popcount(a3) * 4 + popcount(a4)]
    bits |= (
        (np.int64((a1 >> 7) == 0) << ALL_LOW)
        | (np.int64((a1 & 0x3F) == 0) << ALL_HIGH)
        | (np.int64((a1 & 0xE00) == 0) << NO_PICTURES)
        | (np.int64((a1 & 0x1FF) == 0) << ALL_PICTURES)
        | (np.int64((a4 & 0xE00) == 0xE00) << TWELVE_PICTURES)
        | (np.int64((a1 & 0xF) == 0) << SIX_AND_ABOVE)
    )
    if a4 == 0 and support[a1]:
        if _has_key(straight_table, spread[s0] + spread[s1] + spread[s2] + spread[s3]):
            bits |= 1 << THREE_STRAIGHTS
            if (bits >> THREE_FLUSHES) & 1 and _straight_flush_split(s0, s1, s2, s3, five_masks,
                                                                     three_masks):
                bits |= 1 << THREE_STRAIGHT_FLUSHES
    return bits


@njit(cache=_CACHE, nogil=True, _nrt=False)
def natural_bits_kernel(hands, suit_bits, count_bits, spread, support, straight_table, five_masks,
                        three_masks, out):
    """Natural bit masks of ``hands`` (N, 13) into ``out`` (N,) uint32."""
    for i in range(hands.shape[0]):
        out[i] = natural_bits(pack_hand(hands[i]), suit_bits, count_bits, spread, support,
                              straight_table, five_masks, three_masks)


# PACKED_BIT for every uint8 code, 0 for the codes 52..255 (see CARD_MASK).
PACKED_BIT_ANY = np.concatenate([PACKED_BIT, np.zeros(256 - 52, dtype=np.int64)])


@njit(cache=_CACHE, nogil=True, _nrt=False)
def natural_bits_checked_kernel(hands, suit_bits, count_bits, spread, support, straight_table,
                                five_masks, three_masks, packed_bit_any, out):
    """``natural_bits_kernel`` that first checks each hand: the packed hand (``PACKED_BIT_ANY``)
    must hold 13 bits. Returns the index of the first hand holding a code >= 52 or a card
    twice (bits before it written), or -1."""
    for i in range(hands.shape[0]):
        packed = np.int64(0)
        for k in range(13):
            packed |= packed_bit_any[hands[i, k]]
        if popcount(packed) != 13:
            return i
        out[i] = natural_bits(packed, suit_bits, count_bits, spread, support, straight_table,
                              five_masks, three_masks)
    return -1


@njit(cache=_CACHE, nogil=True, inline="always")
def _count_bits(bits, counts):
    """Add 1 to ``counts[i]`` for every set bit i of ``bits``."""
    b = 0
    while bits:
        if bits & 1:
            counts[b] += 1
        bits >>= 1
        b += 1


@njit(cache=_CACHE, nogil=True, _nrt=False)
def deal_naturals_kernel(state, deck, packed, deals, players, suit_bits, count_bits, spread,
                         support, straight_table, five_masks, three_masks, seat_counts,
                         table_counts):
    """Deal ``deals`` deals from the SFC64 ``state`` and ``deck`` (as ``deal_kernel``), detect
    naturals in the first ``players`` hands; adds hits per natural to ``seat_counts`` (hands
    holding it) and ``table_counts`` (deals where any seat holds it). ``packed`` is int64[4]
    scratch.

    Compiled without numba's reference counting (``_nrt=False``): the arrays handed to the
    inlined helpers were otherwise counted in and out for every hand, which cost more than the
    detection itself (3x here); so every buffer comes from the caller.
    """
    for d in range(deals):
        packed[0], packed[1], packed[2], packed[3] = _deal_packed(state, deck, BATCH_SIZES,
                                                                  BATCH_PRODUCTS, PACKED_BIT)
        any_bits = 0
        for p in range(players):
            bits = natural_bits(packed[p], suit_bits, count_bits, spread, support, straight_table,
                                five_masks, three_masks)
            if bits:
                any_bits |= bits
                _count_bits(bits, seat_counts)
        if any_bits:
            _count_bits(any_bits, table_counts)
