"""The former open-face names stay one release as thin aliases: each warns, naming the shared verb
that replaces it, and gives that verb's numbers (it calls the same implementation); the package
itself never calls an alias or a deprecated keyword."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import cpstats
import cpstats.ofc
import cpstats.ofc.rules
from cpstats.errors import deprecated_alias
from cpstats.ofc import Rollout
from cpstats.ofc.shipped import OFC_REFERENCE_DIR
from cpstats.engine.registry import GAMES

FAST = Rollout(samples=4, top=4)  # a rollout cheap enough for a test; the numbers need not be good


def _warns(old: str, new: str):
    return pytest.warns(DeprecationWarning, match=rf"^{old} is deprecated and goes in the next release: use {new}")


@pytest.mark.parametrize("old", ["simulate_ofc", "compare_ofc", "get_ofc_preset", "load_ofc_reference"])
def test_each_alias_is_one_object_wherever_it_is_imported(old):
    assert getattr(cpstats, old) is getattr(cpstats.ofc, old)
    assert old not in cpstats.__all__ and old not in cpstats.ofc.__all__


def test_simulate_ofc_warns_and_is_simulate():
    with _warns("simulate_ofc", "cpstats.simulate"):
        old = cpstats.simulate_ofc("ofc-pineapple", 120, setter="greedy", rng=3, block_hands=60)
    new = cpstats.simulate("ofc-pineapple", 120, setter="greedy", rng=3, block_deals=60)
    pd.testing.assert_frame_equal(old.figures(), new.figures())
    assert old.metadata["run_digest"] == new.metadata["run_digest"]


def test_compare_ofc_warns_and_is_compare():
    variants = ["ofc-pineapple", "ofc-pineapple(fantasyland.stay=A)"]
    with _warns("compare_ofc", "cpstats.compare"):
        old = cpstats.compare_ofc(variants, 120, setter="random", rng=4)
    new = cpstats.compare(variants, 120, setter="random", rng=4)
    pd.testing.assert_frame_equal(old.rename(columns={"strategy": "setter"}), new)


def test_sweep_ofc_warns_and_is_sweep():
    v = cpstats.load_variant("ofc-pineapple")
    with _warns("sweep_ofc", "cpstats.sweep"):
        old = cpstats.ofc.sweep_ofc(v, "royalties.back.pair", [0, 1], deals=100, setter="random", rng=5)
    new = cpstats.sweep("ofc-pineapple", "royalties.back.pair", [0, 1], deals=100, setter="random", rng=5)
    pd.testing.assert_frame_equal(old, new)


def test_ofc_skill_warns_and_is_skill():
    with _warns("ofc_skill", "cpstats.skill"):
        old = cpstats.ofc.ofc_skill("ofc-pineapple", deals=6, rng=6, setter=FAST)
    new = cpstats.skill("ofc-pineapple", deals=6, rng=6, setter=FAST)
    pd.testing.assert_frame_equal(old, new)


def test_get_ofc_preset_warns_and_is_get_preset():
    with _warns("get_ofc_preset", r"cpstats.get_preset \(or cpstats.load_variant\)"):
        old = cpstats.get_ofc_preset("OFC-Pineapple-Progressive")
    assert old == cpstats.get_preset("ofc-pineapple-progressive") == cpstats.load_variant("ofc-pineapple-progressive")


def test_load_ofc_reference_warns_and_is_load_reference():
    if not (OFC_REFERENCE_DIR / "ofc-pineapple.npz").exists():
        pytest.skip("no shipped OFC runs (write_ofc_reference)")
    rake = cpstats.rules.house.Rake(model="time", amount=6.0)
    with _warns("load_ofc_reference", "cpstats.load_reference"):
        old = cpstats.load_ofc_reference("ofc-pineapple", rake=rake)
    pd.testing.assert_frame_equal(old.figures(), cpstats.load_reference("ofc-pineapple", rake=rake).figures())


@pytest.mark.parametrize("module", [cpstats, cpstats.ofc, cpstats.ofc.rules])
def test_ofc_presets_warns_and_is_the_open_face_presets(module):
    with _warns("OFC_PRESETS", r"cpstats.presets\(\)"):
        old = module.OFC_PRESETS
    table = cpstats.presets()
    assert old == dict(table.loc[table["game"] == "open-face", ["name", "description"]].values)
    assert old is GAMES["open-face"].presets
    with pytest.raises(AttributeError, match=rf"^module '{module.__name__}' has no attribute 'OFC_PRESET'$"):
        module.OFC_PRESET  # noqa: B018


def test_deprecated_alias_calls_its_target_and_names_itself():
    def target(x, *, y=1):
        return x + y

    alias = deprecated_alias("old_name", "new_name", target)
    with _warns("old_name", "new_name"):
        assert alias(1, y=2) == 3
    assert alias.__name__ == "old_name" and "new_name" in alias.__doc__


def _every_verb_of_both_games(tmp_path) -> None:
    from cpstats.apps.cli import main

    for game, setter in (("2-4", "greedy"), ("ofc-pineapple", "random")):
        cpstats.simulate(game, 120, setter=setter, rng=1)
        cpstats.compare([game, f"{game}(players=3)"], 120, setter=setter, rng=1)
        cpstats.sweep(game, "players", [2, 3], deals=120, setter=setter, rng=1)
        cpstats.describe(cpstats.get_preset(game))
        cpstats.load_reference(game)
        main(["simulate", "--preset", game, "--deals", "60", "--setter", setter, "--quiet",
              "--out", str(tmp_path / game)])
    cpstats.skill("ofc-pineapple", deals=4, rng=1, setter=FAST)
    cpstats.presets()


def test_the_package_never_calls_a_deprecated_name(tmp_path, capsys):
    """Every verb of both games, the CLI included, runs with DeprecationWarning an error: no module
    of cpstats calls an alias or a deprecated keyword; the same filter does catch an alias call."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        _every_verb_of_both_games(tmp_path)
        with pytest.raises(DeprecationWarning, match="simulate_ofc is deprecated"):
            cpstats.simulate_ofc("ofc-pineapple", 10, setter="random", rng=1)


