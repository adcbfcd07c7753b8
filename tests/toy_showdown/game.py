"""The toy showdown's registration: its rules, words and runs in one :class:`Game` record.

It gives the least a game gives (a block function, a summary, a result, a setter and its
default), so the engine supplies its compare and sweep, and it has no skill table, shipped runs
or views.
"""

from __future__ import annotations

from cpstats.cards import SEATS_DEALER
from cpstats.engine.defaults import block_run
from cpstats.engine.games import GameRuns, RunSizes
from cpstats.engine.registry import Game
from toy_showdown import words
from toy_showdown.block import ShowdownSummary, play
from toy_showdown.result import ShowdownResult
from toy_showdown.rules import GAME, KEYS, PRESETS, ShowdownVariant, get_preset, key_name, key_of, parse_variant
from toy_showdown.setter import AsDealt, setter_for

__all__ = ["TOY_SHOWDOWN"]

TOY_SHOWDOWN = Game(
    name=GAME, variant_type=ShowdownVariant, parse=parse_variant, presets=PRESETS, get_preset=get_preset,
    keys=tuple(key.name for key in KEYS), key_of=key_of, key_name=key_name,
    describe_rules=words.describe_rules, short_label=words.short_label, unit="deals",
    label="a toy five-card showdown", default_preset="showdown",
    runs=GameRuns(simulate=block_run(play, ShowdownSummary, ShowdownResult, block_deals=500, dealer=SEATS_DEALER),
                  setter=setter_for, default_setter=AsDealt.name, summary=ShowdownSummary,
                  result=ShowdownResult, probe_setter=AsDealt.name,
                  sizes=RunSizes(solve=3_000, pilot=1_000, least=2, sweep=20_000)),
)
