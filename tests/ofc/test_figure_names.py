"""Open face's result declares its figure names from the rules alone (no probe run): the same
names, in the same order, as a run's figures, at two and three seats and under the table rules (the names depend on the
seats and the table rules only; a preset whose rules have no shipped entry values would solve them first, ~20 s)."""

import pytest

import cpstats


@pytest.mark.parametrize("rules", ["players=2", "players=3", "players=2,button=fixed",
                                   "players=3,stakes.buy_in=50,match=round", "button=fixed,stakes.buy_in=40"])
def test_declared_figure_names_are_a_runs_figures(rules):
    """The presets' rotating button adds the position figures; stakes and matches theirs."""
    v = cpstats.load_variant(f"ofc-pineapple({rules})")
    result = cpstats.simulate(v, 60, setter="greedy", rng=1)
    assert type(result).figure_names(v) == list(result.figures()["metric"])
