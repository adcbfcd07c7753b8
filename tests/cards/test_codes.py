"""Cards and notation (rulebook D1, D4)."""

import numpy as np
import pytest

from cpstats import CardError, format_cards, parse_cards
from cpstats.cards import check_hands, deal


def test_d4_every_notation_parses_to_the_same_codes():
    expected = parse_cards("As Kd Th 9c 2s")
    for text in ("as kd th 9c 2s", "As,Kd,Th,9c,2s", "A♠ K♦ 10♥ 9♣ 2♠", "AS, KD, 10H, 9C, 2S", "a♤ k♢ t♡ 9♧ 2♤"):
        assert parse_cards(text).tolist() == expected.tolist(), text
    assert expected.dtype == np.uint8
    assert expected.tolist() == [51, 45, 34, 28, 3]


def test_codes_cover_the_deck_and_round_trip():
    deck = np.arange(52, dtype=np.uint8)
    assert parse_cards(format_cards(deck)).tolist() == deck.tolist()
    assert len(set(format_cards(deck).split())) == 52


@pytest.mark.parametrize("text, token", [("As Kx", "Kx"), ("As 11h", "11h"), ("Zs", "Zs"), ("As K", "K")])
def test_d4_unknown_token_is_named(text, token):
    with pytest.raises(CardError, match=f"unknown card '{token}'"):
        parse_cards(text)


def test_d4_duplicate_card_is_named():
    with pytest.raises(CardError, match=r"duplicate card 'as' \(already given as 'As'\)"):
        parse_cards("As Kd as")


def test_d4_wrong_count_is_an_error():
    with pytest.raises(CardError, match="expected 13 cards, got 2"):
        parse_cards("As Kd", count=13)


def test_check_hands_rejects_bad_shapes_codes_and_duplicates():
    with pytest.raises(CardError, match=r"expected hands of 5 cards"):
        check_hands(np.zeros((3, 4), dtype=np.uint8), 5)
    with pytest.raises(CardError, match="card code 52 is invalid"):
        check_hands(np.array([0, 1, 2, 3, 52]), 5)
    with pytest.raises(CardError, match="must be integers"):
        check_hands(np.zeros(5, dtype=float), 5)
    with pytest.raises(CardError, match=r"hand 1 holds 2c twice"):
        check_hands(np.array([[0, 1, 2, 3, 4], [0, 0, 2, 3, 4]]), 5)
    with pytest.raises(CardError, match=r"1-d array"):
        format_cards(np.zeros((2, 2), dtype=np.uint8))


def test_deal_gives_disjoint_hands_from_full_decks():
    hands = deal(np.random.default_rng(0), 1000, 4)
    assert hands.shape == (1000, 4, 13)
    assert (np.sort(hands.reshape(1000, 52), axis=1) == np.arange(52)).all()
