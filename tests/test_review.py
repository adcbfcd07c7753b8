"""Review of a setting under the ev model."""

import numpy as np
import pytest

from cpstats import CardError
from cpstats.cli import main
from cpstats.review import review, setting_values
from cpstats.setting import legal_settings, parse_setting
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
