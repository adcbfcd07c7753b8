"""Open face's result declares its figure names from the rules alone (no probe run): the same
names, in the same order, as a run's figures, at two and three seats (the names depend on the
seats only; a preset whose rules have no shipped entry values would solve them first, ~20 s)."""

import pytest

import cpstats


@pytest.mark.parametrize("players", [2, 3])
def test_declared_figure_names_are_a_runs_figures(players):
    v = cpstats.load_variant(f"ofc-pineapple(players={players})")
    result = cpstats.simulate(v, 60, setter="greedy", rng=1)
    assert type(result).figure_names(v) == list(result.figures()["metric"])
