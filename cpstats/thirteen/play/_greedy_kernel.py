"""Private numba kernels of the baseline setters, ``greedy`` and ``random``.

Also here, at the end: the ``random`` kernel (rejection sampling of splits), ``greedy`` under H5
(a low middle, by subset enumeration) and the subset-ranking helpers that enumeration shares
with the ``ev`` search (``_ev_kernel`` calls them). The rest of this docstring is about the
``greedy`` kernel for H1 and H4: constructive, no subset enumeration.

Greedy sets a hand as the legal setting that is lexicographically strongest by (back rank,
middle rank, front rank) under the variant's rank tables. The kernel builds that setting from
the hand packed into one int64 (four 13-bit suit masks), the way fast seven-card evaluators do,
instead of ranking the 1,287 five-card subsets (some 35 times faster):

1. The back. The best non-flush five follows from the rank-count masks (quads, full house,
   straight, trips, two pair, pair, high card: the first category present wins). The best flush
   or straight flush of a suit is one lookup, ``flush_best[suit mask]`` (the strongest
   five-card subset of any 13-bit mask, built per ordering by :func:`flush_best_table`). The
   back is the stronger of the two. Straights are compared through the tables, so H1 and H4
   (wheel second) both work.
2. The middle. Backs of equal rank use the same ranks (a non-flush rank fixes the multiset of
   ranks, a flush rank the set), so they all leave the same eight *ranks* and differ only in
   suits, which matter to a flush (or straight flush) middle only. The best non-flush middle
   comes from the eight ranks as in step 1. A flush middle in suit ``s`` may use rank ``r``
   when some back of the best rank leaves the card ``(r, s)``, that is when the back takes
   fewer than all the hand's cards of rank ``r``. A flush back is fixed (when two suits hold the
   same best flush, either choice leaves that flush for the middle). So the best middle over
   all backs of the best rank is again one evaluation, and a non-flush back then takes its
   cards around the middle's flush.
3. The front is the other three cards. Its rank follows from the eight ranks and the middle's
   rank, so it is already the strongest possible: the setting is the lexicographic maximum.

No legality test is needed: the best five of any eight cards is never below the other three on
the common scale (a straight or better beats any three cards; trips leave no pair behind,
otherwise there would be a full house; two pair, a pair or high card take the highest pairs and
kickers), and the middle is never above the back, the best five of all thirteen. A test checks
all of this against an exhaustive search over the legal settings.

Equal-rank cards (the suit of a kicker or of a straight card) go to the lowest suit (clubs,
diamonds, hearts, spades), back first, then middle; each row keeps the hand's order of its
cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.cards._bits import highest_bit, pack_hand, rank_masks

_CACHE = True


def flush_best_table(flush: np.ndarray) -> np.ndarray:
    """``uint16[8192]``: the strongest five-card subset (a 13-bit mask) of every rank mask, by
    the five-card ``flush`` table of an ordering (so straight flushes and the wheel rank as the
    ordering says); 0 for masks of fewer than five ranks. Subsets of five distinct ranks all
    rank differently, so the choice is unique."""
    masks = np.arange(8192)
    count = np.zeros(8192, dtype=np.int64)
    for b in range(13):
        count += (masks >> b) & 1
    best = np.where(count == 5, masks, 0).astype(np.int64)
    rank = np.where(count == 5, flush.astype(np.int64), -1)
    for size in range(6, 14):
        sel = masks[count == size]
        for b in range(13):
            have = sel[(sel >> b) & 1 == 1]
            sub = have ^ (1 << b)
            better = rank[sub] > rank[have]
            best[have[better]] = best[sub[better]]
            rank[have[better]] = rank[sub[better]]
    return best.astype(np.uint16)


@njit(cache=_CACHE, nogil=True, inline="always")
def _key(card_key, r):
    """Perfect-hash key of one card of rank ``r`` (as int64: numba mixes uint32 and int64 into
    float64)."""
    return np.int64(card_key[r << 2])


@njit(cache=_CACHE, nogil=True, inline="always")
def _kickers(ranks, k, card_key):
    """(key sum, mask) of the ``k`` highest ranks of the 13-bit mask ``ranks``."""
    key = np.int64(0)
    mask = np.int64(0)
    for _ in range(k):
        r = highest_bit(ranks)
        key += _key(card_key, r)
        mask |= np.int64(1) << r
        ranks ^= np.int64(1) << r
    return key, mask


@njit(cache=_CACHE, nogil=True, inline="always")
def _straight(high, card_key):
    """(key sum, mask) of the straight topped by rank ``high`` (3: the wheel)."""
    mask = np.int64(0x100F) if high == 3 else np.int64(0x1F) << (high - 4)
    key = np.int64(0)
    m = mask
    for _ in range(5):
        r = highest_bit(m)
        key += _key(card_key, r)
        m ^= np.int64(1) << r
    return key, mask


@njit(cache=_CACHE, nogil=True, inline="always")
def _best_nonflush(packed, card_key, nonflush):
    """The strongest five, suits ignored, of the (at least five) cards of the packed hand.

    Returns its rank and four 13-bit masks ``t1..t4``: the ranks it takes at least 1, 2, 3 and 4
    cards of. Rank counts are read bit-parallel from the suit masks (``a2``: ranks held at least
    twice, and so on); the first category present wins (quads, full house, straight, trips, two
    pair, pair, high card), and the two straight candidates, the highest run and the wheel, are
    compared through the table so H1 and H4 both work.
    """
    _, _, _, _, a1, a2, a3, a4 = rank_masks(packed)
    run = a1 & (a1 << 1) & (a1 << 2) & (a1 << 3) & (a1 << 4)
    wheel = (a1 & 0x100F) == 0x100F
    zero = np.int64(0)
    if a4 != 0:
        q = np.int64(1) << highest_bit(a4)
        key, k = _kickers(a1 & ~q, 1, card_key)
        return np.int64(nonflush[key + 4 * _key(card_key, highest_bit(q))]), q | k, q, q, q
    if a3 != 0:
        t = np.int64(1) << highest_bit(a3)
        if a2 & ~t:
            p = np.int64(1) << highest_bit(a2 & ~t)
            key = 3 * _key(card_key, highest_bit(t)) + 2 * _key(card_key, highest_bit(p))
            return np.int64(nonflush[key]), t | p, t | p, t, zero
    if run != 0 or wheel:
        key, mask = _straight(highest_bit(run) if run != 0 else 3, card_key)
        if run != 0 and wheel:
            wkey, wmask = _straight(3, card_key)
            if nonflush[wkey] > nonflush[key]:  # H4: the wheel is the second-best straight
                key, mask = wkey, wmask
        return np.int64(nonflush[key]), mask, zero, zero, zero
    if a3 != 0:
        t = np.int64(1) << highest_bit(a3)
        key, k = _kickers(a1 & ~t, 2, card_key)
        return np.int64(nonflush[key + 3 * _key(card_key, highest_bit(t))]), t | k, t, t, zero
    if a2 & (a2 - 1):
        p1 = np.int64(1) << highest_bit(a2)
        p2 = np.int64(1) << highest_bit(a2 ^ p1)
        key, k = _kickers(a1 & ~(p1 | p2), 1, card_key)
        key += 2 * (_key(card_key, highest_bit(p1)) + _key(card_key, highest_bit(p2)))
        return np.int64(nonflush[key]), p1 | p2 | k, p1 | p2, zero, zero
    if a2 != 0:
        key, k = _kickers(a1 & ~a2, 3, card_key)
        return np.int64(nonflush[key + 2 * _key(card_key, highest_bit(a2))]), a2 | k, a2, zero, zero
    key, k = _kickers(a1, 5, card_key)
    return np.int64(nonflush[key]), k, zero, zero, zero


@njit(cache=_CACHE, nogil=True, inline="always")
def _best_flush(packed, flush, flush_best):
    """The strongest flush or straight flush of the packed hand: (rank, its cards packed);
    rank -1 when no suit has five cards. The lowest suit wins ties."""
    top = np.int64(-1)
    cards = np.int64(0)
    for s in range(4):
        m = flush_best[(packed >> (16 * s)) & 0x1FFF]
        if m != 0 and np.int64(flush[m]) > top:
            top = np.int64(flush[m])
            cards = np.int64(m) << (16 * s)
    return top, cards


@njit(cache=_CACHE, nogil=True, inline="always")
def _pick(t1, t2, t3, t4, free):
    """Packed cards: ``t1..t4`` as from :func:`_best_nonflush` (one card of each rank in
    ``t1``, a second of each in ``t2``, ...) taken from the packed cards ``free``, lowest suit
    first."""
    chosen = np.int64(0)
    for need in (t1, t2, t3, t4):
        for s in range(4):
            got = (free >> (16 * s)) & need
            chosen |= got << (16 * s)
            need &= ~got
        free &= ~chosen
    return chosen


@njit(cache=_CACHE, nogil=True, inline="always")
def _ranks(packed):
    """13-bit mask of the ranks present in a packed hand."""
    return (packed | (packed >> 16) | (packed >> 32) | (packed >> 48)) & 0x1FFF


@njit(cache=_CACHE, nogil=True, _nrt=False)
def greedy_kernel(hands, card_key, nonflush, flush, flush_best, out):
    """Greedy settings of ``hands`` (uint8[N, 13]) into ``out``, front|middle|back (see the
    module). ``card_key``, ``nonflush`` and ``flush`` are the ordering's five-card tables
    (:mod:`cpstats.hands.tables`), ``flush_best`` is :func:`flush_best_table` of ``flush``.

    Hands are packed into one int64 (suit ``s``'s 13-bit rank mask at bits ``16 * s``); the back
    and the middle are packed the same way. Compiled without numba's reference counting
    (``_nrt=False``, nothing is allocated): counting the table arguments in and out of the
    inlined helpers for every hand cost about a fifth of the time.
    """
    for i in range(hands.shape[0]):
        hand = hands[i]
        packed = pack_hand(hand)
        rank_b, t1, t2, t3, t4 = _best_nonflush(packed, card_key, nonflush)
        rank_f, back = _best_flush(packed, flush, flush_best)
        flush_back = rank_f > rank_b
        if not flush_back:
            back = _pick(t1, t2, t3, t4, packed)
        rest = packed & ~back
        rank_m, u1, u2, u3, u4 = _best_nonflush(rest, card_key, nonflush)
        if flush_back:
            free = rest
        else:
            # Every back of the best rank uses up the same ranks: the rest is free for a flush.
            gone = _ranks(packed) & ~_ranks(rest)
            free = packed & ~(gone | (gone << 16) | (gone << 32) | (gone << 48))
        rank_mf, mid = _best_flush(free, flush, flush_best)
        if rank_mf > rank_m:
            if not flush_back:
                back = _pick(t1, t2, t3, t4, packed & ~mid)
        else:
            mid = _pick(u1, u2, u3, u4, rest)
        # Next free column of the front, middle and back: 8 bits each in one word.
        slots = np.int64(0 | 3 << 8 | 8 << 16)
        for k in range(13):
            c = np.int64(hand[k])
            at = 16 * (c & 3) + (c >> 2)
            shift = 8 * (2 * ((back >> at) & 1) + ((mid >> at) & 1))
            out[i, (slots >> shift) & 0xFF] = c
            slots += np.int64(1) << shift


# -- subset ranking (shared with the ev search) and the other baselines' kernels --------------

@njit(cache=_CACHE, nogil=True, inline="always")
def _rank_fives(hand, card_key, card_bit, nonflush, flush, r5):
    """Fill ``r5`` (1287,) with the ranks of the hand's five-card subsets."""
    idx = 0
    for a in range(9):
        ca = hand[a]
        ka = card_key[ca]
        ba = card_bit[ca]
        sa = ca & 3
        for b in range(a + 1, 10):
            cb = hand[b]
            kb = ka + card_key[cb]
            bb = ba | card_bit[cb]
            sb = sa if (cb & 3) == sa else 9
            for c in range(b + 1, 11):
                cc = hand[c]
                kc = kb + card_key[cc]
                bc = bb | card_bit[cc]
                sc = sb if (cc & 3) == sb else 9
                for d in range(c + 1, 12):
                    cd = hand[d]
                    kd = kc + card_key[cd]
                    bd = bc | card_bit[cd]
                    sd = sc if (cd & 3) == sc else 9
                    for e in range(d + 1, 13):
                        ce = hand[e]
                        if (ce & 3) == sd:
                            r5[idx] = flush[bd | card_bit[ce]]
                        else:
                            r5[idx] = nonflush[kd + card_key[ce]]
                        idx += 1


@njit(cache=_CACHE, nogil=True, inline="always")
def _rank_threes(hand, table3, r3):
    """Fill ``r3`` (286,) with the ranks of the hand's three-card subsets."""
    idx = 0
    for a in range(11):
        ra = (hand[a] >> 2) * 169
        for b in range(a + 1, 12):
            rb = ra + (hand[b] >> 2) * 13
            for c in range(b + 1, 13):
                r3[idx] = table3[rb + (hand[c] >> 2)]
                idx += 1


@njit(cache=_CACHE, nogil=True, inline="always")
def _write(hand, out, i, f, m, b, five_pos, three_pos):
    for k in range(3):
        out[i, k] = hand[three_pos[f, k]]
    for k in range(5):
        out[i, 3 + k] = hand[five_pos[m, k]]
        out[i, 8 + k] = hand[five_pos[b, k]]


@njit(cache=_CACHE, nogil=True, inline="always")
def _rank_five_at(hand, pos, start, card_key, card_bit, nonflush, flush):
    """Rank of the five cards at positions ``pos[start:start + 5]`` of ``hand``."""
    c0 = hand[pos[start]]
    c1 = hand[pos[start + 1]]
    c2 = hand[pos[start + 2]]
    c3 = hand[pos[start + 3]]
    c4 = hand[pos[start + 4]]
    if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
        return np.int64(flush[card_bit[c0] | card_bit[c1] | card_bit[c2] | card_bit[c3]
                              | card_bit[c4]])
    return np.int64(nonflush[card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
                             + card_key[c4]])


@njit(cache=_CACHE, nogil=True, _nrt=False)
def random_kernel(hands, draws, split_pos, card_key, card_bit, nonflush, flush, table3,
                  common5, common3, low_middle, out, found):
    """The first legal split among each hand's ``draws`` (indices into ``split_pos``).

    Rejection sampling: each draw is a uniform unordered split, the stronger five goes in the
    back, fouls are rejected, so an accepted draw is uniform over legal settings. With
    ``low_middle`` (H5) the front is checked against the back only. ``found[i]`` is False when
    every draw fouled (the caller then samples that hand another way).
    """
    for i in range(hands.shape[0]):
        hand = hands[i]
        found[i] = False
        for t in range(draws.shape[1]):
            pos = split_pos[draws[i, t]]
            rm = _rank_five_at(hand, pos, 3, card_key, card_bit, nonflush, flush)
            rb = _rank_five_at(hand, pos, 8, card_key, card_bit, nonflush, flush)
            rf = table3[(hand[pos[0]] >> 2) * 169 + (hand[pos[1]] >> 2) * 13 + (hand[pos[2]] >> 2)]
            above = max(rm, rb) if low_middle else min(rm, rb)
            if common3[rf] > common5[above]:
                continue
            swap = rm > rb
            for k in range(3):
                out[i, k] = hand[pos[k]]
            for k in range(5):
                if swap:
                    out[i, 3 + k] = hand[pos[8 + k]]
                    out[i, 8 + k] = hand[pos[3 + k]]
                else:
                    out[i, 3 + k] = hand[pos[3 + k]]
                    out[i, 8 + k] = hand[pos[8 + k]]
            found[i] = True
            break


@njit(cache=_CACHE, nogil=True, _nrt=False)
def greedy_low_middle_kernel(hands, card_key, card_bit, nonflush, flush, low_nonflush, low_flush,
                             table3, rest_mid, rest_front, five_pos, three_pos, r5, out):
    """Greedy under H5 (a deuce-to-seven middle): among the backs of the best high rank and
    their 56 splits, the best low middle (``low_*`` tables: higher is the better low), then the
    strongest front. The best five of thirteen is never below three of the others, so every
    such setting is legal (back >= front)."""
    for i in range(hands.shape[0]):
        hand = hands[i]
        _rank_fives(hand, card_key, card_bit, nonflush, flush, r5)
        top = r5[0]
        for s in range(1, 1287):
            top = max(top, r5[s])
        best_m = np.int64(-1)
        best_f = np.int64(-1)
        bb = bm = bf = 0
        for b in range(1287):
            if r5[b] != top:
                continue
            for j in range(56):
                m = rest_mid[b, j]
                f = rest_front[b, j]
                lm = _rank_five_at(hand, five_pos[m], 0, card_key, card_bit, low_nonflush,
                                   low_flush)
                rf = np.int64(table3[(hand[three_pos[f, 0]] >> 2) * 169
                                     + (hand[three_pos[f, 1]] >> 2) * 13
                                     + (hand[three_pos[f, 2]] >> 2)])
                if lm > best_m or (lm == best_m and rf > best_f):
                    best_m, best_f, bb, bm, bf = lm, rf, b, m, f
        _write(hand, out, i, bf, bm, bb, five_pos, three_pos)
