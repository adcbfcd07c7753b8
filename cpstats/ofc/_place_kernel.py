"""Private numba kernels of OFC street play: the ``random``, ``greedy`` and ``rollout`` placers.

A board is int8[13] laid out ``[front(3), middle(5), back(5)]``, -1 for an empty slot; a row
fills from its first slot. ``cnt`` holds the cards placed per row. One decision takes the
cards dealt on a street (``k`` of them, ``keep`` kept) and returns an option index: options
are (discarded card or none) x (a row for every kept card), enumerated in a fixed order.

Evaluation (:func:`board_h`): every row is ranked as if its empty slots held the lowest ranks
it lacks (a *pseudo-rank*: the made hand, no straight or flush completed). The board's value
is the per-row value tables ``vt`` (royalty, Fantasyland value, row-strength term) plus a
scoop term, mixed with the foul value by an estimated foul probability: a row whose upper
neighbour outranks it must improve, which fails with probability ``prm[FAIL + open]``. On a
complete board the pseudo-ranks are the ranks and ``prm[FAIL] = 1``, so ``board_h`` is the
exact objective. Flush draws in the middle and back earn ``prm[FLUSH + suited]`` times the row's
flush gain.

Tables (the same argument order everywhere): ``key`` (card rank keys), ``nonflush``,
``flush``, ``bit`` (card rank bits), ``t3`` (the hands layer's five- and three-card tables),
``ct`` int64[2, 7462] (front common by rank3, middle common by rank5), ``vt`` float64[6, 7462]
(value of front/middle/back by rank, then win probability of front/middle/back) and ``prm``
float64 (indices below). Random numbers come from a splitmix64 stream seeded by the caller.

Rollouts (:func:`rollout_option`): successive halving over the best options by ``board_h``, the
later streets of each sampled future played by ``greedy`` and the last ``completion`` streets
completed by the hindsight search of :mod:`cpstats.ofc._place_hindsight`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.ofc._place_exact import exact_shape, last_street_mean, rest_of
from cpstats.ofc._place_hindsight import hindsight_best, valid_masks

_CACHE = True

FOUL = 0  # value of a fouled board
SCOOP = 1  # weight of (P(scoop) - P(scooped))
FAIL = 2  # FAIL + 6 * need + open: chance a row with `open` empty slots fails to lift above an
# upper row of class `need` (0 high card, 1-3 a pair of 2-7 / 8-J / Q-A, 4 two pair or better)
FLUSH = 32  # FLUSH + n: chance that n suited cards (all of a row's cards) end a flush
GAIN = 38  # GAIN + 0/1: value of a flush in the middle / back over the row's pseudo-rank value
SEEN = 40  # cards a player sees per empty slot still to fill (for the chance to pair the front)
HIND_FOUL = 41  # value of a foul that a hindsight completion cannot avoid
N_PRM = 42

FORMER_TOP = 12  # options the former policy (strategy code 3) rolls out
ROLLOUT_V1 = 4  # strategy code of the frozen first rollout (no exact endgame), for matches
ROLLOUT_EXACT = 5  # strategy code of the rollout with an exact endgame and its own value tables
ROLLOUT_LEARNED = 6  # strategy code of the rollout valuing earlier streets by learned models (_value_kernel)
FAST = 7  # strategy code of the fast setting: each street by the learned models alone, no sampling (_value_kernel)
FAST_TOP = 64  # options of best board_h the fast setting values by its street's model
ENDGAME = 1  # streets before the last that ROLLOUT_EXACT plays by the exact endgame (rollout_option)
ENDGAME_TOP = 6  # options of best board_h an exact-endgame rollout tries on its sampled street

STARTS = np.array([0, 3, 8], dtype=np.int64)
CAPS = np.array([3, 5, 5], dtype=np.int64)


@njit(cache=_CACHE, nogil=True)
def rng_next(state):
    """splitmix64: the next 64-bit draw of the stream in ``state`` (uint64[1])."""
    x = state[0] + np.uint64(0x9E3779B97F4A7C15)
    state[0] = x
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=_CACHE, nogil=True)
def rng_below(state, n):
    """A draw in ``0..n-1`` (bias below 2**-40 for n <= 4096)."""
    return np.int64((rng_next(state) >> np.uint64(11)) % np.uint64(n))


@njit(cache=_CACHE, nogil=True)
def row_rank(board, row, n, key, nonflush, flush, bit, t3):
    """Rank (rank3 for the front, rank5 otherwise) of a row of ``n`` cards, empty slots read as
    the lowest ranks the row lacks, chosen so that they complete no straight. (No arrays are
    allocated: it runs for every option a rollout or a street model values.)"""
    s = STARTS[row]
    present = 0
    for i in range(n):
        present |= 1 << (board[s + i] >> 2)
    if row == 0:
        r0 = board[s] >> 2 if n > 0 else -1
        r1 = board[s + 1] >> 2 if n > 1 else -1
        r2 = board[s + 2] >> 2 if n > 2 else -1
        j = 0
        for i in range(n, 3):
            while (present >> j) & 1:
                j += 1
            if i == 0:
                r0 = j
            elif i == 1:
                r1 = j
            else:
                r2 = j
            j += 1
        return np.int64(t3[r0 * 169 + r1 * 13 + r2])
    if n == 5:
        c0, c1, c2, c3, c4 = board[s], board[s + 1], board[s + 2], board[s + 3], board[s + 4]
        if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
            return np.int64(flush[bit[c0] | bit[c1] | bit[c2] | bit[c3] | bit[c4]])
        return np.int64(nonflush[key[c0] + key[c1] + key[c2] + key[c3] + key[c4]])
    total = 0
    for i in range(n):
        total += key[board[s + i]]
    need = 5 - n
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
def suited_count(board, row, n):
    """Cards in the row when all share one suit, else 0."""
    s = STARTS[row]
    if n == 0:
        return 0
    su = board[s] & 3
    for i in range(1, n):
        if board[s + i] & 3 != su:
            return 0
    return n


@njit(cache=_CACHE, nogil=True)
def board_h(board, cnt, key, nonflush, flush, bit, t3, ct, vt, prm):
    """Estimated value of a (partial) board; exact on a complete board (module docstring)."""
    rf = row_rank(board, 0, cnt[0], key, nonflush, flush, bit, t3)
    rm = row_rank(board, 1, cnt[1], key, nonflush, flush, bit, t3)
    rb = row_rank(board, 2, cnt[2], key, nonflush, flush, bit, t3)
    p1 = prm[FAIL + 6 * _need3(rf) + 5 - cnt[1]] if ct[0, rf] > ct[1, rm] else 0.0
    p2 = prm[FAIL + 6 * _need5(rm) + 5 - cnt[2]] if rm > rb else 0.0
    pf = 1.0 - (1.0 - p1) * (1.0 - p2)
    v = _rows_value(rf, rm, rb, vt, prm)
    if cnt[1] < 5:
        v += prm[FLUSH + suited_count(board, 1, cnt[1])] * prm[GAIN]
    if cnt[2] < 5:
        v += prm[FLUSH + suited_count(board, 2, cnt[2])] * prm[GAIN + 1]
    total = (1.0 - pf) * v + pf * prm[FOUL]
    hi = -1
    if cnt[0] < 3 and rf < 286:  # an unpaired front may pair its highest card
        for i in range(cnt[0]):
            hi = max(hi, board[i] >> 2)
    if hi >= 0:
        rf2 = np.int64(t3[hi * 182 + (1 if hi == 0 else 0)])
        q1 = prm[FAIL + 6 * _need3(rf2) + 5 - cnt[1]] if ct[0, rf2] > ct[1, rm] else 0.0
        q = 1.0 - (1.0 - q1) * (1.0 - p2)
        v2 = v + _rows_value(rf2, rm, rb, vt, prm) - _rows_value(rf, rm, rb, vt, prm)
        paired = (1.0 - q) * v2 + q * prm[FOUL]
        if paired > total:
            seen = prm[SEEN] * (13 - cnt[0] - cnt[1] - cnt[2])
            total += (1.0 - (1.0 - 3.0 / 42.0) ** seen) * (paired - total)
    return total


@njit(cache=_CACHE, nogil=True)
def _need3(r):
    """Class of a front rank3 for ``FAIL``: 0 high card, 1-3 pair of 2-7 / 8-J / Q-A, 4 trips."""
    if r < 286:
        return 0
    if r >= 442:
        return 4
    pr = (r - 286) // 12
    return 1 if pr <= 5 else (2 if pr <= 9 else 3)


@njit(cache=_CACHE, nogil=True)
def _need5(r):
    """Class of a middle rank5 for ``FAIL`` (as :func:`_need3`; two pair and up are 4)."""
    if r < 1277:
        return 0
    if r >= 4137:
        return 4
    pr = (r - 1277) // 220
    return 1 if pr <= 5 else (2 if pr <= 9 else 3)


@njit(cache=_CACHE, nogil=True)
def _rows_value(rf, rm, rb, vt, prm):
    wf, wm, wb = vt[3, rf], vt[4, rm], vt[5, rb]
    return vt[0, rf] + vt[1, rm] + vt[2, rb] + prm[SCOOP] * (wf * wm * wb - (1 - wf) * (1 - wm) * (1 - wb))


@njit(cache=_CACHE, nogil=True)
def enumerate_rows(m, cnt, out):
    """Every assignment of ``m`` cards to rows with room (base-3 codes, card 0 first) into
    ``out`` (int8[243, 5]); returns how many."""
    total = 1
    for _ in range(m):
        total *= 3
    n = 0
    for code in range(total):
        c = code
        f = 0
        mm = 0
        b = 0
        for i in range(m):
            r = c % 3
            c //= 3
            out[n, i] = r
            if r == 0:
                f += 1
            elif r == 1:
                mm += 1
            else:
                b += 1
        if cnt[0] + f <= 3 and cnt[1] + mm <= 5 and cnt[2] + b <= 5:
            n += 1
    return n


@njit(cache=_CACHE, nogil=True)
def apply_option(board, cnt, dealt, k, keep, option, n_assign, rows):
    """Place the dealt cards per ``option`` (in place); returns the discarded card or -1."""
    disc = -1
    a = option
    if keep < k:
        disc = option // n_assign
        a = option % n_assign
    j = 0
    for i in range(k):
        if i == disc:
            continue
        r = rows[a, j]
        board[STARTS[r] + cnt[r]] = dealt[i]
        cnt[r] += 1
        j += 1
    return dealt[disc] if disc >= 0 else -1


@njit(cache=_CACHE, nogil=True)
def greedy_option(board, cnt, dealt, k, keep, rows, n_assign, work, wcnt,
                  key, nonflush, flush, bit, t3, ct, vt, prm):
    """The option of highest ``board_h`` (the first on ties); returns (option, value)."""
    n_opt = n_assign * (k if keep < k else 1)
    best = -1e300
    best_o = 0
    for o in range(n_opt):
        work[:] = board
        wcnt[:] = cnt
        apply_option(work, wcnt, dealt, k, keep, o, n_assign, rows)
        h = board_h(work, wcnt, key, nonflush, flush, bit, t3, ct, vt, prm)
        if h > best:
            best = h
            best_o = o
    return best_o, best


@njit(cache=_CACHE, nogil=True)
def complete_greedy(board, cnt, fut, street, deal, keep, rows, work, wcnt,
                    key, nonflush, flush, bit, t3, ct, vt, prm):
    """Play the streets from ``street`` on with the greedy policy on the cards ``fut`` (in
    dealing order), in place; returns the final board's exact value."""
    pos = 0
    for t in range(street, deal.shape[0]):
        k = deal[t]
        n_assign = enumerate_rows(keep[t], cnt, rows)
        o, _ = greedy_option(board, cnt, fut[pos:pos + k], k, keep[t], rows, n_assign, work, wcnt,
                             key, nonflush, flush, bit, t3, ct, vt, prm)
        apply_option(board, cnt, fut[pos:pos + k], k, keep[t], o, n_assign, rows)
        pos += k
    return board_h(board, cnt, key, nonflush, flush, bit, t3, ct, vt, prm)


