"""Vocabulary: cards as ``uint8`` codes (``4 * rank + suit``), one parser for every notation, the
13-card game's exact block dealer and its seeds, and a dealer any game can use (``n`` seats of
``k`` cards from a shuffled deck, :func:`deal_seats`).

Layer 1 (tests/project/test_layout.py): imports nothing of cpstats but :mod:`cpstats.errors`;
every layer above may import it.
"""

from cpstats.cards.codes import (DECK_SIZE, RANKS, SUITS, card_rank, card_suit, check_hands, deal,
                                 format_cards, parse_cards)
from cpstats.cards.seats import SEATS_DEALER, deal_seats

__all__ = ["RANKS", "SUITS", "DECK_SIZE", "parse_cards", "format_cards", "card_rank", "card_suit",
           "check_hands", "deal", "deal_seats", "SEATS_DEALER"]
