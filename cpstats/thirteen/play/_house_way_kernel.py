"""The house way's kernel (:mod:`cpstats.thirteen.play.house_way`): each rule's step on one hand and
:func:`house_way_kernel`, which applies them in the printed order to many hands. The rules' words
and their order are data in :mod:`cpstats.thirteen.play.house_way`; this module is only their code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.thirteen.play._greedy_kernel import _rank_fives

__all__ = ["house_way_kernel"]

_CACHE = True
_TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _STRAIGHT_FLUSH = 2, 3, 4, 5, 6, 8
_SEVEN, _TEN = 5, 8  # rank codes


# -- the steps (each rule's code) ----------------------------------------------------------------
# A hand is sorted by code (rank * 4 + suit) first, so the 1,287 five-card subsets come in the
# order of their lowest cards and "the first best" is "the best, lowest cards on a tie".
# ``row`` is int8[13]: 0 front, 1 middle, 2 back, -1 not placed; ``state`` is int64[2]:
# state[0] 1 when the middle holds a made hand (a straight or better).

@njit(cache=_CACHE, nogil=True)
def _counts(hand, row):
    """Cards of each rank not yet placed."""
    counts = np.zeros(13, dtype=np.int64)
    for p in range(13):
        if row[p] < 0:
            counts[hand[p] >> 2] += 1
    return counts


@njit(cache=_CACHE, nogil=True)
def _put(row, five_pos, subset, where):
    for k in range(5):
        row[five_pos[subset, k]] = where


@njit(cache=_CACHE, nogil=True)
def _put_rank(hand, row, r, count, where):
    """Place the ``count`` lowest unplaced cards of rank ``r`` in row ``where``."""
    for p in range(13):
        if count > 0 and row[p] < 0 and (hand[p] >> 2) == r:
            row[p] = where
            count -= 1


@njit(cache=_CACHE, nogil=True)
def _free(row, five_pos, b):
    for k in range(5):
        if row[five_pos[b, k]] >= 0:
            return False
    return True


@njit(cache=_CACHE, nogil=True)
def _grouped(hand, counts, five_pos, b):
    """Cards of subset ``b`` whose rank is paired (or better) among the counted cards."""
    n = 0
    for k in range(5):
        n += counts[hand[five_pos[b, k]] >> 2] >= 2
    return n


@njit(cache=_CACHE, nogil=True)
def _lowest_of_rank(hand, row, five_pos, b):
    """True when the cards of each rank in ``b`` are the lowest unplaced cards of that rank."""
    for k in range(5):
        p = five_pos[b, k]
        for q in range(p):
            if row[q] < 0 and (hand[q] >> 2) == (hand[p] >> 2):
                inside = False
                for j in range(5):
                    inside |= five_pos[b, j] == q
                if not inside:
                    return False
    return True


@njit(cache=_CACHE, nogil=True)
def _is_full_house(hand, row, five_pos, b, r5, category):
    """A full house of the lowest three cards of a rank and the lowest two of another (so a
    three of a kind with a pair, or with two cards of another three of a kind)."""
    return category[r5[b]] == _FULL_HOUSE and _lowest_of_rank(hand, row, five_pos, b)


@njit(cache=_CACHE, nogil=True)
def _row_size(row, where):
    n = 0
    for p in range(13):
        n += row[p] == where
    return n


@njit(cache=_CACHE, nogil=True)
def _row_rank(hand, row, where, card_key, card_bit, nonflush, flush):
    """Rank of the five cards in row ``where``."""
    key = 0
    bits = 0
    suits = 0
    for p in range(13):
        if row[p] == where:
            c = hand[p]
            key += card_key[c]
            bits |= card_bit[c]
            suits |= 1 << (c & 3)
    if suits & (suits - 1) == 0:
        return flush[bits]
    return nonflush[key]


@njit(cache=_CACHE, nogil=True)
def _row_category(hand, row, where, card_key, card_bit, nonflush, flush, category):
    """Category of row ``where`` (five cards), or for the front (three cards) 1 when it holds a
    pair or better, else 0."""
    n = 0
    ranks = np.zeros(13, dtype=np.int64)
    for p in range(13):
        if row[p] == where:
            ranks[hand[p] >> 2] += 1
            n += 1
    if n == 3:
        return 1 if ranks.max() >= 2 else 0
    return category[_row_rank(hand, row, where, card_key, card_bit, nonflush, flush)]


@njit(cache=_CACHE, nogil=True)
def _ranks_down(counts, low, high):
    """Ranks whose count is in ``low..high``, highest first, and how many."""
    out = np.empty(13, dtype=np.int64)
    n = 0
    for r in range(12, -1, -1):
        if low <= counts[r] <= high:
            out[n] = r
            n += 1
    return out, n


@njit(cache=_CACHE, nogil=True)
def _front_group(hand, row):
    """Rule 7's front: the highest three of a kind left, else the highest pair."""
    counts = _counts(hand, row)
    trips, nt = _ranks_down(counts, 3, 4)
    pairs, npairs = _ranks_down(counts, 2, 2)
    if nt > 0:
        _put_rank(hand, row, trips[0], 3, 0)
    elif npairs > 0:
        _put_rank(hand, row, pairs[0], 2, 0)


