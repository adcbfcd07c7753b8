"""The engine: what every game's runs share, and no game of its own.

The block runner (:mod:`~cpstats.simulation.runner`: plan, seeds, executor, resume, files,
progress), additive block summaries (:mod:`~cpstats.simulation.additive`), batches and sparse
distributions (:mod:`~cpstats.simulation.batches`), statistics and intervals
(:mod:`~cpstats.simulation.stats`), paired differences (:mod:`~cpstats.simulation.paired`), run
folders, saved results and shipped references (:mod:`~cpstats.simulation.files`), the results'
base (:mod:`~cpstats.simulation.base`), what a game gives the engine
(:mod:`~cpstats.simulation.games`), the runs of a game that gives only a block function
(:mod:`~cpstats.simulation.defaults`), sweep points (:mod:`~cpstats.simulation.points`),
sequential stopping (:mod:`~cpstats.simulation.sequential`), figure lookup
(:mod:`~cpstats.simulation.lookup`) and the solved rule's record
(:mod:`~cpstats.simulation.solution`).

Layer 5: imports cards, hands and the rules layer's registry (:mod:`cpstats.rules.games`), never a
game's package: each game (:mod:`cpstats.thirteen`, :mod:`cpstats.ofc`) sits above and registers
itself; the verbs (:mod:`cpstats.workbench`) sit above both.

The names this package exported before the games had packages of their own (``simulate``,
``compare``, ``sweep``, ``skill``, ``SimulationResult``, ``compare_presets``,
``natural_frequencies``...) are the top level's now: ``cpstats.simulation.simulate`` gives
``cpstats.simulate`` with a DeprecationWarning for one release.
"""

from __future__ import annotations

import sys
import warnings

from cpstats.simulation.base import FIGURE_COLUMNS, FigureBatches, Result
from cpstats.simulation.batches import BATCHES, batch_count
from cpstats.simulation.files import REFERENCE_DIR, load_reference, load_result, save_result
from cpstats.simulation.games import GameRuns, RunSizes, runs_of
from cpstats.simulation.points import sweep_variants

__all__ = ["Result", "FigureBatches", "FIGURE_COLUMNS", "BATCHES", "batch_count", "save_result",
           "load_result", "load_reference", "REFERENCE_DIR", "GameRuns", "RunSizes", "runs_of",
           "sweep_variants"]


def __getattr__(name: str) -> object:
    """A name the package root exports (a former export of this package): the root's, warning
    that it goes from here in the next release."""
    top = sys.modules.get("cpstats")
    if top is not None and not name.startswith("_") and name in getattr(top, "__all__", ()):
        warnings.warn(f"cpstats.simulation.{name} is deprecated and goes in the next release: use "
                      f"cpstats.{name}", DeprecationWarning, stacklevel=2)
        return getattr(top, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
