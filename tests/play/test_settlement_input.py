"""Audit 13 items 14, 17, 19 (cards and hands) and 22: untrusted strategy output, the number of
players taken from the hands given, clear errors for bad input, and card checks in the kernels."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cpstats.strategies import api
from cpstats.cards import check_hands, deal, format_cards, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.hands.naturals import natural_mask, natural_names
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import is_foul, legal_settings, parse_setting
from cpstats.settlement import settle, settle_many

AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
HAND = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h"


def _others() -> tuple[np.ndarray, np.ndarray]:
    """Two more hands from the 26 cards AMY and BOB leave (sorted codes, so likely fouls)."""
    used = set(parse_setting(AMY).tolist()) | set(parse_setting(BOB).tolist())
    rest = np.array(sorted(set(range(52)) - used), dtype=np.uint8)
    return rest[:13], rest[13:]


# -- audit 13.19: cards and hands -------------------------------------------------------------

def test_one_is_not_a_rank():
    """'1h' was parsed as the ace of hearts."""
    with pytest.raises(CardError, match=r"^1h is not a card: ranks are 2-9, T \(or 10\), J, Q, K, A$"):
        parse_cards("As 1h")
    for text in ("10h", "10♥", "T♡", "th"):
        assert parse_cards(text).tolist() == [34]
    assert format_cards(parse_cards("10h A♠ k♦")) == "Th As Kd"


@pytest.mark.parametrize("value, match", [
    (None, r"cards=None is invalid: give a string"),
    (b"As Kd", r"cards=b'As Kd' is bytes: decode it"),
    (5, r"cards=5 is invalid: give a string"),
    ([51, 45], r"card tokens must be strings such as 'As', got 51 \(int\)"),
])
def test_parse_cards_refuses_non_text(value, match):
    """parse_cards(None) and bytes raised TypeError or read byte values as tokens."""
    with pytest.raises(CardError, match=match):
        parse_cards(value)


@pytest.mark.parametrize("args, match", [
    ((-5,), r"deals=-5 is invalid: a number of deals >= 0"),
    ((2.5,), r"deals=2.5 is invalid: a number of deals >= 0"),
    ((2, 2.5), r"hands=2.5 is invalid: a deck deals 1 to 4 hands of 13"),
    ((2, 0), r"hands=0 is invalid"),
])
def test_deal_refuses_bad_counts(args, match):
    """deal(-5) raised numpy's 'negative dimensions are not allowed'."""
    with pytest.raises(OptionError, match=match):
        deal(np.random.default_rng(0), *args)


def test_deal_takes_a_seed_like_every_rng_argument():
    """deal(0, ...) raised AttributeError; a seed is normalised by default_rng."""
    assert (deal(7, 3) == deal(np.random.default_rng(7), 3)).all()
    assert deal(np.random.default_rng(0), 0).shape == (0, 4, 13)
    with pytest.raises(OptionError, match=r"rng='x' is invalid"):
        deal("x", 3)


@pytest.mark.parametrize("bits", [-1, 1 << 18, 2.5, None, "3", np.array([1, 2])])
def test_natural_names_refuses_what_is_not_one_mask(bits):
    """natural_names(-1) listed all 18 naturals, 2.5 was truncated."""
    with pytest.raises(OptionError, match=r"bits=.* is invalid: one natural bit mask, an integer "
                                          r"in 0\.\.262143"):
        natural_names(bits)


def test_natural_names_takes_numpy_scalars():
    assert natural_names(np.uint32(3)) == ["dragon", "clean_dragon"]
    assert natural_names(natural_mask(HAND)) == natural_names(int(natural_mask(HAND)))