@njit(cache=_CACHE, nogil=True)
def complete_hindsight(board, cnt, fut, n, valid, ranks, key, nonflush, flush, bit, t3, ct, vt, prm):
    """Exact value of the best completion of ``board`` knowing the future cards ``fut[:n]``
    (:func:`cpstats.ofc._place_hindsight.hindsight_best`; the scoop term added)."""
    hindsight_best(board, cnt, fut, n, valid, key, nonflush, flush, bit, t3, ct, vt, prm[HIND_FOUL], ranks)
    if ranks[0] < 0:
        return prm[HIND_FOUL]
    return _rows_value(ranks[0], ranks[1], ranks[2], vt, prm)


@njit(cache=_CACHE, nogil=True)
def _option_values(board, cnt, dealt, k, kp, rows, n_assign, n_opt, key, nonflush, flush, bit, t3,
                   ct, vt, prm):
    """``board_h`` of the board after each of the street's ``n_opt`` options."""
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    h = np.empty(n_opt)
    for o in range(n_opt):
        work[:] = board
        wcnt[:] = cnt
        apply_option(work, wcnt, dealt, k, kp, o, n_assign, rows)
        h[o] = board_h(work, wcnt, key, nonflush, flush, bit, t3, ct, vt, prm)
    return h


@njit(cache=_CACHE, nogil=True)
def _sample_futures(unseen, n_unseen, samples, n_fut, state):
    """``samples`` draws (rows) of ``n_fut`` distinct cards of ``unseen[:n_unseen]``."""
    fut = np.empty((samples, n_fut), dtype=np.int8)
    pool = unseen[:n_unseen].copy()
    for s in range(samples):
        for i in range(n_fut):
            j = i + rng_below(state, n_unseen - i)
            pool[i], pool[j] = pool[j], pool[i]
            fut[s, i] = pool[i]
    return fut


