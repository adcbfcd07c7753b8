"""A dealer any game can use: ``seats`` hands of ``cards`` cards each from one shuffled deck,
one deal a row, drawn from a numpy Generator.

The 13-card game's exact dealer (:mod:`cpstats.cards.blocks`) deals four hands of 13, each sorted
by suit then rank: right for that game, but the first five cards of such a hand are not five
random cards (they are its lowest clubs). A new game deals here instead: each deal is a uniform
shuffle of the deck (numpy's ``Generator.permuted``, a Fisher-Yates shuffle of each row), seat
``s`` takes its cards ``s * cards`` to ``(s + 1) * cards - 1`` in the order drawn, and no card is
dealt twice in a deal.

- Decision: the whole deck is shuffled whatever the seats, so the deals of fewer seats or fewer
  deals are the first seats and the first rows of more (``deal_seats(rng, 10, seats=2, ...)`` is
  ``deal_seats(rng, 20, seats=3, ...)[:10, :2]`` from equal generators): a sweep over the
  players pairs its points on the same cards.
- Decision: the stream is the Generator's, so a game's block function seeds one from its block's
  child (``np.random.default_rng(block_seed(spec.root(), block))``) and a run is the same serial,
  threaded or resumed. :data:`SEATS_DEALER` is the name a run records as its dealer (the
  ``dealer=`` of :func:`cpstats.engine.defaults.block_run`): another dealer gives other deals
  from the same seed.

Examples
--------
>>> hands = deal_seats(np.random.default_rng(1), 3, seats=2, cards=5)
>>> hands.shape, hands.dtype.name
((3, 2, 5), 'uint8')
>>> bool((deal_seats(np.random.default_rng(1), 3, seats=2, cards=5) == hands).all())
True
"""

from __future__ import annotations

import numpy as np

from cpstats.cards.codes import DECK_SIZE, as_generator
from cpstats.errors import OptionError

__all__ = ["SEATS_DEALER", "deal_seats"]

#: The name of this dealer and its stream, recorded as a run's ``dealer`` (part of its identity).
SEATS_DEALER = "seats-of-a-shuffled-deck/numpy-permuted"


def _count(name: str, value: object, low: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < low:
        raise OptionError(f"{name}={value!r} is invalid: an integer >= {low}")
    return int(value)


def deal_seats(rng: np.random.Generator | int | np.random.SeedSequence | None, deals: int, *,
               seats: int, cards: int) -> np.ndarray:
    """``deals`` deals of ``seats`` hands of ``cards`` cards each, from one shuffled deck a deal.

    Parameters
    ----------
    rng : numpy.random.Generator, int, SeedSequence or None
        The stream the deals are drawn from (a seed is given to ``numpy.random.default_rng``); a
        Generator is advanced, so two calls with one Generator give different deals.
    deals : int
        How many deals (rows), 0 or more.
    seats, cards : int
        Hands a deal and cards a hand, at least 1 each and at most 52 cards in all.

    Returns
    -------
    numpy.ndarray
        ``uint8`` card codes of shape ``(deals, seats, cards)``, each hand in the order drawn.

    Raises
    ------
    OptionError
        For a count that is not a positive integer, more cards than a deck holds, or an ``rng``
        that is no Generator or seed.
    """
    deals = _count("deals", deals, 0)
    seats, cards = _count("seats", seats, 1), _count("cards", cards, 1)
    if seats * cards > DECK_SIZE:
        raise OptionError(f"seats={seats}, cards={cards} is invalid: {seats * cards} cards, a deck holds "
                          f"{DECK_SIZE}")
    decks = as_generator(rng).permuted(np.broadcast_to(np.arange(DECK_SIZE, dtype=np.uint8), (deals, DECK_SIZE)), axis=1)
    return decks[:, : seats * cards].reshape(deals, seats, cards)
