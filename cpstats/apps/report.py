"""The math report: a simulation written out in the order a casino math report is read.

1 rules and the setting strategy; 2 scoring table; 3 outcome table (probability, payout,
contribution to the mean and to the variance); 4 summary figures; 5 session table; 6 house
money; 7 method. Markdown and HTML side by side, with PNG charts.
"""

from __future__ import annotations

import base64
import html
import platform
import re
from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd

from cpstats.rules.house import RakeModel
from cpstats.apps import plots
from cpstats.apps.labels import SETTER_NAMES, baseline_label
from cpstats.engine.describe import describe_rules, format_number, rake_label, short_label
from cpstats.thirteen.paired import paired_metrics
from cpstats.thirteen.par.figures import seat_outcomes
from cpstats.thirteen.result import SimulationResult

__all__ = ["write_report", "outcome_table", "scoring_table"]


def scoring_table(result: SimulationResult) -> pd.DataFrame:
    """The variant's rules in words, one row each (:func:`cpstats.engine.describe.describe_rules`):
    columns ``rule`` and ``setting``."""
    return pd.DataFrame(describe_rules(result.variant), columns=["rule", "setting"])


def outcome_table(result: SimulationResult, seat: int = 0) -> pd.DataFrame:
    """Each net outcome of a seat: probability with its 95% Wilson interval (deals are independent
    draws), payout, p*pay and p*(pay-mu)^2: the PAR sheet's net-result table
    (:func:`cpstats.thirteen.par.figures.seat_outcomes`) with no result lumped."""
    frame = seat_outcomes(result, seat, tail=0.0)
    return pd.DataFrame({"net": frame["pay"], "probability": frame["probability"],
                         "probability_ci_low": frame["ci_low"], "probability_ci_high": frame["ci_high"],
                         "contribution_to_mean": frame["contribution_to_mean"],
                         "contribution_to_variance": frame["contribution_to_variance"]})


