"""The strength table of the open-face figures (cpstats.ofc.strength)."""

from __future__ import annotations

import json

import numpy as np

from cpstats.ofc.strength import (HEADLINE, STRENGTH_PRESETS, STRENGTHS, shipped_strength, strength_table,
                                  strength_wide, write_strength)
from cpstats.rules.house import Rake, RakeModel


def test_strengths_play_the_same_decks_and_skill_shows():
    """random fouls far more than greedy on the same 96 hands (the gap is many standard errors)."""
    t = strength_table("ofc-pineapple", 96, setters=("random", "greedy"), rng=3).set_index(["setter", "metric"])
    assert set(t.index.get_level_values("metric")) == set(HEADLINE)
    foul_random, foul_greedy = t.loc[("random", "foul_rate")], t.loc[("greedy", "foul_rate")]
    assert foul_random.ci_low > foul_greedy.ci_high
    assert (t["hands"] == 96).all()


def test_a_percent_rake_share_is_its_percent_whatever_the_play():
    """Why the table charges a time rake: a percent rake's share does not depend on the play."""
    t = strength_table("ofc-pineapple", 64, setters=("random", "greedy"), rng=1,
                       rake=Rake(model=RakeModel.PERCENT, percent=0.05)).set_index(["setter", "metric"])
    assert np.allclose(t.xs("rake_share", level="metric")["estimate"], 0.05)


def test_write_strength_records_its_command_and_reads_back(tmp_path):
    path = tmp_path / "strength.csv"
    table = write_strength(("ofc-pineapple",), 32, rng=5, path=path)
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["hands"] == 32 and meta["seed"] == 5 and "write_strength(['ofc-pineapple'], 32, rng=5)" in meta["command"]
    wide = strength_wide(table)
    assert list(wide.columns) == list(STRENGTHS) and len(wide) == len(HEADLINE)


def test_the_shipped_table_covers_the_presets_at_five_strengths():
    t = shipped_strength()
    assert sorted(set(t["variant"])) == sorted(STRENGTH_PRESETS)
    assert list(dict.fromkeys(t["setter"])) == list(STRENGTHS)
    foul = t[t.metric == "foul_rate"].set_index(["variant", "setter"])["estimate"]
    for preset in STRENGTH_PRESETS:  # the default fouls less than the weak field
        assert foul[(preset, "rollout")] < foul[(preset, "greedy")]