@njit(cache=_CACHE, nogil=True)
def _two_rows(hand, row, state, r5, category, five_pos, card_key, card_bit, nonflush, flush):
    """Rule 7: the middle and front from the eight cards beside a back."""
    counts = _counts(hand, row)
    trips, nt = _ranks_down(counts, 3, 4)
    pairs, npairs = _ranks_down(counts, 2, 2)
    back = -1  # a back of a three of a kind alone (not yet five cards) takes no made middle
    if _row_size(row, 2) == 5:
        back = _row_rank(hand, row, 2, card_key, card_bit, nonflush, flush)
    if nt > 0 and (npairs > 0 or nt > 1):
        trial = row.copy()
        _put_rank(hand, trial, trips[0], 3, 1)
        if npairs > 0:
            _put_rank(hand, trial, pairs[npairs - 1], 2, 1)
        else:
            _put_rank(hand, trial, trips[nt - 1], 2, 1)
        if _row_rank(hand, trial, 1, card_key, card_bit, nonflush, flush) <= back:
            row[:] = trial
            state[0] = 1
            _front_group(hand, row)
            return
    mid = -1
    fewest = 99
    for b in range(1287):
        c = category[r5[b]]
        if (c == _STRAIGHT or c == _FLUSH or c == _STRAIGHT_FLUSH) and r5[b] <= back \
                and _free(row, five_pos, b):
            g = _grouped(hand, counts, five_pos, b)
            if g < fewest or (g == fewest and r5[b] > r5[mid]):
                mid, fewest = b, g
    if mid >= 0:
        _put(row, five_pos, mid, 1)
        state[0] = 1
        _front_group(hand, row)
        return
    if nt > 0:
        _put_rank(hand, row, trips[0], 3, 1)
        if npairs > 0:
            _put_rank(hand, row, pairs[0], 2, 0)
    elif npairs == 1:
        _put_rank(hand, row, pairs[0], 2, 1)
    elif npairs == 2:
        _put_rank(hand, row, pairs[0], 2, 1)
        _put_rank(hand, row, pairs[1], 2, 0 if pairs[1] >= _SEVEN else 1)
    elif npairs >= 3:
        _put_rank(hand, row, pairs[1], 2, 1)
        _put_rank(hand, row, pairs[2], 2, 1)
        _put_rank(hand, row, pairs[0], 2, 0)


@njit(cache=_CACHE, nogil=True)
def _singles(hand, row, state):
    """Rule 8: a middle with no pair and no made hand takes the highest card left first; then
    the cards left fill the front, the middle and the back, highest first (equal ranks: lowest
    suit first); a middle holding three of a kind takes no card of a rank it holds while another
    card is left."""
    order = np.empty(13, dtype=np.int64)
    n = 0
    for r in range(12, -1, -1):
        for p in range(13):
            if row[p] < 0 and (hand[p] >> 2) == r:
                order[n] = p
                n += 1
    mid = np.zeros(13, dtype=np.int64)
    for p in range(13):
        if row[p] == 1:
            mid[hand[p] >> 2] += 1
    used = np.zeros(13, dtype=np.bool_)
    if state[0] == 0 and mid.max() <= 1 and n > 0:
        row[order[0]] = 1
        mid[hand[order[0]] >> 2] += 1
        used[0] = True
    for where, size in ((0, 3), (1, 5), (2, 5)):
        have = 0
        for p in range(13):
            have += row[p] == where
        while have < size:
            pick = -1
            for k in range(n):
                if not used[k]:
                    if pick < 0:
                        pick = k
                    if where == 1 and mid.max() == 3 and mid[hand[order[k]] >> 2] > 0:
                        continue
                    pick = k
                    break
            used[pick] = True
            row[order[pick]] = where
            if where == 1:
                mid[hand[order[pick]] >> 2] += 1
            have += 1


