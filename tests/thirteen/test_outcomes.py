"""Issue 16.1/16.2: outcome tables per pair of players and per seat (PAR sheet, section 3)."""

import copy

import numpy as np
import pytest

from cpstats import OptionError
from cpstats.thirteen.settlement import settle
from cpstats.engine import load_reference
from cpstats.workbench import simulate
from cpstats.thirteen.outcomes import PAIR_OUTCOMES, SEAT_OUTCOMES, pair_codes, pair_pays
from cpstats.thirteen.summary import SUMMARY_FORMAT, settle_block

KW = dict(setter="greedy", block_deals=1_000)


@pytest.fixture(scope="module")
def four():
    return simulate("2-4", 3_000, rng=3, keep_hands=True, **KW)


@pytest.fixture(scope="module")
def banked():
    return simulate("banked", 3_000, rng=3, **KW)


def _sides(table):
    return table.groupby(["hand", "against_hand"])


def test_pair_outcomes_partition_the_deals_and_add_to_the_pair_mean_and_variance(four):
    """One side's outcomes sum to probability 1; contributions to the mean and
    variance add to the pair's mean and population variance; in a symmetric game summed over a
    seat's opponents the pair means give the seat's mean (the pays are split exactly)."""
    table = four.outcomes()
    assert np.allclose(_sides(table)["probability"].sum(), 1.0, atol=1e-12)
    assert (_sides(table)["count"].sum() == four.deals).all()
    by_seat = table.groupby("seat")["contribution_to_mean"].sum()
    assert np.allclose(by_seat.to_numpy(), four.moments()["mean"].to_numpy(), atol=1e-9)
    pays = np.concatenate([pair_pays(four.variant, k["settings"], k["surrender"], np.zeros_like(k["held"]),
                                     k["net"]) for k in four.kept])
    for p, (a, b) in enumerate(four.variant.pair_order()):
        pair = table[(table["hand"] == a) & (table["against_hand"] == b)]
        assert pair["contribution_to_mean"].sum() == pytest.approx(pays[:, p].mean(), abs=1e-12)
        assert pair["contribution_to_variance"].sum() == pytest.approx(pays[:, p].var(), rel=1e-9)
    assert set(pair["outcome"]) == {k for k, _ in PAIR_OUTCOMES if k[0].isdigit() or k.startswith("foul")}


def test_pair_pays_and_codes_agree_with_the_one_deal_settlement(four):
    """The pay of each pair (isolated by zero stakes elsewhere) and its outcome are
    those :func:`settle` reports pair by pair, on real deals of a four-player game."""
    k = four.kept[0]
    v = four.variant
    net, _, declared, _ = settle_block(v, k["settings"], k["settings"], k["declare"], k["surrender"])
    pays = pair_pays(v, k["settings"], k["surrender"], declared, net)
    codes = pair_codes(v, k["settings"], k["surrender"], declared)
    keys = [key for key, _ in PAIR_OUTCOMES]
    checked = 0
    for d in range(60):
        if declared[d].any():
            continue
        checked += 1
        pairs = settle(v, [k["settings"][d, i].tolist() for i in range(4)]).pairs
        assert np.allclose(pairs["total"].to_numpy(), pays[d])
        for p, row in pairs.iterrows():
            if row["kind"] == "rows":
                r = row[["front", "middle", "back"]].to_numpy()
                assert keys[codes[d, p]] == f"{(r > 0).sum()}-{(r < 0).sum()}-{(r == 0).sum()}"
            else:
                assert keys[codes[d, p]].startswith(row["kind"].replace("misset", "foul"))
    assert checked > 40


def test_the_two_sides_mirror_each_other(four):
    """Seat a's scoop won is seat b's scoop lost, with the pay negated."""
    table = four.outcomes().set_index(["hand", "against_hand", "outcome"])
    for a, b in ((0, 1), (2, 3)):
        assert table.loc[(a, b, "3-0-0"), "count"] == table.loc[(b, a, "0-3-0"), "count"]
        assert table.loc[(a, b, "2-0-1"), "mean_pay"] == -table.loc[(b, a, "0-2-1"), "mean_pay"]
        assert table.loc[(a, b, "foul"), "count"] == table.loc[(b, a, "foul against"), "count"]


