"""The wheel ships what the library reads at run time (audit 13.21).

A regular ``pip install .`` could not set hands: the ev setter's row tables, the reference results
and the dashboard notebook lived outside the package (``data/``, ``notebooks/``) and so outside the
wheel. The wheel is built from a copy of the sources, so that a stale ``build/`` folder in the
checkout cannot add files the package data globs miss. ``.ci/wheel-check`` installs such a wheel in a
fresh venv and runs the README's main command.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers import ROOT

from cpstats._resources import DASHBOARD_NOTEBOOK, DATA_DIR, REFERENCE_DIR, STRATEGIES_DIR
from cpstats.thirteen.rules.presets import preset_names



def _wheel_names(tmp: Path) -> set[str]:
    """Names of the files in a wheel built, without dependencies, from a copy of the sources."""
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "cpstats", src / "cpstats",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    out = tmp / "wheels"
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
                         capture_output=True, text=True, cwd=tmp)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    (wheel,) = out.glob("cpstats-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    return _wheel_names(tmp_path_factory.mktemp("wheel"))


def _shipped(folder: Path, pattern: str) -> set[str]:
    return {f"cpstats/{p.relative_to(DATA_DIR.parent).as_posix()}" for p in folder.glob(pattern)}


def test_package_data_covers_every_preset():
    """Every preset has its row tables and its reference result in cpstats/data."""
    names = set(preset_names())
    assert {p.stem for p in STRATEGIES_DIR.glob("*.npz")} == names
    assert {p.stem for p in REFERENCE_DIR.glob("*.npz")} == names
    assert {p.stem for p in REFERENCE_DIR.glob("*.json")} == names
    assert DASHBOARD_NOTEBOOK.is_file()


def test_wheel_ships_tables_references_and_dashboard(wheel_names):
    """The wheel holds every strategy table, every reference result (.npz and .json)
    and the dashboard notebook, at the paths cpstats._resources reads them from."""
    tables = _shipped(STRATEGIES_DIR, "*.npz")
    references = _shipped(REFERENCE_DIR, "*.npz") | _shipped(REFERENCE_DIR, "*.json")
    assert len(tables) == len(preset_names()) and len(references) == 2 * len(preset_names())
    assert tables - wheel_names == set()
    assert references - wheel_names == set()
    assert "cpstats/data/dashboard.ipynb" in wheel_names
    assert "cpstats/data/naturals/exact_counts.json" in wheel_names
    assert {"cpstats/data/ofc/entry_values.json", "cpstats/data/ofc/strength.csv"} <= wheel_names
    # the one street-model file of the default: no wheel plays weaker
    assert "cpstats/data/ofc/street_models.npz" in wheel_names
    assert "cpstats/_resources.py" in wheel_names and "cpstats/py.typed" in wheel_names


def test_wheel_leaves_out_the_designers_data_folder(wheel_names):
    """The top-level data/ (TOML variants and CSV figures for designers, made by ``cpstats
    data``) is the checkout's, not the package's: the wheel has no file outside cpstats/ but its
    metadata."""
    assert (ROOT / "data" / "variants" / "2-4.toml").is_file()
    outside = {n for n in wheel_names if not n.startswith(("cpstats/", "cpstats-"))}
    assert outside == set()
    designers = {p.name for p in (ROOT / "data").rglob("*") if p.is_file()}
    assert not any(n.rsplit("/", 1)[-1] in designers for n in wheel_names)
    assert not any(n.endswith(".toml") for n in wheel_names)
