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

__all__ = ["style", "plot_natural_frequencies", "plot_royalty_rates", "plot_net_distribution",
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
        ax.errorbar(rate[shown], y[shown], xerr=err[:, shown], fmt="s", color=_BLUE, ms=4, capsize=2)
        ax.set_yticks(y, df["row"].str.replace("_", " "))
        ax.set_xscale("log")
        ax.set_xlabel("rate per played hand (log scale, 95% CI)")
        ax.set_title("Royalty hands made")
        fig.tight_layout()
    return fig


def plot_net_distribution(distribution: pd.DataFrame, seat: int = 0, ax=None):
    """Probability of each net result (units) for one seat."""
    with style():
        fig, ax = _axes(ax)
        p = distribution[f"p_{seat}"]
        keep = p > 0
        ax.bar(distribution["net"][keep], p[keep], width=0.8, color=_BLUE)
        ax.set_xlabel("net units per deal")
        ax.set_ylabel("probability")
        ax.set_title(f"Distribution of net units, seat {seat}")
        fig.tight_layout()
    return fig


def plot_sd_by_variant(frame: pd.DataFrame, ax=None):
    """SD per hand (units) of each variant or scoring system; ``frame`` has variant and sd."""
    with style():
        fig, ax = _axes(ax, height=0.4 * len(frame) + 1.4)
        y = np.arange(len(frame))
        ax.barh(y, frame["sd"], color=_BLUE)
        for yi, v in zip(y, frame["sd"]):
            ax.text(v, yi, f" {v:.2f}", va="center")
        ax.set_yticks(y, frame["variant"])
        ax.set_xlabel("SD per hand, units per seat")
        ax.set_title("Volatility by scoring system")
        fig.tight_layout()
    return fig


def plot_rake_burden(frame: pd.DataFrame, ax=None):
    """Rake per seat per hand (units) of each variant; ``frame`` has variant, rake_per_seat_per_hand
    and optionally rake_share_of_gross (shown as a label)."""
    with style():
        fig, ax = _axes(ax, height=0.4 * len(frame) + 1.4)
        y = np.arange(len(frame))
        burden = frame["rake_per_seat_per_hand"].to_numpy()
        ax.barh(y, burden, color=_ORANGE)
        share = frame.get("rake_share_of_gross")
        for i, v in enumerate(burden):
            label = f" {v:.3f}"
            if share is not None and np.isfinite(share.iloc[i]):
                label += f"  ({share.iloc[i]:.1%} of gross wins)"
            ax.text(v, y[i], label, va="center")
        ax.set_yticks(y, frame["variant"])
        ax.set_xlabel("rake per seat per hand, units")
        ax.set_title("Rake burden")
        ax.set_xlim(0, max(burden.max() * 2.0, 0.01))
        fig.tight_layout()
    return fig
