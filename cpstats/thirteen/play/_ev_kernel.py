"""Private numba kernels of the ``ev`` setter (and of training's exploitability): plain arrays
in, arithmetic only.

The search first ranks the 1,287 five-card and 286 three-card subsets of a hand (positions in
``itertools.combinations(range(13), k)`` order; the helpers are in ``_greedy_kernel``, which
the baselines share), then works on subset indices: ``rest_mid[b]`` and ``rest_front[b]`` list,
for back subset ``b``, the 56 ways to split the other 8 positions into a middle (five-subset
index) and a front (three-subset index).

The ``ev`` search evaluates a separable row model (see :func:`pair_value`) and prunes with an
upper bound that uses the same formula on *envelope* tables (per-rank maxima of everything that
helps, minima of everything that hurts, over all ranks up to the given one). The formula is
monotone in each of those quantities, so a pruned split can never beat the incumbent: the
pruning is exact (a test compares with the unpruned search).

Card removal (see :func:`row_state`): per hand, each rank class of each row gets its
probability scaled by ``1 + ratio`` (a linear function of the hand's rank counts and suit
lengths, ``strategies.CardRemoval``), the ranks within a class keeping their proportions; the
win, loss and loss-payment columns of rank ``r`` then move by the class's share of that change
below (or above) ``r`` (:func:`_row`). The ratios are above -1 (at least -0.95), so the
corrected distribution is a distribution for every hand: the corrected columns are monotone in
the rank like the plain ones, and the envelope tables bound them too. Float32 storage can
break that monotonicity by rounding; a bound on such a dip, times a bound on the value's slope, is
``params[7]``, and a split is pruned only when its bound is below the incumbent by more than
that.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.thirteen.play import _greedy_kernel as _gk
from cpstats.cards._bits import PACKED_BIT, highest_bit, pack_hand, popcount, rank_masks

_CACHE = True


# Columns of a row table (float32[ranks, 8]: one 32-byte row per rank): win and loss
# probabilities, units collected on a win, expected units paid on a loss, then for card removal
# the field probability of the lower and of the higher ranks of the rank's class and the
# expected units paid by those higher ranks (see _row), then padding.
W, L, A, LV, C_BELOW, C_ABOVE, C_ABOVE_V = 0, 1, 2, 3, 4, 5, 6
# Card removal: a class's ratio is clipped to [RATIO_LO, RATIO_HI] and the renormalising total
# to [TOTAL_LO, TOTAL_HI], so a renormalised ratio lies in [-0.95, 7] (strategies relies on it).
RATIO_LO, RATIO_HI = -0.9, 3.0
TOTAL_LO, TOTAL_HI = 0.5, 2.0
#: Mean of the sum of squared suit lengths of a random 13-card hand (a card-removal feature).
SUIT_SQUARES_MEAN = 4 * (13 * 0.25 * 0.75 * 39 / 51 + (13 / 4) ** 2)


@njit(cache=_CACHE, nogil=True, inline="always")
def row_state(hand, packed, removal, sizes, state, work):
    """Card-removal state of ``hand`` (``packed``: the same cards, see ``pack_hand``), written
    to ``state`` (float64[3, classes, 4]) per row and class: the class's ``ratio`` (its
    probability moves from ``P`` to ``P * (1 + ratio)``), then the change of the probability of
    the lower classes, of the higher classes, and of the expected payment of the higher ones.

    ``removal[row]`` (``ev_setter._removal_array``, float64[16, classes]): the slopes of the
    ratio per feature (the cards held of each rank minus one, the sum of the squared suit
    lengths minus its mean), then each class's field probability ``P`` and expected payment;
    ``sizes`` the number of classes of each row (:func:`class_counts`). Ratios are clipped to
    ``[RATIO_LO, RATIO_HI]`` and renormalised so the probabilities sum to one (the total
    clipped to ``[TOTAL_LO, TOTAL_HI]``). ``work`` is scratch (14 + classes,): the features,
    then the classes' ratios, one feature at a time over all classes (contiguous, vectorised;
    a rank held once adds nothing).
    """
    s0, s1, s2, s3, _, _, _, _ = rank_masks(packed)
    n0, n1, n2, n3 = popcount(s0), popcount(s1), popcount(s2), popcount(s3)
    for j in range(13):
        work[j] = -1.0
    for k in range(hand.shape[0]):
        work[hand[k] >> 2] += 1.0
    work[13] = np.float64(n0 * n0 + n1 * n1 + n2 * n2 + n3 * n3) - SUIT_SQUARES_MEAN
    for row in range(3):
        n = sizes[row]
        for c in range(n):
            work[14 + c] = 0.0
        for j in range(14):
            x = work[j]
            if x != 0.0:
                for c in range(n):
                    work[14 + c] += removal[row, j, c] * x
        raw = 1.0
        raw_v = 0.0
        mass_v = 0.0
        for c in range(n):
            ratio = min(max(work[14 + c], RATIO_LO), RATIO_HI)
            work[14 + c] = ratio
            raw += removal[row, 14, c] * ratio
            raw_v += removal[row, 15, c] * (1.0 + ratio)
            mass_v += removal[row, 15, c]
        scale = 1.0 / min(max(raw, TOTAL_LO), TOTAL_HI)
        change = raw * scale - 1.0  # all classes' change: 0 unless the total was clipped
        change_v = raw_v * scale - mass_v
        below = 0.0
        below_v = 0.0
        for c in range(n):
            ratio = (1.0 + work[14 + c]) * scale - 1.0
            state[row, c, 0] = ratio
            state[row, c, 1] = below
            below += removal[row, 14, c] * ratio
            below_v += removal[row, 15, c] * ratio
            state[row, c, 2] = change - below
            state[row, c, 3] = change_v - below_v


@njit(cache=_CACHE, nogil=True, inline="always")
def pair_value(wf, lf, af, vf, wm, lm, am, vm, wb, lb, ab, vb, params):
    """Expected result against ``k`` opponents of a hand whose rows win with probability ``w``,
    lose with probability ``l`` (rows independent), collect ``a`` when they win and pay ``v``
    (expected, already weighted by the loss) when they lose.

    ``params``: majority, scoop bonus, scoop multiplier, k, home-run bonus, home-run multiplier.
    Increasing in every ``w`` and ``a``, decreasing in every ``l`` and ``v`` (all >= 0).
    """
    maj = params[0]
    sb = params[1]
    sm = params[2]
    k = params[3]
    hrb = params[4]
    hrm = params[5]
    base = af * wf + am * wm + ab * wb - vf - vm - vb
    w3 = wf * wm * wb
    l3 = lf * lm * lb
    w2 = wf * wm + wf * wb + wm * wb - 2.0 * w3
    l2 = lf * lm + lf * lb + lm * lb - 2.0 * l3
    won = af + am + ab + maj + sb
    ev = base + maj * (w2 - l2) + sb * (w3 - l3)
    if sm != 1.0:
        lost = vf * lm * lb + vm * lf * lb + vb * lf * lm + (maj + sb) * l3
        ev += (sm - 1.0) * (won * w3 - lost)
    ev *= k
    if k >= 2.0 and (hrb != 0.0 or hrm != sm):
        home = w3 ** k
        ev += k * home * (hrb + (hrm - sm) * won)
    return ev


@njit(cache=_CACHE, nogil=True, inline="always")
def class_counts(classes, tf, tm, tb):
    """The number of rank classes of each row (``classes[row, rank]``, see ``_row``): its
    strongest rank's class, plus one."""
    return (np.int64(classes[0, tf.shape[0] - 1]) + 1, np.int64(classes[1, tm.shape[0] - 1]) + 1,
            np.int64(classes[2, tb.shape[0] - 1]) + 1)


