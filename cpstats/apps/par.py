"""The PAR sheet of a variant: its rules, strategy, outcomes, costs, figures and economics on
a few pages, as a regulator or an owner reads them (CASINO-MATH.md, "A PAR sheet").

:func:`par_sheet` builds every table as a pandas DataFrame (:mod:`cpstats.apps.par_figures`,
:mod:`cpstats.apps.par_example`); :meth:`ParSheet.to_html` and :meth:`ParSheet.to_pdf` write
it out (:mod:`cpstats.apps.par_render`). ``cpstats par VARIANT --out DIR`` does both.
"""

from __future__ import annotations

import argparse
import platform
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from cpstats._atomic import writable_file, writable_folder
from cpstats.apps import par_figures as figures
from cpstats.apps.cli_args import add_scheduler_options, executor_for
from cpstats.apps.cli_args import out_folder as _out_folder
from cpstats.apps.cli_args import pace as _pace
from cpstats.apps.cli_args import positive_int as _positive_int
from cpstats.apps.cli_args import seed as _seed
from cpstats.apps.par_example import rules_in_words, worked_example
from cpstats.apps import par_sensitivity as sensitivity_
from cpstats.apps.labels import baseline_label
from cpstats.apps.par_parts import ParSection, ParTable
from cpstats.apps.par_parts import check_pace as _check_pace
from cpstats.errors import OptionError, check_whole
from cpstats.rules import RakeModel, Variant
from cpstats.rules.games import load_variant
from cpstats.rules.describe import short_label
from cpstats.settlement import charges_seats as charges
from cpstats.thirteen.result import SimulationResult
from cpstats.strategies.setters import EvSetter, as_setter, result_setter, setter_option

__all__ = ["ParSheet", "ParSection", "ParTable", "par_sheet", "add_par_command", "run_par_command"]

#: Deals of a live run when no reference result fits (the variant is no preset, or not ev).
DEFAULT_DEALS = 200_000
#: Deals of each run of the banker-edge-by-seats table (banked variants).
SEAT_DEALS = 50_000
#: Net results rarer than this at either end of the net-result table share one row.
TAIL = 1e-4


@dataclass
class ParSheet:
    """A PAR sheet: the sections in reading order, built from one :class:`SimulationResult`.

    ``tables`` maps each table's key (``"headline"``, ``"seat_outcomes"``, ``"royalties"``,
    ``"economics"``, ``"sessions"``, ``"methodology"``...) to its DataFrame.
    """

    variant: Variant
    result: SimulationResult
    hands_per_hour: float
    sections: list[ParSection]
    label: str
    #: The sensitivity section's sweeps, keyed by parameter (:func:`cpstats.sweep` tables).
    sweeps: dict[str, pd.DataFrame] = field(default_factory=dict)

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        return {t.key: t.frame for s in self.sections for t in s.tables}

    def to_html(self, path: str | Path) -> Path:
        """Write the sheet as one self-contained HTML file (charts inlined); returns the path."""
        from cpstats.apps.par_render import write_html

        return write_html(self, writable_file("path", path))

    def to_pdf(self, path: str | Path) -> Path:
        """Write the sheet as an A4 PDF (matplotlib's PDF backend); returns the path."""
        from cpstats.apps.par_render import write_pdf

        return write_pdf(self, writable_file("path", path))


def _label(v: Variant) -> str:
    return short_label(v)


def _reference(v: Variant, setter: Any) -> SimulationResult | None:
    """The shipped ev reference run of ``v`` when ``v`` is exactly a preset that has one."""
    from cpstats.simulation import REFERENCE_DIR, load_reference

    if setter != EvSetter() or str(v) != v.name or not (REFERENCE_DIR / f"{v.name}.npz").exists():
        return None
    result = load_reference(v.name)
    # a reference saved before outcome counts were recorded lacks the outcome table: run live
    return result if result.variant == v and result.has_outcomes else None


