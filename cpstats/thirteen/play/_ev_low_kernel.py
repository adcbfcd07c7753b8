"""Private numba kernel of the ``ev`` setter under H5 (a deuce-to-seven middle): plain arrays
in, arithmetic only.

Under H5 the middle is a low hand (``rank5(..., ordering="H5")``: higher is the better low) and
a setting is legal when its back beats its front; the middle is compared with neither. The
search is over *ordered* splits, each of the 1,287 backs with each of the 56 (middle, front)
splits of the other eight cards: 72,072 in all. (Putting the stronger high five in the back
is not always best: a wheel is the weakest straight but, as a low, an ace-high hand that beats
every pair.) The row model is ``_ev_kernel``'s (:func:`~._ev_kernel.pair_value`, card removal
by :func:`~._ev_kernel.row_state`), with the middle's table on the low scale.

A five-card subset's low rank is ``low_of_high[its H1 rank]``: the H5 ranking is the H1 one
reversed, except that the wheel is a high card (a one-to-one map of ranks).

Pruning is exact. The value is monotone in each row's rank on that row's scale: win
probabilities rise, losses and payments fall, and the *envelope* tables (``ef``, ``eb``: the
best royalty collected at any rank up to the given one) bound the units collected. The middle
earns no royalty under H5, so its exact table is its own envelope. Hence:

1. the back threshold: with the hand's best front (no stronger than a back of rank ``r``
   allows, ``cap3[r]``) and its best low five as the middle, the bound is monotone in the
   back's rank ``r``; backs below the first rank whose bound beats the incumbent are skipped;
2. per back: the best front and the best low middle of the other eight cards, with the back's
   own (exact) row, bound its 56 splits; a back whose bound does not beat the incumbent is
   skipped;
3. the middle threshold: with that front and back, the bound is monotone in the middle's low
   rank; splits whose middle is below the first rank that beats the incumbent are skipped.

A split is skipped only when its bound is below the incumbent by more than ``params[7]`` (the
float32 rounding margin, see ``ev_setter._rounding_margin``), and a split replaces the
incumbent only when strictly better, so the pruned search returns exactly what the full one
does (a test compares them). Backs are visited strongest first (by buckets of 64 ranks) in
both modes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.cards._bits import PACKED_BIT, pack_hand
from cpstats.thirteen.play import _ev_kernel as _sk
from cpstats.thirteen.play import _greedy_kernel as _gk

_CACHE = True


@njit(cache=_CACHE, nogil=True, inline="always")
def _back_bound(ef, tm, eb, ecst, top_f, top_m, cap3, params, state, r):
    """Bound on every split whose back ranks at most ``r`` (high scale): the back's envelope
    row at ``r``, the front ``min(top_f, cap3[r])`` on its envelope, the middle ``top_m``."""
    return _sk._value(ef, tm, eb, ecst, min(top_f, np.int64(cap3[r])), top_m, r, params, state)


@njit(cache=_CACHE, nogil=True, inline="always")
def _back_threshold(ef, tm, eb, ecst, top_f, top_m, cap3, params, state, best, lo):
    """The lowest back rank (>= ``lo``, a threshold for a lower incumbent) whose bound beats
    ``best``, or 7462 when none does (bisection: the bound is monotone in the rank)."""
    hi = np.int64(7462)
    while lo < hi:
        mid = (lo + hi) >> 1
        if _back_bound(ef, tm, eb, ecst, top_f, top_m, cap3, params, state, mid) > best:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=_CACHE, nogil=True, inline="always")
def _middle_threshold(ef, tm, ecst, rf, back, back_cst, params, state, best, lo, top_m):
    """The lowest middle low rank in ``[lo, top_m]`` whose bound with front ``rf`` (envelope)
    and the back's exact row beats ``best``, or ``top_m + 1`` when none does."""
    hi = top_m + 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if _sk._value_with_back(ef, tm, ecst, rf, mid, back, back_cst, params, state) > best:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=_CACHE, nogil=True, _nrt=False)
