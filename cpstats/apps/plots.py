"""Charts: each function takes ``ax=None``, draws inside the package style, returns the figure.

The style is applied with a context manager, so importing or calling these never changes the
caller's global ``rcParams``. Frequencies that span orders of magnitude use a log scale; every
estimate is drawn with its confidence interval.
"""

from __future__ import annotations

from contextlib import contextmanager

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import PercentFormatter

from cpstats.errors import CpstatsError, OptionError
from cpstats.engine.registry import load_variant
from cpstats.engine.catalogue import SHARED
from cpstats.engine.describe import format_number, short_label
from cpstats.engine.figures_text import figure_label

__all__ = ["style", "StepPercentFormatter", "step_decimals",
           "plot_natural_frequencies", "plot_royalty_rates", "plot_net_distribution",
           "plot_sd_by_variant", "plot_rake_burden"]

_STYLE = {
    "figure.figsize": (7.5, 4.5), "figure.dpi": 110, "axes.spines.top": False,
    "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "font.size": 9.5,
    "axes.titlesize": 11, "axes.titleweight": "bold", "legend.frameon": False,
}
_BLUE, _ORANGE, _GREY = "#2b6cb0", "#dd6b20", "#718096"


@contextmanager
def style():
    """The package's chart style, as a context (no global rcParams change)."""
    with plt.rc_context(_STYLE):
        yield


class StepPercentFormatter(PercentFormatter):
    """Percent tick labels with the decimals their step needs, the same on every tick: 0.25-point
    steps print "13.75%", "14.00%", "14.25%" (one decimal would print the uneven "13.8%", "14.3%"),
    2.5-point steps "2.5%", "5.0%", whole steps no decimals."""

    def format_ticks(self, values):
        self.decimals = step_decimals(np.asarray(values, dtype=float) / self.xmax * 100)
        return super().format_ticks(values)


def step_decimals(values: np.ndarray, most: int = 6) -> int:
    """The fewest decimals (up to ``most``) that write every one of ``values`` exactly."""
    for decimals in range(most + 1):
        if np.allclose(values, np.round(values, decimals), rtol=0, atol=1e-9):
            return decimals
    return most


def _axes(ax, height: float | None = None):
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=(7.5, height) if height else None)
    return fig, ax


def plot_natural_frequencies(naturals: pd.DataFrame, ax=None):
    """Simulated frequency per hand of each natural (95% CI) beside its exact probability, log scale.

    ``naturals`` has columns natural, frequency, ci_low, ci_high and exact_probability (the
    output of :func:`cpstats.natural_frequencies` or ``SimulationResult.naturals()``).
    """
    df = naturals.sort_values("exact_probability")
    with style():
        fig, ax = _axes(ax, height=0.32 * len(df) + 1.2)
        y = np.arange(len(df))
        seen = df["frequency"].to_numpy() > 0
        err = np.vstack([df["frequency"] - df["ci_low"], df["ci_high"] - df["frequency"]])
        ax.errorbar(df["frequency"][seen], y[seen], xerr=err[:, seen], fmt="o", color=_BLUE,
                    ms=4, capsize=2, label="simulated (95% CI)")
        ax.scatter(df["exact_probability"], y, marker="|", s=160, color=_ORANGE, zorder=3, label="exact")
        ax.set_yticks(y, df["natural"].str.replace("_", " "))
        ax.set_xscale("log")
        ax.set_xlabel("probability per 13-card hand (log scale)")
        ax.set_title("Naturals: simulated against exact")
        ax.legend(loc="upper left")
        fig.tight_layout()
    return fig


def plot_royalty_rates(royalties: pd.DataFrame, ax=None):
    """Rate of each royalty row made per played hand, with 95% CIs (log scale)."""
    with style():
        fig, ax = _axes(ax, height=3.2)
        df = royalties
        y = np.arange(len(df))
        rate = df["rate"].to_numpy()
        err = np.vstack([rate - df["ci_low"], df["ci_high"] - rate])
        shown = rate > 0
        ax.errorbar(rate[shown], y[shown], xerr=err[:, shown], fmt="s", color=_BLUE, ms=4, capsize=2,
                    label="rate (95% CI)")
        if not shown.all():  # a row never made: its 95% upper bound, so the row is not blank
            high = df["ci_high"].to_numpy(float)
            ax.scatter(high[~shown], y[~shown], marker="<", color=_GREY, s=30,
                       label="none made: 95% upper bound")
            ax.legend(loc="lower right", fontsize=8)
        ax.set_yticks(y, df["row"].str.replace("_", " "))
        ax.set_xscale("log")
        ax.set_xlabel("rate per played hand (log scale, 95% CI)")
        ax.set_title("Royalty hands made")
        fig.tight_layout()
    return fig


def plot_net_distribution(distribution: pd.DataFrame, seat: int = 0, ax=None):
    """Probability of each net result (units, before house charges) for one seat."""
    with style():
        fig, ax = _axes(ax)
        p = distribution[f"p_{seat}"]
        keep = p > 0
        ax.bar(distribution["net"][keep], p[keep], width=0.8, color=_BLUE)
        ax.set_xlabel("net result per deal, before house charges (units)")
        ax.set_ylabel("probability")
        ax.set_title(f"Distribution of net units, seat {seat}")
        fig.tight_layout()
    return fig


