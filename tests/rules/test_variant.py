"""Rules as data: rulebook schedules, presets, validation messages and variant-string round trips.

Tests covering one rulebook ID are named after it (``test_r_futurebet_schedule``). The schedule
numbers below are a second transcription of RULEBOOK.md, independent of cpstats.rules.schedules.
"""

from __future__ import annotations

import json
import re
from typing import ContextManager

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from cpstats.errors import CpstatsError, OptionError
from cpstats.rules import NATURAL_TABLES, ROYALTY_TABLES, get_preset, preset_names, presets
from cpstats.rules import CATEGORIES, NATURAL_NAMES, ROYALTY_ROWS, SCOOP, AcesBet, Bank, BankMode, Deal, HandOrdering, Misset, NaturalSchedule, NaturalSettlement, Naturals, Rake, RakeModel, RoyaltyMode, RoyaltyPayment, Royalties, RoyaltySchedule, Scoring, ScoringParams, ScoringRules, Stakes, Surrender, Variant, load_variant


def option_error(message: str) -> ContextManager[pytest.ExceptionInfo[OptionError]]:
    """``pytest.raises(OptionError, match=...)`` for a literal piece of the message."""
    return pytest.raises(OptionError, match=re.escape(message))


# -- section 4: royalty schedules -------------------------------------------------------------

# front trips, middle full house, middle quads, middle straight flush, back quads, back SF
RULEBOOK_ROYALTIES = {
    "R-FUTUREBET": ("extra", (2, 1, 3, 4, 3, 4)),
    "R-PAGAT-TYPICAL": ("instead", (3, 2, 4, 5, 4, 5)),
    "R-PAGAT-EXTRA-A": ("extra", (2, 1, 3, 4, 3, 4)),
    "R-PAGAT-EXTRA-B": ("extra", (2, 2, 6, 8, 4, 6)),
    "R-PAGAT-PRINTABLE": ("instead", (3, 2, 8, 10, 4, 5)),
    "R-PAGAT-RANKINGS": ("instead", (3, 2, 8, 14, 4, 7)),
    "R-PAGAT-CASINO": ("extra", (3, 2, 8, 10, 4, 5)),
    "R-EASTERN": ("instead", (3, 2, 8, 10, 4, 5)),
    "R-MANDARIN": ("extra", (2, 2, 8, 10, 4, 5)),
    "R-TW": ("extra", (3, 1, 3, 4, 2, 3)),
    "R-FLAT": ("extra", (1, 1, 1, 1, 1, 1)),
    "R-NONE": ("extra", (0, 0, 0, 0, 0, 0)),
}


def _royalty(schedule: str) -> tuple[str, tuple[float, ...]]:
    r = Royalties(schedule=schedule)
    return r.payment.value, tuple(getattr(r, row) for row in ROYALTY_ROWS)


@pytest.mark.parametrize("schedule", sorted(RULEBOOK_ROYALTIES))
def test_every_royalty_schedule_matches_the_rulebook(schedule: str) -> None:
    assert _royalty(schedule) == RULEBOOK_ROYALTIES[schedule]


def test_every_royalty_schedule_is_listed() -> None:
    assert {s.value for s in RoyaltySchedule} == set(RULEBOOK_ROYALTIES) == {
        s.value for s in ROYALTY_TABLES}


def test_r_futurebet_schedule() -> None:
    r = Royalties(schedule=RoyaltySchedule.FUTUREBET)
    assert r.payment is RoyaltyPayment.EXTRA
    assert (r.front_trips, r.middle_full_house, r.back_quads, r.middle_straight_flush) == (
        2, 1, 3, 4)
    assert r.row_values().tolist() == [3, 2, 4, 5, 4, 5]


def test_r_pagat_typical_schedule() -> None:
    r = Royalties(schedule="R-PAGAT-TYPICAL")
    assert r.middle_full_house == 2 and r.payment is RoyaltyPayment.INSTEAD
    assert r.row_values().tolist() == [3, 2, 4, 5, 4, 5]
    assert r.bonuses().tolist() == [2, 1, 3, 4, 3, 4]


def test_r_pagat_extra_b_schedule() -> None:
    r = Royalties(schedule="R-PAGAT-EXTRA-B")
    assert (r.back_quads, r.middle_quads) == (4, 6)
    assert (r.back_straight_flush, r.middle_straight_flush) == (6, 8)


def test_r_pagat_rankings_schedule() -> None:
    r = Royalties(schedule="R-PAGAT-RANKINGS")
    assert (r.back_straight_flush, r.middle_straight_flush) == (7, 14)


def test_r_pagat_casino_schedule_is_additional() -> None:
    r = Royalties(schedule="R-PAGAT-CASINO")
    assert r.payment is RoyaltyPayment.EXTRA and r.middle_straight_flush == 10


def test_r_eastern_replaces_the_row_point() -> None:
    r = Royalties(schedule="R-EASTERN")
    assert r.payment is RoyaltyPayment.INSTEAD
    assert r.row_values().tolist() == [3, 2, 8, 10, 4, 5]


def test_r_mandarin_front_trips_triple_the_row() -> None:
    assert Royalties(schedule="R-MANDARIN").row_values()[0] == 3


def test_r_tw_schedule() -> None:
    r = Royalties(schedule="R-TW")
    assert (r.front_trips, r.middle_full_house, r.middle_quads, r.middle_straight_flush,
            r.back_quads, r.back_straight_flush) == (3, 1, 3, 4, 2, 3)


def test_r_flat_configurable_unit() -> None:
    assert Royalties(schedule="R-FLAT").amounts().tolist() == [1] * 6
    flat = Royalties.flat(2, mode="RM-CANCEL")
    assert flat.amounts().tolist() == [2] * 6 and flat.mode is RoyaltyMode.CANCEL
    v = load_variant("basic(royalties.unit=2)")
    assert v.royalties.schedule is RoyaltySchedule.FLAT
    assert v.royalties.amounts().tolist() == [2] * 6
    assert str(v) == "basic(royalties=R-FLAT,royalties.unit=2)"


def test_custom_royalty_amounts_override_the_schedule() -> None:
    r = Royalties(schedule="R-FUTUREBET", middle_quads=5)
    assert (r.middle_quads, r.back_quads) == (5, 3)
    v = load_variant("2-4(royalties=R-FUTUREBET,royalties.middle_quads=5)")
    assert v.royalties == r


@pytest.mark.parametrize("mode", ["RM-WINNER", "RM-CANCEL", "RM-ALWAYS", "RM-ONE", "RM-DEALT"])
def test_royalty_modes_are_selectable(mode: str) -> None:
    v = load_variant(f"2-4(royalties=R-PAGAT-TYPICAL,royalty_mode={mode})")
    assert v.royalties.mode.value == mode
    assert load_variant(str(v)) == v


def test_rm_winner_is_the_default() -> None:
    assert Royalties().mode is RoyaltyMode.WINNER


def test_royalty_table_by_row_and_category() -> None:
    table = Royalties(schedule="R-TW").by_category()
    assert table.shape == (3, 9)
    front, middle, back = table
    assert front[CATEGORIES.index("three_of_a_kind")] == 3
    assert middle[CATEGORIES.index("full_house")] == 1
    assert middle[CATEGORIES.index("four_of_a_kind")] == 3
    assert back[CATEGORIES.index("straight_flush")] == 3 and table.sum() == 16


def test_categories_match_the_ranking_tables() -> None:
    from cpstats.hands import tables as _tables

    assert CATEGORIES == _tables.CATEGORIES_5


# -- section 5: natural schedules -------------------------------------------------------------

