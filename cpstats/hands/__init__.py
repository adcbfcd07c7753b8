"""Hands, as both games rank and set them: five- and three-card ranking (rulebook H1-H5) and the
splits of cards into front, middle and back rows with their fouls.

The 13-card game's naturals and their exact counts are that game's
(:mod:`cpstats.thirteen.naturals`).

Imports :mod:`cpstats.cards` (and :mod:`cpstats.errors`) only.
"""

from cpstats.hands.ranking import category3, category5, rank3, rank5
from cpstats.hands.setting import format_setting, is_foul, legal_settings, parse_setting, splits

__all__ = ["category3", "category5", "format_setting", "is_foul", "legal_settings", "parse_setting",
           "rank3", "rank5", "splits"]