def _labels(frame: pd.DataFrame, label=None) -> list[str]:
    """The row labels of a chart over variants: ``label`` (a sequence, or a function of each
    ``variant`` value), else a ``label`` column, else each ``variant`` value's
    :func:`~cpstats.engine.describe.short_label` (a value that is not a variant, such as
    "house rake", is shown as it is)."""
    values = list(frame["variant"]) if "variant" in frame else [""] * len(frame)
    if label is not None and not callable(label):
        labels = [str(x) for x in label]
        if len(labels) != len(frame):
            raise OptionError(f"label has {len(labels)} names for {len(frame)} rows: give one each")
        return labels
    if label is None and "label" in frame:
        return [str(x) for x in frame["label"]]
    return [label(v) if label is not None else _short(v) for v in values]


def _short(value) -> str:
    if getattr(value, "game", None) is not None:  # a variant of any game
        return short_label(value)
    try:
        return short_label(load_variant(str(value)))
    except CpstatsError:
        return str(value)


def _fit_bar_labels(ax, values: np.ndarray, texts: list[str], pad: float = 0.04) -> None:
    """Write ``texts`` after the ends of horizontal bars of ``values`` and widen the x axis so
    every text fits inside the axes (never clipped, never over a neighbouring chart)."""
    artists = [ax.text(v, i, f" {t}", va="center", fontsize=8.5)
               for i, (v, t) in enumerate(zip(values, texts))]
    renderer = ax.figure.canvas.get_renderer()
    width = ax.get_window_extent(renderer).width
    top = max(float(np.nanmax(values)) if len(values) else 0.0, 1e-9)
    for v, artist in zip(values, artists):
        room = width * (1 - pad) - artist.get_window_extent(renderer).width
        if room > width * 0.25:
            top = max(top, float(v) * width / room)
    ax.set_xlim(0, top * (1 + pad))


def plot_sd_by_variant(frame: pd.DataFrame, ax=None, *, label=None,
                       title: str = "Volatility by scoring system"):
    """SD per hand (units) of each variant, the catalogue's ``sd`` (a player's, before house charges,
    so the axis says it); ``frame`` has ``variant`` and ``sd`` (and optionally
    ``label``, and ``sd_low``/``sd_high``: the interval, drawn as error bars). Rows are named by
    ``label`` (names, or a function of each variant), else by the variants' short labels
    (:func:`cpstats.short_label`), never by raw variant strings."""
    labels = _labels(frame, label)
    with style():
        fig, ax = _axes(ax, height=0.4 * len(frame) + 1.4)
        y = np.arange(len(frame))
        sd = frame["sd"].to_numpy(float)
        ranged = {"sd_low", "sd_high"} <= set(frame.columns)
        err = np.nan_to_num([sd - frame["sd_low"].to_numpy(float), frame["sd_high"].to_numpy(float) - sd]) \
            if ranged else None
        ax.barh(y, sd, color=_BLUE, xerr=err, capsize=4 if ranged else 0)
        ax.set_yticks(y, labels)
        ax.set_xlabel(figure_label(SHARED["sd"], "sd") + (", error bars: 95% CI" if ranged else ""))
        ax.set_title(title)
        fig.tight_layout()
        ax.invert_yaxis()
        ends = np.fmax(sd, frame["sd_high"].to_numpy(float)) if ranged else sd  # labels clear the bars
        _fit_bar_labels(ax, ends, [f"{v:.2f}" for v in sd])
    return fig


def plot_rake_burden(frame: pd.DataFrame, ax=None, *, label=None, title: str = "Rake burden"):
    """Rake per seat per hand (units) of each variant; ``frame`` has ``variant``,
    ``rake_per_seat_per_hand`` and optionally ``rake_share`` (written beside the bar)
    and ``label``. Rows are named as in :func:`plot_sd_by_variant`."""
    labels = _labels(frame, label)
    with style():
        fig, ax = _axes(ax, height=0.4 * len(frame) + 1.4)
        y = np.arange(len(frame))
        burden = frame["rake_per_seat_per_hand"].to_numpy(float)
        ax.barh(y, burden, color=_ORANGE)
        share = frame.get("rake_share")
        texts = []
        for i, v in enumerate(burden):
            text = f"{v:.3f}"
            if share is not None and np.isfinite(share.iloc[i]) and v > 0:
                text += f" ({format_number(100 * share.iloc[i], 2)}% of gross wins)"
            texts.append(text)
        ax.set_yticks(y, labels)
        ax.set_xlabel(figure_label(SHARED["rake_per_seat_per_hand"], "rake_per_seat_per_hand"))
        ax.set_title(title)
        fig.tight_layout()
        ax.invert_yaxis()
        _fit_bar_labels(ax, burden, texts)
    return fig