@njit(cache=_CACHE, nogil=True, inline="always")
def _row(t, r, state, row):
    """(w, l, a, lv) of rank ``r`` in row table ``t`` (row ``row`` of the setting), moved for
    card removal: the lower classes' change, plus the class's ratio times the field
    probability of its ranks below ``r``; the same above ``r`` for the loss and payment
    columns. ``state`` is the pair (the hand's :func:`row_state`, ``classes``): ``classes``
    (uint8[3, 7462]) is the class of each rank of each row, a small array apart from the
    tables so that finding the class does not wait for the table's row (8% faster)."""
    per_class, classes = state
    c = np.int64(classes[row, r])
    ratio = per_class[row, c, 0]
    return (t[r, W] + per_class[row, c, 1] + ratio * t[r, C_BELOW],
            t[r, L] + per_class[row, c, 2] + ratio * t[r, C_ABOVE],
            np.float64(t[r, A]),
            t[r, LV] + per_class[row, c, 3] + ratio * t[r, C_ABOVE_V])


@njit(cache=_CACHE, nogil=True, inline="always")
def _value_with_back(tf, tm, cst, rf, rm, back, back_cst, params, state):
    """:func:`_value` with the back row's ``(w, l, a, lv)`` and RM-ALWAYS royalty given (the
    search fixes the back and tries many fronts and middles with it)."""
    wf, lf, af, vf = _row(tf, rf, state, 0)
    wm, lm, am, vm = _row(tm, rm, state, 1)
    wb, lb, ab, vb = back
    v = pair_value(wf, lf, af, vf, wm, lm, am, vm, wb, lb, ab, vb, params)
    if params[6] != 0.0:
        v += params[3] * (cst[0, rf] + cst[1, rm] + back_cst)
    return v


