"""Benchmarks write what they measured into ``docs/measurements.md``, each into its own section.

A section lies between ``<!-- begin NAME -->`` and ``<!-- end NAME -->``; :func:`record` replaces
its body with the lines given, led by the date, the machine (cores, load average at the start
and the end of the run) and the command, so the figures the README and docstrings point to are
always those of the last run of the script that made them. Run a benchmark with ``--record`` to
update its section.

Figures measured on a busy machine describe the load, not the package (this machine is shared):
a run whose 1-minute load average exceeds :data:`MAX_LOAD_PER_CORE` a core when it starts (2 on
2 cores) is refused before it measures anything; ``--under-load`` records it anyway, its section
marked "measured under load".
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import re
import sys
from pathlib import Path
from typing import NamedTuple

MEASUREMENTS = Path(__file__).resolve().parents[1] / "docs" / "measurements.md"
#: The most load a core may carry when a recorded run starts (a load of 2 on 2 cores).
MAX_LOAD_PER_CORE = 1.0
FLAG = "--record"
UNDER_LOAD = "--under-load"


class Load(NamedTuple):
    """The machine's 1-minute load average and its cores."""

    average: float
    cores: int

    @property
    def limit(self) -> float:
        return MAX_LOAD_PER_CORE * self.cores

    @property
    def busy(self) -> bool:
        return self.average > self.limit


def machine_load() -> Load:
    """The load now (:func:`os.getloadavg`'s 1-minute figure) and the cores."""
    return Load(os.getloadavg()[0], os.cpu_count() or 1)


def check_load(load: Load, under_load: bool) -> None:
    """Refuse, in one line, to record on a busy machine unless ``under_load``."""
    if load.busy and not under_load:
        raise SystemExit(f"not recorded: load average {load.average:.1f} on {load.cores} cores is above "
                         f"{load.limit:g} ({MAX_LOAD_PER_CORE:g} a core), so the figures would describe "
                         f"the load; run on a quiet machine, or add {UNDER_LOAD} to record them marked "
                         "as measured under load")


def stamp(start: Load, end: Load) -> str:
    """The line that leads a section: date, cores, the load at the start and the end, command."""
    load = (f"load average {start.average:.1f} at the start, {end.average:.1f} at the end (its own "
            "threads count in the second)")
    if start.busy:
        load += f"; **measured under load** (above {start.limit:g}: {UNDER_LOAD})"
    return f"*{datetime.date.today():%Y-%m-%d}, {start.cores} cores, {load}: `python {' '.join(sys.argv)}`*"


def record(name: str, lines: list[str], path: Path = MEASUREMENTS, *, start: Load | None = None,
           under_load: bool | None = None) -> None:
    """Replace the body of section ``name`` of ``path`` with ``lines`` (Markdown), stamped with
    the load at ``start`` (default: now) and now; refused on a busy machine unless
    ``under_load`` (default: ``--under-load`` on the command line)."""
    start = machine_load() if start is None else start
    check_load(start, UNDER_LOAD in sys.argv if under_load is None else under_load)
    text = path.read_text(encoding="utf-8")
    begin, end = f"<!-- begin {name} -->", f"<!-- end {name} -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path}: no section {name!r} (add the lines {begin} and {end})")
    body = "\n".join([begin, "", stamp(start, machine_load()), "", *lines, "", end])
    path.write_text(pattern.sub(lambda _: body, text), encoding="utf-8")


def arguments() -> list[str]:
    """The command line's arguments, ``--record`` and ``--under-load`` left out (a script's
    positional numbers)."""
    return [a for a in sys.argv[1:] if a not in (FLAG, UNDER_LOAD)]


class _Tee(io.StringIO):
    """Prints go on to the terminal and are kept for the section."""

    def __init__(self, out) -> None:
        super().__init__()
        self.out = out

    def write(self, text: str) -> int:
        self.out.write(text)
        return super().write(text)

    def flush(self) -> None:
        self.out.flush()


@contextlib.contextmanager
def recording(name: str, enabled: bool | None = None, path: Path = MEASUREMENTS):
    """With ``--record`` on the command line (or ``enabled``), what the block prints also becomes
    section ``name``, as a text block; without it the block just prints. The load is checked
    before the block runs, so a refused run measures nothing."""
    if not (FLAG in sys.argv if enabled is None else enabled):
        yield
        return
    start, under_load = machine_load(), UNDER_LOAD in sys.argv
    check_load(start, under_load)
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    record(name, ["```text", *tee.getvalue().rstrip("\n").splitlines(), "```"], path, start=start,
           under_load=under_load)
