"""The 13-card PAR sheet's content: a variant's rules, strategy, outcomes, costs, figures and
economics, as a regulator or an owner reads them (CASINO-MATH.md, "A PAR sheet").

:func:`build_sheet` (this game's ``par_sheet`` view, which :func:`cpstats.par_sheet` calls with its
options checked and its setter resolved) plays or reads the run and the sensitivity sweeps and
returns a :class:`Sheet`, the sheet template (:class:`~cpstats.engine.sheet.SheetContent`)
filled with this game's sections: every table a pandas DataFrame (:mod:`.figures`,
:mod:`.example`), every chart its numbers and words (:meth:`Sheet.chart`). The apps number
the sections, add the ones every game's sheet shares and write the files (:mod:`cpstats.apps.par`).

- Decision: the run's length is a precision level's (:func:`precision_levels`): the designer's by
  default, whose targets 200,000 deals meet for the presets (so the default run is as before: the
  shipped reference of a preset, else 200,000 deals), and a submission's, tighter (a banked game's
  house edge within +-0.05 percentage points, a seat's mean within +-0.015 units, hit frequency
  within +-0.1 points, SD within +-0.01 units). A preset's shipped 1,000,000-deal reference serves
  when it meets the level; else a live run grows in stages
  (:func:`~cpstats.engine.sequential.run_until`) from 200,000 deals to the level's cap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import pandas as pd

from cpstats.engine.describe import short_label
from cpstats.engine.sequential import until_record
from cpstats.engine.sheet import (Chart, ChartKind, ParSection, ParTable, PrecisionLevel, SheetContent,
                                  SheetProgress, half_widths_of, words)
from cpstats.errors import OptionError, check_whole
from cpstats.rules.house import BankSetter, RakeModel
from cpstats.thirteen.par import figures
from cpstats.thirteen.par import sweeps as sweeps_
from cpstats.thirteen.par.example import rules_in_words, worked_example
from cpstats.thirteen.play.setters import EvSetter, as_setter, result_setter
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.settlement import charges_seats as charges

__all__ = ["Sheet", "build_sheet", "precision_levels", "DEFAULT_DEALS", "SEAT_DEALS", "BASELINE_WORDS"]

#: Deals of a live run when no reference result fits (the variant is no preset, or not ev).
DEFAULT_DEALS = 200_000
#: The most deals a run grown to the designer's and to a submission's precision plays.
DESIGNER_MOST, SUBMISSION_MOST = 1_000_000, 2_000_000
#: Deals of each run of the banker-edge-by-seats table (banked variants).
SEAT_DEALS = 50_000
#: Net results rarer than this at either end of the net-result table share one row.
TAIL = 1e-4
#: The baselines in words wherever the sheet names who set the hands (never read as good play).
BASELINE_WORDS = {"greedy": "greedy, a baseline setter (a weak field: not the figures of good play)",
                  "random": "random, a baseline setter (no skill: not the figures of good play)"}


@dataclass
class Sheet(SheetContent):
    """A 13-card PAR sheet, built from one :class:`SimulationResult` (``tables``: ``"headline"``,
    ``"seat_outcomes"``, ``"royalties"``, ``"economics"``, ``"sessions"``, ``"methodology"``...);
    ``seat_deals`` are the deals of each run of a banked game's edge by seats."""

    variant: Variant
    result: SimulationResult
    seat_deals: int = SEAT_DEALS
    banker: pd.DataFrame | None = None
    by_players: pd.DataFrame | None = None

    @property
    def _strategy(self) -> str:
        return str(self.result.metadata.get("strategy", ""))

    @property
    def played_by(self) -> str:
        return f"set by {BASELINE_WORDS.get(self._strategy) or self.result.setter}"

    @property
    def baseline_note(self) -> str:
        strategy = self._strategy
        return f" · set by {strategy}, a baseline: not the figures of good play" if strategy in BASELINE_WORDS else ""

    def moving_note(self, sweeps: Mapping[str, pd.DataFrame]) -> str:
        first = next(iter(sweeps.values())).attrs
        moving = [words(f.attrs["parameter_label"]) for key, f in sweeps.items()
                  if first["strategy"] == "ev" and sweeps_.strategy_moving(
                      self.variant, key, list(dict.fromkeys(f["value"])))]
        return f"; {', '.join(moving)}: each point plays ev tables trained for its own rules" if moving else ""

    def prepare(self, progress: SheetProgress) -> None:
        """A banked game's edge with 1, 2 and 3 player seats (:func:`~.figures.banker_by_seats`)."""
        if self.variant.bank.banked:
            self.banker = figures.banker_by_seats(self.result, deals=self.seat_deals, rng=self.seed,
                                                  progress=progress)
            self.by_players = figures.edge_by_players(self.result, deals=self.seat_deals, rng=self.seed,
                                                      progress=progress)

    def rules_section(self) -> ParSection:
        return _rules_section(self)

    def strategy_section(self) -> ParSection:
        return _strategy_section(self.result)

    def bank_sections(self) -> list[ParSection]:
        return [_house_way_section(self.variant, self.by_players)] if self.variant.bank.banked else []

    def outcome_section(self) -> ParSection:
        return _outcome_section(self.result)

    def pay_sections(self) -> list[ParSection]:
        return [_cost_section(self.result)]

    def headline_section(self) -> ParSection:
        return _headline_section(self.result)

    def economics_section(self) -> ParSection:
        return _economics_section(self)

    def session_section(self) -> ParSection:
        return _session_section(self.result)

    def methodology_items(self) -> list[tuple[str, Any]]:
        return figures.methodology(self.result)

    @property
    def summary_names(self) -> list[str]:
        first = ["house_edge", "element_of_risk"] if self.variant.bank.banked else ["mean"]
        return [*first, "hit_frequency", "sd"]

    def chart(self, name: str, tables: Mapping[str, pd.DataFrame]) -> Chart:
        return _CHARTS[name](self, tables)


