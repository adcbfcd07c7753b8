"""The open-face PAR sheet's content: rules with a worked hand, the strategy assumed and its
measured strength, outcomes, royalties, Fantasyland, position and the button (and table stakes and
matches where the rules have them: :mod:`.table_sections`), headline figures, operator economics,
session bands and method, every figure with its 95% interval (CASINO-MATH, "A PAR sheet").

:func:`build_sheet` (this game's ``par_sheet`` view, which :func:`cpstats.par_sheet` calls with its
options checked and its setter resolved) plays the run, the sensitivity sweeps (:mod:`.sweeps`)
and the strength match and returns an :class:`Sheet`, the sheet template
(:class:`~cpstats.engine.sheet.SheetContent`) filled with this game's sections (tables:
:mod:`.tables`; the worked hand: :mod:`.example`; charts as their numbers and words,
:meth:`Sheet.chart`). The apps number the sections, add the ones every game's sheet shares and
write the files (:mod:`cpstats.apps.par`).

- Decision: one live run with its rows (every board is needed for the pairs' outcomes, the rows'
  results and the royalties by hand; the shipped runs keep no boards, so they cannot fill these
  tables). By default its length is chosen for a designer's precision
  (:data:`~cpstats.ofc.game.DESIGNER_PRECISION`: Fantasyland entry and foul rates within +-0.5
  percentage points, royalties a board within +-0.1, 95% half-widths): the run grows in stages from
  2,000 hands (:func:`~cpstats.engine.sequential.run_until`, each stage the fixed-length run of
  its seed, so the sheet is exactly the run of the length it stopped at) to at most 30,000, and the
  sheet states what it reached, or that the cap came first (:attr:`Sheet.precision`, the
  headline section and the methodology). With ``fast``, the verb's default, the whole sheet takes a
  few minutes on 2 cores (docs/measurements.md#bench_ofc_precision); ``deals=`` plays exactly that
  many hands and the sheet states the half-widths they give.
- Decision: two precision levels (:func:`precision_levels`): the designer's above, the default, and
  a submission's (:data:`SUBMISSION`: Fantasyland entry and foul rates within +-0.2 points,
  royalties a board within +-0.04, a Fantasyland hand's value within +-0.2, the SD within +-0.08
  units and the hit frequency within +-0.2 points, at most 150,000 hands; about 85,000 hands, and
  about 40 minutes on 2 shared cores, most of them in the sensitivity sweeps, which replay the
  sheet's hands at each point). At a
  submission's precision the strength table grows too, each field until its interval is within
  +-0.5 units a hand (at most 3,000 hands a seat), so the fields are told apart.
- Decision: the sensitivity section is on by default (:mod:`.sweeps`): the charge and two rule
  numbers that move play, a step either side, every point on the sheet's own deals and hands.
- Decision: the strategy's strength is a short duplicate match (:func:`cpstats.ofc.skill.skill_table`)
  of the sheet's strategy against greedy and random fields, :data:`STRENGTH_DEALS` hands a seat.
- Decision: the hourly figures use the variant's own pace (``rake.hands_per_hour``, which is
  :data:`cpstats.rules.house.HANDS_PER_HOUR` unless a time rake sets it), as the CLI and the
  dashboard do.
"""

from __future__ import annotations

import dataclasses
import itertools
import tempfile
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cpstats.cards.blocks import root_seed
from cpstats.engine.describe import describe_rules, short_label
from cpstats.engine.games import runs_of
from cpstats.engine.sequential import run_until, until_record
from cpstats.engine.sheet import Chart, ChartKind, ParSection, ParTable, PrecisionLevel, SheetContent, SheetProgress
from cpstats.ofc.par.table_sections import table_sections
from cpstats.errors import OptionError, check_whole
from cpstats.ofc.par import sweeps as sweeps_
from cpstats.ofc.par.example import worked_hand
from cpstats.ofc.par.tables import (Boards, boards_of, charge_models, fantasyland_table, headline, house_table,
                                    pair_outcomes, royalty_table, row_results, session_bands)
