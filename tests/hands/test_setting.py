"""Settings: splits, legality (H3, H5), fouls, parsing."""

import numpy as np
import pytest

from cpstats import CardError, parse_cards
from cpstats.hands.ranking import rank5
from cpstats.hands.setting import (
    N_ORDERED_SPLITS, N_SPLITS, format_setting, is_foul, legal_settings, parse_setting, split_positions,
    splits,
)

HAND = parse_cards("6s 6c 4h Td Ts 9c Qs 8c 3h 3d 3s 2h 2d")


def test_split_counts():
    ordered = split_positions(ordered=True)
    unordered = split_positions()
    assert ordered.shape == (N_ORDERED_SPLITS, 13) == (72072, 13)
    assert unordered.shape == (N_SPLITS, 13) == (36036, 13)
    for table in (ordered, unordered):
        assert (np.sort(table, axis=1) == np.arange(13)).all()
    canon = {(tuple(sorted(r[:3])), frozenset([tuple(sorted(r[3:8])), tuple(sorted(r[8:]))])) for r in ordered.tolist()}
    assert len(canon) == 36036


def test_unordered_splits_put_the_stronger_five_in_back():
    settings = splits(HAND)
    assert (rank5(settings[:, 8:]) >= rank5(settings[:, 3:8])).all()
    assert {tuple(sorted(s)) for s in settings.tolist()} == {tuple(sorted(HAND.tolist()))}


def test_h3_worked_setting_is_legal_and_its_swap_is_foul():
    assert not is_foul("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")
    assert is_foul("6s 6c 4h / 3h 3d 3s 2h 2d / Td Ts 9c Qs 8c")  # middle above back
    assert is_foul("Td Ts 4h / 6s 6c 9c Qs 8c / 3h 3d 3s 2h 2d")  # front above middle
    # front equal to the middle's leading cards is not a foul (H3 decision)
    assert not is_foul("Qc Qd 2s / Qh Qs 2c 3d 4h / 5c 6c 7c 8c 9c")


def test_h5_low_middle_checks_back_above_front_only():
    # Middle is a weak low hand above the back as a high hand: legal only under H5.
    setting = "Ac Jd 2s / Kc Kd Kh 3d 4h / 5c 5d 7c 8c 9d"
    assert is_foul(setting)
    assert not is_foul(setting, ordering="H5")
    assert is_foul("Ac Ad As / 7c 5d 4h 3s 2c / Kc Kd 8h 9s Tc", ordering="H5")  # front trips above back


def test_legal_settings_are_never_fouls_and_include_the_obvious_one():
    legal = legal_settings(HAND)
    assert len(legal) > 0 and not is_foul(legal).any()
    target = parse_setting("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")
    norm = lambda s: (tuple(sorted(s[:3])), tuple(sorted(s[3:8])), tuple(sorted(s[8:])))
    assert norm(target.tolist()) in {norm(s) for s in legal.tolist()}


def test_parse_and_format_round_trip():
    text = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
    assert format_setting(parse_setting(text)) == text
    assert format_setting(parse_setting("6S,6C,4H/10d ts 9c qs 8c/3h 3d 3s 2h 2d")) == text


@pytest.mark.parametrize("text, message", [
    ("6s 6c 4h Td Ts 9c Qs 8c 3h 3d 3s 2h 2d", "two '/', got 0"),
    ("6s 6c / Td Ts 9c Qs 8c 4h / 3h 3d 3s 2h 2d", "front row: expected 3 cards, got 2"),
    ("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2h", "back row: duplicate card '2h'"),
    ("6s 6c 4h / Td Ts 9c Qs 6s / 3h 3d 3s 2h 2d", "holds 6s twice"),
    ("6s 6c 4h / Td Ts 9c Qs 8x / 3h 3d 3s 2h 2d", "middle row: unknown card '8x'"),
])
def test_bad_settings_name_the_problem(text, message):
    with pytest.raises(CardError, match=message):
        parse_setting(text)


def test_splits_reject_a_hand_of_twelve():
    with pytest.raises(CardError, match="expected hands of 13 cards"):
        splits(HAND[:12])


def test_parse_setting_refuses_non_text():
    """parse_setting(None) raised AttributeError."""
    with pytest.raises(CardError, match=r"setting=None is invalid: write 'front / middle / back'"):
        parse_setting(None)
