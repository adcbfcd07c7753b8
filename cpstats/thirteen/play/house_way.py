"""The house way: the fixed rules a dealer follows to set a banked game's bank hand.

In house-banked table games the bank does not choose: it sets by a printed house way (pai gow
poker's are the model), and the edge a regulator approves is the players' expectation against
it. :data:`HOUSE_WAY` holds the rules as data, in the order they are applied, each with the
sentence a dealer reads and the code that applies it; :func:`house_way_words` numbers them for
a PAR sheet. :class:`HouseWaySetter` (name ``"house-way"``) sets hands by them wherever a
13-card setter is taken.

The rules work on groups (three of a kind, pairs) and on *made hands* (a straight or better),
in the spirit of a house way: royalty hands first, two made hands for back and middle, one made
hand unless the pairs play better, then the groups highest first, then the single cards. They
were chosen against the ``ev`` setter on duplicate deals of the ``banked`` preset
(``benchmarks/house_way_cost.py``; the cost is in ``docs/house_way.md``). Equal choices (suits)
go to the lowest cards, so a hand has one setting. No set fouls: the groups go highest first,
down the rows, and a middle without a pair takes the highest single.

- Decision: a natural the variant pays is always declared (as the baselines do); a dealer does
  not weigh it against the hand.
- Decision: the rules read H1 and H4 hands (straights through the ordering's tables); under H5
  (a low middle) there is no house way and the setter says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

import numpy as np
from numba import njit

from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.thirteen.play._greedy_kernel import _rank_fives
from cpstats.thirteen.play._kernel_args import _low_middle, _rank_args, _subset_tables
from cpstats.thirteen.play.api import Decisions, best_natural_bits, register_strategy
from cpstats.thirteen.play.setters import HandSetter
from cpstats.thirteen.rules.variant import Variant

__all__ = ["HouseRule", "HOUSE_WAY", "HOUSE_WAY_WORDS", "house_way_words", "house_way",
           "HouseWaySetter"]

_CACHE = True
_STRAIGHT, _FLUSH, _QUADS = 4, 5, 7
_TWO_PAIR, _PAIR = 2, 1
_EIGHT = 6  # rank code of an eight


# -- the steps (each rule's code) ----------------------------------------------------------------
# A hand is sorted by code (rank * 4 + suit) first, so the 1,287 five-card subsets come in the
# order of their lowest cards and "the first best" is "the best, lowest cards on a tie".
# ``row`` is int8[13]: 0 front, 1 middle, 2 back, -1 not placed; ``made`` is bool[3].

@njit(cache=_CACHE, nogil=True)
def _best_made_left(row, r5, category, rest_mid, b):
    """The best straight-or-better among the cards left beside back subset ``b`` (index into the
    1,287, -1 when none)."""
    best = -1
    for j in range(56):
        m = rest_mid[b, j]
        if category[r5[m]] >= _STRAIGHT and (best < 0 or r5[m] > r5[best]):
            best = m
    return best


@njit(cache=_CACHE, nogil=True)
def _put(row, five_pos, subset, where):
    for k in range(5):
        row[five_pos[subset, k]] = where


@njit(cache=_CACHE, nogil=True)
def _royal_back(row, made, r5, category, five_pos, rest_mid):
    """Rule 2: the best straight flush or four of a kind in the back, the best straight or better
    left in the middle. True when it applied."""
    back = -1
    for b in range(1287):
        if category[r5[b]] >= _QUADS and (back < 0 or r5[b] > r5[back]):
            back = b
    if back < 0:
        return False
    _put(row, five_pos, back, 2)
    made[2] = True
    mid = _best_made_left(row, r5, category, rest_mid, back)
    if mid >= 0:
        _put(row, five_pos, mid, 1)
        made[1] = True
    return True


@njit(cache=_CACHE, nogil=True)
def _two_made(row, made, r5, category, five_pos, rest_mid):
    """Rule 3: two straights-or-better from different cards: the strongest back that leaves one
    no stronger than itself, then the strongest middle. True when it applied."""
    back = -1
    mid = -1
    for b in range(1287):
        if category[r5[b]] < _STRAIGHT:
            continue
        m = _best_made_left(row, r5, category, rest_mid, b)
        if m < 0 or r5[m] > r5[b]:
            continue
        if back < 0 or r5[b] > r5[back] or (r5[b] == r5[back] and r5[m] > r5[mid]):
            back, mid = b, m
    if back < 0:
        return False
    _put(row, five_pos, back, 2)
    _put(row, five_pos, mid, 1)
    made[2] = True
    made[1] = True
    return True


@njit(cache=_CACHE, nogil=True)
def _paired_left(hand, five_pos, b):
    """Cards in pairs or better among the eight cards beside five-card subset ``b``."""
    counts = np.zeros(13, dtype=np.int64)
    taken = np.zeros(13, dtype=np.bool_)
    for k in range(5):
        taken[five_pos[b, k]] = True
    for p in range(13):
        if not taken[p]:
            counts[hand[p] >> 2] += 1
    total = 0
    for r in range(13):
        if counts[r] >= 2:
            total += counts[r]
    return total


@njit(cache=_CACHE, nogil=True)
def _one_made(hand, row, made, r5, category, five_pos):
    """Rule 4: the straight or better that leaves the most cards in pairs or better, then the
    strongest. True when it applied."""
    back = -1
    kept = -1
    for b in range(1287):
        if category[r5[b]] < _STRAIGHT:
            continue
        left = _paired_left(hand, five_pos, b)
        if left > kept or (left == kept and r5[b] > r5[back]):
            back, kept = b, left
    if back < 0:
        return False
    _put(row, five_pos, back, 2)
    made[2] = True
    return True


@njit(cache=_CACHE, nogil=True)
def _place_groups(hand, row, made):
    """Rule 6: the empty rows take the three of a kinds, then the pairs, highest first, back to
    front; four pairs and nothing else placed go as the rule says. Returns the ranks of the
    pairs left over (a 13-bit mask)."""
    counts = np.zeros(13, dtype=np.int64)
    for p in range(13):
        if row[p] < 0:
            counts[hand[p] >> 2] += 1
    groups = np.empty(6, dtype=np.int64)
    n = 0
    for size in (3, 2):
        for r in range(12, -1, -1):
            if counts[r] == size or (size == 3 and counts[r] == 4):
                groups[n] = r
                n += 1
    npairs = 0
    ntrips = 0
    for r in range(13):
        npairs += counts[r] == 2
        ntrips += counts[r] >= 3
    empty = np.empty(3, dtype=np.int64)
    e = 0
    for where in (2, 1, 0):
        filled = False
        for p in range(13):
            filled |= row[p] == where
        if not filled:
            empty[e] = where
            e += 1
    if e == 3 and ntrips == 0 and npairs == 4:
        a, b, c, d = groups[0], groups[1], groups[2], groups[3]
        if b >= _EIGHT:
            _put_rank(hand, row, a, 2, 1)
            _put_rank(hand, row, b, 2, 0)
            _put_rank(hand, row, c, 2, 2)
            _put_rank(hand, row, d, 2, 2)
        else:
            _put_rank(hand, row, a, 2, 2)
            _put_rank(hand, row, d, 2, 2)
            _put_rank(hand, row, b, 2, 1)
            _put_rank(hand, row, c, 2, 1)
        return np.int64(0)
    left = np.int64(0)
    for g in range(n):
        size = 3 if counts[groups[g]] >= 3 else 2
        if g < e:
            _put_rank(hand, row, groups[g], size, empty[g])
        elif size == 2:
            left |= np.int64(1) << groups[g]
    return left


@njit(cache=_CACHE, nogil=True)
def _put_rank(hand, row, r, count, where):
    """Place the ``count`` lowest unplaced cards of rank ``r`` in row ``where``."""
    for p in range(13):
        if count > 0 and row[p] < 0 and (hand[p] >> 2) == r:
            row[p] = where
            count -= 1


@njit(cache=_CACHE, nogil=True)
def _row_size(row, where):
    n = 0
    for p in range(13):
        n += row[p] == where
    return n


@njit(cache=_CACHE, nogil=True)
def _place_extra_pairs(hand, row, made, left):
    """Rule 7: a pair left over joins the back if it fits (not a made hand, five cards at
    most), else the middle; otherwise its cards are singles. Highest pair first."""
    for r in range(12, -1, -1):
        if not (left >> r) & 1:
            continue
        for where in (2, 1):
            if not made[where] and _row_size(row, where) + 2 <= 5:
                _put_rank(hand, row, r, 2, where)
                break


@njit(cache=_CACHE, nogil=True)
def _place_singles(hand, row, made):
    """Rule 8: a middle without a pair takes the highest single first; then the singles fill
    the front, the middle and the back, highest first (equal ranks: lowest suit first)."""
    seen = 0
    paired = False
    for p in range(13):
        if row[p] == 1:
            for q in range(p):
                paired |= row[q] == 1 and (hand[q] >> 2) == (hand[p] >> 2)
            seen += 1
    order = np.empty(13, dtype=np.int64)
    n = 0
    for r in range(12, -1, -1):
        for p in range(13):
            if row[p] < 0 and (hand[p] >> 2) == r:
                order[n] = p
                n += 1
    k = 0
    if not made[1] and not paired and seen < 5 and k < n:
        row[order[k]] = 1
        k += 1
    for where, size in ((0, 3), (1, 5), (2, 5)):
        have = _row_size(row, where)
        while have < size and k < n:
            row[order[k]] = where
            k += 1
            have += 1


@njit(cache=_CACHE, nogil=True)
def _row_category(hand, row, where, card_key, card_bit, nonflush, flush, category):
    """Category of row ``where`` (five cards), or for the front (three cards) 1 when it holds a
    pair or better, else 0."""
    key = 0
    bits = 0
    suits = 0
    ranks = np.zeros(13, dtype=np.int64)
    n = 0
    for p in range(13):
        if row[p] == where:
            c = hand[p]
            key += card_key[c]
            bits |= card_bit[c]
            suits |= 1 << (c & 3)
            ranks[c >> 2] += 1
            n += 1
    if n == 3:
        return 1 if ranks.max() >= 2 else 0
    if suits & (suits - 1) == 0:
        return category[flush[bits]]
    return category[nonflush[key]]


@njit(cache=_CACHE, nogil=True)
def _pairs_instead(hand, row, made, card_key, card_bit, nonflush, flush, category, alt):
    """Rule 5: a straight or flush alone gives way to the pairs (``alt``, set by rules 6 to 8
    alone) when they put two pair in the back and a pair in the middle and the front while the
    straight or flush leaves the front without a pair. True when it applied."""
    back = _row_category(hand, row, 2, card_key, card_bit, nonflush, flush, category)
    if made[1] or back > _FLUSH:
        return False
    if _row_category(hand, row, 0, card_key, card_bit, nonflush, flush, category) > 0:
        return False
    if (_row_category(hand, alt, 2, card_key, card_bit, nonflush, flush, category) >= _TWO_PAIR
            and _row_category(hand, alt, 1, card_key, card_bit, nonflush, flush, category) >= _PAIR
            and _row_category(hand, alt, 0, card_key, card_bit, nonflush, flush, category) > 0):
        row[:] = alt
        return True
    return False


@njit(cache=_CACHE, nogil=True)
def _groups_and_singles(hand, row, made):
    left = _place_groups(hand, row, made)
    _place_extra_pairs(hand, row, made, left)
    _place_singles(hand, row, made)


@njit(cache=_CACHE, nogil=True, _nrt=True)
def house_way_kernel(hands, card_key, card_bit, nonflush, flush, category, five_pos, rest_mid,
                     out):
    """House-way settings of ``hands`` (uint8[N, 13]) into ``out``, front|middle|back: rules 2 to
    8 of :data:`HOUSE_WAY` in order (rule 1, the natural, is declared outside)."""
    r5 = np.empty(1287, dtype=np.uint16)
    hand = np.empty(13, dtype=np.uint8)
    row = np.empty(13, dtype=np.int8)
    alt = np.empty(13, dtype=np.int8)
    made = np.zeros(3, dtype=np.bool_)
    none = np.zeros(3, dtype=np.bool_)
    for i in range(hands.shape[0]):
        hand[:] = np.sort(hands[i])
        _rank_fives(hand, card_key, card_bit, nonflush, flush, r5)
        row[:] = -1
        made[:] = False
        if not _royal_back(row, made, r5, category, five_pos, rest_mid):
            if not _two_made(row, made, r5, category, five_pos, rest_mid):
                if _one_made(hand, row, made, r5, category, five_pos):
                    alt[:] = -1
                    _groups_and_singles(hand, alt, none)
                    _groups_and_singles(hand, row, made)
                    _pairs_instead(hand, row, made, card_key, card_bit, nonflush, flush,
                                   category, alt)
        _groups_and_singles(hand, row, made)
        slot = np.zeros(3, dtype=np.int64)
        start = (0, 3, 8)
        for p in range(13):
            w = row[p]
            out[i, start[w] + slot[w]] = hand[p]
            slot[w] += 1


# -- the rules as data -------------------------------------------------------------------------

def _declare(hands: np.ndarray, variant: Variant) -> np.ndarray:
    """Rule 1's code: declare every natural the variant's schedule pays."""
    return best_natural_bits(hands, variant) != 0


@dataclass(frozen=True)
class HouseRule:
    """One rule of the house way: a short ``title``, the sentence a dealer reads (``words``) and
    the ``code`` that applies it (a step of :func:`house_way_kernel`, or the natural's test)."""

    title: str
    words: str
    code: Callable[..., Any]

    def __post_init__(self) -> None:
        if not self.words.strip() or not callable(self.code):
            raise OptionError(f"house rule {self.title!r} is invalid: it needs words and code")


#: The house way, in the order the rules apply.
HOUSE_WAY: tuple[HouseRule, ...] = (
    HouseRule("natural",
              "If the thirteen cards hold a natural the rules pay, declare it (the cards are "
              "still set by the rules below).", _declare),
    HouseRule("royalty back",
              "If the cards hold a straight flush or four of a kind, put the best of them in "
              "the back, and the best straight or better left, if any, in the middle.",
              _royal_back),
    HouseRule("two made hands",
              "Otherwise, if the cards make two straights-or-better from different cards, put "
              "them in the back and the middle: the strongest back that leaves one no stronger "
              "than itself, then the strongest middle.", _two_made),
    HouseRule("one made hand",
              "Otherwise, if the cards make a straight or better, put in the back the one that "
              "leaves the most cards in pairs and three of a kinds, and of those the strongest.",
              _one_made),
    HouseRule("pairs over a straight or flush",
              "But if that back is a straight or a flush that leaves the front without a pair, "
              "and setting the hand by rules 6 to 8 alone gives two pair or better in the back "
              "and a pair or better in the middle and in the front, set it that way instead.",
              _pairs_instead),
    HouseRule("groups",
              "The rows still empty take the three of a kinds, then the pairs, highest first, "
              "back, then middle, then front; but with exactly four pairs and nothing else, "
              "put the highest pair in the middle, the second in front and the two lowest in "
              "the back if the second pair is eights or better, else the highest and lowest "
              "pairs in the back and the other two in the middle.", _place_groups),
    HouseRule("pairs left over",
              "A pair left over joins the back if it fits (the back is not a straight or "
              "better and has room), else the middle on the same terms, highest pair first; "
              "otherwise its cards are singles.", _place_extra_pairs),
    HouseRule("singles",
              "A middle with no pair or better takes the highest single card first; then the "
              "single cards fill the front, then the middle, then the back, highest first.",
              _place_singles),
)


def house_way_words() -> tuple[str, ...]:
    """The house way as numbered sentences, in order (for a PAR sheet or a dealer's card)."""
    return tuple(f"{n}. {rule.words}" for n, rule in enumerate(HOUSE_WAY, start=1))


# -- the setter --------------------------------------------------------------------------------

def house_way(hands: np.ndarray, variant: Variant, *,
              rng: np.random.Generator | None = None) -> Decisions:
    """Set ``hands`` (``uint8[N, 13]``, dealt codes) by the house way; declares every natural
    the variant pays, never surrenders. ``rng`` is unused (the house way is fixed)."""
    if _low_middle(variant):
        raise OptionError(f"setter='house-way' is invalid for {variant}: the house way sets "
                          "high-hand rows (H1, H4), not a low middle (H5)")
    arr = np.ascontiguousarray(hands, dtype=np.uint8).reshape(-1, 13)
    key, bit, nonflush, flush, _, _, _ = _rank_args(variant)
    category = _tables.five_card_tables(variant.ranking.value).category
    five_pos, _, rest_mid, _ = _subset_tables()
    out = np.empty_like(arr)
    house_way_kernel(arr, key, bit, nonflush, flush, category, five_pos,
                     np.ascontiguousarray(rest_mid), out)
    return Decisions(out, _declare(arr, variant), np.zeros(arr.shape[0], dtype=bool))


#: The house way in words wherever a setter is named: neither good play nor a weak baseline.
HOUSE_WAY_WORDS = "house way: the dealer's fixed rules"


@dataclass(frozen=True)
class HouseWaySetter(HandSetter):
    """The house way (:data:`HOUSE_WAY`) as a 13-card setter: fixed rules, no settings. Its
    figures are the house way's (:data:`HOUSE_WAY_WORDS`), not good play's nor a baseline's."""

    name: ClassVar[str] = "house-way"
    words: ClassVar[str] = HOUSE_WAY_WORDS

    def bind(self, variant: Variant) -> tuple[Callable[..., Any], dict[str, Any]]:
        return house_way, {}


register_strategy("house-way", house_way)
