"""The top-level ``data/`` folder is fresh: regenerated, it is byte for byte what is committed.

A stale file (the shipped references or a preset changed and ``cpstats data`` was not run), a
missing one or one no preset makes fails the check, named. The check is shown to fail on an
edited copy. The games are the registry's: the regeneration runs with the toy showdown
(``tests/toy_showdown``) registered beside the real games, whose presets get variant files as a new
game's would, and ``data/`` is checked against the real games' files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import ROOT

import cpstats
from cpstats.apps import data_files as df_mod
from cpstats.apps.cli import build_parser, main
from cpstats.apps.data_files import COLUMNS, checkout_data_folder, data_files, stale_data, write_data
from cpstats.engine.registry import GAMES
from cpstats.errors import OptionError
from cpstats.ofc.shipped import find_ofc_reference
from helpers.toy import toy_registered

DATA = ROOT / "data"


@pytest.fixture(scope="module")
def regenerated() -> tuple[dict[str, bytes], tuple[str, ...]]:
    """Every file of a regeneration (each costs seconds) with the toy game registered, and the
    toy's presets."""
    with toy_registered() as toy:
        return data_files(), tuple(toy.GAME.presets)


@pytest.fixture(scope="module")
def fresh(regenerated) -> dict[str, bytes]:
    """The regeneration's files of the package's games (the toy's are not the package's data)."""
    files, toy = regenerated
    return {rel: body for rel, body in files.items() if Path(rel).stem not in toy}


@pytest.fixture
def cached(monkeypatch, fresh):
    """``data_files`` answered from the module's one regeneration (each costs seconds)."""
    monkeypatch.setattr(df_mod, "data_files", lambda: dict(fresh))
    return fresh


def test_committed_data_is_fresh(cached):
    stale = stale_data(DATA)
    assert stale == [], f"data/ is stale ({', '.join(stale)}): regenerate with `cpstats data`"


def test_every_preset_has_a_variant_file_that_loads_back(fresh):
    table = cpstats.engine.registry.presets()
    assert set(table["game"]) == set(GAMES)
    assert {k for k in fresh if k.startswith("variants/")} == {f"variants/{n}.toml" for n in table["name"]}
    for row in table.itertuples():
        path = DATA / "variants" / f"{row.name}.toml"
        assert cpstats.load_variant(path) == cpstats.engine.registry.get_preset(row.name)
        assert f'description = "{row.description}"' in path.read_text(encoding="utf-8")


def test_a_new_games_presets_get_variant_files_that_load_back(regenerated, tmp_path):
    """The toy's presets get variant files as the real games' do (and no reference table: it ships
    no run), and its files load back as its presets once written."""
    files, toy = regenerated
    assert {rel for rel in files if Path(rel).stem in toy} == {f"variants/{name}.toml" for name in toy}
    with toy_registered() as package:
        for name in toy:
            path = tmp_path / f"{name}.toml"
            path.write_bytes(files[f"variants/{name}.toml"])
            assert cpstats.load_variant(path) == cpstats.get_preset(name)
            assert f'description = "{package.GAME.presets[name]}"' in path.read_text(encoding="utf-8")


def test_reference_tables_are_the_results_figures():
    """The CSV holds the result's own figures (to the %.10g written), both games."""
    assert checkout_data_folder() == DATA
    csv = pd.read_csv(DATA / "reference" / "2-4.csv", keep_default_na=False, na_values=[""])
    assert tuple(csv.columns) == COLUMNS
    result = cpstats.load_reference("2-4")
    means = csv.set_index("metric").loc[[f"mean_seat{p}" for p in range(4)]]
    np.testing.assert_allclose(means["estimate"], result.moments()["mean"], rtol=1e-9)
    np.testing.assert_allclose(means["ci_high"], result.moments()["ci_high"], rtol=1e-9)
    royalty = csv.set_index("metric").loc["royalty_rate_back_quads"]
    expect = result.royalties().set_index("row").loc["back_quads"]
    assert royalty["ci_low"] == pytest.approx(expect["ci_low"], rel=1e-9)
    assert set(csv["deals"]) == {result.deals} and set(csv["setter"]) == {result.setter}
    ofc = pd.read_csv(DATA / "reference" / "ofc-pineapple.csv")
    figures = find_ofc_reference("ofc-pineapple").figures()
    np.testing.assert_allclose(ofc["estimate"], figures["estimate"], rtol=1e-9)
    assert list(ofc["metric"]) == list(figures["metric"]) and set(ofc["game"]) == {"open-face"}


def test_stale_check_names_each_stale_file(cached, tmp_path):
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    assert stale_data(copy) == []
    edited = copy / "reference" / "2-4.csv"
    edited.write_text(edited.read_text().replace("mean_seat0,0.002098", "mean_seat0,0.002099"))
    (copy / "variants" / "taiwanese.toml").unlink()
    (copy / "reference" / "gone.csv").write_text("preset\n")
    assert stale_data(copy) == ["reference/2-4.csv (differs)", "variants/taiwanese.toml (missing)",
                                "reference/gone.csv (no preset makes it)"]
    write_data(copy)  # regenerating mends all three, the orphan removed
    assert stale_data(copy) == [] and not (copy / "reference" / "gone.csv").exists()


def test_cli_writes_then_checks(cached, tmp_path, capsys):
    out = tmp_path / "designer"
    assert main(["data", "--out", str(out)]) == 0
    variants = sum(rel.startswith("variants/") for rel in cached)
    assert variants == len(cpstats.presets()) and len(cached) > variants
    said = f"{variants} variant files and {len(cached) - variants} reference tables written"
    assert said in capsys.readouterr().out
    assert main(["data", "--out", str(out), "--check"]) == 0
    (out / "variants" / "2-4.toml").write_text("variant = \"2-4\"\n")
    assert main(["data", "--out", str(out), "--check"]) == 2
    err = capsys.readouterr().err
    assert "stale in 1 files: variants/2-4.toml (differs); regenerate with: cpstats data" in err


def test_cli_refusals(monkeypatch, tmp_path, capsys):
    assert main(["data", "--out", ""]) == 2
    assert "--out='' is invalid: --out must name a folder" in capsys.readouterr().err
    monkeypatch.setattr(df_mod, "checkout_data_folder", lambda: None)
    assert main(["data"]) == 2
    assert "--out is needed: cpstats runs from an installed package" in capsys.readouterr().err
    with pytest.raises(OptionError, match="--out is needed: cpstats runs from an installed package"):
        df_mod.run_data_command(build_parser().parse_args(["data", "--check"]))