def par_sheet(variant: Variant | str, *, deals: int | None = None, rng: Any = 2026,
              setter: Any = "ev", hands_per_hour: float | None = None,
              out: str | Path | None = None, result: SimulationResult | None = None,
              seat_deals: int = SEAT_DEALS, executor: Executor | None = None, sensitivity: Any = True,
              sensitivity_deals: int = sensitivity_.SENSITIVITY_DEALS, solution: Any = None,
              strategy: Any = None) -> ParSheet:
    """Build the PAR sheet of ``variant``; with ``out`` also write ``par.html`` and ``par.pdf`` there.

    Parameters
    ----------
    variant
        A Variant, preset name or variant string.
    deals
        Deals to simulate. Default: the shipped ev reference run (1,000,000 deals) when the
        variant is a preset, ``setter`` is ``ev`` with its own tables and the reference holds
        outcome counts, else a live run of 200,000 deals.
    rng
        Seed of a live run, of the sensitivity sweeps and of the seat-count runs (an int seed also
        deals the worked example, else seed 2026 does); None draws fresh entropy.
    setter
        The setter, a name or object (default ``ev``, the strategy that plays the game well, as
        :func:`cpstats.simulate`'s); any other is named a baseline on the sheet. ``strategy=`` is
        deprecated.
    hands_per_hour
        Pace of the hourly figures (default: the variant's, ``rake.hands_per_hour``).
    result
        A finished run of ``variant`` to reuse (e.g. ``cpstats.load_reference("2-4")``).
    seat_deals
        Deals of each run of the banker-edge-by-seats table (banked variants only).
    executor
        Runs the blocks of the live run (any ``concurrent.futures``-style executor, a Dask
        client's ``get_executor()`` too; None is serial), as :func:`cpstats.simulate`'s, and of
        the sensitivity sweeps.
    sensitivity
        The sensitivity section's sweeps: True for the variant's main rule numbers around its
        own values (:mod:`cpstats.apps.par_sensitivity` says which), False or None for none, a
        dict or list of (parameter, values) for those (the first value is the base of the
        paired differences).
    sensitivity_deals
        Deals a point of each sweep (20,000), set by the sheet's setter.
    solution
        A :func:`cpstats.solve` answer whose variant is this one: the sheet gains a "How this rule
        was chosen" section (the question, the interval, the deals, the response curve).

    An open-face variant's sheet is its game's (:func:`cpstats.apps.ofc_par.ofc_par_sheet`: a
    live run of 400 hands by default, ``setter="ev"`` meaning rollout, ``result`` a run with
    rows); ``seat_deals`` and the sensitivity options are the 13-card sheet's only.
    """
    v = load_variant(variant)
    if v.game != "13-card":
        from cpstats.apps.ofc_par import ofc_par_sheet

        return ofc_par_sheet(v, deals=deals, rng=rng, setter=setter_option(setter, strategy),
                             hands_per_hour=hands_per_hour, out=out, result=result, executor=executor)
    pace = _check_pace(hands_per_hour, v)
    check_whole("seat_deals", seat_deals, 2)
    check_whole("sensitivity_deals", sensitivity_deals, 2, "an interval needs two")
    folder = None if out is None else writable_folder("out", out)  # before a long simulation
    seed = rng
    setter = as_setter(setter_option(setter, strategy))
    if result is None and deals is None:
        result = _reference(v, setter)
    live = result is None
    if result is None:
        from cpstats.workbench import simulate

        result = simulate(v, DEFAULT_DEALS if deals is None else deals, setter=setter, rng=seed,
                          executor=executor)
    elif result.variant != v:
        raise OptionError(f"result is of {result.variant}, not of {v}: pass a run of the sheet's variant")
    sheet = ParSheet(v, result, pace, [], _label(v))
    # the sweeps play each point with its own ev tables unless the setter given names some
    swept = setter if live else as_setter(result.metadata.get("strategy", "ev"))
    specs = sensitivity_.parameters(sensitivity, v, swept)
    sheet.sweeps = sensitivity_.run_sweeps(v, specs, deals=sensitivity_deals, setter=swept,
                                           rng=seed, hands_per_hour=pace, executor=executor)
    sheet.sections = _sections(sheet, seed, seat_deals)
    if solution is not None:  # the solve that chose the rule (cpstats.solve)
        from cpstats.apps.par_solution import solution_section

        title, paragraphs, table = solution_section(solution, v)
        sheet.sections.append(ParSection(title, paragraphs, [ParTable(*table)]))
    if folder is not None:
        sheet.to_html(folder / "par.html")
        sheet.to_pdf(folder / "par.pdf")
    return sheet


