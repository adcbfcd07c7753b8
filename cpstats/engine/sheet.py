"""A PAR sheet's parts, below the games, so that a game's package builds its sheet's content and the
apps render it without naming the game.

- :class:`ParTable`, :class:`ParSection` and :class:`Chart`: the sheet as data (a chart is its
  numbers, a kind and its words; :mod:`cpstats.apps.par.charts` draws every kind).
- :class:`SheetContent`: what a game fills, the one template of every game's sheet: who played the
  hands, the seven sections in reading order (rules, strategy, outcomes, what the game pays beyond
  the rows, headline figures, operator economics, session bands), the methodology's items, what its
  sensitivity sweeps say, and the charts its sections name. The apps number the sections and add
  the ones every game's sheet shares (sensitivity, methodology, "How this rule was chosen").
- :class:`PrecisionLevel` and :func:`check_precision`: the named precisions a sheet is played to
  (``designer``, ``submission``), each game stating its own targets (:attr:`SheetContent.levels`).
- :func:`check_pace`, :func:`session_band_rows`, :func:`charge_parameter` and :func:`words`:
  helpers both games' sheets use.

A game registers its builder (``par_sheet``, returning its :class:`SheetContent`) and its default
sweeps (``par_sweeps``) in its :class:`~cpstats.engine.views.GameViews`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.engine.base import Result
from cpstats.engine.registry import game_of
from cpstats.engine.stats import z_value
from cpstats.rules.house import RakeModel

__all__ = ["ParTable", "ParSection", "Chart", "ChartKind", "SheetContent", "SheetProgress", "check_pace",
           "session_band_rows", "charge_parameter", "words", "figure_rows", "FIGURE_COLUMNS", "PrecisionLevel",
           "PRECISION_LEVELS", "check_precision", "half_widths_of"]

#: The precision levels of a PAR sheet, loosest first: a designer's draft, and what a regulator's
#: submission is played to (CASINO-MATH, "A sheet for submission").
PRECISION_LEVELS = ("designer", "submission")

#: A sheet's table of figures: the catalogue name, its label, the estimate and interval, how the
#: sheet writes it (``unit``) and how its interval was made.
FIGURE_COLUMNS = ["name", "figure", "estimate", "ci_low", "ci_high", "unit", "method"]
#: How a sheet writes a figure (the ``unit`` its renderer reads), by the catalogue's display.
_SHEET_UNIT = {"percent": "share", "one in n": "probability", "count": "hands", "units": "units per hand",
               "decimal": "number"}

#: Proper nouns a label keeps capitalised in running text (:func:`words`).
_PROPER = frozenset({"Fantasyland"})


@dataclass(frozen=True)
class PrecisionLevel:
    """A named precision a sheet's run is played to: ``targets``, each headline figure's 95%
    half-width (figure name -> half-width, in the figure's own unit: a rate as a share); the run
    grows in stages from ``pilot`` deals (open face: hands) until every target is met, or ``most``;
    ``strength`` is the strength table's own target (every field's half-width, units a hand; None:
    ``strength_pilot`` hands a seat, fixed), grown to at most ``strength_most`` hands a seat;
    ``expected`` says how long the level takes on 2 cores."""

    name: str
    targets: Mapping[str, float]
    most: int
    pilot: int
    strength: float | None = None
    strength_pilot: int = 0
    strength_most: int = 0
    expected: str = ""

    def met(self, half_widths: Mapping[str, float | None]) -> bool:
        """Whether every target is met by ``half_widths`` (a figure missing or without an
        interval is not)."""
        return all(half_widths.get(m) is not None and np.isfinite(half_widths[m]) and half_widths[m] <= w + 1e-15
                   for m, w in self.targets.items())


def check_precision(precision: Any) -> str | None:
    """``precision`` as a level's name (None: the run's length is ``deals``, or the designer's)."""
    if precision is None:
        return None
    if not isinstance(precision, str) or precision.strip().lower() not in PRECISION_LEVELS:
        raise OptionError(f"precision={precision!r} is invalid: one of {', '.join(PRECISION_LEVELS)}")
    return precision.strip().lower()


