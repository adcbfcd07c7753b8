"""Rules as data: the variant dataclasses keyed by rulebook IDs, the house components (rake,
bank, surrender, ...), the presets and the variant string codec.

Layer 3 of 6: imports :mod:`cpstats.cards` and :mod:`cpstats.hands` at most (the rules name
hands by category; they never rank cards).
"""

from cpstats.rules.house import AcesBet, Bank, BankMode, Misset, Rake, RakeModel, Stakes, Surrender
from cpstats.rules.presets import (BAD_BEAT_001, NATURAL_TABLES, ROYALTY_TABLES, get_preset,
                                   preset_names, presets)
from cpstats.rules.variant import (CATEGORIES, NATURAL_NAMES, ROYALTY_CATEGORY, ROYALTY_ROW_INDEX,
                                   ROYALTY_ROWS, SCOOP, SCORING_PARAMS, STANDARD_SURRENDER, Deal,
                                   HandOrdering, NaturalSchedule, Naturals, NaturalSettlement,
                                   Royalties, RoyaltyMode, RoyaltyPayment, RoyaltySchedule, Scoring,
                                   ScoringParams, Variant, load_variant, resolve_variant)

__all__ = ["Scoring", "RoyaltySchedule", "RoyaltyPayment", "RoyaltyMode", "NaturalSchedule",
           "NaturalSettlement", "BankMode", "RakeModel", "HandOrdering", "Deal", "ROYALTY_ROWS",
           "ROYALTY_ROW_INDEX", "ROYALTY_CATEGORY", "NATURAL_NAMES", "CATEGORIES", "SCOOP",
           "ScoringParams", "SCORING_PARAMS", "STANDARD_SURRENDER", "Royalties", "Naturals",
           "Surrender", "Misset", "AcesBet", "Bank", "Rake", "Stakes", "Variant", "load_variant",
           "resolve_variant", "ROYALTY_TABLES", "NATURAL_TABLES", "BAD_BEAT_001", "presets",
           "preset_names", "get_preset"]
