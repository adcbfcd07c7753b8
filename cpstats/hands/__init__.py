"""Hands: five- and three-card ranking, the splits of 13 cards into rows and their fouls, natural
detection, and exact natural counts by enumeration.

Layer 2 of 6: imports :mod:`cpstats.cards` (and :mod:`cpstats.errors`) only.
"""

from cpstats.hands.exact import TOTAL_HANDS, exact_naturals
from cpstats.hands.naturals import NATURALS, detect_naturals, natural_mask, natural_names
from cpstats.hands.ranking import category3, category5, rank3, rank5
from cpstats.hands.setting import format_setting, is_foul, legal_settings, parse_setting, splits

__all__ = ["NATURALS", "TOTAL_HANDS", "category3", "category5", "detect_naturals", "exact_naturals",
           "format_setting", "is_foul", "legal_settings", "natural_mask", "natural_names",
           "parse_setting", "rank3", "rank5", "splits"]
