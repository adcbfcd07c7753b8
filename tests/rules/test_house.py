"""House components and the deal (cpstats.rules.house, rulebook section 6): surrender, mis-set, chips,
the aces side bet, the bank, rake models, criss-cross and hand orderings, by rulebook ID."""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.engine.registry import get_preset
from cpstats.thirteen.rules.ids import Deal, HandOrdering, NaturalSchedule, RoyaltyMode
from cpstats.rules.house import Misset, Rake, RakeModel
from cpstats.engine.registry import load_variant


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
