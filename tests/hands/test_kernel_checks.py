"""Card checks inside the kernels: ranking, naturals, fouls and check_hands name the first hand
holding a repeated card or a code outside 0..51, as numpy's sort did, in one line naming the hand
and the card; the checked kernels rank exactly as the unchecked ones."""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.cards import check_hands, deal
from cpstats.errors import CardError
from cpstats.thirteen.naturals.detect import natural_mask
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import is_foul, legal_settings


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
