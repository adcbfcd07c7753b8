"""Cards and notation (rulebook D1, D4), and the dealer: hands from full decks, counts and seeds checked."""

import numpy as np
import pytest

from cpstats import CardError, OptionError, format_cards, parse_cards
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


# -- the dealer -------------------------------------------------------------------------------------

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


def test_deal_gives_disjoint_hands_from_full_decks():
    hands = deal(np.random.default_rng(0), 1000, 4)
    assert hands.shape == (1000, 4, 13)
    assert (np.sort(hands.reshape(1000, 52), axis=1) == np.arange(52)).all()