def _reference(v: Variant, setter: Any) -> SimulationResult | None:
    """The shipped ev reference run of ``v`` when ``v`` is exactly a preset that has one."""
    from cpstats.engine import REFERENCE_DIR, load_reference

    if setter != EvSetter() or str(v) != v.name or not (REFERENCE_DIR / f"{v.name}.npz").exists():
        return None
    result = load_reference(v.name)
    # a reference saved before outcome counts were recorded lacks the outcome table: run live
    return result if result.variant == v and result.has_outcomes else None


def precision_levels(v: Variant) -> dict[str, PrecisionLevel]:
    """The designer's and a submission's targets for ``v`` (95% half-widths): a banked game's house
    edge, else every seat's mean; the hit frequency and the SD of a seat (module docstring)."""
    if v.bank.banked:
        designer, submission = {"house_edge": 0.002}, {"house_edge": 0.0005}
    else:
        designer = {f"mean_seat{k}": 0.1 for k in range(v.players)}
        submission = {f"mean_seat{k}": 0.015 for k in range(v.players)}
    return {"designer": PrecisionLevel("designer", {**designer, "hit_frequency": 0.005, "sd": 0.05},
                                       DESIGNER_MOST, DEFAULT_DEALS,
                                       expected="about 30 s a 200,000 deals on 2 cores"),
            "submission": PrecisionLevel("submission", {**submission, "hit_frequency": 0.001, "sd": 0.01},
                                         SUBMISSION_MOST, DEFAULT_DEALS,
                                         expected="a preset's shipped reference meets it at once; a live run "
                                                  "about 1 to 5 minutes on 2 cores (at most 2,000,000 deals, "
                                                  "stages included)")}


def _live_run(v: Variant, setter: Any, seed: Any, executor: Executor | None, progress: SheetProgress,
              deals: int | None, level: PrecisionLevel) -> SimulationResult:
    """``deals`` deals, or (None) a run grown in stages until ``level``'s targets or its cap."""
    from cpstats.engine.sequential import run_until
    from cpstats.thirteen.run import simulate

    if deals is not None:
        progress.playing("run", f"the run, set by {setter.name}", deals)
        return simulate(v, deals, setter=setter, rng=seed, executor=executor)
    stage = 0

    def staged(w: Variant, n: int, **options: Any) -> SimulationResult:
        nonlocal stage
        stage += 1
        progress.playing("run", f"the run, set by {setter.name}, stage {stage} (grown until the {level.name} "
                         f"precision, at most {level.most:,} deals)", n)
        return simulate(w, n, **options)

    return run_until(staged, v, level.most, level.targets, rng=seed, setter=setter, executor=executor,
                     pilot=level.pilot)