from cpstats.ofc.placement import DEFAULT_SAMPLES, DEFAULT_TOP, strategy_note
from cpstats.ofc.result import SimulationResult
from cpstats.ofc.rules import Variant
from cpstats.ofc.setters import as_ofc_setter
from cpstats.ofc.skill import OFC_SKILL_FIELDS
from cpstats.ofc.street_values import models_line

__all__ = ["Sheet", "build_sheet", "precision_words", "precision_levels", "STRENGTH_DEALS", "SUBMISSION"]

#: Hands a seat of each duplicate match that measures the strategy's strength (a submission's
#: precision grows them: :data:`SUBMISSION`).
STRENGTH_DEALS = 100
#: What a regulator's submission is played to (module docstring): 95% half-widths of the headline
#: figures, the run's cap, and the strength table's own target.
SUBMISSION = PrecisionLevel("submission", {"fl_entry_rate": 0.002, "foul_rate": 0.002, "royalty": 0.04,
                                           "fl_value": 0.2, "sd": 0.08, "hit_frequency": 0.002},
                            most=150_000, pilot=2_000, strength=0.5, strength_most=3_000,
                            expected="about 85,000 hands; about 40 minutes on 2 cores with the sensitivity "
                                     "sweeps (at most 150,000 hands)")


def precision_levels(v: Variant) -> dict[str, PrecisionLevel]:
    """The designer's precision (the game's, :attr:`~cpstats.engine.games.GameRuns.precision`, its
    strength table :data:`STRENGTH_DEALS` hands a seat) and a submission's (:data:`SUBMISSION`)."""
    p = runs_of(v).precision
    designer = PrecisionLevel("designer", dict(p.targets), p.most, p.pilot, strength_pilot=STRENGTH_DEALS,
                              expected="a few minutes on 2 cores")
    return {"designer": designer, "submission": dataclasses.replace(SUBMISSION, strength_pilot=STRENGTH_DEALS)}


@dataclass
class Sheet(SheetContent):
    """An open-face PAR sheet, from one :class:`SimulationResult` (``tables``: ``"rules"``,
    ``"example_boards"``, ``"strength"``, ``"pair_outcomes"``, ``"row_results"``, ``"royalties"``,
    ``"fantasyland"``, ``"headline"``, ``"house"``, ``"charge_models"``, ``"sessions"``,
    ``"methodology"``); ``strategy`` is who placed the boards, ``boards`` the run's boards,
    ``strength`` the strength match (:meth:`prepare`), ``executor`` what runs its blocks."""

    variant: Variant
    result: SimulationResult
    strategy: str = "rollout"
    boards: Boards | None = None
    strength: pd.DataFrame | None = None
    executor: Executor | None = None

    @property
    def setter_words(self) -> str:
        return f"{self.strategy} ({strategy_note(self.strategy, self.result.metadata.get('street_models'))})"

    @property
    def played_by(self) -> str:
        return f"placed by {self.setter_words}"

    @property
    def baseline_note(self) -> str:
        return "" if self.strategy in ("rollout", "fast") else f" · placed by {self.strategy}, a baseline"

    @property
    def sensitivity_intro(self) -> str:
        return ("The house charge and two rule numbers that move play (the Fantasyland cards dealt and the "
                "front QQ royalty, the Fantasyland entry hand), each at this variant's value and a small step "
                "either side; a variant that charges nothing is shown a percent rake of the points won at 0, "
                "2.5% and 5%. The figures are those a designer reads: foul and Fantasyland entry rates, "
                "royalties a board, the value of a Fantasyland hand, and the charge where one is levied.")

    def moving_note(self, sweeps: Mapping[str, pd.DataFrame]) -> str:
        first = next(iter(sweeps.values())).attrs
        return (f", one play at every point ({first['play']}: one street-model file conditioned on each "
                "point's rules), the first point of each sweep being this sheet's own run and the charge's "
                "points its hands charged again (a charge never moves play)")

    def prepare(self, progress: SheetProgress) -> None:
        """The strength match: the sheet's strategy against every field but rollout
        (:data:`STRENGTH_DEALS` hands a seat, duplicate), each field grown until its interval
        meets the level's strength target where the level sets one."""
        level = self.levels.get(self.level) if self.level else None
        self.strength = _grown_strength(self, level, progress)

    @property
    def summary_names(self) -> list[str]:
        return ["mean_seat0", "hit_frequency", "push_rate", "sd"]

    def strength_half_width(self) -> float | None:
        if self.strength is None:
            return None
        return float(((self.strength["ci_high"] - self.strength["ci_low"]) / 2).max())

    def rules_section(self) -> ParSection:
        return _rules_section(self)

    def strategy_section(self) -> ParSection:
        return _strategy_section(self, self.strength)

    def outcome_section(self) -> ParSection:
        return _outcome_section(self.variant, self.boards)

    def pay_sections(self) -> list[ParSection]:
        return [_royalty_section(self.variant, self.boards), _fantasyland_section(self.result, self.boards),
                *table_sections(self.result)]

    def headline_section(self) -> ParSection:
        return _headline_section(self)

    def economics_section(self) -> ParSection:
        return _economics_section(self, self.boards)

    def session_section(self) -> ParSection:
        return _session_section(self)

    def methodology_items(self) -> list[tuple[str, Any]]:
        return _method_items(self)

    def chart(self, name: str, tables: Mapping[str, pd.DataFrame]) -> Chart:
        return _CHARTS[name](tables)


