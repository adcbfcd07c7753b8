"""Private numba kernels of the exact open-face endgame: the last street's expectation over every draw.

Before the last street a board has exactly as many empty slots as that street keeps (``kp`` of
its ``k`` cards). Once those cards are seen the last street is a full-information choice, so the
board's exact expected final value (to the player, who has not seen them) is
:func:`last_street_mean`: the mean, over every ``k``-subset of the player's unseen cards (each
equally likely from where the player sits: the other players' hidden cards are exchangeable with
the stub), of the best final board those cards make. The best completion by each ``kp``-subset of
the unseen cards is computed once (:func:`_best_completions`), so that a draw costs the max of its
``kp``-subsets' values, a few lookups. Shapes: ``kp`` 1 or 2 and ``kp <= k <= 3`` (classic's
last street is (1, 1), Pineapple's (3, 2)); :func:`exact_shape` says whether a deal has one.

The value of a complete board is the placement objective of :mod:`cpstats.ofc._place_kernel`:
the per-row tables ``vt`` plus ``scoop`` times (P(scoop) - P(scooped)) when it does not foul,
``foul`` when it does (the exact foul value, not the doubled one of hindsight completions: the
endgame sees no future it will not have).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.ofc._board_kernel import CARD_BIT, CARD_KEY, FLUSH, NONFLUSH, THREE, rank3_at, rank5_at

_CACHE = True


@njit(cache=_CACHE, nogil=True)
def exact_shape(k, kp):
    """Whether a last street dealing ``k`` cards and keeping ``kp`` is one the kernels handle."""
    return 1 <= kp <= 2 and kp <= k <= 3


@njit(cache=_CACHE, nogil=True)
def final_value(board, ct, vt, foul, scoop):
    """The objective of a complete board (module docstring)."""
    return ranks_value(rank3_at(board, 0), rank5_at(board, 3), rank5_at(board, 8), ct, vt, foul, scoop)


@njit(cache=_CACHE, nogil=True)
def ranks_value(rf, rm, rb, ct, vt, foul, scoop):
    """The objective of a complete board of these row ranks (front rank3, middle and back rank5)."""
    if rb < rm or ct[1, rm] < ct[0, rf]:
        return foul
    wf = vt[3, rf]
    wm = vt[4, rm]
    wb = vt[5, rb]
    return vt[0, rf] + vt[1, rm] + vt[2, rb] + scoop * (wf * wm * wb - (1 - wf) * (1 - wm) * (1 - wb))


@njit(cache=_CACHE, nogil=True)
def _row_of(slot):
    return 0 if slot < 3 else (1 if slot < 8 else 2)


@njit(cache=_CACHE, nogil=True)
def _row_rank(board, row):
    return rank3_at(board, 0) if row == 0 else rank5_at(board, 3 if row == 1 else 8)


@njit(cache=_CACHE, nogil=True, inline="always")
def _pick(tab, i0, i1, i2, foul, scoop):
    """The objective from per-card row terms ``tab`` (4, 3, n: rank, common scale, value, win
    chance of each row) with the front's terms at card ``i0``, the middle's ``i1``, the back's
    ``i2`` (a full row's terms are the same at every card)."""
    if tab[0, 2, i2] < tab[0, 1, i1] or tab[1, 1, i1] < tab[1, 0, i0]:
        return foul
    wf = tab[3, 0, i0]
    wm = tab[3, 1, i1]
    wb = tab[3, 2, i2]
    return tab[2, 0, i0] + tab[2, 1, i1] + tab[2, 2, i2] + scoop * (wf * wm * wb - (1 - wf) * (1 - wm) * (1 - wb))


@njit(cache=_CACHE, nogil=True, inline="always")
def _at(row, ra, rb, x, y):
    """The card whose terms ``row`` takes when card ``x`` fills row ``ra`` and ``y`` row ``rb``."""
    return x if row == ra else (y if row == rb else 0)


@njit(cache=_CACHE, nogil=True)
def _best_completions(board, unseen, n, kp, ct, vt, foul, scoop, out):
    """``out[i, j]`` (i < j, or i == j when ``kp == 1``): the best final value of ``board`` with
    its empty slots filled by ``unseen[i]`` (and ``unseen[j]``). When the empty slots lie in
    different rows, each row's terms are looked up once per card (``tab``) and a pair costs a
    few reads of that small array; when they share a row, its rank is looked up per pair."""
    e = np.empty(2, dtype=np.int64)
    m = 0
    for s in range(13):
        if board[s] < 0:
            e[m] = s
            m += 1
    work = board.copy()
    for s in range(13):  # fill the open slots for now: the full rows' ranks are read below
        if work[s] < 0:
            work[s] = unseen[0] if s == e[0] else unseen[1]
    ra = _row_of(e[0])
    rb = _row_of(e[kp - 1])
    tab = np.empty((4, 3, n))
    for row in range(3):
        fixed = _row_rank(work, row)
        for i in range(n):
            if row == ra or row == rb:
                work[e[0] if row == ra else e[kp - 1]] = unseen[i]
                if kp == 2 and ra == rb:
                    break  # the shared row is ranked per pair below
                r = _row_rank(work, row)
            else:
                r = fixed
            tab[0, row, i] = r
            tab[1, row, i] = ct[min(row, 1), r]
            tab[2, row, i] = vt[row, r]
            tab[3, row, i] = vt[3 + row, r]
    if kp == 1:
        for i in range(n):
            out[i, i] = _pick(tab, i, i, i, foul, scoop)
        return
    if ra != rb:
        for i in range(n):
            for j in range(i + 1, n):
                v1 = _pick(tab, _at(0, ra, rb, i, j), _at(1, ra, rb, i, j), _at(2, ra, rb, i, j), foul, scoop)
                v2 = _pick(tab, _at(0, ra, rb, j, i), _at(1, ra, rb, j, i), _at(2, ra, rb, j, i), foul, scoop)
                out[i, j] = max(v1, v2)
        return
    r = np.empty(3, dtype=np.int64)
    for row in range(3):
        r[row] = np.int64(tab[0, row, 0]) if row != ra else 0
    # both empty slots in one row: its rank per pair, from the fixed cards' key sum (or rank
    # bits and suit when they could make a flush) and the pair's
    s0 = 0 if ra == 0 else (3 if ra == 1 else 8)
    total = 0
    bits = 0
    suit = board[s0] & 3
    for q in range(s0, e[0]):
        total += CARD_KEY[board[q]]
        bits |= CARD_BIT[board[q]]
        if board[q] & 3 != suit:
            suit = -1
    for i in range(n):
        ci = unseen[i]
        for j in range(i + 1, n):
            cj = unseen[j]
            if ra == 0:
                r[0] = THREE[(board[0] >> 2) * 169 + (ci >> 2) * 13 + (cj >> 2)]  # its one fixed card
            elif suit >= 0 and ci & 3 == suit and cj & 3 == suit:
                r[ra] = FLUSH[bits | CARD_BIT[ci] | CARD_BIT[cj]]
            else:
                r[ra] = NONFLUSH[total + CARD_KEY[ci] + CARD_KEY[cj]]
            out[i, j] = ranks_value(r[0], r[1], r[2], ct, vt, foul, scoop)


@njit(cache=_CACHE, nogil=True)
def last_street_mean(board, unseen, n, k, kp, ct, vt, foul, scoop):
    """Exact expected final value of ``board`` (``kp`` empty slots) when the last street deals
    ``k`` of the ``n`` cards ``unseen[:n]`` (every subset alike) and is played best."""
    best = np.empty((n, n))
    _best_completions(board, unseen, n, kp, ct, vt, foul, scoop, best)
    total = 0.0
    count = 0
    for a in range(n):
        if k == 1:
            total += best[a, a]
            count += 1
            continue
        for b in range(a + 1, n):
            if k == 2:
                total += max(best[a, a], best[b, b]) if kp == 1 else best[a, b]
                count += 1
                continue
            for c in range(b + 1, n):
                if kp == 1:
                    total += max(best[a, a], best[b, b], best[c, c])
                else:
                    total += max(best[a, b], best[a, c], best[b, c])
                count += 1
    return total / count


@njit(cache=_CACHE, nogil=True)
def rest_of(unseen, n, drawn, out):
    """``unseen[:n]`` without the cards of ``drawn`` into ``out``; returns how many."""
    m = 0
    for i in range(n):
        c = unseen[i]
        hit = False
        for d in drawn:
            if d == c:
                hit = True
                break
        if not hit:
            out[m] = c
            m += 1
    return m
