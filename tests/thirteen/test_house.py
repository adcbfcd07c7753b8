"""House money (cpstats.thirteen.house): time charges per seat-hour, the jackpot drop apart from the rake,
the banked house edge against a known answer; and defined once: the result, the PAR sheet and the
House edge and rake tab give one break-even edge for one run."""

from __future__ import annotations

import pytest

from cpstats import OptionError, simulate
from cpstats.thirteen.par.figures import economics
from cpstats.thirteen.dashboard import rake_figures

RAKED = "2-4(rake=fixed-table,rake.amount=0.5,rake.jackpot_drop=0.2)"
KW = dict(setter="greedy", block_deals=500)


def _par_break_even(result) -> float:
    table = economics(result, 30.0).set_index("name")
    return float(table.loc["break_even_edge", "estimate"])


def test_a_raked_game_has_one_break_even_edge_without_the_jackpot_drop():
    result = simulate(RAKED, 2_000, setter="greedy", rng=1)
    house = result.house(30).iloc[0]
    assert house["break_even_edge"] == pytest.approx(0.5 / 4)  # the table's 0.5 over 4 seats
    assert house["break_even_edge_ci_low"] == house["break_even_edge_ci_high"] == pytest.approx(0.125)
    assert _par_break_even(result) == pytest.approx(house["break_even_edge"])
    tab = rake_figures(result, result.variant.rake, hands_per_hour=30)
    assert tab["break_even_edge"] == pytest.approx(house["break_even_edge"])
    assert house["jackpot_drop_per_hand"] == pytest.approx(0.2)


@pytest.mark.parametrize("variant", ["banked", "banked(bank.commission=0.0335)"])
def test_a_banked_players_break_even_edge_is_its_expected_loss(variant):
    """In a banked game the break-even edge is what a player loses to the house a hand: 3 x the
    house edge (tie advantage and commission included), never 0."""
    result = simulate(variant, 2_000, setter="greedy", rng=1)
    house = result.house().iloc[0]
    assert house["house_edge"] > 0
    assert house["break_even_edge"] == pytest.approx(3 * house["house_edge"])
    assert house["break_even_edge_ci_low"] == pytest.approx(3 * house["house_edge_ci_low"])
    assert _par_break_even(result) == pytest.approx(house["break_even_edge"])
    tab = rake_figures(result, result.variant.rake, hands_per_hour=30)
    assert tab["break_even_edge"] == pytest.approx(house["break_even_edge"], rel=1e-6)


# -- house figures of a run -------------------------------------------------------------------------

def test_time_rake_per_hour_is_the_fee_per_seat_whatever_the_pace():
    """A time charge of 6 a seat-hour at 4 seats is 24 an hour at any pace; the
    per-hand figure is 24 / hands per hour."""
    result = simulate("2-4(rake=time,rake.amount=6)", 1_000, rng=1, **KW)
    for pace in (20, 30, 60):
        house = result.house(pace).iloc[0]
        assert house["rake_per_hour"] == pytest.approx(24.0)
        assert house["rake_per_seat_per_hour"] == pytest.approx(6.0)
        assert house["rake_per_hand"] == pytest.approx(24.0 / pace)


def test_jackpot_drop_is_reported_apart_from_the_rake():
    """The drop shows in house() and tables(), and the rake is the settled rake."""
    result = simulate("2-4(rake=percent,rake.percent=0.05,rake.cap=1,rake.jackpot_drop=0.1)",
                      1_000, rng=2, **KW)
    house = result.tables()["house"].iloc[0]
    assert house["jackpot_drop_per_hand"] == 0.1
    assert house["jackpot_drop_per_hour"] == pytest.approx(0.1 * 30)
    assert house["rake_per_hand"] == pytest.approx(float(result.summary.rake_sum) / result.deals)
    assert house["break_even_edge"] == pytest.approx(house["rake_per_hand"] / 4)


@pytest.mark.parametrize("variant, tighter", [("banked(bank.setter=ev)", 4), ("banked", 2)])
def test_banked_house_edge_equals_element_of_risk_on_the_three_unit_wager(variant, tighter):
    """One unit on each row before the deal, nothing added: both figures are -mu/3; the control
    variate (the bank's gain from ties; with the house way, its result less the game it would
    have played setting as the players) agrees with the raw mean and is far tighter (measured:
    about 30x less variance with every seat alike, 5x with the house way's bank)."""
    result = simulate(variant, 4_000, rng=3, **KW)
    house = result.house().iloc[0]
    assert house["initial_wager_units"] == 3
    assert house["house_edge"] == house["element_of_risk"]
    assert "control variate" in house["house_edge_method"]
    m = result.moments()
    raw_edge = float(m.loc[0, "mean"]) / 3 / 3  # the bank's mean, shared by 3 players, per 3 units
    raw_se = float(m.loc[0, "se"]) / 9
    assert abs(house["house_edge"] - raw_edge) < 4 * raw_se  # the same quantity, within the raw noise
    assert house["house_edge_se"] < raw_se / tighter
    assert house["house_edge_ci_low"] < house["house_edge"] < house["house_edge_ci_high"]
    if result.metadata.get("bank") is None:
        assert house["house_edge"] > 0  # every seat alike: the bank wins ties


def test_banked_game_with_ties_pushed_and_no_commission_has_no_edge():
    """A known answer: with ties pushed, nothing charged and the bank setting as the players, the
    game is symmetric."""
    house = simulate("banked(bank.wins_ties=false,bank.setter=ev)", 2_000, rng=4, **KW).house().iloc[0]
    assert house["house_edge"] == 0 and house["house_edge_ci_high"] == 0


@pytest.mark.parametrize("pace", [-1, 0, float("nan"), float("inf")])
def test_house_refuses_a_pace_that_is_not_positive(pace):
    """Negative or NaN hands per hour were printed into the report."""
    result = simulate("2-4", 100, rng=1, **KW)
    with pytest.raises(OptionError, match="hands_per_hour=.* is invalid"):
        result.house(pace)