def test_hands_as_lists_of_tokens():
    """set_hand given a list of tokens raised 'must be integers, got dtype <U2'."""
    tokens = HAND.split()
    d = api.set_hand(tokens, "2-4", strategy="greedy")
    assert d.setting == api.set_hand(HAND, "2-4", strategy="greedy").setting
    assert int(rank5(["As", "Ks", "Qs", "Js", "Ts"])) == 7461
    assert rank5(["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]).tolist() == [7461, 0]
    with pytest.raises(CardError, match="expected 13 cards, got 12"):
        api.set_hand(tokens[:12], "2-4", strategy="greedy")


def test_parse_setting_refuses_non_text():
    """parse_setting(None) raised AttributeError."""
    with pytest.raises(CardError, match=r"setting=None is invalid: write 'front / middle / back'"):
        parse_setting(None)


# -- audit 13.22: card checks inside the kernels ----------------------------------------------

def _reference_first_bad(flat: np.ndarray) -> int:
    """The first row holding a code >= 52 or a repeated card, by numpy's sort (the old check)."""
    srt = np.sort(flat, axis=1)
    bad = (srt[:, 1:] == srt[:, :-1]).any(axis=1) | (flat >= 52).any(axis=1)
    rows = np.flatnonzero(bad)
    return int(rows[0]) if rows.size else -1


@pytest.mark.parametrize("cards", [3, 5, 13])
def test_kernel_check_finds_the_same_row_as_the_sort(cards):
    """The in-kernel mask check names the first bad row, as numpy's sort did."""
    rng = np.random.default_rng(cards)
    hands = deal(rng, 2000, 4).reshape(-1, 52)[:, :cards].copy()
    for trial in range(40):
        bad = hands.copy()
        row = int(rng.integers(len(bad)))
        if trial % 3 == 0:
            bad[row, rng.integers(cards)] = rng.integers(52, 256)
        else:
            a, b = rng.choice(cards, 2, replace=False)
            bad[row, a] = bad[row, b]
        assert _reference_first_bad(bad) == row
        with pytest.raises(CardError, match=rf"^hand {row}"):
            check_hands(bad, cards)
        if cards == 5:
            with pytest.raises(CardError, match=rf"^hand {row}"):
                rank5(bad)
            with pytest.raises(CardError, match=rf"^hand {row}"):
                rank5(bad, out=np.empty(len(bad), np.uint16))
        if cards == 3:
            with pytest.raises(CardError, match=rf"^hand {row}"):
                rank3(bad)
        if cards == 13:
            with pytest.raises(CardError, match=rf"^hand {row}"):
                natural_mask(bad)
            with pytest.raises(CardError, match=rf"^hand {row}"):
                is_foul(bad)


def test_kernel_check_messages_name_the_card():
    """One line naming the hand and the card, for a repeat and for a bad code."""
    hands = np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3], [0, 1, 2, 3, 4]], dtype=np.uint8)
    with pytest.raises(CardError, match=r"^hand 1 holds 2s twice: a hand cannot repeat a card$"):
        rank5(hands)
    hands[1, 4] = 60
    with pytest.raises(CardError, match=r"^hand 1: card code 60 is invalid: codes are 0\.\.51"):
        rank5(hands)
    with pytest.raises(CardError, match=r"card code -1 is invalid"):
        rank5(np.array([[0, 1, 2, 3, -1]]))
    with pytest.raises(CardError, match=r"card code 300 is invalid"):
        rank3(np.array([[0, 1, 300]]))
    with pytest.raises(CardError, match="holds Ac twice"):
        legal_settings([48] + list(range(11)) + [48])


def test_checked_results_equal_unchecked_ones():
    """The checked kernels rank exactly as the unchecked ones, with or without out=."""
    hands = deal(np.random.default_rng(5), 500, 4).reshape(-1, 52)
    five = np.ascontiguousarray(hands[:, :10].reshape(-1, 5))
    three = np.ascontiguousarray(hands[:, :39].reshape(-1, 3))
    for ordering in ("H1", "H4", "H5"):
        assert (rank5(five, ordering=ordering) == rank5(five, ordering=ordering, check=False)).all()
    buf = np.empty(len(three), np.uint16)
    assert rank3(three, out=buf) is not None and (buf == rank3(three, check=False)).all()
    assert (rank5(five.astype(np.int64)) == rank5(five, check=False)).all()


# -- audit 13.14: strategy output is checked against the hands dealt --------------------------

def _returning(settings_of):
    def mine(hands, variant, *, rng=None):
        n = len(hands)
        return settings_of(hands), np.zeros(n, bool), np.zeros(n, bool)
    return mine


def test_strategy_returning_other_cards_is_refused():
    """A setting holding cards not dealt to that hand was settled silently."""
    hands = deal(np.random.default_rng(2), 3, 4).reshape(-1, 13)

    def swap(h):
        out = h.copy()
        out[3, 0] = hands[4, 0]
        return out

    expected = (rf"^strategy 'mine' returned setting 3 with cards not dealt to that hand "
                rf"\({format_cards(hands[4, :1])} instead of {format_cards(hands[3, :1])}\)$")
    with pytest.raises(CardError, match=expected):
        api.set_hands(hands, "2-4", strategy=_returning(swap))