RULEBOOK_NATURALS = {
    "NS-TW": [("no_pictures", 3), ("three_flushes", 3), ("three_straights", 4), ("six_pairs", 6),
              ("four_trips", 8), ("all_one_colour", 10), ("all_low", 12), ("all_high", 12),
              ("three_quads", 20), ("three_straight_flushes", 24), ("all_pictures", 32),
              ("dragon", 36), ("clean_dragon", 108)],
    "NS-PAGAT-TYPICAL": [("six_pairs", 3), ("three_straights", 3), ("three_flushes", 3),
                         ("dragon", 13)],
    "NS-PAGAT-LONG": [("three_flushes", 3), ("three_straights", 4), ("six_pairs", 4),
                      ("five_pairs_trips", 5), ("four_trips", 6), ("all_one_colour", 10),
                      ("all_low", 10), ("all_high", 10), ("three_quads", 16),
                      ("three_straight_flushes", 18), ("twelve_pictures", 18), ("one_suit", 26)],
    "NS-PAGAT-PRINTABLE": [("three_straights", 3), ("three_flushes", 3), ("six_pairs", 3),
                           ("five_pairs_trips", 6), ("dragon", 13), ("one_suit", 26)],
    "NS-PAGAT-RANKINGS": [("three_straights", 4), ("three_flushes", 4), ("twelve_one_colour", 4),
                          ("all_one_colour", 6), ("six_pairs", 4), ("dragon", 13),
                          ("one_suit", 39)],
    "NS-AUTOWIN": [("three_straights", SCOOP), ("three_flushes", SCOOP), ("six_pairs", SCOOP),
                   ("dragon", SCOOP)],
    "NS-NONE": [],
}


@pytest.mark.parametrize("schedule", sorted(RULEBOOK_NATURALS))
def test_every_natural_schedule_matches_the_rulebook(schedule: str) -> None:
    assert list(Naturals(schedule=schedule).payouts) == RULEBOOK_NATURALS[schedule]


def test_every_natural_schedule_is_listed() -> None:
    assert {s.value for s in NaturalSchedule} == set(RULEBOOK_NATURALS) == {
        s.value for s in NATURAL_TABLES}


def test_ns_tw_schedule() -> None:
    n = Naturals(schedule="NS-TW")
    assert dict(n.payouts)["clean_dragon"] == 108 and dict(n.payouts)["dragon"] == 36
    payout, rank = n.arrays(scoop_value=6)
    clean, dragon = NATURAL_NAMES.index("clean_dragon"), NATURAL_NAMES.index("dragon")
    assert payout[clean] == 108 and rank[clean] == 12 and rank[dragon] == 11
    one_suit = NATURAL_NAMES.index("one_suit")
    assert rank[one_suit] == -1 and payout[one_suit] == 0


def test_ns_pagat_typical_schedule() -> None:
    assert dict(Naturals(schedule="NS-PAGAT-TYPICAL").payouts) == {
        "six_pairs": 3, "three_straights": 3, "three_flushes": 3, "dragon": 13}


def test_ns_pagat_rankings_one_suit_pays_39() -> None:
    assert Naturals(schedule="NS-PAGAT-RANKINGS").payouts[-1] == ("one_suit", 39)


def test_ns_autowin_is_worth_a_scoop() -> None:
    v = get_preset("thirteen-card")
    tables = v.kernel_tables()
    dragon = NATURAL_NAMES.index("dragon")
    assert tables["natural_payout"][dragon] == 4  # a 2-4 scoop
    assert tables["natural_rank"][dragon] == 3  # dragon beats every other natural
    assert get_preset("mandarin").kernel_tables()["natural_payout"][dragon] == 6


def test_natural_names_match_the_detectors() -> None:
    try:
        from cpstats.hands.naturals import NATURALS
    except ImportError as exc:  # pragma: no cover - module under construction elsewhere
        pytest.skip(f"cpstats.hands.naturals not importable: {exc}")
    assert NATURAL_NAMES == NATURALS


def test_nat_settlement_options() -> None:
    assert Naturals().settlement is NaturalSettlement.HIGHER_COLLECTS
    assert get_preset("banked").naturals.settlement is NaturalSettlement.EACH_COLLECTS
    v = load_variant("pagat-typical(naturals.settlement=NAT-1)")
    assert v.kernel_tables()["natural_settlement"] == 0 and load_variant(str(v)) == v


def test_n_three_straights_options() -> None:
    n = Naturals()
    assert n.qka_front_straight is True and n.straight_flush_counts is True
    v = load_variant(
        "taiwanese(naturals.qka_front_straight=false,naturals.straight_flush_counts=no)")
    assert not v.naturals.qka_front_straight and not v.naturals.straight_flush_counts
    assert load_variant(str(v)) == v


def test_natural_payout_overrides() -> None:
    v = load_variant(
        "pagat-typical(naturals.dragon=20,naturals.six_and_above=5,naturals.three_flushes=0)")
    assert list(v.naturals.payouts) == [("six_pairs", 3), ("three_straights", 3),
                                        ("six_and_above", 5), ("dragon", 20)]
    assert load_variant(str(v)) == v
    custom = Naturals(payouts={"dragon": 13, "six_pairs": "SCOOP"})
    assert custom.payouts == (("dragon", 13), ("six_pairs", SCOOP))


# -- section 3: scoring systems ---------------------------------------------------------------

@pytest.mark.parametrize("system, scoop", [
    ("SC-1-1-1", 3), ("SC-2-4", 4), ("SC-2-4-total", 4), ("SC-1-4", 4), ("SC-1-6", 6),
    ("SC-1-6-HR", 6), ("SC-TW", 6), ("SC-MANDARIN", 6), ("SC-EASTERN", 3),
])
def test_scoop_values(system: str, scoop: int) -> None:
    from cpstats.rules import SCORING_PARAMS

    assert SCORING_PARAMS[Scoring(system)].scoop_value == scoop


def test_sc_2_4_two_of_three_nets_2() -> None:
    params = get_preset("2-4").scoring_params()
    assert params.front + params.back - params.middle + params.majority == 2  # 000: Bob pays Amy 2


def test_sc_1_6_two_of_three_nets_1() -> None:
    params = get_preset("1-6").scoring_params()
    assert params.front + params.back - params.middle + params.majority == 1  # 000: Bob pays Amy 1


def test_sc_1_4_has_no_overall_unit() -> None:
    params = get_preset("1-4").scoring_params()
    assert params.majority == 0 and params.scoop_value == 4


def test_sc_2_4_total_scores_totals_first() -> None:
    assert get_preset("2-4-total").scoring_params().totals_first
    assert not get_preset("2-4").scoring_params().totals_first


def test_sc_1_6_hr_home_run_pays_9() -> None:
    params = get_preset("pagat-casino").scoring_params()
    assert params.scoop_value + params.home_run_bonus == 9


def test_sc_tw_scoop_doubles_and_home_run_doubles_again() -> None:
    params = get_preset("taiwanese").scoring_params()
    assert (params.scoop_multiplier, params.home_run_multiplier) == (2, 4)
    off = load_variant("taiwanese(players=2,home_run=false)").scoring_params()
    assert (off.scoop_multiplier, off.home_run_multiplier) == (2, 1)


def test_sc_mandarin_shot_doubles_home_run_triples() -> None:
    params = get_preset("mandarin").scoring_params()
    assert (params.scoop_multiplier, params.home_run_multiplier) == (2, 3)


def test_sc_eastern_two_of_three_nets_1() -> None:
    params = get_preset("eastern").scoring_params()
    assert params.majority == 0 and params.scoop_value == 3


def test_sc_race_11_scoop_point_only_four_handed() -> None:
    assert get_preset("race-to-11").scoring_params() == ScoringParams(scoop_bonus=1, race_target=11)
    three = load_variant("race-to-11(players=3,race_target=15)").scoring_params()
    assert (three.scoop_bonus, three.race_target) == (0, 15)


def test_scoring_params_array() -> None:
    """Slots 0-7 keep their places (issue 15.1 appends the middle's and back's points and the
    home run's table size): front, majority, scoop bonus and multiplier, home-run bonus and
    multiplier, totals first, race target."""
    array = get_preset("1-6").scoring_params().to_array()
    assert array.dtype == np.float64 and array.tolist() == [1, 0, 3, 1, 0, 1, 0, 0, 1, 1, 3]
    custom = load_variant("mandarin(scoring.front=1,scoring.middle=2,scoring.back=3)")
    assert custom.scoring_params().to_array().tolist() == [1, 0, 0, 2, 0, 3, 0, 0, 2, 3, 4]


