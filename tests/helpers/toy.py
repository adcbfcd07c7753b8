"""The toy game (``tests/toy_showdown``), registered only while a test holds it.

The registry is global and a package registers its game when first imported, so a test that
plays the toy enters :func:`toy_registered` (a fixture's body): the game is registered on entry
and forgotten on exit, and other tests see only the real games. Entering it while the toy is
already registered fails: something registered it outside, and it would leak into other tests.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from cpstats.engine.registry import GAMES, register_game, unregister_game

#: The toy game's package, imported as a game's package is.
PACKAGE = "toy_showdown"


@contextmanager
def toy_registered() -> Iterator[ModuleType]:
    """The toy's package, its game registered until the block ends."""
    imported = PACKAGE in sys.modules
    toy = importlib.import_module(PACKAGE)
    if imported and toy.GAME.name in GAMES:
        raise AssertionError(f"the toy game {toy.GAME.name!r} is registered outside toy_registered(): "
                             "it would leak into other tests")
    register_game(toy.GAME)
    try:
        yield toy
    finally:
        unregister_game(toy.GAME.name)
