"""Rulebook schedules and their numbers as options (cpstats.thirteen.rules.schedules, components): royalties
(section 4), naturals (section 5) and scoring systems (section 3), each test covering one rulebook ID
named after it (``test_r_futurebet_schedule``). The schedule numbers below are a second transcription
of RULEBOOK.md, independent of cpstats.thirteen.rules.schedules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from cpstats.errors import OptionError
from cpstats.thirteen.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES
from cpstats.engine.registry import get_preset
from cpstats.thirteen.rules.presets import preset_names
from cpstats.thirteen.rules.ids import (CATEGORIES, NATURAL_NAMES, ROYALTY_ROWS, SCOOP, NaturalSchedule, NaturalSettlement, RoyaltyMode, RoyaltyPayment, RoyaltySchedule, Scoring)
from cpstats.thirteen.rules.components import Naturals, Royalties, ScoringParams, ScoringRules
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.registry import load_variant
from cpstats.rules.codec import to_text
from helpers.checks import option_error


# -- section 4: royalty schedules -------------------------------------------------------------------

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


# -- section 5: natural schedules -------------------------------------------------------------------

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
        from cpstats.thirteen.naturals.detect import NATURALS
    except ImportError as exc:  # pragma: no cover - module under construction elsewhere
        pytest.skip(f"cpstats.thirteen.naturals.detect not importable: {exc}")
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


@pytest.mark.parametrize("system, scoop", [
    ("SC-1-1-1", 3), ("SC-2-4", 4), ("SC-2-4-total", 4), ("SC-1-4", 4), ("SC-1-6", 6),
    ("SC-1-6-HR", 6), ("SC-TW", 6), ("SC-MANDARIN", 6), ("SC-EASTERN", 3),
])
# -- section 3: scoring systems ---------------------------------------------------------------------

def test_scoop_values(system: str, scoop: int) -> None:
    from cpstats.thirteen.rules.components import SCORING_PARAMS

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


# -- every number of a scoring system is an option --------------------------------------------------

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
    text = f"2-4(scoring.{name}={to_text(value)})"
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
    from cpstats.thirteen.rules.components import SCORING_PARAMS

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
    ("2-4(scoring.scop_bonus=5)", "'scoring.scop_bonus' is an unknown key (did you "
     "mean 'scoring.scoop_bonus'?)"),
    ("2-4(scoring.midle=2)", "(did you mean 'scoring.middle'"),
])
def test_scoring_number_refusals(text: str, message: str) -> None:
    """The rulebook's limits (section 3), one line naming the number and the limit;
    unknown keys get "did you mean"."""
    with option_error(message):
        load_variant(text)


def test_scoring_component_refusals() -> None:
    """The same limits from the API: mappings, ``replace`` and the component."""
    with option_error("'scoring.scop_bonus' is an unknown key (did you mean 'scoring.scoop_bonus'?)"):
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
    with option_error("'royalties.back_quad' is an unknown key (did you mean "
                      "'royalties.back_quads'?)"):
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
    with option_error("'naturals.dragn' is an unknown key (did you mean "
                      "'naturals.dragon'?)"):
        load_variant("2-4(naturals.dragn=20)")