def test_sc_stakes_matrix() -> None:
    matrix = [[0, 100, 10, 10], [100, 0, 10, 10], [10, 10, 0, 10], [10, 10, 10, 0]]
    v = get_preset("2-4").replace(stakes=matrix)
    assert v.stakes_array()[0, 1] == 100 and v.stakes_array().shape == (4, 4)
    assert str(v) == "2-4(stakes=0:100:10:10/100:0:10:10/10:10:0:10/10:10:10:0)"
    assert load_variant(str(v)) == v
    assert get_preset("2-4").stakes_array().tolist() == np.ones((4, 4)).tolist()


# -- issue 15.1: every number of a scoring system is an option ---------------------------------

#: A value for each scoring number that no preset system uses, and the number's preset value.
SCORING_CHANGES = [
    ("front", 2, 1), ("middle", 2, 1), ("back", 3, 1), ("majority", 2, 1), ("scoop_bonus", 5, 0),
    ("scoop_multiplier", 2, 1), ("home_run_bonus", 3, 0), ("home_run_multiplier", 2, 1),
    ("home_run_players", 4, 3), ("totals_first", True, False), ("race_target", 15, 0),
]


@pytest.mark.parametrize("name, value, before", SCORING_CHANGES)
def test_each_scoring_number_is_an_option(name: str, value: object, before: object) -> None:
    """``scoring.<number>`` reaches every number from the string and from
    ``replace``, and the variant prints as the preset plus that number."""
    base = get_preset("2-4")
    assert getattr(base.scoring, name) == before
    text = f"2-4(scoring.{name}={_text(value)})"
    v = load_variant(text)
    assert getattr(v.scoring, name) == value and v.scoring.system is Scoring.TWO_FOUR
    assert str(v) == text and load_variant(str(v)) == v
    assert base.replace(**{f"scoring__{name}": value}) == v
    assert base.replace(**{f"scoring.{name}": value}) == v
    assert Variant.from_dict(v.to_dict()) == v and Variant.from_json(v.to_json()) == v


def test_scoring_examples_of_the_issue() -> None:
    """The issue's examples; a number written equal to the preset's is not printed."""
    v = load_variant("2-4(scoring.scoop_bonus=5)")
    assert v.scoring_params().scoop_value == 9 and str(v) == "2-4(scoring.scoop_bonus=5)"
    game = load_variant("1-6(scoring.front=1,scoring.middle=2,scoring.back=3)")
    assert game.scoring_params().rows == (1, 2, 3) and game.scoring_params().scoop_value == 9
    assert str(game) == "1-6(scoring.middle=2,scoring.back=3)" and load_variant(str(game)) == game
    custom = load_variant("2-4(scoring.scoop_bonus=5,royalties=R-FUTUREBET,royalties.front_trips=10)")
    assert str(custom) == "2-4(scoring.scoop_bonus=5,royalties=R-FUTUREBET,royalties.front_trips=10)"


def test_a_scoring_id_names_its_numbers() -> None:
    """Each preset's scoring is its ID with the ID's numbers (SCORING_PARAMS);
    ``scoring=`` sets every number, and the numbers written apply after it in any order."""
    from cpstats.rules import SCORING_PARAMS

    for name in preset_names():
        scoring = get_preset(name).scoring
        assert scoring.params() == SCORING_PARAMS[scoring.system] and str(get_preset(name)) == name
    v = load_variant("2-4(scoring.scoop_bonus=5,scoring=SC-TW)")
    assert (v.scoring.system, v.scoring.scoop_bonus, v.scoring.scoop_multiplier) == (
        Scoring.TAIWANESE, 5, 2)
    assert str(v) == "2-4(scoring=SC-TW,scoring.scoop_bonus=5)"
    assert load_variant("2-4(scoring.middle=2,scoring=SC-1-6)").scoring == ScoringRules(
        "SC-1-6", middle=2)
    assert get_preset("1-6").replace(scoring="SC-2-4").scoring == ScoringRules(system="SC-2-4")
    assert load_variant("2-4(scoring.system=SC-1-6)") == load_variant("2-4(scoring=SC-1-6)")


def test_scoring_row_sets_all_three_rows() -> None:
    """``scoring.row`` is every row's points at once; equal rows print as it."""
    v = load_variant("2-4(scoring.row=2)")
    assert v.scoring_params().rows == (2, 2, 2) and v.scoring_params().scoop_value == 7
    assert load_variant("2-4(scoring.front=2,scoring.middle=2,scoring.back=2)") == v
    assert str(v) == "2-4(scoring.row=2)"
    assert str(load_variant("2-4(scoring.row=2,scoring.back=3)")) == (
        "2-4(scoring.front=2,scoring.middle=2,scoring.back=3)")


def test_scoring_component_given_loosely() -> None:
    """``scoring`` takes an ID, a mapping or a :class:`ScoringRules`."""
    rules = ScoringRules(system="SC-1-6", back=3)
    assert Variant(scoring=rules) == Variant(scoring={"system": "sc-1-6", "back": 3})
    assert Variant(scoring="SC-1-6").scoring == ScoringRules(system=Scoring.ONE_SIX)
    assert get_preset("2-4").replace(scoring=rules).scoring == rules
    assert str(Variant(scoring=rules)) == "basic(scoring=SC-1-6,scoring.back=3)"


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(preset_names()),
       numbers=st.fixed_dictionaries({}, optional={
           **{n: st.integers(1, 9) | st.floats(0.125, 20).map(lambda x: round(x * 8) / 8)
              for n in ("front", "middle", "back", "scoop_multiplier", "home_run_multiplier")},
           **{n: st.integers(0, 9) | st.floats(0, 20).map(lambda x: round(x * 8) / 8)
              for n in ("majority", "scoop_bonus", "home_run_bonus")},
           "home_run_players": st.sampled_from([3, 4]), "totals_first": st.booleans(),
           "race_target": st.integers(0, 50)}))
def test_any_scoring_numbers_round_trip(preset: str, numbers: dict[str, object]) -> None:
    """Any valid numbers survive the string, ``replace``, dict and JSON round trips,
    and the string names only the numbers that differ from the preset's."""
    overrides = {f"scoring.{k}": v for k, v in numbers.items()}
    try:
        v = get_preset(preset).replace(**overrides)
    except OptionError:
        reject()  # e.g. a home run below a scoop, or at a table too small for it
    assert load_variant(str(v)) == v and hash(load_variant(str(v))) == hash(v)
    assert Variant.from_dict(v.to_dict()) == v and Variant.from_json(v.to_json()) == v
    for name, value in numbers.items():
        assert getattr(v.scoring, name) == value
    named = {k.split("=")[0] for k in str(v).partition("(")[2].rstrip(")").split(",") if k}
    changed = {f"scoring.{n}" for n, value in numbers.items()
               if getattr(get_preset(preset).scoring, n) != value}
    assert named - {"scoring.row"} <= changed | {"scoring.front", "scoring.middle", "scoring.back"}


