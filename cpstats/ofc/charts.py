"""What open face's figure charts show (drawn by :mod:`cpstats.apps.panels`): the figures a
designer reads, in order, with their words and formats (:data:`METRIC_LABELS`), which are rates
and which units, and the strength chart's series (:func:`strength_frames`); all in one
:class:`FigureCharts` (:data:`FIGURE_CHARTS`), the content the apps read.

- Decision: the figures show seat 0's mean and SD only; the presets are symmetric, so the other
  seats are the same figures by symmetry (their own rows are in ``SimulationResult.figures()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from cpstats.engine.catalogue import resolve_figures
from cpstats.engine.figures_text import catalogue_labels
from cpstats.ofc.catalogue import FIGURES
from cpstats.ofc.rules import DEFAULT_PRESET
from cpstats.ofc.strength import STRENGTH_LABELS

__all__ = ["METRIC_LABELS", "RATE_METRICS", "UNIT_METRICS", "DIFFERENCE_UNITS", "STRENGTH_RATES",
           "STRENGTH_UNITS", "FigureCharts", "FIGURE_CHARTS", "strength_frames"]

#: How each figure shown is written, in order (its words are the catalogue's, :data:`METRIC_LABELS`).
_FORMATS = {"foul_rate": "{:.1%}", "royalty": "{:.2f}", "royalty_front": "{:.2f}", "royalty_middle": "{:.2f}",
            "royalty_back": "{:.2f}", "scoop_rate": "{:.1%}", "fl_entry_rate": "{:.1%}", "fl_stay_rate": "{:.1%}",
            "fl_share": "{:.1%}", "fl_value": "{:.2f}", "mean_seat0": "{:+.2f}", "sd_seat0": "{:.2f}",
            "sd_after_charges": "{:.2f}",
            "hands_seat0": "{:,.0f}", "hit_frequency": "{:.1%}", "push_rate": "{:.1%}",
            "rake_per_seat_per_hand": "{:.3f}", "rake_per_seat_per_hour": "{:.2f}", "rake_share": "{:.1%}"}
#: The figures shown, in order: metric of ``SimulationResult.figures()`` -> (catalogue label, format).
METRIC_LABELS = {m: (label, _FORMATS[m])
                 for m, label in catalogue_labels(_FORMATS, resolve_figures(FIGURES)).items()}
#: The rates (drawn in %) and the units of a run's figures chart.
RATE_METRICS = ("foul_rate", "fl_entry_rate", "fl_stay_rate", "fl_share", "scoop_rate", "hit_frequency", "push_rate")
UNIT_METRICS = ("royalty", "royalty_front", "royalty_middle", "royalty_back", "fl_value", "sd_seat0")
#: The units of a differences chart (the rates are :data:`RATE_METRICS`).
DIFFERENCE_UNITS = ("royalty", "royalty_front", "royalty_middle", "royalty_back")
#: The rates and units of the strength chart.
STRENGTH_RATES = ("foul_rate", "fl_entry_rate", "rake_share")
STRENGTH_UNITS = ("royalty", "fl_value", "sd_seat0")


@dataclass(frozen=True)
class FigureCharts:
    """What a game's figure charts show: ``labels`` (metric -> (words, format), in the order
    shown), the ``rates`` and ``units`` of a run's chart and the ``difference_units`` of a
    differences chart (its rates are ``rates``)."""

    labels: Mapping[str, tuple[str, str]]
    rates: tuple[str, ...]
    units: tuple[str, ...]
    difference_units: tuple[str, ...]


#: Open face's figure charts, as the apps read them.
FIGURE_CHARTS = FigureCharts(METRIC_LABELS, RATE_METRICS, UNIT_METRICS, DIFFERENCE_UNITS)


def strength_frames(table: pd.DataFrame, variant: str = DEFAULT_PRESET) -> dict[str, pd.DataFrame]:
    """The figures of ``variant`` at each strength of a :func:`cpstats.ofc.strength.strength_table`,
    one frame (``metric``, ``estimate``, ``ci_low``, ``ci_high``) a setter by its words, weakest
    first: the series of the strength chart (:data:`STRENGTH_RATES`, :data:`STRENGTH_UNITS`)."""
    rows = table[table["variant"] == variant]
    return {STRENGTH_LABELS.get(setter, setter): part[["metric", "estimate", "ci_low", "ci_high"]]
            for setter, part in rows.groupby("setter", sort=False)}
