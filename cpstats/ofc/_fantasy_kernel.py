"""Kernel of the exact Fantasyland solver: the best setting of 13 of 13..17 cards.

Plain arrays in, arithmetic only (the Python side is :mod:`cpstats.ofc.fantasyland`). The
search is branch and bound over (back, middle, front):

1. every 5-card subset of the hand is ranked once (index: the colex rank of its positions) and
   every 3-card subset likewise;
2. backs are visited best upper bound first, the bound being the back's royalty plus the best
   middle + front royalty among the hand's subsets with the middle ranked <= the back and the
   front <= the middle on the common scale (cards may overlap), plus the stay value where such
   rows could stay; the loop stops at the first back whose bound cannot beat the best found;
3. for a back, each middle of the cards left (rank <= the back's) is bounded by its royalty and
   the best front of the cards left allowed under it (fronts sorted by common-scale value,
   prefix maxima), and only then are the fronts of the last n - 10 cards scanned.

The objective is lexicographic: ``value = royalty + (stays ? stay_value : 0)`` first, then the
sum of the three row strengths (each the chance the row beats a random row of its size, ties
half: ``strength3``/``strength5``), then the first setting in enumeration order over the cards
sorted by code, high first. So the answer depends only on the set of cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_CACHE = True


@njit(cache=_CACHE, nogil=True)
def _binomials(n):
    table = np.zeros((n + 1, 6), dtype=np.int64)
    for i in range(n + 1):
        table[i, 0] = 1
        for k in range(1, 6):
            if i > 0:
                table[i, k] = table[i - 1, k - 1] + table[i - 1, k]
    return table


@njit(cache=_CACHE, nogil=True)
def _beats(value, strength, best_value, best_strength):
    return value > best_value or (value == best_value and strength > best_strength)


@njit(cache=_CACHE, nogil=True)
def _rank5(c0, c1, c2, c3, c4, card_key, card_bit, nonflush, flush):
    if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
        return np.int64(flush[card_bit[c0] | card_bit[c1] | card_bit[c2] | card_bit[c3] | card_bit[c4]])
    return np.int64(nonflush[card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3] + card_key[c4]])


@njit(cache=_CACHE, nogil=True)
def _five_subsets(codes, binom, card_key, card_bit, nonflush, flush):
    """Rank and position mask of every 5-card subset, indexed by colex rank."""
    n = codes.shape[0]
    count = binom[n, 5]
    ranks = np.empty(count, dtype=np.int64)
    masks = np.empty(count, dtype=np.int64)
    for e in range(4, n):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        i = binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]
                        ranks[i] = _rank5(codes[a], codes[b], codes[c], codes[d], codes[e],
                                          card_key, card_bit, nonflush, flush)
                        masks[i] = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
    return ranks, masks


@njit(cache=_CACHE, nogil=True)
def _three_ranks(codes, binom, three):
    n = codes.shape[0]
    ranks = np.empty(binom[n, 3], dtype=np.int64)
    for c in range(2, n):
        for b in range(1, c):
            for a in range(b):
                i = binom[a, 1] + binom[b, 2] + binom[c, 3]
                ranks[i] = three[(codes[a] >> 2) * 169 + (codes[b] >> 2) * 13 + (codes[c] >> 2)]
    return ranks


@njit(cache=_CACHE, nogil=True)
def _front_prefix(r3, front_common, front_royalty, stay_front, strength3):
    """Fronts (rank3 values ``r3``) by common-scale value, with prefix maxima of royalty, of
    royalty among staying fronts (-inf if none), and of strength: the best front allowed under
    a middle of common value ``c`` sits at ``searchsorted(common, c, "right") - 1``."""
    order = np.argsort(front_common[r3], kind="mergesort")
    k = r3.shape[0]
    common = np.empty(k, dtype=np.int64)
    royalty = np.empty(k, dtype=np.float64)
    staying = np.empty(k, dtype=np.float64)
    strength = np.empty(k, dtype=np.float64)
    best, best_stay, best_strength = -np.inf, -np.inf, -np.inf
    for j in range(k):
        r = r3[order[j]]
        best = max(best, front_royalty[r])
        if stay_front[r]:
            best_stay = max(best_stay, front_royalty[r])
        best_strength = max(best_strength, strength3[r])
        common[j] = front_common[r]
        royalty[j] = best
        staying[j] = best_stay
        strength[j] = best_strength
    return common, royalty, staying, strength


@njit(cache=_CACHE, nogil=True)
def _front_bound(prefix, mc):
    """(best royalty, best royalty of a staying front, best strength) of the fronts allowed under
    a middle of common value ``mc`` (-inf where there is none)."""
    j = np.searchsorted(prefix[0], mc, side="right") - 1
    if j < 0:
        return -np.inf, -np.inf, -np.inf
    return prefix[1][j], prefix[2][j], prefix[3][j]


# Bounds add the stay value last to a whole number of royalty points, as the search does for a
# setting's value: float addition is monotone, so a bound is never below the value it bounds,
# and ties in exact arithmetic stay ties.
@njit(cache=_CACHE, nogil=True)
def _bound(plain, staying, stays, stay_value):
    """Value bound from the best royalty ``plain`` and the best royalty of a staying completion
    ``staying``, given whether the rows placed already stay."""
    if stays:
        return plain + stay_value
    return max(plain, staying + stay_value)


@njit(cache=_CACHE, nogil=True)
def _back_bounds(r5, r3, front_royalty, middle_royalty, back_royalty, front_common, middle_common,
                 stay_front, stay_middle, stay_back, strength3, strength5, stay_value):
    """Upper bounds (value, strength) of any setting with each 5-subset as its back: the best
    middle of rank <= the back's with the best front allowed under it (cards may overlap)."""
    prefix = _front_prefix(r3, front_common, front_royalty, stay_front, strength3)
    by_rank = np.argsort(r5, kind="mergesort")
    plain = -np.inf  # best middle + front royalty
    staying = -np.inf  # the same among middle + front pairs that stay
    ub_value = np.empty(r5.shape[0], dtype=np.float64)
    ub_strength = np.empty(r5.shape[0], dtype=np.float64)
    for j in range(by_rank.shape[0]):
        i = by_rank[j]
        r = r5[i]
        f_plain, f_staying, f_strength = _front_bound(prefix, middle_common[r])
        plain = max(plain, middle_royalty[r] + f_plain)
        staying = max(staying, middle_royalty[r] + (f_plain if stay_middle[r] else f_staying))
        ub_value[i] = _bound(back_royalty[r] + plain, back_royalty[r] + staying, stay_back[r],
                             stay_value)
        ub_strength[i] = 2.0 * strength5[r] + f_strength
    return ub_value, ub_strength


