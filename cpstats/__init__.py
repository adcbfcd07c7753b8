"""cpstats: statistics and economics of Chinese poker rule variants.

The friendly API is re-exported here; modules lower down (``_kernels``, ``_tables``) are private.
"""

from __future__ import annotations

from .cards import format_cards, parse_cards
from .errors import CardError, CpstatsError, OptionError
from .exact import exact_naturals
from .frequencies import natural_frequencies
from .naturals import NATURALS, detect_naturals, natural_mask, natural_names
from .presets import get_preset, presets
from .ranking import category3, category5, rank3, rank5
from .rules import Variant, load_variant
from .setting import format_setting, is_foul, legal_settings, parse_setting, splits
from .settlement import Declare, Settlement, settle, settle_many
from .settlement import Surrender as SurrenderHand
from .strategies import Decisions, get_strategy, register_strategy, set_hand, set_hands, strategy_names
from .training import exploitability, match, train_tables
from .review import review
from .simulation import SimulationResult, compare, load_reference, simulate

__version__ = "0.1.0"

__all__ = [
    "NATURALS",
    "CardError",
    "Declare",
    "Decisions",
    "SimulationResult",
    "Settlement",
    "SurrenderHand",
    "CpstatsError",
    "OptionError",
    "Variant",
    "category3",
    "category5",
    "compare",
    "detect_naturals",
    "exact_naturals",
    "exploitability",
    "format_cards",
    "format_setting",
    "get_preset",
    "get_strategy",
    "is_foul",
    "legal_settings",
    "load_reference",
    "load_variant",
    "match",
    "natural_frequencies",
    "natural_mask",
    "natural_names",
    "parse_cards",
    "parse_setting",
    "presets",
    "rank3",
    "rank5",
    "register_strategy",
    "review",
    "set_hand",
    "set_hands",
    "settle",
    "settle_many",
    "simulate",
    "splits",
    "strategy_names",
    "train_tables",
]
