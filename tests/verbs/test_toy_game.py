"""Adding a game is a folder: the toy showdown (``tests/toy_showdown``, a package written as a new
game is, registering itself on import) plays through simulate, compare, sweep, figures() and solve
with no edit of shared code, and its numbers are its exact values within their intervals.

The toy: 2 to 8 seats take five cards each from one deck (:func:`cpstats.cards.deal_seats`) and
ante 1; the best hand takes the antes, and a hand of trips or better collects ``bonus`` from each
other seat. Its figures have exact values, so the verbs' numbers are checked against them within
5 standard errors. The game is registered only while this module's tests run (the registry is
global: ``helpers.toy``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

import cpstats
from cpstats.cards import SEATS_DEALER
from cpstats.engine.files import load_result, save_result
from cpstats.engine.registry import GAMES, game_of, load_variant
from cpstats.errors import OptionError
from helpers.toy import toy_registered

#: Five-card hands holding a pair or better, and trips or better, of all 2,598,960.
P_PAIR = 1_296_420 / 2_598_960
P_TRIPS = 74_628 / 2_598_960


def bonus_per_deal(bonus: float, players: int = 2) -> float:
    """Units paid as bonuses a deal: each of ``players`` hands is trips or better with P_TRIPS
    and then collects ``bonus`` from each of the ``players - 1`` others."""
    return bonus * players * (players - 1) * P_TRIPS


@pytest.fixture(scope="module", autouse=True)
def toy():
    with toy_registered() as package:
        yield package


def _se(row: pd.Series, batches: int) -> float:
    """A figure's standard error: its t half-width over the t quantile of ``batches - 1`` df."""
    from scipy import stats

    return (row["ci_high"] - row["ci_low"]) / 2 / stats.t.ppf(0.975, batches - 1)


def test_the_toy_loads_by_its_string_and_is_in_every_listing(toy):
    v = load_variant("showdown-4(bonus=2.0)")
    assert isinstance(v, toy.ShowdownVariant) and v.players == 4 and v.bonus == 2.0 and game_of(v) is toy.GAME
    assert load_variant(str(v)) == v and str(v) == "showdown-4(bonus=2.0)" and str(load_variant("showdown")) == "showdown"
    assert {"showdown", "showdown-4"} <= set(cpstats.presets()["name"]) and toy.GAME.name in GAMES
    assert cpstats.describe(v).splitlines()[1].startswith("seats:")
    assert cpstats.short_label("showdown(players=3,bonus=2)") == "showdown, 3 players, bonus 2"


@pytest.mark.parametrize("text, message", [
    ("showdown(players=9)", r"players=9 is invalid: 2 to 8 seats of five cards"),
    ("showdown(players=2.5)", r"players=2.5 is invalid: expected a whole number"),
    ("showdown(bonus=-1)", r"bonus=-1 is invalid: antes must be >= 0"),
    ("showdown(bonsu=1)", r"'bonsu' is an unknown key \(did you mean 'bonus'\?\)"),
    ("showdown(bonus)", r"'bonus' in 'showdown\(bonus\)' is invalid: write key=value"),
])
def test_the_toys_rules_refuse_what_they_cannot_play(text, message):
    with pytest.raises(OptionError, match=message):
        load_variant(text)


def test_a_deal_settles_to_zero_and_pays_its_bonuses(toy):
    """Seat 0 holds trips (rank 5000) against two high cards: it takes the 3 antes (net 2) and 2
    from each other seat; two equal best hands split the antes."""
    from toy_showdown.block import settle

    net, paid = settle(np.array([[5000, 10, 10], [40, 40, 1]]), 2.0)
    assert net.tolist() == [[6.0, -3.0, -3.0], [0.5, 0.5, -1.0]] and paid.tolist() == [4.0, 0.0]


def test_simulate_gives_the_toys_exact_figures_within_their_intervals():
    r = cpstats.simulate("showdown-4(bonus=2)", 6_000, rng=1)
    table = r.figures().set_index("metric")
    assert list(table.columns[:4]) == ["estimate", "ci_low", "ci_high", "method"]
    assert r.metadata["dealer"] == SEATS_DEALER and r.metadata["setter"] == {"name": "as-dealt"}
    for name, exact in [("pair_rate", P_PAIR), ("bonus_per_deal", bonus_per_deal(2.0, 4)), ("mean_seat0", 0.0),
                        ("mean_seat3", 0.0)]:
        row = table.loc[name]
        assert abs(row["estimate"] - exact) < 5 * _se(row, r.batches), name  # 5 SE: fails 1 in 1.7 million
    assert r.metadata["run_digest"] and r.deals == 6_000 and r.batches == 30


