"""The 13-card figure names a verb checks before it plays (``SimulationResult.figure_names``, from the
rules alone) are exactly the names, in the order, of a run's lookup table: every preset, each at
its own table size and at two seats (a banked game, criss-cross's two hands a seat)."""

from __future__ import annotations

import pytest

import cpstats
from cpstats.engine.lookup import figure_names, figure_table
from cpstats.thirteen.result import SimulationResult

PRESETS = [name for name, game in cpstats.presets()[["name", "game"]].itertuples(index=False) if game == "13-card"]


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [None, 2])
def test_the_declared_names_are_a_runs(name, players):
    v = cpstats.load_variant(name)
    if players is not None:
        try:
            v = v.replace(players=players)
        except cpstats.OptionError:
            pytest.skip(f"{name} does not seat {players}")
    run = cpstats.simulate(v, 60, setter="greedy", rng=0)
    names = list(figure_table(run)["metric"])
    assert SimulationResult.figure_names(v) == names == figure_names(v)
    assert len(names) == len(set(names))


def test_an_unknown_name_is_refused_before_anything_plays(monkeypatch):
    """solve checks its figure's name from the rules: with the game's run refusing to play, the
    refusal is still the name's own line (what it may have meant, the headline figures)."""
    import dataclasses

    from cpstats.engine.registry import GAMES

    def refuse(*args, **kwargs):
        raise AssertionError("a run was played to check a figure's name")

    game = GAMES["13-card"]
    monkeypatch.setitem(GAMES, "13-card", dataclasses.replace(game, runs=dataclasses.replace(game.runs, simulate=refuse)))
    with pytest.raises(cpstats.OptionError, match=r"^metric='scoop_rat' is not a figure of the 13-card game "
                                                   r"\(did you mean 'scoop_rate'.*\): the headline figures are sd, "):
        cpstats.solve("2-4", "scoring.scoop_bonus", "scoop_rat", 0.1, bounds=(0, 3), deals=100, rng=1)
