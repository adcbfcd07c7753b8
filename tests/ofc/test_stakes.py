"""OFC-STAKES settlement (cpstats.ofc.settlement.settle_within_stacks): the order of settling pairs
named and tested as S-CHIPS is, worked examples, and every payment equal to a plain-Python reference
on 12,000 random three-player hands with small stacks (the limit binding in about half of them)."""

import numpy as np
import pytest

from cpstats.engine.registry import get_preset
from cpstats.ofc.reference import reference_board
from cpstats.ofc.settlement import pair_points, seat_pairs, settle_hands, settle_within_stacks

THREE = get_preset("ofc-pineapple").replace(players=3)


def random_hands(seed, hands, players):
    """Random deals set in deal order (many fouls, some royalties)."""
    rng = np.random.default_rng(seed)
    deck = np.argsort(rng.random((hands, 52)), axis=1)[:, : 13 * players]
    return deck.reshape(hands, players, 13).astype(np.int8)


def reference_owed(v, boards):
    """Points seat i wins from seat j for each pair (i < j), from the reference boards: OFC-SCORE-1-6
    with OFC-FOUL, written out plainly."""
    refs = [reference_board(v, b) for b in boards]
    owed = {}
    for i in range(len(refs)):
        for j in range(i + 1, len(refs)):
            a, b = refs[i], refs[j]
            if a.fouled and b.fouled:
                owed[i, j] = 0
                continue
            if a.fouled or b.fouled:
                won, lost = (0, 3) if a.fouled else (3, 0)
            else:
                won = sum(x > y for x, y in zip(a.ranks, b.ranks))
                lost = sum(x < y for x, y in zip(a.ranks, b.ranks))
            points = v.scoring.row * (won - lost) + v.scoring.scoop * ((won == 3) - (lost == 3))
            owed[i, j] = points + sum(a.royalty) - sum(b.royalty)
    return owed


def reference_stakes(owed, stacks, first, active):
    """OFC-STAKES by hand: the first to act settles with each later player, then the second with each
    later one; a payment is what is owed cut to what the payer has left; a pair with a player sitting
    out pays nothing. Returns each pair's payment (to the lower seat), the nets and the unpaid points."""
    players = len(stacks)
    left = list(stacks)
    paid = {}
    unpaid = 0
    seats = [(first + k) % players for k in range(players)]
    for x in range(players):
        for y in range(x + 1, players):
            i, j = sorted((seats[x], seats[y]))
            if not (active[i] and active[j]):
                paid[i, j] = 0
                continue
            winner, loser = (i, j) if owed[i, j] > 0 else (j, i)
            amount = min(abs(owed[i, j]), max(left[loser], 0))
            left[winner] += amount
            left[loser] -= amount
            paid[i, j] = amount if winner == i else -amount
            unpaid += abs(owed[i, j]) - amount
    return paid, [left[s] - stacks[s] for s in range(players)], unpaid


def test_settlement_order_is_s_chips_from_the_first_to_act():
    """At three players the pairs settle first v second, first v last, second v last (positions); with
    seat 0 first that is S-CHIPS's clockwise order (0 v 1, 0 v 2, 1 v 2), the 13-card game's
    pair order for three players."""
    from cpstats.thirteen.rules.variant import Variant as ThirteenVariant

    assert seat_pairs(3).tolist() == ThirteenVariant(players=3).pair_order().tolist() == [[0, 1], [0, 2], [1, 2]]
    # seat 1 owes 10 to seat 0 and 10 to seat 2 and holds 10: whoever it settles with first is paid
    owed = [[10, 0, -10]]
    by_first = [settle_within_stacks(owed, [[0, 10, 0]], [f]) for f in range(3)]
    assert by_first[0].net.tolist() == [[10, -10, 0]]   # 0 v 1, then 0 v 2, then 1 v 2
    assert by_first[1].net.tolist() == [[0, -10, 10]]   # 1 v 2, then 1 v 0, then 2 v 0
    assert by_first[2].net.tolist() == [[0, -10, 10]]   # 2 v 0, then 2 v 1, then 0 v 1
    assert [s.unpaid.tolist() for s in by_first] == [[10]] * 3


def test_a_winner_collects_from_each_loser_in_order_and_pays_from_what_it_won():
    """Seat 1 first wins 10 from seat 2 and 10 from seat 0; seat 0, holding 10, then owes seat 2 5
    and has nothing left to pay it."""
    s = settle_within_stacks([[-10, -5, 10]], [[10, 0, 10]], [1])
    assert s.paid.tolist() == [[-10, 0, 10]] and s.net.tolist() == [[-10, 20, -10]]
    assert s.unpaid.tolist() == [5]


