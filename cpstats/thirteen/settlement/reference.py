"""A small, plainly written pure-Python settlement of one deal: the definition the vectorized
engine (:mod:`cpstats.thirteen.settlement._settle_kernel`) is tested against, deal by deal.

It reads the :class:`~cpstats.thirteen.rules.variant.Variant` directly and settles each pair of hands in
:meth:`~cpstats.thirteen.rules.variant.Variant.pair_order`, one rule at a time, in the order of the rulebook, one
function a step (``_settle_pair`` applies the first of steps 1-4 that fits, then step 5):

1. naturals (NAT-1/NAT-2, NAT-4: before surrenders, exempt from scooping): ``_natural_payment``;
2. surrenders (S-SURRENDER): ``_surrender_payment``;
3. mis-set hands (S-MISSET): ``_misset_payment``;
4. the rows (section 3 scoring, section 4 royalties): ``_rows_and_royalties``, then the majority,
   scoop and home run (``_home_runs`` finds who scoops everyone): ``_with_bonuses``;
5. the aces side bet (S-ACES), then the pair's stake;
6. the chips limit (S-CHIPS), naturals first, then clockwise: ``_pay_within_stacks``;
7. the house: rake, bank commission or fee (S-RAKE, S-BANK): ``_house_take``; the jackpot drop.

Decisions are documented in :mod:`cpstats.thirteen.settlement`; every formula here is written in the
same order as the kernel's so that floating-point results are identical.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from cpstats.hands import tables as _tables
from cpstats.thirteen.naturals.detect import natural_mask
from cpstats.hands.ranking import rank3, rank5
from cpstats.thirteen.rules.ids import NATURAL_NAMES, NaturalSettlement, RoyaltyMode
from cpstats.thirteen.rules.components import ScoringParams
from cpstats.thirteen.rules.variant import Variant
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


class _Rules(NamedTuple):
    """The numbers settlement reads from a variant, looked up once per variant."""

    tables: dict[str, np.ndarray]
    scoring: ScoringParams
    misset_penalty: float
    surrender_amount: float
    aces: tuple[float, ...]


@lru_cache(maxsize=64)
def _rules(variant: Variant) -> _Rules:
    """The variant's tables, scoring numbers, mis-set penalty, surrender amount and aces side
    bet amounts by number of aces held (cached)."""
    surrender = variant.surrender_amount()
    tables = variant.kernel_tables()
    return _Rules(tables, variant.scoring_params(), float(variant.misset_points()),
                  0.0 if surrender is None else float(surrender),
                  tuple(float(v) for v in tables["aces"]))


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
    """Settle one deal: each pair of hands (:func:`_settle_pair`), then the chips limit
    (:func:`_pay_within_stacks`) and the house's take (:func:`_house_take`).

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
    naturals = naturals or [0] * n_hands
    surrender = surrender or [False] * n_hands
    rules = _rules(variant)
    hands = [hand_state(variant, settings[h], int(naturals[h]), bool(surrender[h]), rules.tables)
             for h in range(n_hands)]
    order = [(int(a), int(b)) for a, b in variant.pair_order()]
    home_run = _home_runs(variant, hands, order)
    pairs = [_settle_pair(variant, rules, hands[a], hands[b], (a, b), home_run) for a, b in order]
    net = _pay_within_stacks(pairs, variant.players, stacks if variant.chips_limit else None)
    return DealResult(net=net, pairs=pairs, rake=_house_take(variant, net),
                      jackpot=float(variant.rake.jackpot_drop),
                      house=net[0] if variant.bank.banked else 0.0, hands=hands,
                      bad_beat=_bad_beat(hands, pairs))


def _home_runs(variant: Variant, hands: list[HandState], order: list[tuple[int, int]]) -> list[bool]:
    """Per hand, whether it scoops the rows of every opponent: a home run. A fouled opponent
    counts as scooped (it loses every row), a natural or surrendered one breaks the home run.
    All False when the scoring pays no home run."""
    scoring = _rules(variant).scoring
    if scoring.home_run_bonus == 0 and scoring.home_run_multiplier == 1:
        return [False] * len(hands)
    return [_scoops_everyone(variant, hands, h, order) for h in range(len(hands))]