def _live_run(v: Variant, deals: int | None, setter: Any, root: np.random.SeedSequence,
              executor, progress: SheetProgress, later: int,
              level: PrecisionLevel) -> tuple[SimulationResult, Boards]:
    """The sheet's run with its rows: ``deals`` hands, or (None) grown in stages until ``level``'s
    targets or its cap (each stage writes its rows to a folder of its own; the last one's are read).
    ``progress`` hears each stage; ``later`` is the hands the sensitivity sweeps play a hand of the run."""
    from cpstats.ofc.simulation import simulate

    with tempfile.TemporaryDirectory(prefix="cpstats-ofc-par-") as tmp:
        if deals is not None:
            progress.plan("sweeps", later * deals)
            progress.playing("run", f"the run, placed by {setter.name}", deals)
            result = simulate(v, deals, setter=setter, rng=root, executor=executor, out=tmp, keep_hands=True)
        else:
            stages = itertools.count(1)
            p = level

            def with_rows(w: Variant, n: int, **options: Any) -> SimulationResult:
                stage = next(stages)
                progress.plan("sweeps", later * n)  # as if this stage were the last
                progress.playing("run", f"the run, placed by {setter.name}, stage {stage} (grown until the "
                                f"{p.name} precision, at most {p.most:,} hands)", n)
                return simulate(w, n, out=Path(tmp) / f"stage-{stage}", keep_hands=True, **options)

            result = run_until(with_rows, v, p.most, p.targets, rng=root, setter=setter, executor=executor,
                               pilot=p.pilot)
        boards = boards_of(result)
    result.out = None
    return result, boards


#: The precision levels' figures in words and the scale their half-widths are shown on.
_PRECISION_WORDS = {"fl_entry_rate": ("Fantasyland entry", 100, " points"), "foul_rate": ("foul", 100, " points"),
                    "royalty": ("royalties a board", 1, ""), "fl_value": ("Fantasyland value", 1, ""),
                    "sd": ("SD", 1, ""), "hit_frequency": ("hit frequency", 100, " points")}
#: How a sentence names each level's precision.
_LEVEL_WORDS = {"designer": "a designer's precision", "submission": "a submission's precision"}


