"""The ``ev`` row model reads the scoring's numbers, rows paying their own points.

The tables are the shipped ``2-4`` ones, given explicitly, so these tests measure the row model
alone (no training, no borrowed-tables warning).
"""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.cards import deal
from cpstats.hands import tables as _tables
from cpstats.hands.ranking import rank3, rank5
from cpstats.rules import get_preset, load_variant
from cpstats.strategies import ev_setter
from cpstats.strategies.row_tables import load_tables, rank_classes


@pytest.fixture(scope="module")
def tables():
    return load_tables("2-4")


@pytest.mark.parametrize("name", ["2-4", "banked", "futurebet-2-4"])
def test_rows_paying_1_keep_the_preset_model(tables, name):
    """With every row paying 1 the row arrays are those of before, bit for bit
    (``banked`` pays its royalties win or lose, RM-ALWAYS), so presets are set as before."""
    v = get_preset(name)
    by_cat = v.kernel_tables()["royalty_by_category"]
    always = v.royalties.mode.value == "RM-ALWAYS"
    cat5 = _tables.five_card_tables("H1").category.astype(np.int64)
    classes5 = rank_classes("H1")[1]
    before = ev_setter._row_arrays(tables.back, by_cat[2][cat5], always, classes5)
    now = ev_setter._scored_row(tables.back, by_cat[2][cat5], 1, always, classes5)
    for a, b in zip(before, now):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("mode, collect, win_or_lose", [("RM-WINNER", 7.0, 0.0),
                                                         ("RM-ALWAYS", 5.0, 2.0)])
def test_a_row_collects_its_points_plus_its_royalty(tables, mode, collect, win_or_lose):
    """Front worth 5 under R-FUTUREBET (front trips 2 extra): front trips collect
    5 + 2 when they win; under RM-ALWAYS they collect 5 on a win and the 2 win or lose."""
    v = load_variant(f"2-4(scoring.front=5,royalties=R-FUTUREBET,royalty_mode={mode})")
    tf, _, _, cst = ev_setter._build_model(v, tables)[:4]
    trips = max(i for i, k in enumerate(_tables.three_card_keys()) if int(k[0]) == 3)
    pair = max(i for i, k in enumerate(_tables.three_card_keys()) if int(k[0]) == 1)
    assert (tf[trips, 2], cst[0, trips]) == (collect, win_or_lose)
    assert (tf[pair, 2], cst[0, pair]) == (5.0, 0.0)


def test_ev_puts_strength_where_the_points_are(tables):
    """On the same 2,000 hands, a row worth more gets stronger cards on average.
    With every row paying 1 (2-4) the mean ranks are about 304 (front, of 455), 4,522 (middle)
    and 6,331 (back, of 7,462); a front worth 5 lifts the front to about 372, a middle worth 3
    the middle to about 4,998, a back worth 5 the back to about 6,688 (measured). The margins
    asserted are a quarter of those shifts."""
    hands = deal(np.random.default_rng(1), 2_000, 1)[:, 0]

    def mean_ranks(text):
        s = ev_setter.ev_decisions(hands, load_variant(text), tables).settings
        return (rank3(s[:, :3], check=False).mean(), rank5(s[:, 3:8], check=False).mean(),
                rank5(s[:, 8:], check=False).mean())

    front, middle, back = mean_ranks("2-4")
    assert mean_ranks("2-4(scoring.front=5)")[0] > front + 17
    assert mean_ranks("2-4(scoring.middle=3)")[1] > middle + 119
    assert mean_ranks("2-4(scoring.back=5)")[2] > back + 89
