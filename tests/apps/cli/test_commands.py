"""The command line (cpstats.apps.cli.commands): help for every command, one-line refusals (exit 2,
no traceback), the report's plan validated before simulating, and the compile notice printed once
before kernels run."""

from __future__ import annotations

import argparse
import errno
import os
from pathlib import Path

import pytest

import cpstats.workbench
from cpstats.apps.cli import build_parser, main
from cpstats.errors import OptionError
from cpstats.engine.registry import get_preset
from cpstats.thirteen.rules.presets import preset_names
from cpstats.rules.house import Rake, RakeModel
from cpstats.thirteen.cli.options import SIMULATION_KERNELS
from cpstats.thirteen.cli.report import report_plan, split_systems

CARDS = "As Ks Qs Js Ts 9h 9d 9c 2c 2d 3h 4h 5h"
SETTING = "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts"
FAST = ["--deals", "2000", "--setter", "greedy", "--quiet"]
RAKED = [name for name in preset_names() if get_preset(name).rake.model is not RakeModel.NONE]


def _commands() -> list[str]:
    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(actions[0].choices)


def refused(capsys, command: str) -> str:
    """The stderr of a refusal: one line ``cpstats CMD: error: ...``."""
    err = capsys.readouterr().err
    assert err.startswith(f"cpstats {command}: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    """The kernels count as compiled, so stderr holds only what a test looks for."""
    import cpstats.apps.cli

    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: None)


@pytest.fixture
def no_simulation(monkeypatch):
    """Fail the test if the command starts simulating (its refusal must come first)."""
    def simulate(*args, **kwargs):
        raise AssertionError("simulate was called")

    monkeypatch.setattr(cpstats.workbench, "simulate", simulate)


# -- every --help --------------------------------------------------------------------

@pytest.mark.parametrize("command", [[], *([c] for c in _commands())])
def test_every_help_prints(command, capsys):
    """``--help`` of the program and of each subcommand (read from the parser, so a
    new command is covered) exits 0 and prints its usage (an unescaped % crashed ``match``)."""
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("usage: cpstats")


def test_match_help_shows_the_percent(capsys):
    """The escaped % reads as one % in the output."""
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "95% CI" in capsys.readouterr().out


# -- workers -------------------------------------------------------------------------

@pytest.mark.parametrize("workers", ["0", "-2", "two"])
def test_workers_below_one_are_refused(workers, capsys):
    """``--scheduler local --workers 0`` hung at 0% forever."""
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--preset", "2-4", "--scheduler", "local", "--workers", workers])
    assert exit_.value.code == 2
    assert "argument --workers" in capsys.readouterr().err


# -- folders, disks and schedulers ---------------------------------------------------

def test_empty_out_is_refused(capsys, no_simulation):
    """``--out ""`` wrote into the current folder."""
    assert main(["simulate", "--preset", "2-4", *FAST, "--out", ""]) == 2
    assert "--out must name a folder" in refused(capsys, "simulate")
    assert main(["report", "--preset", "2-4", *FAST, "--out", ""]) == 2
    assert "--out must name a folder" in refused(capsys, "report")


def test_keep_hands_needs_out(capsys, no_simulation):
    """``--keep-hands`` without ``--out`` kept nothing and said nothing."""
    assert main(["simulate", "--preset", "2-4", *FAST, "--keep-hands"]) == 2
    assert "--keep-hands needs --out" in refused(capsys, "simulate")


@pytest.mark.parametrize("command", ["simulate", "report", "reference"])
def test_a_file_in_place_of_out_is_refused_before_simulating(command, tmp_path, capsys, no_simulation):
    """A file where --out's folder should be is named, before any simulation."""
    path = tmp_path / "taken"
    path.write_text("not a folder")
    assert main([command, "--preset", "2-4", *FAST, "--out", str(path)]) == 2
    err = refused(capsys, command)
    assert str(path) in err and "not a folder" in err


@pytest.mark.skipif(not Path("/sys").is_dir(), reason="needs Linux's read-only /sys")
def test_an_unwritable_out_names_the_path_and_reason(capsys, no_simulation):
    """An unwritable --out gives the path and the OS reason (under /sys, which
    even root cannot write), before simulating."""
    assert main(["report", "--preset", "2-4", *FAST, "--out", "/sys/cpstats-report"]) == 2
    err = refused(capsys, "report")
    assert "/sys/cpstats-report" in err and "Operation not permitted" in err


def test_a_full_disk_is_one_line(monkeypatch, tmp_path, capsys):
    """An OSError raised while running (a full disk) is one line, exit 2."""
    target = str(tmp_path / "out" / "block-0.npz")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), target)

    monkeypatch.setattr(cpstats.workbench, "simulate", full)
    assert main(["simulate", "--preset", "2-4", *FAST, "--out", str(tmp_path / "out")]) == 2
    err = refused(capsys, "simulate")
    assert target in err and "No space left on device" in err