@pytest.mark.parametrize("text, message", [
    ("2-4(scoring.front=0)", "scoring.front=0 is invalid: points must be > 0"),
    ("2-4(scoring.row=-1)", "scoring.row=-1 is invalid: points must be > 0"),
    ("2-4(scoring.majority=-1)", "scoring.majority=-1 is invalid: units must be >= 0"),
    ("2-4(scoring.scoop_bonus=-2)", "scoring.scoop_bonus=-2 is invalid: units must be >= 0"),
    ("2-4(scoring.scoop_multiplier=0.5)",
     "scoring.scoop_multiplier=0.5 is invalid: multipliers must be >= 1"),
    ("taiwanese(scoring.home_run_multiplier=0)",
     "scoring.home_run_multiplier=0 is invalid: multipliers must be >= 1"),
    ("taiwanese(scoring.scoop_multiplier=5)", "scoring.home_run_multiplier=4 is invalid: a home "
     "run pays at least a scoop: its multiplier replaces the scoop's and must be >= "
     "scoring.scoop_multiplier=5"),
    ("2-4(scoring.home_run_bonus=1,scoring.scoop_multiplier=2)",
     "scoring.home_run_multiplier=1 is invalid: a home run pays at least a scoop"),
    ("2-4(scoring.home_run_players=2)",
     "scoring.home_run_players=2 is invalid: 3 or 4 players (heads-up, a home run is a scoop)"),
    ("2-4(scoring.home_run_players=3.5)",
     "scoring.home_run_players=3.5 is invalid: expected a whole number"),
    ("2-4(scoring.home_run_bonus=3,players=2)",
     "players=2 is invalid: the home run of scoring=SC-2-4 needs at least 3 players"),
    ("taiwanese(scoring.home_run_players=4,players=3)",
     "players=3 is invalid: the home run of scoring=SC-TW needs at least 4 players"),
    ("2-4(scoring.totals_first=maybe)", "scoring.totals_first='maybe' is invalid: expected true"),
    ("2-4(scoring.back=x)", "scoring.back='x' is invalid: expected a number"),
    ("2-4(scoring.back=1e10)", "scoring.back=1e10 is invalid: points must be at most"),
    ("2-4(scoring.scop_bonus=5)", "scoring.scop_bonus='5' is invalid: unknown option (did you "
     "mean 'scoring.scoop_bonus'"),
    ("2-4(scoring.midle=2)", "(did you mean 'scoring.middle'"),
])
def test_scoring_number_refusals(text: str, message: str) -> None:
    """The rulebook's limits (section 3), one line naming the number and the limit;
    unknown keys get "did you mean"."""
    with option_error(message):
        load_variant(text)


def test_scoring_component_refusals() -> None:
    """The same limits from the API: mappings, ``replace`` and the component."""
    with option_error("scoring.scop_bonus=5 is invalid: unknown option (did you mean 'scoop_bonus'"):
        Variant(scoring={"scop_bonus": 5})
    with option_error("scoring.middle=0 is invalid: points must be > 0"):
        get_preset("2-4").replace(scoring__middle=0)
    with option_error("scoring.home_run_multiplier=1.5 is invalid: a home run pays at least"):
        ScoringRules(system="SC-TW", home_run_multiplier=1.5)
    with option_error("scoring.totals_first='yes' is invalid: expected True or False"):
        ScoringRules(totals_first="yes")  # type: ignore[arg-type]
    with option_error("scoring=7 is invalid: expected a ScoringRules"):
        Variant(scoring=7)  # type: ignore[arg-type]


def test_home_run_off_and_fewest_players() -> None:
    """A home run written as numbers needs its table size like a preset's;
    ``home_run=false`` turns it off, and without one any table size goes."""
    v = load_variant("2-4(scoring.home_run_bonus=3,scoring.home_run_players=4)")
    assert v.scoring.fewest_players == 4 and v.scoring_params().home_run_bonus == 3
    off = load_variant("2-4(scoring.home_run_bonus=3,players=2,home_run=false)")
    assert off.scoring_params().has_home_run is False
    assert get_preset("2-4").scoring.fewest_players == 2
    assert get_preset("mandarin").scoring.fewest_players == 4
    assert load_variant("taiwanese(scoring.home_run_multiplier=2)").scoring.fewest_players == 3


def test_scoring_numbers_move_the_scoop_and_what_follows_it() -> None:
    """A scoop's value follows the numbers, and so do the mis-set penalty (a
    scoop, 000) and NS-AUTOWIN's payouts (worth a scoop); the standard surrender stays the
    ID's (002)."""
    v = load_variant("2-4(scoring.back=3,scoring.scoop_bonus=2)")
    assert v.scoring_params().scoop_value == 1 + 1 + 3 + 1 + 2 == v.misset_points()
    auto = load_variant("thirteen-card(scoring.scoop_multiplier=2)")
    assert auto.kernel_tables()["natural_payout"][NATURAL_NAMES.index("dragon")] == 8
    assert load_variant("2-4(scoring.scoop_bonus=5,surrender=standard)").surrender_amount() == 2


def test_royalty_amounts_are_options() -> None:
    """Every royalty amount (hand and row) is reachable from the string and from
    ``replace``, printed as the schedule plus the amounts that differ."""
    base = get_preset("futurebet-2-4")
    for row in ROYALTY_ROWS:
        text = f"futurebet-2-4(royalties.{row}=11)"
        v = load_variant(text)
        assert getattr(v.royalties, row) == 11 and str(v) == text
        assert base.replace(**{f"royalties__{row}": 11}) == v
    with option_error("royalties.back_quad='3' is invalid: unknown option (did you mean "
                      "'royalties.back_quads'"):
        get_preset("2-4").replace(royalties__back_quad=3)


def test_natural_payouts_are_options_printed_one_by_one() -> None:
    """Every natural's payout is reachable from the string and from ``replace``; a
    variant that changes some prints as the schedule plus those payouts (``naturals.payouts``
    only for a ranking of the user's own)."""
    base = get_preset("taiwanese")
    for name in NATURAL_NAMES:
        text = f"taiwanese(naturals.{name}=99)"
        v = load_variant(text)
        assert dict(v.naturals.payouts)[name] == 99 and str(v) == text
        assert base.replace(**{f"naturals__{name}": 99}) == v and load_variant(str(v)) == v
    removed = load_variant("taiwanese(naturals.dragon=0)")
    assert "dragon" not in dict(removed.naturals.payouts)
    assert str(removed) == "taiwanese(naturals.dragon=0)"
    ranked = load_variant("2-4(naturals.payouts=dragon:13/six_pairs:30)")
    assert str(ranked) == "2-4(naturals.payouts=dragon:13/six_pairs:30)"
    assert load_variant(str(ranked)) == ranked
    with option_error("naturals.dragn='20' is invalid: unknown option (did you mean "
                      "'naturals.dragon'"):
        load_variant("2-4(naturals.dragn=20)")


# -- section 6 and the deal -------------------------------------------------------------------

def test_s_surrender_standard_amounts() -> None:
    assert get_preset("futurebet-2-4").surrender_amount() == 2
    assert get_preset("futurebet-1-6").surrender_amount() == 3
    assert load_variant("2-4(surrender=standard)").surrender_amount() == 2
    assert load_variant("1-6(surrender=standard)").surrender_amount() == 3
    assert load_variant("basic(surrender=2.5)").surrender_amount() == 2.5
    assert get_preset("2-4").surrender_amount() is None
    assert get_preset("2-4").kernel_tables()["surrender"] == -1


def test_s_misset_scoop_or_four_points() -> None:
    assert get_preset("1-6").misset_points() == 6
    assert get_preset("thirteen-card").misset_points() == 4
    assert load_variant("2-4(misset=4)").misset == Misset(points=4)


def test_s_chips_settlement_order() -> None:
    v = get_preset("pagat-casino")
    assert v.chips_limit
    assert v.pair_order().tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert v.pair_order().dtype == np.uint8


def test_s_aces_side_bet() -> None:
    aces = get_preset("pagat-casino").aces
    assert aces.enabled and aces.values().tolist() == [0, 1, 2, 6, 8]
    assert get_preset("2-4").kernel_tables()["aces"].tolist() == [0] * 5


def test_s_bank_preset() -> None:
    v = get_preset("banked")
    assert v.bank.banked and v.bank.wins_ties
    assert v.royalties.mode is RoyaltyMode.ALWAYS
    assert v.naturals.schedule is NaturalSchedule.PAGAT_LONG
    assert v.pair_order().tolist() == [[0, 1], [0, 2], [0, 3]]
    commission = load_variant("banked(bank.commission=0.05)")
    assert commission.bank.commission == 0.05 and load_variant(str(commission)) == commission
    assert commission.kernel_tables()["bank"].tolist() == [1, 1, 0.05, 0]


