"""What settle and settle_many take: card codes that are cards and a deck dealt once, as many players
as hands given (where the rules do not fix the table), chip stacks that are chips, and one line
naming the hand or the deal of any bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cpstats.thirteen.play import api
from cpstats.cards import deal
from cpstats.errors import CardError, OptionError
from cpstats.hands.ranking import rank5
from cpstats.hands.setting import parse_setting
from cpstats.thirteen.settlement import settle, settle_many

AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"


def _others() -> tuple[np.ndarray, np.ndarray]:
    """Two more hands from the 26 cards AMY and BOB leave (sorted codes, so likely fouls)."""
    used = set(parse_setting(AMY).tolist()) | set(parse_setting(BOB).tolist())
    rest = np.array(sorted(set(range(52)) - used), dtype=np.uint8)
    return rest[:13], rest[13:]


# -- settle_many refuses what is not a deal --------------------------------------

def _pair() -> np.ndarray:
    return np.array([[parse_setting(AMY), parse_setting(BOB)]])


@pytest.mark.parametrize("settings, match", [
    (_pair().astype(np.float64) + 0.5, r"settings of dtype float64 is invalid: card codes are integers"),
    (np.where(np.arange(13) == 12, -1, _pair().astype(np.int64)), r"card code -1 is invalid"),
    (np.where(np.arange(13) == 12, 256 + 12, _pair().astype(np.int64)), r"card code 268 is invalid"),
    (np.where(np.arange(13) == 12, 60, _pair()).astype(np.uint8), r"deal 0 holds card code 60"),
])
def test_settle_many_refuses_codes_that_are_not_cards(settings, match):
    """Float codes were truncated and -1 reported as card 255."""
    with pytest.raises(CardError, match=match):
        settle_many("2-4(players=2)", settings)


def test_settle_many_refuses_a_card_dealt_twice():
    """A deal holding one card in two hands (or twice in one) was settled."""
    deals = np.repeat(_pair(), 3, axis=0)
    deals[2, 1, 0] = deals[2, 0, 0]
    with pytest.raises(CardError, match=r"^settings deal 2 holds 6s twice: a card is dealt once"):
        settle_many("2-4(players=2)", deals)


def test_settle_many_check_deck_off_still_refuses_a_hand_repeating_a_card():
    """check_deck=False (002's misprint) allows a card in two hands, never twice in
    one hand."""
    deals = np.repeat(_pair(), 2, axis=0)
    deals[1, 1, 0] = deals[1, 0, 0]
    net, _ = settle_many("2-4(players=2)", deals, check_deck=False)
    assert net.shape == (2, 2) and net[0].tolist() == [2.0, -2.0]
    deals[1, 1, 1] = deals[1, 1, 0]
    with pytest.raises(CardError, match=r"^settings deal 1, hand 1 holds 6s twice: a hand cannot "
                                        r"repeat a card$"):
        settle_many("2-4(players=2)", deals, check_deck=False)


# -- the number of hands given is the number of players --------------------------

def test_settle_seats_as_many_players_as_hands_given():
    """settle('2-4', [two settings]) refused because the preset seats four."""
    two = settle("2-4", [AMY, BOB])
    assert two.net.tolist() == settle("2-4(players=2)", [AMY, BOB]).net.tolist() == [2.0, -2.0]
    assert two.variant.players == 2
    c, d = _others()
    three = settle("2-4", [AMY, BOB, c])
    assert three.variant.players == 3 and three.net.shape == (3,)


def test_settle_many_seats_as_many_players_as_hands_given():
    """The same for settle_many, whose second axis is the number of hands."""
    net, rake = settle_many("2-4", _pair())
    assert net.tolist() == [[2.0, -2.0]] and rake.tolist() == [0.0]


def test_seating_refused_where_the_rules_fix_the_table():
    """criss-cross is heads-up with two hands each; a stakes matrix has its size."""
    c, d = _others()
    with pytest.raises(OptionError, match=r"^hands has 2 entries: criss-cross \(deal=D3\) deals "
                                          r"two hands to each of 2 players, so 4 are needed$"):
        settle("criss-cross", [AMY, BOB])
    stakes = "2-4(players=3,stakes=0:1:2/1:0:1/2:1:0)"
    with pytest.raises(OptionError, match=r"hands has 2 entries, so players=2.*stakes matrix"):
        settle(stakes, [AMY, BOB])
    with pytest.raises(OptionError, match=r"^hands has 1 entries: 2-4 needs 4 hands \(or one hand per "
                                          r"player, 2 to 4 players\)$"):
        settle("2-4", [AMY])
    with pytest.raises(OptionError, match=r"settings has 5 hands a deal: 2-4 needs 4 hands \(or one"):
        settle_many("2-4", np.zeros((1, 5, 13), np.uint8))


def test_settle_refuses_hands_that_are_not_a_list():
    """settle('2-4', None) raised TypeError; one string is not a list of hands."""
    with pytest.raises(OptionError, match=r"hands=None is invalid: a list of hands"):
        settle("2-4", None)
    with pytest.raises(OptionError, match=r"hands='6s .*' is invalid: a list of hands"):
        settle("2-4", AMY)


# -- chip stacks -----------------------------------------------------------------

@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0, "ten"])
def test_settle_refuses_stacks_that_are_not_chips(bad):
    """A NaN stack passed the '>= 0' test and changed the nets."""
    c, _ = _others()
    with pytest.raises(OptionError, match=rf"stacks\[1\]={re.escape(repr(bad))} is invalid: chips "
                                          r"are a finite number >= 0"):
        settle("pagat-casino(players=3)", [AMY, BOB, c], stacks=[10, bad, 10])


def test_settle_many_refuses_nan_stacks():
    """The same check in settle_many, naming the deal and the seat."""
    c, _ = _others()
    deals = np.array([[parse_setting(AMY), parse_setting(BOB), c]] * 2)
    stacks = np.full((2, 3), 10.0)
    stacks[1, 2] = np.nan
    with pytest.raises(OptionError, match=r"stacks\[1, 2\]=nan is invalid: chips are a finite"):
        settle_many("pagat-casino(players=3)", deals, stacks=stacks)


def test_settle_names_the_hand_of_any_card_error():
    """A hand of two rows raised numpy's reshape ValueError; text errors now name
    the hand as code errors did."""
    c, d = _others()
    with pytest.raises(CardError, match=r"^hand 1: expected one hand of 13 cards, got shape \(2, 13\)$"):
        settle("2-4(players=2)", [AMY, np.stack([c, d])])
    with pytest.raises(CardError, match=r"^hand 1: middle row: unknown card 'Xx'"):
        settle("2-4(players=2)", [AMY, BOB.replace("9h", "Xx")])


def test_ragged_input_is_one_clear_line():
    """Ragged lists raised numpy's 'inhomogeneous shape' ValueError (as CardError
    or OptionError now, one line naming what was expected)."""
    with pytest.raises(CardError, match=r"^hands of 5 cards must form an array of codes: "):
        rank5([[0, 1, 2, 3, 4], [5, 6]])
    c, _ = _others()
    deals = np.array([[parse_setting(AMY), parse_setting(BOB), c]])
    with pytest.raises(OptionError, match=r"^stacks is invalid: expected numbers of shape \(1, 3\)$"):
        settle_many("pagat-casino(players=3)", deals, stacks=[["ten", 1, 2]])
    hands = deal(np.random.default_rng(8), 1, 4).reshape(-1, 13)

    def ragged(h, variant, *, rng=None):
        return [list(row) for row in h[:3]] + [[1, 2]], np.zeros(len(h), bool), np.zeros(len(h), bool)

    with pytest.raises(OptionError, match=r"strategy 'ragged' returned arrays numpy cannot read"):
        api.set_hands(hands, "2-4", setter=ragged)


