"""Private numba kernels: plain arrays in, arithmetic only, results written to ``out`` buffers.

No validation happens here; the public functions in ``ranking``, ``naturals`` and ``setting``
check their input first. Loops index with unsigned integers and keep table lookups in the loop
body, which measured fastest here.
"""

from __future__ import annotations

import numpy as np
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


def _shuffle_batches() -> tuple[np.ndarray, np.ndarray]:
    """Group the 51 Fisher-Yates bounds 52, 51, ..., 2 into batches whose product stays below
    2**56, so one 64-bit word draws a whole batch (rejection probability below 2**-8)."""
    sizes, products = [], []
    bound = 52
    while bound >= 2:
        size, product = 0, 1
        while bound - size >= 2 and product * (bound - size) < 2**56:
            product *= bound - size
            size += 1
        sizes.append(size)
        products.append(product)
        bound -= size
    return np.array(sizes, dtype=np.int64), np.array(products, dtype=np.uint64)


BATCH_SIZES, BATCH_PRODUCTS = _shuffle_batches()
_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@njit(cache=_CACHE, nogil=True, inline="always")
def _mul_small(x, b):
    """(high, low) 64-bit halves of the 128-bit product of uint64 ``x`` and ``b`` < 2**32."""
    lo = (x & _LOW32) * b
    hi = ((x >> _S32) * b + (lo >> _S32)) >> _S32
    return hi, x * b


@njit(cache=_CACHE, nogil=True, inline="always")
def _batch_word(state, p):
    """A word whose Lemire draw on [0, p) is accepted (rejection when the low word falls below
    2**64 mod p): the caller decodes the batch's digits from it by successive multiplications."""
    while True:
        r = sfc64_next(state)
        _, low = _mul_small(r, p)
        if low >= p or low >= (np.uint64(0) - p) % p:
            return r


@njit(cache=_CACHE, nogil=True, inline="always")
def _deal_step(j, t1, t2, t3):
    """The hand (0..3) that draw ``j`` picks, given the running thresholds of cumulative free
    seats (hand 0 holds [0, t1), hand 1 [t1, t2), hand 2 [t2, t3), hand 3 the rest)."""
    return np.int64(j >= t1) + np.int64(j >= t2) + np.int64(j >= t3)


@njit(cache=_CACHE, nogil=True, inline="always")
def _deal_packed(state, sizes, products):
    """Deal a deck into four hands of 13, packed (suit masks, see ``_pack``); returns (p0..p3).

    Cards 0..51 are given out in order; card c goes to hand h with probability
    (free seats of h) / (cards left), one exact Lemire digit per card drawn in batches from
    the SFC64 ``state``: every deal of 13 cards to each hand is exactly equally likely. The
    generator's state lives in local variables for the deal.
    """
    sa = state[0]
    sb = state[1]
    sc = state[2]
    sw = state[3]
    t1 = np.uint64(13)
    t2 = np.uint64(26)
    t3 = np.uint64(39)
    p0 = np.int64(0)
    p1 = np.int64(0)
    p2 = np.int64(0)
    p3 = np.int64(0)
    c = 0
    for g in range(sizes.shape[0]):
        p = products[g]
        while True:
            r = sa + sb + sw
            sw += np.uint64(1)
            sa = sb ^ (sb >> np.uint64(11))
            sb = sc + (sc << np.uint64(3))
            sc = ((sc << np.uint64(24)) | (sc >> np.uint64(40))) + r
            _, low = _mul_small(r, p)
            if low >= p or low >= (np.uint64(0) - p) % p:
                break
        for _ in range(sizes[g]):
            j, r = _mul_small(r, np.uint64(52 - c))
            h = _deal_step(j, t1, t2, t3)
            bit = np.int64(1) << (SUIT_FIELD * (c & 3) + (c >> 2))
            p0 |= bit & -np.int64(h == 0)
            p1 |= bit & -np.int64(h == 1)
            p2 |= bit & -np.int64(h == 2)
            p3 |= bit & -np.int64(h == 3)
            t1 -= np.uint64(h == 0)
            t2 -= np.uint64(h <= 1)
            t3 -= np.uint64(h <= 2)
            c += 1
    # the last card goes to the one hand with a free seat
    h = _deal_step(np.uint64(0), t1, t2, t3)
    bit = np.int64(1) << (SUIT_FIELD * (c & 3) + (c >> 2))
    p0 |= bit & -np.int64(h == 0)
    p1 |= bit & -np.int64(h == 1)
    p2 |= bit & -np.int64(h == 2)
    p3 |= bit & -np.int64(h == 3)
    state[0] = sa
    state[1] = sb
    state[2] = sc
    state[3] = sw
    return p0, p1, p2, p3


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


@njit(cache=_CACHE, nogil=True)
def deal_kernel(state, out):
    """Fill ``out`` (N, 52) with deals from the SFC64 ``state``: hand h is ``out[:, 13h:13h+13]``,
    its cards by suit then rank (the order within a hand carries no information)."""
    for d in range(out.shape[0]):
        p0, p1, p2, p3 = _deal_packed(state, BATCH_SIZES, BATCH_PRODUCTS)
        _unpack_into(p0, out[d], 0)
        _unpack_into(p1, out[d], 13)
        _unpack_into(p2, out[d], 26)
        _unpack_into(p3, out[d], 39)


