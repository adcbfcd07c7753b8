"""The repository's top-level ``data/`` folder, for designers: every preset of both games as a
TOML variant file (``variants/PRESET.toml``) and the shipped reference figures as one tidy CSV
table a preset (``reference/PRESET.csv``), written by ``cpstats data`` and checked fresh by
``tests/project/test_data_files.py``.

The binary data the package reads stays in ``cpstats/data``; ``data/`` is made from it and is
not in the wheel. Each CSV row is one figure: ``preset, game, setter, deals, seed`` (the run,
repeated so every row reads alone in a spreadsheet), ``table`` (the result's method it comes
from; ``figures`` for open face), ``metric``, ``estimate, ci_low, ci_high`` (95%) and ``method``:
the result's own ``figures()``, both games, written as they are.

- Decision: floats are written ``%.10g`` with ``\\n`` line ends, so a regeneration from unchanged
  data is byte-identical.
- Decision: a preset gets a CSV only when it has a shipped reference (13-card:
  ``cpstats/data/reference/PRESET.npz``; open face: a shipped run that plays it,
  :func:`~cpstats.ofc.shipped.find_ofc_reference`); open-face ``deals`` counts hands (decks).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pandas as pd

from cpstats.errors import CpstatsError, OptionError

__all__ = ["COLUMNS", "checkout_data_folder", "data_files", "write_data", "stale_data",
           "reference_table", "add_data_command"]

#: Columns of every reference CSV, in order.
COLUMNS = ("preset", "game", "setter", "deals", "seed", "table", "metric", "estimate", "ci_low",
           "ci_high", "method")
#: The folders of ``data/`` this module owns, and the files it writes there.
_OWNED = {"variants": "*.toml", "reference": "*.csv"}


def checkout_data_folder() -> Path | None:
    """The ``data/`` folder of the source checkout cpstats runs from; None when it runs from an
    installed wheel (no ``pyproject.toml`` of cpstats beside the package)."""
    from cpstats._resources import DATA_DIR

    root = DATA_DIR.resolve().parents[1]
    project = root / "pyproject.toml"
    if project.is_file() and 'name = "cpstats"' in project.read_text(encoding="utf-8"):
        return root / "data"
    return None


def reference_table(name: str) -> pd.DataFrame | None:
    """The tidy figures (:data:`COLUMNS`) of preset ``name``'s shipped reference (any game's); None
    if it has none."""
    from cpstats.errors import CpstatsError
    from cpstats.engine.registry import get_preset
    from cpstats.engine import load_reference

    v = get_preset(name)
    try:
        result = load_reference(name)
    except CpstatsError:
        return None
    if str(result.variant) != str(v):
        return None
    frame = result.figures()
    if "table" not in frame:
        frame = frame.assign(table="figures")
    head = {"setter": result.setter, "deals": result.deals}
    frame = frame.assign(preset=name, game=v.game, seed=str(result.metadata.get("entropy", "")), **head)
    return frame[list(COLUMNS)]


def data_files() -> dict[str, bytes]:
    """Every file of ``data/`` by its path there (``variants/2-4.toml``, ``reference/2-4.csv``)."""
    from cpstats.engine.registry import get_preset, presets

    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for row in presets().itertuples():
            path = get_preset(row.name).to_file(Path(tmp) / f"{row.name}.toml", label=row.name,
                                                description=row.description)
            files[f"variants/{row.name}.toml"] = path.read_bytes()
    for name in presets()["name"]:
        table = reference_table(name)
        if table is not None:
            text = table.to_csv(index=False, float_format="%.10g", lineterminator="\n")
            files[f"reference/{name}.csv"] = text.encode("utf-8")
    return dict(sorted(files.items()))


def _owned(folder: Path) -> set[str]:
    """The files now in ``folder``'s owned subfolders, by their path there."""
    return {f"{sub}/{p.name}" for sub, pattern in _OWNED.items() for p in (folder / sub).glob(pattern)}


def write_data(folder: str | Path) -> list[Path]:
    """Write every file of :func:`data_files` into ``folder`` and remove the ``.toml`` and
    ``.csv`` files of its ``variants/`` and ``reference/`` that no preset makes any more (those
    two folders are this command's). Returns the paths written."""
    folder = Path(folder)
    files = data_files()
    for stale in sorted(_owned(folder) - set(files)):
        (folder / stale).unlink()
    written = []
    for rel, body in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        written.append(path)
    return written


def stale_data(folder: str | Path) -> list[str]:
    """What in ``folder`` differs from a fresh :func:`write_data`, one item a file:
    ``reference/2-4.csv (differs)``, ``(missing)``, or ``(no preset makes it)``; empty when fresh."""
    folder = Path(folder)
    files = data_files()
    out = []
    for rel, body in files.items():
        path = folder / rel
        if not path.is_file():
            out.append(f"{rel} (missing)")
        elif path.read_bytes() != body:
            out.append(f"{rel} (differs)")
    out += [f"{rel} (no preset makes it)" for rel in sorted(_owned(folder) - set(files))]
    return out


def add_data_command(sub) -> argparse.ArgumentParser:
    """Add ``cpstats data [--out DIR] [--check]`` to the subparsers ``sub``; returns the parser."""
    p = sub.add_parser("data", help="write data/ for designers: every preset as TOML and the "
                                    "reference figures as CSV (--check: say what is stale)")
    p.add_argument("--out", default=None,
                   help="folder (default: the data/ folder of the source checkout)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; fail naming each file that a regeneration would change")
    p.set_defaults(run=run_data_command)
    return p


def run_data_command(args: argparse.Namespace) -> str:
    """Handler of ``cpstats data``: writes (or with ``--check`` checks) the folder."""
    from cpstats.apps.cli.args import out_folder

    if args.out is None:
        folder = checkout_data_folder()
        if folder is None:
            raise OptionError("--out is needed: cpstats runs from an installed package, not its "
                              "source checkout, so there is no repository data/ folder")
    elif args.check:
        if not str(args.out).strip():
            raise OptionError("--out='' is invalid: --out must name a folder (--out . for this one)")
        folder = Path(args.out)
    else:
        folder = out_folder(args.out)
    if args.check:
        stale = stale_data(folder)
        if stale:
            raise CpstatsError(f"{folder} is stale in {len(stale)} files: {', '.join(stale)}; "
                               f"regenerate with: cpstats data --out {folder}")
        return f"{folder} is fresh"
    paths = write_data(folder)
    csvs = sum(p.suffix == ".csv" for p in paths)
    return f"{len(paths) - csvs} variant files and {csvs} reference tables written to {folder}"
