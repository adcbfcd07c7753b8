"""The 13-card PAR sheet's charts, and the sensitivity and session charts every game's sheet
shares, each a matplotlib figure drawn in the package style from a sheet.

Labels are words, never rule IDs or variant strings; every estimate is drawn with its 95%
interval (error bars or bands).

Decision: every chart is a :class:`matplotlib.figure.Figure` made here, never through pyplot,
so drawing a sheet neither selects a backend nor leaves figures open in the caller's session.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from cpstats.apps.par.sensitivity import moved
from cpstats.apps.plots import StepPercentFormatter, style
from cpstats.apps.sweep_chart import plot_sweep

__all__ = ["CHARTS", "chart", "sweep_chart"]

_BLUE, _ORANGE, _GREY = "#2b6cb0", "#dd6b20", "#718096"


def _outcomes(sheet: Any):
    """Probability of each net result of one deal for the sheet's seat."""
    r = sheet.result
    seat = 1 if r.variant.bank.banked else 0
    dist = r.distribution()
    p = dist[f"p_{seat}"].to_numpy()
    keep = p > 0
    with style():
        fig = Figure(figsize=(7.5, 3.4))
        ax = fig.subplots()
        ax.bar(dist["net"][keep], p[keep], width=0.8, color=_BLUE)
        ax.yaxis.set_major_formatter(StepPercentFormatter(1.0))
        ax.set_xlabel("net result of one deal, units")
        ax.set_ylabel("probability")
        who = "a player seat" if seat else "a seat"
        ax.set_title(f"Net result per deal, {who} ({r.deals:,} deals)")
        fig.tight_layout()
    return fig


def _interval_rows(ax, labels, values, low, high, color, marker, label):
    values, low, high = (np.asarray(x, dtype=float) for x in (values, low, high))
    y = np.arange(len(values))
    shown = values > 0
    err = np.vstack([values - low, high - values])
    ax.errorbar(values[shown], y[shown], xerr=err[:, shown], fmt=marker, color=color, ms=4, capsize=2,
                label=label)
    unseen = ~shown & np.isfinite(high) & (high > 0)  # none made: the upper bound, as the table gives
    if unseen.any():
        ax.plot(high[unseen], y[unseen], "<", color=color, mfc="white", ms=5)
    ax.set_yticks(y, labels)
    ax.set_xscale("log")


def _frequencies(sheet: Any):
    """How often each royalty hand is made and each natural is held (declared where paid), 95% CI."""
    roy = sheet.tables["royalties"]
    nat = sheet.tables["naturals"]
    nat_freq = nat["declared_frequency"] if "declared_frequency" in nat else nat["held_frequency"]
    nat = nat.assign(shown=nat_freq)
    nat = nat[nat["shown"] > 0]
    with style():
        fig = Figure(figsize=(7.5, 1.2 + 0.3 * (len(roy) + len(nat))))
        top, bottom = fig.subplots(2, 1, gridspec_kw={"height_ratios": [len(roy), max(len(nat), 1)]})
        _interval_rows(top, roy["royalty"], roy["frequency"], roy["ci_low"], roy["ci_high"], _BLUE, "s",
                       "simulated (95% CI)")
        top.set_title("Royalty hands made, per played hand (95% CI)")
        if "declared_frequency" in nat:
            _interval_rows(bottom, nat["natural"], nat["shown"], nat["ci_low"], nat["ci_high"], _ORANGE,
                           "o", "declared (95% CI)")
            bottom.set_title("Naturals declared, per hand (95% CI)")
        else:
            _interval_rows(bottom, nat["natural"], nat["shown"], nat["held_ci_low"], nat["held_ci_high"],
                           _ORANGE, "o", "held (95% CI)")
            bottom.set_title("Natural hands held, per hand (none paid here; 95% CI)")
        for ax in (top, bottom):
            ax.xaxis.set_major_formatter(FuncFormatter(_percent_tick))
        for ax in (top, bottom):
            unseen = any(line.get_marker() == "<" for line in ax.lines)
            ax.set_xlabel("frequency (log scale)" + ("; open triangle: none seen, below its 95% upper bound"
                                                     if unseen else ""))
        fig.tight_layout()
    return fig


def _percent_tick(x: float, _pos) -> str:
    text = f"{x * 100:.6f}".rstrip("0").rstrip(".")
    return f"{text}%"


def _sessions(sheet: Any):
    """Expected result of a session and its 90% and 95% bands against the session's length."""
    frame = sheet.tables["sessions"]
    with style():
        fig = Figure(figsize=(7.5, 3.6))
        ax = fig.subplots()
        for (who, part), color in zip(frame.groupby("who", sort=False), (_BLUE, _ORANGE)):
            n = part["hands"]
            ax.fill_between(n, part["low_95%"], part["high_95%"], color=color, alpha=0.15,
                            label=f"{who}: 95% band")
            ax.fill_between(n, part["low_90%"], part["high_90%"], color=color, alpha=0.3,
                            label=f"{who}: 90% band")
            ax.plot(n, part["expected"], color=color, lw=1.5, label=f"{who}: expected")
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
        ax.set_xlabel("hands in the session (log scale)")
        ax.set_ylabel("result of the session, units")
        ax.set_title("Session bands: N × mean ± z × SD × √N")
        # below the axes, one row a side: inside, the legend would cover the bands somewhere
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8, frameon=False)
        fig.tight_layout()
    return fig


def _banker(sheet: Any):
    """The bank's house edge with 1, 2 and 3 player seats, 95% CI."""
    frame = sheet.tables["banker_by_seats"]
    with style():
        fig = Figure(figsize=(7.5, 3.0))
        ax = fig.subplots()
        edge = frame["house_edge"].to_numpy()
        err = np.vstack([edge - frame["ci_low"], frame["ci_high"] - edge])
        ax.errorbar(frame["player_seats"], edge, yerr=err, fmt="o-", color=_BLUE, capsize=3)
        ax.set_xticks(frame["player_seats"], [f"{n} player{'s' if n > 1 else ''}"
                                              for n in frame["player_seats"]])
        ax.yaxis.set_major_formatter(StepPercentFormatter(1.0))
        ax.set_xlabel("players against the bank")
        ax.set_ylabel("house edge per 3-unit wager")
        ax.set_title("The bank's edge against the number of seats (95% CI)")
        fig.tight_layout()
    return fig


def sweep_chart(sheet: Any, parameter: str):
    """One sensitivity sweep: per headline figure its estimate and 95% band across the values."""
    table = moved(sheet.sweeps[parameter])
    return plot_sweep(table, fig=Figure(), columns=min(2, table["metric"].nunique()))


#: Chart name (as in ``ParSection.charts``) -> function of the sheet returning a figure;
#: ``sweep:<parameter>`` names the sensitivity chart of one of ``sheet.sweeps``.
CHARTS: dict[str, Callable[[Any], Any]] = {"outcomes": _outcomes, "frequencies": _frequencies,
                                           "sessions": _sessions, "banker": _banker}


def chart(sheet: Any, name: str):
    """The figure of chart ``name`` for ``sheet``."""
    if name.startswith("sweep:"):
        return sweep_chart(sheet, name.removeprefix("sweep:"))
    return CHARTS[name](sheet)
