"""A PAR sheet ready to read and write, any game's: :func:`fill` fills the one template every
game's sheet follows from what the game built (its :class:`~cpstats.engine.sheet.SheetContent`),
and :class:`ParSheet` holds the numbered sections, draws the charts and writes the HTML and PDF.

The template, in reading order: the cover (:mod:`cpstats.apps.par.cover`: the game, the rules' and
the run's identity, the precision reached, a summary line, the certification and sign-off), the game's seven sections (the rules with a worked hand, the
strategy assumed, the outcomes, what the game pays beyond the rows, the headline figures, the
operator's economics, the session bands), then the sections every game's sheet shares, written
once here: the sensitivity sweeps (:mod:`cpstats.apps.par.sensitivity`) and the methodology (the
game's items, the assumptions a regulator reads, then the package versions and the command); "How this rule was chosen" joins a
solved rule's sheet (:meth:`ParSheet.add_solution`).
"""

from __future__ import annotations

import dataclasses
import datetime
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from cpstats._atomic import writable_file
from cpstats.apps.par.cover import Cover, cover_of
from cpstats.apps.par.progress import SheetProgress, as_progress
from cpstats.apps.par.sensitivity import sensitivity_section
from cpstats.engine.base import Result
from cpstats.engine.registry import game_of
from cpstats.engine.sheet import Chart, ParSection, ParTable, SheetContent

__all__ = ["ParSheet", "fill", "versions"]


def versions() -> dict[str, str]:
    """The package versions this sheet is written with (its methodology records them)."""
    import matplotlib
    import numba
    import numpy as np

    from cpstats._version import __version__

    return {"cpstats": __version__, "numpy": np.__version__, "numba": numba.__version__,
            "pandas": pd.__version__, "matplotlib": matplotlib.__version__,
            "Python": platform.python_version()}


@dataclass
class ParSheet:
    """A PAR sheet: the sections in reading order, built from one run (``result``) of ``variant``.

    ``tables`` maps each table's key (``"headline"``, ``"royalties"``, ``"sessions"``,
    ``"methodology"``...) to its DataFrame; ``sweeps`` holds the sensitivity section's sweeps, keyed
    by parameter (:func:`cpstats.sweep` tables); ``seed`` is the seed the sheet's runs used;
    ``precision`` what a run grown to a precision reached
    (:func:`~cpstats.engine.sequential.until_record`; None for a run of given length);
    ``played_by``, ``setter_words`` and ``baseline_note`` say who played the hands; ``charts`` are
    the game's charts as data, by the name a section gives (:meth:`chart` draws them); ``cover``
    the cover (:class:`~cpstats.apps.par.cover.Cover`: its ``status`` is ``DRAFT`` below a
    submission's precision).
    """

    variant: Any
    result: Result
    hands_per_hour: float
    sections: list[ParSection]
    label: str
    played_by: str
    setter_words: str
    baseline_note: str = ""
    seed: Any = None
    sweeps: dict[str, pd.DataFrame] = field(default_factory=dict)
    precision: dict | None = None
    charts: dict[str, Chart] = field(default_factory=dict)
    cover: Cover | None = None

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        return {t.key: t.frame for s in self.sections for t in s.tables}

    @property
    def unit(self) -> str:
        """What the sheet's run counts: its game's deals (open face: hands)."""
        return game_of(self.variant).unit

    @property
    def subtitle(self) -> str:
        return (f"Variant {self.variant} · {self.result.deals:,} {self.unit} · {self.played_by} · "
                f"{datetime.date.today():%d %B %Y}")

    @property
    def footer(self) -> str:
        return f"cpstats PAR sheet · {self.label}{self.baseline_note}"

    def chart(self, name: str) -> Any:
        """The figure of chart ``name`` (a name in a section's ``charts``): ``sweep:<parameter>``
        is the sensitivity chart of one of :attr:`sweeps`, any other name one of :attr:`charts`."""
        from cpstats.apps.par.charts import draw, sweep_chart

        if name.startswith("sweep:"):
            return sweep_chart(self.sweeps[name.removeprefix("sweep:")])
        return draw(self.charts[name])

    def to_html(self, path: str | Path) -> Path:
        """Write the sheet as one self-contained HTML file (charts inlined); returns the path."""
        from cpstats.apps.par.render import write_html

        return write_html(self, writable_file("path", path))

    def to_pdf(self, path: str | Path) -> Path:
        """Write the sheet as an A4 PDF (matplotlib's PDF backend); returns the path."""
        from cpstats.apps.par.render import write_pdf

        return write_pdf(self, writable_file("path", path))

    def write(self, folder: Path, *, progress: Any = None) -> None:
        """Write ``par.html`` and ``par.pdf`` to ``folder``, each whole or not at all, a
        progress line each (``progress``: :func:`~cpstats.apps.par.progress.as_progress`)."""
        tracker = as_progress(progress, self.unit)
        for name, write in (("par.html", self.to_html), ("par.pdf", self.to_pdf)):
            tracker.step(f"writing {Path(folder) / name}")
            write(Path(folder) / name)

    def add_solution(self, solution: Any) -> None:
        """Add the "How this rule was chosen" section of a :func:`cpstats.solve` answer whose
        variant is this sheet's (:mod:`cpstats.apps.par.solution`)."""
        from cpstats.apps.par.solution import solution_section

        title, paragraphs, table = solution_section(solution, self.variant)
        self.sections.append(ParSection(title, paragraphs, [ParTable(*table)]))


