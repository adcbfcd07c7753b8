"""Rules in words: :func:`describe` writes a variant out line by line, :func:`short_label` names it
in a few words for a chart or a table, :func:`glossary` lists every rule ID.

All three read the names of :data:`cpstats.rules.rulebook.RULES`; numbers are written for reading
by :func:`format_number` (``1,000,000``, ``0.05``, never ``1e+06``). Each game registers its own
words (:class:`cpstats.engine.registry.Game`: ``describe_rules`` and ``short_label``; the 13-card
game's in :mod:`cpstats.thirteen.rules.words`, open face's in :mod:`cpstats.ofc.words`):
this module puts any game's variant in words through them, and holds what both share (numbers,
the house charge, the glossary).

- Decision: a short label is the preset's name followed by what differs from the preset, each
  in a few words (scoring, players, royalties, naturals, house rules, ordering and deal, in
  that order: ``"2-4, 5% rake capped 3"``); past
  ``max_parts`` changes it ends in ``"+N more"``. It never holds a variant string's
  parentheses or keys, so a chart built from it reads as words.
- Decision: :func:`describe` always writes its nine lines (scoring, royalties, naturals,
  surrender, mis-set, house charge, banking, players, ordering), plus one for the side bet and
  the chip limit when either is on, so two descriptions compare line by line.
"""

from __future__ import annotations

import math
from numbers import Real

import pandas as pd

from typing import Any

from cpstats.engine.registry import game_of, load_variant
from cpstats.rules.house import Rake, RakeModel
from cpstats.rules.rulebook import RULES, SECTIONS

__all__ = ["describe", "describe_rules", "short_label", "glossary", "format_number", "rake_text",
           "rake_label"]


# -- numbers ----------------------------------------------------------------------------------

def format_number(value: object, digits: int = 4, *, signed: bool = False) -> str:
    """A number written for reading: whole numbers with thousands separators (``1,000,000``),
    others to ``digits`` significant figures without trailing zeros and never in exponent form
    (``0.0000012``); NaN and None as an en dash, infinity as ``∞``, booleans as yes/no. Anything
    else is returned as ``str(value)``. ``signed`` writes a ``+`` before positive numbers.

    Examples
    --------
    >>> format_number(1e6), format_number(0.050), format_number(1234.5678), format_number(2.5e-7)
    ('1,000,000', '0.05', '1,235', '0.00000025')
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, Real):
        return str(value)
    x = float(value)
    if math.isnan(x):
        return "–"
    sign = "+" if signed and x > 0 else ""
    if math.isinf(x):
        return f"{'-' if x < 0 else sign}∞"
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e15:
        return f"{sign}{int(x):,}"
    decimals = min(max(digits - 1 - math.floor(math.log10(abs(x))), 0), 15)
    text = f"{x:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return sign + text


_n = format_number


def _percent(fraction: float) -> str:
    return f"{_n(100 * fraction, 3)}%"


# -- the house charge -------------------------------------------------------------------------

def rake_text(rake: Rake) -> str:
    """The house charge in words, e.g. ``"5% of the pot (the winning seats' nets), capped at 3
    units"``."""
    model = rake.model
    if model is RakeModel.NONE:
        text = "no house charge"
    elif model is RakeModel.FIXED_TABLE:
        text = f"{_n(rake.amount)} units a hand from the table"
    elif model is RakeModel.FIXED_PLAYER:
        text = f"{_n(rake.amount)} units per player a hand"
    elif model is RakeModel.TIME:
        text = (f"time charge of {_n(rake.amount)} units per player an hour "
                f"({_n(rake.hands_per_hour)} hands an hour)")
    else:
        text = f"{_percent(rake.percent)} of the pot (the winning seats' nets)"
        if rake.cap is not None:
            text += f", capped at {_n(rake.cap)} units"
        if rake.threshold:
            text += f", on pots of {_n(rake.threshold)} units or more"
    if rake.jackpot_drop:
        text += f"; plus a jackpot drop of {_n(rake.jackpot_drop)} units a hand"
    return text


