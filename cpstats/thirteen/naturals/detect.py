"""Naturals (rulebook section 5): detectors for every N-* definition on arrays of 13-card hands.

Names are the rulebook IDs in snake case without ``N-``. Detection is independent per natural:
a hand holding several is flagged for each (settlement picks the highest in the schedule).

Options named by the rulebook:

- ``qka_front_straight`` (default True): Q-K-A counts as a three-card straight in front for
  three straights (001 "three cards of consecutive rank"); K-A-2 and wrap-arounds never count.
  A-2-3 counts (the ace plays low as in the wheel).
- ``straight_flush_counts`` (default True): a straight flush row counts as a straight for
  three straights and as a flush for three flushes (000: three straight flushes "overlaps Three
  Flushes and Three Straights"). With False, a hand counts as three straights or three flushes
  only if it can be set so with no straight-flush row; that stricter check is done by searching
  the hand's settings, so it is slower and has no exact value.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pandas as pd

from cpstats.thirteen.naturals import _natural_kernel
from cpstats.cards.codes import _as_codes, _hand_error
from cpstats.errors import OptionError

__all__ = ["NATURALS", "natural_mask", "detect_naturals", "natural_names"]

NATURALS = (
    "dragon", "clean_dragon", "one_suit", "six_pairs", "five_pairs_trips", "four_trips",
    "three_quads", "three_straights", "three_flushes", "three_straight_flushes",
    "all_one_colour", "twelve_one_colour", "all_low", "all_high", "no_pictures",
    "all_pictures", "twelve_pictures", "six_and_above",
)

FIVE_STRAIGHT_MASKS = np.array(
    [0b1000000001111] + [0b11111 << low for low in range(9)], dtype=np.int64
)


def three_straight_masks(qka_front_straight: bool) -> np.ndarray:
    """Rank masks of the three-card straights: A-2-3 .. J-Q-K, plus Q-K-A if allowed."""
    masks = [0b1000000000011] + [0b111 << low for low in range(10)]
    if qka_front_straight:
        masks.append(0b111 << 10)
    return np.array(masks, dtype=np.int64)


def _mask_counts(mask: int) -> np.ndarray:
    return np.array([(mask >> r) & 1 for r in range(13)], dtype=np.int64)


@lru_cache(maxsize=2)
def three_straight_keys(qka_front_straight: bool = True) -> np.ndarray:
    """Sorted rank-count keys (3 bits per rank) of every three-straights rank multiset."""
    keys = set()
    threes = three_straight_masks(qka_front_straight)
    for a, b in itertools.combinations_with_replacement(FIVE_STRAIGHT_MASKS.tolist(), 2):
        for c in threes.tolist():
            counts = _mask_counts(a) + _mask_counts(b) + _mask_counts(c)
            keys.add(int(sum(int(x) << (3 * r) for r, x in enumerate(counts))))
    return np.array(sorted(keys), dtype=np.int64)


@lru_cache(maxsize=1)
def spread_table() -> np.ndarray:
    """``spread``: a 13-bit rank mask with 3 bits per rank, so four suits add into count keys."""
    masks = np.arange(8192, dtype=np.int64)
    spread = np.zeros(8192, dtype=np.int64)
    for r in range(13):
        spread |= ((masks >> r) & 1) << (3 * r)
    return spread


@lru_cache(maxsize=2)
def three_straight_support(qka_front_straight: bool = True) -> np.ndarray:
    """uint8[8192]: 1 for each rank mask that is the set of ranks of a three-straights hand."""
    support = np.zeros(8192, dtype=np.uint8)
    for key in three_straight_keys(qka_front_straight).tolist():
        support[sum(1 << r for r in range(13) if (key >> (3 * r)) & 7)] = 1
    return support


@lru_cache(maxsize=2)
def three_straight_hash(qka_front_straight: bool = True) -> np.ndarray:
    """The three-straights keys in an open-addressing table (int64[4096], -1 empty, linear
    probing from ``_natural_kernel.key_slot``): one or two probes instead of a binary search."""
    table = np.full(1 << _natural_kernel.HASH_BITS, -1, dtype=np.int64)
    for key in three_straight_keys(qka_front_straight).tolist():
        slot = _natural_kernel.key_slot(np.int64(key))
        while table[slot] != -1:
            slot = (slot + 1) & (table.size - 1)
        table[slot] = key
    return table


@lru_cache(maxsize=1)
def suit_count_bits() -> np.ndarray:
    """int64[14**3]: the naturals decided by suit counts alone, at ``c0*196 + c1*14 + c2`` (the
    fourth count is 13 minus the others): one suit, three flushes, colours."""
    table = np.zeros(14**3, dtype=np.int64)
    for c0, c1, c2 in itertools.product(range(14), repeat=3):
        c3 = 13 - c0 - c1 - c2
        if c3 < 0:
            continue
        counts = (c0, c1, c2, c3)
        longest, black = max(counts), c0 + c3
        threes, fives = counts.count(3), counts.count(5)
        flushes = (longest == 13 or (threes == 1 and fives == 2) or (longest == 8 and fives == 1)
                   or (longest == 10 and threes == 1))
        table[c0 * 196 + c1 * 14 + c2] = (
            (longest == 13) << _natural_kernel.ONE_SUIT | (longest == 13) << _natural_kernel.CLEAN_DRAGON
            | flushes << _natural_kernel.THREE_FLUSHES | (black in (0, 13)) << _natural_kernel.ALL_ONE_COLOUR
            | (black <= 1 or black >= 12) << _natural_kernel.TWELVE_ONE_COLOUR)
    return table


@lru_cache(maxsize=1)
def rank_count_bits() -> np.ndarray:
    """int64[140]: the naturals decided by how many ranks are held at least 2, 3 and 4 times
    (n2, n3, n4), at ``n2*20 + n3*4 + n4``: dragon, six pairs, five pairs + trips, four trips,
    three quads (a quad counts as two pairs)."""
    table = np.zeros(140, dtype=np.int64)
    for n2, n3, n4 in itertools.product(range(7), range(5), range(4)):
        singles = 13 - 2 * n2 - n3 - n4  # ranks held exactly once, from the 13 cards
        table[n2 * 20 + n3 * 4 + n4] = (
            (n2 == 0) << _natural_kernel.DRAGON | (n2 + n4 == 6) << _natural_kernel.SIX_PAIRS
            | (n3 - n4 == 1 and singles == 0) << _natural_kernel.FIVE_PAIRS_TRIPS
            | (n3 == 4) << _natural_kernel.FOUR_TRIPS | (n4 == 3) << _natural_kernel.THREE_QUADS)
    return table


def kernel_tables(qka_front_straight: bool) -> tuple[np.ndarray, ...]:
    """The table arguments of the natural kernels, in order."""
    return (suit_count_bits(), rank_count_bits(), spread_table(),
            three_straight_support(qka_front_straight), three_straight_hash(qka_front_straight),
            FIVE_STRAIGHT_MASKS, three_straight_masks(qka_front_straight))


def _bool_option(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise OptionError(f"{name}={value!r} is invalid: use True or False")
    return bool(value)


def natural_mask(hands, *, qka_front_straight: bool = True, straight_flush_counts: bool = True,
                 check: bool = True) -> np.ndarray:
    """Naturals held by each hand as a ``uint32`` bit mask (bit i is ``NATURALS[i]``).

    ``check`` (the default) refuses codes out of 0..51 and a card twice in a hand, inside the
    detection kernel; ``check=False`` is for cards already dealt.

    Examples
    --------
    >>> bits = natural_mask("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    >>> natural_names(bits)
    ['dragon', 'three_straights']
    """
    qka = _bool_option("qka_front_straight", qka_front_straight)
    sf_counts = _bool_option("straight_flush_counts", straight_flush_counts)
    arr = _as_codes(hands, 13) if check else np.ascontiguousarray(hands, dtype=np.uint8)
    flat = arr.reshape(-1, 13)
    out = np.empty(flat.shape[0], dtype=np.uint32)
    if not check:
        _natural_kernel.natural_bits_kernel(flat, *kernel_tables(qka), out)
    elif (bad := _natural_kernel.natural_bits_checked_kernel(flat, *kernel_tables(qka),
                                                      _natural_kernel.PACKED_BIT_ANY, out)) >= 0:
        raise _hand_error(flat, bad)
    if not sf_counts:
        _strict_rows(flat, out, qka)
    return out.reshape(arr.shape[:-1])


def _strict_rows(flat: np.ndarray, bits: np.ndarray, qka: bool) -> None:
    """Clear three straights / three flushes where only straight-flush rows make them."""
    from cpstats.hands.setting import split_positions  # setting depends on ranking only; imported lazily

    target = (1 << _natural_kernel.THREE_STRAIGHTS) | (1 << _natural_kernel.THREE_FLUSHES)
    positions = split_positions(ordered=True)
    three_masks = three_straight_masks(qka)
    for i in np.flatnonzero(bits & target):
        settings = flat[i][positions]
        ranks = settings >> 2
        suits = settings & 3
        rank_bits = (1 << ranks.astype(np.int64))
        masks = [np.bitwise_or.reduce(rank_bits[:, a:b], axis=1) for a, b in ((0, 3), (3, 8), (8, 13))]
        flush = [np.all(suits[:, a:b] == suits[:, a:a + 1], axis=1) for a, b in ((0, 3), (3, 8), (8, 13))]
        straight = [np.isin(masks[0], three_masks),
                    np.isin(masks[1], FIVE_STRAIGHT_MASKS), np.isin(masks[2], FIVE_STRAIGHT_MASKS)]
        if bits[i] & (1 << _natural_kernel.THREE_STRAIGHTS):
            ok = np.all([s & ~f for s, f in zip(straight, flush)], axis=0)
            if not ok.any():
                bits[i] &= ~np.uint32(1 << _natural_kernel.THREE_STRAIGHTS)
        if bits[i] & (1 << _natural_kernel.THREE_FLUSHES):
            ok = np.all([f & ~s for s, f in zip(straight, flush)], axis=0)
            if not ok.any():
                bits[i] &= ~np.uint32(1 << _natural_kernel.THREE_FLUSHES)


def natural_names(bits) -> list[str]:
    """Names of the naturals in one bit mask (one hand's value of :func:`natural_mask`).

    Raises
    ------
    OptionError
        Unless ``bits`` is one integer in ``0..2**18 - 1`` (a negative mask would name all 18).
    """
    value = bits[()] if isinstance(bits, np.ndarray) and bits.ndim == 0 else bits
    limit = 1 << len(NATURALS)
    if (not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_))
            or not 0 <= value < limit):
        raise OptionError(f"bits={bits!r} is invalid: one natural bit mask, an integer in "
                          f"0..{limit - 1}")
    return [name for i, name in enumerate(NATURALS) if int(value) >> i & 1]


def detect_naturals(hands, *, qka_front_straight: bool = True,
                    straight_flush_counts: bool = True) -> pd.DataFrame:
    """One boolean column per natural, one row per hand (hands of shape (N, 13) or one hand).

    Examples
    --------
    >>> df = detect_naturals(["2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s Ac"][0])
    >>> bool(df.loc[0, "six_pairs"]), bool(df.loc[0, "dragon"])
    (True, False)
    """
    bits = natural_mask(hands, qka_front_straight=qka_front_straight,
                        straight_flush_counts=straight_flush_counts).reshape(-1)
    return pd.DataFrame({name: (bits >> i & 1).astype(bool) for i, name in enumerate(NATURALS)})
