"""A small, plainly written pure-Python settlement of one deal: the definition the vectorized
engine (:mod:`cpstats.settlement._settle_kernel`) is tested against, deal by deal.

It reads the :class:`~cpstats.rules.Variant` directly and settles each pair of hands in
:meth:`~cpstats.rules.Variant.pair_order`, one rule at a time, in the order of the rulebook:

1. naturals (NAT-1/NAT-2, NAT-4: before surrenders, exempt from scooping);
2. surrenders (S-SURRENDER);
3. mis-set hands (S-MISSET);
4. the rows (section 3 scoring, section 4 royalties), then the aces side bet (S-ACES);
5. the chips limit (S-CHIPS), naturals first, then clockwise;
6. the house: rake, bank commission or fee, jackpot drop (S-RAKE, S-BANK).

Decisions are documented in :mod:`cpstats.settlement`; every formula here is written in the
same order as the kernel's so that floating-point results are identical.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from cpstats.hands import tables as _tables
from cpstats.hands.naturals import natural_mask
from cpstats.hands.ranking import rank3, rank5
from cpstats.rules.variant import NATURAL_NAMES, NaturalSettlement, RoyaltyMode, Variant
from cpstats.hands.setting import is_foul

__all__ = ["HandState", "PairRow", "DealResult", "settle_reference", "NORMAL", "FOUL",
           "SURRENDER", "NATURAL"]

NORMAL, FOUL, SURRENDER, NATURAL = "normal", "foul", "surrender", "natural"
#: 001's bad beat: pair in front, three of a kind in the middle, straight flush in the back.
BAD_BEAT_CATEGORIES = (1, 3, 8)


@dataclass
class HandState:
    """Everything the settlement needs to know about one hand."""

    codes: list[int]
    status: str
    natural: str | None = None
    natural_rank: int = -1
    natural_payout: float = 0.0
    natural_key: int = 0
    ranks: tuple[int, int, int] = (0, 0, 0)
    bonus: tuple[float, float, float] = (0.0, 0.0, 0.0)
    categories: tuple[int, int, int] = (0, 0, 0)
    dealt: float = 0.0
    aces: int = 0


@dataclass
class PairRow:
    """One pair's settlement, from hand ``a``'s point of view."""

    hand_a: int
    hand_b: int
    seat_a: int
    seat_b: int
    kind: str
    front: int = 0
    middle: int = 0
    back: int = 0
    points: float = 0.0
    royalties: float = 0.0
    bonuses: float = 0.0
    side: float = 0.0
    stake: float = 1.0
    total: float = 0.0
    paid: float = 0.0


@dataclass
class DealResult:
    net: list[float]
    pairs: list[PairRow]
    rake: float
    jackpot: float
    house: float
    hands: list[HandState] = field(default_factory=list)
    bad_beat: bool = False


@lru_cache(maxsize=64)
def _rules(variant: Variant) -> tuple[dict[str, np.ndarray], Any, float, float]:
    """The variant's tables, scoring numbers, mis-set penalty and surrender amount (cached)."""
    surrender = variant.surrender_amount()
    return (variant.kernel_tables(), variant.scoring_params(), float(variant.misset_points()),
            0.0 if surrender is None else float(surrender))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _six_pairs_key(codes: list[int]) -> int:
    """Pair ranks high to low (four of a kind is two pairs), as one base-13 number."""
    counts = [0] * 13
    for c in codes:
        counts[c // 4] += 1
    pair_ranks = []
    for r in range(12, -1, -1):
        pair_ranks += [r] * (counts[r] // 2)
    key = 0
    for r in pair_ranks[:6]:
        key = key * 13 + r
    return key


def _dealt_bonus(codes: list[int], bonuses: np.ndarray) -> float:
    """RM-DEALT: the back row's amount for quads or a straight flush held in the 13 cards."""
    counts = [0] * 13
    suit_masks = [0] * 4
    for c in codes:
        counts[c // 4] += 1
        suit_masks[c % 4] |= 1 << (c // 4)
    has_sf = False
    for mask in suit_masks:
        extended = (mask << 1) | (mask >> 12 & 1)  # ace also plays low (wheel)
        for low in range(10):
            if extended >> low & 0b11111 == 0b11111:
                has_sf = True
    best = 0.0
    if has_sf:
        best = float(bonuses[5])
    if 4 in counts and float(bonuses[4]) > best:
        best = float(bonuses[4])
    return best


def hand_state(variant: Variant, codes: np.ndarray, declared_bits: int, surrender: bool,
               tables: dict[str, np.ndarray] | None = None) -> HandState:
    """Status, ranks, royalties and natural of one hand (13 codes, front|middle|back)."""
    tables = variant.kernel_tables() if tables is None else tables
    order = variant.ranking.value
    codes_list = [int(c) for c in codes]
    state = HandState(codes=codes_list, status=NORMAL)
    state.aces = sum(1 for c in codes_list if c // 4 == 12)
    best = -1
    for i, name in enumerate(NATURAL_NAMES):
        if declared_bits >> i & 1 and tables["natural_rank"][i] > best:
            best = int(tables["natural_rank"][i])
            state.natural = name
            state.natural_payout = float(tables["natural_payout"][i])
    front, middle, back = codes[:3], codes[3:8], codes[8:]
    back_order = "H1" if order == "H5" else order
    state.ranks = (int(rank3(front, check=False)), int(rank5(middle, ordering=order, check=False)),
                   int(rank5(back, ordering=back_order, check=False)))
    if best >= 0:
        state.status = NATURAL
        state.natural_rank = best
        if state.natural == "six_pairs":
            state.natural_key = _six_pairs_key(codes_list)
        elif state.natural in ("three_straights", "three_flushes", "three_straight_flushes"):
            f, m, b = state.ranks
            state.natural_key = (b * 7462 + m) * 455 + f
    elif surrender:
        state.status = SURRENDER
    elif bool(is_foul(codes, ordering=order, check=False)):
        state.status = FOUL
    by_category = tables["royalty_by_category"]
    cat3 = int(_tables.three_card_keys()[state.ranks[0]][0])
    cat_m = int(_tables.five_card_tables(order).category[state.ranks[1]])
    cat_b = int(_tables.five_card_tables(back_order).category[state.ranks[2]])
    state.categories = (cat3, cat_m, cat_b)
    bonus = [float(by_category[0, cat3]), float(by_category[1, cat_m]),
             float(by_category[2, cat_b])]
    if order == "H5":
        bonus[1] = 0.0  # a deuce-to-seven middle earns no royalty
    if variant.royalties.mode is RoyaltyMode.DEALT:
        if cat_m >= 7:
            bonus[1] = 0.0
        if cat_b >= 7:
            bonus[2] = 0.0
        state.dealt = _dealt_bonus(codes_list, tables["royalty_bonus"])
    state.bonus = (bonus[0], bonus[1], bonus[2])
    return state


def _row_results(variant: Variant, a: HandState, b: HandState, a_is_bank: bool) -> list[int]:
    results = [_sign(a.ranks[r] - b.ranks[r]) for r in range(3)]
    if a_is_bank and variant.bank.wins_ties:
        results = [1 if r == 0 else r for r in results]
    return results


def _royalties(mode: RoyaltyMode, a: HandState, b: HandState, rows: list[int]) -> float:
    if mode is RoyaltyMode.ALWAYS:
        return (a.bonus[0] + a.bonus[1] + a.bonus[2]) - (b.bonus[0] + b.bonus[1] + b.bonus[2])
    if mode is RoyaltyMode.ONE:
        best_a = max([a.bonus[r] for r in range(3) if rows[r] > 0], default=0.0)
        best_b = max([b.bonus[r] for r in range(3) if rows[r] < 0], default=0.0)
        return best_a - best_b
    total = 0.0
    for r in range(3):
        if mode is RoyaltyMode.CANCEL and a.bonus[r] > 0 and b.bonus[r] > 0:
            continue
        if rows[r] > 0:
            total += a.bonus[r]
        elif rows[r] < 0:
            total -= b.bonus[r]
    if mode is RoyaltyMode.DEALT:
        total += a.dealt - b.dealt
    return total


def settle_reference(variant: Variant, settings: np.ndarray, *, naturals: list[int] | None = None,
                     surrender: list[bool] | None = None,
                     stacks: list[float] | None = None) -> DealResult:
    """Settle one deal.

    Parameters
    ----------
    variant
        The rules.
    settings
        ``uint8[H, 13]``: each hand front|middle|back (H = players x hands per player).
    naturals
        Declared natural bits per hand (0: none declared); bits not in the schedule are ignored.
    surrender
        Whether each hand surrenders.
    stacks
        Chips per seat at the start of the deal (S-CHIPS; used only with ``chips_limit``).
    """
    settings = np.asarray(settings, dtype=np.uint8)
    n_hands = settings.shape[0]
    per_seat = variant.hands_per_player
    naturals = naturals or [0] * n_hands
    surrender = surrender or [False] * n_hands
    tables, params, misset_penalty, surrender_amount = _rules(variant)
    hands = [hand_state(variant, settings[h], int(naturals[h]), bool(surrender[h]), tables)
             for h in range(n_hands)]
    stakes = tables["stakes"]
    aces = [float(v) for v in tables["aces"]]
    banked = variant.bank.banked
    pairs = [(int(a), int(b)) for a, b in variant.pair_order()]

    # A rows scoop of every opponent (a fouled opponent counts as scooped) is a home run.
    has_home_run = params.home_run_bonus != 0 or params.home_run_multiplier != 1
    home_run = [False] * n_hands
    if has_home_run:
        for h in range(n_hands):
            if hands[h].status != NORMAL:
                continue
            scooped_all, scooped_any = True, False
            for a, b in pairs:
                if h not in (a, b):
                    continue
                other = b if h == a else a
                if hands[other].status == FOUL:
                    continue
                if hands[other].status != NORMAL:
                    scooped_all = False
                    continue
                rows = _row_results(variant, hands[h], hands[other], banked and h == 0)
                if rows != [1, 1, 1]:
                    scooped_all = False
                scooped_any = True
            home_run[h] = scooped_all and scooped_any

    results: list[PairRow] = []
    bad_beat = False
    for a, b in pairs:
        ha, hb = hands[a], hands[b]
        row = PairRow(hand_a=a, hand_b=b, seat_a=a // per_seat, seat_b=b // per_seat, kind="rows")
        row.stake = float(stakes[row.seat_a, row.seat_b])
        x = 0.0
        if ha.status == NATURAL or hb.status == NATURAL:
            row.kind = NATURAL
            if ha.status == NATURAL and hb.status == NATURAL:
                if variant.naturals.settlement is NaturalSettlement.NAT_1:
                    x = ha.natural_payout - hb.natural_payout
                elif (ha.natural_rank, ha.natural_key) > (hb.natural_rank, hb.natural_key):
                    x = ha.natural_payout
                elif (ha.natural_rank, ha.natural_key) < (hb.natural_rank, hb.natural_key):
                    x = -hb.natural_payout
            elif ha.status == NATURAL:
                x = ha.natural_payout
            else:
                x = -hb.natural_payout
        elif ha.status == SURRENDER or hb.status == SURRENDER:
            row.kind = SURRENDER
            amount = surrender_amount
            if ha.status == SURRENDER and hb.status != SURRENDER:
                x = -amount
            elif hb.status == SURRENDER and ha.status != SURRENDER:
                x = amount
        elif ha.status == FOUL or hb.status == FOUL:
            row.kind = "misset"
            penalty = misset_penalty
            if ha.status == FOUL and hb.status != FOUL:
                x = -penalty
                row.front = row.middle = row.back = -1
            elif hb.status == FOUL and ha.status != FOUL:
                x = penalty
                row.front = row.middle = row.back = 1
        else:
            rows = _row_results(variant, ha, hb, banked and a == 0)
            row.front, row.middle, row.back = rows
            won = sum(1 for r in rows if r > 0)
            lost = sum(1 for r in rows if r < 0)
            row.points = (rows[0] + rows[1] + rows[2]) * params.row
            row.royalties = _royalties(variant.royalties.mode, ha, hb, rows)
            x = row.points + row.royalties
            if params.totals_first:
                if x > 0:
                    x += params.majority
                elif x < 0:
                    x -= params.majority
            elif won >= 2:
                x += params.majority
            elif lost >= 2:
                x -= params.majority
            if won == 3:
                x += params.scoop_bonus
                if home_run[a]:
                    x = (x + params.home_run_bonus) * params.home_run_multiplier
                else:
                    x = x * params.scoop_multiplier
            elif lost == 3:
                x -= params.scoop_bonus
                if home_run[b]:
                    x = (x - params.home_run_bonus) * params.home_run_multiplier
                else:
                    x = x * params.scoop_multiplier
            row.bonuses = x - row.points - row.royalties
            loser = ha if lost == 3 else hb if won == 3 else None
            if loser is not None and loser.categories == BAD_BEAT_CATEGORIES:
                bad_beat = True
        row.side = aces[ha.aces] - aces[hb.aces]
        row.total = row.stake * (x + row.side)
        results.append(row)

    # S-CHIPS: naturals first, then clockwise; nobody wins or loses more than their stack.
    n_seats = variant.players
    net = [0.0] * n_seats
    limit = variant.chips_limit and stacks is not None
    ordered = [r for r in results if r.kind == NATURAL] + [r for r in results if r.kind != NATURAL]
    for r in ordered:
        paid = r.total
        if limit:
            if paid > 0:
                paid = min(paid, stacks[r.seat_b] + net[r.seat_b], stacks[r.seat_a] - net[r.seat_a])
                paid = max(paid, 0.0)
            elif paid < 0:
                paid = -min(-paid, stacks[r.seat_a] + net[r.seat_a],
                            stacks[r.seat_b] - net[r.seat_b])
                paid = min(paid, 0.0)
        r.paid = paid
        net[r.seat_a] += paid
        net[r.seat_b] -= paid

    pot = 0.0
    for value in net:
        if value > 0:
            pot += value
    rake = variant.rake.per_hand(pot, n_seats)
    if banked:
        for seat in range(1, n_seats):
            if net[seat] > 0:
                if variant.bank.commission:
                    rake += variant.bank.commission * net[seat]
                if variant.bank.fee:
                    rake += variant.bank.fee
    house = net[0] if banked else 0.0
    return DealResult(net=net, pairs=results, rake=rake, jackpot=float(variant.rake.jackpot_drop),
                      house=house, hands=hands, bad_beat=bad_beat)


def natural_bits(variant: Variant, codes: np.ndarray) -> int:
    """Natural bits of one hand under the variant's detector options."""
    return int(natural_mask(codes, qka_front_straight=variant.naturals.qka_front_straight,
                            straight_flush_counts=variant.naturals.straight_flush_counts,
                            check=False))

