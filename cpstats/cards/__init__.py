"""Vocabulary: cards as ``uint8`` codes (``4 * rank + suit``), one parser for every notation, the
exact block dealer and its seeds.

Layer 1 of 6 (cards, hands, rules, play, results, apps): imports nothing of cpstats but
:mod:`cpstats.errors`; every other layer may import it.
"""

from cpstats.cards.codes import (DECK_SIZE, RANKS, SUITS, card_rank, card_suit, check_hands, deal,
                                 format_cards, parse_cards)

__all__ = ["RANKS", "SUITS", "DECK_SIZE", "parse_cards", "format_cards", "card_rank", "card_suit",
           "check_hands", "deal"]