def build_sheet(v: Variant, *, setter: Any, hands_per_hour: float, progress: SheetProgress,
                sweeps: Callable[[Any], list[tuple[str, list]]], deals: int | None = None, rng: Any = 2026,
                result: SimulationResult | None = None, executor: Executor | None = None,
                sensitivity_deals: int | None = None, seat_deals: int | None = None,
                precision: str | None = None) -> Sheet:
    """The 13-card sheet of ``v`` (the verb :func:`cpstats.par_sheet` checked its options and
    resolved its setter). ``deals`` None plays the shipped ev reference run (1,000,000 deals) when
    ``v`` is a preset, ``setter`` is ``ev`` with its own tables and the reference holds outcome
    counts, else a live run of :data:`DEFAULT_DEALS` deals, grown until the designer's targets
    (``precision``: the level, :func:`precision_levels`; the reference serves only when it meets
    them); ``seat_deals`` (None:
    :data:`SEAT_DEALS`) are the deals of each run of the banker-edge-by-seats table (banked
    variants only); ``sweeps(setter)`` are the sensitivity sweeps, each point played by the run's
    setter, :data:`~.sweeps.SENSITIVITY_DEALS` deals (or ``sensitivity_deals``); ``progress``
    hears each stage."""
    seat_deals = check_whole("seat_deals", SEAT_DEALS if seat_deals is None else seat_deals, 2)
    seed = rng
    setter = as_setter(setter)
    given = result is not None
    levels = precision_levels(v)
    level = None if given or deals is not None else (precision or "designer")
    if result is None and deals is None:
        result = _reference(v, setter)
        if result is not None and not levels[level].met(half_widths_of(result, levels[level].targets)):
            result = None  # the reference is not precise enough for this level: a live run grows
    live = result is None
    if v.bank.banked:
        progress.plan("bank", 2 * seat_deals)  # two seat counts besides the run's own
    if result is None:
        result = _live_run(v, setter, seed, executor, progress, deals, levels[level or "designer"])
    elif result.variant != v:
        raise OptionError(f"result is of {result.variant}, not of {v}: pass a run of the sheet's variant")
    else:
        progress.step(f"the run: {result.deals:,} deals, " + ("the result given" if given
                                                             else "the shipped ev reference"))
    sheet = Sheet(v, result, hands_per_hour, short_label(v), seed, level=level, levels=levels,
                  seat_deals=seat_deals)
    sheet.precision = until_record(result.metadata)
    # the sweeps play each point with its own ev tables unless the setter given names some
    swept = setter if live else as_setter(result.metadata.get("strategy", "ev"))
    deals_a_point = sweeps_.SENSITIVITY_DEALS if sensitivity_deals is None else sensitivity_deals
    sheet.sweeps = sweeps_.run_sweeps(v, sweeps(swept), deals=deals_a_point, setter=swept, rng=seed,
                                      hands_per_hour=hands_per_hour, executor=executor, progress=progress)
    return sheet