@njit(cache=_CACHE, nogil=True)
def rollout_option(board, cnt, dealt, street, deal, keep, unseen, n_unseen, samples, top, completion,
                   state, key, nonflush, flush, bit, t3, ct, vt, prm, exact=0):
    """The option of best mean final value over ``samples`` rollouts among the ``top`` options of
    best ``board_h`` (the same future cards for every option: common random numbers); on the
    last street the exact best. ``exact >= 1``: the street before the last is decided by
    :func:`endgame_option` (exact); ``exact >= 2``: the one before that by rollouts of its next
    street's deal alone, valued by :func:`_roll_exact`. ``completion >= 0``: successive halving (every option rolled out
    on a first quarter of the samples, the better half kept for the next quarter, and so on, so
    the survivors see every sample), each rollout played by ``greedy`` but for its last
    ``completion`` streets, completed by :func:`complete_hindsight`. ``completion < 0``: every
    option on every sample, completed by :func:`complete_greedy` (the former policy, kept for
    comparison). Returns the option index."""
    k = deal[street]
    kp = keep[street]
    rows = np.empty((243, 5), dtype=np.int8)
    n_assign = enumerate_rows(kp, cnt, rows)
    n_opt = n_assign * (k if kp < k else 1)
    order = np.argsort(-_option_values(board, cnt, dealt, k, kp, rows, n_assign, n_opt, key, nonflush,
                                       flush, bit, t3, ct, vt, prm))
    last = deal.shape[0] - 1
    if street == last or n_opt == 1:
        return order[0]
    endgame = exact > 0 and exact_shape(deal[last], keep[last]) and street >= last - exact
    if endgame and street == last - 1:
        return endgame_option(board, cnt, dealt, k, kp, rows, n_assign, n_opt, deal[last], keep[last],
                              unseen, n_unseen, ct, vt, prm)
    fut = _sample_futures(unseen, n_unseen, samples, deal[street + 1:].sum(), state)
    cand = order[:min(top, n_opt)].copy()
    total = np.zeros(cand.size)
    if completion < 0:
        _roll_greedy(board, cnt, dealt, street, deal, keep, fut, 0, samples, cand, total, rows, n_assign,
                     key, nonflush, flush, bit, t3, ct, vt, prm)
        return cand[np.argmax(total)]
    first = max(street + 1, deal.shape[0] - completion)
    valid = valid_masks(deal[first:].sum(), deal[first:], keep[first:])
    alive = cand.size
    s0 = 0
    batch = max(1, samples // 4)
    while True:
        s1 = min(samples, s0 + batch)
        if endgame:
            _roll_exact(board, cnt, dealt, street, deal, keep, fut, s0, s1, unseen, n_unseen, cand[:alive],
                        total[:alive], rows, n_assign, key, nonflush, flush, bit, t3, ct, vt, prm)
        else:
            _roll_hindsight(board, cnt, dealt, street, deal, keep, completion, fut, s0, s1, valid,
                            cand[:alive], total[:alive], rows, n_assign, key, nonflush, flush, bit, t3, ct,
                            vt, prm)
        s0 = s1
        if s0 >= samples or alive == 1:
            break
        alive = halve(cand, total, alive)
    return cand[np.argmax(total[:alive])]


@njit(cache=_CACHE, nogil=True)
def halve(cand, total, alive):
    """One step of successive halving: the ``alive`` candidates sorted by ``total`` (best first);
    returns how many stay (the better half, rounded up)."""
    by = np.argsort(-total[:alive])
    cand[:alive] = cand[:alive][by]
    total[:alive] = total[:alive][by]
    return (alive + 1) // 2


@njit(cache=_CACHE, nogil=True)
def endgame_option(board, cnt, dealt, k, kp, rows, n_assign, n_opt, k_last, kp_last, unseen, n_unseen,
                   ct, vt, prm):
    """The street before the last decided exactly: the option of best expected final value over
    every draw of the last street's cards (:func:`cpstats.ofc._place_exact.last_street_mean`)."""
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    best = -1e300
    best_o = 0
    for o in range(n_opt):
        work[:] = board
        wcnt[:] = cnt
        apply_option(work, wcnt, dealt, k, kp, o, n_assign, rows)
        v = last_street_mean(work, unseen, n_unseen, k_last, kp_last, ct, vt, prm[FOUL], prm[SCOOP])
        if v > best:
            best = v
            best_o = o
    return best_o


@njit(cache=_CACHE, nogil=True)
def _roll_exact(board, cnt, dealt, street, deal, keep, fut, s0, s1, unseen, n_unseen, cand, total, rows,
                n_assign, key, nonflush, flush, bit, t3, ct, vt, prm):
    """Add the values of samples ``s0..s1-1`` (each a deal of the next street, the street before
    the last) to ``total`` per option: the best, among the :data:`ENDGAME_TOP` options of best
    ``board_h`` on that deal, of the exact expected final value over every last-street draw."""
    k = deal[street]
    kp = keep[street]
    k1 = deal[street + 1]
    kp1 = keep[street + 1]
    last = deal.shape[0] - 1
    b2 = np.empty(13, dtype=np.int8)
    c2 = np.empty(3, dtype=np.int64)
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    rows2 = np.empty((243, 5), dtype=np.int8)
    rest = np.empty(52, dtype=np.int8)
    for q in range(cand.size):
        b2[:] = board
        c2[:] = cnt
        apply_option(b2, c2, dealt, k, kp, cand[q], n_assign, rows)
        n_a = enumerate_rows(kp1, c2, rows2)
        n_o = n_a * (k1 if kp1 < k1 else 1)
        for s in range(s0, s1):
            drawn = fut[s, :k1]
            n_rest = rest_of(unseen, n_unseen, drawn, rest)
            h = _option_values(b2, c2, drawn, k1, kp1, rows2, n_a, n_o, key, nonflush, flush, bit, t3,
                               ct, vt, prm)
            order = np.argsort(-h)
            best = -1e300
            for i in range(min(ENDGAME_TOP, n_o)):
                work[:] = b2
                wcnt[:] = c2
                apply_option(work, wcnt, drawn, k1, kp1, order[i], n_a, rows2)
                v = last_street_mean(work, rest, n_rest, deal[last], keep[last], ct, vt, prm[FOUL],
                                     prm[SCOOP])
                best = max(best, v)
            total[q] += best


@njit(cache=_CACHE, nogil=True)
def _roll_hindsight(board, cnt, dealt, street, deal, keep, hind, fut, s0, s1, valid, cand, total, rows,
                    n_assign, key, nonflush, flush, bit, t3, ct, vt, prm):
    """Add the values of samples ``s0..s1-1`` to ``total`` per option: the streets before the
    last ``hind`` played by ``greedy``, the last ``hind`` completed by hindsight."""
    k = deal[street]
    kp = keep[street]
    b2 = np.empty(13, dtype=np.int8)
    c2 = np.empty(3, dtype=np.int64)
    ranks = np.empty(3, dtype=np.int64)
    rows2 = np.empty((243, 5), dtype=np.int8)
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    first = max(street + 1, deal.shape[0] - hind)
    for q in range(cand.size):
        for s in range(s0, s1):
            b2[:] = board
            c2[:] = cnt
            apply_option(b2, c2, dealt, k, kp, cand[q], n_assign, rows)
            pos = 0
            for t in range(street + 1, first):
                n_a = enumerate_rows(keep[t], c2, rows2)
                o, _ = greedy_option(b2, c2, fut[s, pos:pos + deal[t]], deal[t], keep[t], rows2, n_a,
                                     work, wcnt, key, nonflush, flush, bit, t3, ct, vt, prm)
                apply_option(b2, c2, fut[s, pos:pos + deal[t]], deal[t], keep[t], o, n_a, rows2)
                pos += deal[t]
            total[q] += complete_hindsight(b2, c2, fut[s, pos:], fut.shape[1] - pos, valid, ranks, key,
                                           nonflush, flush, bit, t3, ct, vt, prm)


@njit(cache=_CACHE, nogil=True)
def _roll_greedy(board, cnt, dealt, street, deal, keep, fut, s0, s1, cand, total, rows, n_assign,
                 key, nonflush, flush, bit, t3, ct, vt, prm):
    """Add the greedy completion values of samples ``s0..s1-1`` to ``total`` per option."""
    k = deal[street]
    kp = keep[street]
    rows2 = np.empty((243, 5), dtype=np.int8)
    work = np.empty(13, dtype=np.int8)
    wcnt = np.empty(3, dtype=np.int64)
    b2 = np.empty(13, dtype=np.int8)
    c2 = np.empty(3, dtype=np.int64)
    for q in range(cand.size):
        for s in range(s0, s1):
            b2[:] = board
            c2[:] = cnt
            apply_option(b2, c2, dealt, k, kp, cand[q], n_assign, rows)
            total[q] += complete_greedy(b2, c2, fut[s], street + 1, deal, keep, rows2, work, wcnt,
                                        key, nonflush, flush, bit, t3, ct, vt, prm)


@njit(cache=_CACHE, nogil=True)
def play_streets_kernel(deck, strat, deal, keep, samples, top, hind, seed, key, nonflush, flush, bit, t3,
                        ct, vt, prm, boards, discards, endgame=ENDGAME):
    """Play one hand's streets for the players of ``strat`` (0 random, 1 greedy, 2 rollout with
    successive halving, 3 the former policy: rollouts completed by greedy, every sample for each
    of the best :data:`FORMER_TOP` options, 4 :data:`ROLLOUT_V1`, the same as 2, kept when 2
    changes, 5 :data:`ROLLOUT_EXACT`: 2 with the ``endgame`` streets before the last exact; 6
    :data:`ROLLOUT_LEARNED` and 7 :data:`FAST` play as 5 here, their models are used by
    :func:`cpstats.ofc._value_kernel.play_streets_learned`),
    dealing ``deal[t]`` cards a street to each in seat order from ``deck``; each sees every
    placed card, its own discards and its own deal; ``samples`` is per player. ``vt`` and
    ``prm`` hold one or more sets of value tables (a leading axis): code 5 plays by the first,
    the others by the last (so that the baselines keep their own tables). Fills
    ``boards`` (players, 13) and ``discards`` (players, streets; -1 where none)."""
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
    pos = 0
    for t in range(deal.shape[0]):
        k = deal[t]
        for p in range(n_p):
            dealt = deck[pos:pos + k]
            pos += k
            n_assign = enumerate_rows(keep[t], cnt[p], rows)
            n_opt = n_assign * (k if keep[t] < k else 1)
            exactish = strat[p] >= ROLLOUT_EXACT
            tb = 0 if exactish else vt.shape[0] - 1
            if strat[p] == 0:
                o = rng_below(state, n_opt)
            elif strat[p] == 1:
                o, _ = greedy_option(boards[p], cnt[p], dealt, k, keep[t], rows, n_assign, work,
                                     wcnt, key, nonflush, flush, bit, t3, ct, vt[tb], prm[tb])
            else:
                o = rollout_option(boards[p], cnt[p], dealt, t, deal, keep, unseen,
                                   _unseen(unseen, own_disc[p], dealt, boards, n_p), samples[p],
                                   FORMER_TOP if strat[p] == 3 else top, -1 if strat[p] == 3 else hind,
                                   state, key, nonflush, flush, bit, t3, ct, vt[tb], prm[tb],
                                   endgame if exactish else 0)
            d = apply_option(boards[p], cnt[p], dealt, k, keep[t], o, n_assign, rows)
            discards[p, t] = d
            if d >= 0:
                own_disc[p, d] = True


@njit(cache=_CACHE, nogil=True)
def _unseen(unseen, own_discards, dealt, boards, n_p):
    """Fill ``unseen`` with the cards a player has not seen; returns how many."""
    seen = np.zeros(52, dtype=np.bool_)
    for c in range(52):
        seen[c] = own_discards[c]
    for c in dealt:
        seen[c] = True
    for p in range(n_p):
        for i in range(13):
            if boards[p, i] >= 0:
                seen[boards[p, i]] = True
    n = 0
    for c in range(52):
        if not seen[c]:
            unseen[n] = c
            n += 1
    return n