def test_s_rake_models() -> None:
    assert Rake().per_hand(10, 4) == 0
    assert Rake(model="fixed-table", amount=1).per_hand(10, 4) == 1
    assert Rake(model="fixed-player", amount=0.25).per_hand(10, 4) == 1
    percent = Rake(model="percent", percent=0.05, cap=3, threshold=5)
    assert percent.per_hand(4, 4) == 0 and percent.per_hand(20, 4) == 1
    assert percent.per_hand(100, 4) == 3
    assert Rake(model="percent", percent=0.1).per_hand(100, 4) == 10
    assert Rake(model="time", amount=12, hands_per_hour=24).per_hand(0, 4) == 2
    casino = get_preset("pagat-casino").rake
    assert casino.model is RakeModel.FIXED_TABLE and casino.jackpot_drop > 0
    assert "straight flush" in casino.jackpot_trigger
    assert casino.to_array().tolist() == [1, 0.5, 0, np.inf, 0, 30, 0.1]


def test_d3_criss_cross() -> None:
    v = get_preset("criss-cross")
    assert v.deal is Deal.CRISS_CROSS and v.players == 2 and v.hands_per_player == 2
    assert v.pair_order().tolist() == [[0, 2], [0, 3], [1, 2], [1, 3]]


@pytest.mark.parametrize("ordering", ["H1", "H4", "H5"])
def test_hand_orderings(ordering: str) -> None:
    v = load_variant(f"2-4(ranking={ordering})")
    assert v.ranking is HandOrdering(ordering) and load_variant(str(v)) == v


# -- presets ----------------------------------------------------------------------------------

REQUIRED_PRESETS = [
    "basic", "2-4", "2-4-total", "1-4", "1-6", "futurebet-2-4", "futurebet-1-6",
    "pagat-typical", "pagat-casino", "taiwanese", "eastern", "western", "mandarin",
    "thirteen-card", "banked", "criss-cross", "race-to-11",
]


def test_required_presets_exist() -> None:
    assert set(REQUIRED_PRESETS) <= set(preset_names())


def test_presets_dataframe() -> None:
    from cpstats.rules.open_face import PRESETS as OPEN_FACE, OfcVariant

    table = presets()
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns) == ["name", "game", "description", "seed", "variant"]
    assert list(table["name"]) == [*preset_names(), *OPEN_FACE]
    assert list(table["game"]) == ["13-card"] * len(preset_names()) + ["open-face"] * len(OPEN_FACE)
    cards = table[table["game"] == "13-card"]
    assert set(cards["seed"]) <= {"000", "001", "002", "004"}
    assert all(isinstance(get_preset(n), OfcVariant) for n in table[table["game"] == "open-face"]["name"])
    assert all("\n" not in d and d for d in table["description"])
    for name, text in zip(table["name"], table["variant"]):
        assert load_variant(text) == get_preset(name)


def test_basic_is_the_default_variant() -> None:
    assert get_preset("basic") == Variant() and str(Variant()) == "basic"
    assert get_preset("basic").scoring.system is Scoring.BASIC


@pytest.mark.parametrize("name, scoring", [
    ("2-4", "SC-2-4"), ("2-4-total", "SC-2-4-total"), ("1-4", "SC-1-4"), ("1-6", "SC-1-6"),
    ("taiwanese", "SC-TW"), ("eastern", "SC-EASTERN"), ("western", "SC-2-4"),
    ("mandarin", "SC-MANDARIN"), ("race-to-11", "SC-RACE-11"), ("pagat-casino", "SC-1-6-HR"),
])
def test_preset_scoring(name: str, scoring: str) -> None:
    assert get_preset(name).scoring.system.value == scoring
    assert get_preset(name).scoring == ScoringRules(system=scoring)


def test_futurebet_presets() -> None:
    for name, surrender in (("futurebet-2-4", 2), ("futurebet-1-6", 3)):
        v = get_preset(name)
        assert v.royalties.schedule is RoyaltySchedule.FUTUREBET
        assert v.surrender_amount() == surrender
        assert v.rake.model is RakeModel.FIXED_PLAYER and v.rake.amount > 0


def test_pagat_presets() -> None:
    typical = get_preset("pagat-typical")
    assert typical.royalties.schedule is RoyaltySchedule.PAGAT_TYPICAL
    assert typical.naturals.schedule is NaturalSchedule.PAGAT_TYPICAL
    casino = get_preset("pagat-casino")
    assert casino.royalties.schedule is RoyaltySchedule.PAGAT_CASINO
    assert casino.surrender_amount() == 3 and casino.chips_limit and casino.aces.enabled


def test_taiwanese_and_004_presets() -> None:
    tw = get_preset("taiwanese")
    assert (tw.royalties.schedule, tw.naturals.schedule) == (RoyaltySchedule.TW, NaturalSchedule.TW)
    for name in ("eastern", "western", "mandarin", "thirteen-card"):
        v = get_preset(name)
        assert v.naturals.schedule is NaturalSchedule.AUTOWIN and v.misset.points == 4
    assert get_preset("eastern").royalties.schedule is RoyaltySchedule.EASTERN
    assert get_preset("mandarin").royalties.schedule is RoyaltySchedule.MANDARIN


def test_presets_are_case_insensitive() -> None:
    assert get_preset(" Taiwanese ") == get_preset("taiwanese")
    assert load_variant("TAIWANESE") == get_preset("taiwanese")


# -- round trips ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", REQUIRED_PRESETS)
def test_preset_round_trips(name: str) -> None:
    v = get_preset(name)
    assert str(v) == name
    assert load_variant(str(v)) == v
    assert Variant.from_dict(v.to_dict()) == v
    assert Variant.from_json(v.to_json()) == v
    json.loads(v.to_json())  # plain JSON
    assert hash(v) == hash(load_variant(name))


def test_overrides_are_minimal_and_readable() -> None:
    v = get_preset("2-4").replace(royalties="R-FUTUREBET", surrender=2, players=3)
    assert str(v) == "2-4(players=3,royalties=R-FUTUREBET,surrender=2)"
    assert str(get_preset("2-4").replace(players=4)) == "2-4"
    assert load_variant(str(v)) == v


def test_overrides_by_rulebook_ids() -> None:
    v = load_variant("2-4(royalties=R-PAGAT-TYPICAL,royalty_mode=RM-CANCEL)")
    assert v.royalties == Royalties(schedule="R-PAGAT-TYPICAL", mode="RM-CANCEL")
    assert str(v) == "2-4(royalties=R-PAGAT-TYPICAL,royalty_mode=RM-CANCEL)"


def test_loose_override_values() -> None:
    v = load_variant(" 2-4 ( royalties = futurebet , royalty_mode = cancel , scoring = sc-1-6 ) ")
    assert v == load_variant("1-6(name=2-4,royalties=R-FUTUREBET,royalty_mode=RM-CANCEL)")
    assert str(v) == "2-4(scoring=SC-1-6,royalties=R-FUTUREBET,royalty_mode=RM-CANCEL)"


def test_overrides_apply_schedule_before_amounts() -> None:
    a = load_variant("2-4(royalties.middle_quads=9,royalties=R-TW)")
    assert a.royalties.middle_quads == 9 and a.royalties.schedule is RoyaltySchedule.TW


def test_aliases() -> None:
    assert load_variant("2-4(royalties.schedule=R-TW,royalties.mode=RM-ONE)") == load_variant(
        "2-4(royalties=R-TW,royalty_mode=RM-ONE)")


def test_custom_name_round_trips() -> None:
    v = Variant(name="home game", scoring="SC-2-4", players=3)
    assert str(v) == "basic(name=home game,scoring=SC-2-4,players=3)"
    assert load_variant(str(v)) == v


def test_text_values_are_escaped() -> None:
    v = get_preset("pagat-casino").replace(rake__jackpot_trigger="quads, (any) = 100%")
    assert load_variant(str(v)) == v and "%2C" in str(v)


