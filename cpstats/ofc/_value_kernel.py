"""Private numba kernels of the learned open-face play: street-value features, tree prediction, the ``rollout`` (code 6) and ``fast`` (code 7) placers.

A *street model* values a partial board after a street by gradient-boosted trees fitted to the
exact-endgame values of ``rollout-exact``'s self-play over many rule sets
(:mod:`cpstats.ofc.street_values`). :func:`features` turns a board, the cards the player has not
seen and the variant's rule numbers (``rules``, :mod:`cpstats.ofc.rule_features`) into the
float64 vector of :data:`FEATURES`; :func:`predict` walks the flat trees. The trees of every
street sit in one table: ``nodes`` int32[n, 2] (feature, or -1 for a leaf; the right child: the
left child is always the next node, as scikit-learn lays trees out depth first), ``values``
float64[n] (threshold, or the leaf value), ``roots`` int64[streets, trees] (first node of each
tree of the model of the board after street s, -1 padding) and ``base`` float64[streets] (the
baseline prediction; NaN where street s has no model). A node sends a row left when
``x <= threshold``, as scikit-learn's ``TreePredictor`` does on rows without missing values.
:func:`predict_batch` walks many rows tree by tree (their paths overlap in the processor: 3.4
times faster a row than one row at a time, the same sums).

:func:`learned_option` (``rollout``) decides a street by one step of lookahead: each candidate
option is valued by the mean, over sampled deals of the next street (the same deals for every
option), of the best model value among the :data:`NEXT_TOP` next-street options of best
``board_h``; successive halving as in :func:`cpstats.ofc._place_kernel.rollout_option` over the
seat's ``samples`` deals. The candidates are the :data:`LEARNED_PRUNE` options of best model
value where the street's own board has a model, else the ``top`` of best ``board_h``.
:func:`fast_option` (``fast``) reads the same models without sampling anything: the option whose
board the street's model values best, among the ``top`` of best ``board_h``.
:func:`play_streets_learned` is :func:`cpstats.ofc._place_kernel.play_streets_kernel` with seats
of those two codes deciding so wherever the models reach (the last two streets stay exact: the
street before the last by :func:`cpstats.ofc._place_kernel.endgame_option`, about 7 us an option).
It is a second loop rather than a branch of the first because the kernels import one way.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.ofc import _place_kernel as _pk

_CACHE = True

ROLLOUT_LEARNED = _pk.ROLLOUT_LEARNED
FAST = _pk.FAST
NEXT_TOP = 9  # next-street options of best board_h valued by the model on each sampled deal
LEARNED_PRUNE = 8  # where the street itself has a model: options of best model value that enter it instead

#: The rule numbers a street model reads (after the board's features), in the kernel's order
#: (:func:`cpstats.ofc.rule_features.rule_vector` computes them).
RULE_FEATURES = ("entry_qq", "entry_kk", "entry_aa", "entry_trips", "front_qq", "front_kk", "front_aa",
                 "front_low_pairs", "front_trips", "middle_trips", "middle_straight", "middle_flush",
                 "middle_full_house", "middle_quads", "middle_straight_flush", "back_trips", "back_straight",
                 "back_flush", "back_full_house", "back_quads", "back_straight_flush", "foul", "scoop", "players")
BOARD_FEATURES = ("board_h", "front_value", "middle_value", "back_value", "front_rank", "middle_rank", "back_rank",
                  "front_cards", "middle_cards", "back_cards", "front_pair", "front_high", "front_outs",
                  "front_fl_outs", "middle_suited", "back_suited", "middle_suit_live", "back_suit_live",
                  "middle_run", "back_run", "front_middle_margin", "middle_back_margin", "unseen", "empty",
                  "middle_outs", "back_outs", "front_next", "middle_next", "back_next", "middle_flush_draw",
                  "back_flush_draw", "middle_straight_draw", "back_straight_draw")
FEATURES = BOARD_FEATURES + RULE_FEATURES
N_BOARD = len(BOARD_FEATURES)
N_FEATURES = len(FEATURES)
QUEEN = 10  # rank index of a queen: front_fl_outs counts the outs to a queens-up pair
_R_MIDDLE = RULE_FEATURES.index("middle_straight")  # straight, flush of the middle; the back's below
_R_BACK = RULE_FEATURES.index("back_straight")


@njit(cache=_CACHE, nogil=True)
def _row_stats(board, row, n, per_rank, per_suit, out):
    """(max suited count, live unseen cards of that suit, longest run of distinct ranks in a
    five-rank window (the ace also low), unseen cards pairing a card of the row) into ``out``;
    ``per_rank`` and ``per_suit`` count the unseen cards."""
    s = _pk.STARTS[row]
    s0 = s1 = s2 = s3 = 0
    present = 0
    for i in range(n):
        su = board[s + i] & 3
        if su == 0:
            s0 += 1
        elif su == 1:
            s1 += 1
        elif su == 2:
            s2 += 1
        else:
            s3 += 1
        present |= 1 << (board[s + i] >> 2)
    best_suit, best = 0, s0
    if s1 > best:
        best_suit, best = 1, s1
    if s2 > best:
        best_suit, best = 2, s2
    if s3 > best:
        best_suit, best = 3, s3
    outs = 0
    for q in range(13):
        if (present >> q) & 1:
            outs += per_rank[q]
    bits = (present << 1) | ((present >> 12) & 1)  # bit 0: the ace as a one
    run = 0
    for lo in range(10):
        m = 0
        for j in range(lo, lo + 5):
            m += (bits >> j) & 1
        run = max(run, m)
    out[0] = best if n > 0 else 0
    out[1] = per_suit[best_suit]
    out[2] = run
    out[3] = outs


@njit(cache=_CACHE, nogil=True)
def _rank_with(board, row, n, extra, key, nonflush, flush, bit, t3):
    """:func:`cpstats.ofc._place_kernel.row_rank` of the row's ``n`` cards and the card ``extra``
    after them (the same rank, computed without allocating: it runs for every unseen rank)."""
    s = _pk.STARTS[row]
    m = n + 1
    present = 1 << (extra >> 2)
    for i in range(n):
        present |= 1 << (board[s + i] >> 2)
    if row == 0:
        r0 = board[s] >> 2 if n > 0 else -1
        r1 = board[s + 1] >> 2 if n > 1 else -1
        r2 = -1
        if n == 0:
            r0 = extra >> 2
        elif n == 1:
            r1 = extra >> 2
        else:
            r2 = extra >> 2
        j = 0
        for slot in range(m, 3):
            while (present >> j) & 1:
                j += 1
            if slot == 1:
                r1 = j
            else:
                r2 = j
            j += 1
        return np.int64(t3[r0 * 169 + r1 * 13 + r2])
    if m == 5:
        c0, c1, c2, c3 = board[s], board[s + 1], board[s + 2], board[s + 3]
        if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ extra)) & 3 == 0:
            return np.int64(flush[bit[c0] | bit[c1] | bit[c2] | bit[c3] | bit[extra]])
        return np.int64(nonflush[key[c0] + key[c1] + key[c2] + key[c3] + key[extra]])
    total = key[extra]
    for i in range(n):
        total += key[board[s + i]]
    need = 5 - m
    base = total
    j = 0
    for _ in range(need - 1):
        while (present >> j) & 1:
            j += 1
        base += key[4 * j]
        j += 1
    r = np.int64(0)
    while j < 13:  # a straight: move the highest phantom up
        if not (present >> j) & 1:
            r = np.int64(nonflush[base + key[4 * j]])
            if r < 5853 or r > 5862:
                return r
        j += 1
    return r


@njit(cache=_CACHE, nogil=True)
def _next_card_gain(board, row, n, rank, unseen_mask, per_rank, n_unseen, key, nonflush, flush, bit, t3, vt):
    """The mean gain in the row's value (``vt[row]``: royalty, entry value, row term; ``rank`` the
    row's rank now) from one more unseen card in it, 0 when the row is full. By rank while the row
    stays short of five cards (suits cannot complete a flush then), card by card when the card
    completes it."""
    cap = 3 if row == 0 else 5
    if n >= cap or n_unseen == 0:
        return 0.0
    now = vt[row, rank]
    gain = 0.0
    if row > 0 and n == 4:
        for c in range(52):
            if unseen_mask[c]:
                gain += vt[row, _rank_with(board, row, n, c, key, nonflush, flush, bit, t3)] - now
    else:
        for q in range(13):
            if per_rank[q] > 0:
                gain += per_rank[q] * (vt[row, _rank_with(board, row, n, 4 * q, key, nonflush, flush, bit, t3)] - now)
    return gain / n_unseen


@njit(cache=_CACHE, nogil=True)
def features(board, cnt, unseen_mask, key, nonflush, flush, bit, t3, ct, vt, prm, rules, out):
    """The :data:`FEATURES` of a partial board into ``out`` (float64[N_FEATURES]); ``unseen_mask``
    bool[52] marks the cards the player has not seen (neither placed anywhere nor discarded),
    ``rules`` float64[len(RULE_FEATURES)] the variant's rule numbers."""
    per_rank = np.zeros(13, dtype=np.int64)
    per_suit = np.zeros(4, dtype=np.int64)
    n_unseen = 0
    for c in range(52):
        if unseen_mask[c]:
            per_rank[c >> 2] += 1
            per_suit[c & 3] += 1
            n_unseen += 1
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
        for i in range(cnt[0]):
            q = board[i] >> 2
            outs += per_rank[q]
            if q >= QUEEN:
                fl_outs += per_rank[q]
    out[12] = outs
    out[13] = fl_outs
    st = np.empty(4, dtype=np.int64)
    for r in range(1, 3):
        _row_stats(board, r, cnt[r], per_rank, per_suit, st)
        out[13 + r] = st[0]
        out[15 + r] = st[1]
        out[17 + r] = st[2]
        out[23 + r] = st[3]
        alive = 2 <= cnt[r] < 5
        rule = _R_MIDDLE if r == 1 else _R_BACK
        out[28 + r] = rules[rule + 1] if alive and st[0] == cnt[r] else 0.0  # flush draw: all suited
        out[30 + r] = rules[rule] if alive and st[2] == cnt[r] else 0.0  # straight draw: one window
    out[20] = ct[1, rm] - ct[0, rf]
    out[21] = rb - rm
    out[22] = n_unseen
    out[23] = 13 - cnt[0] - cnt[1] - cnt[2]
    for r, rank in ((0, rf), (1, rm), (2, rb)):
        out[26 + r] = _next_card_gain(board, r, cnt[r], rank, unseen_mask, per_rank, n_unseen, key, nonflush, flush,
                                      bit, t3, vt)
    for i in range(rules.shape[0]):
        out[N_BOARD + i] = rules[i]


