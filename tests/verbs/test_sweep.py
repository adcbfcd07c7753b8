"""Sweeps of either game, and the long commands on any executor: serial, a thread pool and a Dask
LocalCluster give the same sweep and skill tables; an open-face sweep over a key of its variant
string is paired on common decks in the 13-card sweep's layout."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

import cpstats
from cpstats.thirteen.play import EvSetter
from cpstats import OptionError
from cpstats.apps.cli import main
from cpstats.ofc import simulation as ofc_sim
from cpstats.workbench import sweep
from cpstats.engine.points import sweep_variants

SWEEP = dict(deals=600, setter="greedy", rng=5, block_deals=200, metrics=["sd", "scoop_rate"])
#: The 13-card sweep's columns, which an open-face sweep's table also has (and ``method``).
COLUMNS = ["parameter", "value", "variant", "metric", "label", "estimate", "ci_low", "ci_high", "diff",
           "diff_ci_low", "diff_ci_high", "diff_events", "diff_note", "deals_for_interval"]


def test_sweep_is_the_same_serial_on_threads_and_on_dask(dask_executor):
    serial = sweep("2-4", "scoring.scoop_bonus", [0, 3], **SWEEP)
    with ThreadPoolExecutor(2) as pool:
        threads = sweep("2-4", "scoring.scoop_bonus", [0, 3], executor=pool, **SWEEP)
    dask = sweep("2-4", "scoring.scoop_bonus", [0, 3], executor=dask_executor, **SWEEP)
    pd.testing.assert_frame_equal(serial, threads)
    pd.testing.assert_frame_equal(serial, dask)


def test_an_open_face_sweep_is_the_same_on_dask(dask_executor):
    kw = dict(deals=300, setter="random", rng=4, block_deals=100)
    serial = sweep("ofc-pineapple", "royalties.back.pair", [0, 2], **kw)
    pd.testing.assert_frame_equal(serial, sweep("ofc-pineapple", "royalties.back.pair", [0, 2],
                                                executor=dask_executor, **kw))


def test_skill_is_the_same_serial_on_threads_and_on_dask(dask_executor):
    serial = cpstats.skill("2-4", deals=300, rng=3)
    with ThreadPoolExecutor(2) as pool:
        threads = cpstats.skill("2-4", deals=300, rng=3, executor=pool)
    dask = cpstats.skill("2-4", deals=300, rng=3, executor=dask_executor)
    pd.testing.assert_frame_equal(serial, threads)
    pd.testing.assert_frame_equal(serial, dask)
    assert serial.attrs == dask.attrs


def test_skill_refuses_an_executor_that_is_none_of_them():
    with pytest.raises(OptionError, match="executor="):
        cpstats.skill("2-4", deals=10, rng=1, executor="dask")


def test_par_sheet_runs_its_live_run_on_the_executor(monkeypatch):
    """The PAR sheet hands its executor to the run it simulates."""
    import cpstats.thirteen.run as simulation  # the 13-card sheet's run

    seen = []
    real = simulation.simulate

    def simulate(*args, **kwargs):
        seen.append(kwargs.get("executor"))
        return real(*args, **kwargs)

    monkeypatch.setattr(simulation, "simulate", simulate)
    with ThreadPoolExecutor(2) as pool:
        cpstats.par_sheet("2-4", deals=400, setter="greedy", rng=1, executor=pool)
    assert seen and seen[0] is pool


def test_cli_sweep_on_a_local_cluster_prints_the_serial_table(capsys):
    argv = ["sweep", "2-4", "scoring.scoop_bonus", "0,3", "--deals", "300", "--setter", "greedy",
            "--metrics", "sd", "--quiet", "--format", "csv"]
    pytest.importorskip("dask.distributed")
    assert main([*argv, "--scheduler", "local", "--workers", "2"]) == 0
    dask = capsys.readouterr().out
    assert main([*argv, "--scheduler", "none"]) == 0
    assert dask == capsys.readouterr().out and "scoring.scoop_bonus" in dask


def test_cli_refuses_an_unknown_scheduler_for_sweep(capsys):
    assert main(["sweep", "2-4", "players", "2,3", "--scheduler", "cloud"]) == 2
    assert "--scheduler='cloud' is invalid: use none, threads, local or tcp://HOST:PORT" in capsys.readouterr().err


# -- open face --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def back_pair():
    return sweep("ofc-pineapple", "royalties.back.pair", [0, 1, 2], deals=600, setter="random", rng=11,
                 block_deals=200)


def test_an_open_face_sweep_has_the_13_card_layout(back_pair):
    assert list(back_pair.columns[:len(COLUMNS)]) == COLUMNS
    assert back_pair.attrs["unit"] == "hands" and back_pair.attrs["pairing"] == "common deals"
    assert back_pair.attrs["parameter_label"] == "Royalty for pair in the back (units)"
    assert list(dict.fromkeys(back_pair["value"])) == [0, 1, 2]


def test_back_pair_royalties_rise_with_exact_paired_differences(back_pair):
    """Random play never looks at the royalties, so every point plays the same boards: royalties
    per board rise by the back pairs made per board for each unit, the paired interval above 0,
    and the other figures do not move at all (no batch differs: no interval)."""
    royalty = back_pair[back_pair["metric"] == "royalty"].set_index("value")
    assert royalty["estimate"].is_monotonic_increasing and royalty.loc[0, "estimate"] < royalty.loc[2, "estimate"]
    assert (royalty.loc[[1, 2], "diff_ci_low"] > 0).all()
    assert royalty.loc[2, "diff"] == pytest.approx(2 * royalty.loc[1, "diff"])
    played = ofc_sim.simulate("ofc-pineapple(royalties.back.pair=1)", 600, setter="random", rng=11,
                              block_deals=200)
    direct = played.figures().set_index("metric").at["royalty", "estimate"]
    assert royalty.loc[1, "estimate"] == direct  # a point is the direct run of its variant
    fouls = back_pair[(back_pair["metric"] == "foul_rate") & (back_pair["value"] == 2)].iloc[0]
    assert fouls["diff"] == 0 and fouls["diff_events"] == 0 and "too few events" in fouls["diff_note"]
    first = back_pair[back_pair["value"] == 0]
    assert (first["diff"].fillna(0) == 0).all() and (first["diff_ci_low"].dropna() == 0).all()


def test_a_stay_rule_sweep_runs_and_names_its_values():
    table = sweep("ofc-pineapple", "fantasyland.stay", ["A", "B", "none"], deals=300, setter="random",
                  rng=2, block_deals=100, metrics=["fl_stay_rate", "foul_rate"])
    assert list(dict.fromkeys(table["variant"]))[2] == "ofc-pineapple(fantasyland.stay=none)"
    assert set(table["metric"]) == {"fl_stay_rate", "foul_rate"} and len(table) == 6


def test_open_face_keys_are_written_as_the_variant_string_writes_them():
    vs = sweep_variants("ofc-pineapple", "fantasyland.cards", ["14/15/16/17", "0/15/16/17"])
    assert [v.fantasyland.cards for v in vs] == [(14, 15, 16, 17), (0, 15, 16, 17)]
    table = sweep("ofc-pineapple", "royalties.back.trips", [2, 3], deals=100, setter="random", rng=1,
                  metrics=["royalty"])
    assert set(table["parameter"]) == {"royalties.back.three_of_a_kind"}


@pytest.mark.parametrize("parameter, values, message", [
    ("royalties.front.QX", [5], r"'royalties.front.QX' is an unknown key \(did you mean"),
    ("fantasyland.stay", ["C"], "fantasyland.stay"),
    ("name", ["x"], "parameter='name' is invalid"),
])
def test_bad_open_face_keys_and_values_are_the_parsers_one_line(parameter, values, message):
    with pytest.raises(OptionError, match=message):
        sweep_variants("ofc-pineapple", parameter, values)
    with pytest.raises(OptionError, match=message):
        sweep("ofc-pineapple", parameter, values, deals=10, setter="random")


@pytest.mark.parametrize("options, message", [
    ({"metrics": ["home_run_rate"]}, "metrics='home_run_rate' is invalid for an open-face sweep"),
    ({"setter": "genius"}, "setter='genius' is invalid for an open-face variant"),
    ({"setter": EvSetter(tables="2-4")}, "tables= does not apply to open-face variants"),
    ({"setter": EvSetter()}, r"setter=EvSetter\(tables=None\) is a 13-card setter: open-face setters are"),
])
def test_open_face_sweep_options_are_refused_in_one_line(options, message):
    with pytest.raises(OptionError, match=message):
        sweep("ofc-pineapple", "royalties.front.QQ", [6, 9], deals=10, **{"setter": "random", **options})


def test_cli_open_face_sweep_prints_a_table_naming_the_baseline(capsys):
    assert main(["sweep", "ofc-pineapple", "royalties.front.QQ", "6,9", "--deals", "100",
                 "--setter", "random", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = lines[0]
    assert "swept on ofc-pineapple: 100 hands a point on common deals" in head
    assert "the baseline royalties.front.QQ=6" in head and "random, a baseline setter" in head
    assert lines[1] == "royalties per board (units)"  # a figure a block, a line a point
    assert lines[3].split()[0] == "royalties.front.QQ=9" and "diff" in lines[3]


def test_an_open_face_sweep_draws(back_pair):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from cpstats.apps.sweep_chart import plot_sweep

    fig = plot_sweep(back_pair, kind="difference")
    assert len([ax for ax in fig.axes if ax.get_visible()]) == back_pair["metric"].nunique()
    assert np.isfinite(back_pair["estimate"].to_numpy(float)).any()


@pytest.mark.parametrize("variant, parameter, values, setter", [
    ("2-4", "scoring.scoop_bonus", [0, 3], "greedy"),
    ("ofc-pineapple", "royalties.front.QQ", [7, 9], "random"),
])
def test_the_verb_checks_the_points_and_resolves_the_setter_once(variant, parameter, values, setter, monkeypatch):
    """The verb lists the values, builds and checks the points and resolves the setter once; the
    game's sweep plays those very points with that very setter (no second build or resolution)."""
    import dataclasses
    import importlib

    from cpstats.engine.games import runs_of

    points_module = importlib.import_module("cpstats.engine.points")
    listed, built, resolved, played = [], [], [], []

    def counted(real, calls):
        def call(*args, **kwargs):
            calls.append(real(*args, **kwargs))
            return calls[-1]
        return call

    for name in ("cpstats.workbench.sweep", "cpstats.engine.points", "cpstats.thirteen.sweep"):
        module = importlib.import_module(name)
        monkeypatch.setattr(module, "sweep_values", counted(points_module.sweep_values, listed))
        if hasattr(module, "sweep_points"):
            monkeypatch.setattr(module, "sweep_points", counted(points_module.sweep_points, built))
    runs = runs_of(variant)

    def game_sweep(*args, points, setter, **kwargs):
        played.append((points, setter))
        return runs.sweep(*args, points=points, setter=setter, **kwargs)

    once = dataclasses.replace(runs, sweep=game_sweep, setter=counted(runs.setter, resolved))
    monkeypatch.setattr(importlib.import_module("cpstats.workbench.sweep"), "runs_of", lambda v: once)
    table = sweep(variant, parameter, values, deals=40, setter=setter, rng=1, metrics=["foul_rate"])
    assert len(listed) == len(built) == len(resolved) == len(played) == 1
    assert played[0][0] is built[0] and played[0][1] is resolved[0]
    assert table["variant"].tolist() == [str(p) for p in built[0]]
