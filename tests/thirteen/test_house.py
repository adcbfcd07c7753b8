"""House money is defined once (cpstats.thirteen.house): the result, the PAR sheet and the
House edge and rake tab give one break-even edge for one run."""

from __future__ import annotations

import pytest

from cpstats import simulate
from cpstats.apps.par.figures import economics
from cpstats.apps.widgets.rake import rake_figures

RAKED = "2-4(rake=fixed-table,rake.amount=0.5,rake.jackpot_drop=0.2)"


def _par_break_even(result) -> float:
    table = economics(result, 30.0).set_index("item")
    return float(table.loc["Break-even skill edge per hand", "value"])


def test_a_raked_game_has_one_break_even_edge_without_the_jackpot_drop():
    result = simulate(RAKED, 2_000, setter="greedy", rng=1)
    house = result.house(30).iloc[0]
    assert house["break_even_edge"] == pytest.approx(0.5 / 4)  # the table's 0.5 over 4 seats
    assert house["break_even_edge_ci_low"] == house["break_even_edge_ci_high"] == pytest.approx(0.125)
    assert _par_break_even(result) == pytest.approx(house["break_even_edge"])
    tab = rake_figures(result, result.variant.rake, hands_per_hour=30)
    assert tab["break-even skill edge (units per hand)"] == pytest.approx(house["break_even_edge"])
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
    assert tab["break-even skill edge (units per hand)"] == pytest.approx(house["break_even_edge"], rel=1e-6)
