"""Setters as named objects (they carry their settings; the metadata records them), a verb's
``setter=None`` as the game's default setter, and one randomness keyword ``rng``."""

import dataclasses
import inspect
import re

import pytest

import cpstats
from cpstats.errors import OptionError
from cpstats import ofc
from cpstats.ofc import FastPolicy, Rollout
from cpstats.ofc import simulation as ofc_sim
from cpstats.ofc.setters import as_ofc_setter, seat_budget, seats_label
from cpstats.thirteen.play import EvSetter, GreedySetter, RandomSetter, as_setter

V = "2-4(players=2)"


def test_setters_are_frozen_named_and_record_their_settings():
    s = EvSetter(tables="2-4")
    assert (s.name, s.params(), repr(s)) == ("ev", {"name": "ev", "tables": "2-4"}, "EvSetter(tables='2-4')")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.tables = "1-6"
    assert GreedySetter().params() == {"name": "greedy"} and repr(RandomSetter()) == "RandomSetter()"
    assert Rollout(samples=128).params() == {"name": "rollout", "samples": 128, "top": 24}
    assert repr(Rollout(samples=128)) == "Rollout(samples=128, top=24)"
    assert (ofc.GreedySetter().name, ofc.RandomSetter().name) == ("greedy", "random")


def test_names_select_the_default_objects():
    assert as_setter("ev") == EvSetter() and as_setter(" Greedy ") == GreedySetter()
    assert as_setter("random") == RandomSetter()
    assert as_ofc_setter("ev") == Rollout() == as_ofc_setter("rollout")
    assert as_ofc_setter("greedy") == ofc.GreedySetter() and as_ofc_setter("fast") == FastPolicy()


@pytest.mark.parametrize("setter", [EvSetter(), GreedySetter(), RandomSetter()])
def test_open_face_refuses_a_13_card_setter_object_as_13_card_refuses_rollout(setter):
    """A 13-card setter object on an open-face variant is one line naming open face's setters
    (the string "ev" still means each game's strong default), as ``Rollout()`` on a 13-card variant is."""
    with pytest.raises(OptionError, match=rf"^setter={re.escape(repr(setter))} is a 13-card setter: open-face setters "
                                          r"are ev, rollout, .*fast.*Rollout\(\.\.\.\), FastPolicy\(\)"):
        cpstats.simulate("ofc-pineapple", 4, setter=setter)
    with pytest.raises(OptionError, match=r"is an open-face setter: 13-card setters are"):
        cpstats.simulate(V, 4, setter=FastPolicy())


@pytest.mark.parametrize("make, message", [
    (lambda: EvSetter(tables=5), r"^tables=5 is invalid: None, a preset name"),
    (lambda: Rollout(samples=0), r"^samples=0 is invalid: a whole number >= 1"),
    (lambda: Rollout(top=1.5), r"^top=1.5 is invalid: a whole number >= 1"),
    (lambda: as_setter(Rollout()), r"^setter=Rollout\(samples=32, top=24\) is an open-face setter"),
    (lambda: as_setter("genius"), r"^unknown strategy 'genius'"),
    (lambda: as_ofc_setter(EvSetter(tables="2-4")), r"^tables= does not apply to open-face variants"),
    (lambda: seat_budget((Rollout(top=4), Rollout(top=8))), r"the rollout seats play one top \(got \[4, 8\]\)"),
    (lambda: cpstats.skill(V, deals=10, setter="greedy"), r"^setter='greedy' is invalid: the skill table measures ev"),
])
def test_bad_setters_are_one_line(make, message):
    with pytest.raises(OptionError, match=message):
        make()


@pytest.mark.parametrize("keyword", [{"strategy": "greedy"}, {"tables": "2-4"}])
def test_a_removed_keyword_is_pythons_own_error(keyword):
    """The verbs take ``setter=`` only: ev's row tables travel on ``EvSetter(tables=...)``."""
    calls = (lambda: cpstats.simulate(V, 10, **keyword), lambda: cpstats.compare([V, "1-6"], 10, **keyword),
             lambda: cpstats.skill(V, deals=10, **keyword), lambda: cpstats.set_hand(list(range(13)), V, **keyword))
    for call in calls:
        with pytest.raises(TypeError, match="unexpected keyword argument"):
            call()


def test_no_setter_is_the_games_default():
    """``setter=None`` plays the game's registered default (the same run as naming it), and a
    verb that plays many runs falls back to it where the game names no bulk setter."""
    from cpstats.engine.games import runs_of
    from cpstats.workbench.simulate import bulk_setter

    default = cpstats.simulate(V, 300, rng=3)
    named = cpstats.simulate(V, 300, setter="ev", rng=3)
    assert default.metadata["run_digest"] == named.metadata["run_digest"] and default.metadata["strategy"] == "ev"
    assert default.summary.net_sum.tolist() == named.summary.net_sum.tolist()
    ofc = cpstats.load_variant("ofc-pineapple")
    assert runs_of(ofc).resolve_setter(None, ofc) == Rollout() == runs_of(ofc).resolve_setter("ev", ofc)
    assert runs_of(V).resolve_setter(None, cpstats.load_variant(V)) == EvSetter()
    assert bulk_setter(cpstats.load_variant(V), None) == runs_of(V).default_setter == "ev"
    assert bulk_setter(ofc, None) == "fast" and bulk_setter(ofc, "greedy") == "greedy"


