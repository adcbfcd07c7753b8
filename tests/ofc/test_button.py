"""OFC-BUTTON, OFC-MATCH and OFC-STAKES at the table (cpstats.ofc.play, simulation, result): the
presets' numbers unchanged bit for bit, the button's moves, each seat's cards whatever its position,
matches, stacks and seats out, the paired value of acting last, and the new figures' names."""

import hashlib

import numpy as np
import pytest

import cpstats
from cpstats.engine.catalogue import find_figure, resolve_figures
from cpstats.ofc.catalogue import FIGURES
from cpstats.ofc.placement import strategy_code
from cpstats.ofc.play import SITTING_OUT, _play, _play_hand, _Table
from cpstats.ofc.result import SimulationResult
from cpstats.ofc.table_figures import positions_of
from cpstats.ofc.rules import parse_ofc_variant
from cpstats.ofc.settlement import settle_table
from cpstats.ofc.simulation import acting_last

# (variant, setter) -> (figures digest, hands digest), recorded at 89eb34f, before these rules existed
PINNED = {
    ("ofc-pineapple(button=fixed)", "fast"): ("10caaaf9954e57c0", "1e24a54e81ccfe3e"),
    ("ofc-pineapple-progressive(button=fixed)", "greedy"): ("df5c51765129282a", "367c24c678c01e6f"),
    ("ofc-classic(players=3,button=fixed)", "greedy"): ("2dc9825704ad9f63", "33c661209b0dd0d4"),
    ("ofc-pineapple(rake=percent,rake.percent=0.05,button=fixed)", "random"): ("412b5989d5c37f9f", "3021b48cd88f918e"),
}


def _play_greedy(variant, hands, seed=5, first=0, setter="greedy"):
    v = parse_ofc_variant(variant)
    codes = np.array([strategy_code(setter)] * v.players, dtype=np.int64)
    return v, _play(v, hands, np.random.default_rng(seed), codes, np.full(v.players, 4, np.int64), 3,
                    np.zeros(v.players, np.int64), table=_Table(v, first))


@pytest.mark.parametrize("variant,setter", list(PINNED))
def test_presets_play_and_figure_exactly_as_before(variant, setter):
    """A fixed button without stakes or matches (every preset with ``button=fixed``, the presets' play
    before the button moved by default) gives the figures and hands recorded before OFC-BUTTON,
    OFC-STAKES and OFC-MATCH were rules: same seed, same bits."""
    from cpstats.ofc.play import play_hands
    from cpstats.ofc.settlement import settle_hands

    r = cpstats.simulate(variant, 300, setter=setter, rng=4747, block_deals=100)
    f = r.figures()
    digest = hashlib.sha256(f[["metric"]].to_csv().encode() + np.ascontiguousarray(
        f[["estimate", "ci_low", "ci_high"]].to_numpy(np.float64)).tobytes()).hexdigest()
    played = play_hands(variant, 40, 11, strategies=setter)
    net = settle_hands(variant, played.boards, check=False).net
    hands = hashlib.sha256(played.boards.tobytes() + played.fantasy_cards.tobytes() + net.tobytes()).hexdigest()
    assert (digest[:16], hands[:16]) == PINNED[variant, setter]
    assert "first_seat" not in r.metadata and "mean_acting_first" not in set(f["metric"])


def test_a_rotating_button_moves_a_seat_a_hand_and_holds_for_fantasyland():
    """button=rotate: the first to act moves one seat each hand, except (hold) into a hand dealt while
    a player is in Fantasyland; with move it moves on every hand."""
    for rule in ("hold", "move"):
        v, p = _play_greedy(f"ofc-pineapple(players=3,button=rotate,button.fantasyland={rule})", 120)
        fantasy_next = (p.fantasy_cards[1:] > 0).any(axis=1)
        step = (p.first[1:] - p.first[:-1]) % 3
        assert fantasy_next.sum() > 3  # the rule is exercised
        if rule == "hold":
            assert (step[fantasy_next] == 0).all() and (step[~fantasy_next] == 1).all()
        else:
            assert (step == 1).all()
    _, fixed = _play_greedy("ofc-pineapple(players=3,button=fixed)", 50)
    assert (fixed.first == 0).all() and fixed.active.all()
    _, default = _play_greedy("ofc-pineapple(players=3)", 120)
    _, hold = _play_greedy("ofc-pineapple(players=3,button=rotate,button.fantasyland=hold)", 120)
    assert (default.first == hold.first).all()  # the presets' default: rotate, hold


def test_each_seat_is_dealt_the_same_cards_in_any_position():
    """One deck played with each seat first deals each seat the same cards; greedy reads only its own
    cards, so every board is the same whichever seat acts first, and whether the button moves."""
    boards = [_play_greedy("ofc-pineapple(players=3,button=fixed)", 40, first=f)[1].boards for f in range(3)]
    assert all((b == boards[0]).all() for b in boards)
    _, rotating = _play_greedy("ofc-pineapple(players=3,button=rotate)", 40)
    assert (rotating.boards == boards[0]).all() and len(set(rotating.first.tolist())) == 3
    # the fast setter reads the others' boards: each seat's cards (kept and discarded) are the same
    v = parse_ofc_variant("ofc-pineapple(players=3)")
    codes = np.full(3, strategy_code("fast"), dtype=np.int64)
    deck = np.random.default_rng(4).permutation(52).astype(np.int8)
    dealt = []
    for order in ([0, 1, 2], [1, 2, 0], [2, 0, 1]):
        boards, discards = _play_hand(v, deck, codes, np.zeros(3, np.int64), 4, 3, np.uint64(7),
                                      order=np.array(order))
        dealt.append([sorted(boards[s].tolist() + discards[s].tolist()) for s in range(3)])
    assert dealt[0] == dealt[1] == dealt[2] and len(dealt[0][0]) == 17