def _sections(sheet: ParSheet, seed: Any, seat_deals: int) -> list[ParSection]:
    r = sheet.result
    return [_rules_section(sheet, seed), _strategy_section(r), _outcome_section(r),
            _cost_section(r), _headline_section(r),
            _economics_section(sheet, seed, seat_deals), _session_section(r),
            _sensitivity_section(sheet), _method_section(r)]


def _rules_section(sheet: ParSheet, seed: Any) -> ParSection:
    v, r = sheet.variant, sheet.result
    rules = pd.DataFrame(rules_in_words(v), columns=["rule", "in words"])
    example_seed = seed if isinstance(seed, int) else 2026
    ex = worked_example(v, setter=result_setter(r.metadata), seed=example_seed)
    return ParSection("1. The rules", [
        f"{sheet.label}: variant string {v}. One unit is one point of the scoring; all figures are "
        "in units unless they say otherwise.", *figures.rules_in_action(r),
        f"Worked example: deal {ex['deal'] + 1} dealt from seed {ex['seed']}, each hand set by "
        f"{r.setter}. Each pair compares its rows; a row is won, tied or lost, and the pair's total "
        "is its points, royalties and bonuses. Each seat's net is the sum of its pairs' totals."
        + _example_charge(v, ex)],
        [ParTable("rules", "The rules in words", rules),
         ParTable("example_hands", "Worked example: the hands and how each was set", ex["hands"]),
         ParTable("example_pairs", "Worked example: each pair's rows and payment (from the first "
                  "seat's side)", ex["pairs"]),
         ParTable("example_net", "Worked example: each seat's net result"
                  + (", before and after the house charge" if charges(v) else ""), ex["net"])])


def _example_charge(v: Variant, ex: dict) -> str:
    """The worked example's house charge in words (empty where the house charges nothing)."""
    text = ""
    if charges(v):
        who = ("paid by each player seat that won against the bank" if v.bank.banked
               and v.rake.model is RakeModel.NONE else
               "taken from the winning seats in proportion to their winnings"
               if v.rake.model is RakeModel.PERCENT and not v.bank.banked else "split over the seats")
        text = (f" The house charge on this deal is {ex['rake']:,.4g} units ({who}); each seat's result "
                "after it is in the last column.")
    if ex["jackpot"]:
        text += f" The jackpot drop of {ex['jackpot']:,.4g} units is apart: it returns to players."
    return text


def _strategy_section(r: SimulationResult) -> ParSection:
    meta = r.metadata
    strategy = str(meta.get("strategy"))
    text = [f"Every hand is set by {r.setter}."]
    if strategy == "ev":
        text.append("ev chooses the setting of highest expected value against a field playing the "
                    "row tables named below (trained by damped best response for the variant); it is "
                    "the strategy that plays the game well, so the figures describe the game.")
    else:
        text.append(f"Baseline: {strategy} is a weak setter, not how good players set hands; these "
                    "figures describe a field of such players, not the game as played well.")
    tables = meta.get("tables") or {}
    rows = [("Strategy", strategy), ("Tables trained for", tables.get("trained_for", "not used")),
            ("Where the tables came from",
             (meta.get("tables_source") or "not recorded by this run") if tables else "not used"),
            ("Training seed", tables.get("seed", "-")),
            ("Training deals per round", f"{tables['deals']:,}" if tables.get("deals") else "-"),
            ("Training rounds", tables.get("rounds", "-")),
            ("Tables fingerprint (SHA-256)", tables.get("sha256", "-"))]
    frame = pd.DataFrame([(k, str(x)) for k, x in rows], columns=["item", "value"])
    return ParSection("2. The setting strategy assumed", text, [ParTable("strategy", "Setter", frame)])


