"""The chart of a rule sweep: one small panel per metric, the parameter's value across, each
estimate with its confidence band (:func:`plot_sweep`), and the files of a sweep
(:func:`save_sweep`: the chart as PNG, SVG and PDF beside the table as CSV).

- Decision: numeric values are placed at their value on a linear axis (a sweep of 0, 2, 5, 10
  shows the spacing a designer chose); schedules of numbers (``14/14/14/14``) sit at even steps in
  their own order (element by element), any other values (``none``/``standard``) at even steps in
  the order given. A value given twice is drawn once.
- Decision: ``kind="difference"`` draws each point's paired difference to the first point with its
  band (narrower than the estimate's: the points share their deals); the default draws estimates.
- Decision: a point without an interval (a paired difference resting on too few differing deals,
  ``diff_note``; an SD of batches of one deal) is a hollow marker with no band, and the panel
  says ``no interval: too few events`` and how many deals a point would give one, so it never
  reads as a band of zero width, a certain value (:func:`mark_no_interval`).
- Decision: rates are on a percent axis whose labels carry the decimals their step needs, the
  same on every tick (:class:`~cpstats.apps.plots.StepPercentFormatter`: 0.25-point steps read
  13.75%, 14.00%, 14.25%, never the uneven 13.8%, 14.3%); a panel with no estimate at any value
  says so; the title names the parameter in words and the variant
  swept, the caption the setter, the deals and the seed, never a raw variant string as an axis.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from cpstats.apps import plots
from cpstats.apps.labels import baseline_label
from cpstats.errors import OptionError
from cpstats.engine.describe import short_label

__all__ = ["plot_sweep", "save_sweep", "mark_no_interval", "FORMATS"]

#: File formats :func:`save_sweep` writes the chart in.
FORMATS = ("png", "svg", "pdf")
_RATES = ("scoop_rate", "home_run_rate", "foul_rate", "fl_entry_rate", "fl_stay_rate", "fl_share",
          "royalty_rate_front", "royalty_rate_middle", "royalty_rate_back", "rake_share")
_BLUE, _BAND, _GREY = "#2b6cb0", "#90cdf4", "#718096"


def _positions(values: Sequence) -> tuple[np.ndarray, list[str] | None]:
    """x of each distinct value (its own value when all are numbers) and tick labels otherwise."""
    numeric = all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
                  and math.isfinite(float(v)) for v in values)
    if numeric:
        return np.array([float(v) for v in values]), None
    labels = [str(v) for v in values]
    try:  # schedules such as fantasyland.cards=14/15/16/17: even steps in their order
        keys = [tuple(float(x) for x in text.split("/")) for text in labels]
    except ValueError:
        return np.arange(len(values), dtype=float), labels
    ranks = {key: i for i, key in enumerate(sorted(set(keys)))}
    return np.array([ranks[k] for k in keys], dtype=float), labels


def _caption(table: pd.DataFrame) -> str:
    a = table.attrs
    setters = list(dict.fromkeys(a.get("setters") or [a.get("strategy", "?")]))
    setter = setters[0] if len(setters) == 1 else f"{a.get('strategy', '?')}, tables per point"
    if a.get("strategy") in ("greedy", "random"):
        setter += " (a baseline, not good play)"
    level = a.get("confidence", 0.95)
    pairing = a.get("pairing", "common deals")
    return (f"{setter}; {a.get('deals', 0):,} {a.get('unit', 'deals')} a point on {pairing}, seed {a.get('entropy', '?')}; "
            f"bands: {level:.0%} CI")


def plot_sweep(table: pd.DataFrame, *, kind: str = "estimate", title: str | None = None,
               columns: int | None = None, fig=None):
    """Small multiples of a :func:`~cpstats.thirteen.sweep.sweep` table: per metric, the
    estimate (or with ``kind="difference"`` the paired difference to the first point) against
    the parameter's value, with its shaded confidence band. Returns the figure.

    ``title`` replaces the default (``<parameter in words>: <short label of the variant swept>``).
    ``fig``: an empty :class:`matplotlib.figure.Figure` to draw on (sized here), so that a
    caller such as the PAR sheet keeps pyplot out; None makes a pyplot figure.
    """
    if kind not in ("estimate", "difference"):
        raise OptionError(f"kind={kind!r} is invalid: estimate or difference")
    metrics = list(dict.fromkeys(table["metric"]))
    if not metrics:
        raise OptionError("the sweep table is empty: nothing to draw")
    cols = columns or min(3, len(metrics))
    rows = -(-len(metrics) // cols)
    keys = ("diff", "diff_ci_low", "diff_ci_high") if kind == "difference" else (
        "estimate", "ci_low", "ci_high")
    words = table.attrs.get("parameter_label", table["parameter"].iloc[0])
    with plots.style():
        size = (3.7 * cols, 2.8 * rows + 0.8)
        fig = plt.figure(figsize=size) if fig is None else fig
        fig.set_size_inches(size)
        axes = fig.subplots(rows, cols, squeeze=False)
        for ax, metric in zip(axes.flat, metrics):
            _panel(ax, table[table["metric"] == metric], metric, keys, kind)
        for i, ax in enumerate(axes.flat):
            if i >= len(metrics):
                ax.set_visible(False)
            elif i + cols >= len(metrics):  # nothing drawn below it
                ax.set_xlabel(words)
        base = short_label(table.attrs.get("base") or table["variant"].iloc[0])
        what = "difference to the first value" if kind == "difference" else "sweep"
        head = title or f"{words}: {what}, {base}"
        height = fig.get_figheight()
        fig.text(0.5, 1 - 0.08 / height, head, ha="center", va="top", fontsize=12, fontweight="bold")
        fig.text(0.5, 1 - 0.36 / height, _caption(table), ha="center", va="top", fontsize=9,
                 color=_GREY)
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.6 / height))
    return fig


def _panel(ax, rows: pd.DataFrame, metric: str, keys: tuple[str, str, str], kind: str) -> None:
    """One metric's line, band and points."""
    rows = rows.drop_duplicates(subset="value", keep="first") if _hashable(rows["value"]) else rows
    x, ticks = _positions(list(rows["value"]))
    est, low, high = (rows[k].to_numpy(float) for k in keys)
    order = np.argsort(x, kind="stable")
    x, est, low, high = x[order], est[order], low[order], high[order]
    bare = np.isfinite(est) & ~(np.isfinite(low) & np.isfinite(high))
    note = ""
    ax.fill_between(x, low, high, color=_BAND, alpha=0.55, lw=0, label="confidence band")
    ax.plot(x, est, "-", color=_BLUE, lw=1.6, clip_on=False, zorder=3)
    ax.plot(x[~bare], est[~bare], "o", color=_BLUE, ms=4, label="estimate", clip_on=False, zorder=3)
    if bare.any():
        mark_no_interval(ax, x[bare], est[bare])
        note = _no_interval_note(rows.iloc[order][bare], kind)
    if kind == "difference":
        ax.axhline(0, color=_GREY, lw=0.8)
    if ticks is not None:
        ax.set_xticks(x, [ticks[i] for i in order])
    elif len(x) <= 8:
        ax.set_xticks(x, [f"{v:g}" for v in x])
    else:
        ax.xaxis.set_major_locator(MaxNLocator(6))
    title = rows["label"].iloc[0]
    if kind == "difference":
        title += "\nminus the first value" + (" (percentage points)" if metric in _RATES else "")
    ax.set_title(title, fontsize=10)
    if note:  # under the title, where it never covers a point
        ax.text(0.5, 1.01, note, transform=ax.transAxes, ha="center", va="bottom", fontsize=7,
                color=_GREY)
        ax.set_title(title + "\n\n", fontsize=10)
    ax.margins(x=0.06)
    if not np.isfinite(est).any():  # nothing to draw: say so, and keep the values' axis
        pad = 0.06 * (x.max() - x.min()) if x.max() > x.min() else 0.5
        ax.set_xlim(x.min() - pad, x.max() + pad)
        ax.set_yticks([])
        ax.text(0.5, 0.5, "no estimate at any value\n(too few events)", transform=ax.transAxes,
                ha="center", va="center", color=_GREY, fontsize=9)
        return
    if np.all(est == 0) and np.all(low == 0) and np.all(high == 0):
        ax.text(0.5, 0.75, "0 at every value", transform=ax.transAxes, ha="center", va="center",
                color=_GREY, fontsize=9, bbox={"facecolor": "white", "edgecolor": "none"})
    _limits(ax, np.where(np.isfinite(low), low, est), np.where(np.isfinite(high), high, est),
            nonnegative=kind == "estimate" and metric not in ("mean_seat0", "house_edge"))
    if metric in _RATES:
        ax.yaxis.set_major_formatter(plots.StepPercentFormatter(1.0))


