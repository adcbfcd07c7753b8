"""Open-face Chinese poker (rulebook section 7): its rules, boards, settlement, play and results.

Layer 6, beside the 13-card game (:mod:`cpstats.thirteen`), on the engine (:mod:`cpstats.engine`)
and below the verbs (:mod:`cpstats.workbench`): it may import cards, hands, rules and the engine,
never the other game; nothing below imports it. Inside,
imports point one way:

- ``rules`` (:class:`Variant` and its parts as frozen data, presets, the variant string,
  :class:`RuleArrays`, the lookup arrays every kernel takes);
- ``_board_kernel`` (njit: a board's ranks and value) <- ``board`` (numpy helpers over arrays of
  boards, :func:`table_args`);
- ``settlement`` (boards to nets, OFC-FOUL and OFC-SCORE-1-6, rake) beside ``reference`` (a
  plain-Python scorer written from the rulebook, for tests);
- ``_fantasy_kernel`` <- ``fantasyland`` (the exact Fantasyland setter);
- ``_place_kernel`` <- ``placement`` <- ``play`` (street-by-street strategies, whole hands);
  ``_value_kernel`` (the learned play, codes 6 and 7) and ``_train_kernel`` with
  ``rule_features`` (the rule numbers the street models read, the rule draws they are trained
  over), ``street_values`` (the one street-model file, read and checked) and ``street_training``;
  ``setters`` (the strategies as named objects carrying their settings: ``Rollout(samples=...)``);
- ``simulation`` and ``result`` (blocks, seeds, executors, resume, Parquet; result tables and
  paired comparisons), on top of ``play`` and ``settlement``; ``skill`` (rollout against weak
  fields, duplicate) and ``sweep`` (a rule key over values on
  common decks) on top of them; ``shipped`` (the stored rollout runs in
  ``cpstats/data/reference/ofc``, opened by the notebook and the dashboard); ``entry_value``
  (the Fantasyland value ``rollout`` is told, a fixed point); ``strength`` (the headline figures
  at five strengths of play, :func:`strength_table`).

Users play open face through the verbs (:func:`cpstats.simulate`, ``compare``, ``sweep``,
``skill``, ``solve``, ``load_reference``, ``get_preset``, ``presets``), which reach this game's runs
through its registration (``game``: its rules, words and runs, registered on import exactly as
:mod:`cpstats.thirteen` registers the 13-card game).

OFC-JOKER (a 54-card deck with jokers) is not supported.
"""

from cpstats.ofc.board import BoardValues, as_boards, board_ranks, board_values, table_args
from cpstats.ofc.rules import (FantasylandRules, Deal, Royalties, Scoring,
                               RuleArrays, Variant, StayRule, parse_ofc_variant,
                               is_ofc_variant, resolve_ofc_variant)
from cpstats.ofc.fantasyland import (FantasySetting, estimate_stay_value, fantasyland_table,
                                     solve_fantasyland)
from cpstats.ofc.play import PlayedHands, play_hands
from cpstats.ofc.result import SimulationResult
from cpstats.ofc.shipped import (OFC_REFERENCE_RUNS, find_ofc_reference, load_shipped, ofc_sensitivity,
                                 write_ofc_reference)
from cpstats.ofc.setters import (FastPolicy, GreedySetter, RandomSetter, HandSetter, Rollout, RolloutExact, RolloutV1,
                                 as_ofc_setter)
from cpstats.ofc.settlement import Settlement, seat_rake, settle_boards, settle_hands
from cpstats.ofc.simulation import _compare_runs, simulate
from cpstats.ofc.sweep import run_sweep
from cpstats.ofc.skill import skill_table
from cpstats.ofc.strength import shipped_strength, strength_table
from cpstats.ofc.game import OPEN_FACE
from cpstats.engine.registry import register_game

# the verbs (cpstats.simulate, compare, sweep, skill, solve, load_reference...) play open face
# through this registration: its rules and runs together (cpstats.ofc.game)
GAME = register_game(OPEN_FACE)

__all__ = ["GAME", "Variant", "Deal", "StayRule", "Royalties", "FantasylandRules", "Scoring",
           "RuleArrays", "parse_ofc_variant", "resolve_ofc_variant",
           "table_args", "as_boards", "board_ranks", "board_values", "BoardValues",
           "Settlement", "settle_boards", "settle_hands", "seat_rake", "is_ofc_variant",
           "SimulationResult", "FantasySetting", "solve_fantasyland",
           "fantasyland_table", "estimate_stay_value", "PlayedHands", "play_hands",
           "write_ofc_reference", "find_ofc_reference", "ofc_sensitivity",
           "HandSetter", "Rollout", "FastPolicy", "RolloutExact", "RolloutV1", "GreedySetter", "RandomSetter", "as_ofc_setter",
           "strength_table", "shipped_strength"]