def ev_low_kernel(hands, card_key, card_bit, nonflush, flush, table3, common5, common3,
                  low_of_high, rest_mid, rest_front, five_pos, three_pos, tf, tm, tb, cst, ef,
                  eb, ecst, cap3, model_params, removal, classes, prune, out, value, visited,
                  r5, rl, r3, order, buckets, cand, per_class, work):
    """Best legal H5 setting of each hand under the row model; ``value[i]`` its expected
    result, ``visited[i]`` the splits evaluated exactly (72,072 less the fouls without pruning)
    and the backs whose splits were searched.

    ``card_key`` to ``flush`` and ``common5`` rank the high hands (H1: the back, and the
    front's common scale ``common3``); ``low_of_high`` maps an H1 rank to the H5 (low) rank of
    the same cards; ``tm`` is the middle's table on the low scale, ``cap3[r]`` the strongest
    front a back of H1 rank ``r`` allows. ``r5``, ``rl``, ``r3``, ``order``, ``buckets``,
    ``cand``, ``per_class`` and ``work`` are scratch (see ``ev_setter._ev_low_search``).
    """
    sizes = _sk.class_counts(classes, tf, tm, tb)
    state = (per_class, classes)
    params = _sk._scalars(model_params)
    margin = params[7]
    for i in range(hands.shape[0]):
        hand = hands[i]
        _gk._rank_fives(hand, card_key, card_bit, nonflush, flush, r5)
        _gk._rank_threes(hand, table3, r3)
        top5 = np.int64(r5[0])
        top_low = np.int64(0)
        for s in range(1287):
            rl[s] = low_of_high[r5[s]]
            top5 = max(top5, np.int64(r5[s]))
            top_low = max(top_low, np.int64(rl[s]))
        packed = pack_hand(hand)
        top_f = _sk._best_front(packed, table3)
        _sk.row_state(hand, packed, removal, sizes, per_class, work)
        best = -np.inf
        bf = bm = bb = -1
        count = 0
        deep = 0
        # Incumbent: the best split of the first strongest back (its fronts are all legal);
        # the search skips that back.
        gb = 0
        while r5[gb] != top5:
            gb += 1
        back = _sk._row(tb, top5, state, 2)
        for j in range(56):
            f = rest_front[gb, j]
            m = rest_mid[gb, j]
            count += 1
            v = _sk._value_with_back(tf, tm, cst, np.int64(r3[f]), np.int64(rl[m]), back,
                                     cst[2, top5], params, state)
            if v > best:
                best, bf, bm, bb = v, f, m, gb
        back_thr = np.int64(0)
        if prune:
            back_thr = _back_threshold(ef, tm, eb, ecst, top_f, top_low, cap3, params, state,
                                       best - margin, back_thr)
        n_backs = _sk._sort_desc(r5, np.uint64(back_thr), cand, order, buckets)
        stale = False
        for t in range(n_backs):
            b = order[t]
            if b == gb:
                continue
            rb = np.int64(r5[b])
            if stale:
                back_thr = _back_threshold(ef, tm, eb, ecst, top_f, top_low, cap3, params,
                                           state, best - margin, back_thr)
                stale = False
            if rb < back_thr:
                if (rb >> _sk._SHIFT) < (back_thr >> _sk._SHIFT):
                    break  # backs come strongest first by bucket
                continue
            back = _sk._row(tb, rb, state, 2)
            back_cst = cst[2, rb]
            mid_thr = np.int64(0)
            rf_cap = np.int64(0)
            top_m = np.int64(7461)
            if prune:
                rest = packed
                for k in range(5):
                    rest &= ~PACKED_BIT[hand[five_pos[b, k]]]
                rf_cap = min(_sk._best_front(rest, table3), np.int64(cap3[rb]))
                top_m = np.int64(0)
                for j in range(56):
                    top_m = max(top_m, np.int64(rl[rest_mid[b, j]]))
                if _sk._value_with_back(ef, tm, ecst, rf_cap, top_m, back, back_cst, params,
                                        state) <= best - margin:
                    continue
                deep += 1
                mid_thr = _middle_threshold(ef, tm, ecst, rf_cap, back, back_cst, params, state,
                                            best - margin, mid_thr, top_m)
            for j in range(56):
                m = rest_mid[b, j]
                rm = np.int64(rl[m])
                if rm < mid_thr:
                    continue
                f = rest_front[b, j]
                rf = np.int64(r3[f])
                if common3[rf] > common5[rb]:
                    continue
                count += 1
                v = _sk._value_with_back(tf, tm, cst, rf, rm, back, back_cst, params, state)
                if v > best:
                    best, bf, bm, bb = v, f, m, b
                    if prune:
                        stale = True
                        mid_thr = _middle_threshold(ef, tm, ecst, rf_cap, back, back_cst, params,
                                                    state, best - margin, mid_thr, top_m)
        value[i] = best
        visited[i, 0] = count
        visited[i, 1] = deep
        _gk._write(hand, out, i, bf, bm, bb, five_pos, three_pos)