def test_open_faces_former_keywords_warn_and_play_the_same_run(tmp_path):
    """``hands=``, ``rows=`` and ``block_hands=`` of the open-face run are the verbs' ``deals=``,
    ``keep_hands=`` and ``block_deals=`` for one release."""
    from cpstats.ofc import simulation

    new = simulation.simulate("ofc-pineapple", deals=40, setter="random", rng=2, block_deals=20,
                              out=tmp_path / "new", keep_hands=True)
    for old_name, new_name in (("hands", "deals"), ("rows", "keep_hands"), ("block_hands", "block_deals")):
        with pytest.warns(DeprecationWarning, match=rf"^{old_name}= is deprecated .* use {new_name}="):
            old = simulation.simulate("ofc-pineapple", hands=40, setter="random", rng=2, block_hands=20,
                                      out=tmp_path / old_name, rows=True)
        assert old.metadata["run_digest"] == new.metadata["run_digest"]
        pd.testing.assert_frame_equal(old.rows(), new.rows())
    with pytest.raises(cpstats.OptionError, match="hands= and deals= are the same option"):
        simulation.simulate("ofc-pineapple", 40, hands=40)


@pytest.mark.parametrize("name", ["simulate", "compare", "sweep", "skill", "SimulationResult",
                                  "compare_presets", "natural_frequencies"])
def test_a_former_engine_export_warns_and_is_the_top_levels(name):
    """What ``cpstats.engine`` exported before the games had packages of their own is the top
    level's now: one release more it answers with the top level's object, warning."""
    import cpstats.engine

    with _warns(f"cpstats.engine.{name}", f"cpstats.{name}"):
        assert getattr(cpstats.engine, name) is getattr(cpstats, name)
    with pytest.raises(AttributeError, match="has no attribute 'SimulationSummary'"):
        cpstats.engine.SimulationSummary  # the 13-card summary's home is cpstats.thirteen now
