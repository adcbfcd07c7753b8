"""The setting strategies' protocol (cpstats.thirteen.play.api): the registry, bad input, a user's callable,
the same settings on an executor, and a strategy's output checked against the hands dealt."""

from __future__ import annotations


import numpy as np
import pytest

from cpstats.thirteen.play import api, ev_setter
from cpstats.cards import deal, format_cards, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.engine.registry import get_preset
from cpstats.hands.ranking import rank5

V24 = get_preset("2-4")
HAND = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h"


# -- protocol, registry, bad input ------------------------------------------------------------

def test_registry_lists_builtins():
    assert {"ev", "greedy", "random"} <= set(api.strategy_names())


def test_each_builtin_is_registered_by_its_module_in_the_usual_order():
    """Issue 14 (setters split): ``ev`` comes from ev_setter, the baselines from baselines, and
    strategy_names() still lists them ev, greedy, random (the package imports ev_setter first)."""
    from cpstats.thirteen.play import baselines

    assert api.strategy_names()[:3] == ("ev", "greedy", "random")
    assert api.get_strategy("ev") is ev_setter.ev
    assert api.get_strategy("greedy") is baselines.greedy
    assert api.get_strategy("random") is baselines.random_setter


def test_unknown_strategy_lists_available():
    with pytest.raises(OptionError, match=r"unknown strategy 'best'.*ev, greedy, random"):
        api.set_hands(deal(np.random.default_rng(0), 1, 1)[0], V24, setter="best")


def test_duplicate_cards_rejected():
    with pytest.raises(CardError, match="duplicate card"):
        api.set_hand("As As Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", V24, setter="greedy")
    hand = deal(np.random.default_rng(0), 1, 1)[0, 0].copy()
    hand[1] = hand[0]
    with pytest.raises(CardError, match="twice"):
        api.set_hands(hand[None], V24, setter="greedy")


def test_wrong_count_rejected():
    with pytest.raises(CardError, match="expected 13 cards"):
        api.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d", V24, setter="greedy")
    with pytest.raises(CardError, match="13 cards"):
        api.set_hands(np.arange(12, dtype=np.uint8)[None], V24, setter="greedy")


def test_user_callable_plugs_in():
    def sorted_setter(hands, variant, *, rng=None):
        settings = np.sort(hands, axis=1)  # weakest three in front, strongest five in back
        n = len(hands)
        return settings, np.zeros(n, bool), np.zeros(n, bool)

    hand = parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")
    d = api.set_hand(hand, V24, setter=sorted_setter)
    assert d.setting == "2h 4d 5c / 7s 9h Jc Jd Qh / Qs Kc Kd Ad As"
    api.register_strategy("sorted-test", sorted_setter, replace=True)
    assert "sorted-test" in api.strategy_names()
    assert api.set_hands(hand[None], "2-4", setter="sorted-test").settings.shape == (1, 13)


def test_bad_strategy_output_rejected():
    with pytest.raises(OptionError, match="must return settings"):
        api.set_hands(parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")[None], V24,
                    setter=lambda h, v, rng=None: h[:, :12])


def test_executor_matches_serial(hands):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        for name in ("greedy", "ev"):
            a = api.set_hands(hands[:9000], V24, setter=name, executor=pool)
            b = api.set_hands(hands[:9000], V24, setter=name)
            assert (a.settings == b.settings).all() and (a.declare == b.declare).all()
        r1 = api.set_hands(hands[:9000], V24, setter="random", rng=4, executor=pool)
        r2 = api.set_hands(hands[:9000], V24, setter="random", rng=4, executor=pool)
        assert (r1.settings == r2.settings).all()


# -- a strategy's output is checked against the hands dealt -----------------------------------------

def test_hands_as_lists_of_tokens():
    """set_hand given a list of tokens raised 'must be integers, got dtype <U2'."""
    tokens = HAND.split()
    d = api.set_hand(tokens, "2-4", setter="greedy")
    assert d.setting == api.set_hand(HAND, "2-4", setter="greedy").setting
    assert int(rank5(["As", "Ks", "Qs", "Js", "Ts"])) == 7461
    assert rank5(["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]).tolist() == [7461, 0]
    with pytest.raises(CardError, match="expected 13 cards, got 12"):
        api.set_hand(tokens[:12], "2-4", setter="greedy")


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
        api.set_hands(hands, "2-4", setter=_returning(swap))


def test_strategy_repeating_a_card_is_refused():
    """A setting holding one card twice (and missing one) is not the hand dealt."""
    hands = deal(np.random.default_rng(3), 2, 4).reshape(-1, 13)

    def repeat(h):
        out = h.copy()
        out[5, 1] = out[5, 2]
        return out

    with pytest.raises(CardError, match=r"returned setting 5 with cards not dealt to that hand"):
        api.set_hands(hands, "2-4", setter=_returning(repeat))


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
        api.set_hands(hands, "2-4", setter=_returning(change))


def test_strategy_code_wrap_is_not_a_real_card():
    """Code c + 256 used to settle as card c; now it is refused, naming the setting."""
    hands = deal(np.random.default_rng(5), 1, 4).reshape(-1, 13)
    wrap = _returning(lambda h: np.where(np.arange(13) == 0, h.astype(np.int64) + 256, h))
    with pytest.raises(CardError, match=r"strategy 'mine' returned card code \d+ in setting 0"):
        api.set_hands(hands, "2-4", setter=wrap)


def test_honest_strategies_pass_the_check():
    """A permutation of the hand (any order) is accepted, in blocks too."""
    from concurrent.futures import ThreadPoolExecutor

    hands = deal(np.random.default_rng(6), 3, 4).reshape(-1, 13)
    rev = _returning(lambda h: np.ascontiguousarray(h[:, ::-1]).astype(np.int32))
    assert (api.set_hands(hands, "2-4", setter=rev).settings == hands[:, ::-1]).all()
    with ThreadPoolExecutor(2) as pool:
        d = api.set_hands(hands, "2-4", setter="greedy", executor=pool)
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
            api.set_hands(hands, "2-4", setter=mine, executor=pool)


def test_decisions_checked_by_count_only_still_refuse_bad_codes():
    """Callers that pass only the number of hands (training's matches) still get
    codes 0..51 and no card twice, never a silent wrap."""
    hands = deal(np.random.default_rng(9), 1, 2).reshape(-1, 13)
    none = np.zeros(2, bool)
    assert (api._as_decisions((hands.astype(np.int64), none, none), 2).settings == hands).all()
    with pytest.raises(CardError, match=r"^strategy 'strategy' returned an invalid setting: hand 1: "
                                        r"card code 300 is invalid"):
        api._as_decisions((np.where(np.arange(2)[:, None] == 1, 300, hands.astype(np.int64)), none, none), 2)