@njit(cache=_CACHE, nogil=True, inline="always")
def _value(tf, tm, tb, cst, rf, rm, rb, params, state):
    """Expected result of front rank ``rf``, middle ``rm``, back ``rb`` under row tables
    ``t*`` (float32[R, 8], exact or envelope) for a hand of card-removal state ``state`` (see
    :func:`row_state`). ``cst[row, rank]`` holds royalties collected win or lose (RM-ALWAYS,
    ``params[6]``), added per opponent."""
    return _value_with_back(tf, tm, cst, rf, rm, _row(tb, rb, state, 2), cst[2, rb], params,
                            state)


@njit(cache=_CACHE, nogil=True, inline="always")
def _bound_at(ef, em, eb, ecst, top_f, cap3, back, back_cst, fixed_back, params, state, r):
    """The envelope bound with the middle at rank ``r`` and the back's row ``back`` (its
    ``(w, l, a, lv)``, royalty ``back_cst``) when ``fixed_back``, else the back at ``r`` too;
    the front is bounded by the best front available, ``top_f``, and by the strongest front a
    middle of rank r allows, ``cap3[r]``."""
    rf = min(top_f, cap3[r])
    if fixed_back:
        return _value_with_back(ef, em, ecst, rf, r, back, back_cst, params, state)
    return _value(ef, em, eb, ecst, rf, r, r, params, state)


