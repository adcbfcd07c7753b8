"""cpstats: statistics and economics of Chinese poker rule variants.

The friendly API is re-exported here; kernels (``_*_kernel`` modules) are private.

Each game is one package and names its types without a prefix: ``cpstats.thirteen.Variant`` and
``cpstats.ofc.Variant``, ``SimulationResult``, ``GreedySetter``, ``RandomSetter``, ``Settlement`` in
both. The top level re-exports the 13-card game's (``cpstats.Variant``, ``cpstats.EvSetter``, ...,
as before) and open face's setters that no other game has (``cpstats.Rollout``, ...); open face's
other types are read through its package: ``cpstats.ofc.Variant``, ``cpstats.ofc.GreedySetter``.
The verbs take either game's variant, preset name or text, so most work names no type at all.
"""

from __future__ import annotations

# the games first: each registers itself (rules and runs) before any verb can be called
from cpstats import thirteen, ofc  # noqa: F401 (cpstats.ofc.Variant ... are read through them)
from cpstats.cards.codes import format_cards, parse_cards
from cpstats.errors import CardError, CpstatsError, OptionError
from cpstats.thirteen.naturals.exact import exact_naturals
from cpstats.thirteen.naturals.detect import NATURALS, detect_naturals, natural_mask, natural_names
from cpstats.hands.ranking import category3, category5, rank3, rank5
from cpstats.hands.setting import format_setting, is_foul, legal_settings, parse_setting, splits
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.registry import get_preset, load_variant, presets
from cpstats.engine.describe import describe, format_number, glossary, short_label
from cpstats.rules.rulebook import RULES, RuleInfo
from cpstats.engine.setter import Setter
from cpstats.thirteen.settlement.engine import Declare, Settlement, settle, settle_many
from cpstats.thirteen.settlement.engine import Surrender as SurrenderHand
from cpstats.engine import Result, load_reference
from cpstats.engine.catalogue import figure_catalogue
from cpstats.thirteen.play import Decisions, get_strategy, register_strategy, set_hand, set_hands, strategy_names
from cpstats.thirteen.play import EvSetter, GreedySetter, RandomSetter
from cpstats.thirteen.play.training import exploitability, match, train_tables
from cpstats.thirteen.play.review import review
from cpstats.thirteen import SimulationResult, compare_presets, natural_frequencies, paired_metrics
from cpstats.workbench import Design, Solution, compare, design, simulate, skill, solve, sweep
from cpstats.apps.par import ParSheet, par_sheet
from cpstats.ofc import FastPolicy, Rollout, RolloutExact, RolloutV1
from cpstats.ofc import fantasyland_table, play_hands, settle_boards, solve_fantasyland

from cpstats._version import __version__

__all__ = [
    "NATURALS",
    "Setter",
    "Result",
    "EvSetter",
    "GreedySetter",
    "RandomSetter",
    "Rollout",
    "FastPolicy",
    "RolloutExact",
    "RolloutV1",
    "fantasyland_table",
    "play_hands",
    "settle_boards",
    "solve_fantasyland",
    "RULES",
    "RuleInfo",
    "ParSheet",
    "describe",
    "figure_catalogue",
    "format_number",
    "glossary",
    "short_label",
    "paired_metrics",
    "par_sheet",
    "sweep",
    "CardError",
    "Declare",
    "Design",
    "design",
    "Decisions",
    "SimulationResult",
    "Solution",
    "Settlement",
    "SurrenderHand",
    "CpstatsError",
    "OptionError",
    "Variant",
    "category3",
    "category5",
    "compare",
    "compare_presets",
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
    "skill",
    "solve",
    "splits",
    "strategy_names",
    "train_tables",
]