def test_the_toys_runs_are_the_same_serial_in_threads_and_resumed(tmp_path):
    serial = cpstats.simulate("showdown", 2_000, rng=2, block_deals=300)
    with ThreadPoolExecutor(2) as pool:
        threaded = cpstats.simulate("showdown", 2_000, rng=2, block_deals=300, executor=pool)
    pd.testing.assert_frame_equal(serial.figures(), threaded.figures())
    first = cpstats.simulate("showdown", 2_000, rng=2, block_deals=300, out=tmp_path)
    again = cpstats.simulate("showdown", 2_000, rng=2, block_deals=300, out=tmp_path, resume=True)
    assert again.metadata["blocks_redone"] == 0
    pd.testing.assert_frame_equal(first.figures(), again.figures())
    pd.testing.assert_frame_equal(first.figures(), serial.figures())
    saved = save_result(first, tmp_path / "saved")
    pd.testing.assert_frame_equal(load_result(saved).figures(), serial.figures())


def test_the_toy_keeps_every_seats_row_and_its_nets_add_to_zero():
    kept = cpstats.simulate("showdown(players=3)", 600, rng=2, keep_hands=True)
    rows = kept.rows()
    assert len(rows) == 3 * 600 and list(rows.columns) == ["deal", "seat", "hand", "rank", "net"]
    assert np.allclose(rows.groupby("deal")["net"].sum(), 0.0)
    assert all(len(set(" ".join(hands).split())) == 15 for _, hands in rows.groupby("deal")["hand"])  # one deck
    assert (kept.distribution()[["seat_0", "seat_1", "seat_2"]].sum() == 600).all()


def test_compare_pairs_the_toys_variants_on_common_deals():
    table = cpstats.compare(["showdown", "showdown(bonus=3)"], 3_000, rng=3).set_index(["run", "metric"])
    base, bonus = table.loc[(0, "bonus_per_deal")], table.loc[(1, "bonus_per_deal")]
    assert bonus["diff"] == pytest.approx(2 * base["estimate"])  # the same trips, paid 3 instead of 1
    assert bonus["diff_ci_low"] > 0
    same = table.loc[(1, "pair_rate")]
    assert same["diff"] == 0.0  # the same cards


def test_sweep_walks_the_toys_parameters_on_common_deals():
    table = cpstats.sweep("showdown", "bonus", [0, 1, 2], deals=2_000, rng=4, metrics=["bonus_per_deal"])
    assert table["value"].tolist() == [0, 1, 2] and table.attrs["unit"] == "deals"
    diffs = table["diff"].to_numpy()
    assert diffs[0] == 0 and np.all(np.diff(diffs) > 0)
    # on common deals the figure is exactly linear in the bonus: the trips are the same deals'
    assert diffs[2] == pytest.approx(2 * diffs[1])
    seats = cpstats.sweep("showdown", "players", [2, 3], deals=2_000, rng=4, metrics=["pair_rate"])
    assert seats.attrs["pairing"] == "common deals"  # the engine's sweep: the first seats' cards are shared
    with pytest.raises(OptionError, match="bonus=1.0 is given twice|the same rules"):
        cpstats.sweep("showdown", "bonus", [1, 1.0], deals=100, rng=4)


def test_solve_finds_the_bonus_for_a_target_figure():
    target = bonus_per_deal(2.5)
    s = cpstats.solve("showdown", "bonus", "bonus_per_deal", target, bounds=(0.0, 5.0), deals=4_000, rng=5)
    assert s.ci_low <= s.value <= s.ci_high
    width = s.ci_high - s.ci_low  # about 4 standard errors of the answer: the truth lies inside
    assert s.ci_low - width < 2.5 < s.ci_high + width  # the widened band (fails 1 in ~10^8)
    assert s.method.startswith(("linear on common deals", "Brent's method on common deals"))
    assert s.unit == "deals" and "common deals" in s.sentence()


def test_the_toy_has_no_skill_table_and_refuses_another_setter_in_one_line():
    with pytest.raises(OptionError, match="the toy-showdown game has no skill table"):
        cpstats.skill("showdown", deals=10)
    with pytest.raises(OptionError, match="setter='greedy' is invalid for the toy-showdown game: its one setter"):
        cpstats.simulate("showdown", 10, setter="greedy")
    with pytest.raises(OptionError, match="setter=.* is invalid for the toy-showdown game"):
        cpstats.simulate("showdown", 10, setter=cpstats.EvSetter())


def test_the_command_line_prints_the_toys_tidy_figures(capsys):
    """The apps know no game: a game that fills no views gets its tidy figures printed, its own
    default setter, and a one-line refusal of what it has not (a PAR sheet)."""
    from cpstats.apps.cli import main

    assert main(["simulate", "--preset", "showdown-4", "--deals", "300", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "bonus_per_deal" in out and "mean_seat3" in out and "as-dealt" in out
    assert main(["sweep", "showdown", "bonus", "0,1", "--deals", "300", "--quiet"]) == 0
    assert "common deals" in capsys.readouterr().out
    assert main(["par", "showdown", "--deals", "300"]) == 2
    assert "the toy-showdown game has no PAR sheet" in capsys.readouterr().err
