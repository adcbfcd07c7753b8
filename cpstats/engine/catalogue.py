"""The catalogue of figures: every figure a result, verb or view reports, declared once.

A :class:`Figure` is a name with its meaning (one plain sentence), unit, scope (whose figure it
is: a seat, a hand, a pair of hands, a row, a board, the table), basis (before or after the
house's charges, or the house's take itself), kind, interval method and display format. A name
stands for a family where it holds a placeholder (``mean_seat{seat}``, ``scoop_rate_hand{a}_vs_hand{b}``).

The figures both games report are declared here (:data:`SHARED`): one name, one meaning, in
every game. Each game declares its own figures in its package and lists them in its
registration (``GameRuns.figures``: :class:`Figure` objects, or names of :data:`SHARED`);
:func:`figure_catalogue` gathers them all. "Rake" is the house's whole take (rake, time fee,
commission, fees), as casino mathematics reports the rake burden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

import pandas as pd

from cpstats.errors import OptionError
from cpstats.rules.check import invalid, suggest

__all__ = ["Figure", "SHARED", "UNITS", "SCOPES", "BASES", "KINDS", "INTERVALS", "DISPLAYS", "figures_of",
           "figure_catalogue", "find_figure", "of_the_play",
           "resolve_figures"]

#: Units a figure is given in.
UNITS = ("units", "units squared", "units an hour", "share", "hands", "count", "number")
#: Whose figure it is.
SCOPES = ("seat", "position", "hand", "pair", "row", "board", "table", "match", "run")
#: Before the house's charges (the play's alone), after them (a player's result less its share), the
#: house's take itself, or none (a count, a parameter, a probability of a deal).
BASES = ("before charges", "after charges", "house", "none")
#: What kind of statistic it is.
KINDS = ("mean", "sd", "variance", "rate", "ratio", "probability", "moment", "index", "count", "parameter")
#: How its interval is made.
INTERVALS = ("batch t", "batch t (variances)", "wilson", "exact", "none")
#: How a view prints it: units with decimals, a percent, "1 in N" for a rare event, a count.
DISPLAYS = ("units", "percent", "one in n", "count", "decimal")

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Figure:
    """One figure (or family of figures, ``{...}`` in its name), as every view names and prints it."""

    name: str
    meaning: str
    unit: str
    scope: str
    basis: str
    kind: str
    interval: str
    display: str
    label: str = ""  #: the words a view prints, where the name's own words do not read ("fl" ...)

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*(\{\w+\}[a-z0-9_]*)*", self.name):
            raise invalid("name", self.name, "lower-case words joined by _, with {placeholders} for a family")
        if not self.meaning.strip():
            raise invalid("meaning", self.meaning, "one plain sentence")
        for field, allowed in (("unit", UNITS), ("scope", SCOPES), ("basis", BASES), ("kind", KINDS),
                               ("interval", INTERVALS), ("display", DISPLAYS)):
            value = getattr(self, field)
            if value not in allowed:
                raise invalid(field, value, f"one of {', '.join(allowed)}")

    @cached_property
    def pattern(self) -> re.Pattern:
        """The names this figure stands for (a family's placeholders match any word)."""
        parts = _PLACEHOLDER.split(self.name)
        return re.compile("".join(re.escape(p) if i % 2 == 0 else rf"(?P<{p}>[a-z0-9_]+?)" for i, p in enumerate(parts))
                          + "$")

    def pattern_values(self, name: str) -> dict[str, str]:
        """A family member's placeholder values in words: ``mean_seat0`` -> ``{"seat": "0"}``,
        ``royalty_rate_front_trips`` -> ``{"royalty": "front trips"}``."""
        found = self.pattern.match(name)
        return {} if found is None else {k: v.replace("_", " ") for k, v in found.groupdict().items()}

    @property
    def family(self) -> bool:
        return "{" in self.name

    def matches(self, name: str) -> bool:
        return self.name == name or (self.family and self.pattern.match(name) is not None)



#: Figures both games report, declared once: the same name means the same thing in every game.
SHARED: dict[str, Figure] = {f.name: f for f in (
    Figure("mean_seat{seat}", "a seat's mean result per hand before house charges (0 by symmetry where the seats "
           "are exchangeable: the position's own edge otherwise)", "units", "seat", "before charges", "mean",
           "batch t", "units", "mean per hand, seat {seat}"),
    Figure("sd_seat{seat}", "the SD of a seat's result per hand before house charges", "units", "seat",
           "before charges", "sd", "batch t (variances)", "units", "SD per hand, seat {seat}"),
    Figure("hit_frequency_seat{seat}", "the share of a seat's hands that win money (result above 0)", "share",
           "seat", "before charges", "rate", "batch t", "percent", "hit frequency, seat {seat}"),
    Figure("push_rate_seat{seat}", "the share of a seat's hands that break even (result exactly 0)", "share",
           "seat", "before charges", "rate", "batch t", "percent", "push rate, seat {seat}"),
    Figure("sd", "the SD of a player's result per hand before house charges (the mean over the player seats)",
           "units", "seat", "before charges", "sd", "batch t", "units", "SD per hand"),
    Figure("sd_after_charges", "the SD of a player's result per hand after house charges: its result less its "
           "share of the house's take (the mean over the player seats)", "units", "seat", "after charges", "sd",
           "batch t", "units", "SD per hand after house charges"),
    Figure("mean_after_charges", "a player's mean result per hand after house charges (the mean over the player "
           "seats)", "units", "seat", "after charges", "mean", "batch t", "units", "mean per hand after house charges"),
    Figure("mean_after_charges_seat{seat}", "a seat's mean result per hand after house charges: its result less "
           "its share of the house's take", "units", "seat", "after charges", "mean", "batch t", "units", "mean per hand after house charges, seat {seat}"),
    Figure("sd_after_charges_seat{seat}", "the SD of a seat's result per hand after house charges", "units",
           "seat", "after charges", "sd", "batch t (variances)", "units", "SD per hand after house charges, seat {seat}"),
    Figure("hit_frequency", "the share of players' hands that win money (all player seats pooled)", "share",
           "seat", "before charges", "rate", "batch t", "percent", "hit frequency (hands that win money)"),
    Figure("push_rate", "the share of players' hands that break even (all player seats pooled)", "share",
           "seat", "before charges", "rate", "batch t", "percent", "push rate (hands that break even)"),
    Figure("foul_rate", "the share of hands set fouled (rows out of order)", "share", "hand", "before charges",
           "rate", "batch t", "percent", "foul rate"),
    Figure("scoop_rate", "the share of pairs of hands in which the first wins all three rows from the other",
           "share", "pair", "before charges", "rate", "batch t", "percent", "scoop rate (per pair of hands)"),
    Figure("volatility_index", "the volatility index of a player: z (90%, 1.645) times the SD per hand before "
           "house charges (the mean over the player seats)", "units", "seat", "before charges", "index", "batch t",
           "units", "volatility index (1.645 SD)"),
    Figure("rake_per_seat_per_hand", "the house's take per hand a seat pays on average (rake, time fee, "
           "commission, fees)", "units", "seat", "house", "mean", "batch t", "units", "rake per seat per hand"),
    Figure("rake_per_seat_per_hour", "the house's take a seat pays per hour at the table's pace", "units an hour",
           "seat", "house", "mean", "batch t", "units", "rake per seat-hour"),
    Figure("rake_share", "the house's take as a share of the gross amount won", "share", "table", "house",
           "ratio", "batch t", "percent", "rake share of the amount won"),
)}


def figures_of(runs) -> tuple[Figure, ...]:
    """A game's figures (its ``GameRuns.figures``): names of :data:`SHARED` resolved."""
    return resolve_figures(runs.figures)


def resolve_figures(items) -> tuple[Figure, ...]:
    """Figures and names of :data:`SHARED` (a game's declaration) as figures."""
    out = []
    for item in items:
        if isinstance(item, str):
            if item not in SHARED:
                raise OptionError(f"figure {item!r} is not a shared figure: {suggest(item, list(SHARED))}")
            out.append(SHARED[item])
        else:
            out.append(item)
    return tuple(out)


def of_the_play(name: str, figures: Iterable[Figure]) -> bool:
    """Whether figure ``name`` is the play's alone (basis "before charges" in ``figures``): two
    variants that differ only in what the house charges give it exactly equal on common deals."""
    figure = find_figure(name, figures)
    return figure is not None and figure.basis == "before charges"


def find_figure(name: str, figures: Iterable[Figure]) -> Figure | None:
    """The figure ``name`` is (an exact name before a family's pattern), or None."""
    figures = tuple(figures)
    exact = next((f for f in figures if f.name == name), None)
    return exact or next((f for f in figures if f.family and f.matches(name)), None)


def figure_catalogue() -> pd.DataFrame:
    """Every figure of every registered game: ``name``, ``meaning``, ``unit``, ``scope``, ``basis``,
    ``kind``, ``interval``, ``display``, ``label`` (the words a view prints where the name's own do
    not read; empty: the name's words) and ``games`` (the games that report it, comma-separated).

    A name declared by two games must be one figure (the same meaning, unit, scope and basis):
    a game that reports a shared figure names it from :data:`SHARED` rather than declaring it again.

    Examples
    --------
    >>> from cpstats import figure_catalogue
    >>> table = figure_catalogue().set_index("name")
    >>> table.loc["sd_after_charges", ["unit", "basis"]].tolist()
    ['units', 'after charges']
    """
    from cpstats.engine.registry import GAMES

    rows: dict[str, dict] = {}
    for game_name, game in GAMES.items():
        for figure in figures_of(game.runs):
            row = rows.get(figure.name)
            mine = {k: getattr(figure, k) for k in ("meaning", "unit", "scope", "basis", "kind", "interval",
                                                    "display", "label")}
            if row is None:
                rows[figure.name] = {"name": figure.name, **mine, "games": [game_name]}
                continue
            clash = [k for k in ("meaning", "unit", "scope", "basis") if row[k] != mine[k]]
            if clash:
                raise OptionError(f"figure {figure.name!r} means two things: {row['games'][0]} and {game_name} "
                                  f"differ in its {', '.join(clash)}; declare it once (engine.catalogue.SHARED)")
            row["games"].append(game_name)
    frame = pd.DataFrame(list(rows.values()), columns=["name", "meaning", "unit", "scope", "basis", "kind",
                                                       "interval", "display", "label", "games"])
    frame["games"] = frame["games"].map(", ".join)
    return frame.sort_values("name", kind="stable").reset_index(drop=True)
