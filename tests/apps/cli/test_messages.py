"""What the command line says: argparse's usage errors in one line, baseline setters named as
such beside their figures, open-face presets listed and refused by name where a command plays
13-card Chinese poker, and an --out that cannot be made named as --out."""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path

import pandas as pd
import pytest

import cpstats.workbench
from cpstats.apps.cli import main
from cpstats.apps.labels import SETTER_NAMES as _SETTERS
from cpstats.engine.registry import GAMES
from cpstats.thirteen.rules.presets import preset_names

CARDS = "As Ks Qs Js Ts 9h 9d 9c 2c 2d 3h 4h 5h"
SETTING = "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts"
FAST = ["--deals", "300", "--quiet"]


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    """The kernels count as compiled, so stderr holds only what a test looks for."""
    import cpstats.apps.cli

    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: None)


def one_line(capsys, command: str) -> str:
    """The stderr of a refusal: one line ``cpstats COMMAND: error: ...``, no traceback."""
    err = capsys.readouterr().err
    assert err.startswith(f"cpstats {command}: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "usage:" not in err
    return err


# -- usage errors -----------------------------------------------------------------------------

@pytest.mark.parametrize("argv, option, allowed", [
    (["simulate", "--preset", "2-4", "--deals", "abc"], "--deals", "a whole number >= 1"),
    (["simulate", "--preset", "2-4", "--deals", "0"], "--deals", "must be >= 1"),
    (["simulate", "--preset", "2-4", "--deals", "1.5"], "--deals", "a whole number >= 1"),
    (["simulate", "--preset", "2-4", "--seed", "abc"], "--seed", "a whole number >= 0"),
    (["simulate", "--preset", "2-4", "--workers", "0"], "--workers", "must be >= 1"),
    (["simulate", "--preset", "2-4", "--players", "5"], "--players", "choose from 2, 3, 4"),
    (["sweep", "2-4", "players", "2,3", "--deals", "x"], "--deals", "a whole number >= 1"),
    (["par", "2-4", "--deals", "-3"], "--deals", "must be >= 1"),
    (["sweep", "2-4", "players", "2,3", "--seed", "x"], "--seed", "a whole number >= 0"),
    (["par", "2-4", "--seed", "-1"], "--seed", "must be >= 0"),
])
def test_a_usage_error_is_one_line_naming_the_option(argv, option, allowed, capsys):
    """argparse's errors (a bad type, a value out of range or of the choices) are one line naming
    the option and what it allows, pointing to --help, status 2: no usage block; the commands
    added from their own modules (sweep, par) read alike."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = one_line(capsys, argv[0])
    assert f"argument {option}: " in err and allowed in err
    assert err.rstrip().endswith(f"(see cpstats {argv[0]} --help)")


def test_a_missing_command_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cpstats: error: ") and err.count("\n") == 1 and "--help" in err


# -- baselines named beside their figures -----------------------------------------------------

@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_simulate_names_a_baseline_in_its_header(strategy, capsys):
    """The 13-card header names greedy and random as baselines, in the report's words."""
    assert main(["simulate", "--preset", "2-4", *FAST, "--setter", strategy]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head == f"2-4: 300 deals, strategy {_SETTERS[strategy]}"


def test_simulate_json_says_what_run_it_is(capsys):
    """JSON carries a ``run`` object (variant, deals, strategy and its note) beside the tables,
    which keep their keys."""
    assert main(["simulate", "--preset", "1-6", *FAST, "--setter", "greedy", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"] == {"variant": "1-6", "deals": 300, "strategy": "greedy", "setter": {"name": "greedy"},
                           "strategy_note": _SETTERS["greedy"]}
    assert {"moments", "rates", "royalties", "naturals", "house", "sessions"} <= set(data)
    assert data["moments"][0]["seat"] == 0


def test_compare_names_its_setter_in_a_table_and_a_file(capsys):
    """compare's table opens with a line naming the presets and the setter (a baseline as one);
    its CSV stays one table, with a setter column so a file handed on says who set the hands."""
    argv = ["compare", "--preset", "2-4", "--preset", "1-6", *FAST, "--setter", "random"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("2-4, 1-6 on 300 common deals") and _SETTERS["random"] in out[0]
    assert out[1] == "SD per hand, before house charges (units)" and out[2].split()[0] == "2-4"  # a figure a block
    assert main([*argv, "--format", "csv"]) == 0
    csv = capsys.readouterr().out.splitlines()
    assert csv[0].startswith("label,setter,metric,estimate,") and csv[1].split(",")[1] == "random"


def test_presets_table_names_a_live_baseline(capsys):
    assert main(["presets-table", "--deals", "100", "--setter", "greedy"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head == f"every preset, 100 deals each, strategy {_SETTERS['greedy']}"


def test_reference_names_a_baseline_first(tmp_path, capsys):
    assert main(["reference", "--preset", "2-4", *FAST, "--setter", "greedy",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"strategy {_SETTERS['greedy']}" and out[1].startswith("2-4: 300 deals")


# -- open-face presets ------------------------------------------------------------------------

def test_presets_lists_the_open_face_presets(capsys):
    """``cpstats presets`` lists the ofc-* presets after the 13-card ones, marked open-face and
    saying they are played with ``cpstats simulate``; the existing columns are kept."""
    assert main(["presets", "--format", "csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), dtype=str, keep_default_na=False)
    assert list(table.columns) == ["name", "game", "description", "seed", "variant"]
    assert table["name"].tolist() == [*preset_names(), *GAMES["open-face"].presets]
    open_face = table[table["game"] == "open-face"]
    assert open_face["name"].tolist() == list(GAMES["open-face"].presets)
    for name, description in zip(open_face["name"], open_face["description"]):
        assert f"cpstats simulate --preset {name}" in description
    assert set(table.loc[table["game"] != "open-face", "game"]) == {"13-card"}
    assert main(["presets"]) == 0
    assert "open-face" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["report", "--preset", "ofc-pineapple"],
    ["train", "--preset", "ofc-pineapple"],
    ["match", "--preset", "ofc-pineapple"],
    ["review", CARDS, SETTING, "--preset", "ofc-pineapple"],
    ["reference", "--preset", "2-4", "--preset", "ofc-pineapple"],
])
def test_a_13_card_command_refuses_an_open_face_preset_by_name(argv, capsys, monkeypatch):
    """Every command that plays 13-card Chinese poker says an ofc-* preset is open face and where
    it is played, instead of calling it unknown; before anything runs."""
    monkeypatch.setattr(cpstats.workbench, "simulate", lambda *a, **k: pytest.fail("simulated"))
    assert main(argv) == 2
    err = one_line(capsys, argv[0])
    assert "'ofc-pineapple' is an open-face preset" in err and "unknown preset" not in err
    assert f"cpstats {argv[0]} is for 13-card Chinese poker" in err
    assert "cpstats simulate --preset ofc-pineapple" in err


def test_open_face_refusals_name_the_python_function_and_quote_a_variant_string(capsys):
    assert main(["train", "--preset", "ofc-classic(players=3)"]) == 2
    err = one_line(capsys, "train")
    assert "--preset='ofc-classic(players=3)'" in err and "cpstats.simulate" in err
    assert "cpstats simulate --preset 'ofc-classic(players=3)'" in err
    assert main(["compare", "--preset", "2-4", "--preset", "ofc-classic(players=3)"]) == 2
    assert "compare plays one game on common deals" in one_line(capsys, "compare")


@pytest.mark.parametrize("argv", [
    ["simulate", "--preset", "2-4", "--tables", "ofc-classic"],
    ["compare", "--preset", "2-4", "--preset", "1-6", "--tables", "ofc-classic"],
])
def test_open_face_tables_are_refused_by_name(argv, capsys):
    assert main([*argv, *FAST]) == 2
    err = one_line(capsys, argv[0])
    assert "--tables='ofc-classic' is an open-face preset" in err and "unknown preset" not in err


def test_an_open_face_system_is_refused_by_name(tmp_path, capsys):
    assert main(["report", "--preset", "2-4", *FAST, "--out", str(tmp_path / "r"),
                 "--systems", "2-4,ofc-classic"]) == 2
    assert "--systems item 'ofc-classic' is an open-face preset" in one_line(capsys, "report")


def test_simulate_still_plays_an_open_face_preset(capsys):
    """The refusal leaves ``simulate --preset ofc-*`` alone."""
    assert main(["simulate", "--preset", "ofc-classic", "--deals", "20", "--setter", "random",
                 "--quiet", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["figures"]


# -- --out ------------------------------------------------------------------------------------

@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("command", ["simulate", "report", "sweep"])
def test_an_out_that_cannot_be_made_names_out(command, capsys, monkeypatch):
    """``--out /proc/forbidden`` printed the OS reason alone; now it names --out, before
    simulating."""
    monkeypatch.setattr(cpstats.workbench, "simulate", lambda *a, **k: pytest.fail("simulated"))
    argv = ["sweep", "2-4", "players", "2,3"] if command == "sweep" else [command, "--preset", "2-4"]
    assert main([*argv, *FAST, "--setter", "greedy", "--out", "/proc/forbidden"]) == 2
    err = one_line(capsys, command)
    assert "--out='/proc/forbidden' is invalid: the folder cannot be created" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only folder")
def test_a_read_only_out_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cpstats.workbench, "simulate", lambda *a, **k: pytest.fail("simulated"))
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o500)
    assert main(["simulate", "--preset", "2-4", *FAST, "--out", str(folder)]) == 2
    assert f"--out={str(folder)!r} is invalid: {folder} is not writable" in one_line(capsys, "simulate")


def test_a_write_failing_inside_out_names_out(tmp_path, capsys, monkeypatch):
    """An OS error on a file inside --out (a full disk mid-run) is led by --out; one elsewhere is
    not."""
    out = tmp_path / "out"
    for target, named in ((out / "block-000000.npz", True), (tmp_path / "elsewhere", False)):
        def full(*args, target=target, **kwargs):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

        monkeypatch.setattr(cpstats.workbench, "simulate", full)
        assert main(["simulate", "--preset", "2-4", *FAST, "--out", str(out)]) == 2
        err = one_line(capsys, "simulate")
        assert str(target) in err and "No space left on device" in err
        assert (f"--out={str(out)!r} cannot be written" in err) is named


def test_a_greedy_sweep_names_its_setter_a_baseline(capsys):
    """The sweep table's header says who set the hands, a baseline in the baseline's words."""
    assert main(["sweep", "2-4", "players", "2,3", "--deals", "300", "--setter", "greedy"]) == 0
    head = next(line for line in capsys.readouterr().out.splitlines() if " swept on " in line)
    assert f"set by {_SETTERS['greedy']};" in head


def test_reference_refuses_to_replace_the_shipped_ev_results_with_a_baseline(capsys):
    """``reference --setter greedy`` without --out would overwrite the shipped ev references."""
    assert main(["reference", "--preset", "2-4", "--deals", "300", "--setter", "greedy", "--quiet"]) == 2
    assert "--setter greedy needs --out" in one_line(capsys, "reference")


def test_a_reader_that_stops_reading_ends_the_command_quietly(monkeypatch, capsys):
    """``cpstats presets | head -1``: a broken pipe is no error of ours: nothing on stderr."""
    import cpstats.apps.cli

    def closed_pipe(args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cpstats.apps.cli.entry, "_presets", closed_pipe)
    monkeypatch.setattr(cpstats.apps.cli.entry, "_discard_stdout", lambda: None)
    assert main(["presets"]) == 1
    assert capsys.readouterr().err == ""


# -- --until: whether the precision was reached -----------------------------------------------

def test_until_stopped_by_deals_says_so_on_stderr_and_in_the_output(capsys):
    """A run that stops at --deals before its precision said nothing (only the API's metadata
    held reached: False)."""
    argv = ["simulate", "--preset", "banked", "--deals", "5000", "--setter", "greedy",
            "--until", "house_edge=0.00001", "--quiet"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("cpstats simulate: warning: until house_edge=1e-05 not reached: stopped at "
                                   "the most deals allowed, 5,000, with 95% half-width house_edge ")
    assert captured.err.rstrip().endswith("deals would reach it")
    assert captured.out.splitlines()[1] == captured.err.split("warning: ", 1)[1].rstrip()
    assert main([*argv, "--format", "json"]) == 0
    until = json.loads(capsys.readouterr().out)["run"]["until"]
    assert until["reached"] is False and until["deals"] == until["max_deals"] == 5000
    assert until["half_widths"]["house_edge"] > 1e-05 and "not reached" in until["note"]


def test_until_reached_is_said_in_the_output_only(capsys):
    assert main(["simulate", "--preset", "banked(bank.setter=ev)", "--deals", "50000", "--setter", "greedy",
                 "--until", "house_edge=0.005", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.splitlines()[0].startswith("banked(bank.setter=ev): 4,000 deals")
    assert captured.out.splitlines()[1].startswith("until house_edge=0.005 reached at 4,000 deals (95% half-width")


def test_open_face_until_is_played_not_ignored(capsys):
    """cpstats simulate --preset ofc-... dropped --until: it played every hand, never checked the
    figure's name, and said nothing."""
    base = ["simulate", "--preset", "ofc-pineapple", "--setter", "random", "--quiet"]
    assert main([*base, "--deals", "600", "--until", "foul_rate=0.1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ofc-pineapple: 100 hands") and out[1].startswith("until foul_rate=0.1 reached at 100 hands")
    assert main([*base, "--deals", "60", "--until", "foul_rate=0.0001", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("cpstats simulate: warning: until foul_rate=0.0001 not reached: stopped at "
                                   "the most hands allowed, 60,")
    assert json.loads(captured.out)["run"]["until"]["reached"] is False
    assert main([*base, "--deals", "60", "--until", "foul=0.1"]) == 2
    assert "metric='foul' is not a figure of the open-face game" in one_line(capsys, "simulate")


@pytest.mark.parametrize("argv, match", [
    (["sweep", "2-4", "players", "3,3"], "players=3 is given twice: give each value once"),
    (["sweep", "ofc-pineapple", "royalties.front.QQ", "1,2,1"], "royalties.front.QQ=1 is given twice"),
    (["solve", "2-4", "scoring.scoop_bonus", "--metric", "sd", "--target", "7", "--bounds", "0,3,3",
      "--scheduler", "none"], "scoring.scoop_bonus=3 is given twice: give each value once"),
])
def test_a_value_given_twice_is_one_line(argv, match, capsys, monkeypatch):
    monkeypatch.setattr(cpstats.workbench, "simulate", lambda *a, **k: pytest.fail("simulated"))
    assert main([*argv, "--deals", "300", "--setter", "greedy", "--quiet"]) == 2
    assert match in one_line(capsys, argv[0])


# -- options named as the user gave them ---------------------------------------------------------

def usage_error(argv: list[str]) -> int:
    """The exit status of a command argparse refuses (it exits rather than returning)."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    return exit_.value.code


@pytest.mark.parametrize("value", ["0", "nan", "-1", "inf"])
def test_a_bad_solve_precision_is_named_as_precision(value, capsys, monkeypatch):
    """--precision 0 was reported as ``until['house_edge']=0.0 is invalid``, an option never given."""
    monkeypatch.setattr(cpstats.workbench, "simulate", lambda *a, **k: pytest.fail("simulated"))
    assert usage_error(["solve", "banked", "bank.commission", "--metric", "house_edge", "--target", "0.015",
                        "--bounds", "0,0.1", "--precision", value]) == 2
    line = one_line(capsys, "solve")
    assert f"argument --precision: {value} is invalid: a half-width above 0" in line and "until" not in line


def test_a_figure_given_twice_to_until_is_refused(capsys):
    """``--until sd=0.1,sd=0.2`` played to sd=0.2, the last one, silently."""
    assert usage_error(["simulate", "--preset", "2-4", "--until", "sd=0.1,sd=0.2", *FAST]) == 2
    assert "argument --until: sd is given twice (sd=0.1, sd=0.2): give each once" in one_line(capsys, "simulate")


# -- a misspelt figure: the likely name first, then the headline ones --------------------------

@pytest.mark.parametrize("argv, command", [
    (["solve", "banked", "bank.commission", "--metric", "house_egde", "--target", "0.015", "--bounds", "0,0.1",
      "--scheduler", "none"], "solve"),
    (["simulate", "--preset", "banked", "--until", "house_egde=0.01", "--setter", "greedy"], "simulate"),
    (["design", "banked", "--space", "bank.commission=0:0.08", "--objective", "house_egde", "--trials", "2"],
     "design"),
    (["design", "banked", "--space", "bank.commission=0:0.08", "--objective", "sd", "--constraint",
      "house_egde=0:0.1", "--trials", "2"], "design"),
])
def test_an_unknown_figure_says_did_you_mean_first_then_the_headline_ones(argv, command, capsys):
    """The refusal listed every figure of every seat, hand and natural (about 120 names) with "did
    you mean" at its very end."""
    assert main([*argv, "--quiet"]) == 2
    line = one_line(capsys, command)
    assert line.index("(did you mean 'house_edge'?)") < line.index("the headline figures are bank_mean, house_edge, sd")
    assert "mean_seat0" not in line and "natural_rate_dragon" not in line and len(line) < 500
    assert line.rstrip().endswith("cpstats figures banked")


def test_figures_lists_every_figure_the_headline_ones_first(capsys):
    from cpstats.engine.registry import load_variant
    from cpstats.engine.lookup import figure_names, headline_names

    assert main(["figures", "banked"]) == 0
    out = capsys.readouterr().out
    names = figure_names(load_variant("banked"))
    head, rest = out.split("\n\n")
    assert head.splitlines()[1:] == headline_names(names) and "house_edge" in head and "mean_seat0" not in head
    assert sorted(head.splitlines()[1:] + rest.split()) == sorted(names)


def test_an_unknown_sweep_metric_says_did_you_mean_before_the_list(capsys):
    assert main(["sweep", "2-4", "scoring.scoop_bonus", "0,3", "--metrics", "scop_rate", *FAST]) == 2
    line = one_line(capsys, "sweep")
    assert "metrics='scop_rate' is invalid (did you mean 'scoop_rate'?): choose from " in line


@pytest.mark.parametrize("metrics, named", [("home_run_rate,fl_entry_rate", "home_run_rate"), ("xyz", "xyz")])
def test_the_open_face_sweep_names_the_whole_metric_grown_to_its_precision(metrics, named, capsys):
    """Without --deals the sweep grows to its precision, and that path iterated the text letter by
    letter: ``metrics='s' is invalid``."""
    assert main(["sweep", "ofc-pineapple", "royalties.front.QQ", "7,9", "--metrics", metrics, "--quiet"]) == 2
    assert f"metrics='{named}' is invalid for an open-face sweep" in one_line(capsys, "sweep")


# -- one set of option names -----------------------------------------------------------------------

def test_compare_takes_players_and_its_errors_point_at_its_own_help(capsys):
    argv = ["compare", "--preset", "2-4", "--preset", "1-6", "--players", "3", *FAST, "--setter", "random"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("2-4, 1-6 at 3 players on 300 common deals") and "1-6, 3 players" in out
    assert usage_error(["compare", "--preset", "2-4", "--preset", "1-6", "--bogus", "1"]) == 2
    assert "unrecognized arguments: --bogus 1 (see cpstats compare --help)" in one_line(capsys, "compare")


@pytest.mark.parametrize("command", [["simulate", "--preset", "2-4"], ["compare", "--preset", "2-4"],
                                     ["sweep", "2-4", "players", "2,3"], ["par", "2-4"],
                                     ["solve", "2-4", "sd", "--metric", "sd", "--target", "1", "--bounds", "0,1"],
                                     ["presets-table"], ["reference"], ["report"]])
def test_the_setter_option_is_setter_everywhere(command, capsys):
    """The API says setter=; the command line said --strategy: the old flag is refused naming the new."""
    assert usage_error([*command, "--strategy", "greedy"]) == 2
    line = one_line(capsys, command[0])
    assert "unrecognized arguments: --strategy greedy (--strategy is now --setter)" in line
    assert f"(see cpstats {command[0]} --help)" in line
