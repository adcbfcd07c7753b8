"""The parts of a PAR sheet of either game: its tables and sections (:class:`ParTable`,
:class:`ParSection`), and the pace of its hourly figures (:func:`check_pace`). The 13-card sheet
(:mod:`cpstats.apps.par`) and the open-face one (:mod:`cpstats.apps.ofc_par`) are made of them
and written by one renderer (:mod:`cpstats.apps.par_render`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from cpstats.errors import OptionError

__all__ = ["ParTable", "ParSection", "check_pace"]


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
    """One section: a title, paragraphs, tables and chart names (see ``par_render.CHARTS``)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[ParTable] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)


def check_pace(hands_per_hour: Any, v: Any) -> float:
    """The sheet's hands an hour: ``hands_per_hour``, or the variant's own (``rake.hands_per_hour``,
    :data:`cpstats.rules.house.HANDS_PER_HOUR` unless a time rake sets it)."""
    pace = v.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
    if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not math.isfinite(pace) or pace <= 0:
        raise OptionError(f"hands_per_hour={hands_per_hour!r} is invalid: a pace above 0 hands an hour")
    return float(pace)
