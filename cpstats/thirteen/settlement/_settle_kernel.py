"""Numba kernel of the vectorized settlement: plain arrays in, arithmetic only.

:func:`settle_kernel` mirrors :func:`cpstats.thirteen.settlement.reference.settle_reference` step by step (same
formulas in the same order, so results agree exactly); :mod:`cpstats.thirteen.settlement` prepares every
array. Status codes: 0 normal, 1 foul, 2 surrender, 3 natural.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpstats.cards._bits import popcount

_CACHE = True

NORMAL, FOUL, SURRENDER, NATURAL = 0, 1, 2, 3
# Indices in cpstats.thirteen.rules.ids.NATURAL_NAMES.
SIX_PAIRS, THREE_STRAIGHTS, THREE_FLUSHES, THREE_SF = 3, 7, 8, 9
# Indices of RoyaltyMode members, in declaration order.
RM_WINNER, RM_CANCEL, RM_ALWAYS, RM_ONE, RM_DEALT = 0, 1, 2, 3, 4


@njit(cache=_CACHE, nogil=True)
def settle_kernel(fr, mr, br, settings, nat_bits, surr, dealt, stacks, use_stacks,
                  cat3, cat5m, cat5b, common5, common3, h5, by_cat, royalty_mode,
                  nat_payout, nat_rank, nat_settle, scoring, surrender_amount, misset, aces,
                  bank, rake_params, stakes, pairs, per_seat, out_net, out_rake):
    n_deals = fr.shape[0]
    n_hands = fr.shape[1]
    n_pairs = pairs.shape[0]
    n_seats = out_net.shape[1]
    # cpstats.thirteen.rules.components.SCORING_ARRAY: the front's points first, the others' after slot 7
    front_points = scoring[0]
    middle_points = scoring[8]
    back_points = scoring[9]
    majority = scoring[1]
    scoop_bonus = scoring[2]
    scoop_mult = scoring[3]
    hr_bonus = scoring[4]
    hr_mult = scoring[5]
    totals_first = scoring[6] != 0.0
    has_hr = hr_bonus != 0.0 or hr_mult != 1.0
    banked = bank[0] != 0.0
    wins_ties = bank[1] != 0.0
    commission = bank[2]
    fee = bank[3]
    rake_model = int(rake_params[0])
    aces_on = aces[4] != 0.0

    status = np.empty(n_hands, np.uint8)
    nrank = np.empty(n_hands, np.int64)
    nkey = np.zeros(n_hands, np.int64)
    counts = np.zeros(13, np.int64)
    npay = np.empty(n_hands, np.float64)
    bonus = np.empty((n_hands, 3), np.float64)
    n_aces = np.empty(n_hands, np.int64)
    home_run = np.empty(n_hands, np.bool_)
    cmp = np.zeros((n_pairs, 3), np.int64)
    total = np.empty(n_pairs, np.float64)
    is_nat = np.empty(n_pairs, np.bool_)
    net = np.empty(n_seats, np.float64)

    for d in range(n_deals):
        # -- each hand: natural, surrender, foul; royalties; aces
        for h in range(n_hands):
            f = fr[d, h]
            m = mr[d, h]
            b = br[d, h]
            best = -1
            best_i = -1
            pay = 0.0
            bits = nat_bits[d, h]
            if bits != 0:
                for i in range(18):
                    if (bits >> np.uint32(i)) & np.uint32(1):
                        if nat_rank[i] > best:
                            best = nat_rank[i]
                            best_i = i
                            pay = nat_payout[i]
            nrank[h] = best
            npay[h] = pay
            nkey[h] = 0
            if best_i == SIX_PAIRS:
                # NAT-2 tie-break: pair ranks high to low (four of a kind is two pairs)
                for r in range(13):
                    counts[r] = 0
                for c in range(13):
                    counts[settings[d, h, c] >> 2] += 1
                key = 0
                taken = 0
                for r in range(12, -1, -1):
                    k = counts[r] // 2
                    while k > 0 and taken < 6:
                        key = key * 13 + r
                        taken += 1
                        k -= 1
                nkey[h] = key
            elif best_i == THREE_STRAIGHTS or best_i == THREE_FLUSHES or best_i == THREE_SF:
                nkey[h] = (np.int64(b) * 7462 + np.int64(m)) * 455 + np.int64(f)
            if best >= 0:
                status[h] = NATURAL
            elif surr[d, h]:
                status[h] = SURRENDER
            else:
                if h5:
                    foul = common5[b] < common3[f]
                else:
                    foul = b < m or common5[m] < common3[f]
                status[h] = FOUL if foul else NORMAL
            bonus[h, 0] = by_cat[0, cat3[f]]
            bonus[h, 1] = by_cat[1, cat5m[m]]
            bonus[h, 2] = by_cat[2, cat5b[b]]
            k = 0
            if aces_on:
                for c in range(13):
                    if settings[d, h, c] >= 48:
                        k += 1
            n_aces[h] = k

        # -- row results of every pair of normal hands
        for p in range(n_pairs):
            a = pairs[p, 0]
            b = pairs[p, 1]
            if status[a] == NORMAL and status[b] == NORMAL:
                ra0 = np.int64(fr[d, a]) - np.int64(fr[d, b])
                ra1 = np.int64(mr[d, a]) - np.int64(mr[d, b])
                ra2 = np.int64(br[d, a]) - np.int64(br[d, b])
                c0 = 1 if ra0 > 0 else (-1 if ra0 < 0 else 0)
                c1 = 1 if ra1 > 0 else (-1 if ra1 < 0 else 0)
                c2 = 1 if ra2 > 0 else (-1 if ra2 < 0 else 0)
                if banked and wins_ties and a == 0:
                    if c0 == 0:
                        c0 = 1
                    if c1 == 0:
                        c1 = 1
                    if c2 == 0:
                        c2 = 1
                cmp[p, 0] = c0
                cmp[p, 1] = c1
                cmp[p, 2] = c2

        # -- home runs: a rows scoop of every opponent (a fouled one counts as scooped)
        for h in range(n_hands):
            home_run[h] = False
        if has_hr:
            for h in range(n_hands):
                if status[h] != NORMAL:
                    continue
                all_ = True
                any_ = False
                for p in range(n_pairs):
                    a = pairs[p, 0]
                    b = pairs[p, 1]
                    if a != h and b != h:
                        continue
                    other = b if a == h else a
                    if status[other] == FOUL:
                        continue
                    if status[other] != NORMAL:
                        all_ = False
                        continue
                    sgn = 1 if a == h else -1
                    if cmp[p, 0] * sgn != 1 or cmp[p, 1] * sgn != 1 or cmp[p, 2] * sgn != 1:
                        all_ = False
                    any_ = True
                home_run[h] = all_ and any_

        # -- each pair's amount, from a's point of view
        for p in range(n_pairs):
            a = pairs[p, 0]
            b = pairs[p, 1]
            sa = a // per_seat
            sb = b // per_seat
            x = 0.0
            is_nat[p] = False
            if status[a] == NATURAL or status[b] == NATURAL:
                is_nat[p] = True
                if status[a] == NATURAL and status[b] == NATURAL:
                    if nat_settle == 0:
                        x = npay[a] - npay[b]
                    else:
                        ka = nkey[a]
                        kb = nkey[b]
                        if nrank[a] > nrank[b] or (nrank[a] == nrank[b] and ka > kb):
                            x = npay[a]
                        elif nrank[a] < nrank[b] or (nrank[a] == nrank[b] and ka < kb):
                            x = -npay[b]
                elif status[a] == NATURAL:
                    x = npay[a]
                else:
                    x = -npay[b]
            elif status[a] == SURRENDER or status[b] == SURRENDER:
                if status[a] == SURRENDER and status[b] != SURRENDER:
                    x = -surrender_amount
                elif status[b] == SURRENDER and status[a] != SURRENDER:
                    x = surrender_amount
            elif status[a] == FOUL or status[b] == FOUL:
                if status[a] == FOUL and status[b] != FOUL:
                    x = -misset
                elif status[b] == FOUL and status[a] != FOUL:
                    x = misset
            else:
                c0 = cmp[p, 0]
                c1 = cmp[p, 1]
                c2 = cmp[p, 2]
                won = (c0 > 0) + (c1 > 0) + (c2 > 0)
                lost = (c0 < 0) + (c1 < 0) + (c2 < 0)
                points = c0 * front_points + c1 * middle_points + c2 * back_points
                roy = 0.0
                if royalty_mode == RM_ALWAYS:
                    roy = (bonus[a, 0] + bonus[a, 1] + bonus[a, 2]) - (
                        bonus[b, 0] + bonus[b, 1] + bonus[b, 2])
                elif royalty_mode == RM_ONE:
                    best_a = 0.0
                    best_b = 0.0
                    first_a = True
                    first_b = True
                    for r in range(3):
                        c = cmp[p, r]
                        if c > 0 and (first_a or bonus[a, r] > best_a):
                            best_a = bonus[a, r]
                            first_a = False
                        elif c < 0 and (first_b or bonus[b, r] > best_b):
                            best_b = bonus[b, r]
                            first_b = False
                    roy = best_a - best_b
                else:
                    for r in range(3):
                        if royalty_mode == RM_CANCEL and bonus[a, r] > 0 and bonus[b, r] > 0:
                            continue
                        c = cmp[p, r]
                        if c > 0:
                            roy += bonus[a, r]
                        elif c < 0:
                            roy -= bonus[b, r]
                    if royalty_mode == RM_DEALT:
                        roy += dealt[d, a] - dealt[d, b]
                x = points + roy
                if totals_first:
                    if x > 0:
                        x += majority
                    elif x < 0:
                        x -= majority
                elif won >= 2:
                    x += majority
                elif lost >= 2:
                    x -= majority
                if won == 3:
                    x += scoop_bonus
                    if home_run[a]:
                        x = (x + hr_bonus) * hr_mult
                    else:
                        x = x * scoop_mult
                elif lost == 3:
                    x -= scoop_bonus
                    if home_run[b]:
                        x = (x - hr_bonus) * hr_mult
                    else:
                        x = x * scoop_mult
            side = aces[n_aces[a]] - aces[n_aces[b]]
            total[p] = stakes[sa, sb] * (x + side)
            cmp[p, 0] = 0
            cmp[p, 1] = 0
            cmp[p, 2] = 0

        # -- S-CHIPS: naturals first, then clockwise
        for s in range(n_seats):
            net[s] = 0.0
        for phase in range(2):
            for p in range(n_pairs):
                if is_nat[p] != (phase == 0):
                    continue
                sa = pairs[p, 0] // per_seat
                sb = pairs[p, 1] // per_seat
                paid = total[p]
                if use_stacks:
                    if paid > 0:
                        paid = min(paid, stacks[d, sb] + net[sb], stacks[d, sa] - net[sa])
                        paid = max(paid, 0.0)
                    elif paid < 0:
                        paid = -min(-paid, stacks[d, sa] + net[sa], stacks[d, sb] - net[sb])
                        paid = min(paid, 0.0)
                net[sa] += paid
                net[sb] -= paid

        # -- the house
        pot = 0.0
        for s in range(n_seats):
            out_net[d, s] = net[s]
            if net[s] > 0:
                pot += net[s]
        rake = 0.0
        if rake_model == 1:
            rake = rake_params[1]
        elif rake_model == 2:
            rake = rake_params[1] * n_seats
        elif rake_model == 4:
            rake = rake_params[1] * n_seats / rake_params[5]
        elif rake_model == 3 and pot >= rake_params[4]:
            rake = min(rake_params[2] * pot, rake_params[3])
        if banked:
            for s in range(1, n_seats):
                if net[s] > 0:
                    if commission != 0.0:
                        rake += commission * net[s]
                    if fee != 0.0:
                        rake += fee
        out_rake[d] = rake


@njit(cache=_CACHE, nogil=True)
def split_rows(settings, check_deck, front, middle, back):
    """Copy ``settings[..., :3]``, ``[..., 3:8]`` and ``[..., 8:]`` (flattened to rows) into
    contiguous arrays; numpy's strided copy of five-byte rows is several times slower.

    ``settings`` is ``uint8[D, H, 13]``; returns the index of the first deal holding a code
    >= 52, a hand holding a card twice or, with ``check_deck``, a card in two hands (one OR per
    card), or -1.
    """
    n_hands = settings.shape[1]
    i = 0
    for d in range(settings.shape[0]):
        seen = np.int64(0)
        for h in range(n_hands):
            hand = np.int64(0)
            for c in range(13):
                code = settings[d, h, c]
                if code >= 52:
                    return d
                hand |= np.int64(1) << np.int64(code)
            if popcount(hand) != 13:
                return d
            seen |= hand
            for c in range(3):
                front[i, c] = settings[d, h, c]
            for c in range(5):
                middle[i, c] = settings[d, h, 3 + c]
                back[i, c] = settings[d, h, 8 + c]
            i += 1
        if check_deck and popcount(seen) != 13 * n_hands:
            return d
    return -1