def _widths(half: dict) -> str:
    shown = [(m, half[m]) for m in _PRECISION_WORDS if m in half]
    return ", ".join(f"{_PRECISION_WORDS[m][0]} ±{w * _PRECISION_WORDS[m][1]:.2f}{_PRECISION_WORDS[m][2]}"
                     if w is not None and np.isfinite(w) else f"{_PRECISION_WORDS[m][0]} (no interval)"
                     for m, w in shown)


def precision_words(sheet: Sheet) -> str:
    """The sheet's precision in one sentence: the target and what was reached (or that the cap
    came first), or for a run of given length the half-widths it gives."""
    p = sheet.levels.get(sheet.level) or precision_levels(sheet.variant)["designer"]
    target = _widths(dict(p.targets))
    hands = sheet.result.deals
    if sheet.precision is None:
        f = sheet.result.figures().set_index("metric")
        half = {m: float(f.at[m, "ci_high"] - f.at[m, "ci_low"]) / 2 for m in p.targets}
        return (f"Hands: {hands:,}, as asked; at this length (95% half-widths) {_widths(half)}. By default the "
                f"sheet plays until {target}.")
    stop = sheet.precision
    chosen = (f"Hands: {hands:,}, chosen for {_LEVEL_WORDS[p.name]}, {target} (95% half-widths), the run "
              f"grown in stages from {p.pilot:,} hands to at most {stop['max_deals']:,}")
    if stop["reached"]:
        return f"{chosen}: reached, {_widths(stop['half_widths'])}."
    guess = stop["note"].split("; about ")[-1] if "; about " in stop["note"] else ""
    return (f"{chosen}: not reached, the cap of {stop['max_deals']:,} hands came first, at which "
            f"{_widths(stop['half_widths'])}" + (f"; about {guess}" if guess else "") + ".")


def build_sheet(v: Variant, *, setter: Any, hands_per_hour: float, progress: SheetProgress,
                sweeps: Callable[[Any], list[tuple[str, list]]], deals: int | None = None, rng: Any = 2026,
                result: SimulationResult | None = None, executor: Executor | None = None,
                sensitivity_deals: int | None = None, seat_deals: Any = None,
                precision: str | None = None) -> Sheet:
    """The open-face sheet of ``v`` (the verb :func:`cpstats.par_sheet` checked its options and
    resolved its setter): ``result`` must be a run of ``v`` with rows (``keep_hands=True`` and
    ``out=``); ``deals`` None grows the run to ``precision``'s level (None: the designer's,
    :func:`precision_levels`; module docstring);
    ``sweeps(setter)`` are the sensitivity sweeps (:func:`~.sweeps.run_sensitivity`), each point
    on the sheet's own deals unless ``sensitivity_deals`` names another length (every point then
    played afresh on the sheet's seed); ``seat_deals`` (a bank's table) does not apply. With
    ``result``, the sensitivity points are played as it was (its strategy, on its seed).
    ``progress`` hears each stage."""
    player = as_ofc_setter(setter)
    name = player.name
    specs = sweeps(player)
    levels = precision_levels(v)
    level = None if result is not None or deals is not None else (precision or "designer")
    progress.plan("strength", _strength_hands(v, STRENGTH_DEALS))
    seed = rng
    if result is None:
        root = root_seed(seed)
        if deals is not None:
            check_whole("deals", deals, 2, "an interval needs two")
        reuse = sensitivity_deals is None or sensitivity_deals == deals
        if not reuse:
            progress.plan("sweeps", sensitivity_deals * sweeps_.played_points(v, specs, reuse=False))
        later = sweeps_.played_points(v, specs) if reuse else 0
        result, boards = _live_run(v, deals, player, root, executor, progress, later, levels[level or "designer"])
    elif result.variant != v:
        raise OptionError(f"result is of {result.variant}, not of {v}: pass a run of the sheet's variant")
    else:
        progress.step(f"the run: {result.deals:,} hands, the result given")
        boards = boards_of(result)
        name = result.metadata["strategy"].split("/")[0].split("(")[0]
        player = as_ofc_setter(name)
        root = np.random.SeedSequence(int(result.metadata["entropy"]),
                                      spawn_key=tuple(result.metadata["spawn_key"]))
    sheet = Sheet(v, result, hands_per_hour, short_label(v), seed=seed,
                  precision=until_record(result.metadata, "hands"), level=level, levels=levels, strategy=name,
                  boards=boards, executor=executor)
    sheet.sweeps = sweeps_.run_sensitivity(v, result, boards.net, specs, setter=player, root=root, executor=executor,
                                           hands_per_hour=hands_per_hour, deals=sensitivity_deals,
                                           progress=progress) if specs else {}
    return sheet


