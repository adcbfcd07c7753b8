"""The game-neutral dealer (cpstats.cards.seats.deal_seats): each card once a deal, every card
equally likely at every seat and position, the same deals from the same seed, fewer seats and
fewer deals the first ones of more, and its refusals."""

import numpy as np
import pytest

from cpstats.cards import DECK_SIZE, SEATS_DEALER, deal_seats
from cpstats.errors import OptionError


def test_each_card_is_dealt_at_most_once_a_deal():
    hands = deal_seats(np.random.default_rng(3), 2_000, seats=4, cards=13)
    assert hands.shape == (2_000, 4, 13) and hands.dtype == np.uint8
    assert (np.sort(hands.reshape(2_000, 52), axis=1) == np.arange(52)).all()  # a whole deck each deal
    some = deal_seats(np.random.default_rng(4), 2_000, seats=3, cards=5).reshape(2_000, 15)
    assert all(len(set(row)) == 15 for row in some.tolist()) and some.max() < DECK_SIZE


def test_every_card_is_equally_likely_at_every_seat_and_position():
    """A card's count at one (seat, position) over n deals is Binomial(n, 1/52): each of the
    52 x 10 counts within 5 of its standard errors of n/52 (a false alarm about 1 in 3,000 runs),
    and their chi-square within 5 of its own standard deviations of its degrees of freedom."""
    n, seats, cards = 52_000, 2, 5
    hands = deal_seats(np.random.default_rng(11), n, seats=seats, cards=cards).reshape(n, seats * cards)
    counts = np.stack([np.bincount(hands[:, place], minlength=52) for place in range(seats * cards)])
    p = 1 / 52
    se = np.sqrt(n * p * (1 - p))
    assert np.abs(counts - n * p).max() < 5 * se
    chi2 = ((counts - n * p) ** 2 / (n * p)).sum(axis=1)  # one chi-square a place, 51 degrees of freedom
    assert np.abs(chi2 - 51).max() < 5 * np.sqrt(2 * 51)
    # the first card's suit carries no sign of a suit-sorted hand: clubs first a quarter of the time
    clubs_first = (hands[:, 0] % 4 == 0).mean()
    assert abs(clubs_first - 0.25) < 5 * np.sqrt(0.25 * 0.75 / n)


def test_one_seed_gives_one_set_of_deals_and_fewer_are_the_first_of_more():
    a = deal_seats(np.random.default_rng(7), 20, seats=3, cards=5)
    assert (deal_seats(7, 20, seats=3, cards=5) == a).all()  # a seed is a default_rng
    assert (deal_seats(np.random.default_rng(7), 10, seats=2, cards=5) == a[:10, :2]).all()
    rng = np.random.default_rng(7)
    first, second = deal_seats(rng, 10, seats=3, cards=5), deal_seats(rng, 10, seats=3, cards=5)
    assert (first == a[:10]).all() and (second == a[10:]).all()  # a Generator advances: 10 then 10 is 20
    assert not (deal_seats(np.random.default_rng(8), 20, seats=3, cards=5) == a).all()
    assert deal_seats(np.random.default_rng(7), 0, seats=2, cards=5).shape == (0, 2, 5)
    assert SEATS_DEALER and SEATS_DEALER != "fisher-yates-39/sfc64-lemire-batches"


@pytest.mark.parametrize("options, message", [
    ({"seats": 11, "cards": 5}, r"seats=11, cards=5 is invalid: 55 cards, a deck holds 52"),
    ({"seats": 0, "cards": 5}, r"seats=0 is invalid: an integer >= 1"),
    ({"seats": 2, "cards": 2.0}, r"cards=2.0 is invalid: an integer >= 1"),
    ({"seats": True, "cards": 5}, r"seats=True is invalid: an integer >= 1"),
])
def test_a_deal_the_deck_cannot_give_is_refused(options, message):
    with pytest.raises(OptionError, match=message):
        deal_seats(np.random.default_rng(1), 3, **options)


def test_a_bad_count_of_deals_or_stream_is_refused():
    with pytest.raises(OptionError, match=r"deals=-1 is invalid: an integer >= 0"):
        deal_seats(np.random.default_rng(1), -1, seats=2, cards=5)
    with pytest.raises(OptionError, match=r"rng='seed' is invalid: a numpy Generator or a seed"):
        deal_seats("seed", 3, seats=2, cards=5)