@njit(cache=_CACHE, nogil=True)
def predict(x, street, nodes, values, roots, base):
    """The model value of feature row ``x`` for the board after ``street`` (module docstring)."""
    v = base[street]
    for t in range(roots.shape[1]):
        i = roots[street, t]
        if i < 0:
            break
        f = nodes[i, 0]
        while f >= 0:
            i = i + 1 if x[f] <= values[i] else nodes[i, 1]
            f = nodes[i, 0]
        v += values[i]
    return v


@njit(cache=_CACHE, nogil=True)
def predict_batch(x, n, street, nodes, values, roots, base, out):
    """:func:`predict` of the first ``n`` rows of ``x`` into ``out``, tree by tree (the same sums,
    in the same order, as one row at a time)."""
    for r in range(n):
        out[r] = base[street]
    for t in range(roots.shape[1]):
        root = roots[street, t]
        if root < 0:
            break
        for r in range(n):
            i = root
            f = nodes[i, 0]
            while f >= 0:
                i = i + 1 if x[r, f] <= values[i] else nodes[i, 1]
                f = nodes[i, 0]
            out[r] += values[i]


@njit(cache=_CACHE, nogil=True)
def predict_rows(x, street, nodes, values, roots, base):
    """:func:`predict` of every row of ``x`` (float64[n, N_FEATURES])."""
    out = np.empty(x.shape[0])
    predict_batch(x, x.shape[0], street, nodes, values, roots, base, out)
    return out


