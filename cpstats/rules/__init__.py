"""The rules both games share: the house components of rulebook section 6 (rake, bank, stakes,
surrender, ...), the checking helpers every rules class uses, and the rulebook's glossary.

Each game's own rules are in its package (:mod:`cpstats.thirteen.rules`, :mod:`cpstats.ofc.rules`);
the registry that loads any game's variant string is the engine's (:mod:`cpstats.engine.registry`).

Imports :mod:`cpstats.errors` only.
"""

from cpstats.rules.house import AcesBet, Bank, BankMode, BankSetter, Misset, Rake, RakeModel, Stakes, Surrender
from cpstats.rules.rulebook import RULES, SECTIONS, RuleInfo, rule_info

__all__ = ["AcesBet", "Bank", "BankMode", "BankSetter", "Misset", "Rake", "RakeModel", "Stakes", "Surrender",
           "RULES", "SECTIONS", "RuleInfo", "rule_info"]
