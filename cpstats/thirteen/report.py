"""What a 13-card math report holds (:func:`report_content`), in the order a casino math report is
read: 1 rules and the setting strategy; 2 the rules in words; 3 outcome table (probability,
payout, contribution to the mean and to the variance); 4 summary figures; 5 session table; 6
house money; 7 method; and its charts as data. :func:`cpstats.apps.report.write_report` writes it
(Markdown and HTML side by side, PNG charts).
"""

from __future__ import annotations

import platform
from typing import Sequence

import pandas as pd

from cpstats.engine.describe import describe_rules, rake_label, short_label
from cpstats.engine.report import ReportChart, ReportContent
from cpstats.rules.house import RakeModel
from cpstats.thirteen.paired import paired_metrics
from cpstats.thirteen.par.figures import rules_in_action, seat_outcomes
from cpstats.thirteen.par.sheet import BASELINE_WORDS
from cpstats.thirteen.result import SimulationResult

__all__ = ["report_content", "outcome_table", "scoring_table", "SETTER_WORDS"]

#: Each setter in words where the report says who set the hands.
SETTER_WORDS = {"ev": "ev, the setter trained for these rules (good play)", **BASELINE_WORDS}


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
            hands_per_hour: float) -> dict[str, ReportChart]:
    """The report's charts by file name, their rows named by short labels."""
    charts = {
        "naturals.png": ReportChart("naturals", result.naturals()),
        "royalties.png": ReportChart("royalties", result.royalties()),
        "net_distribution.png": ReportChart("net_distribution", result.distribution()),
    }
    rows = [(label, result)] + [(name or short_label(r.variant), r) for name, r in _labelled(systems)]
    figures = paired_metrics([r for _, r in rows], [n for n, _ in rows]).query("metric == 'sd'")
    sd = pd.DataFrame({"variant": [str(r.variant) for _, r in rows], "label": [n for n, _ in rows],
                       "sd": figures["estimate"].to_numpy(float), "sd_low": figures["ci_low"].to_numpy(float),
                       "sd_high": figures["ci_high"].to_numpy(float)})
    charts["sd_by_system.png"] = ReportChart("sd_by_variant", sd)
    rows = [(None, result), *_labelled(rakes)]
    burden = pd.DataFrame([{"variant": str(r.variant), "label": name or _rake_name(r, result),
                            **r.house(hands_per_hour).iloc[0].to_dict()} for name, r in rows])
    charts["rake_burden.png"] = ReportChart("rake_burden", burden, title=f"Rake burden: {label}")
    return charts


def report_content(result: SimulationResult, *, systems: Sequence = (), rakes: Sequence = (),
                   hands_per_hour: float | None = None, label: str | None = None) -> ReportContent:
    """The math report of one run, its sections and charts
    (:func:`cpstats.apps.report.write_report` writes it).

    ``systems`` are other scoring systems on the same deals (charted for SD); ``rakes`` the
    same game under house charges (charted for the rake burden, beside the game's own). Each is
    a result or a ``(label, result)`` pair. ``label`` names the game in headings and charts
    (default :func:`cpstats.short_label`); others are named by their short labels, or for a rake
    by the house charge in words, never by raw variant strings. ``hands_per_hour`` is the pace of
    the hourly house figures (default the variant's).
    """
    if hands_per_hour is None:
        hands_per_hour = result.variant.rake.hands_per_hour
    house = result.house(hands_per_hour)  # refuses a pace that is not a positive number
    label = label or short_label(result.variant)
    charts = _charts(result, label, systems, rakes, hands_per_hour)
    strategy = str(result.metadata.get("strategy", ""))
    caption = f"set by {BASELINE_WORDS.get(strategy) or result.setter}; {result.deals:,} deals"
    return ReportContent(label, _sections(result, label, house, hands_per_hour), charts, caption)


def _sections(result: SimulationResult, label: str, house: pd.DataFrame,
              hands_per_hour: float) -> list[tuple[str, str, pd.DataFrame | None]]:
    """(title, text, table) of each section, in the order of a casino math report."""
    v = result.variant
    meta = result.metadata
    moments = result.moments()
    setter = SETTER_WORDS.get(meta["strategy"], meta["strategy"])
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