@njit(cache=_CACHE, nogil=True)
def has_model(street, base):
    return 0 <= street < base.shape[0] and not np.isnan(base[street])


@njit(cache=_CACHE, nogil=True)
def _option_rows(board, cnt, dealt, k, kp, options, n, n_assign, rows, mask, key, nonflush, flush, bit, t3,
                 ct, vt, prm, rules, x):
    """The :data:`FEATURES` of the board after each of ``options[:n]`` into ``x[:n]``."""
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    for j in range(n):
        work[:] = board
        wcnt[:] = cnt
        _pk.apply_option(work, wcnt, dealt, k, kp, options[j], n_assign, rows)
        features(work, wcnt, mask, key, nonflush, flush, bit, t3, ct, vt, prm, rules, x[j])


@njit(cache=_CACHE, nogil=True)
def _next_best(b2, c2, drawn, k1, kp1, mask, street1, rows2, key, nonflush, flush, bit, t3, ct, vt, prm,
               nodes, values, roots, base, rules, xb, vb):
    """Best model value after ``street1`` among the :data:`NEXT_TOP` options of best ``board_h``
    of placing ``drawn`` on ``b2`` (``xb``, ``vb``: scratch rows and values)."""
    n_a = _pk.enumerate_rows(kp1, c2, rows2)
    n_o = n_a * (k1 if kp1 < k1 else 1)
    h = _pk._option_values(b2, c2, drawn, k1, kp1, rows2, n_a, n_o, key, nonflush, flush, bit, t3, ct, vt, prm)
    order = np.argsort(-h)
    m = min(NEXT_TOP, n_o)
    _option_rows(b2, c2, drawn, k1, kp1, order, m, n_a, rows2, mask, key, nonflush, flush, bit, t3, ct, vt, prm,
                 rules, xb)
    predict_batch(xb, m, street1, nodes, values, roots, base, vb)
    return vb[:m].max()


