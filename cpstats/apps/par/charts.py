"""The PAR sheet's charts, any game's: each game describes its charts as data
(:class:`~cpstats.engine.sheet.Chart`: a frame, a kind and its words) and :func:`draw` draws every
kind the same way; :func:`sweep_chart` draws a sensitivity sweep.

Labels are words, never rule IDs or variant strings; every estimate is drawn with its 95%
interval (error bars or bands).

- Decision: a chart is rendering, so the games describe and the apps draw: a game's package
  holds no plotting code, and one kind (bars with intervals, rates on a log scale...) reads the
  same in both games' sheets.
- Decision: every chart is a :class:`matplotlib.figure.Figure` made here, never through pyplot,
  so drawing a sheet neither selects a backend nor leaves figures open in the caller's session.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from cpstats.apps.par.sensitivity import moved
from cpstats.apps.plots import StepPercentFormatter, style
from cpstats.apps.sweep_chart import plot_sweep
from cpstats.engine.sheet import Chart, ChartKind

__all__ = ["draw", "sweep_chart"]

_COLORS = ("#2b6cb0", "#dd6b20", "#2f855a", "#805ad5")
_MARKERS = ("s", "o")


def _distribution(chart: Chart) -> Figure:
    """A bar a value (a seat's net results): x against its probability."""
    frame = chart.frame
    fig = Figure(figsize=(7.5, 3.4))
    ax = fig.subplots()
    ax.bar(frame["x"], frame["probability"], width=0.8, color=_COLORS[0])
    if chart.percent:
        ax.yaxis.set_major_formatter(StepPercentFormatter(1.0))
    ax.set_xlabel(chart.xlabel)
    ax.set_ylabel(chart.ylabel)
    ax.set_title(chart.title)
    return fig


def _intervals(chart: Chart) -> Figure:
    """A horizontal bar a row, the first at the top, with its 95% interval."""
    frame = chart.frame
    fig = Figure(figsize=(7.5, 1.0 + 0.3 * len(frame)))
    ax = fig.subplots()
    y = np.arange(len(frame))[::-1]
    values, low, high = (frame[c].to_numpy(dtype=float) for c in ("estimate", "ci_low", "ci_high"))
    ax.barh(y, values, color=_COLORS[0], alpha=0.75)
    ax.errorbar(values, y, xerr=np.vstack([values - low, high - values]), fmt="none", ecolor="#1a202c",
                capsize=2, lw=0.8)
    ax.set_yticks(y, frame["label"])
    if chart.zero:
        ax.axvline(0, color="#718096", lw=0.8)
    if chart.percent:
        ax.xaxis.set_major_formatter(StepPercentFormatter(1.0))
    ax.set_xlabel(chart.xlabel)
    ax.set_title(chart.title)
    return fig


def _rate_rows(ax, frame: pd.DataFrame, color: str, marker: str, y: np.ndarray, label: str | None) -> None:
    """Points with their intervals at heights ``y``; a rate never seen at its upper bound, an open
    triangle."""
    values, low, high = (frame[c].to_numpy(dtype=float) for c in ("estimate", "ci_low", "ci_high"))
    shown = values > 0
    err = np.vstack([values - low, high - values])
    ax.errorbar(values[shown], y[shown], xerr=err[:, shown], fmt=marker, color=color, ms=4, capsize=2,
                label=label)
    unseen = ~shown & np.isfinite(high) & (high > 0)  # none seen: the upper bound, as the table gives
    if unseen.any():
        ax.plot(high[unseen], y[unseen], "<", color=color, mfc="white", ms=5)


def _rates(chart: Chart) -> Figure:
    """Rates on a log scale, a row each (the first at the top), in stacked panels (``panel``) and
    coloured by ``group`` (with a legend)."""
    frame = chart.frame
    panels = list(dict.fromkeys(frame["panel"])) if "panel" in frame else [None]
    parts = [frame if p is None else frame[frame["panel"] == p] for p in panels]
    fig = Figure(figsize=(7.5, 1.2 + 0.3 * len(frame)))
    axes = fig.subplots(len(parts), 1, gridspec_kw={"height_ratios": [max(len(p), 1) for p in parts]},
                        squeeze=False)[:, 0]
    for k, (ax, part, panel) in enumerate(zip(axes, parts, panels)):
        y = np.arange(len(part))[::-1]
        groups = list(dict.fromkeys(part["group"])) if "group" in part else [None]
        for g, group in enumerate(groups):
            rows = np.ones(len(part), dtype=bool) if group is None else (part["group"] == group).to_numpy()
            color = _COLORS[(g if group is not None else k) % len(_COLORS)]
            _rate_rows(ax, part[rows], color, _MARKERS[k % len(_MARKERS)], y[rows], group)
        ax.set_yticks(y, part["label"])
        ax.set_xscale("log")
        if chart.percent:
            ax.xaxis.set_major_formatter(FuncFormatter(_percent_tick))
        unseen = any(line.get_marker() == "<" for line in ax.lines)
        ax.set_xlabel(chart.xlabel + ("; open triangle: none seen, below its 95% upper bound" if unseen else ""))
        ax.set_title(panel if panel is not None else chart.title)
        if groups != [None]:
            ax.legend(loc="lower right", fontsize=8)
    return fig


def _percent_tick(x: float, _pos) -> str:
    text = f"{x * 100:.6f}".rstrip("0").rstrip(".")
    return f"{text}%"


def _trend(chart: Chart) -> Figure:
    """Points joined across ``x`` (ticks named by ``label``), each with its 95% interval."""
    frame = chart.frame
    fig = Figure(figsize=(7.5, 3.0))
    ax = fig.subplots()
    values = frame["estimate"].to_numpy(dtype=float)
    err = np.vstack([values - frame["ci_low"], frame["ci_high"] - values])
    ax.errorbar(frame["x"], values, yerr=err, fmt="o-", color=_COLORS[0], capsize=3)
    ax.set_xticks(frame["x"], frame["label"])
    if chart.percent:
        ax.yaxis.set_major_formatter(StepPercentFormatter(1.0))
    ax.set_xlabel(chart.xlabel)
    ax.set_ylabel(chart.ylabel)
    ax.set_title(chart.title)
    return fig


def _bands(chart: Chart) -> Figure:
    """Expected result of a session and its 90% and 95% bands against the session's length, a
    colour a kind of seat (``who``)."""
    frame = chart.frame
    fig = Figure(figsize=(7.5, 3.6))
    ax = fig.subplots()
    for (who, part), color in zip(frame.groupby("who", sort=False), _COLORS):
        n = part["hands"]
        ax.fill_between(n, part["low_95%"], part["high_95%"], color=color, alpha=0.15, label=f"{who}: 95% band")
        ax.fill_between(n, part["low_90%"], part["high_90%"], color=color, alpha=0.3, label=f"{who}: 90% band")
        ax.plot(n, part["expected"], color=color, lw=1.5, label=f"{who}: expected")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.set_xlabel(chart.xlabel)
    ax.set_ylabel(chart.ylabel)
    ax.set_title(chart.title)
    # below the axes, one row a side: inside, the legend would cover the bands somewhere
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8, frameon=False)
    return fig


_DRAW: dict[ChartKind, Callable[[Chart], Figure]] = {
    ChartKind.DISTRIBUTION: _distribution, ChartKind.INTERVALS: _intervals, ChartKind.RATES: _rates,
    ChartKind.TREND: _trend, ChartKind.BANDS: _bands}


def draw(chart: Chart) -> Figure:
    """The figure of ``chart``, in the package style."""
    with style():
        fig = _DRAW[chart.kind](chart)
        fig.tight_layout()
    return fig


def sweep_chart(frame: pd.DataFrame) -> Figure:
    """One sensitivity sweep: per figure it moves, its estimate and 95% band across the values."""
    table = moved(frame)
    return plot_sweep(table, fig=Figure(), columns=min(2, table["metric"].nunique()))