def _strength_hands(v: Variant, deals: int, fields: int = len(OFC_SKILL_FIELDS) - 1) -> int:
    """The hands of the strength match: a run a seat of ``fields`` fields (every field but rollout's)."""
    return fields * v.players * deals


def _rules_section(sheet: Sheet) -> ParSection:
    v = sheet.variant
    seed = sheet.seed if isinstance(sheet.seed, int) else 2026
    ex = worked_hand(v, sheet.strategy, seed)
    rules = pd.DataFrame(describe_rules(v), columns=["rule", "in words"])
    return ParSection("The rules", [
        f"{sheet.label}: variant string {v}. One unit is one point of the scoring; all figures are in "
        "units unless they say otherwise. Each player builds a board of three rows (front 3 cards, "
        "middle 5, back 5) face up, street by street; the back must be at least the middle and the "
        "middle at least the front, or the board fouls.",
        f"Worked hand: one deck dealt from seed {seed}, nobody in Fantasyland, every board placed by "
        f"{sheet.setter_words}. Each pair compares its rows one by one; a row won pays "
        f"{v.scoring.row}, all three {v.scoring.scoop} more, and royalties are paid on top. Each "
        "seat's net is the sum over its pairs."],
        [ParTable("rules", "The rules in words", rules),
         ParTable("example_boards", "Worked hand: the boards, row by row", ex["boards"]),
         ParTable("example_pairs", "Worked hand: each pair settled row by row (points to the first seat)",
                  ex["pairs"]),
         ParTable("example_net", "Worked hand: each seat's net (before rake) and rake", ex["net"])])


# -- the strategy and its strength --------------------------------------------------------------

def _strength(sheet: Sheet, deals: int, executor, fields: list[str] | None = None) -> pd.DataFrame:
    """The sheet's strategy against ``fields`` (None: every field but rollout), ``deals`` hands a
    seat (duplicate)."""
    from cpstats.ofc.skill import skill_table

    fields = [f for f, _ in OFC_SKILL_FIELDS if f != "rollout"] if fields is None else fields
    return skill_table(sheet.variant, deals=deals, rng=sheet.seed if isinstance(sheet.seed, int) else 2026,
                       executor=executor, fields=fields, setter="fast" if sheet.strategy == "fast" else "ev")


def _grown_strength(sheet: Sheet, level: PrecisionLevel | None, progress: SheetProgress) -> pd.DataFrame:
    """The strength table: :data:`STRENGTH_DEALS` hands a seat, then, where ``level`` sets a strength
    target, each field whose interval is wider played again on more hands (the ``1/sqrt(hands)``
    law, 10% over, at least 1.5x), until every field meets it or ``level.strength_most``; each row
    is the field's run at the length it stopped at."""
    n = STRENGTH_DEALS
    fields = [f for f, _ in OFC_SKILL_FIELDS if f != "rollout"]
    table, stage = None, 0
    while fields:
        stage += 1
        progress.playing("strength", f"the strength table: {sheet.strategy} against {len(fields)} field"
                         f"{'s' * (len(fields) > 1)}, {n:,} hands a seat (duplicate)"
                         + (f", stage {stage} (grown until each field is within ±{level.strength:g})"
                            if level is not None and level.strength else ""),
                         _strength_hands(sheet.variant, n, len(fields)))
        part = _strength(sheet, n, sheet.executor) if table is None else _strength(sheet, n, sheet.executor, fields)
        if table is None:
            table = part
        else:
            attrs = dict(table.attrs)
            table = pd.concat([table.drop(index=part.index), part]).loc[[f for f in table.index]]
            table.attrs.update(attrs)
        if level is None or not level.strength or n >= level.strength_most:
            break
        half = (part["ci_high"] - part["ci_low"]) / 2
        wide = half[~(half <= level.strength)]
        if wide.empty:
            break
        ratio = float(np.nanmax((wide / level.strength) ** 2)) if np.isfinite(wide).any() else 4.0
        n = int(min(level.strength_most, max(np.ceil(1.1 * n * ratio), np.ceil(1.5 * n))))
        fields = list(wide.index)
    table.attrs["strength_target"] = None if level is None else level.strength
    return table


