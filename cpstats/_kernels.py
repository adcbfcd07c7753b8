"""Private numba kernels: plain arrays in, arithmetic only, results written to ``out`` buffers.

The public functions in ``ranking``, ``naturals`` and ``setting`` check shapes, dtypes and
options first. The one check made here is the card check of the default (checked) calls: codes
below 52 and no card twice, by the OR of each hand's card bits (``CARD_MASK``), fused into the
kernel that reads the cards; it returns the index of the first bad hand (or -1) for the public
function to name, which costs far less than a separate numpy pass (audit 13.22). Loops index with unsigned integers and keep table lookups in the loop
body, which measured fastest here.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

_CACHE = True


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (LLVM ctpop: one instruction on this hardware)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def trailing_zeros(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (LLVM cttz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


@intrinsic
def highest_bit(typingctx, x):
    """Index of the highest set bit of a non-zero int64 (LLVM ctlz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], context.get_constant(types.boolean, True))
        return builder.sub(context.get_constant(types.int64, 63), zeros)

    return sig, codegen


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


# Bit c for each valid code c; 0 for the codes 52..255 a uint8 can hold. A hand is valid exactly
# when the OR of its cards' bits has one bit per card (a bad code adds none, a repeat adds none).
CARD_MASK = np.array([1 << c if c < 52 else 0 for c in range(256)], dtype=np.int64)


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
def first_bad_hand(hands, card_mask):
    """Index of the first hand (row of the uint8 ``hands``) holding a code >= 52 or a card
    twice, or -1."""
    cards = hands.shape[1]
    for i in range(hands.shape[0]):
        m = np.int64(0)
        for k in range(cards):
            m |= card_mask[hands[i, k]]
        if popcount(m) != cards:
            return i
    return -1


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


@njit(cache=_CACHE, nogil=True, inline="always")
def sfc64_next(state):
    """Next word of numpy's SFC64 generator; ``state`` is its uint64[4] (a, b, c, counter).

    The same recurrence as numpy's C code, so a state taken from ``numpy.random.SFC64`` gives
    exactly its ``random_raw`` stream (a test checks this).
    """
    a = state[0]
    b = state[1]
    c = state[2]
    tmp = a + b + state[3]
    state[3] += np.uint64(1)
    state[0] = b ^ (b >> np.uint64(11))
    state[1] = c + (c << np.uint64(3))
    state[2] = ((c << np.uint64(24)) | (c >> np.uint64(40))) + tmp
    return tmp


@njit(cache=_CACHE, nogil=True)
def sfc64_fill(state, out):
    """Fill ``out`` uint64 with the generator's next words (for tests against numpy)."""
    for i in range(out.shape[0]):
        out[i] = sfc64_next(state)


def _shuffle_batches(last: int = 14) -> tuple[np.ndarray, np.ndarray]:
    """Group the Fisher-Yates bounds 52, 51, ..., ``last`` into batches whose product stays
    below 2**56, so one 64-bit word draws a whole batch (rejection probability below 2**-8)."""
    sizes, products = [], []
    bound = 52
    while bound >= last:
        size, product = 0, 1
        while bound - size >= last and product * (bound - size) < 2**56:
            product *= bound - size
            size += 1
        sizes.append(size)
        products.append(product)
        bound -= size
    return np.array(sizes, dtype=np.int64), np.array(products, dtype=np.uint64)


BATCH_SIZES, BATCH_PRODUCTS = _shuffle_batches()


