"""design(), the solve and design commands, the Solve view and the PAR sheet's section."""

from __future__ import annotations

import json

import pytest

from cpstats.apps.cli import build_parser
from cpstats.errors import OptionError
from cpstats.workbench.design import design

SPACE = {"bank.commission": (0.0, 0.08), "scoring.scoop_bonus": (0, 6)}


def _run(*argv: str) -> str:
    args = build_parser().parse_args(list(argv))
    return args.run(args)


def test_design_keeps_the_winner_feasible_on_fresh_deals_and_gives_a_pareto_table():
    d = design("banked", SPACE, "sd", {"house_edge": (0.01, 0.02)}, trials=10, deals=1_000,
               setter="greedy", rng=1)
    assert len(d.trials) == 10 and d.trials["variant"].nunique() > 1
    winner = d.finalists.set_index("variant").loc[d.variant]
    assert 0.01 <= winner["house_edge"] <= 0.02  # feasible on the fresh deals
    feasible = d.trials[d.trials["feasible"]]
    assert d.finalists["trial"].isin(feasible["trial"]).all()
    # fresh deals: the same rules give other figures than on the trials' deals
    same = d.trials.set_index("trial").loc[int(winner["trial"])]
    assert same["sd"] != winner["sd"]
    table = d.to_frame()
    assert {"sd_ci_low", "sd_ci_high", "house_edge_ci_low"} <= set(table.columns)
    assert table["sd"].max() == pytest.approx(feasible["sd"].max())
    assert d.plot().get_ylabel() == "sd"


def test_design_repeats_from_its_seed():
    one, two = (design("banked", SPACE, "sd", {"house_edge": (0.01, 0.02)}, trials=4, deals=600,
                       setter="greedy", rng=3) for _ in range(2))
    assert one.trials.drop(columns="trial").equals(two.trials.drop(columns="trial")) and one.best == two.best


@pytest.mark.parametrize("kwargs, match", [
    (dict(space={}), r"space=\{\} is invalid"),
    (dict(constraints={"house_edge": (0.02, 0.01)}), r"constraints\['house_edge'\]=\(0.02, 0.01\) is invalid"),
    (dict(objective="sdd"), r"metric='sdd' is not a figure.*did you mean 'sd'"),
    (dict(space={"bank.comission": (0.0, 0.1)}), r"parameter='bank.comission' is invalid"),
    (dict(constraints="house_edge<0.02"), r"constraints='house_edge<0.02' is invalid: a dict of figure to "
                                          r"\(low, high\) with None for an open end, e.g. \{'house_edge': \(None, 0.02\)\}"),
])
def test_bad_design_input_is_one_line(kwargs, match):
    options = {"space": SPACE, "objective": "sd", "constraints": {"house_edge": (0.01, 0.02)}, **kwargs}
    with pytest.raises(OptionError, match=match):
        design("banked", options.pop("space"), options.pop("objective"), options.pop("constraints"), trials=2,
               deals=600, setter="greedy", rng=1)


def test_solve_command_prints_a_header_and_the_evaluations():
    text = _run("solve", "banked", "bank.commission", "--metric", "house_edge", "--target", "0.015",
                "--bounds", "0,0.1", "--deals", "1000", "--setter", "greedy", "--quiet", "--scheduler", "none")
    head, *rows = text.splitlines()
    assert head.startswith("bank.commission = ") and "95% CI" in head and "seed 2026" in head
    assert rows[0].split()[:3] == ["order", "value", "estimate"]
    out = json.loads(_run("solve", "banked", "bank.commission", "--metric", "house_edge", "--target", "0.015",
                          "--bounds", "0,0.1", "--deals", "1000", "--setter", "greedy", "--quiet",
                          "--format", "json"))
    assert out["solution"]["ci_low"] < out["solution"]["value"] < out["solution"]["ci_high"]


def test_design_command_prints_the_pareto_table():
    text = _run("design", "banked", "--space", "bank.commission=0:0.08", "--objective", "sd", "--constraint",
                "house_edge=0.005:0.03", "--trials", "3", "--deals", "600", "--setter", "greedy", "--quiet")
    assert text.startswith("design on banked: maximise sd") and "Pareto table" in text


@pytest.mark.parametrize("argv, match", [
    (["design", "banked", "--space", "bank.commission", "--objective", "sd"], r"--space 'bank.commission' is invalid"),
    (["design", "banked", "--space", "bank.commission=0:0.1", "--objective", "sd", "--constraint", "sd=7"],
     r"--constraint value '7' is invalid"),
])
def test_bad_design_command_is_one_line(argv, match):
    with pytest.raises(OptionError, match=match):
        _run(*argv, "--deals", "600", "--setter", "greedy", "--quiet")


def test_solve_view_shows_the_solution_its_progress_and_the_curve():
    from cpstats.apps.widgets import SolveView

    app = SolveView("banked", deals=1_000, strategy="greedy")
    app.run_button.click()
    s = app.solution
    assert s is not None and s.ci_low < s.value < s.ci_high
    assert app.progress.bar_style == "success" and "bank.commission = " in app.answer.value
    assert app.output.outputs and "image/png" in app.output.outputs[0]["data"]
    app.bounds.value = "0.1,0"
    app.run_button.click()
    assert "bounds=(0.1, 0) is invalid" in app.status.value and app.progress.bar_style == "danger"


def test_the_dashboard_has_a_solve_tab():
    from cpstats.apps.dashboard import TAB_TITLES, build_dashboard

    tabs = build_dashboard(deals=1_000).children[1]
    assert "Solve for a target" in tabs.titles and tabs.titles == TAB_TITLES and len(tabs.children) == len(TAB_TITLES)


def test_par_sheet_says_how_a_solved_rule_was_chosen():
    from cpstats import par_sheet
    from cpstats.workbench.solve import solve

    s = solve("banked", "bank.commission", "house_edge", 0.015, bounds=(0.0, 0.1), deals=1_000,
              setter="greedy", rng=1)
    sheet = par_sheet(s.variant, deals=2_000, strategy="greedy", rng=1, sensitivity=False, seat_deals=600,
                      solution=s)
    section = sheet.sections[-1]
    assert section.title == "How this rule was chosen"
    assert f"{s.ci_low:.4g} to {s.ci_high:.4g}" in section.paragraphs[1] and "1,000 deals" in section.paragraphs[2]
    assert len(sheet.tables["solution_curve"]) == len(s.evaluations)
    with pytest.raises(OptionError, match=r"solution is of banked\(bank.commission=.*not of banked"):
        par_sheet("banked", deals=2_000, strategy="greedy", rng=1, sensitivity=False, seat_deals=600, solution=s)


# -- either game on the command line, as in Python ---------------------------------------------

OFC_RAKE = "ofc-pineapple(rake=percent)"


def test_solve_command_plays_an_open_face_variant_with_the_api_defaults(capsys, monkeypatch):
    """The command refused every open-face variant ("for 13-card Chinese poker") that
    cpstats.solve takes; it now gives the API's answer, with its default hands (the designer
    precision, here a loose one on a small cap to keep the test short)."""
    import dataclasses

    from cpstats.apps.cli import main
    from cpstats.rules.games import GAMES
    from cpstats.simulation.games import Precision
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
