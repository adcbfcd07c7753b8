"""A toy third game, a package beside the real ones: a five-card showdown for 2 to 8 seats.

It is written as a new game is (docs/architecture.md, "Adding a game"): its rules and words, a
setter, a block function and its summary, a result, and a :class:`~cpstats.engine.registry.Game`
record registered when the package is imported, as ``cpstats.thirteen`` and ``cpstats.ofc`` are.
It edits no shared code; the tests hold it to the layout rules, the games' contract and the data
checks, registering it only while a test runs (``helpers.toy.toy_registered``: the registry is
global) and, for that reason, pytest does not import it to collect doctests (``conftest.py``).
"""

from cpstats.engine.registry import register_game
from toy_showdown.game import TOY_SHOWDOWN
from toy_showdown.result import ShowdownResult
from toy_showdown.rules import ShowdownVariant
from toy_showdown.setter import AsDealt

__all__ = ["GAME", "AsDealt", "ShowdownResult", "ShowdownVariant"]

GAME = register_game(TOY_SHOWDOWN)