def _strategy_section(sheet: Sheet, strength: pd.DataFrame) -> ParSection:
    meta = sheet.result.metadata
    text = [f"Every board is placed by {sheet.setter_words}."]
    play = meta.get("play", "")
    models = play.split("street models ")[-1] if "street models " in play else "none"  # the run's own record
    if sheet.strategy == "rollout":
        text.append(f"rollout scores each street's best {DEFAULT_TOP} options by Monte Carlo rollouts "
                    f"of the unseen cards ({DEFAULT_SAMPLES} samples an option, successive halving), "
                    "finishing each rollout by hindsight; the last two streets are decided exactly "
                    "(expectimax over every draw of the last street's cards); "
                    + ("the earlier streets are decided by one deal of lookahead valued by street models "
                       "learned from exact-endgame self-play over rule draws around the presets, conditioned on "
                       "this variant's rules; " if not models.startswith("none") else
                       "the street models cannot be read, so the earlier streets are decided by the "
                       "rollouts alone (rollout-exact's play); ")
                    + "it values a Fantasyland "
                    "entry at the fixed point of the exact-endgame rollouts' own play, and a Fantasyland hand is set "
                    "by an exact solver. It is the strategy that plays the game well, so the figures "
                    "describe the game; how strong it is: the table below, and this run's own foul, "
                    "Fantasyland and royalty rates (sections 3 to 5).")
        if "street_models" in meta:
            text.append(models_line(meta["street_models"]))
    elif sheet.strategy == "fast":
        text.append("fast places each street by the street models of the default rollout without rollouts (the "
                    "option whose board its street's model values best); the last two streets are decided exactly. "
                    "Its strength against the fields: the table below.")
        if "street_models" in meta:
            text.append(models_line(meta["street_models"]))
    else:
        text.append(f"Baseline: {sheet.strategy} is a weak strategy; these figures describe a field "
                    "of such players, not the game as played well.")
    interval, player = strength.attrs["interval"], strength.attrs["player"]
    target = strength.attrs.get("strength_target")
    strength = strength.reset_index()[["field", "label", "mean", "ci_low", "ci_high", "deals"]]
    strength = strength.rename(columns={"deals": "hands"})
    low, high = int(strength["hands"].min()), int(strength["hands"].max())
    hands = f"{low:,} hands" if low == high else f"{low:,} to {high:,} hands (the table says each field's)"
    grown = (f"; each field played until its interval is within ±{target:g} units a hand, at most "
             f"{sheet.levels[sheet.level].strength_most:,} hands" if target else "")
    text.append(f"Its strength: {player} against a greedy, a random, a rollout-v1 (the first rollout) and a "
                f"rollout-exact field (the previous default, without street models), {hands} with "
                f"{player} in each seat in turn on the same decks (duplicate){grown}; its mean net per hand "
                f"with a 95% interval ({interval}).")
    rows = [("Strategy", meta.get("strategy", sheet.strategy)), ("Rollout options a street", DEFAULT_TOP),
            ("Rollout samples an option", DEFAULT_SAMPLES), ("Street models (SHA-256, first 12 digits)", models),
            ("Fantasyland setter", "exact solver"),
            ("Burn-in hands a block", meta.get("burn_in", "-"))]
    frame = pd.DataFrame([(k, str(x)) for k, x in rows], columns=["item", "value"])
    return ParSection("The strategy assumed", text,
                      [ParTable("strategy", "Strategy", frame),
                       ParTable("strength", f"Measured strength: {player}'s mean net per hand against "
                                "each field (duplicate, 95% CI)", strength)], ["strength"])