@njit(cache=_CACHE, nogil=True)
def _royal_back(hand, row, r5, category, five_pos):
    """Rule 2: the best straight flush, else the highest four of a kind with the lowest card
    of a rank held once (else the lowest other card), in the back. True when it applied."""
    back = -1
    for b in range(1287):
        if category[r5[b]] == _STRAIGHT_FLUSH and (back < 0 or r5[b] > r5[back]):
            back = b
    if back >= 0:
        _put(row, five_pos, back, 2)
        return True
    counts = _counts(hand, row)
    quads, nq = _ranks_down(counts, 4, 4)
    if nq == 0:
        return False
    _put_rank(hand, row, quads[0], 4, 2)
    kicker = -1
    for p in range(13):
        if row[p] < 0 and kicker < 0 and counts[hand[p] >> 2] == 1:
            kicker = p
    for p in range(13):
        if row[p] < 0 and kicker < 0:
            kicker = p
    row[kicker] = 2
    return True


@njit(cache=_CACHE, nogil=True)
def _before(hand_pos_a, hand_pos_b):
    """True when sorted positions ``a`` come before ``b`` (the lower cards)."""
    for k in range(hand_pos_a.size):
        if hand_pos_a[k] != hand_pos_b[k]:
            return hand_pos_a[k] < hand_pos_b[k]
    return False


