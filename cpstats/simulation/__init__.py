"""Results: simulation runs in reproducible blocks, their folders and resume, result tables,
statistics and intervals, natural frequencies, the skill table of a variant, sweeps of a rule
parameter on common deals.

Layer 5 of 6: imports every layer below (cards, hands, rules, strategies, settlement), never
the apps.
"""

from cpstats.simulation.base import FIGURE_COLUMNS, Result
from cpstats.simulation.frequencies import natural_frequencies
from cpstats.simulation.files import REFERENCE_DIR, load_reference, load_result, save_result
from cpstats.simulation.presets_table import compare_presets
from cpstats.simulation.result import SimulationResult
from cpstats.simulation.run import compare, simulate
from cpstats.simulation.skill import SKILL_FIELDS, skill
from cpstats.simulation.summary import BATCHES, ROYALTY_ROWS, SimulationSummary, batch_count
from cpstats.simulation.sweep import METRICS as SWEEP_METRICS
from cpstats.simulation.sweep import sweep, sweep_variants

__all__ = ["simulate", "compare", "compare_presets", "SimulationResult", "SimulationSummary", "Result",
           "FIGURE_COLUMNS", "BATCHES", "ROYALTY_ROWS",
           "save_result", "load_result", "load_reference", "REFERENCE_DIR", "batch_count",
           "natural_frequencies", "skill", "SKILL_FIELDS", "sweep", "sweep_variants", "SWEEP_METRICS"]