@dataclass
class ParTable:
    """One table of the sheet: a key (``sheet.tables[key]``), its caption and the numbers; an
    ``intro`` sentence printed just before it (after the section's paragraphs and any tables
    before it) and a ``note`` after it."""

    key: str
    caption: str
    frame: pd.DataFrame
    note: str = ""
    intro: str = ""


@dataclass
class ParSection:
    """One section: a title, paragraphs, tables and the names of its charts (a name of
    :meth:`SheetContent.chart`, or ``sweep:<parameter>`` for a sensitivity sweep's chart)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[ParTable] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)


class ChartKind(StrEnum):
    """How a chart's frame is drawn; each kind names the columns it reads."""

    DISTRIBUTION = "distribution"  # x, probability: a bar a value
    INTERVALS = "intervals"  # label, estimate, ci_low, ci_high: a bar a row with its interval
    RATES = "rates"  # label, estimate, ci_low, ci_high (panel, group): points on a log scale
    TREND = "trend"  # x, label, estimate, ci_low, ci_high: points joined, each with its interval
    BANDS = "bands"  # who, hands, expected, low_90%, high_90%, low_95%, high_95%: session bands


@dataclass(frozen=True)
class Chart:
    """A chart as data: its ``kind`` (:class:`ChartKind`, which says the columns of ``frame`` it
    reads), a title and axis labels; ``percent`` draws the value axis as percentages, ``zero`` a
    line at 0. A :data:`ChartKind.RATES` frame may split its rows into stacked ``panel`` s (each
    titled by its value) and colour them by ``group`` (with a legend); a row whose estimate is 0
    is drawn at its upper bound, ``ci_high``."""

    kind: ChartKind
    frame: pd.DataFrame
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    percent: bool = False
    zero: bool = False


class SheetProgress(Protocol):
    """What a sheet's builder tells of its progress (:class:`cpstats.apps.par.progress.SheetProgress`):
    ``plan`` the hands a later stage plays, ``playing`` a stage or point that starts playing hands,
    ``step`` work that plays none, ``on_point`` the progress callback of a sweep's points."""

    unit: str

    def plan(self, stage: str, hands: int) -> None: ...

    def playing(self, stage: str, what: str, hands: int) -> None: ...

    def step(self, what: str) -> None: ...

    def on_point(self, key: str, values: Sequence, deals: int, known: Mapping[str, Any] | None = None) -> Any: ...


