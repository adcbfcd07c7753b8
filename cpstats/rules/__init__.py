"""Rules as data: the variant dataclasses keyed by rulebook IDs, the house components (rake,
bank, surrender, ...), the presets and the variant string codec.

Inside, imports point one way: ``ids`` <- ``schedules`` <- ``components`` (and ``house``) <-
``presets`` (data) <- ``text`` (the codec, on plain dicts) <- ``games`` (the one registry of games,
naming none: :func:`load_variant`, :func:`get_preset`, :func:`presets`; each game's package
registers its rules and runs there) <- ``variant`` (:class:`Variant`, the 13-card game) and
``open_face`` (:class:`OfcVariant`, rulebook section 7); ``describe`` puts any game's variant in
words through the words each game registered (``variant_words``, ``open_face_words``); ``check``
holds the shared error helpers.

Layer 3 of 6: imports :mod:`cpstats.cards` and :mod:`cpstats.hands` at most (the rules name
hands by category; they never rank cards).
"""

from cpstats.rules.components import (SCORING_PARAMS, STANDARD_SURRENDER, Naturals, Royalties,
                                      ScoringParams, ScoringRules)
from cpstats.rules.house import AcesBet, Bank, BankMode, Misset, Rake, RakeModel, Stakes, Surrender
from cpstats.rules.ids import (CATEGORIES, NATURAL_NAMES, ROYALTY_CATEGORY, ROYALTY_ROW_INDEX,
                               ROYALTY_ROWS, SCOOP, Deal, HandOrdering, NaturalSchedule,
                               NaturalSettlement, RoyaltyMode, RoyaltyPayment, RoyaltySchedule,
                               Scoring)
from cpstats.rules.presets import BAD_BEAT_001, preset_names
from cpstats.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES
from cpstats.rules.games import GAMES, AnyVariant, game_of, get_preset, load_variant, presets
from cpstats.rules.variant import Variant, parse_variant, resolve_variant
from cpstats.rules.open_face import OfcVariant

__all__ = ["Scoring", "RoyaltySchedule", "RoyaltyPayment", "RoyaltyMode", "NaturalSchedule",
           "NaturalSettlement", "BankMode", "RakeModel", "HandOrdering", "Deal", "ROYALTY_ROWS",
           "ROYALTY_ROW_INDEX", "ROYALTY_CATEGORY", "NATURAL_NAMES", "CATEGORIES", "SCOOP",
           "ScoringParams", "ScoringRules", "SCORING_PARAMS", "STANDARD_SURRENDER", "Royalties",
           "Naturals",
           "Surrender", "Misset", "AcesBet", "Bank", "Rake", "Stakes", "Variant", "load_variant",
           "parse_variant", "resolve_variant", "OfcVariant", "GAMES", "AnyVariant", "game_of", "ROYALTY_TABLES", "NATURAL_TABLES", "BAD_BEAT_001", "presets",
           "preset_names", "get_preset"]
