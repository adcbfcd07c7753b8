"""OFC settlement (issue 17.4, OFC-FOUL, OFC-SCORE-1-6): worked examples, agreement with the
plain-Python reference on random boards, hypothesis properties, and the rake conventions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpstats.cards.codes import parse_cards
from cpstats.errors import CardError
from cpstats.hands.setting import parse_setting
from cpstats.ofc import parse_ofc_variant
from cpstats.engine.registry import get_preset
from cpstats.ofc.reference import reference_board, reference_settle
from cpstats.ofc.settlement import seat_rake, settle_boards, settle_hands
from cpstats.rules.house import Rake


def random_hands(seed, hands, players):
    """Random 13-card deals set randomly: cards in deal order, so many boards foul."""
    rng = np.random.default_rng(seed)
    deck = np.argsort(rng.random((hands, 52)), axis=1)[:, : 13 * players]
    return deck.reshape(hands, players, 13).astype(np.int8)


AMY = "Qs Qd 2c / 5h 5d 5c 9s Td / Ah Kh Qh Jh 9h"   # QQ 7, trips 2, flush 4: 13
BOB = "As Kd 3c / 6h 6d 8c 9c Jd / 7s 7d 7c 2s 2d"   # clean, full house back: 6
FOUL = "Ks Kc 2c / 5h 5d 8s 9s Td / Ah Kh Qh Jh 9h"  # KK over a pair of fives


def test_ofc_score_1_6_worked_example():
    """OFC-SCORE-1-6: Amy wins front and middle, Bob the back: 1 row net plus 13 - 6 royalties."""
    s = settle_hands("ofc-pineapple", [[AMY, BOB]])
    assert s.net.tolist() == [[8, -8]] and s.rows_won.tolist() == [[2, 1]]
    assert s.royalty.tolist() == [[[7, 2, 4], [0, 0, 6]]]
    assert s.fl_cards.tolist() == [[14, 0]] and s.scoops.tolist() == [[0, 0]]


def test_ofc_score_1_6_scoop():
    """OFC-SCORE-1-6: three rows won pay 3 plus the scoop bonus 3, plus the royalty difference."""
    low = "2s 3d 4c / 6h 6d 8c 9c Jd / 7s 7d 7c 2h 2d"   # full house back: 6
    high = "As Ad Kc / Th Td Ts 3s 4d / Kh Ks Kd 8h 8d"  # AA 9, trips 2, full house 6: 17
    s = settle_hands("ofc-pineapple", [[low, high]])
    assert s.net.tolist() == [[-(6 + 17 - 6), 6 + 17 - 6]] and s.scoops.tolist() == [[0, 1]]
    v = parse_ofc_variant("ofc-pineapple(scoring.row=2,scoring.scoop=0)")
    assert settle_boards(v, [low, high]).tolist() == [-(6 + 11), 6 + 11]


def test_ofc_foul_loses_everything():
    """OFC-FOUL: the fouled board loses three rows and a scoop and the clean board's royalties;
    it earns no royalty and no Fantasyland (KK in front)."""
    s = settle_hands("ofc-pineapple", [[FOUL, BOB]])
    assert s.net.tolist() == [[-(6 + 6), 6 + 6]]
    assert s.fouled.tolist() == [[True, False]] and s.fl_cards.tolist() == [[0, 0]]
    assert s.scoops.tolist() == [[0, 1]] and s.rows_won.tolist() == [[0, 3]]


def test_ofc_foul_two_fouls_score_zero():
    """OFC-FOUL: two fouled boards score 0 between them; three-handed, both pay the clean one."""
    foul2 = "As Ad 3c / 6h 6d 8c 9c Jd / 7s 7d 7c 2s 2h"
    assert settle_boards("ofc-pineapple", [FOUL, foul2]).tolist() == [0, 0]
    clean = "8h 7h 6c / 4h 4d 4c 3s 3h / Qs Qc Qd Ts Tc"  # full house middle 12, back 6
    v = parse_ofc_variant("ofc-pineapple(players=3)")
    assert settle_boards(v, [FOUL, foul2, clean]).tolist() == [-24, -24, 48]


@pytest.mark.parametrize("players,name", [(2, "ofc-pineapple"), (3, "ofc-pineapple-progressive"),
                                          (4, "ofc-classic")])
def test_agrees_with_reference_on_random_boards(players, name):
    """settle_hands equals the plain-Python reference on 1,500 random hands (many fouls)."""
    v = get_preset(name).replace(players=players)
    boards = random_hands(players, 1500, players)
    s = settle_hands(v, boards)
    fouls = 0
    for h in range(boards.shape[0]):
        net, refs = reference_settle(v, boards[h])
        assert s.net[h].tolist() == net, h
        assert s.fouled[h].tolist() == [r.fouled for r in refs]
        assert s.royalty[h].tolist() == [list(r.royalty) for r in refs]
        assert s.fl_cards[h].tolist() == [r.fl_cards for r in refs]
        assert s.stays[h].tolist() == [r.stays for r in refs]
        fouls += sum(r.fouled for r in refs)
    assert 0.3 < fouls / boards[..., 0].size < 0.95  # random settings foul often, not always


def test_reference_sees_clean_royalty_boards():
    """The reference pays royalties and entries on the clean boards it is compared on."""
    assert reference_board("ofc-pineapple", parse_setting(AMY)).royalty == (7, 2, 4)
    assert reference_board("ofc-pineapple-progressive",
                           parse_setting("As Ad 3c / 6h 6d 6c 9c Jd / 7s 7d 7c 2s 2d")).fl_cards == 16


hand_seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=150, deadline=None)
@given(seed=hand_seeds, players=st.sampled_from([2, 3]))
def test_properties_zero_sum_swap_and_fouls(seed, players):
    """Zero-sum, seat swap (permuting seats permutes nets), fouled boards never collect, two
    fouls score 0 between them (hypothesis over random hands)."""
    v = get_preset("ofc-pineapple").replace(players=players)
    boards = random_hands(seed, 20, players)
    s = settle_hands(v, boards)
    assert (s.net.sum(axis=-1) == 0).all()
    order = np.random.default_rng(seed).permutation(players)
    assert (settle_boards(v, boards[:, order]) == s.net[:, order]).all()
    assert (s.net[s.fouled] <= 0).all()
    both = s.fouled.all(axis=-1)
    if players == 2:
        assert (s.net[both] == 0).all()
    assert (s.royalty[s.fouled] == 0).all() and (s.fl_cards[s.fouled] == 0).all()


def test_checks_refuse_bad_tables():
    """A card on two boards, or the wrong number of boards, is one CardError line."""
    with pytest.raises(CardError, match="hand 0 holds card code"):
        settle_boards("ofc-pineapple", [AMY, AMY])
    with pytest.raises(CardError, match=r"expected \(\.\.\., 2, 13\)"):
        settle_boards("ofc-pineapple", [AMY])


def test_per_point_rake_with_cap():
    """Per-point rake (rake=percent): 5% of the points won, capped at 1 unit a hand, charged to
    the winners in proportion; below the threshold nothing."""
    rake = Rake(model="percent", percent=0.05, cap=1, threshold=2)
    net = np.array([[8, -8], [30, -30], [1, -1]])
    assert seat_rake(rake, net).tolist() == [[0.4, 0.0], [1.0, 0.0], [0.0, 0.0]]
    three = seat_rake(rake, np.array([10, 5, -15]))
    assert three.tolist() == pytest.approx([0.5, 0.25, 0.0])
    v = parse_ofc_variant("ofc-pineapple(rake=percent,rake.percent=0.05,rake.cap=1)")
    assert settle_hands(v, [[AMY, BOB]]).rake.tolist() == [[0.4, 0.0]]


def test_time_rake_per_seat_hour():
    """Time rake: 6 units a seat-hour at 30 hands an hour is 0.2 a seat a hand, win or lose."""
    v = parse_ofc_variant("ofc-pineapple(rake=time,rake.amount=6,rake.hands_per_hour=30)")
    assert settle_hands(v, [[AMY, BOB]]).rake.tolist() == [[0.2, 0.2]]
    assert seat_rake(Rake(model="fixed-table", amount=1), np.zeros((1, 4))).tolist() == [[0.25] * 4]


def test_string_boards_parse_like_codes():
    """Setting strings and card codes settle the same."""
    codes = np.array([parse_setting(AMY), parse_setting(BOB)])
    assert settle_boards("ofc-pineapple", codes).tolist() == [8, -8]
    assert parse_cards("Qs").dtype == np.uint8