@njit(cache=_CACHE, nogil=True, inline="always")
def _threshold(ef, em, eb, ecst, top_f, cap3, back, back_cst, fixed_back, params, state, best,
               start, limit):
    """A rank below which no middle (with the back's envelope row ``back`` and royalty
    ``back_cst``, see :func:`_bound_at`, or as strong as the middle when not ``fixed_back``)
    can beat ``best``: the first rank of the lowest bucket of 2**_SHIFT ranks whose top rank's
    bound beats it, or ``limit`` when no rank below ``limit`` does.

    The bound is monotone in the rank, so the exact threshold lies in that bucket; rounding
    down to the bucket costs a few more evaluations and saves half the probes. ``start`` is a
    threshold found for a lower ``best`` (the incumbent only grows): gallop up from it, then
    bisect over buckets.
    """
    one = np.uint64(1)
    shift = np.uint64(_SHIFT)
    top = np.uint64((1 << _SHIFT) - 1)
    last = limit - one
    lo = start >> shift
    hi = (last >> shift) + one
    step = one
    while lo > 0 and lo < hi:
        probe = min(lo + step - one, hi - one)
        if _bound_at(ef, em, eb, ecst, top_f, cap3, back, back_cst, fixed_back, params, state,
                     min((probe << shift) + top, last)) > best:
            hi = probe
            break
        lo = probe + one
        step = step << one
    end = (last >> shift) + one
    if lo >= end:
        return limit
    while lo < hi:
        mid = (lo + hi) >> one
        if _bound_at(ef, em, eb, ecst, top_f, cap3, back, back_cst, fixed_back, params, state,
                     min((mid << shift) + top, last)) > best:
            hi = mid
        else:
            lo = mid + one
    if lo >= end:
        return limit
    return lo << shift


@njit(cache=_CACHE, nogil=True, inline="always")
def _middle_threshold(ef, em, eb, ecst, top_f, cap3, back, back_cst, params, state, best, guess,
                      limit):
    """:func:`_threshold` for the middle with a fixed back, starting from ``guess``, the
    previous back's threshold (the same bucket for four backs in five): a probe at the top of
    the bucket below the guess's shows that no middle below that bucket can win, then the
    gallop starts at the guess's bucket (two probes in all where the bisection from zero took
    six). When the probe beats ``best`` the threshold is lower: search from zero."""
    shift = np.uint64(_SHIFT)
    one = np.uint64(1)
    zero = np.uint64(0)
    bucket = min(guess, limit - one) >> shift
    if bucket > zero and _bound_at(ef, em, eb, ecst, top_f, cap3, back, back_cst, True, params,
                                   state, (bucket << shift) - one) <= best:
        return _threshold(ef, em, eb, ecst, top_f, cap3, back, back_cst, True, params, state,
                          best, bucket << shift, limit)
    return _threshold(ef, em, eb, ecst, top_f, cap3, back, back_cst, True, params, state, best,
                      zero, limit)


_SHIFT = 6
_N_BUCKETS = (7462 >> _SHIFT) + 1


@njit(cache=_CACHE, nogil=True, inline="always")
def _sort_desc(r5, low, cand, order, buckets):
    """The subsets ranked >= ``low`` into ``order``, strongest first by ``rank >> _SHIFT``
    (any order within a bucket); returns how many there are. One pass over the 1,287 ranks
    collects the candidates, the counting sort then touches only them."""
    n = 0
    for s in range(1287):
        cand[n] = s
        n += np.int64(r5[s] >= low)
    for k in range(_N_BUCKETS + 1):
        buckets[k] = 0
    for t in range(n):
        buckets[_N_BUCKETS - (r5[cand[t]] >> _SHIFT)] += 1
    for k in range(1, _N_BUCKETS + 1):
        buckets[k] += buckets[k - 1]
    for t in range(n):
        s = cand[t]
        k = _N_BUCKETS - 1 - (r5[s] >> _SHIFT)
        order[buckets[k]] = s
        buckets[k] += 1
    return n


@njit(cache=_CACHE, nogil=True, inline="always")
def _best_front(packed, table3):
    """Rank of the strongest three cards of a packed hand (suits play no part in front):
    trips, else the highest pair and kicker, else the three highest ranks."""
    _, _, _, _, a1, a2, a3, _ = rank_masks(packed)
    if a3 != 0:
        t = highest_bit(a3)
        return table3[t * 183]
    if a2 != 0:
        p = highest_bit(a2)
        k = highest_bit(a1 & ~(np.int64(1) << p))
        return table3[p * 182 + k]
    h1 = highest_bit(a1)
    a1 ^= np.int64(1) << h1
    h2 = highest_bit(a1)
    a1 ^= np.int64(1) << h2
    return table3[h1 * 169 + h2 * 13 + highest_bit(a1)]