def test_replace_accepts_components_enums_and_keys() -> None:
    base = get_preset("2-4")
    v = base.replace(royalties=Royalties(schedule="R-TW"), scoring=Scoring.ONE_SIX,
                     royalties__middle_quads=8, **{"royalty_mode": RoyaltyMode.ONE})
    assert v.royalties == Royalties(schedule="R-TW", middle_quads=8, mode="RM-ONE")
    aces = AcesBet(enabled=True, payouts=(1, 2, 3, 4))
    assert base.replace(aces=aces).aces == aces
    assert base.replace(**{"aces.payouts": [1, 2, 3, 4], "aces": True}).aces.values()[-1] == 4
    assert base.replace(naturals__payouts=[("dragon", 13)]).naturals.payouts == (("dragon", 13),)
    assert base.replace(bank={"mode": "S-BANK", "fee": 0.5}).bank.fee == 0.5
    assert base.replace(stakes=None) == base
    assert base.replace(name="x").name == "x"


def test_variant_coerces_loose_components() -> None:
    v = Variant(scoring="sc-2-4", royalties="R-TW", naturals="NS-TW",
                surrender={"enabled": True}, stakes=[[1, 1, 1, 1]] * 4)
    assert v.royalties == Royalties(schedule=RoyaltySchedule.TW)
    assert v.naturals == Naturals(schedule=NaturalSchedule.TW)
    assert isinstance(v.stakes, Stakes) and v.surrender_amount() == 2


def test_kernel_tables_are_plain_arrays() -> None:
    for name in preset_names():
        tables = get_preset(name).kernel_tables()
        for key, array in tables.items():
            assert isinstance(array, np.ndarray) and array.dtype != object, key
        assert tables["natural_payout"].shape == (len(NATURAL_NAMES),)
        assert tables["royalty_row_value"].shape == (len(ROYALTY_ROWS),)


# -- Hypothesis: random valid overrides round-trip --------------------------------------------

def _text(value: object) -> str:
    from cpstats.rules.text import to_text

    return to_text(value)


SMALL = st.integers(0, 20)
OPTIONAL = {
    "scoring": st.sampled_from([s.value for s in Scoring]),
    "ranking": st.sampled_from([h.value for h in HandOrdering]),
    "home_run": st.booleans(),
    "royalties": st.sampled_from([s.value for s in RoyaltySchedule]),
    "royalties.unit": st.integers(1, 5) | st.sampled_from([0.5, 2.5]),
    "royalties.payment": st.sampled_from(["extra", "instead"]),
    "royalty_mode": st.sampled_from([m.value for m in RoyaltyMode]),
    "naturals": st.sampled_from([s.value for s in NaturalSchedule]),
    "naturals.settlement": st.sampled_from(["NAT-1", "NAT-2"]),
    "naturals.declare_optional": st.booleans(),
    "naturals.qka_front_straight": st.booleans(),
    "naturals.straight_flush_counts": st.booleans(),
    "surrender": st.sampled_from(["none", "standard"]) | st.integers(1, 5) | st.just(2.5),
    "misset": st.just("scoop") | st.integers(1, 6),
    "chips_limit": st.booleans(),
    "aces": st.booleans(),
    "aces.payouts": st.lists(SMALL, min_size=4, max_size=4).map(sorted),
    **{f"royalties.{row}": SMALL | st.just(1.5) for row in ROYALTY_ROWS},
    **{f"naturals.{name}": st.integers(0, 60) | st.just("scoop") for name in NATURAL_NAMES},
    **{f"scoring.{n}": st.integers(1, 5) | st.just(0.5) for n in ("row", "front", "middle", "back")},
    **{f"scoring.{n}": st.integers(0, 5) | st.just(2.5)
       for n in ("majority", "scoop_bonus", "home_run_bonus", "race_target")},
    **{f"scoring.{n}": st.integers(1, 5) | st.just(1.5)
       for n in ("scoop_multiplier", "home_run_multiplier")},
    "scoring.home_run_players": st.sampled_from([3, 4]),
    "scoring.totals_first": st.booleans(),
}
RAKES = st.one_of(
    st.just({"rake": "none"}),
    st.builds(lambda m, a: {"rake": m, "rake.amount": a},
              st.sampled_from(["fixed-table", "fixed-player"]), st.integers(0, 3) | st.just(0.25)),
    st.builds(lambda p, c, t: {"rake": "percent", "rake.percent": p, "rake.cap": c,
                               "rake.threshold": t},
              st.sampled_from([0.05, 0.1]), st.none() | st.integers(1, 5), st.integers(0, 4)),
    st.builds(lambda a, h: {"rake": "time", "rake.amount": a, "rake.hands_per_hour": h},
              st.integers(1, 10), st.integers(10, 40)),
)
BANKS = st.one_of(
    st.just({"bank": "none"}),
    st.builds(lambda t, c, f: {"bank": "S-BANK", "bank.wins_ties": t, "bank.commission": c,
                               "bank.fee": f},
              st.booleans(), st.sampled_from([0, 0.05]), st.just(0)),
)