def test_nobody_wins_more_than_the_loser_has_and_winners_are_never_cut():
    """Heads-up: the loser pays at most their stack; a winner with a small stack is paid in full."""
    s = settle_within_stacks([[40], [-40], [40], [5]], [[1, 30], [1, 30], [100, 100], [0, 0]], [0, 1, 0, 0])
    assert s.paid[:, 0].tolist() == [30, -1, 40, 0] and s.unpaid.tolist() == [10, 39, 0, 5]
    assert (s.net.sum(axis=1) == 0).all()


def test_a_seat_sitting_out_pays_and_is_paid_nothing():
    """A player out of the match (``active`` False) is in no pair; the others settle as heads-up."""
    s = settle_within_stacks([[12, -7, 9]], [[0, 20, 20]], [0], active=[[False, True, True]])
    assert s.paid.tolist() == [[0, 0, 9]] and s.net.tolist() == [[0, 9, -9]] and s.unpaid.tolist() == [0]


def test_unlimited_stacks_pay_what_settle_hands_nets():
    """With stacks no hand can exhaust, every pair pays what it owes and the nets are settle_hands'."""
    boards = random_hands(5, 2000, 3)
    owed = pair_points(THREE, boards)
    big = np.full((len(boards), 3), 10**6)
    s = settle_within_stacks(owed, big, np.arange(len(boards)) % 3)
    assert (s.paid == owed).all() and (s.unpaid == 0).all()
    assert (s.net == settle_hands(THREE, boards).net).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_payment_equals_the_reference_on_random_three_player_hands(seed):
    """12,000 random three-player hands (4,000 a seed), stacks of 0 to 10 points (a 0 sits out in a
    quarter of the hands), every first seat: each pair's payment, each net and the unpaid points equal the
    plain-Python reference; the limit binds in about half the hands, so the comparison exercises it."""
    rng = np.random.default_rng(100 + seed)
    n = 4000
    boards = random_hands(seed, n, 3)
    stacks = rng.integers(0, 11, size=(n, 3))
    active = stacks > 0
    active[rng.random(n) > 0.25] = True  # most hands: everyone plays, a stack of 0 simply cannot pay
    first = rng.integers(0, 3, size=n)
    owed = pair_points(THREE, boards)
    s = settle_within_stacks(owed, stacks, first, active)
    binding = 0
    for h in range(n):
        ref_owed = reference_owed(THREE, boards[h])
        assert [ref_owed[i, j] for i, j in seat_pairs(3).tolist()] == owed[h].tolist(), h
        paid, net, unpaid = reference_stakes(ref_owed, stacks[h].tolist(), int(first[h]), active[h].tolist())
        assert s.paid[h].tolist() == [paid[i, j] for i, j in seat_pairs(3).tolist()], h
        assert s.net[h].tolist() == net and int(s.unpaid[h]) == unpaid, h
        binding += unpaid > 0
    assert binding > n // 3  # the limit binds in many hands
    assert (s.net.sum(axis=1) == 0).all() and (-s.net <= stacks).all()


def test_a_sweep_of_the_buy_in_offers_the_match_figures():
    """OFC-STAKES, OFC-MATCH: a sweep of stakes.buy_in (none among its values) reports the SD per
    match by default, paired on common decks; the table rules' figures are metrics it accepts."""
    import cpstats

    table = cpstats.sweep("ofc-pineapple(match=round,stakes.buy_in=100)", "stakes.buy_in", [50, "none"], deals=120,
                          setter="greedy", rng=1, metrics=["sd_per_match", "stakes_bind_rate", "match_out_rate"])
    assert set(table["metric"]) == {"sd_per_match", "stakes_bind_rate", "match_out_rate"}
    assert list(dict.fromkeys(table["value"])) == [50, "none"]
    assert (table["label"].str.len() > 0).all()
    default = cpstats.sweep("ofc-pineapple(match=round)", "stakes.buy_in", [50, "none"], deals=60, setter="greedy",
                            rng=1)
    assert "sd_per_match" in set(default["metric"])


def test_solve_finds_the_buy_in_for_a_target_sd_per_match():
    """OFC-STAKES: solve gives the smallest buy-in whose SD per match meets a target (the SD rises
    with the buy-in: the limit cuts the swings); the value's evaluation meets the target and the one
    below it does not, and the interval holds the value."""
    import cpstats

    s = cpstats.solve("ofc-pineapple(match=round)", "stakes.buy_in", "sd_per_match", 13.0, bounds=(20, 200),
                      deals=400, rng=1, setter="greedy")
    assert s.kind == "integer" and s.direction == "at_least" and 20 < s.value < 200
    assert s.ci_low <= s.value <= s.ci_high and s.variant == f"ofc-pineapple(stakes.buy_in={s.value},match=round)"
    got = s.evaluations.set_index("value")["estimate"]
    assert got[s.value] >= 13.0 and got[20] < 13.0 < got[200]
    if s.value - 1 in got.index:
        assert got[s.value - 1] < 13.0
