"""One table of every preset, library and command line (issue 16 item 4)."""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.errors import OptionError
from cpstats.thirteen.rules.presets import preset_names


@pytest.fixture(scope="module")
def reference_table() -> pd.DataFrame:
    return cpstats.compare_presets()


def _intervals(table: pd.DataFrame) -> list[tuple[str, str, str]]:
    out = []
    for name in ("bank_mean_seat0", "sd", "scoop_rate", "home_run_rate", "foul_rate", "house_edge"):
        out.append((name, f"{name}_ci_low", f"{name}_ci_high"))
    return out + [("rake_per_hand", "rake_ci_low", "rake_ci_high")]


def test_every_preset_appears_once_with_its_description(reference_table):
    """One row per preset, in the presets' order, from the ev reference results."""
    assert reference_table["preset"].tolist() == list(preset_names())
    assert reference_table["description"].str.len().gt(0).all()
    assert (reference_table["strategy"] == "ev").all()
    assert (reference_table["deals"] == 1_000_000).all()


def test_intervals_contain_their_estimates(reference_table):
    """Every interval holds its estimate, and has width where the figure varies."""
    for name, low, high in _intervals(reference_table):
        rows = reference_table[reference_table[name].notna()]
        assert len(rows), name
        assert (rows[low] <= rows[name]).all() and (rows[name] <= rows[high]).all(), name
    assert (reference_table["sd_ci_high"] > reference_table["sd_ci_low"]).all()
    assert (reference_table["scoop_rate_ci_high"] > reference_table["scoop_rate_ci_low"]).all()


def test_banked_rows_have_the_house_edge_and_the_others_do_not(reference_table):
    """House edge, element of risk and seat 0's mean only where the game is banked."""
    banked = reference_table[reference_table["banked"]]
    others = reference_table[~reference_table["banked"]]
    assert banked["preset"].tolist() == ["banked"]
    row = banked.iloc[0]
    assert math.isfinite(row["house_edge"]) and row["element_of_risk"] == row["house_edge"]
    assert row["house_edge"] == pytest.approx(cpstats.load_reference("banked").house()["house_edge"][0])
    assert not math.isnan(row["bank_mean_seat0"])
    for key in ("house_edge", "element_of_risk", "bank_mean_seat0"):
        assert others[key].isna().all(), key


def test_rake_and_home_runs_follow_the_rules(reference_table):
    """A raked preset shows its rake per seat-hour; heads-up games have no home run."""
    table = reference_table.set_index("preset")
    row = table.loc["pagat-casino"]
    assert row["rake_per_hand"] > 0
    assert row["rake_per_seat_hour"] == pytest.approx(row["rake_per_hand"] * 30 / 4)
    assert table.loc["2-4", "rake_per_hand"] == 0
    assert (table.loc[table["players"] >= 3, "home_run_rate"] > 0).all()


def test_a_live_run_plays_every_preset_on_the_given_deals():
    """deals=N runs each preset with the given strategy; the same seed repeats it."""
    table = cpstats.compare_presets(200, setter="greedy", rng=7)
    assert table["preset"].tolist() == list(preset_names())
    assert (table["deals"] == 200).all() and (table["strategy"] == "greedy").all()
    again = cpstats.compare_presets(200, setter="greedy", rng=7)
    assert np.allclose(table["sd"], again["sd"])


def test_reference_results_are_ev_only():
    """Asking the references for another setter is refused in one line."""
    with pytest.raises(OptionError, match=r"setter='greedy' is invalid without deals"):
        cpstats.compare_presets(setter="greedy")


def test_the_command_line_prints_the_table_and_refuses_a_bad_strategy(capsys):
    """`cpstats presets-table` prints every preset; a refusal is one line, status 2."""
    assert main(["presets-table", "--format", "csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert table["preset"].tolist() == list(preset_names())
    assert main(["presets-table", "--setter", "greedy"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cpstats presets-table: error: setter='greedy'") and "\n" not in err
