"""Never two strengths in one answer (issue 37, "Deliver 2" at the verb level): ``solve`` and ``design``
play every candidate of an open-face variant with one play, name it and its street models, and stop
in one line when a candidate was played otherwise (here: one variant's street-model file made to
read as another, as tests/test_ofc_simulation.py does for compare and sweep). The PAR sheet's
sensitivity section: tests/test_ofc_par_sensitivity.py."""

from __future__ import annotations

import pytest

import cpstats
from cpstats.errors import OptionError
from cpstats.ofc import simulation as sim
from cpstats.engine.registry import get_preset

OTHER = {"file": "other.npz", "digest": "0123456789ab", "in_range": True, "note": None}


@pytest.fixture
def digest():
    return sim.model_identity(get_preset("ofc-pineapple"))["digest"]


@pytest.fixture
def qq9_reads_another_file(monkeypatch):
    real = sim.model_identity

    def identity(v, path=None):
        return OTHER if v.royalties.front_pairs[10] == 9 else real(v, path)

    monkeypatch.setattr(sim, "model_identity", identity)


def test_a_solve_names_its_one_play_and_each_candidates(digest):
    s = cpstats.solve("ofc-pineapple", "royalties.front.QQ", "royalty", 0.1, bounds=[6, 8], deals=8,
                      setter="fast", rng=1, direction="at_least")
    play = f"fast, street models {digest}"
    assert s.play == play and set(s.evaluations["play"]) == {play}
    assert f"(one play: {play})" in s.sentence() and s.to_frame().at[0, "play"] == play


def test_a_solve_refuses_a_candidate_played_by_other_models(digest, qq9_reads_another_file):
    with pytest.raises(OptionError, match=rf"^this solve would mix two plays: 'royalties.front.QQ=7' is played by "
                                          rf"fast, street models {digest} and 'royalties.front.QQ=9' by fast, "
                                          r"street models 0123456789ab; play every point with one setter"):
        cpstats.solve("ofc-pineapple", "royalties.front.QQ", "royalty", 0.1, bounds=[7, 9], deals=8, setter="fast",
                      rng=1)


def test_a_design_names_its_one_play(digest):
    d = cpstats.design("ofc-pineapple", {"royalties.front.QQ": [6, 8]}, "royalty", trials=3, finalists=1, deals=8,
                       setter="fast", rng=1)
    play = f"fast, street models {digest}"
    assert d.play == play and set(d.trials["play"]) == {play} and set(d.finalists["play"]) == {play}


def test_a_design_refuses_a_trial_played_by_other_models(digest, qq9_reads_another_file):
    with pytest.raises(OptionError, match=rf"^this design would mix two plays: .* is played by fast, street models "
                                          rf"{digest} and .*QQ=9\)' by fast, street models 0123456789ab"):
        cpstats.design("ofc-pineapple", {"royalties.front.QQ": [7, 9]}, "royalty", trials=6, finalists=1, deals=8,
                       setter="fast", rng=1)
