"""Play, part one: setting strategies (the protocol, ``greedy``, ``random``, the rule-aware
``ev`` and the banked game's ``house-way``, the dealer's fixed rules), their training, duplicate
matches and the review of one setting.

Layer 4 of 6 (play, beside :mod:`cpstats.thirteen.settlement`, which it may use for matches): imports
cards, hands and rules.
"""

from cpstats.thirteen.play.api import (Decisions, HandDecision, Strategy, get_strategy,
                                    register_strategy, set_hand, set_hands, strategy_names)
from cpstats.thirteen.play.row_tables import (TABLES_DIR, CardRemoval, RowTables, TablesWarning,
                                           load_tables, tables_record)
# ev_setter before baselines: strategy_names() lists the strategies in the order they register.
from cpstats.thirteen.play.ev_setter import ev
from cpstats.thirteen.play.baselines import greedy, random_setter
from cpstats.thirteen.play.setters import (SETTERS, EvSetter, GreedySetter, RandomSetter, Setter,
                                           as_setter)
# house_way imports setters (its HandSetter), so it joins SETTERS here, not in setters itself
from cpstats.thirteen.play.house_way import HOUSE_WAY_WORDS, HouseWaySetter, house_way_words
from cpstats.thirteen.play.review import Review, review, setting_values
from cpstats.thirteen.play.training import (Exploitability, MatchResult, exploitability, match,
                                         train_preset, train_tables)

SETTERS[HouseWaySetter.name] = HouseWaySetter

__all__ = ["Decisions", "HandDecision", "Strategy", "TablesWarning", "RowTables", "CardRemoval",
           "register_strategy", "get_strategy", "strategy_names", "set_hands", "set_hand", "greedy",
           "random_setter", "ev", "load_tables", "tables_record", "TABLES_DIR", "train_tables",
           "train_preset", "match", "MatchResult", "exploitability", "Exploitability", "Review",
           "review", "setting_values", "Setter", "EvSetter", "GreedySetter", "RandomSetter", "as_setter",
           "HouseWaySetter", "house_way_words", "HOUSE_WAY_WORDS"]