# -- outcomes, royalties, Fantasyland ----------------------------------------------------------

def _outcome_section(v: Variant, boards: Boards) -> ParSection:
    text = ["Each outcome of a pair of players, pooled over every ordered pair (both sides): its "
            "probability (95% CI), average pay and contributions to the mean (p × pay) and to the "
            "variance (p × E[(pay − mean)² | outcome]); they add up to 1, the mean (0: the game is "
            "zero-sum before rake) and the variance of a pair's result. Fouls on each side come first "
            "and last: a fouled board loses every row and earns no royalty.",
            "Each row's result between two players: won, tied or lost where both boards are clean, "
            "or decided by a foul."]
    return ParSection("Outcomes", text,
                      [ParTable("pair_outcomes", "Outcomes per pair of players", pair_outcomes(v, boards)),
                       ParTable("row_results", "Row results per pair of players", row_results(boards))],
                      ["outcomes"])


def _royalty_section(v: Variant, boards: Boards) -> ParSection:
    text = ["Every hand the variant pays a royalty for, by row: how often a board is paid it (all "
            "boards, Fantasyland ones too; a fouled board is paid none), its royalty, the units it pays "
            "a board on average and its share of all royalty units paid. A hand never made shows 0 "
            "with its 95% upper bound."]
    return ParSection("Royalties", text, [ParTable("royalties", "Royalties by row and hand",
                                                      royalty_table(v, boards))], ["royalties"])


def _fantasyland_section(r: SimulationResult, boards: Boards) -> ParSection:
    text = ["Fantasyland: a clean board whose front qualifies enters, and its next hand is dealt at "
            "once; the stay rule keeps a Fantasyland player there. Entry is per normal board, stay per "
            "Fantasyland board; the value is the mean result of a Fantasyland hand less that of a "
            "normal hand (a stay's next hand counts as a hand of its own)."]
    return ParSection("Fantasyland", text, [ParTable("fantasyland", "Fantasyland entry, stay and "
                                                        "value", fantasyland_table(r, boards))])


# -- headline, economics, sessions, method -------------------------------------------------------

def _headline_section(sheet: Sheet) -> ParSection:
    text = ["The headline figures per board or seat, with 95% intervals; the volatility index is "
            "1.645 × SD, the SD being that of one seat's result per hand (batch means on per-batch "
            "variances).", precision_words(sheet)]
    return ParSection("Headline figures", text, [ParTable("headline", "Headline figures",
                                                             headline(sheet.result))])


def _economics_section(sheet: Sheet, boards: Boards) -> ParSection:
    pace = sheet.hands_per_hour
    text = [f"At {pace:g} hands an hour (the variant's pace: a time rake's own, else the one default "
            "of both games). The house's charge is reported apart from the nets, which it never "
            "changes; its share is that of the points won (the sum of the winning seats' nets)."]
    return ParSection("Operator economics", text,
                      [ParTable("house", "This variant's house charge", house_table(sheet.result, pace)),
                       ParTable("charge_models", "Typical charges at this table",
                                charge_models(boards, pace),
                                intro="What typical cardroom charges would cost a seat at this table, "
                                      "charged on the run's own nets (rake never moves play):")])


def _session_section(sheet: Sheet) -> ParSection:
    bands = session_bands(sheet.result, sheet.hands_per_hour)
    text = ["A session of N hands ends within N × mean ± z × SD × √N with the stated chance "
            f"(z = 1.645 for 90%, 1.96 for 95%); the mean is after the seat's rake, the {bands.attrs['sd']}."]
    return ParSection("Session bands", text, [ParTable("sessions", "Session bands", bands)], ["sessions"])


