"""The verbs, on a floor above every game: :func:`simulate`, :func:`compare`, :func:`sweep`,
:func:`skill`, :func:`solve` and :func:`design` (and :func:`describe`, whose words each game
registers on the rules layer).

Each verb loads the variant once (:func:`cpstats.engine.registry.load_variant`, any registered game),
resolves the setter once (the game's ``setter``), and calls the runs the variant's game
registered (:class:`cpstats.engine.games.GameRuns`) with one set of keyword names (``deals``,
``setter``, ``rng``, ``executor``, ``keep_hands``, ``out``, ``resume``, ``block_deals``...). No
verb names a game: a new game's package registers itself and every verb plays it.

Layer 7: imports the engine and the rules layer's registry, never a game's package.
"""

from cpstats.engine.describe import describe
from cpstats.workbench.design import Design, design
from cpstats.workbench.simulate import compare, simulate
from cpstats.workbench.skill import skill
from cpstats.workbench.solve import Solution, solve
from cpstats.workbench.sweep import sweep

__all__ = ["simulate", "compare", "sweep", "skill", "solve", "design", "describe", "Solution", "Design"]