@njit(cache=_CACHE, nogil=True)
def _model_order(board, cnt, dealt, street, k, kp, n_assign, n_opt, rows, mask, key, nonflush, flush, bit, t3,
                 ct, vt, prm, nodes, values, roots, base, rules, top):
    """The options (best first) among the ``top`` of best ``board_h`` (every option when ``top``
    covers them) ranked by the model value of the board after ``street``; and how many."""
    order = np.argsort(-_pk._option_values(board, cnt, dealt, k, kp, rows, n_assign, n_opt, key, nonflush, flush,
                                           bit, t3, ct, vt, prm))
    m = min(top, n_opt)
    x = np.empty((m, N_FEATURES))
    value = np.empty(m)
    _option_rows(board, cnt, dealt, k, kp, order, m, n_assign, rows, mask, key, nonflush, flush, bit, t3, ct, vt,
                 prm, rules, x)
    predict_batch(x, m, street, nodes, values, roots, base, value)
    return order[:m][np.argsort(-value)], m


@njit(cache=_CACHE, nogil=True)
def learned_option(board, cnt, dealt, street, deal, keep, unseen, n_unseen, samples, top, prune, state,
                   key, nonflush, flush, bit, t3, ct, vt, prm, nodes, values, roots, base, rules):
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
    mask = np.zeros(52, dtype=np.bool_)
    for i in range(n_unseen):
        mask[unseen[i]] = True
    if prune > 0 and has_model(street, base):
        order, _ = _model_order(board, cnt, dealt, street, k, kp, n_assign, n_opt, rows, mask, key, nonflush, flush,
                                bit, t3, ct, vt, prm, nodes, values, roots, base, rules, n_opt)
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
    rows2 = np.empty((243, 5), dtype=np.int8)
    xb = np.empty((NEXT_TOP, N_FEATURES))
    vb = np.empty(NEXT_TOP)
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
                                       nonflush, flush, bit, t3, ct, vt, prm, nodes, values, roots, base, rules,
                                       xb, vb)
        s0 = s1
        if s0 >= samples or alive == 1:
            break
        alive = _pk.halve(cand, total, alive)
    return cand[np.argmax(total[:alive])]


