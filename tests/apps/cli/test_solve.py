"""``cpstats solve`` and ``cpstats design`` (cpstats.apps.cli.solve): a header and the evaluations, the
Pareto table, open-face variants played with the API's defaults, bad input refused as the API does."""

from __future__ import annotations

import json

import pytest

from cpstats.apps.cli import build_parser
from cpstats.errors import OptionError

OFC_RAKE = "ofc-pineapple(rake=percent)"


def _run(*argv: str) -> str:
    args = build_parser().parse_args(list(argv))
    return args.run(args)


def test_solve_command_prints_a_header_and_the_evaluations():
    text = _run("solve", "banked(bank.setter=ev)", "bank.commission", "--metric", "house_edge", "--target", "0.015",
                "--bounds", "0,0.1", "--deals", "1000", "--setter", "greedy", "--quiet", "--scheduler", "none")
    head, *rows = text.splitlines()
    assert head.startswith("bank.commission = ") and "95% CI" in head and "seed 2026" in head
    assert head.endswith("set by greedy, a baseline setter (a weak field: not the figures of good play)")
    assert rows[0].split()[:3] == ["order", "value", "estimate"]
    out = json.loads(_run("solve", "banked(bank.setter=ev)", "bank.commission", "--metric", "house_edge", "--target", "0.015",
                          "--bounds", "0,0.1", "--deals", "1000", "--setter", "greedy", "--quiet",
                          "--format", "json"))
    assert out["solution"]["ci_low"] < out["solution"]["value"] < out["solution"]["ci_high"]


def test_solve_command_passes_the_growth_options_and_says_which_stop_came_first():
    """--width and --max-deals reach solve(width=, max_deals=): a cap too small for the width is said
    in the header; with --deals (a fixed budget) they are one line."""
    common = ("solve", "2-4", "royalties.front_trips", "--metric", "sd", "--target", "6.65", "--bounds", "0,30",
              "--setter", "greedy", "--quiet", "--scheduler", "none")
    head = _run(*common, "--width", "3", "--max-deals", "20000").splitlines()[0]
    assert "width=3 not reached: the cap of 20,000 deals an evaluation (max_deals) came first" in head
    with pytest.raises(OptionError, match=r"width= and deals= are invalid together"):
        _run(*common, "--width", "3", "--deals", "1000")


def test_design_command_prints_the_pareto_table():
    text = _run("design", "banked", "--space", "bank.commission=0:0.08", "--objective", "sd", "--constraint",
                "house_edge=0.005:0.03", "--trials", "3", "--deals", "600", "--setter", "greedy", "--quiet")
    assert text.startswith("design on banked: maximise sd") and "Pareto table" in text
    assert "subject to house_edge in 0.005..0.03;" in text and "set by greedy, a baseline setter" in text
    one_sided = _run("design", "banked", "--space", "bank.commission=0:0.08", "--objective", "sd", "--constraint",
                     "house_edge=:0.03", "--trials", "2", "--deals", "400", "--setter", "greedy", "--quiet")
    assert "subject to house_edge <= 0.03;" in one_sided and "None" not in one_sided.splitlines()[0]


@pytest.mark.parametrize("argv, match", [
    (["design", "banked", "--space", "bank.commission", "--objective", "sd"], r"--space 'bank.commission' is invalid"),
    (["design", "banked", "--space", "bank.commission=0:0.1", "--objective", "sd", "--constraint", "sd=7"],
     r"--constraint sd=7 is invalid: LOW:HIGH"),
    # NaN reached optuna, whose ValueError was a traceback
    (["design", "banked", "--space", "bank.commission=0:0.08", "--objective", "sd", "--constraint",
      "house_edge=nan:1"], r"^--constraint house_edge=nan:1 is invalid: finite ends"),
    (["design", "banked", "--space", "bank.commission=0:0.08", "--objective", "sd", "--constraint",
      "house_edge=0:inf"], r"^--constraint house_edge=0:inf is invalid: finite ends"),
    # a repeated key silently replaced the first
    (["design", "banked", "--space", "bank.commission=0:0.08", "--space", "bank.commission=0:0.05",
      "--objective", "sd"], r"^--space bank.commission is given twice \(bank.commission=0:0.08, "
                            r"bank.commission=0:0.05\): give each once$"),
    (["design", "banked", "--space", "bank.commission=0:0.08", "--objective", "sd", "--constraint",
      "house_edge=0:0.1", "--constraint", "house_edge=0.01:0.02"], r"^--constraint house_edge is given twice"),
])
def test_bad_design_command_is_one_line(argv, match):
    with pytest.raises(OptionError, match=match):
        _run(*argv, "--deals", "600", "--setter", "greedy", "--quiet")


def test_solve_command_plays_an_open_face_variant_with_the_api_defaults(capsys, monkeypatch):
    """The command refused every open-face variant ("for 13-card Chinese poker") that
    cpstats.solve takes; it now gives the API's answer, with its default hands (the designer
    precision, here a loose one on a small cap to keep the test short)."""
    import dataclasses

    from cpstats.apps.cli import main
    from cpstats.engine.registry import GAMES
    from cpstats.engine.games import Precision
    from cpstats.workbench.solve import solve

    import cpstats

    game = GAMES[cpstats.ofc.GAME.name]
    loose = Precision(targets={"foul_rate": 0.05, "royalty": 1.0}, most=300, budget=600, pilot=40)
    monkeypatch.setitem(GAMES, game.name, dataclasses.replace(game, runs=dataclasses.replace(game.runs, precision=loose)))

    assert main(["solve", OFC_RAKE, "rake.percent", "--metric", "rake_share", "--target", "0.05",
                 "--bounds", "0,0.2", "--setter", "random", "--scheduler", "none", "--quiet",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    s = solve(OFC_RAKE, "rake.percent", "rake_share", 0.05, bounds=(0.0, 0.2), setter="random", rng=2026)
    assert out["solution"]["deals"] == s.deals == s.precision["deals"] <= 300
    assert out["solution"]["value"] == pytest.approx(s.value, rel=1e-9)  # JSON keeps 10 digits
    assert out["solution"]["variant"] == s.variant and s.variant.startswith("ofc-pineapple")
    assert main(["solve", OFC_RAKE, "rake.percent", "--metric", "rake_share", "--target", "0.05",
                 "--bounds", "0,0.2", "--deals", "40", "--setter", "random", "--quiet"]) == 0
    assert "of 40 common hands" in capsys.readouterr().out.splitlines()[0]


def test_design_command_plays_an_open_face_variant(capsys):
    from cpstats.apps.cli import main

    assert main(["design", OFC_RAKE, "--space", "rake.percent=0:0.2", "--objective", "rake_share",
                 "--minimize", "--constraint", "rake_share=:0.1", "--trials", "3", "--finalists", "1",
                 "--deals", "40", "--setter", "random", "--scheduler", "none", "--quiet"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith(f"design on {OFC_RAKE}: minimise rake_share") and "3 trials on 40 common hands" in head


def test_solve_command_refuses_open_face_input_as_the_api_does(capsys):
    from cpstats.apps.cli import main

    assert main(["solve", "ofc-pineapple", "royalties.front.QQ", "--metric", "house_edge", "--target", "0.01",
                 "--bounds", "0,9", "--deals", "20", "--setter", "random", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cpstats solve: error: metric='house_edge' is not a figure of the open-face game")
    assert err.count("\n") == 1 and "13-card" not in err
