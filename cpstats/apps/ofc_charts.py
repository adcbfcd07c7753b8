"""Open-face figures in words and charts: :func:`ofc_figures_table` (the figures a designer
reads, with their 95% intervals), :func:`plot_ofc_figures` (rates and units per board with
error bars, one colour per variant), shared by the Open-face tab and notebook 06, and
:func:`plot_strength` (a variant's headline figures at five strengths of play).

- Decision: the table shows seat 0's mean and SD only; the presets are symmetric, so the other
  seats are the same figures by symmetry (their own rows are in ``OfcResult.figures()``).
"""

from __future__ import annotations

from typing import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps import plots
from cpstats.ofc.strength import STRENGTH_LABELS
from cpstats.ofc import GAME as OPEN_FACE

__all__ = ["METRIC_LABELS", "RATE_METRICS", "UNIT_METRICS", "ofc_figures_table", "plot_ofc_figures",
           "plot_ofc_differences", "plot_strength"]

#: The figures shown, in order: metric of ``OfcResult.figures()`` -> (label, format).
METRIC_LABELS = {
    "foul_rate": ("foul rate (per board)", "{:.1%}"),
    "royalty": ("royalty per board (units)", "{:.2f}"),
    "royalty_front": ("royalty per board, front", "{:.2f}"),
    "royalty_middle": ("royalty per board, middle", "{:.2f}"),
    "royalty_back": ("royalty per board, back", "{:.2f}"),
    "scoop_rate": ("scoop rate (per board and opponent)", "{:.1%}"),
    "fl_entry_rate": ("Fantasyland entry (per normal hand)", "{:.1%}"),
    "fl_stay_rate": ("Fantasyland stay (per Fantasyland hand)", "{:.1%}"),
    "fl_share": ("hands played in Fantasyland", "{:.1%}"),
    "fl_value": ("value of Fantasyland (units over a normal hand)", "{:.2f}"),
    "mean_seat0": ("mean per hand, seat 0 (units)", "{:+.2f}"),
    "sd_seat0": ("SD per hand, seat 0 (units)", "{:.2f}"),
    "hands_seat0": ("hands to know seat 0's mean within 1 unit", "{:,.0f}"),
    "rake_per_hand": ("rake per seat per hand (units)", "{:.3f}"),
    "rake_per_hour": ("rake per seat per hour (units)", "{:.2f}"),
    "rake_share": ("rake share of points won", "{:.1%}"),
}
RATE_METRICS = ("foul_rate", "fl_entry_rate", "fl_stay_rate", "fl_share", "scoop_rate")
UNIT_METRICS = ("royalty", "royalty_front", "royalty_middle", "royalty_back", "fl_value", "sd_seat0")


def ofc_figures_table(result, confidence: float = 0.95, *,
                      hands_per_hour: float | None = None) -> pd.DataFrame:
    """The figures of :data:`METRIC_LABELS` of an ``OfcResult``, one row each, indexed by label:
    ``estimate``, ``ci_low``, ``ci_high``, ``method`` (rake per hour at ``hands_per_hour``,
    default the variant's)."""
    figures = result.figures(confidence, hands_per_hour=hands_per_hour).set_index("metric")
    rows = [m for m in METRIC_LABELS if m in figures.index]
    table = figures.loc[rows, ["estimate", "ci_low", "ci_high", "method"]]
    table.index = [METRIC_LABELS[m][0] for m in rows]
    return table