def test_an_unreachable_scheduler_is_named(monkeypatch, capsys, no_simulation):
    """A tcp:// scheduler that does not answer is one line naming the address."""
    pytest.importorskip("distributed")
    import cpstats.apps.cli.args

    monkeypatch.setattr(cpstats.apps.cli.args, "CONNECT_TIMEOUT", 1)
    assert main(["simulate", "--preset", "2-4", *FAST, "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = refused(capsys, "simulate")
    assert "tcp://127.0.0.1:1" in err and "cannot reach" in err


@pytest.mark.parametrize("address", ["udp://x", "tcp://host:notaport"])
def test_a_malformed_scheduler_is_refused(address, capsys, no_simulation):
    """An address that is not none, local or tcp://HOST:PORT is refused."""
    if address.startswith("tcp"):
        pytest.importorskip("distributed")
    assert main(["simulate", "--preset", "2-4", *FAST, "--scheduler", address]) == 2
    assert f"--scheduler={address!r} is invalid" in refused(capsys, "simulate")


def test_a_corrupt_run_json_is_one_line(tmp_path, capsys):
    """An --out whose run.json does not read is refused in one line (simulation
    refuses it; the CLI prints its OptionError)."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_text("{not json")
    assert main(["simulate", "--preset", "2-4", *FAST, "--out", str(out)]) == 2
    assert "run.json" in refused(capsys, "simulate")


# -- review and hands per hour -------------------------------------------------------

@pytest.mark.parametrize("pace", ["-1", "0", "nan", "inf", "fast"])
def test_hands_per_hour_must_be_a_positive_pace(pace, capsys):
    """A negative or NaN pace was printed into the report."""
    with pytest.raises(SystemExit) as exit_:
        main(["report", "--preset", "2-4", *FAST, "--hands-per-hour", pace])
    assert exit_.value.code == 2
    assert "argument --hands-per-hour" in capsys.readouterr().err


@pytest.mark.parametrize("preset, words", [
    ("2-4", "under 2-4 (2-4 scoring, 4 players), summed over 3 opponents, in units"),
    ("1-6(players=3)", "under 1-6(players=3) (1-6 scoring, 3 players), summed over 2 opponents, in units"),
])
def test_review_says_what_its_ev_is(preset, words, capsys):
    """``EV +6.102`` said nothing of against whom, in which game or in what units."""
    assert main(["review", CARDS, SETTING, "--preset", preset, "--top", "1"]) == 0
    head, mine = capsys.readouterr().out.splitlines()[:2]
    assert head.startswith("EV: expected points a hand " + words) and "before house charges" in head
    assert "ev tables trained for" in head and mine.startswith("your setting") and " EV " in mine


def test_review_refuses_tables_with_a_high_middle_in_one_line(capsys):
    """audit 13.7, issue 15.3: review values H5 settings (with H5 tables); tables trained with a
    high middle are refused in one line, exit 2."""
    assert main(["review", CARDS, SETTING, "--preset", "2-4(ranking=H5)", "--tables", "2-4"]) == 2
    assert "cannot set hands of '2-4(ranking=H5)'" in refused(capsys, "review")


# -- the report's plan ---------------------------------------------------------------

def test_the_raked_presets_are_the_three_known():
    assert {"pagat-casino", "futurebet-2-4", "futurebet-1-6"} <= set(RAKED)


@pytest.mark.parametrize("preset", RAKED)
def test_report_plan_of_raked_presets_validates(preset):
    """Every alternative rake model is a whole new Rake (a percent model no longer
    inherits the preset's fixed amount), keeping the preset's jackpot drop."""
    v = get_preset(preset)
    plan = report_plan(preset, "2-4,1-4,1-6,basic,2-4-total")
    models = {r.rake.model for r in plan.rakes} | {v.rake.model}
    assert models == set(RakeModel) - {RakeModel.NONE}
    for alt in plan.rakes:
        assert alt.rake.jackpot_drop == v.rake.jackpot_drop
        assert alt.replace(rake=v.rake) == v  # nothing but the rake changed
        assert alt.rake != v.rake
    assert plan.variant == v and all(s.players == v.players for s in plan.systems)


def test_report_plan_rakes_are_fresh_models():
    """The percent model takes 5% capped at 1, nothing of a fixed model."""
    plan = report_plan("pagat-casino", "2-4")
    percent = next(r.rake for r in plan.rakes if r.rake.model is RakeModel.PERCENT)
    assert percent == Rake(model=RakeModel.PERCENT, percent=0.05, cap=1.0, jackpot_drop=0.1,
                           jackpot_trigger=get_preset("pagat-casino").rake.jackpot_trigger)


def test_systems_split_at_the_top_level_only():
    """Commas inside a variant's parentheses do not split it."""
    text = "2-4, 1-6(royalties=R-FUTUREBET,rake=percent,rake.percent=0.05),,basic"
    assert split_systems(text) == ["2-4", "1-6(royalties=R-FUTUREBET,rake=percent,rake.percent=0.05)",
                                   "basic"]
    plan = report_plan("2-4", "2-4,1-6(royalties=R-FUTUREBET,rake=percent,rake.percent=0.05)")
    assert [s.rake.percent for s in plan.systems] == [0.05]  # 2-4 itself is the game played


def test_a_bad_system_is_refused_before_simulating(capsys, no_simulation, tmp_path):
    """A system that does not load is refused before the simulation."""
    assert main(["report", "--preset", "2-4", *FAST, "--out", str(tmp_path / "r"),
                 "--systems", "2-4,1-6(players=3"]) == 2
    assert "--systems" in refused(capsys, "report")


def test_report_plan_seats_systems_at_the_played_table():
    """audit 13.20 (decision): systems are scoring systems, rescored at the report's own table;
    one whose deal format differs is skipped and named."""
    plan = report_plan("2-4(players=3)", "1-6,criss-cross")
    assert [s.players for s in plan.systems] == [3]
    assert plan.skipped and "criss-cross" in plan.skipped[0]
    with pytest.raises(OptionError, match="--systems"):
        report_plan("2-4", "no-such-preset")


def test_report_of_a_raked_preset_runs(tmp_path, capsys):
    """``report --preset pagat-casino`` failed after simulating; now exit 0."""
    out = tmp_path / "report"
    assert main(["report", "--preset", "pagat-casino", *FAST, "--out", str(out)]) == 0
    assert (out / "report.md").exists() and (out / "rake_burden.png").exists()
    assert "report written" in capsys.readouterr().out


# -- the compile notice --------------------------------------------------------------

def test_compile_message_is_printed_once_before_kernels(monkeypatch, capsys):
    """The first call after install compiles silently for a long while."""
    import cpstats.apps.cli

    asked = []
    notice = "compiling kernels: numba 0.1 changed to 0.2 since the last compile (a few minutes, once)"
    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: asked.append(modules) or notice)
    assert main(["review", CARDS, SETTING]) == 0
    assert capsys.readouterr().err.count(notice) == 1
    assert asked == [("_bits", "_rank_kernel", "review")]
    assert main(["simulate", "--preset", "2-4", *FAST]) == 0
    assert capsys.readouterr().err.count(notice) == 1
    assert asked[-1] == (*SIMULATION_KERNELS, "_greedy_kernel")
    assert main(["presets"]) == 0  # no kernels: no notice
    assert "compiling kernels" not in capsys.readouterr().err
    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: None)
    assert main(["review", CARDS, SETTING]) == 0
    assert "compiling kernels" not in capsys.readouterr().err


def test_simulate_plays_an_open_face_preset(capsys):
    """``cpstats simulate --preset ofc-pineapple`` plays open-face hands (here with
    the random baseline, named as such) and prints the figures with their intervals; a player
    count the deal cannot seat is one line, exit 2."""
    assert main(["simulate", "--preset", "ofc-pineapple", "--deals", "60", "--setter", "random",
                 "--quiet", "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ofc-pineapple: 60 hands, strategy random/random (a baseline: no skill")
    assert out[2] == "metric,estimate,ci_low,ci_high,method"
    rows = {line.split(",")[0]: line.split(",") for line in out[3:]}
    assert {"foul_rate", "fl_entry_rate", "royalty", "sd_seat0"} <= set(rows)
    low, estimate, high = (float(rows["foul_rate"][i]) for i in (2, 1, 3))
    assert 0 < low <= estimate <= high < 1
    assert main(["simulate", "--preset", "ofc-pineapple", "--deals", "10", "--players", "4",
                 "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "players" in err[0]
