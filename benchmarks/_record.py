"""Benchmarks write what they measured into ``docs/measurements.md``, each into its own section.

A section lies between ``<!-- begin NAME -->`` and ``<!-- end NAME -->``; :func:`record` replaces
its body with the lines given, led by the date, the machine (cores, load average) and the command,
so the figures the README and docstrings point to are always those of the last run of the script
that made them. Run a benchmark with ``--record`` to update its section.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import re
import sys
from pathlib import Path

MEASUREMENTS = Path(__file__).resolve().parents[1] / "docs" / "measurements.md"


def record(name: str, lines: list[str], path: Path = MEASUREMENTS) -> None:
    """Replace the body of section ``name`` of ``path`` with ``lines`` (Markdown), stamped."""
    text = path.read_text(encoding="utf-8")
    begin, end = f"<!-- begin {name} -->", f"<!-- end {name} -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path}: no section {name!r} (add the lines {begin} and {end})")
    stamp = (f"*{datetime.date.today():%Y-%m-%d}, {os.cpu_count()} cores, load average "
             f"{os.getloadavg()[0]:.1f}: `python {' '.join(sys.argv)}`*")
    body = "\n".join([begin, "", stamp, "", *lines, "", end])
    path.write_text(pattern.sub(lambda _: body, text), encoding="utf-8")


FLAG = "--record"


def arguments() -> list[str]:
    """The command line's arguments, ``--record`` left out (a script's positional numbers)."""
    return [a for a in sys.argv[1:] if a != FLAG]


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
def recording(name: str, enabled: bool | None = None):
    """With ``--record`` on the command line (or ``enabled``), what the block prints also becomes
    section ``name``, as a text block; without it the block just prints."""
    if not (FLAG in sys.argv if enabled is None else enabled):
        yield
        return
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    record(name, ["```text", *tee.getvalue().rstrip("\n").splitlines(), "```"])