def _outcome_section(r: SimulationResult) -> ParSection:
    seat = 1 if r.variant.bank.banked else 0
    pairs = figures.pooled_outcomes(r, "pair")
    text = ["Each outcome's probability (95% CI), its average pay, and its contribution to the mean "
            "(p × pay) and to the variance (p × E[(pay − mean)² | outcome]); over one side's rows "
            "they add up to 1, the mean and the variance. Pay is before house charges."]
    if charges(r.variant):
        text.append(_charge_words(r.variant))
    tables = []
    if pairs is not None:
        text.append("Per pair of players: the rows won, lost and tied of two hands that played "
                    "their rows, then naturals, surrenders and fouls; pooled over every pair"
                    + (" (a player's side against the bank and the bank's side)." if seat else "."))
        tables.append(ParTable("pair_outcomes", "Outcomes per pair of players", pairs))
        tables.append(ParTable("seat_scoops", "Outcomes per seat against the whole table",
                               figures.pooled_outcomes(r, "seat")))
    else:
        text.append("This run holds no per-pair outcome counts (it was saved before they were "
                    "recorded): the scoop rate per pair is in the headline figures.")
    who = "a player seat (seat 1)" if seat else "seat 0"
    net = figures.seat_outcomes(r, seat, TAIL)
    lumped = net["outcome"].str.endswith((" or less", " or more")).any()
    tables.append(ParTable("seat_outcomes", f"Net result per deal for {who}", net,
                           f"Results rarer than 1 in {1 / TAIL:,.0f} at either end are lumped into "
                           "one row each." if lumped else ""))
    return ParSection("3. Outcomes", text, tables, ["outcomes"])


def _charge_words(v: Variant) -> str:
    """How the house charge reaches a seat's result, for the outcome tables."""
    if v.bank.banked and v.rake.model is RakeModel.NONE:
        how = ("the bank's commission or fee is paid by each player seat that wins against the "
               "bank, so it comes off a player's winning outcomes only")
    elif v.rake.model is RakeModel.PERCENT:
        how = ("a percent rake is taken from the winning seats in proportion to their winnings "
               "(capped and thresholded as the table's rake)")
    else:
        how = "the charge is the same for every seat, whatever its result"
    return ("The house charges a seat on its whole result of the deal, not pair by pair: " + how
            + ". The tables per seat show the seat's average share of the charge in each outcome "
            "and its average result after it; the per-pair table is before charges.")


def _cost_section(r: SimulationResult) -> ParSection:
    royalties = figures.royalty_table(r)
    naturals = figures.natural_table(r)
    tables = []
    note = ("Paid per hand: what a seat collects on average (frequency × bonus × opponents). Share of "
            "variance: the variance those payments alone add, over the seat's variance (an "
            "approximation: their covariance with the rows is left out).")
    if royalties["bonus_per_opponent"].any():
        tables.append(ParTable("royalties", "Royalties: frequency per played hand, bonus, cost", royalties,
                               note))
    else:
        tables.append(ParTable("royalties", "Royalty hands made (none paid here)",
                               royalties[["royalty", "made", "frequency", "ci_low", "ci_high"]],
                               intro="This variant pays no royalties; how often the royalty hands "
                                     "are made:"))
    if naturals["in_play"].any():
        shown = naturals[naturals["in_play"]].drop(columns=["in_play", "held_ci_low", "held_ci_high"])
        tables.append(ParTable("naturals", "Naturals in play: declared frequency per hand, payout, cost",
                               shown, note))
    else:
        tables.append(ParTable("naturals", "Natural hands held (none paid here)",
                               naturals[["natural", "held_frequency", "held_ci_low", "held_ci_high",
                                         "exact_probability"]],
                               intro="This variant pays no naturals; how often the hands are held:"))
    return ParSection("4. Royalties and naturals", [], tables, ["frequencies"])


