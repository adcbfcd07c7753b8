"""The exact dealer's kernels: numpy's SFC64 recurrence, and a partial Fisher-Yates shuffle
whose 39 bounds are drawn in four batches of one 64-bit word each (Lemire's method with
rejection on the batch's product), every deal exactly equally likely (see ``cards.blocks``)."""

from __future__ import annotations

import numpy as np
from numba import njit

_CACHE = True

from cpstats.cards._bits import FULL_DECK, PACKED_BIT, trailing_zeros, umul128

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
