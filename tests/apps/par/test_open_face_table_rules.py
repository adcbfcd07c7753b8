"""The open-face PAR sheet's table rules (OFC-BUTTON, OFC-STAKES, OFC-MATCH; cpstats.ofc.par.table_sections):
a position section whenever the run reports positions, a stakes and matches section where the rules set
them, every number the run's own figures(), and a headline that claims seat 0's symmetry only where the
button gives it and the interval agrees."""

from __future__ import annotations

import math

import pytest

import cpstats
from cpstats.ofc.par.table_sections import seat_mean_note
from cpstats.ofc.table_figures import POSITIONS, STAKES_NAMES, position_names
from cpstats.ofc.rules import parse_ofc_variant


def _sheet(variant, deals=300):
    return cpstats.par_sheet(variant, deals=deals, setter="greedy", rng=3, sensitivity=False)


@pytest.fixture(scope="module")
def staked(tmp_path_factory):
    from tests.apps.par.conftest import strength_stub

    with strength_stub():
        return _sheet("ofc-pineapple(players=3,stakes.buy_in=40,match=round)")


def test_position_and_stakes_sections_carry_the_runs_figures(staked):
    titles = [s.title for s in staked.sections]
    assert any(t.endswith("Position and the button") for t in titles)
    assert any(t.endswith("Table stakes and matches") for t in titles)
    assert titles.index(next(t for t in titles if t.endswith("Position and the button"))) < \
        titles.index(next(t for t in titles if t.endswith("Headline figures")))
    f = staked.result.figures().set_index("metric")
    for key, names in (("positions", position_names(POSITIONS[3])), ("stakes", STAKES_NAMES)):
        table = staked.tables[key].set_index("name")
        assert list(table.index) == list(names)
        for name in names:
            assert tuple(table.loc[name, ["estimate", "ci_low", "ci_high"]]) == \
                tuple(f.loc[name, ["estimate", "ci_low", "ci_high"]]), name
    units = staked.tables["stakes"].set_index("name")["unit"]
    assert units["sd_per_match"] == "units per match" and units["hands_per_match"] == "hands"
    assert units["stakes_bind_rate"] == "share"
    assert f.at["stakes_bind_rate", "estimate"] > 0  # a 40-point buy-in binds at this size
    text = " ".join(p for s in staked.sections for p in s.paragraphs)
    assert "each player brings 40 points for a match" in text and "one hand dealt by each seat" in text
    low, high = f.loc["value_of_acting_last", ["ci_low", "ci_high"]]
    said = "covers 0" if low <= 0 <= high else ("more than acting first" if low > 0 else "less than acting first")
    assert said in text


def test_a_fixed_button_alone_has_no_table_sections_and_says_seat_0_is_a_position(no_strength_match):
    sheet = _sheet("ofc-pineapple(button=fixed)", deals=120)
    titles = " ".join(s.title for s in sheet.sections)
    assert "Position" not in titles and "stakes" not in titles
    note = sheet.tables["headline"].set_index("name").at["mean_seat0", "figure"]
    assert "acts first on every hand" in note and "symmetry" not in note


@pytest.mark.parametrize("rules,low,high,words", [
    ("", -0.5, 0.4, "0 by symmetry"),
    ("", 0.1, 0.9, "misses 0"),
    ("(button=fixed)", -0.5, 0.4, "that position's edge"),
    ("(button=fixed)", math.nan, math.nan, "that position's edge"),
    ("", math.nan, math.nan, "misses 0"),
])
def test_seat_zero_note_never_claims_a_symmetry_the_rules_or_interval_deny(rules, low, high, words):
    note = seat_mean_note(parse_ofc_variant(f"ofc-pineapple{rules}"), 0.0, low, high)
    assert words in note
    if words != "0 by symmetry":
        assert "0 by symmetry" not in note