def _readable(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` as text for reading: numbers by :func:`format_number` (no ``1e+06``, no ``nan``),
    names (columns, and cells such as ``clean_dragon``) with spaces for underscores."""
    out = df.map(lambda v: format_number(v) if isinstance(v, (int, float, np.number))
                 else v.replace("_", " ") if isinstance(v, str) and v.isidentifier() else str(v))
    out.columns = [str(c).replace("_", " ") for c in df.columns]
    return out


def _md(df: pd.DataFrame) -> str:
    text = _readable(df)
    cols = list(text.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(row) + " |" for row in text.itertuples(index=False)]
    return "\n".join(lines)


def _house_text(result: SimulationResult, hands_per_hour: float) -> str:
    """What section 6's figures mean: the pace, time charges, the jackpot drop and, in a banked
    game, the wager the house edge is measured on."""
    v = result.variant
    parts = [f"Rake per hand and per hour at {hands_per_hour:g} hands an hour; the break-even edge "
             "is the rake per seat per hand."]
    if v.rake.model is RakeModel.TIME:
        parts.append(f"The time charge is {v.rake.amount:g} units per seat per hour whatever the pace "
                     f"({v.rake.amount * v.players:g} an hour for the table); per hand it is that "
                     "over the hands played an hour.")
    if v.rake.jackpot_drop:
        parts.append(f"A jackpot drop of {v.rake.jackpot_drop:g} units a hand is taken on top of the "
                     "rake; it returns to players as jackpots, so it is shown apart and is not in the "
                     "rake share or the break-even edge.")
    if v.bank.banked:
        parts.append("Banked game: a player stakes one unit on each of the three rows before the deal "
                     "and adds nothing during the hand, so the initial wager and the total wagered are "
                     "both 3 units and the house edge equals the element of risk (-mu / 3, mu a "
                     "player's mean after commission). It is estimated from the bank's gain from "
                     "winning tied rows (the game with ties pushed is symmetric), with its 95% CI.")
    from cpstats.thirteen.par.figures import rules_in_action

    parts += rules_in_action(result)  # a cap, threshold or surrender that never acted in the run
    return " ".join(parts)


def _labelled(items: Sequence) -> list[tuple[str | None, SimulationResult]]:
    """``(label, result)`` pairs from results or pairs (a None label: the variant's short label)."""
    return [item if isinstance(item, tuple) else (None, item) for item in items]


def _rake_name(r: SimulationResult, game: SimulationResult) -> str:
    """A rake row's label: the house charge in words when only the rake differs from the game."""
    if r.variant == game.variant:
        return f"as played: {rake_label(game.variant.rake)}"
    if r.variant.replace(rake=game.variant.rake) == game.variant:
        return rake_label(r.variant.rake)
    return short_label(r.variant)


def _charts(result: SimulationResult, label: str, systems: Sequence, rakes: Sequence,
            hands_per_hour: float) -> dict:
    """The report's figures by file name, their rows named by short labels."""
    charts = {
        "naturals.png": plots.plot_natural_frequencies(result.naturals()),
        "royalties.png": plots.plot_royalty_rates(result.royalties()),
        "net_distribution.png": plots.plot_net_distribution(result.distribution()),
    }
    rows = [(label, result)] + [(name or short_label(r.variant), r) for name, r in _labelled(systems)]
    figures = paired_metrics([r for _, r in rows], [n for n, _ in rows]).query("metric == 'sd'")
    sd = pd.DataFrame({"variant": [str(r.variant) for _, r in rows], "label": [n for n, _ in rows],
                       "sd": figures["estimate"].to_numpy(float), "sd_low": figures["ci_low"].to_numpy(float),
                       "sd_high": figures["ci_high"].to_numpy(float)})
    charts["sd_by_system.png"] = plots.plot_sd_by_variant(sd)
    rows = [(None, result), *_labelled(rakes)]
    burden = pd.DataFrame([{"variant": str(r.variant), "label": name or _rake_name(r, result),
                            **r.house(hands_per_hour).iloc[0].to_dict()} for name, r in rows])
    charts["rake_burden.png"] = plots.plot_rake_burden(burden, title=f"Rake burden: {label}")
    strategy = str(result.metadata.get("strategy", ""))
    caption = f"set by {baseline_label(strategy) or result.setter}; {result.deals:,} deals"
    for fig in charts.values():  # every chart handed on says who set the hands, and how many
        ax = fig.axes[0]
        ax.set_title(f"{ax.get_title()}\n{caption}", fontsize=9)
    return charts


def write_report(result: SimulationResult, out: str | Path, *,
                 systems: Sequence = (), rakes: Sequence = (),
                 hands_per_hour: float | None = None, label: str | None = None) -> Path:
    """Write ``report.md``, ``report.html`` and PNG charts into ``out``; returns the Markdown path.

    ``systems`` are other scoring systems on the same deals (charted for SD); ``rakes`` the
    same game under house charges (charted for the rake burden, beside the game's own). Each is
    a result or a ``(label, result)`` pair. ``label`` names the game in headings and charts
    (default :func:`cpstats.short_label`); others are named by their short labels, or for a rake
    by the house charge in words, never by raw variant strings.
    """
    if hands_per_hour is None:
        hands_per_hour = result.variant.rake.hands_per_hour
    house = result.house(hands_per_hour)  # refuses a pace that is not a positive number
    label = label or short_label(result.variant)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, fig in _charts(result, label, systems, rakes, hands_per_hour).items():
        fig.savefig(out / name, dpi=110, bbox_inches="tight")
        matplotlib.pyplot.close(fig)
    sections = _sections(result, label, house, hands_per_hour)
    return _write(out, label, sections)


def _sections(result: SimulationResult, label: str, house: pd.DataFrame,
              hands_per_hour: float) -> list[tuple[str, str, pd.DataFrame | None]]:
    """(title, text, table) of each section, in the order of a casino math report."""
    v = result.variant
    meta = result.metadata
    moments = result.moments()
    setter = SETTER_NAMES.get(meta["strategy"], meta["strategy"])
    return [
        ("1. Rules and setting strategy",
         f"{label} (variant string `{v}`): hands set by {setter}; {v.players} players.", None),
        ("2. Rules in words", "", scoring_table(result)),
        ("3. Outcome table (seat 0)", "Each net result's probability with its 95% Wilson interval, its "
         "contribution to the mean (p x pay) and to the variance (p x (pay - mean)^2).",
         outcome_table(result)),
        ("4. Summary figures", "Per seat: mean with its 95% CI (batch means), SD and variance "
         "with 95% CIs (batch means on per-batch variances), skewness, excess kurtosis, hit "
         "frequency, volatility index (1.645 SD).", moments),
        ("", "![naturals](naturals.png)\n\n![royalties](royalties.png)\n\n"
         "![net distribution](net_distribution.png)\n\n![SD by system](sd_by_system.png)", result.naturals()),
        ("5. Session table", "n x mu +- 1.645 x SD x sqrt(n) per seat (90%): mu is the seat's true mean "
                             "after house charges (identical players win nothing from each other, so "
                             "mu is minus the seat's share of the house take; in a banked game, from "
                             "the house edge), not its noisy sample mean.", result.sessions()),
        ("6. House money", _house_text(result, hands_per_hour)
         + "\n\n![rake burden](rake_burden.png)", house),
        ("7. Method", f"Simulated: {result.deals:,} deals, root entropy {meta['entropy']}, block "
         f"{meta['block_deals']:,} deals (block i uses SeedSequence child i); cpstats "
         f"{meta['cpstats']}, numpy {meta['numpy']}, pandas {meta['pandas']}, numba {meta['numba']}, "
         f"scipy {meta['scipy']}, Python {platform.python_version()}. Means carry 95% intervals by "
         f"Student's t on {meta.get('batches', 'the')} batch means; frequencies, Wilson intervals.", None),
    ]


def _write(out: Path, label: str, sections) -> Path:
    """Write the sections as ``report.md`` and ``report.html``; returns the Markdown path."""
    md = [f"# cpstats math report: {label}", ""]
    body = []
    for title, text, table in sections:
        if title:
            md += [f"## {title}", ""]
            body.append(f"<h2>{html.escape(title)}</h2>")
        if text:
            md += [text, ""]
            for para in text.split("\n\n"):
                if para.startswith("!["):  # inlined: the HTML file alone keeps its charts
                    src = para[para.index("(") + 1:-1]
                    data = base64.b64encode((out / src).read_bytes()).decode("ascii")
                    body.append(f'<p><img src="data:image/png;base64,{data}" alt="{html.escape(src)}"></p>')
                else:
                    body.append("<p>" + re.sub(r"`([^`]*)`", r"<code>\1</code>",
                                               html.escape(para)) + "</p>")
        if table is not None:
            md += [_md(table), ""]
            words = "setting" in table.columns  # the rules in words read left to right
            body.append(_readable(table).to_html(index=False, border=0,
                                                 classes="words" if words else None))
    md_path = out / "report.md"
    md_path.write_text("\n".join(md))
    (out / "report.html").write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>cpstats math report: {html.escape(label)}"
        "</title>"
        "<style>body{font-family:sans-serif;max-width:60rem;margin:auto}table{border-collapse:"
        "collapse;font-size:.85rem}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:"
        "right}.words td{text-align:left}img{max-width:100%}</style></head><body>"
        f"<h1>cpstats math report: {html.escape(label)}</h1>" + "\n".join(body)
        + "</body></html>")
    return md_path