def _method_items(sheet: Sheet) -> list[tuple[str, Any]]:
    meta = sheet.result.metadata
    batches = meta.get("batches", "?")
    items = [("Method", "Simulated (Monte Carlo): hands dealt street by street, placed by the strategy, "
                        "settled pair by pair"),
             ("Variant", str(sheet.variant)), ("Hands", f"{sheet.result.deals:,}"),
             ("Precision", precision_words(sheet).removeprefix(f"Hands: {sheet.result.deals:,}, ")),
             ("Strategy", meta.get("strategy", sheet.strategy)),
             ("Root seed (entropy)", str(meta.get("entropy"))),
             ("Blocks", f"{int(meta.get('block_deals', 0)):,} hands; block i uses SeedSequence child i, "
                        f"after {meta.get('burn_in', '?')} uncounted burn-in hands (Fantasyland carries "
                        "over within a block)"),
             ("Batches", f"{batches} equal batches of consecutive hands"),
             ("Means and ratios", f"Student's t on the {batches} batches' linearised ratios"),
             ("SD", "batch means on the per-batch variances, Student's t"),
             ("Frequencies", "pooled over seats or pairs: Student's t on the batch means of the pooled "
                             "rate; rare ones (under 10 events a batch) Wilson score interval"),
             ("Worked hand and strength", f"seed {sheet.seed}; strength by duplicate matches")]
    return items


# -- charts: the numbers and words of each; the apps draw them ----------------------------------

def _outcome_chart(tables: Mapping[str, pd.DataFrame]) -> Chart:
    """Each outcome of a pair of players: probability with its 95% interval."""
    frame = tables["pair_outcomes"]
    return Chart(ChartKind.INTERVALS, pd.DataFrame({
        "label": frame["description"], "estimate": frame["probability"], "ci_low": frame["ci_low"],
        "ci_high": frame["ci_high"]}), "Outcomes of a pair of players",
        "probability, per pair of players and hand (95% CI)", percent=True)


def _royalty_chart(tables: Mapping[str, pd.DataFrame]) -> Chart:
    """How often a board is paid each royalty hand, by row, 95% CI (log scale)."""
    frame = tables["royalties"]
    frame = frame[frame["frequency"] > 0]
    return Chart(ChartKind.RATES, pd.DataFrame({
        "label": [f"{r} {h}" for r, h in zip(frame["row"], frame["royalty"])], "estimate": frame["frequency"],
        "ci_low": frame["ci_low"], "ci_high": frame["ci_high"], "group": frame["row"]}).reset_index(drop=True),
        "Royalties by row and hand", "boards paid the royalty (log scale, 95% CI)", percent=True)


def _strength_chart(tables: Mapping[str, pd.DataFrame]) -> Chart:
    """The sheet's strategy's mean net per hand against each field, 95% CI."""
    frame = tables["strength"]
    return Chart(ChartKind.INTERVALS, pd.DataFrame({
        "label": frame["label"], "estimate": frame["mean"], "ci_low": frame["ci_low"], "ci_high": frame["ci_high"]}),
        "The strategy assumed, against each field", "mean net per hand, units (duplicate, 95% CI)", zero=True)


def _session_chart(tables: Mapping[str, pd.DataFrame]) -> Chart:
    return Chart(ChartKind.BANDS, tables["sessions"], "Session bands: N × mean ± z × SD × √N",
                 "hands in the session (log scale)", "result of the session, units")


#: Chart name (as in a section's ``charts``) -> its numbers and words.
_CHARTS: dict[str, Callable[[Mapping[str, pd.DataFrame]], Chart]] = {
    "outcomes": _outcome_chart, "royalties": _royalty_chart, "strength": _strength_chart,
    "sessions": _session_chart}
