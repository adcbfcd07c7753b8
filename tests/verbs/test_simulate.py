"""The shared verbs simulate and compare play open face as its own runs do: the same numbers serial or
on threads, rows kept and resumed, variants compared on common decks, mixed games refused."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.errors import OptionError
from cpstats.thirteen.play import EvSetter


def test_simulate_plays_open_face_as_the_game_runs_it():
    """The shared verb gives the open-face run's numbers (same seed, same decks), serial or not."""
    shared = cpstats.simulate("ofc-pineapple", 300, setter="greedy", rng=1)
    own = cpstats.ofc.simulation.simulate("ofc-pineapple", 300, setter="greedy", rng=1)
    pd.testing.assert_frame_equal(shared.figures(), own.figures())
    with ThreadPoolExecutor(2) as pool:
        threaded = cpstats.simulate("ofc-pineapple", 300, setter="greedy", rng=1, executor=pool)
    pd.testing.assert_frame_equal(threaded.figures(), own.figures())
    with pytest.raises(OptionError, match="tables= does not apply to open-face"):
        cpstats.simulate("ofc-pineapple", 10, setter=EvSetter(tables="2-4"))
    with pytest.raises(OptionError, match="setter='ev2' is invalid for an open-face variant"):
        cpstats.simulate("ofc-pineapple", 10, setter="ev2")


def test_simulate_open_face_keeps_rows_with_out_and_resumes(tmp_path):
    first = cpstats.simulate("ofc-pineapple", 200, setter="random", rng=3, out=tmp_path, keep_hands=True,
                             block_deals=100)
    assert len(list(tmp_path.glob("hands-*.parquet"))) == 2
    again = cpstats.simulate("ofc-pineapple", 200, setter="random", rng=3, out=tmp_path, keep_hands=True,
                             block_deals=100, resume=True)
    assert again.metadata["blocks_redone"] == 0
    pd.testing.assert_frame_equal(first.figures(), again.figures())


def test_compare_plays_open_face_on_common_decks_and_refuses_mixed_games():
    table = cpstats.compare(["ofc-pineapple", "ofc-pineapple(royalties.back.pair=1)"], 400,
                            setter="random", rng=1)
    royalty = table.set_index(["label", "metric"]).loc[("ofc-pineapple(royalties.back.pair=1)", "royalty")]
    assert royalty["diff"] > 0 and royalty["diff_ci_low"] >= 0  # a paid back pair pays more, on the same decks
    assert set(table["setter"]) == {"random/random"}  # one strategy a seat
    with pytest.raises(OptionError, match="compare plays one game on common deals"):
        cpstats.compare(["ofc-pineapple", "2-4"], 100)


def test_cli_compare_takes_open_face_presets(capsys):
    argv = ["compare", "--preset", "ofc-pineapple", "--preset", "ofc-pineapple-progressive",
            "--deals", "100", "--setter", "random", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ofc-pineapple, ofc-pineapple-progressive on 100 common hands")
    assert "baseline" in out[0] and out[1] == "foul rate"  # a figure a block
    assert out[2].split()[0] == "ofc-pineapple" and out[3].split()[0] == "ofc-pineapple-progressive"