def _scoops_everyone(variant: Variant, hands: list[HandState], h: int,
                     order: list[tuple[int, int]]) -> bool:
    """Whether hand ``h`` plays its rows and scoops every opponent (at least one scooped on
    the rows)."""
    if hands[h].status != NORMAL:
        return False
    scooped_any = False
    for a, b in order:
        if h not in (a, b):
            continue
        other = hands[b if h == a else a]
        if other.status == FOUL:
            continue
        if other.status != NORMAL:
            return False
        if _row_results(variant, hands[h], other, variant.bank.banked and h == 0) != [1, 1, 1]:
            return False
        scooped_any = True
    return scooped_any


def _settle_pair(variant: Variant, rules: _Rules, ha: HandState, hb: HandState,
                 pair: tuple[int, int], home_run: list[bool]) -> PairRow:
    """One pair of hands (``pair`` = their indices), from hand ``a``'s point of view: the first
    stage that applies (natural, surrender, mis-set, rows with their royalties and bonuses),
    then the aces side bet, all at the pair's stake."""
    a, b = pair
    per_seat = variant.hands_per_player
    row = PairRow(hand_a=a, hand_b=b, seat_a=a // per_seat, seat_b=b // per_seat, kind="rows")
    row.stake = float(rules.tables["stakes"][row.seat_a, row.seat_b])
    statuses = (ha.status, hb.status)
    if NATURAL in statuses:
        row.kind = NATURAL
        x = _natural_payment(ha, hb, variant.naturals.settlement)
    elif SURRENDER in statuses:
        row.kind = SURRENDER
        x = _surrender_payment(ha, hb, rules.surrender_amount)
    elif FOUL in statuses:
        row.kind = "misset"
        x = _misset_payment(row, ha, hb, rules.misset_penalty)
    else:
        x = _rows_and_royalties(variant, rules.scoring, row, ha, hb, variant.bank.banked and a == 0)
        x = _with_bonuses(rules.scoring, row, x, home_run[a], home_run[b])
    row.side = rules.aces[ha.aces] - rules.aces[hb.aces]
    row.total = row.stake * (x + row.side)
    return row


def _natural_payment(ha: HandState, hb: HandState, settlement: NaturalSettlement) -> float:
    """NAT-4: a natural collects its payout from any opponent. Two naturals: under NAT-1 each
    collects its payout; under NAT-2 the higher (schedule rank, then tie-break key) collects
    its own, equal ones tie."""
    if ha.status != NATURAL:
        return -hb.natural_payout
    if hb.status != NATURAL:
        return ha.natural_payout
    if settlement is NaturalSettlement.EACH_COLLECTS:
        return ha.natural_payout - hb.natural_payout
    key_a, key_b = (ha.natural_rank, ha.natural_key), (hb.natural_rank, hb.natural_key)
    if key_a > key_b:
        return ha.natural_payout
    if key_a < key_b:
        return -hb.natural_payout
    return 0.0


def _surrender_payment(ha: HandState, hb: HandState, amount: float) -> float:
    """S-SURRENDER: a surrender pays its fixed amount to an opponent that did not also
    surrender; two surrenders tie."""
    if ha.status == SURRENDER and hb.status != SURRENDER:
        return -amount
    if hb.status == SURRENDER and ha.status != SURRENDER:
        return amount
    return 0.0


def _misset_payment(row: PairRow, ha: HandState, hb: HandState, penalty: float) -> float:
    """S-MISSET: a fouled hand pays the penalty to a hand that did not foul and loses all its
    rows (set in ``row``); two fouled hands tie."""
    if ha.status == FOUL and hb.status != FOUL:
        row.front = row.middle = row.back = -1
        return -penalty
    if hb.status == FOUL and ha.status != FOUL:
        row.front = row.middle = row.back = 1
        return penalty
    return 0.0


def _rows_and_royalties(variant: Variant, scoring: ScoringParams, row: PairRow, ha: HandState,
                        hb: HandState, a_is_bank: bool) -> float:
    """Sections 3 and 4: each row won, tied or lost, the row points (each row its own, issue
    15.1) and the royalties (set in ``row``); returns points + royalties."""
    rows = _row_results(variant, ha, hb, a_is_bank)
    row.front, row.middle, row.back = rows
    row.points = rows[0] * scoring.front + rows[1] * scoring.middle + rows[2] * scoring.back
    row.royalties = _royalties(variant.royalties.mode, ha, hb, rows)
    return row.points + row.royalties


def _with_bonuses(scoring: ScoringParams, row: PairRow, x: float, home_run_a: bool,
                  home_run_b: bool) -> float:
    """``x`` (points + royalties) with the majority unit (to two rows won, or under
    SC-2-4-total to the higher total), then a scoop's bonus and multiplier, or a home run's
    for a hand that scoops everyone; the bonuses are set in ``row``."""
    rows = (row.front, row.middle, row.back)
    won, lost = rows.count(1), rows.count(-1)
    if scoring.totals_first:
        if x > 0:
            x += scoring.majority
        elif x < 0:
            x -= scoring.majority
    elif won >= 2:
        x += scoring.majority
    elif lost >= 2:
        x -= scoring.majority
    if won == 3:
        x += scoring.scoop_bonus
        if home_run_a:
            x = (x + scoring.home_run_bonus) * scoring.home_run_multiplier
        else:
            x = x * scoring.scoop_multiplier
    elif lost == 3:
        x -= scoring.scoop_bonus
        if home_run_b:
            x = (x - scoring.home_run_bonus) * scoring.home_run_multiplier
        else:
            x = x * scoring.scoop_multiplier
    row.bonuses = x - row.points - row.royalties
    return x


def _pay_within_stacks(pairs: list[PairRow], n_seats: int,
                       stacks: list[float] | None) -> list[float]:
    """S-CHIPS: sets each pair's ``paid`` and returns each seat's net. Pairs with a natural pay
    first, then the others in pair order; with ``stacks`` each payment is cut to what the payer
    has left and what the winner may still win (nobody wins more than their starting stack)."""
    net = [0.0] * n_seats
    ordered = [p for p in pairs if p.kind == NATURAL] + [p for p in pairs if p.kind != NATURAL]
    for p in ordered:
        p.paid = p.total if stacks is None else _within_stacks(p, net, stacks)
        net[p.seat_a] += p.paid
        net[p.seat_b] -= p.paid
    return net


def _within_stacks(pair: PairRow, net: list[float], stacks: list[float]) -> float:
    """``pair.total`` cut to the paying seat's chips left and the winning seat's stack less what
    it has won so far (``net`` is what each seat has won so far in the deal)."""
    a, b = pair.seat_a, pair.seat_b
    if pair.total > 0:
        return max(min(pair.total, stacks[b] + net[b], stacks[a] - net[a]), 0.0)
    if pair.total < 0:
        return min(-min(-pair.total, stacks[a] + net[a], stacks[b] - net[b]), 0.0)
    return pair.total


def _house_take(variant: Variant, net: list[float]) -> float:
    """S-RAKE and S-BANK: the rake on the pot (the sum of the winning seats' nets), plus in a
    banked game the commission or fee of each player seat that wins against the bank."""
    pot = 0.0
    for value in net:
        if value > 0:
            pot += value
    rake = variant.rake.per_hand(pot, variant.players)
    bank = variant.bank
    if bank.banked:
        for seat in range(1, variant.players):
            if net[seat] > 0:
                if bank.commission:
                    rake += bank.commission * net[seat]
                if bank.fee:
                    rake += bank.fee
    return rake


def _bad_beat(hands: list[HandState], pairs: list[PairRow]) -> bool:
    """001's jackpot trigger: a hand set pair / three of a kind / straight flush loses all three
    rows to one opponent."""
    for p in pairs:
        if p.kind != "rows":
            continue
        rows = (p.front, p.middle, p.back)
        loser = p.hand_a if rows == (-1, -1, -1) else p.hand_b if rows == (1, 1, 1) else None
        if loser is not None and hands[loser].categories == BAD_BEAT_CATEGORIES:
            return True
    return False


def natural_bits(variant: Variant, codes: np.ndarray) -> int:
    """Natural bits of one hand under the variant's detector options."""
    return int(natural_mask(codes, qka_front_straight=variant.naturals.qka_front_straight,
                            straight_flush_counts=variant.naturals.straight_flush_counts,
                            check=False))