def test_seat_outcomes_add_to_the_seat_mean_and_variance(four, banked):
    """Per seat (against all opponents) the outcomes partition the deals and their
    contributions add to the seat's mean and variance from moments(); the home-run row is the
    home-run rate of scoops()."""
    for r in (four, banked):
        table = r.outcomes(per="seat")
        m = r.moments()
        grouped = table.groupby("seat")
        assert np.allclose(grouped["probability"].sum(), 1.0, atol=1e-12)
        assert np.allclose(grouped["contribution_to_mean"].sum(), m["mean"], atol=1e-9)
        assert np.allclose(grouped["contribution_to_variance"].sum(), m["variance"], rtol=1e-9)
        home = table[table["outcome"] == "home run"]["probability"].to_numpy()
        assert np.allclose(home, r.scoops().attrs["home_run_rate"], atol=1e-12)
    assert "natural" in set(banked.outcomes(per="seat")["outcome"])
    assert "surrender" not in set(four.outcomes(per="seat")["outcome"])
    assert len(SEAT_OUTCOMES) == 8


def test_banked_pair_pay_is_the_players_result(banked):
    """In a banked game each pair is the bank against a player, the player's side
    pays add to the player's mean, and a 95% Wilson interval holds each probability."""
    table = banked.outcomes()
    players = table[table["against"] == 0].groupby("seat")["contribution_to_mean"].sum()
    assert np.allclose(players.to_numpy(), banked.moments()["mean"].to_numpy()[1:], atol=1e-9)
    assert (table["ci_low"] <= table["probability"]).all()
    assert (table["probability"] <= table["ci_high"]).all()
    wide = banked.outcomes(0.99)
    assert (wide["ci_high"] >= table["ci_high"]).all()


def test_rescore_recounts_the_pays_and_keeps_the_outcomes(four):
    """A rescore under royalties keeps each outcome's count (same settings) and
    gives pays whose contributions add to the rescored mean."""
    other = four.rescore("2-4(royalties=R-FUTUREBET)")
    before, after = four.outcomes(), other.outcomes()
    assert (before["count"].to_numpy() == after["count"].to_numpy()).all()
    assert not np.allclose(before["mean_pay"].fillna(0), after["mean_pay"].fillna(0))
    by_seat = after.groupby("seat")["contribution_to_mean"].sum()
    assert np.allclose(by_seat.to_numpy(), other.moments()["mean"].to_numpy(), atol=1e-9)
    assert other.summary.royalty_paid_by_batch.sum() > 0 == four.summary.royalty_paid_by_batch.sum()


def test_old_results_load_but_have_no_outcomes(tmp_path):
    """A result saved in summary format 2 (before outcome counts were recorded) loads
    and gives its other tables; outcomes() says in one line why it cannot."""
    ref = load_reference("2-4")
    assert ref.metadata["summary_format"] == SUMMARY_FORMAT == 4
    old = copy.copy(ref)
    # the arrays summary format 3 added
    outcome_keys = ("pair_outcomes", "pair_pay_s1", "pair_pay_s2", "seat_outcomes", "seat_pay_s1",
                    "seat_pay_s2", "seat_charge_s1", "batch_pair_outcomes", "batch_seat_outcomes",
                    "batch_scoops", "batch_pair_live", "batch_home_runs", "batch_fouls",
                    "batch_royalty", "batch_natural", "batch_gross")
    old.summary = type(ref.summary).from_arrays(
        {k: v for k, v in ref.summary.to_arrays().items() if k not in outcome_keys})
    old.metadata = {**ref.metadata, "summary_format": 2}
    assert len(old.moments()) == 4
    with pytest.raises(OptionError, match="summary format 3") as err:
        old.outcomes()
    assert "\n" not in str(err.value)


def test_bad_options_are_one_line_errors(four):
    """per= and confidence= outside their choices are refused by name."""
    with pytest.raises(OptionError, match="per='hand' is invalid"):
        four.outcomes(per="hand")
    with pytest.raises(OptionError, match="confidence=2"):
        four.outcomes(confidence=2)
