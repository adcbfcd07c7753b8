"""The open-face skill table (cpstats.ofc.skill, ``cpstats.skill``, ``cpstats skill``): rollout
against the weak fields on seat-swapped deals, the same serial or on an executor, bad options and
fields refused in one line. Small runs on fixed seeds: every interval must hold its estimate."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.errors import OptionError


@pytest.fixture(scope="module")
def skill_table():
    return cpstats.skill("ofc-pineapple", deals=30, rng=4)


def test_skill_rollout_beats_the_weak_fields_and_the_control_is_zero(skill_table):
    """Rollout's edge over random is about 8-10 units a hand (SE about 1 at 30 hands): its CI
    is far above 0; the rollout control is exactly 0 (the seats' nets sum to 0)."""
    t = skill_table
    assert list(t.index) == ["greedy", "random", "rollout-v1", "rollout-exact", "rollout"]
    assert "previous default" in t.loc["rollout-exact", "label"]
    assert "first rollout" in t.loc["rollout-v1", "label"]
    assert list(t.columns) == ["label", "mean", "se", "ci_low", "ci_high", "deals"]
    assert t.loc["random", "ci_low"] > 0 and t.loc["greedy", "mean"] > 0
    assert t.loc["rollout", "mean"] == pytest.approx(0.0, abs=1e-12)
    assert (t["ci_low"] <= t["mean"]).all() and (t["mean"] <= t["ci_high"]).all()
    assert t.attrs["variant"] == "ofc-pineapple" and t.attrs["player"] == "rollout" and t.attrs["seed"] == 4
    assert "baseline" in t.loc["greedy", "label"] and "control" in t.loc["rollout", "label"]


def test_skill_repeats_serial_or_on_an_executor():
    from cpstats.ofc import skill

    serial = skill.skill_table("ofc-pineapple", deals=12, rng=9, fields=["random"])
    with ThreadPoolExecutor(2) as pool:
        threaded = skill.skill_table("ofc-pineapple", deals=12, rng=9, executor=pool, fields=["random"])
    assert threaded.equals(serial) and threaded.attrs == serial.attrs


@pytest.mark.parametrize("options, match", [
    ({"deals": 1}, r"deals=1 is invalid: a whole number >= 2"),
    ({"setter": cpstats.EvSetter(tables="2-4")}, r"tables= does not apply to open-face variants"),
])
def test_bad_skill_options_are_one_line(options, match):
    with pytest.raises(OptionError, match=match):
        cpstats.skill("ofc-pineapple", **options)


def test_bad_skill_fields_are_one_line():
    from cpstats.ofc import skill

    with pytest.raises(OptionError, match=r"fields=\['ev'\] is invalid: one or more of greedy, random, rollout"):
        skill.skill_table("ofc-pineapple", fields=["ev"])


def test_skill_cli_for_open_face(capsys):
    assert main(["skill", "--preset", "ofc-pineapple", "--deals", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rollout (open face's strong strategy) against each field under ofc-pineapple, "
                          "6 hands a seat, seat-swapped, seed 2")
    assert "Student's t on 6 batch means" in out and "random (baseline: no skill)" in out
