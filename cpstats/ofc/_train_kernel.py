"""Private numba kernels that label self-play hands for the street models (:mod:`cpstats.ofc.street_values`).

:func:`hand_rows` gives a hand's on-policy rows (each seat's board after each street but the
last, labelled by the exact mean final objective of its board before the last street);
:func:`option_rows` the off-policy rows of the street before the last (every option of the deal,
labelled exactly); :func:`lookahead_rows` those of an earlier street (the options of best
``board_h``, labelled by the lookahead over the later street's model: fitted value iteration).
Every row holds the variant's rule numbers (``rules``) after the board's features.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc._place_exact import last_street_mean
from cpstats.ofc._value_kernel import N_FEATURES, NEXT_TOP, _next_best, features

_CACHE = True


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
def hand_rows(deck, boards, discards, deal, keep, key, nonflush, flush, bit, t3, ct, vt, prm, rules, x, y):
    """Labels of one self-play hand (:func:`cpstats.ofc.street_values.label_hands`): ``x[p, t]``
    the features of seat ``p``'s board after street ``t`` (the cards it has not seen then:
    neither on its board, its discards, nor the boards of the seats that have placed street ``t``
    before it or ``t - 1`` after it), ``y[p]`` the exact mean final objective of its board before
    the last street."""
    n_p = boards.shape[0]
    last = deal.shape[0] - 1
    street_of, _ = _street_of(deck, deal, n_p, 0)
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
            features(part[p], pc[p], mask, key, nonflush, flush, bit, t3, ct, vt, prm, rules, x[p, t])
        n = 0
        for c in range(52):
            if mask[c]:
                unseen[n] = c
                n += 1
        y[p] = last_street_mean(part[p], unseen, n, deal[last], keep[last], ct, vt, prm[_pk.FOUL],
                                prm[_pk.SCOOP])


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
def option_rows(deck, boards, discards, deal, keep, key, nonflush, flush, bit, t3, ct, vt, prm, rules, x, y):
    """Off-policy labels of one self-play hand: for each seat ``p`` and every option ``o`` of its
    deal on the street before the last, placed on its board before that street, ``x[p, o]`` the
    features and ``y[p, o]`` the exact mean final objective of that board (NaN past the
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
            features(work, wcnt, mask, key, nonflush, flush, bit, t3, ct, vt, prm, rules, x[p, o])
            y[p, o] = last_street_mean(work, unseen, n, deal[last], keep[last], ct, vt, prm[_pk.FOUL],
                                       prm[_pk.SCOOP])


@njit(cache=_CACHE, nogil=True)
def lookahead_rows(deck, boards, discards, deal, keep, t, samples, seed, key, nonflush, flush, bit, t3, ct, vt,
                   prm, nodes, values, roots, base, rules, x, y):
    """Bootstrapped off-policy labels of one self-play hand: for each seat ``p`` and each of the
    first ``y.shape[1]`` options (best ``board_h`` first) of its deal on street ``t`` placed on
    its board before it, ``x[p, o]`` the features of that board and ``y[p, o]`` its value
    by the lookahead of :func:`cpstats.ofc._value_kernel.learned_option`: the mean over
    ``samples`` sampled deals of street ``t + 1`` of the best next-street model value."""
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
    xb = np.empty((NEXT_TOP, N_FEATURES))
    vb = np.empty(NEXT_TOP)
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
            features(b2, c2, mask, key, nonflush, flush, bit, t3, ct, vt, prm, rules, x[p, j])
            total = 0.0
            for s in range(samples):
                m2 = mask.copy()
                for i in range(k1):
                    m2[fut[s, i]] = False
                total += _next_best(b2, c2, fut[s], k1, keep[t + 1], m2, t + 1, rows2, key, nonflush, flush, bit,
                                    t3, ct, vt, prm, nodes, values, roots, base, rules, xb, vb)
            y[p, j] = total / samples
