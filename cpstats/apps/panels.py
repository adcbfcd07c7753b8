"""Figures with their intervals, drawn on two panels (rates in %, units), one colour a series:
:func:`figures_table` (a run's figures a chart names, in words), :func:`plot_results` (one or
more runs), :func:`plot_differences` (paired differences of a :func:`cpstats.compare` table) and
:func:`plot_panels` (any series). A game says which figures and in which words (open face:
:data:`cpstats.ofc.charts.FIGURE_CHARTS`); the dashboard and notebooks pass them in.
"""

from __future__ import annotations

from typing import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps import plots

__all__ = ["figures_table", "plot_results", "plot_differences", "plot_panels"]


def figures_table(figures: pd.DataFrame, labels: Mapping[str, tuple[str, str]]) -> pd.DataFrame:
    """The figures of ``labels`` (metric -> (words, format), in the order shown) that a run's
    ``figures`` frame (``result.figures()``) holds, one row each, indexed by their words:
    ``estimate``, ``ci_low``, ``ci_high``, ``method``."""
    figures = figures.set_index("metric")
    rows = [m for m in labels if m in figures.index]
    table = figures.loc[rows, ["estimate", "ci_low", "ci_high", "method"]]
    table.index = [labels[m][0] for m in rows]
    return table


def _panel(ax, frames: Mapping[str, pd.DataFrame], labels: Mapping[str, tuple[str, str]], metrics, scale: float,
           xlabel: str) -> None:
    names = [labels[m][0] for m in metrics]
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
    ax.set_yticks(y, names)
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


def plot_results(results: Mapping[str, object], labels: Mapping[str, tuple[str, str]], rates, units, *,
                 title: str = "", confidence: float = 0.95):
    """The ``rates`` (left, %) and ``units`` (right) of one or more results (a mapping label ->
    result, each read by ``result.figures(confidence)``), each estimate with its interval as an
    error bar (a hollow marker, labelled, where a run has too few hands for one)."""
    frames = {k: r.figures(confidence) for k, r in results.items()}
    return plot_panels(frames, labels, rates, units, left=f"% ({confidence:.0%} CI)",
                       right=f"units ({confidence:.0%} CI)", title=title)


def plot_differences(paired: pd.DataFrame, labels: Mapping[str, tuple[str, str]], rates, units, *,
                     title: str = ""):
    """Paired differences to the first variant of a :func:`cpstats.compare` table (one colour per
    other variant): ``rates`` in percentage points (left), ``units`` (right), each with its
    interval."""
    base = paired["label"].iloc[0]
    frames = {label: rows[["metric", "diff", "diff_ci_low", "diff_ci_high"]].set_axis(
                  ["metric", "estimate", "ci_low", "ci_high"], axis=1)
              for label, rows in paired.groupby("label", sort=False) if label != base}
    return plot_panels(frames, labels, rates, units, left=f"difference to {base}, percentage points (95% CI)",
                       right=f"difference to {base}, units (95% CI)", title=title)


def plot_panels(frames: Mapping[str, pd.DataFrame], labels: Mapping[str, tuple[str, str]], rates, units, *,
                left: str, right: str, title: str = ""):
    """Figures with their intervals on two panels: the ``rates`` (in %, labelled ``left``) and
    the ``units`` (labelled ``right``) of each frame of ``frames`` (a series each, by name:
    ``metric``, ``estimate``, ``ci_low``, ``ci_high``; one colour a series, a legend when there
    are several), each figure named by ``labels`` (metric -> (words, format))."""
    with plots.style():
        fig, (left_ax, right_ax) = plt.subplots(1, 2, figsize=(11, 0.5 * max(len(rates), len(units)) + 2.2))
        _panel(left_ax, frames, labels, rates, 100.0, left)
        _panel(right_ax, frames, labels, units, 1.0, right)
        if title:
            fig.suptitle(title, fontsize=10)
        top = 0.94 if title else 1.0
        if len(frames) > 1:
            handles, names = right_ax.get_legend_handles_labels()
            fig.legend(handles, names, loc="upper center", ncol=min(len(frames), 4), fontsize=8,
                       bbox_to_anchor=(0.5, top), frameon=False)
            top -= 0.04 * ((len(frames) + 3) // 4)
        fig.tight_layout(rect=(0, 0, 1, top))
    return fig