@njit(cache=_CACHE, nogil=True)
def _visit_order(ub_value, ub_strength):
    """Backs by upper bound, best first (value, then strength)."""
    order = np.argsort(-ub_strength, kind="mergesort")
    by_value = np.argsort(-ub_value[order], kind="mergesort")
    return order[by_value]


@njit(cache=_CACHE, nogil=True)
def solve_kernel(cards, card_key, card_bit, nonflush, flush, three, front_royalty, middle_royalty,
                 back_royalty, front_common, middle_common, stay_front, stay_middle, stay_back,
                 strength3, strength5, stay_value, out_board, out_discards):
    """Best setting of 13 of ``cards`` (int8[n], n = 13..17, distinct codes 0..51).

    Arguments after ``cards`` are, in order: the H1 rank tables (``CARD_KEY``, ``CARD_BIT``, the
    non-flush and flush tables, the 13**3 three-card table), the variant's ``RuleArrays`` arrays
    (front/middle/back royalty, front/middle common, stay front/middle/back), the row strength
    tables, ``stay_value`` (float, >= 0), and the outputs ``out_board`` int8[13] (front, middle,
    back) and ``out_discards`` int8[n - 13]. Returns ``(value, royalty, stays, fouled)``.
    ``cpstats.ofc.fantasyland.kernel_args(variant)`` builds the argument tuple.
    """
    n = cards.shape[0]
    codes = np.sort(cards.astype(np.int64))[::-1].copy()
    binom = _binomials(n)
    r5, m5 = _five_subsets(codes, binom, card_key, card_bit, nonflush, flush)
    r3 = _three_ranks(codes, binom, three)
    ub_value, ub_strength = _back_bounds(r5, r3, front_royalty, middle_royalty, back_royalty,
                                         front_common, middle_common, stay_front, stay_middle,
                                         stay_back, strength3, strength5, stay_value)
    order = _visit_order(ub_value, ub_strength)
    full = (1 << n) - 1
    best_value = -np.inf
    best_strength = -np.inf
    best = np.full(3, -1, dtype=np.int64)  # back, middle, front subset indices
    best_royalty = 0
    best_stays = False
    rest = np.empty(n, dtype=np.int64)
    left = np.empty(n, dtype=np.int64)
    for k in range(order.shape[0]):
        bi = order[k]
        if not _beats(ub_value[bi], ub_strength[bi], best_value, best_strength):
            break
        rb = r5[bi]
        m = 0
        for p in range(n):
            if not (m5[bi] >> p) & 1:
                rest[m] = p
                m += 1
        # The fronts of the cards left bound each middle's completions.
        rest3 = np.empty(binom[m, 3], dtype=np.int64)
        for z in range(2, m):
            for y in range(1, z):
                for x in range(y):
                    rest3[binom[x, 1] + binom[y, 2] + binom[z, 3]] = r3[
                        binom[rest[x], 1] + binom[rest[y], 2] + binom[rest[z], 3]]
        prefix = _front_prefix(rest3, front_common, front_royalty, stay_front, strength3)
        b_value = back_royalty[rb]
        b_stay = stay_back[rb]
        b_strength = strength5[rb]
        for i4 in range(4, m):
            for i3 in range(3, i4):
                for i2 in range(2, i3):
                    for i1 in range(1, i2):
                        for i0 in range(i1):
                            mi = (binom[rest[i0], 1] + binom[rest[i1], 2] + binom[rest[i2], 3]
                                  + binom[rest[i3], 4] + binom[rest[i4], 5])
                            rm = r5[mi]
                            if rm > rb:
                                continue
                            bm_royalty = b_value + middle_royalty[rm]
                            bm_stay = b_stay or stay_middle[rm]
                            bm_strength = b_strength + strength5[rm]
                            f_plain, f_staying, f_strength = _front_bound(prefix, middle_common[rm])
                            bound = _bound(bm_royalty + f_plain, bm_royalty + f_staying, bm_stay,
                                           stay_value)
                            if not _beats(bound, bm_strength + f_strength, best_value, best_strength):
                                continue
                            free = full ^ m5[bi] ^ m5[mi]
                            q = 0
                            for p in range(n):
                                if (free >> p) & 1:
                                    left[q] = p
                                    q += 1
                            mc = middle_common[rm]
                            for z in range(2, q):
                                for y in range(1, z):
                                    for x in range(y):
                                        fi = binom[left[x], 1] + binom[left[y], 2] + binom[left[z], 3]
                                        rf = r3[fi]
                                        if front_common[rf] > mc:
                                            continue
                                        royalty = bm_royalty + front_royalty[rf]
                                        stays = bm_stay or stay_front[rf]
                                        value = float(royalty)
                                        if stays:
                                            value += stay_value
                                        strength = bm_strength + strength3[rf]
                                        if _beats(value, strength, best_value, best_strength):
                                            best_value = value
                                            best_strength = strength
                                            best_royalty = royalty
                                            best_stays = stays
                                            best[0] = bi
                                            best[1] = mi
                                            best[2] = fi
    fouled = best[0] < 0
    if fouled:
        _write_fallback(codes, out_board, out_discards)
        return 0.0, np.int64(0), False, True
    _write_setting(codes, m5[best[0]], m5[best[1]], best[2], binom, out_board, out_discards)
    return best_value, np.int64(best_royalty), best_stays, False


