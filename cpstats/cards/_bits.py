"""Bit helpers every kernel shares: LLVM bit intrinsics, the card-check mask, and a hand packed
into one int64 (suit s's 13-bit rank mask at bits 16 s) with its per-rank multiplicity masks.

The card check of the default (checked) public calls is made in the kernel that reads the cards:
codes below 52 and no card twice, by the OR of each hand's card bits (``CARD_MASK``); a kernel
returns the index of the first bad hand (or -1) for the public function to name, far cheaper than
a separate numpy pass, so the default check costs little.
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


CARD_MASK = np.array([1 << c if c < 52 else 0 for c in range(256)], dtype=np.int64)


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
