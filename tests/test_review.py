"""Review of a setting under the ev model."""

import re

import numpy as np
import pytest

from cpstats import CardError, OptionError
from cpstats.apps.cli import main
from cpstats.strategies.review import review, setting_values
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


def test_review_refuses_a_low_middle():
    """audit 13.7: under H5 the ev model does not hold, so review refuses (as set_hand does)
    instead of returning H1 values with a warning."""
    with pytest.raises(OptionError, match=r"^review does not support ranking=H5 \(a low middle\)"):
        review(CARDS, "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts", "2-4(ranking=H5)")
    with pytest.raises(OptionError, match="does not support ranking=H5"):
        setting_values(parse_setting("2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts"), "2-4(ranking=H5)")


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
    """audit 13.19: cards and settings given as lists (of tokens, rows or codes) review the same
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
    """audit 13.19: malformed lists give one CardError line."""
    with pytest.raises(CardError, match=re.escape(message)):
        review(cards, setting)


@pytest.mark.parametrize("top", [-1, 2.5, "3", True])
def test_review_refuses_a_bad_top(top):
    """audit 13.19: top must be a whole number >= 0 (-1 listed all 20,683 settings)."""
    with pytest.raises(OptionError, match=r"^top=.* is invalid: expected a whole number >= 0"):
        review(CARDS, SETTING, top=top)


def test_review_top_zero_lists_nothing():
    """audit 13.19: top=0 is allowed and lists no alternatives."""
    assert review(CARDS, SETTING, top=0).alternatives.empty


def test_cli_review_refuses_a_negative_top(capsys):
    """audit 13.19: ``review --top -1`` is an argparse error (exit 2), not 20,689 lines."""
    with pytest.raises(SystemExit) as exit_:
        main(["review", CARDS, SETTING, "--top", "-1"])
    assert exit_.value.code == 2
    assert "--top" in capsys.readouterr().err