@st.composite
def overridden_variants(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    preset = draw(st.sampled_from(preset_names()))
    overrides: dict[str, object] = {}
    players = get_preset(preset).players
    if get_preset(preset).deal is Deal.STANDARD:
        players = draw(st.sampled_from([2, 3, 4]))
        overrides["players"] = players
    for key in draw(st.lists(st.sampled_from(sorted(OPTIONAL)), unique=True, max_size=8)):
        overrides[key] = draw(OPTIONAL[key])
    if draw(st.booleans()):
        overrides.update(draw(RAKES))
    if draw(st.booleans()):
        overrides.update(draw(BANKS))
    if draw(st.booleans()):
        values = draw(st.lists(st.integers(0, 100), min_size=players * players,
                               max_size=players * players))
        matrix = np.array(values).reshape(players, players)
        overrides["stakes"] = (matrix + matrix.T).tolist()
    return preset, overrides


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(overridden_variants())
def test_random_valid_overrides_round_trip(case: tuple[str, dict[str, object]]) -> None:
    preset, overrides = case
    text = f"{preset}({','.join(f'{k}={_text(v)}' for k, v in overrides.items())})"
    try:
        v = load_variant(text)
    except OptionError:
        reject()  # a random contradiction (e.g. a home run with 2 players)
    assert get_preset(preset).replace(**overrides) == v
    assert load_variant(str(v)) == v
    assert Variant.from_json(v.to_json()) == v
    assert Variant.from_dict(v.to_dict()) == v
    assert hash(load_variant(str(v))) == hash(v)


# -- every error: message names the field, the value and what is allowed ----------------------

def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        get_preset("nope")
    assert issubclass(OptionError, CpstatsError)


def test_unknown_preset_suggests_close_matches() -> None:
    with option_error("unknown preset '2-5' (did you mean '2-4'"):
        get_preset("2-5")
    with option_error("did you mean 'taiwanese'"):
        load_variant("taiwanes(players=3)")


def test_unknown_key_suggests_close_matches() -> None:
    with option_error("royalty='R-TW' is invalid: unknown option (did you mean 'royalties'"):
        load_variant("2-4(royalty=R-TW)")


def test_unknown_id_suggests_close_matches() -> None:
    with option_error("royalties='R-FUTURBET' is invalid: expected one of R-NONE"):
        load_variant("2-4(royalties=R-FUTURBET)")
    with option_error("did you mean 'SC-2-4'"):
        load_variant("basic(scoring=SC-2-5)")
    with option_error("royalties.mode='RM-WINER' is invalid"):
        Royalties(mode="RM-WINER")


def test_royalty_amount_must_be_non_negative() -> None:
    with option_error("royalties.middle_quads=-1 is invalid: units must be >= 0"):
        load_variant("2-4(royalties.middle_quads=-1)")


def test_instead_of_amount_below_one() -> None:
    with option_error("royalties.front_trips=0.5 is invalid: an 'instead of 1' amount"):
        Royalties(schedule="R-PAGAT-TYPICAL", front_trips=0.5)


def test_numbers_must_be_numbers() -> None:
    with option_error("royalties.back_quads='3' is invalid: expected a number"):
        Royalties(back_quads="3")  # type: ignore[arg-type]
    with option_error("royalties.back_quads=inf is invalid: expected a finite number"):
        Royalties(back_quads=float("inf"))
    with option_error("players='x' is invalid: expected a number"):
        load_variant("2-4(players=x)")


def test_players_must_be_2_to_4() -> None:
    with option_error("players=5 is invalid: 2, 3 or 4 players"):
        Variant(players=5)
    with option_error("players=2.5 is invalid: expected a whole number"):
        Variant(players=2.5)


def test_flags_must_be_booleans() -> None:
    with option_error("chips_limit='yes' is invalid: expected True or False"):
        Variant(chips_limit="yes")  # type: ignore[arg-type]
    with option_error("chips_limit='maybe' is invalid: expected true or false"):
        load_variant("2-4(chips_limit=maybe)")


def test_home_run_with_two_players_is_a_contradiction() -> None:
    for text in ("taiwanese(players=2)", "pagat-casino(players=2)", "mandarin(players=3)"):
        with pytest.raises(OptionError, match=r"players=\d is invalid: the home run of scoring="):
            load_variant(text)


def test_sc_1_6_hr_without_home_run() -> None:
    with option_error("home_run=False is invalid: SC-1-6-HR is the 1-6 game"):
        load_variant("pagat-casino(home_run=false)")


def test_race_target_is_a_scoring_number() -> None:
    """The race target is one of the scoring's numbers (0: no race), written
    ``scoring.race_target`` or, as before, ``race_target``."""
    v = load_variant("race-to-11(race_target=15)")
    assert v == load_variant("race-to-11(scoring.race_target=15)")
    assert str(v) == "race-to-11(scoring.race_target=15)" and v.scoring.race_target == 15
    assert load_variant("2-4(race_target=15)").scoring_params().race_target == 15
    with option_error("race_target=-1 is invalid: points must be >= 0"):  # as written
        load_variant("race-to-11(race_target=-1)")
    with option_error("scoring.race_target=7.5 is invalid: expected a whole number"):
        load_variant("race-to-11(scoring.race_target=7.5)")


def test_surrender_without_a_standard_amount() -> None:
    with option_error("surrender='standard' is invalid: scoring=SC-TW has no standard"):
        load_variant("taiwanese(surrender=standard)")


def test_surrender_amount_errors() -> None:
    with option_error("surrender.amount=2 is invalid: surrender is not enabled"):
        Surrender(amount=2)
    with option_error("surrender.amount=0 is invalid: units must be > 0"):
        Surrender(enabled=True, amount=0)
    with option_error("surrender='lots' is invalid: expected none, standard or units"):
        load_variant("2-4(surrender=lots)")


@pytest.mark.parametrize("preset", ["2-4", "1-6", "basic", "taiwanese"])
@pytest.mark.parametrize("amount", [1, 2, 3, 4, 2.5, 0.5, 1.0])
def test_surrender_amount_round_trips(preset: str, amount: float) -> None:
    """Every amount prints as itself and reads back as itself (1 is not "standard"),
    whether given as a component, a number or its text, so a simulation rebuilt from the
    variant string settles at that amount."""
    base = get_preset(preset)
    given_ways = (base.replace(surrender={"enabled": True, "amount": amount}),
                  base.replace(surrender=amount), load_variant(f"{preset}(surrender={amount})"))
    for v in given_ways:
        assert v.surrender == Surrender(enabled=True, amount=amount)
        again = load_variant(str(v))
        assert again == v and again.surrender_amount() == amount
        assert again.kernel_tables()["surrender"] == amount


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 1000) | st.floats(0.001, 1e6, allow_nan=False, allow_infinity=False))
def test_any_surrender_amount_round_trips(amount: float) -> None:
    """Any positive amount survives the string round trip exactly."""
    v = get_preset("2-4").replace(surrender={"enabled": True, "amount": amount})
    assert load_variant(str(v)) == v
    assert load_variant(str(v)).surrender_amount() == amount


def test_surrender_words_and_zero() -> None:
    """Words still mean standard / none; 0 is a number, refused with the way out."""
    assert load_variant("2-4(surrender=true)").surrender == Surrender(enabled=True)
    assert load_variant("2-4(surrender=yes)").surrender_amount() == 2
    assert load_variant("2-4(surrender=standard)").surrender_amount() == 2
    assert load_variant("futurebet-2-4(surrender=false)").surrender_amount() is None
    assert get_preset("futurebet-2-4").replace(surrender=False).surrender_amount() is None
    assert get_preset("2-4").replace(surrender=True).surrender_amount() == 2
    with option_error("surrender=0 is invalid: units must be > 0; surrender=none turns it off"):
        load_variant("2-4(surrender=0)")


def test_misset_points_must_be_positive() -> None:
    with option_error("misset=-4 is invalid: units must be > 0"):
        load_variant("2-4(misset=-4)")


def test_stakes_matrix_errors() -> None:
    with option_error("stakes='0:1:1/1:0:1/1:1:0' is invalid: the stakes matrix must be 4x4"):
        load_variant("2-4(stakes=0:1:1/1:0:1/1:1:0)")
    with option_error("stakes='2x3/2' is invalid: the stakes matrix must be square"):
        Stakes([[0, 1, 2], [1, 0]])
    with option_error("stakes[0][1]=2 is invalid: the matrix must be symmetric"):
        Stakes([[0, 2], [1, 0]])
    with option_error("stakes=5 is invalid: expected a square matrix"):
        Variant(stakes=5)  # type: ignore[arg-type]
    with option_error("stakes[0][0]=-1 is invalid: units must be >= 0"):
        Stakes([[-1]])


def test_criss_cross_needs_two_players() -> None:
    with option_error("players=3 is invalid: criss-cross (deal=D3) is heads-up"):
        load_variant("criss-cross(players=3)")


def test_aces_errors() -> None:
    with option_error("aces.payouts=(1, 2, 6) is invalid: expected 4 values"):
        AcesBet(payouts=(1, 2, 6))  # type: ignore[arg-type]
    with option_error("aces.payouts=(1, 2, 8, 6) is invalid: more aces must never"):
        AcesBet(payouts=(1, 2, 8, 6))


def test_bank_errors() -> None:
    with option_error("bank.commission=1 is invalid: a fraction of the win"):
        Bank(mode="S-BANK", commission=1)
    with option_error("bank.fee=1 is invalid: a banked game takes a commission or a fee"):
        Bank(mode="S-BANK", commission=0.05, fee=1)
    with option_error("bank.commission=0.05 is invalid: only a banked game"):
        load_variant("2-4(bank.commission=0.05)")
    with option_error("bank.mode='house' is invalid: expected one of none, S-BANK"):
        Bank(mode="house")


def test_rake_errors() -> None:
    with option_error("rake.percent=5 is invalid: a fraction of the pot"):
        Rake(model="percent", percent=5)
    with option_error("rake.amount=1 is invalid: the percent rake model does not use it "
                      "(set rake=fixed-table or rake=fixed-player or rake=time)"):
        load_variant("2-4(rake=percent,rake.amount=1)")
    with option_error("rake.cap=3 is invalid: the fixed-table rake model"):
        Rake(model=RakeModel.FIXED_TABLE, amount=1, cap=3)
    with option_error("rake.hands_per_hour=0 is invalid: hands per hour must be > 0"):
        Rake(model="time", amount=5, hands_per_hour=0)
    with option_error("rake.jackpot_trigger=3 is invalid: expected a description"):
        Rake(jackpot_trigger=3)  # type: ignore[arg-type]
    with option_error("rake.amount=-1 is invalid: units must be >= 0"):
        Rake(model="fixed-table", amount=-1)


def test_natural_errors() -> None:
    with option_error("naturals.payouts='dragons' is invalid: unknown natural (did you mean"):
        Naturals(payouts=[("dragons", 13)])
    with option_error("naturals.payouts='dragon' is invalid: a natural is listed twice"):
        Naturals(payouts=[("dragon", 13), ("dragon", 26)])
    with option_error("naturals.dragon=0 is invalid: units must be > 0"):
        Naturals(payouts=[("dragon", 0)])
    with option_error("naturals.payouts=('dragon',) is invalid: expected (name, units) pairs"):
        Naturals(payouts=[("dragon",)])
    with option_error("naturals.payouts=13 is invalid: expected (name, units) pairs, low to high"):
        Naturals(payouts=13)  # type: ignore[arg-type]
    with option_error("naturals.payouts='dragon' is invalid: expected name:units items"):
        load_variant("2-4(naturals.payouts=dragon)")
    with option_error("naturals.settlement='NAT-3' is invalid: expected one of NAT-1, NAT-2"):
        load_variant("2-4(naturals.settlement=NAT-3)")


