"""The parts of a PAR sheet of either game: its tables and sections (:class:`ParTable`,
:class:`ParSection`), and the pace of its hourly figures (:func:`check_pace`). The 13-card sheet
(:mod:`cpstats.apps.par`) and the open-face one (:mod:`cpstats.apps.par.open_face`) are made of them
and written by one renderer (:mod:`cpstats.apps.par.render`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.engine.stats import z_value

__all__ = ["ParTable", "ParSection", "check_pace", "session_band_rows"]


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
