"""Private numba kernels of the default ``rollout`` (code 6): street-value features, tree prediction, the learned placer.

A *street model* values a partial board after a street by gradient-boosted trees fitted to the
exact-endgame values of ``rollout-exact``'s own self-play (:mod:`cpstats.ofc.street_values`).
:func:`features` turns a board (and the cards the player has not seen) into the float64 vector
of :data:`FEATURES`; :func:`predict` walks the flat trees. The trees of every street sit in one
table: ``mi`` int64[nodes, 3] (feature, left, right; left = -1 for a leaf), ``mf`` float64[nodes]
(threshold, or the leaf value), ``roots`` int64[streets, trees] (first node of each tree of the
model of the board after street s, -1 padding) and ``base`` float64[streets] (the baseline
prediction; NaN where street s has no model). A node sends a row left when ``x <= threshold``,
as scikit-learn's ``TreePredictor`` does on rows without missing values.

:func:`learned_option` decides a street by one step of lookahead: each candidate option is valued
by the mean, over sampled deals of the next street (the same deals for every option), of the best
model value among the :data:`NEXT_TOP` next-street options of best ``board_h``; successive halving
as in :func:`cpstats.ofc._place_kernel.rollout_option` over the seat's ``samples`` deals (its
rollout budget: ``Rollout(samples=...)`` is the budget here too). The
candidates are pruned by the models: on a street whose board has a model itself (the shipped
models cover every street but the last), the :data:`LEARNED_PRUNE` options of best model value
(every option valued); on a street without one, the ``top`` options of best
``board_h``. Pruning streets 1 and 2 by the model cut the time from 5 to 3.6 times the default's
at no measured cost (-0.12 +- 0.33 a hand, 1,000 deals); pruning street 0 too, by a model of its
board, cut it to 2.3 times and gained +0.65 +- 0.34 (the same deals). Halving the budget by
``board_h`` instead lost 0.9 a hand (it cut good options).
:func:`play_streets_learned` is :func:`cpstats.ofc._place_kernel.play_streets_kernel` with seats
of code :data:`ROLLOUT_LEARNED` deciding so wherever the next street has a model (the last two
streets stay exact: the model of the board before the last street is never consulted there).
It is a second loop rather than a branch of the first because the kernels import one way (this
module builds on the street kernels, so they cannot call it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc._place_exact import last_street_mean

_CACHE = True

ROLLOUT_LEARNED = _pk.ROLLOUT_LEARNED
NEXT_TOP = 9  # next-street options of best board_h valued by the model on each sampled deal
LEARNED_PRUNE = 8  # where the street itself has a model: options of best model value that enter it instead

FEATURES = ("board_h", "front_value", "middle_value", "back_value", "front_rank", "middle_rank", "back_rank",
            "front_cards", "middle_cards", "back_cards", "front_pair", "front_high", "front_outs",
            "front_fl_outs", "middle_suited", "back_suited", "middle_suit_live", "back_suit_live",
            "middle_run", "back_run", "front_middle_margin", "middle_back_margin", "unseen", "empty",
            "middle_outs", "back_outs")
N_FEATURES = len(FEATURES)
QUEEN = 10  # rank index of a queen: a front pair of queens or better enters Fantasyland (Pineapple presets)


@njit(cache=_CACHE, nogil=True)
def _row_stats(board, row, n, unseen_mask, out):
    """(max suited count, live unseen cards of that suit, longest run of distinct ranks in a
    five-rank window (the ace also low), unseen cards pairing a card of the row) into ``out``."""
    s = _pk.STARTS[row]
    suits = np.zeros(4, dtype=np.int64)
    present = 0
    for i in range(n):
        suits[board[s + i] & 3] += 1
        present |= 1 << (board[s + i] >> 2)
    best_suit = 0
    for su in range(1, 4):
        if suits[su] > suits[best_suit]:
            best_suit = su
    live = 0
    outs = 0
    for c in range(52):
        if unseen_mask[c]:
            if c & 3 == best_suit:
                live += 1
            if (present >> (c >> 2)) & 1:
                outs += 1
    bits = (present << 1) | ((present >> 12) & 1)  # bit 0: the ace as a one
    run = 0
    for lo in range(10):
        m = 0
        for j in range(lo, lo + 5):
            m += (bits >> j) & 1
        run = max(run, m)
    out[0] = suits[best_suit] if n > 0 else 0
    out[1] = live
    out[2] = run
    out[3] = outs


@njit(cache=_CACHE, nogil=True)
def features(board, cnt, unseen_mask, key, nonflush, flush, bit, t3, ct, vt, prm, out):
    """The :data:`FEATURES` of a partial board into ``out`` (float64[N_FEATURES]); ``unseen_mask``
    bool[52] marks the cards the player has not seen (neither placed anywhere nor discarded)."""
    out[0] = _pk.board_h(board, cnt, key, nonflush, flush, bit, t3, ct, vt, prm)
    rf = _pk.row_rank(board, 0, cnt[0], key, nonflush, flush, bit, t3)
    rm = _pk.row_rank(board, 1, cnt[1], key, nonflush, flush, bit, t3)
    rb = _pk.row_rank(board, 2, cnt[2], key, nonflush, flush, bit, t3)
    out[1] = vt[0, rf]
    out[2] = vt[1, rm]
    out[3] = vt[2, rb]
    out[4] = rf
    out[5] = rm
    out[6] = rb
    for r in range(3):
        out[7 + r] = cnt[r]
    pair = -1
    high = -1
    for i in range(cnt[0]):
        ri = board[i] >> 2
        high = max(high, ri)
        for j in range(i + 1, cnt[0]):
            if board[j] >> 2 == ri:
                pair = max(pair, ri)
    out[10] = pair
    out[11] = high
    outs = 0
    fl_outs = 0
    if pair < 0 and cnt[0] < 3:
        for c in range(52):
            if unseen_mask[c]:
                for i in range(cnt[0]):
                    if board[i] >> 2 == c >> 2:
                        outs += 1
                        if c >> 2 >= QUEEN:
                            fl_outs += 1
    out[12] = outs
    out[13] = fl_outs
    st = np.empty(4, dtype=np.int64)
    for r in range(1, 3):
        _row_stats(board, r, cnt[r], unseen_mask, st)
        out[13 + r] = st[0]
        out[15 + r] = st[1]
        out[17 + r] = st[2]
        out[23 + r] = st[3]
    out[20] = ct[1, rm] - ct[0, rf]
    out[21] = rb - rm
    n_unseen = 0
    for c in range(52):
        n_unseen += unseen_mask[c]
    out[22] = n_unseen
    out[23] = 13 - cnt[0] - cnt[1] - cnt[2]


@njit(cache=_CACHE, nogil=True)
def partial_board(board, street_of, t, out, cnt):
    """The board after street ``t`` of the final ``board`` (``street_of[c]``: the street card
    ``c`` was dealt on): a row fills from its first slot, so the earlier cards are a prefix."""
    out[:] = -1
    for r in range(3):
        s = _pk.STARTS[r]
        n = 0
        for i in range(_pk.CAPS[r]):
            c = board[s + i]
            if c >= 0 and street_of[c] <= t:
                out[s + n] = c
                n += 1
        cnt[r] = n


@njit(cache=_CACHE, nogil=True)
def hand_rows(deck, boards, discards, deal, keep, key, nonflush, flush, bit, t3, ct, vt, prm, x, y):
    """Labels of one self-play hand (:func:`cpstats.ofc.street_values.label_hands`): ``x[p, t]``
    the :data:`FEATURES` of seat ``p``'s board after street ``t`` (the cards it has not seen then:
    neither on its board, its discards, nor the boards of the seats that have placed street ``t``
    before it or ``t - 1`` after it), ``y[p]`` the exact mean final objective of its board before
    the last street."""
    n_p = boards.shape[0]
    last = deal.shape[0] - 1
    street_of = np.full(52, 99, dtype=np.int64)
    pos = 0
    for t in range(deal.shape[0]):
        for p in range(n_p):
            for i in range(deal[t]):
                street_of[deck[pos + i]] = t
            pos += deal[t]
    part = np.empty((n_p, 13), dtype=np.int8)
    pc = np.empty((n_p, 3), dtype=np.int64)
    mask = np.empty(52, dtype=np.bool_)
    unseen = np.empty(52, dtype=np.int8)
    for p in range(n_p):
        for t in range(last):
            mask[:] = True
            for q in range(n_p):
                partial_board(boards[q], street_of, t if q <= p else t - 1, part[q], pc[q])
                for i in range(13):
                    if part[q, i] >= 0:
                        mask[part[q, i]] = False
            for u in range(t + 1):
                if discards[p, u] >= 0:
                    mask[discards[p, u]] = False
            features(part[p], pc[p], mask, key, nonflush, flush, bit, t3, ct, vt, prm, x[p, t])
        n = 0
        for c in range(52):
            if mask[c]:
                unseen[n] = c
                n += 1
        y[p] = last_street_mean(part[p], unseen, n, deal[last], keep[last], ct, vt, prm[_pk.FOUL],
                                prm[_pk.SCOOP])


@njit(cache=_CACHE, nogil=True)
def _street_of(deck, deal, n_p, t):
    """The street each card of a hand's deck was dealt on (99: not dealt), and where street ``t``'s deal starts."""
    street_of = np.full(52, 99, dtype=np.int64)
    pos = 0
    start = 0
    for u in range(deal.shape[0]):
        if u == t:
            start = pos
        for p in range(n_p):
            for i in range(deal[u]):
                street_of[deck[pos + i]] = u
            pos += deal[u]
    return street_of, start


@njit(cache=_CACHE, nogil=True)
def _seat_view(boards, discards, street_of, deck, start, deal, t, p, part, pc, mask, unseen):
    """Seat ``p``'s position when it is dealt street ``t``: every board as it saw them (``part``,
    ``pc``), the cards it has not seen (``unseen[:n]``, ``mask``); returns its deal and ``n``."""
    n_p = boards.shape[0]
    mask[:] = True
    for q in range(n_p):
        partial_board(boards[q], street_of, t if q < p else t - 1, part[q], pc[q])
        for i in range(13):
            if part[q, i] >= 0:
                mask[part[q, i]] = False
    partial_board(boards[p], street_of, t - 1, part[p], pc[p])
    for u in range(t + 1):
        if discards[p, u] >= 0:
            mask[discards[p, u]] = False
    dealt = deck[start + p * deal[t]:start + (p + 1) * deal[t]]
    for c in dealt:
        mask[c] = False
    n = 0
    for c in range(52):
        if mask[c]:
            unseen[n] = c
            n += 1
    return dealt, n


@njit(cache=_CACHE, nogil=True)
def option_rows(deck, boards, discards, deal, keep, key, nonflush, flush, bit, t3, ct, vt, prm, x, y):
    """Off-policy labels of one self-play hand: for each seat ``p`` and every option ``o`` of its
    deal on the street before the last, placed on its board before that street, ``x[p, o]`` the
    :data:`FEATURES` and ``y[p, o]`` the exact mean final objective of that board (NaN past the
    options). The models are asked about boards the policy would not play; these rows teach them."""
    n_p = boards.shape[0]
    last = deal.shape[0] - 1
    t = last - 1
    street_of, start = _street_of(deck, deal, n_p, t)
    part = np.empty((n_p, 13), dtype=np.int8)
    pc = np.empty((n_p, 3), dtype=np.int64)
    mask = np.empty(52, dtype=np.bool_)
    unseen = np.empty(52, dtype=np.int8)
    rows = np.empty((243, 5), dtype=np.int8)
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    y[:] = np.nan
    for p in range(n_p):
        dealt, n = _seat_view(boards, discards, street_of, deck, start, deal, t, p, part, pc, mask, unseen)
        n_a = _pk.enumerate_rows(keep[t], pc[p], rows)
        n_o = n_a * (deal[t] if keep[t] < deal[t] else 1)
        for o in range(min(n_o, y.shape[1])):
            work[:] = part[p]
            wcnt[:] = pc[p]
            _pk.apply_option(work, wcnt, dealt, deal[t], keep[t], o, n_a, rows)
            features(work, wcnt, mask, key, nonflush, flush, bit, t3, ct, vt, prm, x[p, o])
            y[p, o] = last_street_mean(work, unseen, n, deal[last], keep[last], ct, vt, prm[_pk.FOUL],
                                       prm[_pk.SCOOP])


@njit(cache=_CACHE, nogil=True)
def lookahead_rows(deck, boards, discards, deal, keep, t, samples, seed, key, nonflush, flush, bit, t3, ct, vt,
                   prm, mi, mf, roots, base, x, y):
    """Bootstrapped off-policy labels of one self-play hand: for each seat ``p`` and each of the
    first ``y.shape[1]`` options (best ``board_h`` first) of its deal on street ``t`` placed on
    its board before it, ``x[p, o]`` the :data:`FEATURES` of that board and ``y[p, o]`` its value
    by :func:`learned_option`'s lookahead: the mean over ``samples`` sampled deals of street
    ``t + 1`` of the best next-street model value (fitted value iteration, street by street)."""
    n_p = boards.shape[0]
    street_of, start = _street_of(deck, deal, n_p, t)
    part = np.empty((n_p, 13), dtype=np.int8)
    pc = np.empty((n_p, 3), dtype=np.int64)
    mask = np.empty(52, dtype=np.bool_)
    unseen = np.empty(52, dtype=np.int8)
    rows = np.empty((243, 5), dtype=np.int8)
    rows2 = np.empty((243, 5), dtype=np.int8)
    b2 = np.empty(13, dtype=np.int8)
    c2 = np.empty(3, dtype=np.int64)
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    xx = np.empty(N_FEATURES)
    state = np.array([seed], dtype=np.uint64)
    k1 = deal[t + 1]
    y[:] = np.nan
    for p in range(n_p):
        dealt, n = _seat_view(boards, discards, street_of, deck, start, deal, t, p, part, pc, mask, unseen)
        fut = _pk._sample_futures(unseen, n, samples, k1, state)
        n_a = _pk.enumerate_rows(keep[t], pc[p], rows)
        n_o = n_a * (deal[t] if keep[t] < deal[t] else 1)
        order = np.argsort(-_pk._option_values(part[p], pc[p], dealt, deal[t], keep[t], rows, n_a, n_o, key,
                                               nonflush, flush, bit, t3, ct, vt, prm))
        for j in range(min(n_o, y.shape[1])):
            b2[:] = part[p]
            c2[:] = pc[p]
            _pk.apply_option(b2, c2, dealt, deal[t], keep[t], order[j], n_a, rows)
            features(b2, c2, mask, key, nonflush, flush, bit, t3, ct, vt, prm, x[p, j])
            total = 0.0
            for s in range(samples):
                m2 = mask.copy()
                for i in range(k1):
                    m2[fut[s, i]] = False
                total += _next_best(b2, c2, fut[s], k1, keep[t + 1], m2, t + 1, rows2, key, nonflush, flush, bit,
                                    t3, ct, vt, prm, mi, mf, roots, base, xx, work, wcnt)
            y[p, j] = total / samples


@njit(cache=_CACHE, nogil=True)
def predict(x, street, mi, mf, roots, base):
    """The model value of feature row ``x`` for the board after ``street`` (module docstring)."""
    v = base[street]
    for t in range(roots.shape[1]):
        i = roots[street, t]
        if i < 0:
            break
        while mi[i, 1] >= 0:
            i = mi[i, 1] if x[mi[i, 0]] <= mf[i] else mi[i, 2]
        v += mf[i]
    return v


@njit(cache=_CACHE, nogil=True)
def predict_rows(x, street, mi, mf, roots, base):
    """:func:`predict` of every row of ``x`` (float64[n, N_FEATURES])."""
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = predict(x[i], street, mi, mf, roots, base)
    return out


@njit(cache=_CACHE, nogil=True)
def has_model(street, base):
    return 0 <= street < base.shape[0] and not np.isnan(base[street])


@njit(cache=_CACHE, nogil=True)
def _next_best(b2, c2, drawn, k1, kp1, mask, street1, rows2, key, nonflush, flush, bit, t3, ct, vt, prm,
               mi, mf, roots, base, x, work, wcnt):
    """Best model value after ``street1`` among the :data:`NEXT_TOP` options of best ``board_h``
    of placing ``drawn`` on ``b2``."""
    n_a = _pk.enumerate_rows(kp1, c2, rows2)
    n_o = n_a * (k1 if kp1 < k1 else 1)
    h = _pk._option_values(b2, c2, drawn, k1, kp1, rows2, n_a, n_o, key, nonflush, flush, bit, t3, ct, vt, prm)
    order = np.argsort(-h)
    best = -1e300
    for i in range(min(NEXT_TOP, n_o)):
        work[:] = b2
        wcnt[:] = c2
        _pk.apply_option(work, wcnt, drawn, k1, kp1, order[i], n_a, rows2)
        features(work, wcnt, mask, key, nonflush, flush, bit, t3, ct, vt, prm, x)
        best = max(best, predict(x, street1, mi, mf, roots, base))
    return best


@njit(cache=_CACHE, nogil=True)
def learned_option(board, cnt, dealt, street, deal, keep, unseen, n_unseen, samples, top, prune, state,
                   key, nonflush, flush, bit, t3, ct, vt, prm, mi, mf, roots, base):
    """The option of best mean next-street model value (module docstring); the street after
    ``street`` must have a model (:func:`has_model`). The ``top`` options of best ``board_h``
    enter the lookahead, or, when ``prune`` > 0 and ``street`` has a model itself, the ``prune``
    options of best model value of the board they leave. Returns the option index."""
    k = deal[street]
    kp = keep[street]
    rows = np.empty((243, 5), dtype=np.int8)
    n_assign = _pk.enumerate_rows(kp, cnt, rows)
    n_opt = n_assign * (k if kp < k else 1)
    if n_opt == 1:
        return 0
    b2 = np.empty(13, dtype=np.int8)
    c2 = np.empty(3, dtype=np.int64)
    x = np.empty(N_FEATURES)
    mask = np.zeros(52, dtype=np.bool_)
    for i in range(n_unseen):
        mask[unseen[i]] = True
    if prune > 0 and has_model(street, base):
        value = np.empty(n_opt)
        for o in range(n_opt):
            b2[:] = board
            c2[:] = cnt
            _pk.apply_option(b2, c2, dealt, k, kp, o, n_assign, rows)
            features(b2, c2, mask, key, nonflush, flush, bit, t3, ct, vt, prm, x)
            value[o] = predict(x, street, mi, mf, roots, base)
        order = np.argsort(-value)
        top = prune
    else:
        order = np.argsort(-_pk._option_values(board, cnt, dealt, k, kp, rows, n_assign, n_opt, key, nonflush,
                                               flush, bit, t3, ct, vt, prm))
    k1 = deal[street + 1]
    fut = _pk._sample_futures(unseen, n_unseen, samples, k1, state)
    masks = np.empty((samples, 52), dtype=np.bool_)
    for s in range(samples):
        masks[s] = mask
        for i in range(k1):
            masks[s, fut[s, i]] = False
    cand = order[:min(top, n_opt)].copy()
    total = np.zeros(cand.size)
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    rows2 = np.empty((243, 5), dtype=np.int8)
    alive = cand.size
    s0 = 0
    batch = max(1, samples // 4)
    while True:
        s1 = min(samples, s0 + batch)
        for q in range(alive):
            b2[:] = board
            c2[:] = cnt
            _pk.apply_option(b2, c2, dealt, k, kp, cand[q], n_assign, rows)
            for s in range(s0, s1):
                total[q] += _next_best(b2, c2, fut[s], k1, keep[street + 1], masks[s], street + 1, rows2, key,
                                       nonflush, flush, bit, t3, ct, vt, prm, mi, mf, roots, base, x, work, wcnt)
        s0 = s1
        if s0 >= samples or alive == 1:
            break
        alive = _pk.halve(cand, total, alive)
    return cand[np.argmax(total[:alive])]


@njit(cache=_CACHE, nogil=True)
def play_streets_learned(deck, strat, deal, keep, samples, top, hind, seed, key, nonflush, flush, bit, t3,
                         ct, vt, prm, boards, discards, endgame, mi, mf, roots, base):
    """:func:`cpstats.ofc._place_kernel.play_streets_kernel` (same arguments, then the model
    arrays) with :data:`ROLLOUT_LEARNED` seats deciding each street whose next street has a model
    and is not the last by :func:`learned_option` (the seat's ``samples``, ``top``),
    the other streets as ``rollout-exact``; the other codes play as there."""
    n_p = strat.shape[0]
    state = np.array([seed], dtype=np.uint64)
    cnt = np.zeros((n_p, 3), dtype=np.int64)
    boards[:] = -1
    discards[:] = -1
    own_disc = np.zeros((n_p, 52), dtype=np.bool_)
    rows = np.empty((243, 5), dtype=np.int8)
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    unseen = np.empty(52, dtype=np.int8)
    last = deal.shape[0] - 1
    pos = 0
    for t in range(deal.shape[0]):
        k = deal[t]
        for p in range(n_p):
            dealt = deck[pos:pos + k]
            pos += k
            n_assign = _pk.enumerate_rows(keep[t], cnt[p], rows)
            n_opt = n_assign * (k if keep[t] < k else 1)
            exactish = strat[p] == _pk.ROLLOUT_EXACT or strat[p] == ROLLOUT_LEARNED
            tb = 0 if exactish else vt.shape[0] - 1
            if strat[p] == 0:
                o = _pk.rng_below(state, n_opt)
            elif strat[p] == 1:
                o, _ = _pk.greedy_option(boards[p], cnt[p], dealt, k, keep[t], rows, n_assign, work,
                                         wcnt, key, nonflush, flush, bit, t3, ct, vt[tb], prm[tb])
            elif strat[p] == ROLLOUT_LEARNED and t + 1 < last and has_model(t + 1, base):
                n_u = _pk._unseen(unseen, own_disc[p], dealt, boards, n_p)
                o = learned_option(boards[p], cnt[p], dealt, t, deal, keep, unseen, n_u, samples[p],
                                   top, LEARNED_PRUNE, state, key, nonflush, flush, bit, t3, ct, vt[tb],
                                   prm[tb], mi, mf, roots, base)
            else:
                o = _pk.rollout_option(boards[p], cnt[p], dealt, t, deal, keep, unseen,
                                       _pk._unseen(unseen, own_disc[p], dealt, boards, n_p), samples[p],
                                       _pk.FORMER_TOP if strat[p] == 3 else top, -1 if strat[p] == 3 else hind,
                                       state, key, nonflush, flush, bit, t3, ct, vt[tb], prm[tb],
                                       endgame if exactish else 0)
            d = _pk.apply_option(boards[p], cnt[p], dealt, k, keep[t], o, n_assign, rows)
            discards[p, t] = d
            if d >= 0:
                own_disc[p, d] = True


def play_streets(deck, strat, deal, keep, samples, top, hind, seed, args, boards, discards,
                 endgame=_pk.ENDGAME, model=None):
    """One hand's streets: :func:`play_streets_learned` with the street ``model``, or
    :func:`cpstats.ofc._place_kernel.play_streets_kernel` without one (a ``rollout`` seat then
    plays as ``rollout-exact``); ``args`` the stacked tables. The one place that chooses."""
    if model is None:
        _pk.play_streets_kernel(deck, strat, deal, keep, samples, top, hind, seed, *args, boards, discards, endgame)
    else:
        play_streets_learned(deck, strat, deal, keep, samples, top, hind, seed, *args, boards, discards, endgame,
                             *model)
