"""The 13-card variant (cpstats.thirteen.rules.variant, text): variant strings that round-trip (overrides by key
and by rulebook ID, loose values, Hypothesis-drawn overrides), and every refusal naming the field,
the value as written and what is allowed."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from cpstats.errors import CpstatsError, OptionError
from cpstats.engine.registry import get_preset
from cpstats.thirteen.rules.presets import preset_names
from cpstats.thirteen.rules.ids import (NATURAL_NAMES, ROYALTY_ROWS, Deal, HandOrdering, NaturalSchedule, RoyaltyMode, RoyaltySchedule, Scoring)
from cpstats.rules.house import AcesBet, Bank, Rake, RakeModel, Stakes, Surrender
from cpstats.thirteen.rules.components import Naturals, Royalties
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.registry import load_variant
from helpers.checks import option_error


# -- round trips ------------------------------------------------------------------------------

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
    from cpstats.rules.codec import to_text

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
    with option_error("'royalty' is an unknown key (did you mean 'royalties'"):
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
    with option_error("home_run=False is invalid: scoring=SC-1-6-HR is the 1-6 game with a home run; "
                      "use scoring=SC-1-6"):
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
    with option_error("'royalties.amount' is an unknown key (did you mean"):
        Variant(royalties={"amount": 3})
    with option_error("misset=4 is invalid: expected a Misset"):
        Variant(misset=4)  # type: ignore[arg-type]


def test_name_errors() -> None:
    with option_error("name='a(b)' is invalid: a non-empty label"):
        Variant(name="a(b)")


def test_from_dict_rejects_unknown_keys() -> None:
    with option_error("'player' is an unknown key (did you mean 'players'?)"):
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