@intrinsic
def umul128(typingctx, x, y):
    """(high, low) 64-bit halves of the 128-bit product of two uint64 (one ``mul`` on x86-64)."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        high = builder.trunc(builder.lshr(product, ir.Constant(i128, 64)), ir.IntType(64))
        low = builder.trunc(product, ir.IntType(64))
        return context.make_tuple(builder, signature.return_type, (high, low))

    return sig, codegen

SUIT_FIELD = 16  # a hand packs into one int64: suit s's 13-bit rank mask at bits 16*s
PACKED_BIT = np.array([1 << (SUIT_FIELD * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
FULL_DECK = np.int64(np.bitwise_or.reduce(PACKED_BIT))


@njit(cache=_CACHE, nogil=True, inline="always")
def _deal_packed(state, deck, sizes, products, packed_bit):
    """Deal four hands of 13 from the SFC64 ``state``, packed (suit masks, see ``_pack``);
    returns (p0, p1, p2, p3).

    A partial Fisher-Yates shuffle of ``deck`` (any permutation of 0..51, left permuted for
    the next deal): position i < 39 takes the card at i + a uniform digit on [0, 52 - i) and
    belongs to hand i // 13; the 13 cards left form hand 3. The digits are exact Lemire draws,
    several from one 64-bit word (``sizes``, ``products``: see ``_shuffle_batches``), so every
    deal is exactly equally likely whatever ``deck`` held before. The generator's state lives
    in local variables for the deal.
    """
    sa = state[0]
    sb = state[1]
    sc = state[2]
    sw = state[3]
    p0 = np.int64(0)
    p1 = np.int64(0)
    hand = np.int64(0)
    i = 0
    for g in range(sizes.shape[0]):
        p = products[g]
        while True:
            r = sa + sb + sw
            sw += np.uint64(1)
            sa = sb ^ (sb >> np.uint64(11))
            sb = sc + (sc << np.uint64(3))
            sc = ((sc << np.uint64(24)) | (sc >> np.uint64(40))) + r
            _, low = umul128(r, p)
            if low >= p or low >= (np.uint64(0) - p) % p:
                break
        for _ in range(sizes[g]):
            j, r = umul128(r, np.uint64(52 - i))
            k = i + np.int64(j)
            card = deck[k]
            deck[k] = deck[i]
            deck[i] = card
            hand |= packed_bit[card]
            if i == 12:
                p0 = hand
                hand = 0
            elif i == 25:
                p1 = hand
                hand = 0
            i += 1
    state[0] = sa
    state[1] = sb
    state[2] = sc
    state[3] = sw
    return p0, p1, hand, FULL_DECK ^ p0 ^ p1 ^ hand


@njit(cache=_CACHE, nogil=True, inline="always")
def _unpack_into(packed, out, start):
    """Write the 13 cards of a packed hand into ``out[start:start + 13]``, by suit then rank."""
    k = start
    m = packed
    while m:
        b = trailing_zeros(m)
        m &= m - 1
        out[k] = 4 * (b & 15) + (b >> 4)
        k += 1


@njit(cache=_CACHE, nogil=True, _nrt=False)
def deal_kernel(state, deck, out):
    """Fill ``out`` (N, 52) with deals from the SFC64 ``state`` and the ``deck`` permutation
    (``np.arange(52)`` for a fresh stream): hand h is ``out[:, 13h:13h+13]``, its cards by suit
    then rank (the order within a hand carries no information)."""
    for d in range(out.shape[0]):
        p0, p1, p2, p3 = _deal_packed(state, deck, BATCH_SIZES, BATCH_PRODUCTS, PACKED_BIT)
        _unpack_into(p0, out[d], 0)
        _unpack_into(p1, out[d], 13)
        _unpack_into(p2, out[d], 26)
        _unpack_into(p3, out[d], 39)


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
def pack_hand(hand):
    """The cards of ``hand`` (any count) packed into one int64: suit s's 13-bit rank mask at
    bits ``SUIT_FIELD * s``."""
    packed = np.int64(0)
    for k in range(hand.shape[0]):
        c = np.int64(hand[k])
        packed |= np.int64(1) << (SUIT_FIELD * (c & 3) + (c >> 2))
    return packed


@njit(cache=_CACHE, nogil=True, inline="always")
def rank_masks(packed):
    """(s0, s1, s2, s3, a1, a2, a3, a4) of a packed hand: the four suits' 13-bit rank masks and,
    bit-parallel, the ranks held at least once, twice, three and four times."""
    s0 = packed & 0x1FFF
    s1 = (packed >> 16) & 0x1FFF
    s2 = (packed >> 32) & 0x1FFF
    s3 = (packed >> 48) & 0x1FFF
    s01 = s0 & s1
    s23 = s2 & s3
    o01 = s0 | s1
    o23 = s2 | s3
    return (s0, s1, s2, s3, o01 | o23, s01 | s23 | (o01 & o23), (s01 & o23) | (s23 & o01),
            s01 & s23)


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
