"""The repository's top-level ``data/`` folder, for designers: every preset of both games as a
TOML variant file (``variants/PRESET.toml``) and the shipped reference figures as one tidy CSV
table a preset (``reference/PRESET.csv``), written by ``cpstats data`` and checked fresh by
``tests/test_data_files.py``.

The binary data the package reads stays in ``cpstats/data``; ``data/`` is made from it and is
not in the wheel. Each CSV row is one figure: ``preset, game, setter, deals, seed`` (the run,
repeated so every row reads alone in a spreadsheet), ``table`` (the result's method it comes
from), ``metric``, ``estimate, ci_low, ci_high`` (95%) and ``method`` (how the interval was
made; ``no interval`` for a figure its table gives without one). The figures are the result's
own tables, only reshaped here, so each keeps its one definition.

- Decision: rows stay in the order the tables give them (table by table, seat by seat), which
  is fixed, rather than sorted by name, which would put ``seat10`` before ``seat2``; floats are
  written ``%.10g`` with ``\\n`` line ends, so a regeneration from unchanged data is
  byte-identical.
- Decision: a preset gets a CSV only when it has a shipped reference (13-card:
  ``cpstats/data/reference/PRESET.npz``; open face: a shipped run that plays it,
  :func:`~cpstats.ofc.shipped.find_ofc_reference`); open-face ``deals`` counts hands (decks).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd

from cpstats.errors import CpstatsError, OptionError

__all__ = ["COLUMNS", "checkout_data_folder", "data_files", "write_data", "stale_data",
           "reference_table", "add_data_command"]

#: Columns of every reference CSV, in order.
COLUMNS = ("preset", "game", "setter", "deals", "seed", "table", "metric", "estimate", "ci_low",
           "ci_high", "method")
#: The folders of ``data/`` this module owns, and the files it writes there.
_OWNED = {"variants": "*.toml", "reference": "*.csv"}
_NO_INTERVAL = "no interval"


def checkout_data_folder() -> Path | None:
    """The ``data/`` folder of the source checkout cpstats runs from; None when it runs from an
    installed wheel (no ``pyproject.toml`` of cpstats beside the package)."""
    from cpstats._resources import DATA_DIR

    root = DATA_DIR.resolve().parents[1]
    project = root / "pyproject.toml"
    if project.is_file() and 'name = "cpstats"' in project.read_text(encoding="utf-8"):
        return root / "data"
    return None


def _rows(table: str, metrics: Iterable[str], estimate, low=None, high=None,
          method: str | Iterable[str] = _NO_INTERVAL) -> pd.DataFrame:
    """One tidy frame of a table's figures; ``low``/``high`` None for figures without interval."""
    metrics = list(metrics)
    nan = np.full(len(metrics), np.nan)
    return pd.DataFrame({"table": table, "metric": metrics,
                         "estimate": np.asarray(estimate, dtype=float),
                         "ci_low": nan if low is None else np.asarray(low, dtype=float),
                         "ci_high": nan if high is None else np.asarray(high, dtype=float),
                         "method": method})


def _moments(result) -> list[pd.DataFrame]:
    m = result.moments()
    seat = [f"_seat{s}" for s in m["seat"]]
    out = [_rows("moments", [f"mean{s}" for s in seat], m["mean"], m["ci_low"], m["ci_high"], "batch t"),
           _rows("moments", [f"sd{s}" for s in seat], m["sd"], m["sd_ci_low"], m["sd_ci_high"],
                 "batch t (variances)"),
           _rows("moments", [f"variance{s}" for s in seat], m["variance"], m["variance_ci_low"],
                 m["variance_ci_high"], "batch t (variances)")]
    for name in ("skewness", "kurtosis", "hit_frequency", "push_rate", "volatility_index"):
        out.append(_rows("moments", [f"{name}{s}" for s in seat], m[name]))
    return out


def _rates(result) -> list[pd.DataFrame]:
    r = result.rates()
    rates = _rows("rates", [f"{k}_rate_hand{h}" for k, h in zip(r["rate"], r["hand"])],
                  r["frequency"], r["ci_low"], r["ci_high"], "wilson")
    y = result.royalties()
    royalties = _rows("royalties", [f"royalty_rate_{row}" for row in y["row"]], y["rate"],
                      y["ci_low"], y["ci_high"], "wilson")
    n = result.naturals()
    naturals = [_rows("naturals", [f"natural_rate_{k}" for k in n["natural"]], n["frequency"],
                      n["ci_low"], n["ci_high"], "wilson"),
                _rows("naturals", [f"natural_exact_{k}" for k in n["natural"]],
                      n["exact_probability"], method="exact")]
    sc = result.scoops()
    home = sc.attrs.get("home_run_rate", [])
    scoops = [_rows("scoops", [f"scoop_rate_hand{a}_vs_hand{b}" for a, b in zip(sc["hand"], sc["against"])],
                    sc["rate"], sc["ci_low"], sc["ci_high"], "wilson"),
              _rows("scoops", [f"home_run_rate_hand{h}" for h in range(len(home))], home)]
    return [rates, royalties, *naturals, *scoops]


def _house(result) -> list[pd.DataFrame]:
    """The house's one row, a figure a column; the columns giving an interval or a method are
    folded into the figure they belong to."""
    row = result.house().iloc[0]
    intervals = {"rake_per_hand": ("rake_ci_low", "rake_ci_high", "batch t"),
                 "break_even_edge": ("break_even_edge_ci_low", "break_even_edge_ci_high", "batch t"),
                 "house_edge": ("house_edge_ci_low", "house_edge_ci_high",
                                str(row.get("house_edge_method", "")))}
    folded = {c for lo, hi, _ in intervals.values() for c in (lo, hi)} | {"house_edge_se",
                                                                          "house_edge_method"}
    out = []
    for name, value in row.items():
        if name in folded:
            continue
        low, high, method = intervals.get(name, (None, None, _NO_INTERVAL))
        out.append(_rows("house", [name], [value], None if low is None else [row[low]],
                         None if high is None else [row[high]], method))
    return out


def reference_table(name: str) -> pd.DataFrame | None:
    """The tidy figures (:data:`COLUMNS`) of preset ``name``'s shipped reference; None if it has
    none."""
    from cpstats._resources import REFERENCE_DIR
    from cpstats.ofc.shipped import find_ofc_reference
    from cpstats.rules import get_preset
    from cpstats.simulation import load_reference

    v = get_preset(name)
    if v.game == "open-face":
        result = find_ofc_reference(v)
        if result is None:
            return None
        frame = result.figures().assign(table="figures")
        head = {"setter": result.metadata.get("strategy", "?"), "deals": result.hands}
    else:
        if not (REFERENCE_DIR / f"{name}.npz").is_file():
            return None
        result = load_reference(name)
        frame = pd.concat([*_moments(result), *_rates(result), *_house(result)], ignore_index=True)
        head = {"setter": result.setter, "deals": result.deals}
    frame = frame.assign(preset=name, game=v.game, seed=str(result.metadata.get("entropy", "")), **head)
    return frame[list(COLUMNS)]


def data_files() -> dict[str, bytes]:
    """Every file of ``data/`` by its path there (``variants/2-4.toml``, ``reference/2-4.csv``)."""
    from cpstats.rules import get_preset, presets

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
    from cpstats.apps.cli_args import out_folder

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
