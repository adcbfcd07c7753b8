"""Review of a setting under the ev model."""

import re

import numpy as np
import pytest

from cpstats import CardError, OptionError
from cpstats.apps.cli import main
from cpstats.thirteen.play.review import review, setting_values
from cpstats.hands.setting import legal_settings, parse_setting
from cpstats.cards import parse_cards

CARDS = "As Ks Qs Js Ts 9h 9d 9c 2c 2d 3h 4h 5h"


def test_best_setting_has_no_loss_and_beats_every_legal_setting():
    first = review(CARDS, "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts")
    again = review(CARDS, first.best)
    assert again.loss == 0 and again.value == pytest.approx(first.best_value)
    values = setting_values(legal_settings(parse_cards(CARDS)), "2-4")
    assert first.best_value == pytest.approx(values.max())
    assert list(first.alternatives["ev"]) == sorted(first.alternatives["ev"], reverse=True)
    assert first.loss == pytest.approx(first.best_value - first.value)


def test_a_foul_is_valued_at_the_misset_penalty():
    r = review(CARDS, "9h 9d 9c / 2c 2d 3h 4h 5h / As Ks Qs Js Ts", "2-4")
    assert r.foul and r.value == pytest.approx(-4 * 3)  # a scoop (4) to each of 3 opponents
    assert r.loss > 10


def test_rule_awareness_shows_in_the_values():
    """Front trips pay under pagat-typical: the same trips-in-front setting is worth more there."""
    setting = parse_setting("2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts")
    assert setting_values(setting, "pagat-typical")[0] != setting_values(setting, "2-4")[0]


def test_other_cards_are_refused():
    with pytest.raises(CardError, match="does not hold the same 13 cards"):
        review(CARDS, "2c 2d 3h / 9h 9d 9c 4h 6h / As Ks Qs Js Ts")


def test_cli_review(capsys):
    assert main(["review", CARDS, "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts"]) == 0
    out = capsys.readouterr().out
    assert "best setting" in out and "loss" in out


def test_review_under_h5_refuses_tables_with_a_high_middle():
    """issue 15.3 (was audit 13.7's refusal of H5): review values H5 settings now, with
    tables trained under H5; tables whose middle is a high hand (borrowed from 2-4) are
    refused in one line, never used for a low middle."""
    with pytest.raises(OptionError, match=r"^ev: the row tables trained for '2-4' cannot set "
                                          r"hands of '2-4\(ranking=H5\)'.*low \(H5\) middle"):
        review(CARDS, "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts", "2-4(ranking=H5)", tables="2-4")
    with pytest.raises(OptionError, match="cannot set hands of '2-4\\(ranking=H5\\)'"):
        setting_values(parse_setting("2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts"),
                       "2-4(ranking=H5)", tables="2-4")


def test_review_under_h5_compares_every_ordered_split():
    """Under H5 review compares every split whose back beats its front, the
    weaker high five in back included (legal_settings lists the stronger in back only), and
    values a setting as ev's model does: its middle on the low scale."""
    from cpstats.cards import deal
    from cpstats.hands.ranking import rank3, rank5
    from cpstats.engine.registry import load_variant
    from cpstats.thirteen.play import ev_setter
    from cpstats.thirteen.play.baselines import greedy
    from cpstats.thirteen.play.row_tables import RowTables

    v = load_variant("2-4(ranking=H5)")
    s = greedy(deal(np.random.default_rng(5), 2_000, 4).reshape(-1, 13), v).settings
    rows = (rank3(s[:, :3], check=False), rank5(s[:, 3:8], ordering="H5", check=False),
            rank5(s[:, 8:], check=False))
    dist = [np.bincount(r, minlength=n) + 0.01 for r, n in zip(rows, (455, 7462, 7462))]
    t = RowTables(*(d / d.sum() for d in dist), variant=str(v), meta={})
    hand = parse_cards(CARDS)
    r = review(hand, SETTING, v, tables=t, top=80_000)
    settings, value, _ = ev_setter.ev_search(hand[None], v, t)
    assert r.best_value == pytest.approx(value[0], abs=1e-9)
    listed = np.array([parse_setting(x) for x in r.alternatives["setting"]])
    back, middle = rank5(listed[:, 8:]), rank5(listed[:, 3:8])
    assert len(listed) == len(set(r.alternatives["setting"])) > len(legal_settings(hand, ordering="H5"))
    assert (back < middle).any()
    # A nine-high middle is a good low, a pair of twos a bad one, whatever they are as high
    # hands: with a pair of nines in front, the first setting is worth more than trips in front.
    low = setting_values(parse_setting("9d 9c 2d / 9h 2c 3h 4h 5h / As Ks Qs Js Ts"), v, tables=t)
    pair = setting_values(parse_setting("9h 9d 9c / 2c 2d 3h 4h 5h / As Ks Qs Js Ts"), v, tables=t)
    assert low[0] > pair[0]


SETTING = "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts"


@pytest.mark.parametrize("cards, setting", [
    (CARDS.split(), SETTING),
    (parse_cards(CARDS).tolist(), SETTING),
    (CARDS, ["2c 2d 3h", "9h 9d 9c 4h 5h", "As Ks Qs Js Ts"]),
    (CARDS, [["2c", "2d", "3h"], ["9h", "9d", "9c", "4h", "5h"], ["As", "Ks", "Qs", "Js", "Ts"]]),
    (CARDS, SETTING.replace("/", "").split()),
    (CARDS, parse_setting(SETTING).tolist()),
])
def test_review_takes_lists(cards, setting):
    """Cards and settings given as lists (of tokens, rows or codes) review the same
    as their text, instead of a raw ValueError from numpy."""
    expected = review(CARDS, SETTING)
    got = review(cards, setting)
    assert (got.setting, got.value, got.best) == (expected.setting, expected.value, expected.best)


@pytest.mark.parametrize("cards, setting, message", [
    (CARDS.split()[:12], SETTING, "expected 13 cards"),
    ([CARDS.split()] * 2, SETTING, "one hand of 13 cards"),
    (CARDS, ["2c 2d 3h", "9h 9d 9c 4h 5h"], "front / middle / back"),
    (CARDS, [1.5] * 13, "card codes must be integers"),
])
def test_review_refuses_bad_lists(cards, setting, message):
    """Malformed lists give one CardError line."""
    with pytest.raises(CardError, match=re.escape(message)):
        review(cards, setting)


@pytest.mark.parametrize("top", [-1, 2.5, "3", True])
def test_review_refuses_a_bad_top(top):
    """Top must be a whole number >= 0 (-1 listed all 20,683 settings)."""
    with pytest.raises(OptionError, match=r"^top=.* is invalid: expected a whole number >= 0"):
        review(CARDS, SETTING, top=top)


def test_review_top_zero_lists_nothing():
    """top=0 is allowed and lists no alternatives."""
    assert review(CARDS, SETTING, top=0).alternatives.empty


def test_cli_review_refuses_a_negative_top(capsys):
    """``review --top -1`` is an argparse error (exit 2), not 20,689 lines."""
    with pytest.raises(SystemExit) as exit_:
        main(["review", CARDS, SETTING, "--top", "-1"])
    assert exit_.value.code == 2
    assert "--top" in capsys.readouterr().err