def _no_interval_note(bare: pd.DataFrame, kind: str) -> str:
    """Why the hollow points have no interval and, for paired differences, the deals a point
    would need for one (the largest of the points'; ``at least`` where a point saw no event)."""
    if kind != "difference" or "deals_for_interval" not in bare:
        return "\u25cb no interval: too few deals"
    needed = bare["deals_for_interval"].to_numpy(float)
    if not np.isfinite(needed).any():
        return "\u25cb no interval"
    bound = "at least" if (bare["diff_events"] == 0).any() else "about"
    return (f"\u25cb no interval: too few events\n({bound} {np.nanmax(needed):,.0f} deals a point "
            "would give one)")


def mark_no_interval(ax, x: np.ndarray, y: np.ndarray, colour: str = _BLUE,
                     label: str = "no interval: too few events") -> None:
    """Hollow markers at (x, y): estimates given without an interval (the caller says why in
    the panel's words), never drawn as a band of zero width, which reads as a certain value."""
    ax.plot(x, y, "o", ms=5, mfc="white", mec=colour, mew=1.4, clip_on=False, zorder=4, label=label)


def _hashable(values: pd.Series) -> bool:
    try:
        values.nunique()
    except TypeError:
        return False
    return True


def _limits(ax, low: np.ndarray, high: np.ndarray, nonnegative: bool) -> None:
    """A flat series (a metric the parameter does not move, such as a rate of 0) gets a visible
    range around it rather than matplotlib's tiny offsets; a figure that cannot be negative (a
    rate, an SD, a take) never shows a negative axis."""
    both = np.concatenate([low, high])
    if not np.isfinite(both).any():
        return
    lo, hi = float(np.nanmin(both)), float(np.nanmax(both))
    if hi - lo <= 1e-12 * max(1.0, abs(hi)):
        pad = max(abs(hi) * 0.05, 1e-3)
        ax.set_ylim(lo - pad, hi + pad)
    if nonnegative and ax.get_ylim()[0] < 0 <= lo + 1e-12:
        ax.set_ylim(0, max(ax.get_ylim()[1], 1e-3))
    formatter = ax.yaxis.get_major_formatter()
    if hasattr(formatter, "set_useOffset"):
        formatter.set_useOffset(False)


