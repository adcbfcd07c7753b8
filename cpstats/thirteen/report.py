"""What a 13-card math report holds (:func:`report_content`), in the order a casino math report is
read: 1 rules and the setting strategy; 2 the rules in words; 3 outcome table (probability,
payout, contribution to the mean and to the variance); 4 summary figures, then volatility by
scoring system, naturals and royalties; 5 session table; 6 house money; 7 method; and its charts
as data. :func:`cpstats.apps.report.write_report` writes it (Markdown and HTML side by side, PNG
charts).

Every figure is printed in its catalogue display (:mod:`cpstats.engine.figures_text`: units,
percent, "1 in N" for a rare event) under its catalogue label, which says its basis (before or
after house charges) and unit; a table is a figure a row, so none is wider than the text. Rules
the variant does not have (naturals, royalties, house charges) get no table or chart, and one
line says so.
"""

from __future__ import annotations

import math
import platform
import re
from typing import Sequence

import pandas as pd

from cpstats.engine.catalogue import Figure, find_figure, resolve_figures
from cpstats.engine.describe import describe_rules, format_number, rake_label, short_label
from cpstats.engine.figures_text import figure_label, format_interval, format_value
from cpstats.engine.report import ReportChart, ReportContent, ReportTable
from cpstats.rules.house import RakeModel
from cpstats.thirteen.catalogue import FIGURES
from cpstats.thirteen.paired import paired_metrics
from cpstats.thirteen.par.figures import rules_in_action, seat_outcomes
from cpstats.thirteen.par.sheet import BASELINE_WORDS
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.rules.ids import NaturalSchedule
from cpstats.thirteen.settlement.charges import charges_seats

__all__ = ["report_content", "outcome_table", "scoring_table", "SETTER_WORDS"]

#: Each setter in words where the report says who set the hands.
SETTER_WORDS = {"ev": "ev, the setter trained for these rules (good play)", **BASELINE_WORDS,
                "house-way": "house-way, the dealer's fixed rules of a banked game (not the figures of good play)"}

_CATALOGUE = resolve_figures(FIGURES)
#: A player's headline figures (the player seats pooled), in the order printed.
_HEADLINE = ("sd", "sd_after_charges", "mean_after_charges", "hit_frequency", "push_rate", "house_edge")
#: Each seat's figures before house charges, then after them: the family names' stems.
_SEAT_BEFORE = ("mean", "sd", "variance", "skewness", "kurtosis", "hit_frequency", "push_rate", "volatility_index")
_SEAT_AFTER = ("mean_after_charges", "sd_after_charges")
#: A banked game's own house figures, beside those of the house's take.
_BANKED = ("initial_wager_units", "house_edge", "element_of_risk", "bank_result_per_hand")


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


def _value(x: float, display: str) -> str:
    """One number in its display; a "1 in N" with its percent where the percent reads (>= 1 in a
    million), so a rare probability is never a run of zeros."""
    text = format_value(x, display)
    if display == "one in n" and x >= 1e-6:
        text += f" ({format_value(x, 'percent')})"
    return text


def _shown(estimate: float, low: float, high: float, figure: Figure) -> str:
    """``estimate (low..high)`` in the figure's display, or the estimate alone without interval."""
    if math.isfinite(low) and math.isfinite(high):
        return format_interval(estimate, low, high, figure.display)
    return _value(estimate, figure.display)


def _figure(name: str) -> Figure:
    figure = find_figure(name, _CATALOGUE)
    if figure is None:
        raise KeyError(f"{name!r} is not in the 13-card catalogue")
    return figure