@dataclass
class SheetContent(ABC):
    """What a game's PAR sheet holds: one run (``result``) of ``variant``, the pace of its hourly
    figures, the seed its runs used, its sensitivity sweeps (keyed by parameter,
    :func:`cpstats.sweep` tables) and what a run grown to a precision reached
    (:func:`~cpstats.engine.sequential.until_record`; None for a run of given length).

    A game's builder plays what the sheet needs and returns its subclass; the apps call the hooks
    below in reading order (:func:`cpstats.apps.par.sheet.fill`). Section titles carry no number:
    the apps number them."""

    variant: Any
    result: Result
    hands_per_hour: float
    label: str
    seed: Any = None
    sweeps: dict[str, pd.DataFrame] = field(default_factory=dict)
    precision: dict | None = None
    level: str | None = None
    levels: Mapping[str, PrecisionLevel] = field(default_factory=dict)

    @property
    def unit(self) -> str:
        """What the sheet's run counts: its game's deals (open face: hands)."""
        return game_of(self.variant).unit

    # -- who played the hands ----------------------------------------------------------------

    @property
    @abstractmethod
    def played_by(self) -> str:
        """Who played the hands, in a few words (``set by ev (tables trained for 2-4, shipped)``)."""

    @property
    @abstractmethod
    def baseline_note(self) -> str:
        """What every page says when a baseline played the hands (empty for good play)."""

    @property
    def setter_words(self) -> str:
        """Who played the hands, without the verb (the command line's report)."""
        return self.played_by.split(" by ", 1)[-1]

    # -- the seven sections, in reading order ------------------------------------------------

    def prepare(self, progress: SheetProgress) -> None:
        """Play the runs the sections read beyond the sheet's own (none by default), telling
        ``progress``; called once, before the sections."""

    @abstractmethod
    def rules_section(self) -> ParSection:
        """The rules in words, with a worked hand."""

    @abstractmethod
    def strategy_section(self) -> ParSection:
        """The strategy assumed: who set the hands and how strong it is."""

    def bank_sections(self) -> list[ParSection]:
        """How the bank plays, after the strategy (a banked game's house way); none by default."""
        return []

    @abstractmethod
    def outcome_section(self) -> ParSection:
        """Each outcome's probability and its contributions to the mean and the variance."""

    @abstractmethod
    def pay_sections(self) -> list[ParSection]:
        """What the game pays beyond the rows (royalties, naturals, Fantasyland), one or more."""

    @abstractmethod
    def headline_section(self) -> ParSection:
        """The headline figures, each with its interval."""

    @abstractmethod
    def economics_section(self) -> ParSection:
        """The operator's figures at the sheet's pace."""

    @abstractmethod
    def session_section(self) -> ParSection:
        """The session bands."""

    @abstractmethod
    def methodology_items(self) -> list[tuple[str, Any]]:
        """How the figures were made, (item, value) in the game's words; the apps add the package
        versions and the command."""

    @abstractmethod
    def chart(self, name: str, tables: Mapping[str, pd.DataFrame]) -> Chart:
        """The chart ``name`` a section of this sheet names (not a sweep's), from the sheet's
        ``tables`` (by key)."""

    # -- the cover ---------------------------------------------------------------------------

    @property
    @abstractmethod
    def summary_names(self) -> list[str]:
        """The headline figures of the cover's summary line, by catalogue name, in order (a banked
        game: house edge per initial and per total wager, hit frequency, SD)."""

    def half_widths(self) -> dict[str, float | None]:
        """The 95% half-width of every figure a precision level targets, as the sheet's run gives
        it (None: no interval)."""
        return half_widths_of(self.result, [m for level in self.levels.values() for m in level.targets])

    def strength_half_width(self) -> float | None:
        """The widest half-width of the strength table's fields (None: the sheet has none)."""
        return None

    # -- what the sensitivity section says ---------------------------------------------------

    @property
    def sensitivity_intro(self) -> str:
        """The sensitivity section's first paragraph: which numbers and values it sweeps."""
        return ("The rule numbers a designer tunes, present in this variant (its house charge, then the "
                "numbers that move the setter), each at its own value and three around it (half, 1.5 "
                "and twice it, or steps of 1 from a small value); the figures are the headline ones.")

    def moving_note(self, sweeps: Mapping[str, pd.DataFrame]) -> str:
        """What the sensitivity section says of the points that play otherwise than the sheet's
        run (none by default: a game whose setter learns per rule says which)."""
        return ""


def half_widths_of(result: Result, names: Sequence[str]) -> dict[str, float | None]:
    """The 95% half-width of each figure of ``names`` in ``result``'s tidy figures
    (:func:`~cpstats.engine.lookup.figure_table`; None where it has no interval)."""
    from cpstats.engine.lookup import figure_table

    table = figure_table(result, 0.95).set_index("metric")
    out: dict[str, float | None] = {}
    for m in dict.fromkeys(names):
        half = float(table.at[m, "ci_high"] - table.at[m, "ci_low"]) / 2 if m in table.index else math.nan
        out[m] = half if np.isfinite(half) else None
    return out


def check_pace(hands_per_hour: Any, v: Any) -> float:
    """The sheet's hands an hour: ``hands_per_hour``, or the variant's own (``rake.hands_per_hour``,
    :data:`cpstats.rules.house.HANDS_PER_HOUR` unless a time rake sets it)."""
    pace = v.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
    if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not math.isfinite(pace) or pace <= 0:
        raise OptionError(f"hands_per_hour={hands_per_hour!r} is invalid: a pace above 0 hands an hour")
    return float(pace)


