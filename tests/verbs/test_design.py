"""design() (cpstats.workbench.design): the winner stays feasible on fresh deals, a Pareto table, the
same answer from the same seed, bad input refused in one line."""

from __future__ import annotations

import pytest

from cpstats.errors import OptionError
from cpstats.workbench.design import design

SPACE = {"bank.commission": (0.0, 0.08), "scoring.scoop_bonus": (0, 6)}


def test_design_keeps_the_winner_feasible_on_fresh_deals_and_gives_a_pareto_table():
    d = design("banked(bank.setter=ev)", SPACE, "sd", {"house_edge": (0.01, 0.02)}, trials=10, deals=1_000,
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
    one, two = (design("banked(bank.setter=ev)", SPACE, "sd", {"house_edge": (0.01, 0.02)}, trials=4, deals=600,
                       setter="greedy", rng=3) for _ in range(2))
    assert one.trials.drop(columns="trial").equals(two.trials.drop(columns="trial")) and one.best == two.best


@pytest.mark.parametrize("kwargs, match", [
    (dict(space={}), r"space=\{\} is invalid"),
    (dict(constraints={"house_edge": (0.02, 0.01)}), r"constraints\['house_edge'\]=\(0.02, 0.01\) is invalid"),
    (dict(objective="sdd"), r"metric='sdd' is not a figure.*did you mean 'sd'"),
    (dict(space={"bank.comission": (0.0, 0.1)}), r"parameter='bank.comission' is invalid"),
    (dict(constraints={"house_edge": (float("nan"), 1)}),
     r"^constraints\['house_edge'\]=\(nan, 1\) is invalid: finite numbers \(None for an open end\)$"),
    (dict(constraints={"house_edge": (0.0, float("inf"))}), r"constraints\['house_edge'\]=\(0.0, inf\) is invalid"),
    (dict(space={"bank.commission": (0.0, float("nan"))}),
     r"^space\['bank.commission'\]=\(0.0, nan\) is invalid: finite numbers$"),
    # two names of one figure: the second silently replaced the first
    (dict(constraints={"edge": (0.0, 0.1), "house_edge": (0.01, 0.02)}),
     r"^constraints\['house_edge'\] and constraints\['edge'\] are both house_edge: give each once$"),
    (dict(constraints="house_edge<0.02"), r"constraints='house_edge<0.02' is invalid: a dict of figure to "
                                          r"\(low, high\) with None for an open end, e.g. \{'house_edge': \(None, 0.02\)\}"),
])
def test_bad_design_input_is_one_line(kwargs, match):
    options = {"space": SPACE, "objective": "sd", "constraints": {"house_edge": (0.01, 0.02)}, **kwargs}
    with pytest.raises(OptionError, match=match):
        design("banked(bank.setter=ev)", options.pop("space"), options.pop("objective"), options.pop("constraints"), trials=2,
               deals=600, setter="greedy", rng=1)