@njit(cache=_CACHE, nogil=True, inline="always")
def _scalars(params):
    """The model's eight parameters as a tuple: held in registers, where array elements are
    loaded again after every store to another array (the compiler cannot rule out that they
    overlap); 5% faster."""
    return (params[0], params[1], params[2], params[3], params[4], params[5], params[6],
            params[7])


@njit(cache=_CACHE, nogil=True, _nrt=False)
def ev_kernel(hands, card_key, card_bit, nonflush, flush, flush_best, table3, common5, common3,
              rest_mid, rest_front, five_pos, three_pos, tf, tm, tb, cst, ef, em, eb, ecst, cap3,
              model_params, removal, classes, prune, out, value, visited, r5, r3, order, buckets,
              cand, per_class, work):
    """Best setting of each hand under the row model; ``value[i]`` its expected result and
    ``visited[i]`` the splits evaluated exactly (about 22,000 without pruning) and the backs
    whose middles were searched. ``removal`` and ``classes`` give the card-removal state of
    each hand (see :func:`row_state` and :func:`_row`). ``r5``, ``r3``, ``order``,
    ``buckets``, ``cand``, ``per_class`` and ``work`` are scratch (see
    ``strategies.ev_search``).

    With ``prune``, a back is searched only if the bound beats the incumbent with the
    strongest middle and front its other eight cards hold (built from their rank masks and
    best flush, as the greedy kernel does: no loop over its 56 splits). Compiled without
    numba's reference counting (``_nrt=False``): counting the table arguments of the inlined
    helpers in and out cost 14% here.
    """
    sizes = class_counts(classes, tf, tm, tb)
    state = (per_class, classes)
    params = _scalars(model_params)
    for i in range(hands.shape[0]):
        hand = hands[i]
        _gk._rank_fives(hand, card_key, card_bit, nonflush, flush, r5)
        _gk._rank_threes(hand, table3, r3)
        packed = pack_hand(hand)
        top_f = _best_front(packed, table3)
        row_state(hand, packed, removal, sizes, per_class, work)
        margin = params[7]
        # Incumbent: the best legal split of the first strongest back (a max the compiler
        # vectorises, then the first back that reaches it); the search skips that back.
        top5 = r5[0]
        for s in range(1, 1287):
            top5 = max(top5, r5[s])
        gb = 0
        while r5[gb] != top5:
            gb += 1
        bf = bm = bb = -1
        best = -np.inf
        count = 0
        back = _row(tb, top5, state, 2)
        for j in range(56):
            m = rest_mid[gb, j]
            f = rest_front[gb, j]
            if common3[r3[f]] > common5[r5[m]]:
                continue
            count += 1
            v = _value_with_back(tf, tm, cst, r3[f], r5[m], back, cst[2, top5], params, state)
            if v > best:
                best, bf, bm, bb = v, f, m, gb
        deep = 0
        zero = np.uint64(0)
        guess = zero
        back_thr = zero
        # The envelope row and royalty of the back being searched (the bound checks and
        # thresholds of one back share them); unused by the back threshold.
        env_back = (0.0, 0.0, 0.0, 0.0)
        env_back_cst = np.float32(0.0)
        if prune:
            back_thr = _threshold(ef, em, eb, ecst, top_f, cap3, env_back, env_back_cst, False,
                                  params, state, best - margin, zero, np.uint64(7462))
        n_backs = _sort_desc(r5, back_thr, cand, order, buckets)
        stale = False
        for t in range(n_backs):
            b = order[t]
            if b == gb:
                continue
            rb = r5[b]
            if stale:
                # The incumbent improved: raise the back threshold (once per back, not per gain).
                back_thr = _threshold(ef, em, eb, ecst, top_f, cap3, env_back, env_back_cst,
                                      False, params, state, best - margin, back_thr,
                                      np.uint64(7462))
                stale = False
            if rb < back_thr:
                # Backs come strongest first (by bucket) and the back bound is monotone.
                if (rb >> _SHIFT) < (back_thr >> _SHIFT):
                    break
                continue
            mid_thr = zero
            rest_f = np.uint16(0)
            if prune:
                # (rb < back_thr already rules out backs whose bound with the hand's best front
                # and a middle as strong as the back cannot win.) The strongest middle and
                # front of the other eight cards bound every split of this back.
                rest = packed
                for k in range(5):
                    rest &= ~PACKED_BIT[hand[five_pos[b, k]]]
                top_m = _gk._best_nonflush(rest, card_key, nonflush)[0]
                top_m = max(top_m, _gk._best_flush(rest, flush, flush_best)[0])
                top_m = min(top_m, np.int64(rb))
                rest_f = _best_front(rest, table3)
                env_back = _row(eb, rb, state, 2)
                env_back_cst = ecst[2, rb]
                if _bound_at(ef, em, eb, ecst, rest_f, cap3, env_back, env_back_cst, True,
                             params, state, top_m) <= best - margin:
                    continue
                deep += 1
                mid_thr = _middle_threshold(ef, em, eb, ecst, rest_f, cap3, env_back,
                                            env_back_cst, params, state, best - margin, guess,
                                            np.uint64(top_m + 1))
                guess = mid_thr
                if mid_thr > top_m:
                    continue
            back = _row(tb, rb, state, 2)
            back_cst = cst[2, rb]
            # The splits whose middle lies in [mid_thr, rb], collected without a branch (the
            # predictor misses this test often): ``cand`` is free once the backs are sorted.
            n_splits = 0
            span = np.uint64(np.int64(rb) - np.int64(mid_thr))
            for j in range(56):
                cand[n_splits] = j
                n_splits += np.int64(np.uint64(np.int64(r5[rest_mid[b, j]])
                                               - np.int64(mid_thr)) <= span)
            for q in range(n_splits):
                j = cand[q]
                m = rest_mid[b, j]
                rm = r5[m]
                if rm < mid_thr:  # raised by an improvement within this back
                    continue
                f = rest_front[b, j]
                rf = r3[f]
                if common3[rf] > common5[rm]:
                    continue
                count += 1
                v = _value_with_back(tf, tm, cst, rf, rm, back, back_cst, params, state)
                if v > best:
                    best, bf, bm, bb = v, f, m, b
                    if prune:
                        stale = True
                        mid_thr = _threshold(ef, em, eb, ecst, rest_f, cap3, env_back,
                                             env_back_cst, True, params, state, best - margin,
                                             mid_thr, np.uint64(rb + 1))
                        guess = mid_thr
        value[i] = best
        visited[i, 0] = count
        visited[i, 1] = deep
        _gk._write(hand, out, i, bf, bm, bb, five_pos, three_pos)


@njit(cache=_CACHE, nogil=True)
def heads_up_24_kernel(mine, theirs, out):
    """Mean heads-up SC-2-4 result (no royalties) of each setting in ``mine`` (S, 3) against
    every setting in ``theirs`` (O, 3); rows are (front, middle, back) ranks, compared row by
    row (1 per row, 1 more for winning two or three)."""
    n_opp = theirs.shape[0]
    for s in range(mine.shape[0]):
        f = mine[s, 0]
        m = mine[s, 1]
        b = mine[s, 2]
        total = 0
        for o in range(n_opp):
            w = (f > theirs[o, 0]) + (m > theirs[o, 1]) + (b > theirs[o, 2])
            lo = (f < theirs[o, 0]) + (m < theirs[o, 1]) + (b < theirs[o, 2])
            total += w - lo + (w >= 2) - (lo >= 2)
        out[s] = total / n_opp
