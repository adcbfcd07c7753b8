"""The open-face PAR sheet's charts, each a :class:`matplotlib.figure.Figure` made here (never
through pyplot, so drawing a sheet leaves the caller's backend alone), every estimate with its
95% interval. The session bands are the 13-card sheet's chart (:mod:`cpstats.apps.par.charts`)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from cpstats.apps.par.charts import CHARTS as _CARD_CHARTS
from cpstats.apps.plots import style

__all__ = ["OFC_CHARTS"]

_BLUE, _ORANGE = "#2b6cb0", "#dd6b20"


def _bars(ax, labels, values, low, high, color) -> None:
    y = np.arange(len(values))[::-1]
    values, low, high = (np.asarray(x, dtype=float) for x in (values, low, high))
    ax.barh(y, values, color=color, alpha=0.75)
    ax.errorbar(values, y, xerr=np.vstack([values - low, high - values]), fmt="none", ecolor="#1a202c",
                capsize=2, lw=0.8)
    ax.set_yticks(y, labels)


def _outcomes(sheet: Any) -> Figure:
    """Each outcome of a pair of players: probability with its 95% interval."""
    frame = sheet.tables["pair_outcomes"]
    with style():
        fig = Figure(figsize=(7.5, 1.0 + 0.28 * len(frame)))
        ax = fig.subplots()
        _bars(ax, frame["description"], frame["probability"], frame["ci_low"], frame["ci_high"], _BLUE)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel("probability, per pair of players and hand (95% CI)")
        ax.set_title("Outcomes of a pair of players")
        fig.tight_layout()
    return fig


def _royalties(sheet: Any) -> Figure:
    """How often a board is paid each royalty hand, by row, 95% CI (log scale)."""
    frame = sheet.tables["royalties"]
    frame = frame[frame["frequency"] > 0]
    with style():
        fig = Figure(figsize=(7.5, 1.2 + 0.22 * max(len(frame), 1)))
        ax = fig.subplots()
        colors = {"front": _BLUE, "middle": _ORANGE, "back": "#2f855a"}
        y = np.arange(len(frame))[::-1]
        for row, color in colors.items():
            part = frame["row"].to_numpy() == row
            f = frame[part]
            est = f["frequency"].to_numpy()
            err = np.vstack([est - f["ci_low"].to_numpy(), f["ci_high"].to_numpy() - est])
            ax.errorbar(est, y[part], xerr=err, fmt="s", color=color, ms=4, capsize=2, label=row)
        ax.set_yticks(y, [f"{r} {h}" for r, h in zip(frame["row"], frame["royalty"])])
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_xlabel("boards paid the royalty (log scale, 95% CI)")
        ax.set_title("Royalties by row and hand")
        ax.legend(loc="lower right", fontsize=8)
        fig.tight_layout()
    return fig


def _strength(sheet: Any) -> Figure:
    """The strong strategy's mean net per hand against each field, 95% CI."""
    frame = sheet.tables["strength"]
    with style():
        fig = Figure(figsize=(7.5, 1.0 + 0.45 * len(frame)))
        ax = fig.subplots()
        _bars(ax, frame["label"], frame["mean"], frame["ci_low"], frame["ci_high"], _ORANGE)
        ax.axvline(0, color="#718096", lw=0.8)
        ax.set_xlabel("rollout's mean net per hand, units (duplicate, 95% CI)")
        ax.set_title("The strategy assumed, against each field")
        fig.tight_layout()
    return fig


#: Chart name (as in ``ParSection.charts``) -> function of the sheet returning a figure.
OFC_CHARTS: dict[str, Callable[[Any], Figure]] = {
    "outcomes": _outcomes, "royalties": _royalties, "strength": _strength,
    "sessions": _CARD_CHARTS["sessions"]}