def session_band_rows(who: str, mean: float, sd: float, hands) -> list[dict]:
    """The session bands of one kind of seat, a row per session length ``n`` of ``hands``: the
    expected result ``n * mean`` and its 90% and 95% normal bands, ``n * mean -+ z * sd * sqrt(n)``
    (the sheets of both games)."""
    rows = []
    for n in hands:
        row = {"who": who, "hands": int(n), "expected": n * mean}
        for level in (0.90, 0.95):
            z = z_value(level)
            row[f"low_{level:.0%}"] = n * mean - z * sd * np.sqrt(n)
            row[f"high_{level:.0%}"] = n * mean + z * sd * np.sqrt(n)
        rows.append(row)
    return rows


def charge_parameter(v: Any) -> str | None:
    """The key of the number that sets ``v``'s house charge, which a sheet's sensitivity section
    sweeps first: a banked game's ``bank.fee`` when it charges one, else its ``bank.commission``;
    ``rake.percent`` of a percent rake; ``rake.amount`` of a fixed or time charge; None for rules
    that charge nothing (each game says what it sweeps then)."""
    bank = getattr(v, "bank", None)
    if bank is not None and bank.banked:
        return "bank.fee" if bank.fee > 0 else "bank.commission"
    if v.rake.model is RakeModel.PERCENT:
        return "rake.percent"
    if v.rake.model is not RakeModel.NONE:
        return "rake.amount"
    return None


def _sheet_unit(figure: Any) -> str:
    """The unit column of a sheet's row: the display's (a share, a probability, a count of hands),
    else the catalogue's unit, a hand's or a match's by the figure's scope."""
    if figure.display != "units":
        return _SHEET_UNIT[figure.display]
    if figure.unit in ("hands", "units an hour", "units squared", "number"):
        return figure.unit
    return "units per match" if figure.scope == "match" else "units per hand"


def figure_rows(rows: Sequence[tuple], catalogue: Sequence[Any]) -> pd.DataFrame:
    """A sheet's table of figures (:data:`FIGURE_COLUMNS`) from ``(name, estimate, low, high,
    method[, note])`` tuples: each labelled from the game's catalogue (its words and basis, its unit
    where not units a hand; ``note`` appended, "(the bank)"), written as the catalogue displays it.
    A name the catalogue does not know is refused: a sheet prints no figure the catalogue lacks."""
    from cpstats.engine.catalogue import find_figure
    from cpstats.engine.figures_text import figure_words, unit_words

    out = []
    for name, estimate, low, high, method, *note in rows:
        figure = find_figure(name, catalogue)
        if figure is None:
            raise OptionError(f"figure {name!r} is not in the catalogue: declare it (engine.catalogue)")
        label, unit = figure_words(figure, name), unit_words(figure)
        label = label[:1].upper() + label[1:] + (f" ({unit})" if unit and unit != "units" and unit not in label else "")
        out.append({"name": name, "figure": " ".join([label, *note]), "estimate": float(estimate),
                    "ci_low": float(low), "ci_high": float(high), "unit": _sheet_unit(figure),
                    "method": method})
    return pd.DataFrame(out, columns=FIGURE_COLUMNS)


def words(label: str) -> str:
    """A figure's or rule's label without its bracket, in running text: ``SD per hand`` and a
    proper noun (``Fantasyland entry``) keep their capitals.

    Examples
    --------
    >>> words("Scoop bonus (units)"), words("SD per hand (units)"), words("Fantasyland entry rate")
    ('scoop bonus', 'SD per hand', 'Fantasyland entry rate')
    """
    text = label.split(" (")[0]
    keep = text[1:2].isupper() or text.split(" ")[0] in _PROPER
    return text if keep else text[:1].lower() + text[1:]
