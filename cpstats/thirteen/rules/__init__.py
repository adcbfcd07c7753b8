"""The 13-card game's rules as frozen data (rulebook sections 1-6), keyed by rulebook IDs.

Inside, imports point one way: ``ids`` <- ``schedules`` <- ``components`` <- ``presets`` (data)
<- ``text`` (the variant string codec, on plain dicts) <- ``variant`` (:class:`Variant`);
``words`` puts a variant in words (registered as the game's words). The house components both
games charge are :mod:`cpstats.rules`.
"""

from cpstats.thirteen.rules.components import (SCORING_PARAMS, STANDARD_SURRENDER, Naturals, Royalties,
                                                ScoringParams, ScoringRules)
from cpstats.thirteen.rules.ids import (CATEGORIES, NATURAL_NAMES, ROYALTY_CATEGORY, ROYALTY_ROW_INDEX,
                                        ROYALTY_ROWS, SCOOP, Deal, HandOrdering, NaturalSchedule,
                                        NaturalSettlement, RoyaltyMode, RoyaltyPayment, RoyaltySchedule,
                                        Scoring)
from cpstats.thirteen.rules.presets import BAD_BEAT_001, preset_names
from cpstats.thirteen.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES
from cpstats.thirteen.rules.variant import Variant, parse_variant, resolve_variant

__all__ = ["Scoring", "RoyaltySchedule", "RoyaltyPayment", "RoyaltyMode", "NaturalSchedule",
           "NaturalSettlement", "HandOrdering", "Deal", "ROYALTY_ROWS", "ROYALTY_ROW_INDEX",
           "ROYALTY_CATEGORY", "NATURAL_NAMES", "CATEGORIES", "SCOOP", "ScoringParams", "ScoringRules",
           "SCORING_PARAMS", "STANDARD_SURRENDER", "Royalties", "Naturals", "Variant", "parse_variant",
           "resolve_variant", "ROYALTY_TABLES", "NATURAL_TABLES", "BAD_BEAT_001", "preset_names"]
