"""Open face's result declares its figure names from the rules alone (no probe run): the same
names, in the same order, as a run's figures, at every preset and seat count."""

import pytest

import cpstats


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("preset", ["ofc-pineapple", "ofc-classic", "ofc-pineapple-progressive"])
def test_declared_figure_names_are_a_runs_figures(preset, players):
    v = cpstats.load_variant(f"{preset}(players={players})")
    result = cpstats.simulate(v, 60, setter="greedy", rng=1)
    assert type(result).figure_names(v) == list(result.figures()["metric"])