def test_value_of_acting_last_is_paired_and_zero_for_a_setter_blind_to_position():
    """acting_last plays the same decks with each seat first; greedy ignores the others' cards, so
    acting last is worth exactly 0 with a zero-width interval; the position means pool the runs."""
    table, runs = acting_last("ofc-pineapple(players=3)", 60, setter="greedy", rng=2, block_deals=30)
    got = table.set_index("metric")
    assert list(got.index) == ["mean_acting_first", "mean_acting_middle", "mean_acting_last", "value_of_acting_last"]
    assert tuple(got.loc["value_of_acting_last", ["estimate", "ci_low", "ci_high"]]) == (0.0, 0.0, 0.0)
    assert [r.metadata.get("first_seat", 0) for r in runs] == [0, 1, 2]
    assert abs(got["estimate"].iloc[:3].sum()) < 1e-9  # zero-sum over the positions


def test_a_setter_that_reads_the_table_plays_each_seating_as_its_own_order():
    """fast reads the others' face-up cards, so the runs with seat 0 and seat 1 first play differently
    (each run's first_seat acts first on every hand: a fixed button at another seat is not seat 0's
    order), and the paired value has an interval of its own width."""
    table, runs = acting_last("ofc-pineapple", 60, setter="fast", rng=2, block_deals=30)
    first, second = (r.summary for r in runs)
    assert not np.array_equal(first.net_by_batch, second.net_by_batch[:, ::-1])
    low, high = table.set_index("metric").loc["value_of_acting_last", ["ci_low", "ci_high"]]
    assert high - low > 0
    v = parse_ofc_variant("ofc-pineapple(players=3,button=fixed)")
    _, played = _play_greedy(str(v), 5, first=2)
    assert (played.first == 2).all()


def test_matches_hold_stacks_and_seat_out_a_player_with_none_left():
    """match=round with stakes: a match is a hand a player plus one a Fantasyland hand (or ends when one
    player is left); within it each hand starts from the last one's stacks after settle_table's nets;
    a player with no points sits out (its board the sitting-out board, its pairs paying nothing);
    every match starts at the buy-in with everyone in."""
    v, p = _play_greedy("ofc-pineapple(players=3,button=rotate,stakes.buy_in=12,match=round)", 400, seed=9)
    s = settle_table(v, p)
    assert ((-s.net) <= p.stacks).all() and (s.net.sum(axis=1) == 0).all()
    assert (~p.active).any() and (s.net[~p.active] == 0).all() and (p.boards[~p.active] == SITTING_OUT).all()
    starts = np.r_[0, np.flatnonzero(p.match_end)[:-1] + 1]
    assert (p.stacks[starts] == 12).all() and p.active[starts].all() and (p.fantasy_cards[starts] == 0).all()
    for h in range(len(p.match) - 1):
        if not p.match_end[h]:
            assert (p.stacks[h + 1] == p.stacks[h] + s.net[h]).all(), h
            assert (p.active[h + 1] == (p.stacks[h + 1] > 0)).all(), h
    for m in np.unique(p.match[p.match_end.nonzero()[0]]):
        hands = p.match == m
        regular = (p.fantasy_cards[hands] == 0).all(axis=1).sum()
        last = np.flatnonzero(hands)[-1]
        one_left = (p.stacks[last] + s.net[last] > 0).sum() <= 1
        assert regular == 3 or (one_left and regular <= 3), m
    assert (positions_of(p.first, p.active)[~p.active] == -1).all()


def test_the_tables_figures_are_named_in_the_catalogue_and_declared_by_the_rules():
    """A run under a rotating button, stakes and matches gives exactly the figures figure_names
    declares, each in the catalogue; the hands of a match average the buy-in's limit."""
    v = parse_ofc_variant("ofc-pineapple(button=rotate,stakes.buy_in=20,match=round,rake=percent,"
                          "rake.percent=0.05,match.rake=match)")
    r = cpstats.simulate(v, 120, setter="greedy", rng=3, block_deals=60)
    f = r.figures().set_index("metric")
    assert set(f.index) == set(SimulationResult.figure_names(v))
    assert all(find_figure(name, resolve_figures(FIGURES)) is not None for name in f.index)
    assert f.at["hands_per_match", "estimate"] >= 1 and 0 < f.at["stakes_bind_rate", "estimate"] < 1
    assert f.at["rake_per_match", "estimate"] > 0 > f.at["mean_per_match_after_charges", "estimate"]
    free = parse_ofc_variant("ofc-pineapple(button=rotate,stakes.buy_in=20,match=round)")
    free = cpstats.simulate(free, 120, setter="greedy", rng=3, block_deals=60).figures()
    assert tuple(free.set_index("metric").loc["rake_per_match", ["estimate", "ci_low", "ci_high"]]) == (0, 0, 0)