def test_a_setter_object_plays_as_its_name_and_the_metadata_records_it():
    """``setter=EvSetter(tables=...)`` records its tables; an object at its defaults is the same
    run (digest) and numbers as its name."""
    new = cpstats.simulate(V, 300, setter=EvSetter(tables="2-4"), rng=3)
    assert new.metadata["setter"] == {"name": "ev", "tables": "2-4"} and new.metadata["strategy"] == "ev"
    greedy = cpstats.simulate(V, 300, setter=GreedySetter(), rng=3)
    assert greedy.metadata["setter"] == {"name": "greedy"}
    assert greedy.summary.net_sum.tolist() == cpstats.simulate(V, 300, setter="greedy", rng=3).summary.net_sum.tolist()


def test_the_verbs_take_setter_and_record_it():
    table = cpstats.compare(["2-4", "1-6"], 200, setter=GreedySetter(), rng=2, tidy=True)
    assert table.attrs["setter"] == {"name": "greedy"} and table.attrs["strategy"] == "greedy"
    swept = cpstats.sweep("2-4", "scoring.scoop_bonus", [0, 3], deals=200, setter="random", rng=1,
                          metrics=["sd"])
    assert swept.attrs["setter"] == {"name": "random"}
    assert cpstats.skill("2-4", deals=50, rng=1, setter=EvSetter()).attrs["setter"] == {"name": "ev", "tables": None}


def test_open_face_rollout_carries_its_budget():
    """``Rollout(samples=4)`` carries its budget: it is in the strategy label (the run's
    identity) and in ``metadata["setter"]``, and the verb plays it as the game's run does."""
    new = ofc_sim.simulate("ofc-pineapple", 6, setter=Rollout(samples=4, top=6), rng=1, block_deals=6)
    assert new.metadata["strategy"] == "rollout/rollout(samples=4,top=6)"
    assert new.metadata["setter"] == {"name": "rollout", "samples": 4, "top": 6}
    shared = cpstats.simulate("ofc-pineapple", 6, setter=Rollout(samples=4, top=6), rng=1, block_deals=6)
    assert shared.figures()["estimate"].equals(new.figures()["estimate"])
    seats = ofc_sim.simulate("ofc-pineapple", 4, setter=("random", ofc.GreedySetter()), rng=1)
    assert seats.metadata["setter"] == {"name": "random/greedy", "seats": [{"name": "random"}, {"name": "greedy"}]}
    assert seats_label((Rollout(), ofc.GreedySetter())) == "rollout/greedy"


def test_rng_is_the_one_randomness_keyword():
    """The exported functions take ``rng=`` (no ``seed=``); a default that is a fixed seed is in
    the signature."""
    assert cpstats.match("2-4", "greedy", "random", deals=200, rng=5).seed == 5
    assert inspect.signature(cpstats.par_sheet).parameters["rng"].default == 2026
    for fn in (cpstats.simulate, cpstats.compare, cpstats.sweep, cpstats.skill, cpstats.compare_presets,
               cpstats.match, cpstats.exploitability, cpstats.train_tables, cpstats.natural_frequencies,
               ofc_sim.simulate, cpstats.ofc.write_ofc_reference):
        assert "rng" in inspect.signature(fn).parameters, fn.__name__
        assert "seed" not in inspect.signature(fn).parameters, fn.__name__


def _setter_classes(base):
    for cls in base.__subclasses__():
        yield cls
        yield from _setter_classes(cls)


def test_every_setter_implements_every_method_of_its_base():
    """Every concrete setter of every game extends the one setter contract and implements every
    method of its bases, refusing none: a 13-card setter binds a strategy for a variant, an
    open-face one names its placement strategy; each records its settings and names itself."""
    import inspect

    from cpstats.ofc.placement import PLACEMENT_STRATEGIES
    from cpstats.engine.setter import Setter
    from cpstats.thirteen.play.setters import HandSetter

    # the families' bases (HandSetter, ofc.HandSetter) name no setter: a name selects a setter
    concrete = [cls for cls in set(_setter_classes(Setter)) if not inspect.isabstract(cls)
                and cls.__module__.startswith("cpstats.") and cls.name]
    assert {f"{c.__module__.split('.')[1]}.{c.__name__}" for c in concrete} >= {
        "thirteen.EvSetter", "thirteen.GreedySetter", "thirteen.RandomSetter", "ofc.Rollout", "ofc.RolloutExact",
        "ofc.RolloutV1", "ofc.GreedySetter", "ofc.RandomSetter"}
    for cls in concrete:
        setter = cls()
        assert setter.params()["name"] == setter.name == setter.label and setter.game
        assert isinstance(setter, (HandSetter, ofc.HandSetter)), cls
        if isinstance(setter, HandSetter):
            strategy, keywords = setter.bind(cpstats.get_preset("2-4"))
            assert callable(strategy) and isinstance(keywords, dict)
        else:
            assert setter.name in PLACEMENT_STRATEGIES
        assert not hasattr(setter, "bind") or isinstance(setter, HandSetter)  # no refused method