def _figure_table(figures: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """A figure a row: its catalogue label (basis, unit) and ``estimate (low..high)``."""
    rows = figures.set_index("metric")
    return pd.DataFrame([(figure_label(_figure(n), n), _shown(*rows.loc[n, ["estimate", "ci_low", "ci_high"]],
                                                               _figure(n)))
                         for n in names], columns=["figure", "estimate (95% CI)"])


def _family_label(figure: Figure, member: str, own: str) -> str:
    """A family's catalogue label (basis, unit) without one member's own words (``own``, a
    pattern: ``seat ?0``), for a row or column that stands for every member."""
    return re.sub(rf"[,:]? ?{own}\b", "", figure_label(figure, member), count=1).strip()


def _seat_table(figures: pd.DataFrame, stems: Sequence[str], seats: list[str]) -> pd.DataFrame:
    """A figure a row, a seat a column: ``stem_seat{seat}`` of each stem under its catalogue label."""
    rows = figures.set_index("metric")
    out = []
    for stem in stems:
        figure = _figure(f"{stem}_seat0")
        cells = [_shown(*rows.loc[f"{stem}_seat{i}", ["estimate", "ci_low", "ci_high"]], figure)
                 for i in range(len(seats))]
        out.append([_family_label(figure, f"{stem}_seat0", "seat ?0"), *cells])
    return pd.DataFrame(out, columns=["figure", *seats])


def _outcome_display(result: SimulationResult) -> pd.DataFrame:
    """:func:`outcome_table` for reading: four columns, each with its unit."""
    t = outcome_table(result)
    return pd.DataFrame({
        "net result (units)": [format_number(x) for x in t["net"]],
        "probability (95% CI)": [format_interval(p, lo, hi, "percent") for p, lo, hi in
                                 zip(t["probability"], t["probability_ci_low"], t["probability_ci_high"])],
        "contribution to the mean (units)": [format_value(x, "units") for x in t["contribution_to_mean"]],
        "contribution to the variance (units squared)": [format_value(x, "decimal")
                                                         for x in t["contribution_to_variance"]]})


def _naturals_display(result: SimulationResult) -> pd.DataFrame:
    """Each natural: dealt, its rate with a Wilson interval and its exact probability, declared."""
    n = result.naturals()
    rate, exact = _figure("natural_rate_dragon"), _figure("natural_exact_dragon")
    return pd.DataFrame({
        "natural": n["natural"], "dealt": [format_number(int(x)) for x in n["held"]],
        f"{_family_label(rate, 'natural_rate_dragon', 'dragon')} (95% CI)": [
            _shown(p, lo, hi, rate) for p, lo, hi in zip(n["frequency"], n["ci_low"], n["ci_high"])],
        _family_label(exact, "natural_exact_dragon", "dragon"): [_value(p, exact.display) for p in n["exact_probability"]],
        "declared": [format_number(int(x)) for x in n["declared"]]})


def _sessions_display(result: SimulationResult) -> ReportTable:
    """Session bands, a seat and a length a row; the SD column says its basis."""
    s = result.sessions()
    which = s.attrs.get("sd", "SD per hand after house charges").removeprefix("SD per hand ")
    basis, _, note = which.partition(" (")
    frame = pd.DataFrame({
        "hands": [format_number(int(x)) for x in s["hands"]], "seat": _seat_names(result, s["seat"]),
        "expected (units)": [format_number(x + 0.0) for x in s["expected"]],
        f"SD per hand, {basis} (units)": [format_value(x, "units") for x in s["sd"]],
        "90% range (units)": [f"{format_number(lo)}..{format_number(hi)}"
                              for lo, hi in zip(s["low"], s["high"])]})
    caption = "Sessions: a seat's expected result over n hands and its 90% range, after house charges"
    return ReportTable(caption + (f" ({note.rstrip(')')})" if note else ""), frame)


def _seat_names(result: SimulationResult, seats) -> list[str]:
    bank = result.variant.bank.banked
    return [f"seat {int(i)}" + (" (bank)" if bank and int(i) == 0 else "") for i in seats]


def _zero(row: pd.Series) -> bool:
    """A figure of a charge not in play: exactly 0, its interval from 0 (or none)."""
    low = float(row["ci_low"])
    return float(row["estimate"]) == 0 and (not math.isfinite(low) or low == 0)


def _house_tables(result: SimulationResult, figures: pd.DataFrame,
                  hands_per_hour: float) -> tuple[list[ReportTable], str]:
    """The house money table (a figure a row) and a line naming the figures left out (all 0:
    a charge the game does not have); no table where the house takes nothing."""
    v = result.variant
    if not (charges_seats(v) or v.rake.jackpot_drop or v.bank.banked):
        return [], ("This game charges nothing (no rake, time fee, commission or jackpot drop), so "
                    "there is no house money table.")
    house = figures[[(_figure(m).basis == "house" or m in _BANKED) for m in figures["metric"]]]
    zero = [m for (_, r), m in zip(house.iterrows(), house["metric"]) if _zero(r)]
    kept = [m for m in house["metric"] if m not in zero]
    gone = dict.fromkeys("the jackpot drop" if m.startswith("jackpot") else "the rake" if m.startswith("rake")
                         else figure_label(_figure(m), m) for m in zero)
    left = f"Not in these rules, so left out (all 0): {' and '.join(gone)}." if gone else ""
    caption = f"House money at {hands_per_hour:g} hands an hour"
    return ([ReportTable(caption, _figure_table(figures, kept))] if kept else []), left


def _house_text(result: SimulationResult, hands_per_hour: float) -> str:
    """What section 6's figures mean: the pace, time charges, the jackpot drop and, in a banked
    game, the wager the house edge is measured on."""
    v = result.variant
    parts = []
    if charges_seats(v) or v.rake.jackpot_drop:
        parts.append(f"Rake per hand and per hour at {hands_per_hour:g} hands an hour; the break-even edge "
                     "is the rake per seat per hand.")
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


def _in_play(result: SimulationResult) -> dict[str, bool]:
    """Which optional rules the variant has: naturals, royalties, house money (charges, a
    jackpot drop, a bank)."""
    v = result.variant
    return {"naturals": v.naturals.schedule is not NaturalSchedule.NONE,
            "royalties": bool(v.royalties.bonuses().any()),
            "house": charges_seats(v) or bool(v.rake.jackpot_drop) or v.bank.banked}


def _charts(result: SimulationResult, label: str, systems: Sequence, rakes: Sequence,
            hands_per_hour: float) -> dict[str, ReportChart]:
    """The report's charts by file name, their rows named by short labels; none of a rule the
    variant does not have (the rake burden of a game that charges nothing only beside others)."""
    play = _in_play(result)
    charts = {"net_distribution.png": ReportChart("net_distribution", result.distribution())}
    if play["naturals"]:
        charts["naturals.png"] = ReportChart("naturals", result.naturals())
    if play["royalties"]:
        charts["royalties.png"] = ReportChart("royalties", result.royalties())
    rows = [(label, result)] + [(name or short_label(r.variant), r) for name, r in _labelled(systems)]
    figures = paired_metrics([r for _, r in rows], [n for n, _ in rows]).query("metric == 'sd'")
    sd = pd.DataFrame({"variant": [str(r.variant) for _, r in rows], "label": [n for n, _ in rows],
                       "sd": figures["estimate"].to_numpy(float), "sd_low": figures["ci_low"].to_numpy(float),
                       "sd_high": figures["ci_high"].to_numpy(float)})
    charts["sd_by_system.png"] = ReportChart("sd_by_variant", sd)
    if play["house"] or rakes:
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

    Examples
    --------
    >>> from cpstats import simulate
    >>> content = report_content(simulate("2-4", 600, setter="greedy", rng=1))
    >>> [table.caption for _, _, tables in content.sections[3:4] for table in tables]
    ['Headline figures of a player (every seat pooled)', 'Each seat, before house charges']
    >>> sorted(content.charts)  # 2-4 has neither naturals nor royalties: no chart of them
    ['net_distribution.png', 'sd_by_system.png']
    """
    if hands_per_hour is None:
        hands_per_hour = result.variant.rake.hands_per_hour
    figures = result.figures(hands_per_hour=hands_per_hour)  # refuses a pace that is not a positive number
    label = label or short_label(result.variant)
    charts = _charts(result, label, systems, rakes, hands_per_hour)
    strategy = str(result.metadata.get("strategy", ""))
    caption = f"set by {BASELINE_WORDS.get(strategy) or result.setter}; {result.deals:,} deals"
    sections = _sections(result, label, figures, hands_per_hour, bool(systems), "rake_burden.png" in charts)
    return ReportContent(label, sections, charts, caption)


def _summary(result: SimulationResult, figures: pd.DataFrame) -> tuple[str, list[ReportTable]]:
    """Section 4: a player's headline figures, then each seat's before (and after) house charges."""
    charged = charges_seats(result.variant)
    names = [n for n in _HEADLINE if n in set(figures["metric"])
             and (charged or n not in ("sd_after_charges", "mean_after_charges"))]
    seats = _seat_names(result, range(result.variant.players))
    who = "the player seats pooled" if result.variant.bank.banked else "every seat pooled"
    tables = [ReportTable(f"Headline figures of a player ({who})", _figure_table(figures, names)),
              ReportTable("Each seat, before house charges", _seat_table(figures, _SEAT_BEFORE, seats))]
    if charged:
        tables.append(ReportTable("Each seat, after house charges", _seat_table(figures, _SEAT_AFTER, seats)))
    text = ("Estimates with 95% intervals (low..high): means by Student's t on batch means, SD and variance "
            "by batch means on the per-batch variances (the volatility index, 1.645 SD, with its SD's), rates "
            "as the method column of `figures()` says (Student's t on batch means, Wilson where events are "
            "few); each seat's skewness and excess kurtosis are shown without one.")
    if not charged:
        text += ("\n\nThis game takes no rake, fee or commission: every figure after house charges equals "
                 "its figure before them, so only those before are shown.")
    return text, tables


def _sections(result: SimulationResult, label: str, figures: pd.DataFrame, hands_per_hour: float,
              systems: bool, burden: bool) -> list[tuple[str, str, list[ReportTable] | None]]:
    """(title, text, tables) of each section, in the order of a casino math report."""
    v = result.variant
    meta = result.metadata
    play = _in_play(result)
    setter = SETTER_WORDS.get(meta["strategy"], meta["strategy"])
    if meta.get("bank"):
        setter += f"; the bank (seat 0) sets by the {meta['bank']}"
    summary_text, summary_tables = _summary(result, figures)
    house_tables, house_left = _house_tables(result, figures, hands_per_hour)
    house_text = " ".join(t for t in (_house_text(result, hands_per_hour), house_left) if t)
    if burden:
        house_text += ("\n\n" if house_text else "") + (
            "The chart sets the game's house money beside other house charges on the same deals"
            + (" (this game takes no rake, fee or commission)." if not charges_seats(v) else ".") + "\n\n![rake burden](rake_burden.png)")
    return [
        ("1. Rules and setting strategy",
         f"{label} (variant string `{v}`): hands set by {setter}; {v.players} players.", None),
        ("2. Rules in words", "", [ReportTable(f"The rules of {label}", scoring_table(result), words=True)]),
        ("3. Outcome table (seat 0)", "Each net result of seat 0 before house charges: its probability with "
         "its 95% Wilson interval, its contribution to the mean (p x pay) and to the variance "
         "(p x (pay - mean)^2).\n\n![net distribution](net_distribution.png)",
         [ReportTable(f"Net result of {_seat_names(result, [0])[0]} per deal, before house charges",
                      _outcome_display(result))]),
        ("4. Summary figures", summary_text, summary_tables),
        ("Volatility by scoring system",
         "The SD of a player's result per hand before house charges, with its 95% interval"
         + (", beside other scoring systems rescored on the same settings of the same deals."
            if systems else " (no other scoring system was rescored).")
         + "\n\n![SD by system](sd_by_system.png)", None),
        _rare_hands(result, play),
        ("5. Session table", "n x mu +- 1.645 x SD x sqrt(n) per seat (90%): mu is the seat's true mean "
                             "after house charges (identical players win nothing from each other, so "
                             "mu is minus the seat's share of the house take; in a banked game, from "
                             "the house edge), not its noisy sample mean.", [_sessions_display(result)]),
        ("6. House money", house_text, house_tables),
        ("7. Method", f"Simulated: {result.deals:,} deals, root entropy {meta['entropy']}, block "
         f"{meta['block_deals']:,} deals (block i uses SeedSequence child i); cpstats "
         f"{meta['cpstats']}, numpy {meta['numpy']}, pandas {meta['pandas']}, numba {meta['numba']}, "
         f"scipy {meta['scipy']}, Python {platform.python_version()}. Means carry 95% intervals by "
         f"Student's t on {meta.get('batches', 'the')} batch means; frequencies, Wilson intervals.", None),
    ]


def _rare_hands(result: SimulationResult, play: dict[str, bool]) -> tuple[str, str, list[ReportTable]]:
    """Royalties and naturals: their charts and the naturals table where the rules have them, one
    line naming those they do not."""
    paragraphs, tables = [], []
    if play["royalties"]:
        paragraphs += ["How often each royalty hand is made, per played hand, with 95% intervals.",
                       "![royalties](royalties.png)"]
    if play["naturals"]:
        paragraphs += ["How often each natural is dealt per 13-card hand in the run, with its 95% Wilson "
                       "interval, against its exact probability by enumeration, and how often one was "
                       "declared.", "![naturals](naturals.png)"]
        tables.append(ReportTable("Naturals per 13-card hand: dealt in the run against exact",
                                  _naturals_display(result)))
    absent = [name for name in ("royalties", "naturals") if not play[name]]
    if absent:
        paragraphs.append(f"Not in these rules, so neither charted nor tabled: {' and '.join(absent)}.")
    return "Royalties and naturals", "\n\n".join(paragraphs), tables