@njit(cache=_CACHE, nogil=True)
def fast_option(board, cnt, dealt, street, deal, keep, unseen, n_unseen, top, key, nonflush, flush, bit, t3, ct,
                vt, prm, nodes, values, roots, base, rules):
    """``fast``'s option (module docstring): the last street exact (best ``board_h``, the exact
    objective of a complete board), the street before it exact (:func:`_pk.endgame_option`), an
    earlier street by its model among the ``top`` options of best ``board_h`` (best ``board_h``
    where the street has no model). Returns the option index."""
    k = deal[street]
    kp = keep[street]
    rows = np.empty((243, 5), dtype=np.int8)
    n_assign = _pk.enumerate_rows(kp, cnt, rows)
    n_opt = n_assign * (k if kp < k else 1)
    if n_opt == 1:
        return 0
    last = deal.shape[0] - 1
    if street == last - 1 and _pk.exact_shape(deal[last], keep[last]):
        return _pk.endgame_option(board, cnt, dealt, k, kp, rows, n_assign, n_opt, deal[last], keep[last], unseen,
                                  n_unseen, ct, vt, prm)
    if street == last or not has_model(street, base):
        return np.argmax(_pk._option_values(board, cnt, dealt, k, kp, rows, n_assign, n_opt, key, nonflush, flush,
                                            bit, t3, ct, vt, prm))
    mask = np.zeros(52, dtype=np.bool_)
    for i in range(n_unseen):
        mask[unseen[i]] = True
    order, _ = _model_order(board, cnt, dealt, street, k, kp, n_assign, n_opt, rows, mask, key, nonflush, flush,
                            bit, t3, ct, vt, prm, nodes, values, roots, base, rules, top)
    return order[0]


@njit(cache=_CACHE, nogil=True)
def play_streets_learned(deck, strat, deal, keep, samples, top, hind, seed, key, nonflush, flush, bit, t3,
                         ct, vt, prm, boards, discards, endgame, nodes, values, roots, base, rules, fast_top):
    """:func:`cpstats.ofc._place_kernel.play_streets_kernel` (same arguments, then the model
    arrays, the variant's ``rules`` and ``fast``'s ``fast_top``) with :data:`ROLLOUT_LEARNED`
    seats deciding each street whose next street has a model and is not the last by
    :func:`learned_option` (the seat's ``samples``, ``top``), the other streets as
    ``rollout-exact``, and :data:`FAST` seats by :func:`fast_option`; the other codes play as there."""
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
            exactish = strat[p] == _pk.ROLLOUT_EXACT or strat[p] == ROLLOUT_LEARNED or strat[p] == FAST
            tb = 0 if exactish else vt.shape[0] - 1
            if strat[p] == 0:
                o = _pk.rng_below(state, n_opt)
            elif strat[p] == 1:
                o, _ = _pk.greedy_option(boards[p], cnt[p], dealt, k, keep[t], rows, n_assign, work,
                                         wcnt, key, nonflush, flush, bit, t3, ct, vt[tb], prm[tb])
            elif strat[p] == FAST:
                n_u = _pk._unseen(unseen, own_disc[p], dealt, boards, n_p)
                o = fast_option(boards[p], cnt[p], dealt, t, deal, keep, unseen, n_u, fast_top, key, nonflush, flush,
                                bit, t3, ct, vt[tb], prm[tb], nodes, values, roots, base, rules)
            elif strat[p] == ROLLOUT_LEARNED and t + 1 < last and has_model(t + 1, base):
                n_u = _pk._unseen(unseen, own_disc[p], dealt, boards, n_p)
                o = learned_option(boards[p], cnt[p], dealt, t, deal, keep, unseen, n_u, samples[p],
                                   top, LEARNED_PRUNE, state, key, nonflush, flush, bit, t3, ct, vt[tb],
                                   prm[tb], nodes, values, roots, base, rules)
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
                 endgame=_pk.ENDGAME, model=None, fast_top=None):
    """One hand's streets: :func:`play_streets_learned` with the street ``model`` (trees and the
    variant's rules, :class:`cpstats.ofc.street_values.StreetModel`), or
    :func:`cpstats.ofc._place_kernel.play_streets_kernel` without one (a ``rollout`` or ``fast``
    seat then plays as ``rollout-exact``); ``args`` the stacked tables. The one place that chooses."""
    if model is None:
        _pk.play_streets_kernel(deck, strat, deal, keep, samples, top, hind, seed, *args, boards, discards, endgame)
    else:
        play_streets_learned(deck, strat, deal, keep, samples, top, hind, seed, *args, boards, discards, endgame,
                             *model, _pk.FAST_TOP if fast_top is None else fast_top)