def test_strategy_repeating_a_card_is_refused():
    """A setting holding one card twice (and missing one) is not the hand dealt."""
    hands = deal(np.random.default_rng(3), 2, 4).reshape(-1, 13)

    def repeat(h):
        out = h.copy()
        out[5, 1] = out[5, 2]
        return out

    with pytest.raises(CardError, match=r"returned setting 5 with cards not dealt to that hand"):
        api.set_hands(hands, "2-4", strategy=_returning(repeat))


@pytest.mark.parametrize("change, match", [
    (lambda h: h.astype(np.int64) + 256, r"card code 2\d\d in setting 0: codes are 0\.\.51"),
    (lambda h: np.where(np.arange(13) == 4, -1, h.astype(np.int64)), r"card code -1 in setting 0"),
    (lambda h: h.astype(np.float64) + 0.25, r"settings of dtype float64: card codes must be integers"),
    (lambda h: np.where(np.arange(13) == 0, 60, h).astype(np.uint8), r"card code 60 in setting 0"),
])
def test_strategy_codes_out_of_range_are_refused_before_any_cast(change, match):
    """Codes of 256 and up wrapped to real cards, floats were truncated."""
    hands = deal(np.random.default_rng(4), 2, 4).reshape(-1, 13)
    with pytest.raises(CardError, match=r"^strategy 'mine' .*" + match):
        api.set_hands(hands, "2-4", strategy=_returning(change))


def test_strategy_code_wrap_is_not_a_real_card():
    """Code c + 256 used to settle as card c; now it is refused, naming the setting."""
    hands = deal(np.random.default_rng(5), 1, 4).reshape(-1, 13)
    wrap = _returning(lambda h: np.where(np.arange(13) == 0, h.astype(np.int64) + 256, h))
    with pytest.raises(CardError, match=r"strategy 'mine' returned card code \d+ in setting 0"):
        api.set_hands(hands, "2-4", strategy=wrap)


def test_honest_strategies_pass_the_check():
    """A permutation of the hand (any order) is accepted, in blocks too."""
    from concurrent.futures import ThreadPoolExecutor

    hands = deal(np.random.default_rng(6), 3, 4).reshape(-1, 13)
    rev = _returning(lambda h: np.ascontiguousarray(h[:, ::-1]).astype(np.int32))
    assert (api.set_hands(hands, "2-4", strategy=rev).settings == hands[:, ::-1]).all()
    with ThreadPoolExecutor(2) as pool:
        d = api.set_hands(hands, "2-4", strategy="greedy", executor=pool)
    assert (np.sort(d.settings, axis=1) == np.sort(hands, axis=1)).all()


def test_strategy_error_names_the_setting_across_blocks():
    """With an executor the hands are set in blocks of 4,096; the error names the
    setting's index among all hands, not within its block."""
    from concurrent.futures import ThreadPoolExecutor

    hands = deal(np.random.default_rng(7), 1300, 4).reshape(-1, 13)

    def mine(h, variant, *, rng=None):
        out = h.copy()
        if len(h) < 4096:  # the second block: its row 10 is hand 4106
            out[10, 0] = out[10, 1]
        return out, np.zeros(len(h), bool), np.zeros(len(h), bool)

    with ThreadPoolExecutor(2) as pool:
        with pytest.raises(CardError, match=r"strategy 'mine' returned setting 4106 with cards"):
            api.set_hands(hands, "2-4", strategy=mine, executor=pool)


# -- audit 13.14: settle_many refuses what is not a deal --------------------------------------

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


# -- audit 13.17: the number of hands given is the number of players --------------------------

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


# -- audit 13.19: chip stacks -----------------------------------------------------------------

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
    ragged = _returning(lambda h: [list(row) for row in h[:3]] + [[1, 2]])
    with pytest.raises(OptionError, match=r"strategy 'mine' returned arrays numpy cannot read"):
        api.set_hands(hands, "2-4", strategy=ragged)


def test_decisions_checked_by_count_only_still_refuse_bad_codes():
    """Callers that pass only the number of hands (training's matches) still get
    codes 0..51 and no card twice, never a silent wrap."""
    hands = deal(np.random.default_rng(9), 1, 2).reshape(-1, 13)
    none = np.zeros(2, bool)
    assert (api._as_decisions((hands.astype(np.int64), none, none), 2).settings == hands).all()
    with pytest.raises(CardError, match=r"^strategy 'strategy' returned an invalid setting: hand 1: "
                                        r"card code 300 is invalid"):
        api._as_decisions((np.where(np.arange(2)[:, None] == 1, 300, hands.astype(np.int64)), none, none), 2)