def _headline_section(r: SimulationResult) -> ParSection:
    text = ["Each figure with its 95% confidence interval. X is one seat's net result on one deal, in "
            "units, before house charges; the volatility index is 1.645 SD (CASINO-MATH)."]
    if not r.variant.bank.banked:
        text.append("Between players the game is zero-sum before house charges: every seat's true "
                    "mean is 0, and the seats' estimates differ from 0 by chance only.")
    return ParSection("5. Headline figures", text, [ParTable("headline", "Headline figures",
                                                             figures.headline(r))])


def _economics_section(sheet: ParSheet, seed: Any, seat_deals: int) -> ParSection:
    r, pace = sheet.result, sheet.hands_per_hour
    owed = ("its expected loss to the house, the bank's tie advantage and commission or fee "
            "included (3 × the house edge)" if r.variant.bank.banked else "its share of the house charge")
    text = [f"At {pace:,.0f} hands an hour. The break-even skill edge is what a player must win from "
            f"the field each hand to cover {owed}; the jackpot drop, which returns to the players, is "
            "not in it. No drop (chips bought) is simulated, so no hold is given.",
            *[line for line in figures.rules_in_action(r) if not line.startswith("Surrender")]]
    tables = [ParTable("economics", "The operator's figures", figures.economics(r, pace))]
    charts = []
    if r.variant.bank.banked:
        banker = figures.banker_by_seats(r, deals=seat_deals, rng=seed)
        tables.append(ParTable("banker_by_seats", "The bank's edge against the number of seats", banker,
                               f"A run of {seat_deals:,} deals per seat count on the same seed, set "
                               "with the sheet's tables; house edge per 3-unit wager, 95% CI."))
        charts.append("banker")
    else:
        text.append("Not a banked game: the seats play each other and the house's revenue is its "
                    "charge. What typical cardroom charges would cost at this table:")
        tables.append(ParTable("charge_models", "Typical charges at this table",
                               figures.charge_models(r, pace)))
    return ParSection("6. Operator economics", text, tables, charts)


def _session_section(r: SimulationResult) -> ParSection:
    bands = figures.session_bands(r)
    text = ["A session of N hands ends within N × mean ± z × SD × √N with the stated chance "
            f"(z = 1.645 for 90%, 1.96 for 95%); the mean is after house charges, the {bands.attrs['sd']}."]
    return ParSection("7. Session bands", text,
                      [ParTable("sessions", "Session bands", bands)], ["sessions"])


def _sensitivity_section(sheet: ParSheet) -> ParSection:
    title = "8. Sensitivity"
    if not sheet.sweeps:
        return ParSection(title, ["Not run for this sheet (sensitivity=False)."])
    first = next(iter(sheet.sweeps.values())).attrs
    setter = baseline_label(first["strategy"]) or first["strategy"]
    moving = [sensitivity_.words(f.attrs["parameter_label"]) for key, f in sheet.sweeps.items()
              if first["strategy"] == "ev" and sensitivity_.strategy_moving(
                  sheet.variant, key, list(dict.fromkeys(f["value"])))]
    text = ["The rule numbers a designer tunes, present in this variant (its house charge, then the "
            "numbers that move the setter), each at its own value and three around it (half, 1.5 "
            "and twice it, or steps of 1 from a small value); the figures are the headline ones.",
            f"Every point: {first['deals']:,} deals on the same seed (entropy {first['entropy']}), "
            f"set by {setter}"
            + (f"; {', '.join(moving)}: each point plays ev tables trained for its own rules"
               if moving else "") + ". Estimate bands are 95% intervals (Student's t on 30 batch "
            "means); each difference to the variant's own value is paired on the common deals, "
            "with its 95% paired interval, or none where it rests on too few differing deals."]
    charts = [f"sweep:{key}" for key in sheet.sweeps]
    return ParSection(title, text, [ParTable(
        "sensitivity", "Figures across each rule's range (difference to this variant's value)",
        sensitivity_.sensitivity_table(sheet.sweeps), sensitivity_.unmoved_note(sheet.sweeps))], charts)


