"""Open face in the dashboard: the tab's content (:data:`DASHBOARD_TAB`), which the dashboard's
rule explorer (:class:`cpstats.apps.widgets.open_face.OpenFaceApp`) shows: the choices a designer
changes, the variant they describe (:func:`ofc_variant`) and the shipped run that plays it.

- Decision: picking Fantasyland cards other than the preset's sets the cards dealt on a stay to
  those of a QQ entry (progressive Pineapple deals its entry size, 14, on a stay).
- Decision: one royalty entry is edited at a time (any key of the royalty table); the others
  stay the preset's.
- Decision: ``rollout`` is the strategy of every figure that describes a game (good play);
  ``greedy`` and ``random`` are offered as baselines and named so wherever their figures appear.
- Decision: the table rules (rulebook section 7) are three controls: the button (rotate, the
  presets' default, or fixed, with ``button.fantasyland=hold``, the one a fixed button takes), the
  buy-in (none, 50, 100, 200 or any whole number typed) and the match (none or round; the rake
  stays per hand).
  When the rules play them, their figures are two small tables under the main one
  (:data:`TABLE_SECTIONS`: "Position" and "Stakes and matches", each figure under its catalogue
  label, rows only for figures the run has), with one line from the interval of the value of
  acting last (:func:`cpstats.ofc.table_figures.acting_last_line`): more than acting first, less, or no difference shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from cpstats.engine.catalogue import find_figure, resolve_figures
from cpstats.engine.figures_text import catalogue_labels
from cpstats.engine.views import DashboardTab
from cpstats.errors import OptionError
from cpstats.ofc.catalogue import FIGURES
from cpstats.ofc.charts import FIGURE_CHARTS, FigureCharts
from cpstats.ofc.rules import COMPARED, KEYS, Deal, Variant, get_preset
from cpstats.ofc.table_figures import POSITIONS, STAKES_NAMES, acting_last_line, position_names
from cpstats.rules.check import invalid

__all__ = ["DASHBOARD_TAB", "RuleChoices", "ofc_variant", "STRATEGY_LABELS", "FANTASY_CHOICES", "STAY_CHOICES",
           "ROYALTY_KEYS", "royalty_words", "royalty_value", "player_choices", "TypedVariants", "BUTTON_CHOICES",
           "BUY_IN_CHOICES", "MATCH_CHOICES", "table_rule_values", "TABLE_SECTIONS"]

#: What each placement strategy is, as the apps name it.
STRATEGY_LABELS = {"rollout": "rollout (good play)", "greedy": "greedy (baseline: a weak field)",
                   "random": "random (baseline: no skill)"}
#: Fantasyland deals offered: label -> cards for QQ/KK/AA/trips ("" = the preset's).
FANTASY_CHOICES = {"the preset's": "", "13 cards (classic)": "13/13/13/13",
                   "14 cards (Pineapple)": "14/14/14/14",
                   "14/15/16/17 (progressive)": "14/15/16/17", "no Fantasyland": "0/0/0/0"}
ROYALTY_KEYS = tuple(k.name for k in KEYS if k.name.startswith("royalties."))
#: The stay rules in words (OFC-FL-STAY-A, OFC-FL-STAY-B), valued as the variant string writes them.
STAY_CHOICES = (("A: trips front, middle FH+ or back quads+", "A"),
                ("B: trips front or quads+ back", "B"), ("none: never stays", "none"))
#: The button (OFC-BUTTON) in words, valued as the variant string writes it.
BUTTON_CHOICES = (("rotate: the first to act moves round", "rotate"), ("fixed: seat 0 acts first", "fixed"))
#: The buy-ins offered (OFC-STAKES, points a player brings); any whole number may be typed.
BUY_IN_CHOICES = ("none", "50", "100", "200")
#: The match (OFC-MATCH) in words, valued as the variant string writes it.
MATCH_CHOICES = (("none: hands one after another", "none"), ("round: the button goes round once", "round"))

_POSITIONS = (*dict.fromkeys(p for names in POSITIONS.values() for p in names[:-1]), "last")
_SECTION_NAMES = {"Position": position_names(_POSITIONS), "Stakes and matches": STAKES_NAMES}


def _format(figure) -> str:
    """How the tab prints a figure of its sections: a percent, a signed mean, or a number."""
    if figure.display == "percent":
        return "{:.1%}"
    return "{:+.2f}" if figure.kind == "mean" and figure.basis != "none" and figure.basis != "house" else "{:.2f}"


#: The figures of the table rules, shown under the main table: section title -> metric -> (catalogue
#: label, format), in the order shown; a run shows the rows its rules play.
TABLE_SECTIONS = {title: {m: (label, _format(find_figure(m, resolve_figures(FIGURES)))) for m, label in
                          catalogue_labels(names, resolve_figures(FIGURES)).items()}
                  for title, names in _SECTION_NAMES.items()}


def royalty_words(key: str) -> str:
    """``royalties.front.QQ`` -> ``front QQ``: the royalty entry a designer reads."""
    return key.removeprefix("royalties.").replace(".", " ").replace("_", " ")


def royalty_value(v: Variant, key: str) -> int:
    """The units the royalty entry ``key`` pays under ``v``."""
    return int(next(k for k in KEYS if k.name == key).read(v.to_dict()))


def player_choices(v: Variant) -> tuple[int, ...]:
    """The seats ``v``'s deal can hold: the classic deal 2 to 4, Pineapple 2 or 3."""
    return (2, 3, 4) if v.deal is Deal.CLASSIC else (2, 3)


def table_rule_values(v: Variant) -> dict[str, str]:
    """The table rules' controls set to ``v``'s: ``button``, ``buy_in`` and ``match`` as offered."""
    buy_in = "none" if v.stakes.buy_in is None else str(v.stakes.buy_in)
    return {"button": v.button.moves.value, "buy_in": buy_in, "match": v.match.format.value}


