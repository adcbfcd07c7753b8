"""A math report's parts, below the games, so that a game's package says what its report holds
and the apps write it without naming the game (:func:`cpstats.apps.report.write_report`).

- :class:`ReportChart`: one chart as data, the frame a kind of chart of
  :mod:`cpstats.apps.plots` draws;
- :class:`ReportTable`: one table with the heading it is printed under (a table never
  stands without one);
- :class:`ReportContent`: the report's title label, its sections in reading order and its charts
  by file name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from cpstats.errors import OptionError

__all__ = ["ReportChart", "ReportTable", "ReportContent"]


@dataclass(frozen=True)
class ReportChart:
    """A chart of a report: its ``kind`` (``"naturals"``, ``"royalties"``, ``"net_distribution"``,
    ``"sd_by_variant"``, ``"rake_burden"``: the :mod:`cpstats.apps.plots` function that draws it
    and the columns of ``frame`` it reads) and, when given, its ``title``."""

    kind: str
    frame: pd.DataFrame
    title: str | None = None


@dataclass(frozen=True)
class ReportTable:
    """A table of a report under its ``caption`` (what the table shows, its basis and unit where
    the columns do not say them); ``words`` marks a table of sentences, read left to right."""

    caption: str
    frame: pd.DataFrame
    words: bool = False

    def __post_init__(self) -> None:
        if not self.caption.strip():
            raise OptionError("a report table needs a caption: say what it shows")


@dataclass(frozen=True)
class ReportContent:
    """What a report says: ``label`` names the game in its heading; ``sections`` are (title,
    text, tables) in reading order, a text's paragraphs split by blank lines and a paragraph
    ``![words](file.png)`` showing the chart of that file, ``tables`` a sequence of
    :class:`ReportTable` (or None) printed after the text; ``charts`` map each file name to its
    chart; ``caption`` is added under every chart's title (who played, how many deals), so a
    chart handed on alone still says it."""

    label: str
    sections: Sequence[tuple[str, str, Sequence[ReportTable] | None]]
    charts: Mapping[str, ReportChart] = field(default_factory=dict)
    caption: str = ""

    def __post_init__(self) -> None:
        for title, _, tables in self.sections:
            if tables is not None and not all(isinstance(t, ReportTable) for t in tables):
                raise OptionError(f"section {title!r}: its tables must be ReportTable objects "
                                  "(a table is printed under its caption)")