def _panel(ax, frames: Mapping[str, pd.DataFrame], metrics, scale: float, xlabel: str) -> None:
    labels = [METRIC_LABELS[m][0] for m in metrics]
    y = np.arange(len(metrics))[::-1].astype(float)
    step = 0.8 / max(len(frames), 1)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    hollow: list[tuple[float, float]] = []
    for i, (name, f) in enumerate(frames.items()):
        f = f.set_index("metric").reindex(list(metrics))
        est, low, high = (f[c].to_numpy(float) * scale for c in ("estimate", "ci_low", "ci_high"))
        at = y + 0.4 - step * (i + 0.5)
        bare = ~np.isnan(est) & (np.isnan(low) | np.isnan(high))
        err = np.nan_to_num([est - low, high - est])
        colour = colours[i % len(colours)]
        ax.errorbar(est[~bare], at[~bare], xerr=err[:, ~bare], fmt="o", ms=4, capsize=3, color=colour,
                    label=name)
        ax.plot(est[bare], at[bare], "o", ms=4, mfc="white", color=colour)
        hollow += list(zip(est[bare], at[bare]))
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    ax.axvline(0, color="0.6", lw=0.8)
    ax.margins(x=0.08)
    low, high = ax.get_xlim()
    ax.set_xlim(min(0, low), max(0, high))
    low, high = ax.get_xlim()
    for x, where in hollow:  # written inwards, so the words stay inside the axes
        right = x > (low + high) / 2
        ax.annotate("no interval: too few hands", (x, where), xytext=(-6 if right else 6, 4),
                    textcoords="offset points", ha="right" if right else "left", fontsize=7, color="0.35")


def plot_ofc_figures(results: Mapping[str, object], *, title: str = "", confidence: float = 0.95):
    """Rates (left, %) and units per board or hand (right) of one or more ``OfcResult`` (a
    mapping label -> result), each estimate with its interval as an error bar (a hollow marker,
    labelled, where a run has too few hands for one)."""
    frames = {k: r.figures(confidence) for k, r in results.items()}
    return _two_panels(frames, RATE_METRICS, UNIT_METRICS, f"% ({confidence:.0%} CI)",
                       f"units ({confidence:.0%} CI)", title)


def plot_ofc_differences(paired: pd.DataFrame, rates=RATE_METRICS, units=("royalty", "royalty_front",
                         "royalty_middle", "royalty_back"), *, title: str = ""):
    """Paired differences to the first variant of a :func:`cpstats.compare`
    table (one colour per other variant): rates in percentage points (left), units (right),
    each with its interval."""
    base = paired["label"].iloc[0]
    frames = {label: rows[["metric", "diff", "diff_ci_low", "diff_ci_high"]].set_axis(
                  ["metric", "estimate", "ci_low", "ci_high"], axis=1)
              for label, rows in paired.groupby("label", sort=False) if label != base}
    return _two_panels(frames, rates, units, f"difference to {base}, percentage points (95% CI)",
                       f"difference to {base}, units (95% CI)", title)


def plot_strength(table: pd.DataFrame, variant: str = OPEN_FACE.default_preset, *, title: str = ""):
    """The headline figures of ``variant`` at each strength of a :func:`cpstats.ofc.strength.strength_table`
    (one colour a setter, weakest first): rates in % (left), units (right), each with its interval."""
    rows = table[table["variant"] == variant]
    frames = {STRENGTH_LABELS.get(setter, setter): part[["metric", "estimate", "ci_low", "ci_high"]]
              for setter, part in rows.groupby("setter", sort=False)}
    return _two_panels(frames, ("foul_rate", "fl_entry_rate", "rake_share"), ("royalty", "fl_value", "sd_seat0"),
                       "% (95% CI)", "units (95% CI)", title)


def _two_panels(frames: Mapping[str, pd.DataFrame], rates, units, left_label: str, right_label: str,
                title: str):
    with plots.style():
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 0.5 * max(len(rates), len(units)) + 2.2))
        _panel(left, frames, rates, 100.0, left_label)
        _panel(right, frames, units, 1.0, right_label)
        if title:
            fig.suptitle(title, fontsize=10)
        top = 0.94 if title else 1.0
        if len(frames) > 1:
            handles, names = right.get_legend_handles_labels()
            fig.legend(handles, names, loc="upper center", ncol=min(len(frames), 4), fontsize=8,
                       bbox_to_anchor=(0.5, top), frameon=False)
            top -= 0.04 * ((len(frames) + 3) // 4)
        fig.tight_layout(rect=(0, 0, 1, top))
    return fig