def _handed_on(table: pd.DataFrame) -> pd.DataFrame:
    """The table with who set each point's hands (a baseline named as one), the deals a point
    and the seed as columns: a CSV file keeps no ``attrs``."""
    a = table.attrs
    if not a.get("setters"):
        return table
    setters = dict(zip(dict.fromkeys(table["variant"]), a["setters"]))
    words = {v: baseline_label(str(x)) or str(x) for v, x in setters.items()}
    return table.assign(setter=table["variant"].map(words), deals=a.get("deals"), seed=a.get("entropy"))


def save_sweep(table: pd.DataFrame, folder: str | os.PathLike, *, name: str = "sweep",
               formats: Sequence[str] = FORMATS, kinds: Sequence[str] = ("estimate", "difference")
               ) -> list[Path]:
    """Write ``name.csv`` (the table) and the chart of each kind in each format (``name.png``,
    ``name-difference.png``, ...) to ``folder`` (created); returns the paths written."""
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise OptionError(f"formats={bad[0]!r} is invalid: choose from {', '.join(FORMATS)}")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{name}.csv"]
    _handed_on(table).to_csv(paths[0], index=False)
    for kind in kinds:
        fig = plot_sweep(table, kind=kind)
        stem = name if kind == "estimate" else f"{name}-{kind}"
        for fmt in formats:
            path = out / f"{stem}.{fmt}"
            fig.savefig(path, dpi=150 if fmt == "png" else None, bbox_inches="tight")
            paths.append(path)
        plt.close(fig)
    return paths
