"""Private numba kernel of the rollouts' completion policy: the hindsight (perfect-information) best.

Given a partial board and one sample of the player's future cards (``fut``, dealing order, in
groups of ``gdeal`` cards of which ``gkeep`` are kept), :func:`hindsight_best` finds the
completion of best objective as if every future card were known: the placed cards stay, the
empty slots of each row take a subset of the future cards, at most ``gkeep`` from each group.
The objective is the per-row value tables ``vt`` (royalty, Fantasyland value, row strength; see
:mod:`cpstats.ofc._place_kernel`) of a board that does not foul, else ``foul``.

The search is branch and bound over (back, middle, front) like the Fantasyland solver: every
subset of the future cards that fits a row's empty slots is ranked once and the row's subsets
sorted by value; backs best first, middles best first, fronts best first, each loop cut where
the sum of the values so far and the best of the rows still open cannot beat the best found.
The first front that fits is the best for its (back, middle). Disjointness and the per-group
limits are one lookup of the union mask in ``valid``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_CACHE = True

_STARTS = (0, 3, 8)


@njit(cache=_CACHE, nogil=True)
def valid_masks(n, gdeal, gkeep):
    """bool[2**n]: masks of the ``n`` future positions that take at most ``gkeep[g]`` cards of
    group ``g`` (the groups are consecutive, ``gdeal[g]`` positions each)."""
    out = np.ones(1 << n, dtype=np.bool_)
    for m in range(1 << n):
        s = 0
        for g in range(gdeal.shape[0]):
            c = 0
            for i in range(s, s + gdeal[g]):
                c += (m >> i) & 1
            if c > gkeep[g]:
                out[m] = False
            s += gdeal[g]
    return out


@njit(cache=_CACHE, nogil=True)
def _row_subsets(board, row, placed, fut, n, k, key, nonflush, flush, bit, t3, vt,
                 masks, ranks, vals):
    """Every ``k``-subset of the ``n`` future cards completing ``row`` (``placed`` cards in it):
    masks, ranks and values, sorted by value, best first. Returns the count."""
    s = _STARTS[row]
    count = 0
    m = (1 << k) - 1
    top = 1 << n
    cards = np.empty(5, dtype=np.int64)
    while m < top:
        j = 0
        for i in range(placed):
            cards[j] = board[s + i]
            j += 1
        for i in range(n):
            if (m >> i) & 1:
                cards[j] = fut[i]
                j += 1
        if row == 0:
            r = t3[(cards[0] >> 2) * 169 + (cards[1] >> 2) * 13 + (cards[2] >> 2)]
        else:
            suits = 0
            for i in range(5):
                suits |= 1 << (cards[i] & 3)
            if suits & (suits - 1) == 0:
                r = flush[bit[cards[0]] | bit[cards[1]] | bit[cards[2]] | bit[cards[3]] | bit[cards[4]]]
            else:
                r = nonflush[key[cards[0]] + key[cards[1]] + key[cards[2]] + key[cards[3]] + key[cards[4]]]
        masks[count] = m
        ranks[count] = r
        vals[count] = vt[row, r]
        count += 1
        if m == 0:
            break
        c = m & -m  # Gosper: the next mask with k bits
        r2 = m + c
        m = (((r2 ^ m) >> 2) // c) | r2
    order = np.argsort(-vals[:count])
    masks[:count] = masks[order]
    ranks[:count] = ranks[order]
    vals[:count] = vals[order]
    return count


@njit(cache=_CACHE, nogil=True)
def hindsight_best(board, cnt, fut, n, valid, key, nonflush, flush, bit, t3, ct, vt, foul, out):
    """Best completion of ``board`` with the future cards ``fut[:n]`` (module docstring): fills
    ``out`` (int64[3]) with its front, middle and back ranks (-1 when every completion fouls)
    and returns its decomposed value (``foul`` when it fouls)."""
    masks = np.empty((3, 800), dtype=np.int64)
    ranks = np.empty((3, 800), dtype=np.int64)
    vals = np.empty((3, 800))
    size = np.empty(3, dtype=np.int64)
    for row in range(3):
        cap = 3 if row == 0 else 5
        size[row] = _row_subsets(board, row, cnt[row], fut, n, cap - cnt[row], key, nonflush,
                                 flush, bit, t3, vt, masks[row], ranks[row], vals[row])
    best = foul
    out[:] = -1
    max_m = vals[1, 0]
    max_f = vals[0, 0]
    for i in range(size[2]):
        vb = vals[2, i]
        if vb + max_m + max_f <= best:
            break
        mb = masks[2, i]
        rb = ranks[2, i]
        for j in range(size[1]):
            vm = vb + vals[1, j]
            if vm + max_f <= best:
                break
            rm = ranks[1, j]
            mm = masks[1, j]
            if rm > rb or mm & mb or not valid[mm | mb]:
                continue
            cm = ct[1, rm]
            for q in range(size[0]):
                v = vm + vals[0, q]
                if v <= best:
                    break
                mf = masks[0, q]
                if mf & (mm | mb) or ct[0, ranks[0, q]] > cm or not valid[mf | mm | mb]:
                    continue
                best = v
                out[0] = ranks[0, q]
                out[1] = rm
                out[2] = rb
                break
    return best