def test_component_errors() -> None:
    with option_error("royalties.amount=3 is invalid: unknown option"):
        Variant(royalties={"amount": 3})
    with option_error("misset=4 is invalid: expected a Misset"):
        Variant(misset=4)  # type: ignore[arg-type]


def test_name_errors() -> None:
    with option_error("name='a(b)' is invalid: a non-empty label"):
        Variant(name="a(b)")


def test_from_dict_rejects_unknown_keys() -> None:
    with option_error("player=3 is invalid: unknown option (did you mean 'players'"):
        Variant.from_dict({"player": 3})


def test_malformed_strings() -> None:
    with option_error("malformed variant string '2-4(players=3'"):
        load_variant("2-4(players=3")
    with option_error("malformed override 'players' in '2-4(players)'"):
        load_variant("2-4(players)")
    with option_error("a variant string is expected, got 3"):
        load_variant(3)  # type: ignore[arg-type]
    with option_error("players='2' is invalid: players is given twice"):
        load_variant("2-4(players=3,players=2)")


# -- layout of the rules subpackage (issue 14) ------------------------------------------------

#: The rules modules, lowest first: each may import only those before it.
RULES_ORDER = ("check", "files", "ids", "schedules", "components", "house", "presets", "text", "games",
               "variant", "open_face", "describe", "variant_words", "open_face_words")


def _rules_imports(path) -> set[str]:
    """The ``cpstats.rules`` modules a file imports, at module level or inside a function."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found |= {n.split(".")[2] for n in names if n.startswith("cpstats.rules.")}
    return found


def test_rules_modules_import_one_way() -> None:
    """Inside cpstats.rules every import points down RULES_ORDER (no presets -> variant
    -> text -> presets circle, function-level imports included), and every module fits 600 lines."""
    from pathlib import Path

    import cpstats.rules

    folder = Path(cpstats.rules.__file__).parent
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert modules == sorted(RULES_ORDER)
    for position, stem in enumerate(RULES_ORDER):
        path = folder / f"{stem}.py"
        upward = _rules_imports(path) - set(RULES_ORDER[:position])
        assert not upward, f"cpstats.rules.{stem} imports {sorted(upward)}"
        assert len(path.read_text().splitlines()) <= 600, stem


def test_presets_are_data_that_get_preset_builds() -> None:
    """The preset definitions are plain data (components and values, no Variant), and
    get_preset and presets() build and list exactly them."""
    from cpstats.rules.presets import PRESETS

    assert preset_names() == tuple(PRESETS)
    table = presets().set_index("name")
    for name, preset in PRESETS.items():
        assert not any(isinstance(v, Variant) for v in preset.options.values())
        assert get_preset(name) == Variant(name=name, **preset.options)
        assert table.loc[name, "description"] == preset.description
        assert table.loc[name, "seed"] == preset.seed
        assert load_variant(table.loc[name, "variant"]) == get_preset(name)


# -- a refusal names the override as it was written -----------------------------------------

@pytest.mark.parametrize("text, message", [
    # a number converted before the rules check it (1e999 reads as inf, -0.5e1 as -5.0)
    ("ofc-pineapple(royalties.front.QQ=1e999)", "royalties.front.QQ=1e999 is invalid: expected a finite number"),
    ("ofc-pineapple(royalties.front.QQ=-0.5e1)", "royalties.front.QQ=-0.5e1 is invalid: units must be >= 0"),
    ("ofc-pineapple(royalties.back.quads=1e999)", "royalties.back.quads=1e999 is invalid: expected a finite number"),
    ("ofc-pineapple(players=1e999)", "players=1e999 is invalid: expected a finite number"),
    ("ofc-pineapple(rake.cap=-1e0)", "rake.cap=-1e0 is invalid: units must be >= 0"),
    ("ofc-pineapple(fantasyland.cards=1e999)", "fantasyland.cards='1e999' is invalid: expected 4 amounts"),
    ("ofc-pineapple(fantasyland.cards=14/15/16/1e999)",
     "fantasyland.cards=14/15/16/1e999 is invalid: expected a finite number (at fantasyland.cards.trips)"),
    ("ofc-pineapple(fantasyland.stay_rule=C)", "fantasyland.stay_rule='C' is invalid: expected one of A, B, none"),
    ("ofc-pineapple(rake=bogus)", "rake='bogus' is invalid: expected one of none"),
    ("2-4(royalties.front_trips=1e999)", "royalties.front_trips=1e999 is invalid: expected a finite number"),
    ("2-4(royalties.middle_quads=+1e999)", "royalties.middle_quads=+1e999 is invalid: expected a finite number"),
    ("2-4(scoring.scoop_bonus=1E400)", "scoring.scoop_bonus=1E400 is invalid: expected a finite number"),
    ("banked(bank.commission=2.0e0)", "bank.commission=2.0e0 is invalid: a fraction of the win, below 1"),
    ("2-4(naturals.dragon=-1e0)", "naturals.dragon=-1e0 is invalid: units must be > 0"),
    # a key that sets options under other names
    ("2-4(scoring.row=1e999)", "scoring.row=1e999 is invalid: expected a finite number"),
    ("2-4(royalties.unit=-2)", "royalties.unit=-2 is invalid: units must be >= 0"),
    ("2-4(surrender=1e999)", "surrender=1e999 is invalid: expected a finite number"),
    ("2-4(surrender=-0.5e1)", "surrender=-0.5e1 is invalid: units must be > 0"),
    ("2-4(misset=1e999)", "misset=1e999 is invalid: expected a finite number"),
    ("2-4(race_target=1e999)", "race_target=1e999 is invalid: expected a finite number"),
    ("2-4(naturals.payouts=dragon:1e999)",
     "naturals.payouts=dragon:1e999 is invalid: expected a finite number (at naturals.dragon)"),
    ("2-4(stakes=1:1e999/1:1)", "stakes=1:1e999/1:1 is invalid: expected a finite number (at stakes[0][1])"),
    ("2-4(aces=true,aces.payouts=1/2/3/1e999)",
     "aces.payouts=1/2/3/1e999 is invalid: expected a finite number (at aces.payouts[3])"),
    # as written already: kept (the item refused in a list is named at its place)
    ("2-4(royalties.front_trips=-1)", "royalties.front_trips=-1 is invalid: units must be >= 0"),
    ("2-4(stakes=0:1:1:1/1:0:1:1/1:1:0:1/1:1:1:-1)", "stakes[3][3]=-1 is invalid: units must be >= 0"),
])
def test_a_refusal_names_the_override_as_written(text, message):
    """load_variant("ofc-pineapple(royalties.front.QQ=1e999)") said "royalties.front.QQ=inf is
    invalid": the rules check a value after its text is converted, and named the converted value
    (or the option a key sets, scoring.front for scoring.row). Both games' parsers name the text
    the user wrote."""
    with pytest.raises(OptionError, match=f"^{re.escape(message)}"):
        load_variant(text)


def test_replace_names_the_value_given():
    with pytest.raises(OptionError, match=r"^scoring\.row=-2\.0 is invalid: points must be > 0$"):
        load_variant("2-4").replace(scoring__row=-2.0)
    with pytest.raises(OptionError, match=r"^royalties\.middle_quads=-1 is invalid: units must be >= 0$"):
        load_variant("2-4").replace(royalties__middle_quads=-1)


def test_an_invalid_option_pickles_with_its_parts():
    import pickle

    from cpstats.rules.check import invalid

    err = pickle.loads(pickle.dumps(invalid("players", 9, "2, 3 or 4 players")))
    assert (str(err), err.path, err.value) == ("players=9 is invalid: 2, 3 or 4 players", "players", 9)
    assert isinstance(err, OptionError)
