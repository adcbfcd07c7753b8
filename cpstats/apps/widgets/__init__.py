"""Interactive apps for notebooks and the Voila dashboard: :class:`VariantComparer` and
:class:`RakeExplorer`.

Each app is built from ipywidgets controls, a Simulate button, a progress bar, an HTML table
and an ``Output`` holding the chart. Results are kept in a :class:`ResultCache` keyed by the
variant string, deal count and strategy, so charts are redrawn from the cache without
simulating again, and each app opens at once from the shipped reference results
(``cpstats/data/reference``).

One module per app, each with its decisions in its docstring: ``picker`` (:class:`VariantPicker`),
``comparer`` (:func:`comparison_table`, :class:`VariantComparer`), ``rake`` (:func:`rake_figures`,
:class:`RakeExplorer`); ``cache`` runs and keeps the simulations (:class:`ResultCache`, the seed
and block size), ``_common`` holds what the apps share (messages, tables, charts, the app frame).
"""

from cpstats.apps.widgets._common import DEAL_CHOICES, DEFAULT_STRATEGY
from cpstats.apps.widgets.cache import SEED, WIDGET_BLOCK_DEALS, ResultCache
from cpstats.apps.widgets.comparer import VariantComparer, comparison_table
from cpstats.apps.widgets.picker import VariantPicker
from cpstats.apps.widgets.rake import RakeExplorer, rake_figures

__all__ = ["ResultCache", "VariantPicker", "VariantComparer", "RakeExplorer", "comparison_table",
           "rake_figures", "SEED", "WIDGET_BLOCK_DEALS", "DEFAULT_STRATEGY", "DEAL_CHOICES"]
