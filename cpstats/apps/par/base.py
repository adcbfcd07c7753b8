"""The PAR sheet every game's sheet extends: sections of tables in reading order, the HTML and PDF
writers, and the sections that read the same for every game (the sensitivity sweeps, "How this
rule was chosen", the methodology), so a section written once serves every game's sheet.

A game's sheet (:class:`~cpstats.apps.par.thirteen.ThirteenParSheet`,
:class:`~cpstats.apps.par.open_face.OfcParSheet`) says who played the hands (:attr:`ParSheet.played_by`),
whether a baseline did (:attr:`ParSheet.baseline_note`) and draws its own charts
(:meth:`ParSheet.game_chart`); it builds its own sections from its result.
"""

from __future__ import annotations

import datetime
import platform
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from cpstats._atomic import writable_file
from cpstats.apps.labels import baseline_label
from cpstats.apps.par import sensitivity as sensitivity_
from cpstats.apps.par.parts import ParSection, ParTable
from cpstats.apps.par.progress import as_progress
from cpstats.engine.registry import game_of
from cpstats.engine.base import Result

__all__ = ["ParSheet", "versions"]


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
class ParSheet(ABC):
    """A PAR sheet: the sections in reading order, built from one run (``result``) of ``variant``.

    ``tables`` maps each table's key (``"headline"``, ``"royalties"``, ``"sessions"``,
    ``"methodology"``...) to its DataFrame; ``sweeps`` holds the sensitivity section's sweeps, keyed
    by parameter (:func:`cpstats.sweep` tables); ``seed`` is the seed the sheet's runs used;
    ``precision`` what a run grown to a precision reached
    (:func:`~cpstats.engine.sequential.until_record`; None for a run of given length).
    """

    variant: Any
    result: Result
    hands_per_hour: float
    sections: list[ParSection]
    label: str
    seed: Any = None
    sweeps: dict[str, pd.DataFrame] = field(default_factory=dict)
    precision: dict | None = None

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        return {t.key: t.frame for s in self.sections for t in s.tables}

    @property
    def unit(self) -> str:
        """What the sheet's run counts: its game's deals (open face: hands)."""
        return game_of(self.variant).unit

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

    @property
    def subtitle(self) -> str:
        return (f"Variant {self.variant} · {self.result.deals:,} {self.unit} · {self.played_by} · "
                f"{datetime.date.today():%d %B %Y}")

    @property
    def footer(self) -> str:
        return f"cpstats PAR sheet · {self.label}{self.baseline_note}"

    @abstractmethod
    def game_chart(self, name: str) -> Any:
        """The figure of the game's chart ``name`` (a name in a section's ``charts``)."""

    def chart(self, name: str) -> Any:
        """The figure of chart ``name``: ``sweep:<parameter>`` is the sensitivity chart of one of
        :attr:`sweeps` (every game's), any other name the game's own (:meth:`game_chart`)."""
        if name.startswith("sweep:"):
            from cpstats.apps.par.charts import sweep_chart

            return sweep_chart(self, name.removeprefix("sweep:"))
        return self.game_chart(name)

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

    # -- the sections every game's sheet shares ----------------------------------------------

    def moving_note(self, sweeps: Mapping[str, pd.DataFrame]) -> str:
        """What the sensitivity section says of the points that play other tables of the setter
        (none by default: a game whose setter learns per rule says which)."""
        return ""

    @property
    def sensitivity_intro(self) -> str:
        """The sensitivity section's first paragraph: which numbers and values it sweeps."""
        return ("The rule numbers a designer tunes, present in this variant (its house charge, then the "
                "numbers that move the setter), each at its own value and three around it (half, 1.5 "
                "and twice it, or steps of 1 from a small value); the figures are the headline ones.")

    def sensitivity_section(self, number: int, *, skipped: str = "") -> ParSection:
        """The sensitivity section: each swept rule number at the variant's value and around it,
        the figures with their intervals and each point's paired difference (or a line saying why
        it was not run, ``skipped``)."""
        title = f"{number}. Sensitivity"
        if not self.sweeps:
            return ParSection(title, [skipped or "Not run for this sheet (sensitivity=False)."])
        first = next(iter(self.sweeps.values())).attrs
        setter = baseline_label(first["strategy"]) or first["strategy"]
        unit = first.get("unit", "deals")
        text = [self.sensitivity_intro,
                f"Every point: {first['deals']:,} {unit} on the same seed (entropy {first['entropy']}), "
                f"set by {setter}" + self.moving_note(self.sweeps) + ". Estimate bands are 95% intervals "
                "(Student's t on 30 batch means); each difference to the variant's own value is paired on "
                f"the common {unit}, with its 95% paired interval, or none where it rests on too few "
                f"differing {unit}."]
        charts = [f"sweep:{key}" for key in self.sweeps]
        return ParSection(title, text, [ParTable(
            "sensitivity", "Figures across each rule's range (difference to this variant's value)",
            sensitivity_.sensitivity_table(self.sweeps), sensitivity_.unmoved_note(self.sweeps))], charts)

    def methodology_section(self, number: int, items: Sequence[tuple[str, Any]]) -> ParSection:
        """The methodology: how the figures were made (``items``, the game's words), then the
        package versions of the run and of this sheet and the command that made the run."""
        meta = self.result.metadata
        run = {k: meta[k] for k in ("cpstats", "numpy", "numba", "pandas", "scipy") if k in meta}
        rows = [*items]
        for who, names in {"the run": run, "this sheet": versions()}.items():
            rows.append((f"Versions ({who})", ", ".join(f"{k} {x}" for k, x in names.items())))
        if meta.get("command"):
            rows.append(("Command", meta["command"]))
        frame = pd.DataFrame([(k, str(x)) for k, x in rows], columns=["item", "value"])
        return ParSection(f"{number}. Methodology", [f"Simulated, not exact: every figure is an estimate "
                                                      f"from the {self.unit} below, with the interval "
                                                      "method named."],
                          [ParTable("methodology", "How the figures were made", frame)])

    def add_solution(self, solution: Any) -> None:
        """Add the "How this rule was chosen" section of a :func:`cpstats.solve` answer whose
        variant is this sheet's (:mod:`cpstats.apps.par.solution`)."""
        from cpstats.apps.par.solution import solution_section

        title, paragraphs, table = solution_section(solution, self.variant)
        self.sections.append(ParSection(title, paragraphs, [ParTable(*table)]))