def _buy_in(text: str | int | None) -> int | float | None:
    """A buy-in as offered or typed (``"none"``, ``""`` or None: no limit); the rules check the number."""
    if text is None or str(text).strip().lower() in ("", "none"):
        return None
    try:
        number = float(str(text).strip())
    except ValueError:
        raise invalid("stakes.buy_in", str(text), "expected a whole number of points or none") from None
    return int(number) if number.is_integer() else number


def ofc_variant(preset: str, *, players: int | None = None, fantasy: str = "", stay: str | None = None,
                royalty: tuple[str, int] | None = None, rake: Any = None, button: str | None = None,
                buy_in: str | int | None = None, match: str | None = None) -> Variant:
    """The variant the explorer's controls describe: ``preset`` with ``players``, Fantasyland
    cards (``fantasy``, ``"14/15/16/17"``; ``""`` the preset's), the ``stay`` rule (A, B, none),
    one royalty entry (``(key, amount)``), the ``rake`` (a :class:`~cpstats.rules.house.Rake`),
    the ``button`` (rotate, fixed; None the preset's), the ``buy_in`` (points, typed or not;
    ``"none"``) and the ``match`` (none, round; None the preset's); invalid choices raise
    ``OptionError``."""
    import dataclasses

    v = get_preset(preset)
    over: dict[str, Any] = {}
    if button is not None and button != v.button.moves.value:
        over["button"] = button
        if button == "fixed":
            over["button.fantasyland"] = "hold"
    if buy_in is not None and _buy_in(buy_in) != v.stakes.buy_in:
        over["stakes.buy_in"] = _buy_in(buy_in)
    if match is not None and match != v.match.format.value:
        over["match"] = match
    if players is not None and players != v.players:
        over["players"] = players
    if fantasy:
        over["fantasyland.cards"] = fantasy
        qq = int(fantasy.split("/")[0])
        if qq and qq != v.fantasyland.stay_cards:
            over["fantasyland.stay_cards"] = qq
    if stay is not None and stay != v.fantasyland.stay.value:
        over["fantasyland.stay"] = stay
    if royalty is not None:
        key, amount = royalty
        if key not in ROYALTY_KEYS:
            raise OptionError(f"royalty={key!r} is invalid: a key of the royalty table, e.g. "
                              "royalties.front.QQ")
        over[key] = amount
    v = v.replace(**{k.replace(".", "__"): x for k, x in over.items()}) if over else v
    return v if rake is None else dataclasses.replace(v, rake=rake)


def _find_shipped(v: Variant, strategy: str) -> Any:
    from cpstats.ofc.shipped import find_ofc_reference

    return find_ofc_reference(v, strategy)


@dataclass(frozen=True)
class RuleChoices:
    """What the rule explorer reads of open face: the strategies in words, the choices of each
    control (the table rules' too: ``button``, ``buy_in``, ``match``, set to a variant's by
    ``table_rules``), the variant they describe, the shipped run that plays it (None: play it
    live), what its charts show (``charts``), the figures shown under the main table
    (``sections``) and the line said of them (``note``)."""

    strategies: Mapping[str, str]
    fantasy: Mapping[str, str]
    stay: tuple[tuple[str, str], ...]
    royalty_keys: tuple[str, ...]
    royalty_words: Callable[[str], str]
    royalty_value: Callable[[Any, str], int]
    players: Callable[[Any], tuple[int, ...]]
    variant: Callable[..., Any]
    find: Callable[[Any, str], Any]
    shipped: str = "shipped run (cpstats/data/reference/ofc)"
    charts: FigureCharts = FIGURE_CHARTS
    button: tuple[tuple[str, str], ...] = BUTTON_CHOICES
    buy_in: tuple[str, ...] = BUY_IN_CHOICES
    match: tuple[tuple[str, str], ...] = MATCH_CHOICES
    table_rules: Callable[[Any], dict[str, str]] = table_rule_values
    sections: Mapping[str, Mapping[str, tuple[str, str]]] = field(default_factory=lambda: TABLE_SECTIONS)
    note: Callable[[Any, pd.DataFrame], str] = acting_last_line


@dataclass(frozen=True)
class TypedVariants:
    """What the comparer reads of open face: the game switch's word (``switch``), that its
    variants are typed as strings (``kind``), the hands a variant offered (``hands``), the
    setter dropdown's choices (``setters``, words and value: ``ev`` plays rollout), each
    setter's words (``setter_labels``) and what the differences chart shows (``charts``)."""

    switch: str
    hands: tuple[int, ...]
    setters: tuple[tuple[str, str], ...]
    setter_labels: Mapping[str, str]
    kind: str = "typed"
    charts: FigureCharts = FIGURE_CHARTS


#: Open face's part of the dashboard: its rule explorer, and what the comparer opens on.
DASHBOARD_TAB = DashboardTab(
    title="Open face", app="rules",
    content=RuleChoices(strategies=STRATEGY_LABELS, fantasy=FANTASY_CHOICES, stay=STAY_CHOICES,
                        royalty_keys=ROYALTY_KEYS, royalty_words=royalty_words, royalty_value=royalty_value,
                        players=player_choices, variant=ofc_variant, find=_find_shipped),
    opens={"rules": "ofc-pineapple", "compare": COMPARED},
    apps={"compare": TypedVariants(
        switch="open face", hands=(100, 200, 500, 1_000, 2_000, 5_000), setter_labels=STRATEGY_LABELS,
        setters=(("rollout (good play)", "ev"), ("greedy (baseline: a weak field)", "greedy"),
                 ("random (baseline: no skill)", "random")))})