def _rules_section(sheet: Sheet) -> ParSection:
    v, r, seed = sheet.variant, sheet.result, sheet.seed
    rules = pd.DataFrame(rules_in_words(v), columns=["rule", "in words"])
    example_seed = seed if isinstance(seed, int) else 2026
    ex = worked_example(v, setter=result_setter(r.metadata), seed=example_seed)
    return ParSection("The rules", [
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
    return ParSection("The setting strategy assumed", text, [ParTable("strategy", "Setter", frame)])


def _house_way_section(v: Variant, by_players: pd.DataFrame | None = None) -> ParSection:
    """The house way in words (:func:`~cpstats.thirteen.play.house_way.house_way_words`): the rules a
    dealer sets the bank's hand by, in order."""
    from cpstats.thirteen.play.house_way import house_way_words

    plays = v.bank.setter is BankSetter.HOUSE_WAY
    text = ["The bank (seat 0) sets its thirteen cards by these rules, applied in order, without judgement, "
            "as a dealer follows a printed house way. The house edge a regulator approves is the players' "
            "expectation against the house way, measured when the bank plays it"
            + (": this variant's bank does (bank.setter=house-way), so this sheet's house edge is that edge."
               if plays else f"; this variant's bank sets by {v.bank.setter} instead, so this sheet's house edge "
                             "is not the edge against the house way (play the variant with "
                             "bank.setter=house-way for it).")]
    frame = pd.DataFrame({"rule": list(house_way_words())})
    tables = [ParTable("house_way", "The house way", frame)]
    if by_players is not None:
        tables.append(ParTable("edge_by_players", "The house edge by the players' strength (per 3-unit wager, "
                               "95% CI)", by_players))
    return ParSection("House way (how the bank sets)", text, tables)


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
    return ParSection("Outcomes", text, tables, ["outcomes"])


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
    exact = figures.exact_natural_table(r)
    paid = bool(naturals["in_play"].any())
    tables.append(ParTable(
        "naturals_exact", "Naturals: exact combinations, probability, pay and return"
        + ("" if paid else " (none paid here)"), exact,
        "Combinations among all 635,013,559,600 thirteen-card hands, by enumeration; probability = combinations "
        "/ C(52, 13); return = probability × pay × opponents, units a hand. Each natural counted on its own (a "
        "hand that is two naturals is in both rows, though it is paid once). The simulated rate, with its 95% "
        "interval, is this run's, a check of the play and the dealing.",
        intro="The naturals are exact events of the deal: their counts need no simulation."))
    if paid:
        shown = naturals[naturals["in_play"]].drop(columns=["in_play", "held_ci_low", "held_ci_high"])
        tables.append(ParTable("naturals", "Naturals in play: declared frequency per hand, payout, cost",
                               shown, note))
    else:
        tables.append(ParTable("naturals", "Natural hands held (none paid here)",
                               naturals[["natural", "held_frequency", "held_ci_low", "held_ci_high",
                                         "exact_probability"]],
                               intro="This variant pays no naturals; how often the hands are held:"))
    return ParSection("Royalties and naturals", [], tables, ["frequencies"])


def _headline_section(r: SimulationResult) -> ParSection:
    text = ["Each figure with its 95% confidence interval. X is one seat's net result on one deal, in "
            "units, before house charges; the volatility index is 1.645 SD (CASINO-MATH)."]
    if not r.variant.bank.banked:
        text.append(_seat_means_words(r.variant.players))
    return ParSection("Headline figures", text, [ParTable("headline", "Headline figures",
                                                             figures.headline(r))])


def _seat_means_words(seats: int, confidence: float = 0.95) -> str:
    """What the seats' means say in a zero-sum game: the pooled mean is exactly 0, and how often
    some seat's interval excludes 0 by chance alone among ``seats`` of them."""
    linked = figures.chance_an_interval_excludes(seats, confidence)
    alone = figures.chance_an_interval_excludes(seats, confidence, linked=False)
    return ("Between players the game is zero-sum before house charges: every seat's true mean is 0, and "
            "the seats' pooled mean is exactly 0 (every deal's nets add to 0); each seat's estimate "
            f"differs from 0 by chance only. With {seats} seats, each {confidence:.0%} interval misses "
            f"its seat's true mean {1 - confidence:.0%} of the time, and at least one of the {seats} "
            f"excludes 0 by chance alone about {linked:.0%} of the time (the seats' results are linked, "
            f"adding to 0; were they independent, {alone:.0%}): one seat outside 0 is not, alone, "
            "evidence that a seat has an edge.")


def _economics_section(sheet: Sheet) -> ParSection:
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
        tables.append(ParTable("banker_by_seats", "The bank's edge against the number of seats", sheet.banker,
                               f"A run of {sheet.seat_deals:,} deals per seat count on the same seed, set "
                               "with the sheet's tables; house edge per 3-unit wager, 95% CI."))
        charts.append("banker")
    else:
        text.append("Not a banked game: the seats play each other and the house's revenue is its "
                    "charge. What typical cardroom charges would cost at this table:")
        tables.append(ParTable("charge_models", "Typical charges at this table",
                               figures.charge_models(r, pace)))
    return ParSection("Operator economics", text, tables, charts)


def _session_section(r: SimulationResult) -> ParSection:
    bands = figures.session_bands(r)
    text = ["A session of N hands ends within N × mean ± z × SD × √N with the stated chance "
            f"(z = 1.645 for 90%, 1.96 for 95%); the mean is after house charges, the {bands.attrs['sd']}."]
    return ParSection("Session bands", text,
                      [ParTable("sessions", "Session bands", bands)], ["sessions"])


# -- charts: the numbers and words of each; the apps draw them ----------------------------------

def _outcome_chart(sheet: Sheet, tables: Mapping[str, pd.DataFrame]) -> Chart:
    """Probability of each net result of one deal for the sheet's seat."""
    r = sheet.result
    seat = 1 if r.variant.bank.banked else 0
    dist = r.distribution()
    keep = dist[f"p_{seat}"] > 0
    frame = pd.DataFrame({"x": dist["net"][keep], "probability": dist[f"p_{seat}"][keep]})
    who = "a player seat" if seat else "a seat"
    return Chart(ChartKind.DISTRIBUTION, frame.reset_index(drop=True),
                 f"Net result per deal, {who} ({r.deals:,} deals)", "net result of one deal, units",
                 "probability", percent=True)


def _frequency_chart(sheet: Sheet, tables: Mapping[str, pd.DataFrame]) -> Chart:
    """How often each royalty hand is made and each natural is held (declared where paid), 95% CI;
    a royalty never made at its upper bound."""
    roy, nat = tables["royalties"], tables["naturals"]
    declared = "declared_frequency" in nat
    if declared:
        nat = nat.assign(estimate=nat["declared_frequency"])
        panel = "Naturals declared, per hand (95% CI)"
    else:
        nat = nat.assign(estimate=nat["held_frequency"], ci_low=nat["held_ci_low"], ci_high=nat["held_ci_high"])
        panel = "Natural hands held, per hand (none paid here; 95% CI)"
    nat = nat[nat["estimate"] > 0]
    frame = pd.concat([
        pd.DataFrame({"label": roy["royalty"], "estimate": roy["frequency"], "ci_low": roy["ci_low"],
                      "ci_high": roy["ci_high"], "panel": "Royalty hands made, per played hand (95% CI)"}),
        pd.DataFrame({"label": nat["natural"], "estimate": nat["estimate"], "ci_low": nat["ci_low"],
                      "ci_high": nat["ci_high"], "panel": panel})], ignore_index=True)
    return Chart(ChartKind.RATES, frame, xlabel="frequency (log scale)", percent=True)


def _session_chart(sheet: Sheet, tables: Mapping[str, pd.DataFrame]) -> Chart:
    return Chart(ChartKind.BANDS, tables["sessions"], "Session bands: N × mean ± z × SD × √N",
                 "hands in the session (log scale)", "result of the session, units")


def _banker_chart(sheet: Sheet, tables: Mapping[str, pd.DataFrame]) -> Chart:
    """The bank's house edge with 1, 2 and 3 player seats, 95% CI."""
    frame = tables["banker_by_seats"]
    seats = frame["player_seats"]
    return Chart(ChartKind.TREND, pd.DataFrame({
        "x": seats, "label": [f"{n} player{'s' if n > 1 else ''}" for n in seats],
        "estimate": frame["house_edge"], "ci_low": frame["ci_low"], "ci_high": frame["ci_high"]}),
        "The bank's edge against the number of seats (95% CI)", "players against the bank",
        "house edge per 3-unit wager", percent=True)


#: Chart name (as in a section's ``charts``) -> its numbers and words.
_CHARTS: dict[str, Callable[[Sheet, Mapping[str, pd.DataFrame]], Chart]] = {
    "outcomes": _outcome_chart, "frequencies": _frequency_chart, "sessions": _session_chart,
    "banker": _banker_chart}