@njit(cache=_CACHE, nogil=True)
def _write_setting(codes, back_mask, middle_mask, front_index, binom, out_board, out_discards):
    """Write the rows (cards high first) and the discards from the subsets found."""
    n = codes.shape[0]
    front_mask = 0
    for c in range(2, n):
        for b in range(1, c):
            for a in range(b):
                if binom[a, 1] + binom[b, 2] + binom[c, 3] == front_index:
                    front_mask = (1 << a) | (1 << b) | (1 << c)
    f = 0
    mid = 3
    bk = 8
    d = 0
    for p in range(n):
        if (front_mask >> p) & 1:
            out_board[f] = codes[p]
            f += 1
        elif (middle_mask >> p) & 1:
            out_board[mid] = codes[p]
            mid += 1
        elif (back_mask >> p) & 1:
            out_board[bk] = codes[p]
            bk += 1
        else:
            out_discards[d] = codes[p]
            d += 1


@njit(cache=_CACHE, nogil=True)
def _write_fallback(codes, out_board, out_discards):
    """No setting avoids a foul (impossible with 13+ distinct cards): the cards in code order."""
    for p in range(codes.shape[0]):
        if p < 13:
            out_board[p] = codes[p]
        else:
            out_discards[p - 13] = codes[p]


@njit(cache=_CACHE, nogil=True)
def solve_many_kernel(deals, card_key, card_bit, nonflush, flush, three, front_royalty,
                      middle_royalty, back_royalty, front_common, middle_common, stay_front,
                      stay_middle, stay_back, strength3, strength5, stay_value, boards, royalty,
                      stays, value):
    """``solve_kernel`` on each row of ``deals`` (int8[k, n]) into ``boards`` int8[k, 13],
    ``royalty`` int64[k], ``stays`` bool[k] and ``value`` float64[k] (discards not kept)."""
    discards = np.empty(deals.shape[1] - 13, dtype=np.int8)
    for i in range(deals.shape[0]):
        v, r, s, _ = solve_kernel(deals[i], card_key, card_bit, nonflush, flush, three, front_royalty,
                                  middle_royalty, back_royalty, front_common, middle_common,
                                  stay_front, stay_middle, stay_back, strength3, strength5,
                                  stay_value, boards[i], discards)
        royalty[i] = r
        stays[i] = s
        value[i] = v
