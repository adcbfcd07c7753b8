"""The rule numbers the open-face street models read (cpstats.ofc.rule_features): entry values by front
and the royalty schedules, rule draws that are valid variants determined by their seed, and a rule
outside the trained ranges named in one line."""

import numpy as np
import pytest

from cpstats.ofc import rule_features as rf
from cpstats.ofc.entry_value import default_entry_values
from cpstats.engine.registry import get_preset

PINE = get_preset("ofc-pineapple")
#: A designer's rules: only KK and better enter Fantasyland, QQ pays 30 in front, three players. One
#: rule set for both tests below, so its entry value is solved once (10-20 s a rule set).
DESIGNED = PINE.replace(fantasyland__cards="0/14/14/14", royalties__front__QQ=30, players=3)


def test_rule_numbers_carry_the_entry_values_by_front_and_the_schedules():
    """The entry value told for each front that enters (0 for one that does not), the royalty
    schedules and the foul value; a rake never enters."""
    prog = get_preset("ofc-pineapple-progressive")
    vec = dict(zip(rf.RULE_FEATURES, rf.rule_vector(prog)))
    entry = default_entry_values(prog)
    assert [vec[k] for k in ("entry_qq", "entry_kk", "entry_aa", "entry_trips")] == [entry[n] for n in (14, 15, 16, 17)]
    assert vec["entry_qq"] < vec["entry_kk"] < vec["entry_aa"] < vec["entry_trips"]
    kk = dict(zip(rf.RULE_FEATURES, rf.rule_vector(DESIGNED)))
    assert kk["entry_qq"] == 0 and kk["entry_kk"] > 0
    assert (vec["front_qq"], vec["middle_flush"], vec["back_quads"], vec["players"]) == (7, 8, 10, 2)
    assert vec["foul"] == pytest.approx(-0.8 * 6) and vec["scoop"] == pytest.approx(0.8 * 3)
    from cpstats.rules.house import Rake, RakeModel

    raked = PINE.replace(rake=Rake(model=RakeModel.TIME, amount=6.0))
    np.testing.assert_array_equal(rf.rule_vector(raked), rf.rule_vector(PINE))


def test_rule_draws_are_valid_variants_determined_by_the_seed():
    a = rf.training_variants(40, 7)
    assert [str(v) for v in a] == [str(v) for v in rf.training_variants(40, 7)]
    assert [str(v) for v in a] != [str(v) for v in rf.training_variants(40, 8)]
    draws = a[len(rf.ANCHORS):]
    assert {v.deal.value for v in draws} == {"classic", "pineapple"} and len({str(v) for v in draws}) == 40
    assert {v.players for v in draws} >= {2, 3} and all(v.players * max(v.cards_per_hand, v.fantasyland.most_cards) <= 52
                                                        for v in draws)


def test_a_rule_outside_the_trained_ranges_is_named_in_one_line():
    ranges = {name: [lo, lo] for name, lo in zip(rf.RULE_FEATURES, rf.rule_vector(PINE))}
    ranges["players"] = {"pineapple": [2], "classic": [2]}
    assert rf.range_note(PINE, ranges) is None
    note = rf.range_note(DESIGNED, ranges)
    assert note.startswith("outside the street models' trained ranges: 3 players in pineapple (trained 2)")
    assert "royalties.front.QQ 30 (trained 7..7)" in note and "\n" not in note