@njit(cache=_CACHE, nogil=True)
def _two_made(hand, row, state, r5, category, five_pos, rest_mid):
    """Rule 3: two made hands (straight, flush or full house) from different cards, the
    stronger in the back: the pair leaving the highest pair or three of a kind for the front,
    then the strongest middle, then the strongest back. True when it applied."""
    best_b = -1
    best_m = -1
    best_front = -2
    cards = np.empty(10, dtype=np.int64)
    best_cards = np.empty(10, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    for b in range(1287):
        c = category[r5[b]]
        if not (c == _STRAIGHT or c == _FLUSH
                or (c == _FULL_HOUSE and _is_full_house(hand, row, five_pos, b, r5, category))):
            continue
        for k in range(5):
            row[five_pos[b, k]] = 2
        for j in range(56):
            m = rest_mid[b, j]
            cm = category[r5[m]]
            if r5[m] > r5[b]:
                continue
            if not (cm == _STRAIGHT or cm == _FLUSH or cm == _STRAIGHT_FLUSH
                    or (cm == _FULL_HOUSE and _is_full_house(hand, row, five_pos, m, r5,
                                                             category))):
                continue
            counts[:] = 0
            taken = np.zeros(13, dtype=np.bool_)
            for k in range(5):
                taken[five_pos[b, k]] = True
                taken[five_pos[m, k]] = True
            for p in range(13):
                if not taken[p]:
                    counts[hand[p] >> 2] += 1
            front = -1
            for r in range(13):
                if counts[r] >= 2:
                    front = r
            n = 0
            for p in range(13):
                if taken[p]:
                    cards[n] = p
                    n += 1
            better = best_b < 0 or front > best_front or (front == best_front and (
                r5[m] > r5[best_m] or (r5[m] == r5[best_m] and (
                    r5[b] > r5[best_b] or (r5[b] == r5[best_b]
                                           and _before(cards, best_cards))))))
            if better:
                best_b, best_m, best_front = b, m, front
                best_cards[:] = cards
        for k in range(5):
            row[five_pos[b, k]] = -1
    if best_b < 0:
        return False
    _put(row, five_pos, best_b, 2)
    _put(row, five_pos, best_m, 1)
    state[0] = 1
    _front_group(hand, row)
    return True


@njit(cache=_CACHE, nogil=True)
def _one_made(hand, row, r5, category, five_pos):
    """Rule 4: the straight or flush using the fewest cards of pairs and three of a kinds,
    then the strongest, in the back. True when it applied."""
    counts = _counts(hand, row)
    back = -1
    fewest = 99
    for b in range(1287):
        c = category[r5[b]]
        if c == _STRAIGHT or c == _FLUSH:
            g = _grouped(hand, counts, five_pos, b)
            if g < fewest or (g == fewest and r5[b] > r5[back]):
                back, fewest = b, g
    if back < 0:
        return False
    _put(row, five_pos, back, 2)
    return True


@njit(cache=_CACHE, nogil=True)
def _groups(hand, row, state, r5, category, five_pos, card_key, card_bit, nonflush, flush):
    """Rule 6: the back from the groups (no straight or flush), then rule 7 or the pairs."""
    counts = _counts(hand, row)
    trips, nt = _ranks_down(counts, 3, 4)
    pairs, n = _ranks_down(counts, 2, 2)
    if nt > 0:
        _put_rank(hand, row, trips[0], 3, 2)
        if n > 0:
            _put_rank(hand, row, pairs[n - 1], 2, 2)
        elif nt > 1:
            _put_rank(hand, row, trips[nt - 1], 2, 2)
        _two_rows(hand, row, state, r5, category, five_pos, card_key, card_bit, nonflush, flush)
    elif n == 1:
        _put_rank(hand, row, pairs[0], 2, 2)
    elif n == 2:
        _put_rank(hand, row, pairs[0], 2, 2)
        _put_rank(hand, row, pairs[1], 2, 1)
    elif n == 3:
        _put_rank(hand, row, pairs[0], 2, 2)
        _put_rank(hand, row, pairs[1], 2, 1)
        _put_rank(hand, row, pairs[2], 2, 0)
    elif n == 4 and pairs[1] >= _TEN:
        _put_rank(hand, row, pairs[2], 2, 2)
        _put_rank(hand, row, pairs[3], 2, 2)
        _put_rank(hand, row, pairs[0], 2, 1)
        _put_rank(hand, row, pairs[1], 2, 0)
    elif n == 4:
        _put_rank(hand, row, pairs[0], 2, 2)
        _put_rank(hand, row, pairs[3], 2, 2)
        _put_rank(hand, row, pairs[1], 2, 1)
        _put_rank(hand, row, pairs[2], 2, 1)
    elif n >= 5:
        _put_rank(hand, row, pairs[1], 2, 2)
        _put_rank(hand, row, pairs[4], 2, 2)
        _put_rank(hand, row, pairs[2], 2, 1)
        _put_rank(hand, row, pairs[3], 2, 1)
        _put_rank(hand, row, pairs[0], 2, 0)
    _singles(hand, row, state)


@njit(cache=_CACHE, nogil=True)
def _groups_instead(hand, row, state, alt, card_key, card_bit, nonflush, flush, category):
    """Rule 5: whether the groups' set ``alt`` (rule 6) replaces rule 4's ``row``."""
    if state[0] == 1:
        return False
    if _row_category(hand, alt, 2, card_key, card_bit, nonflush, flush, category) == _FULL_HOUSE:
        return _row_category(hand, row, 1, card_key, card_bit, nonflush, flush, category) \
            < _TRIPS
    if _row_category(hand, row, 0, card_key, card_bit, nonflush, flush, category) > 0:
        return False
    return (_row_category(hand, alt, 2, card_key, card_bit, nonflush, flush, category)
            >= _TWO_PAIR
            and _row_category(hand, alt, 1, card_key, card_bit, nonflush, flush, category) >= 1
            and _row_category(hand, alt, 0, card_key, card_bit, nonflush, flush, category) > 0)


@njit(cache=_CACHE, nogil=True, _nrt=True)
def house_way_kernel(hands, card_key, card_bit, nonflush, flush, category, five_pos, rest_mid,
                     out):
    """House-way settings of ``hands`` (uint8[N, 13]) into ``out``, front|middle|back: rules 2 to
    8 of :data:`HOUSE_WAY` in order (rule 1, the natural, is declared outside)."""
    r5 = np.empty(1287, dtype=np.uint16)
    hand = np.empty(13, dtype=np.uint8)
    row = np.empty(13, dtype=np.int8)
    alt = np.empty(13, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    alt_state = np.zeros(1, dtype=np.int64)
    for i in range(hands.shape[0]):
        hand[:] = np.sort(hands[i])
        _rank_fives(hand, card_key, card_bit, nonflush, flush, r5)
        row[:] = -1
        state[0] = 0
        if _royal_back(hand, row, r5, category, five_pos):
            _two_rows(hand, row, state, r5, category, five_pos, card_key, card_bit, nonflush,
                      flush)
            _singles(hand, row, state)
        elif _two_made(hand, row, state, r5, category, five_pos, rest_mid):
            _singles(hand, row, state)
        elif _one_made(hand, row, r5, category, five_pos):
            alt[:] = -1
            alt_state[0] = 0
            _groups(hand, alt, alt_state, r5, category, five_pos, card_key, card_bit, nonflush,
                    flush)
            counts = _counts(hand, row)
            _, nt = _ranks_down(counts, 3, 4)
            _, npairs = _ranks_down(counts, 2, 2)
            if nt > 0 and npairs >= 2:
                row[:] = alt
            else:
                _two_rows(hand, row, state, r5, category, five_pos, card_key, card_bit,
                          nonflush, flush)
                _singles(hand, row, state)
                if _groups_instead(hand, row, state, alt, card_key, card_bit, nonflush, flush,
                                   category):
                    row[:] = alt
        else:
            _groups(hand, row, state, r5, category, five_pos, card_key, card_bit, nonflush,
                    flush)
        slot = np.zeros(3, dtype=np.int64)
        start = (0, 3, 8)
        for p in range(13):
            w = row[p]
            out[i, start[w] + slot[w]] = hand[p]
            slot[w] += 1
