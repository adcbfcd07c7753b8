"""Interactive apps for notebooks and the Voila dashboard: :class:`VariantComparer` (with its
skill section, :class:`SkillView`) and :class:`RakeExplorer`.

Each app is built from ipywidgets controls, a Simulate button, a progress bar, an HTML table
and an ``Output`` holding the chart. Results are kept in a :class:`ResultCache` keyed by the
variant string, deal count and strategy, so charts are redrawn from the cache without
simulating again, and each app opens at once from the shipped reference results
(``cpstats/data/reference``, ev on 1,000,000 deals). Live runs use ev too
(:data:`DEFAULT_STRATEGY`); the baselines greedy and random are offered under the labels of
:data:`STRATEGY_LABELS`.

One module per app, each with its decisions in its docstring: ``picker`` (:class:`VariantPicker`),
``comparer`` (:func:`comparison_table`, :class:`VariantComparer`), ``rake``
(:class:`RakeExplorer`, the house money of a run, whose figures are the game's:
:func:`cpstats.thirteen.dashboard.rake_figures`), ``skill`` (:func:`skill_table`, :class:`SkillView`), ``sweep``
(:class:`SweepView`, one rule parameter over a range), ``open_face`` (:class:`OpenFaceApp`, the
open-face game), ``typed_compare`` (:class:`TypedCompare`, the comparer's view of a game whose
variants are typed as strings), ``par_view``
(:class:`ParView`, the PAR sheet of either game); ``cache`` runs and
keeps the simulations (:class:`ResultCache`, the seed and block size), ``_common`` holds what the
apps share (strategy labels, messages, tables, charts, the app frame).
"""

from cpstats.apps.widgets._common import (DEAL_CHOICES, DEFAULT_STRATEGY, STRATEGY_LABELS, runs_text,
                                          setter_text)
from cpstats.apps.widgets.cache import SEED, WIDGET_BLOCK_DEALS, ResultCache
from cpstats.apps.widgets.comparer import VariantComparer, comparison_table
from cpstats.apps.widgets.picker import VariantPicker
from cpstats.apps.widgets.rake import RakeExplorer
from cpstats.apps.widgets.skill import SkillView, skill_table
from cpstats.apps.widgets.sweep import SweepView
from cpstats.apps.widgets.open_face import OpenFaceApp
from cpstats.apps.widgets.solve import SolveView
from cpstats.apps.widgets.par_view import ParView

__all__ = ["ResultCache", "VariantPicker", "VariantComparer", "RakeExplorer", "comparison_table",
           "SkillView", "SweepView", "SolveView", "OpenFaceApp", "ParView", "skill_table", "SEED",
           "WIDGET_BLOCK_DEALS",
           "DEFAULT_STRATEGY", "DEAL_CHOICES", "STRATEGY_LABELS", "setter_text", "runs_text"]