def fill(content: SheetContent, progress: SheetProgress) -> ParSheet:
    """The sheet of a game's ``content``: its runs for the sections played
    (:meth:`~cpstats.engine.sheet.SheetContent.prepare`), its seven sections in reading order,
    then the sensitivity section and the methodology, numbered; its charts described from the
    tables."""
    content.prepare(progress)
    progress.step("the tables and charts")
    game = [content.rules_section(), content.strategy_section(), *content.bank_sections(), content.outcome_section(),
            *content.pay_sections(), content.headline_section(), content.economics_section(),
            content.session_section()]
    sections = [dataclasses.replace(s, title=f"{i}. {s.title}") for i, s in enumerate(game, 1)]
    sections.append(sensitivity_section(content, f"{len(sections) + 1}. Sensitivity"))
    sections.append(_methodology_section(content, f"{len(sections) + 1}. Methodology",
                                         content.methodology_items()))
    tables = {t.key: t.frame for s in sections for t in s.tables}
    charts = {name: content.chart(name, tables) for s in sections for name in s.charts
              if not name.startswith("sweep:")}
    return ParSheet(content.variant, content.result, content.hands_per_hour, sections, content.label,
                    played_by=content.played_by, setter_words=content.setter_words,
                    baseline_note=content.baseline_note, seed=content.seed, sweeps=content.sweeps,
                    precision=content.precision, charts=charts, cover=cover_of(content, tables["headline"]))


def _assumptions(content: SheetContent) -> list[tuple[str, Any]]:
    """The assumptions a regulator reads the figures under: who plays, the pace, the confidence,
    the precision and how numbers are rounded."""
    level = content.levels.get(content.level) if content.level else None
    precision = ("a run of given length (the cover states the half-widths it gives)" if level is None else
                 f"{level.name}: the run grown in stages from {level.pilot:,} {content.unit} until every target "
                 f"on the cover is met, at most {level.most:,} {content.unit}"
                 + (f"; expected time {level.expected}" if level.expected else ""))
    return [("Assumption: strategy", f"every hand {content.played_by}; the figures describe a table of such "
                                     "players, and a player who plays otherwise has other figures"),
            ("Assumption: pace", f"{content.hands_per_hour:g} hands an hour (the hourly figures scale with it)"),
            ("Assumption: intervals", "95% confidence throughout; a stated interval is the simulation's "
                                      "uncertainty, not a player's session range (the session bands give that)"),
            ("Assumption: precision", precision),
            ("Rounding", "figures are shown rounded for reading (three decimals of a unit, two of a percent, "
                         "rare events as 1 in N to three digits); every figure is computed, and the results "
                         "digest taken, at full precision")]


def _methodology_section(content: SheetContent, title: str, items: Sequence[tuple[str, Any]]) -> ParSection:
    """The methodology: how the figures were made (``items``, the game's words), the assumptions,
    then the package versions of the run and of this sheet and the command that made the run."""
    meta = content.result.metadata
    run = {k: meta[k] for k in ("cpstats", "numpy", "numba", "pandas", "scipy") if k in meta}
    rows = [*items, *_assumptions(content)]
    for who, names in {"the run": run, "this sheet": versions()}.items():
        rows.append((f"Versions ({who})", ", ".join(f"{k} {x}" for k, x in names.items())))
    if meta.get("command"):
        rows.append(("Command", meta["command"]))
    frame = pd.DataFrame([(k, str(x)) for k, x in rows], columns=["item", "value"])
    return ParSection(title, [f"Simulated, not exact: every figure is an estimate from the {content.unit} "
                              "below, with the interval method named."],
                      [ParTable("methodology", "How the figures were made", frame)])