def _method_section(r: SimulationResult) -> ParSection:
    import matplotlib
    import numba
    import numpy as np

    from cpstats._version import __version__

    sheet = {"cpstats": __version__, "numpy": np.__version__, "numba": numba.__version__,
             "pandas": pd.__version__, "matplotlib": matplotlib.__version__,
             "Python": platform.python_version()}
    meta = r.metadata
    run = {k: meta[k] for k in ("cpstats", "numpy", "numba", "pandas", "scipy") if k in meta}
    return ParSection("9. Methodology", ["Simulated, not exact: every figure is an estimate from the "
                                         "deals below, with the interval method named."],
                      [ParTable("methodology", "How the figures were made",
                                figures.methodology(r, {"the run": run, "this sheet": sheet}))])


# -- command line -----------------------------------------------------------------------------



def add_par_command(sub) -> argparse.ArgumentParser:
    """Add ``cpstats par VARIANT --out DIR`` to the subparsers ``sub``; returns the parser."""
    p = sub.add_parser("par", help="write a variant's PAR sheet (HTML and PDF)")
    p.add_argument("variant", help="preset name or variant string (either game)")
    p.add_argument("--out", default="par", help="output folder, created if missing (default ./par)")
    p.add_argument("--deals", type=_positive_int, default=None,
                   help="deals to simulate (default: the shipped ev reference of a preset, "
                        f"else {DEFAULT_DEALS:,}; open face: 400 hands)")
    p.add_argument("--hands-per-hour", type=_pace, default=None,
                   help="pace of the hourly figures (default: the variant's, 30)")
    p.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    p.add_argument("--strategy", default="ev", help="setting strategy (default ev)")
    add_scheduler_options(p)
    p.add_argument("--sensitivity-deals", type=_positive_int, default=sensitivity_.SENSITIVITY_DEALS,
                   help="deals a point of the sensitivity sweeps (default "
                        f"{sensitivity_.SENSITIVITY_DEALS:,})")
    p.add_argument("--no-sensitivity", dest="sensitivity", action="store_false",
                   help="leave the sensitivity sweeps out (each point of a rule that moves ev's "
                        "choices trains its tables on first use, about a minute each)")
    p.set_defaults(run=run_par_command)
    return p


def run_par_command(args: argparse.Namespace) -> str:
    """Handler of ``cpstats par``: writes ``par.html`` and ``par.pdf``, returns what it wrote."""
    out = _out_folder(args.out)  # refused before the simulation, naming --out
    executor, close = executor_for(args)
    try:
        sheet = par_sheet(args.variant, deals=args.deals, rng=args.seed, setter=args.strategy,
                          hands_per_hour=args.hands_per_hour, out=out, executor=executor,
                          sensitivity=getattr(args, "sensitivity", True),
                          sensitivity_deals=getattr(args, "sensitivity_deals",
                                                    sensitivity_.SENSITIVITY_DEALS))
    finally:
        close()
    if sheet.variant.game != "13-card":
        return (f"PAR sheet of {sheet.label} ({sheet.result.hands:,} hands, {sheet.setter_words}) "
                f"written: {out / 'par.html'} and {out / 'par.pdf'}")
    setter = baseline_label(args.strategy) or sheet.result.setter
    return (f"PAR sheet of {sheet.label} ({sheet.result.deals:,} deals, {setter}) "
            f"written: {out / 'par.html'} and {out / 'par.pdf'}")