def rake_label(rake: Rake) -> str:
    """The house charge in a few words for a chart: ``"5% rake capped 3"``, ``"table rake
    0.5/hand"``, ``"seat rake 0.1/hand"``, ``"time fee 6/seat-hour"``, ``"no rake"``."""
    model = rake.model
    if model is RakeModel.NONE:
        text = "no rake"
    elif model is RakeModel.FIXED_TABLE:
        text = f"table rake {_n(rake.amount)}/hand"
    elif model is RakeModel.FIXED_PLAYER:
        text = f"seat rake {_n(rake.amount)}/hand"
    elif model is RakeModel.TIME:
        text = f"time fee {_n(rake.amount)}/seat-hour"
    else:
        text = f"{_percent(rake.percent)} rake"
        text += f" capped {_n(rake.cap)}" if rake.cap is not None else ""
        text += f" on pots of {_n(rake.threshold)}+" if rake.threshold else ""
    return text + (f" + {_n(rake.jackpot_drop)} jackpot drop" if rake.jackpot_drop else "")


# -- any game's rules in words ---------------------------------------------------------------

def describe_rules(variant: Any) -> list[tuple[str, str]]:
    """The rules of ``variant`` (any game) as ``(rule, words)`` pairs, one per line of
    :func:`describe`: the words its game registered."""
    v = load_variant(variant)
    return game_of(v).describe_rules(v)


def describe(variant: Any) -> str:
    """The rules of ``variant`` in words: a heading (its short label and variant string), then
    one short line per rule (see :func:`describe_rules`).

    Examples
    --------
    >>> print(describe("2-4(rake=percent,rake.percent=0.05,rake.cap=3)"))  # doctest: +ELLIPSIS
    2-4, 5% rake capped 3  [2-4(rake=percent,rake.percent=0.05,rake.cap=3)]
    scoring:      2-4 (SC-2-4): 1 per row won; 1 more to whoever wins two or three rows; ...
    ...
    house charge: 5% of the pot (the winning seats' nets), capped at 3 units
    ...
    >>> print(describe("ofc-pineapple(fantasyland.stay=A)").splitlines()[0])
    ofc-pineapple, stay rule A  [ofc-pineapple(fantasyland.stay=A)]
    """
    v = load_variant(variant)
    lines = describe_rules(v)
    width = max(len(rule) for rule, _ in lines) + 2
    return "\n".join([f"{short_label(v)}  [{v}]",
                      *(f"{rule + ':':<{width}}{words}" for rule, words in lines)])


def short_label(variant: Any, *, max_parts: int | None = 4) -> str:
    """A short readable label of ``variant`` (any game) for charts and tables: its name, then what
    differs from the preset of that name in a few words each, e.g. ``"2-4, 5% rake capped 3"``,
    ``"1-6, TW royalties, 3 players"``. Past ``max_parts`` changes the label ends in
    ``"+N more"`` (``None``: every change). Never holds parentheses or ``key=value`` text.

    Examples
    --------
    >>> short_label("2-4(rake=percent,rake.percent=0.05,rake.cap=3)")
    '2-4, 5% rake capped 3'
    >>> short_label("1-6(royalties=R-TW,players=3)")
    '1-6, 3 players, TW royalties'
    >>> short_label("ofc-pineapple(players=3,royalties.front.QQ=9)")
    'ofc-pineapple, 3 players, front QQ pays 9'
    """
    v = load_variant(variant)
    return game_of(v).short_label(v, max_parts)


# -- the glossary -----------------------------------------------------------------------------

def glossary() -> pd.DataFrame:
    """Every rule ID the package implements: ``id``, ``name``, ``short`` (its chart label),
    ``description`` (one line), ``section`` (number) and ``section_name``, in rulebook order.
    The docs' glossary page is built from this table (or from :data:`~cpstats.rules.rulebook.RULES`).
    """
    rows = [{"id": rule, "name": info.name, "short": info.short, "description": info.description,
             "section": info.section, "section_name": SECTIONS[info.section]}
            for rule, info in RULES.items()]
    return pd.DataFrame(rows).sort_values("section", kind="stable").reset_index(drop=True)

