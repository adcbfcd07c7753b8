"""The 13-card game (rulebook sections 1-6) on the engine: its runs, summaries, results and figures.

Its rules are data on the rules layer (:mod:`cpstats.thirteen.rules.variant` and its parts), its play on
the play layer (:mod:`cpstats.thirteen.play`, :mod:`cpstats.thirteen.settlement`); this package holds what
the engine runs for it. Inside, imports point one way:

- ``block`` (a block's settings ranked once) <- ``summary`` (:class:`SimulationSummary`, the
  additive arrays of a block) and ``outcomes`` (the outcome tables) <- ``house`` (house money,
  defined once) <- ``result`` (:class:`SimulationResult`, its tables and rescoring) <- ``figures``
  (its tidy figures) and ``paired`` (the designer's figures side by side, paired);
- ``run`` (the block function and the run behind :func:`cpstats.simulate` and
  :func:`cpstats.compare`) <- ``sweep``, ``skill``, ``presets_table`` and ``frequencies``;
- ``game`` (the registration: rules, words and runs together), which this package registers on
  import (the OpenSpiel pattern), exactly as :mod:`cpstats.ofc` registers open face.

Layer 6, beside :mod:`cpstats.ofc`: imports the engine and the layers below, never the other game.
"""

from cpstats.engine.registry import register_game
from cpstats.thirteen.game import THIRTEEN
from cpstats.thirteen.presets_table import compare_presets
from cpstats.thirteen.frequencies import natural_frequencies
from cpstats.thirteen.paired import paired_metrics
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.summary import ROYALTY_ROWS, SimulationSummary
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.play.setters import EvSetter, GreedySetter, HandSetter, RandomSetter
from cpstats.thirteen.settlement.engine import Settlement

#: The 13-card game as registered (:class:`cpstats.engine.registry.Game`).
GAME = register_game(THIRTEEN)

__all__ = ["GAME", "Variant", "SimulationResult", "SimulationSummary", "EvSetter", "GreedySetter", "HandSetter",
           "RandomSetter", "Settlement", "ROYALTY_ROWS", "paired_metrics",
           "compare_presets", "natural_frequencies"]