# Natural bits, in the order of naturals.NATURALS.
DRAGON, CLEAN_DRAGON, ONE_SUIT, SIX_PAIRS, FIVE_PAIRS_TRIPS, FOUR_TRIPS, THREE_QUADS = 0, 1, 2, 3, 4, 5, 6
THREE_STRAIGHTS, THREE_FLUSHES, THREE_STRAIGHT_FLUSHES = 7, 8, 9
ALL_ONE_COLOUR, TWELVE_ONE_COLOUR, ALL_LOW, ALL_HIGH = 10, 11, 12, 13
NO_PICTURES, ALL_PICTURES, TWELVE_PICTURES, SIX_AND_ABOVE = 14, 15, 16, 17


@njit(cache=_CACHE, nogil=True, inline="always")
def _has_key(sorted_keys, key):
    lo = 0
    hi = sorted_keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo < sorted_keys.shape[0] and sorted_keys[lo] == key


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


SUIT_FIELD = 16  # a hand packs into one int64: suit s's 13-bit rank mask at bits 16*s


@njit(cache=_CACHE, nogil=True, inline="always")
def _pack(hand, start):
    packed = np.int64(0)
    for k in range(start, start + 13):
        c = np.int64(hand[k])
        packed |= np.int64(1) << (SUIT_FIELD * (c & 3) + (c >> 2))
    return packed


@njit(cache=_CACHE, nogil=True, inline="always")
def natural_bits(packed, spread, support, straight_keys, five_masks, three_masks):
    """Bit mask of the naturals held by one packed 13-card hand (bits as the constants above).

    Rank counts are read bit-parallel from the four suit masks: ``a2`` holds the ranks held at
    least twice, and so on; ``spread`` maps a 13-bit mask to 3 bits per rank for count keys.
    """
    s0 = packed & 0x1FFF
    s1 = (packed >> 16) & 0x1FFF
    s2 = (packed >> 32) & 0x1FFF
    s3 = (packed >> 48) & 0x1FFF
    a1 = s0 | s1 | s2 | s3
    a2 = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    a3 = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
    a4 = s0 & s1 & s2 & s3
    c0 = popcount(s0)
    c1 = popcount(s1)
    c2 = popcount(s2)
    c3 = popcount(s3)
    maxs = max(max(c0, c1), max(c2, c3))
    black = c0 + c3
    small = (c0 == 3) + (c1 == 3) + (c2 == 3) + (c3 == 3)
    mid = (c0 == 5) + (c1 == 5) + (c2 == 5) + (c3 == 5)
    flushes = (maxs == 13) | ((small == 1) & (mid == 2)) | ((maxs == 8) & (mid == 1)) | ((maxs == 10) & (small == 1))
    bits = (
        ((a2 == 0) << DRAGON)
        | ((maxs == 13) << ONE_SUIT)
        | ((maxs == 13) << CLEAN_DRAGON)
        | ((popcount(a2) + popcount(a4) == 6) << SIX_PAIRS)
        | (((popcount(a3 & ~a4) == 1) & ((a1 & ~a2) == 0)) << FIVE_PAIRS_TRIPS)
        | ((popcount(a3) == 4) << FOUR_TRIPS)
        | ((popcount(a4) == 3) << THREE_QUADS)
        | (flushes << THREE_FLUSHES)
        | (((black == 0) | (black == 13)) << ALL_ONE_COLOUR)
        | (((black <= 1) | (black >= 12)) << TWELVE_ONE_COLOUR)
        | (((a1 >> 7) == 0) << ALL_LOW)
        | (((a1 & 0x3F) == 0) << ALL_HIGH)
        | (((a1 & 0xE00) == 0) << NO_PICTURES)
        | (((a1 & 0x1FF) == 0) << ALL_PICTURES)
        | (((a4 & 0xE00) == 0xE00) << TWELVE_PICTURES)
        | (((a1 & 0xF) == 0) << SIX_AND_ABOVE)
    )
    if a4 == 0 and support[a1]:
        if _has_key(straight_keys, spread[s0] + spread[s1] + spread[s2] + spread[s3]):
            bits |= 1 << THREE_STRAIGHTS
            if flushes and _straight_flush_split(s0, s1, s2, s3, five_masks, three_masks):
                bits |= 1 << THREE_STRAIGHT_FLUSHES
    return bits


@njit(cache=_CACHE, nogil=True)
def natural_bits_kernel(hands, spread, support, straight_keys, five_masks, three_masks, out):
    """Natural bit masks of ``hands`` (N, 13) into ``out`` (N,) uint32."""
    for i in range(hands.shape[0]):
        out[i] = natural_bits(_pack(hands[i], 0), spread, support, straight_keys, five_masks, three_masks)


@njit(cache=_CACHE, nogil=True, inline="always")
def _count_bits(bits, counts):
    """Add 1 to ``counts[i]`` for every set bit i of ``bits``."""
    b = 0
    while bits:
        if bits & 1:
            counts[b] += 1
        bits >>= 1
        b += 1


@njit(cache=_CACHE, nogil=True)
def deal_naturals_kernel(state, deals, players, spread, support, straight_keys, five_masks,
                         three_masks, seat_counts, table_counts):
    """Deal ``deals`` deals from the SFC64 ``state`` (as ``deal_kernel``), detect naturals in the
    first ``players`` hands; adds hits per natural to ``seat_counts`` (hands holding it) and
    ``table_counts`` (deals where any seat holds it).
    """
    packed = np.zeros(4, dtype=np.int64)
    for d in range(deals):
        packed[0], packed[1], packed[2], packed[3] = _deal_packed(state, BATCH_SIZES, BATCH_PRODUCTS)
        any_bits = 0
        for p in range(players):
            bits = natural_bits(packed[p], spread, support, straight_keys, five_masks, three_masks)
            if bits:
                any_bits |= bits
                _count_bits(bits, seat_counts)
        if any_bits:
            _count_bits(any_bits, table_counts)
