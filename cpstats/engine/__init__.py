"""The engine: what every game's runs share, and no game of its own.

The block runner (:mod:`~cpstats.engine.runner`: plan, seeds, executor, resume, files,
progress), additive block summaries (:mod:`~cpstats.engine.additive`), batches and sparse
distributions (:mod:`~cpstats.engine.batches`), statistics and intervals
(:mod:`~cpstats.engine.stats`), paired differences (:mod:`~cpstats.engine.paired`), run
folders, saved results and shipped references (:mod:`~cpstats.engine.files`), the results'
base (:mod:`~cpstats.engine.base`), what a game gives the engine
(:mod:`~cpstats.engine.games`), the runs of a game that gives only a block function
(:mod:`~cpstats.engine.defaults`), sweep points (:mod:`~cpstats.engine.points`),
sequential stopping (:mod:`~cpstats.engine.sequential`), figure lookup
(:mod:`~cpstats.engine.lookup`) and the solved rule's record
(:mod:`~cpstats.engine.solution`); the one registry of games and the loading of any game's variant
string or file (:mod:`~cpstats.engine.registry`, :mod:`~cpstats.engine.variant_files`), rules in
words (:mod:`~cpstats.engine.describe`) and the setter contract (:mod:`~cpstats.engine.setter`).

Imports cards, hands and the shared rules, never a game's package: each game
(:mod:`cpstats.thirteen`, :mod:`cpstats.ofc`) sits above and registers itself; the verbs
(:mod:`cpstats.workbench`) sit above both.
"""

from __future__ import annotations

from cpstats.engine.base import FIGURE_COLUMNS, FigureBatches, Result
from cpstats.engine.batches import BATCHES, batch_count
from cpstats.engine.files import REFERENCE_DIR, load_reference, load_result, save_result
from cpstats.engine.games import GameRuns, RunSizes, runs_of
from cpstats.engine.points import sweep_variants

__all__ = ["Result", "FigureBatches", "FIGURE_COLUMNS", "BATCHES", "batch_count", "save_result",
           "load_result", "load_reference", "REFERENCE_DIR", "GameRuns", "RunSizes", "runs_of",
           "sweep_variants"]

