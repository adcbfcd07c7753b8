"""Open face's figures at parity with the 13-card game's: hit frequency and push rate per seat and
pooled, the SD of a seat before and after house charges and the mean after them, with paired
differences in compare and sweep; the figures before charges are exactly equal between variants
that differ only in their rake. Greedy and fast setters, a few hundred hands: each test a few
seconds."""

import numpy as np
import pytest

import cpstats
from cpstats.ofc.result import SimulationSummary

RAKED = "ofc-pineapple(rake=percent,rake.percent=0.05)"


@pytest.fixture(scope="module")
def run():
    return cpstats.simulate("ofc-pineapple", 300, setter="greedy", rng=1, block_deals=100)


def _figures(result):
    return result.figures().set_index("metric")


def test_hit_and_push_count_the_runs_own_nets(run):
    """Each seat's hit frequency and push rate are its hands with a net above 0 and of exactly 0
    in the run's net distribution, and the pooled ones those of every seat; each interval holds
    its estimate."""
    f, dist = _figures(run), run.distribution()
    seats = [c for c in dist.columns if c.startswith("seat")]
    for name, rows in (("hit_frequency", dist["net"] > 0), ("push_rate", dist["net"] == 0)):
        for p, seat in enumerate(seats):
            assert f.at[f"{name}_seat{p}", "estimate"] == dist.loc[rows, seat].sum() / run.deals
        assert f.at[name, "estimate"] == dist.loc[rows, seats].to_numpy().sum() / (run.deals * len(seats))
        for metric in [name, *(f"{name}_seat{p}" for p in range(len(seats)))]:
            assert f.at[metric, "ci_low"] <= f.at[metric, "estimate"] <= f.at[metric, "ci_high"]
            assert f.at[metric, "ci_high"] > f.at[metric, "ci_low"]


def test_pooled_sd_is_the_seats_mean_and_equals_it_after_no_charge(run):
    """The pooled SD is the mean of the seats' SDs; under rules that charge nothing the SD after
    charges is the SD and the mean after charges is 0 (the game is zero-sum)."""
    f = _figures(run)
    seats = [f.at[f"sd_seat{p}", "estimate"] for p in range(run.variant.players)]
    assert f.at["sd", "estimate"] == pytest.approx(np.mean(seats), rel=1e-12)
    assert f.at["sd", "ci_low"] < f.at["sd", "estimate"] < f.at["sd", "ci_high"]
    assert (f.loc["sd_after_charges", ["estimate", "ci_low", "ci_high"]] == f.loc["sd", ["estimate", "ci_low",
                                                                                          "ci_high"]]).all()
    assert f.at["mean_after_charges", "estimate"] == 0


def test_a_sweep_offers_the_sd_and_hit_frequency_with_paired_differences():
    """A royalty sweep's default figures include the SD and the hit frequency, each point's
    difference to the first with a paired interval around it (the first point's own 0 to 0). 800
    hands: the hit frequency moves only on the hands whose sign the rule flips, in 8 of 30 batches
    at 400 hands, too few for an interval (``too few events``), and 15 at 800 (QQ=9's entry value
    is solved on first use, once a session, as other sweeps of this key do)."""
    t = cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [7, 9], deals=800, setter="fast", rng=1)
    for metric in ("sd", "hit_frequency"):
        rows = t[t["metric"] == metric].set_index("value")
        assert rows.at[7, "diff"] == rows.at[7, "diff_ci_low"] == rows.at[7, "diff_ci_high"] == 0
        assert np.isfinite(rows.at[9, "diff"])
        assert rows.at[9, "diff_ci_low"] <= rows.at[9, "diff"] <= rows.at[9, "diff_ci_high"]


def test_a_rake_changes_the_sd_after_charges_and_nothing_before():
    """Compare without and with a 5% rake on the same decks: every figure before charges differs
    by exactly 0 with a zero-width interval; the SD and mean after charges are lower, their
    paired intervals below 0."""
    t = cpstats.compare(["ofc-pineapple", RAKED], 300, setter="greedy", rng=1, tidy=True)
    raked = t[t["variant"] == str(cpstats.load_variant(RAKED))].set_index("metric")
    for metric in ("sd", "hit_frequency", "push_rate", "mean_seat0", "foul_rate", "scoop_rate", "royalty",
                   "fl_entry_rate"):
        assert (raked.loc[metric, ["diff", "diff_ci_low", "diff_ci_high"]] == 0).all(), metric
    for metric in ("sd_after_charges", "mean_after_charges"):
        assert raked.at[metric, "diff_ci_low"] < raked.at[metric, "diff"] < raked.at[metric, "diff_ci_high"] < 0


def test_a_rake_sweep_holds_the_figures_before_charges_exactly():
    """A sweep of the rake alone: the SD and hit frequency differ by exactly 0, interval 0 to 0
    and no note, not "too few events"; the SD after charges falls with an interval below 0."""
    t = cpstats.sweep(RAKED, "rake.percent", [0.0, 0.05], deals=300, setter="greedy", rng=1,
                      metrics=["sd", "hit_frequency", "sd_after_charges"]).set_index(["metric", "value"])
    for metric in ("sd", "hit_frequency"):
        row = t.loc[(metric, 0.05)]
        assert row["diff"] == row["diff_ci_low"] == row["diff_ci_high"] == 0 and row["diff_note"] == ""
    after = t.loc[("sd_after_charges", 0.05)]
    assert after["diff_ci_low"] < after["diff"] < after["diff_ci_high"] < 0


def test_a_run_saved_without_batch_counts_gives_hit_and_push_without_pairing(run):
    """A summary without the per-batch hit, push and after-rake counts (the shipped runs' layout)
    loads; its hit and push rates are the whole run's with a Wilson interval and no batch values,
    so figure_batches (what compare and sweep pair) leaves them out; its SD after charges is the
    SD under rules that charge nothing and absent under a rake."""
    arrays = {k: v for k, v in run.summary.to_arrays().items()
              if k not in ("batch_wins", "batch_pushes", "batch_after_rake2")}
    old = type(run)(run.variant, SimulationSummary.from_arrays(arrays), run.metadata)
    f, new = _figures(old), _figures(run)
    for metric in ("hit_frequency", "push_rate_seat1"):
        assert f.at[metric, "estimate"] == pytest.approx(new.at[metric, "estimate"], rel=1e-12)
        assert f.at[metric, "method"].startswith("wilson") and "no paired difference" in f.at[metric, "method"]
        assert f.at[metric, "ci_low"] < f.at[metric, "estimate"] < f.at[metric, "ci_high"]
        assert metric not in old.figure_batches()
    assert f.at["sd_after_charges", "estimate"] == f.at["sd", "estimate"]
    raked = old.recharged(cpstats.load_variant(RAKED), old.summary.rake_by_batch + 1.0)
    assert "sd_after_charges" not in set(raked.figures()["metric"])


def test_the_shipped_run_loads_and_gives_hit_and_push():
    """The shipped run, saved before the batch counts, still loads and gives hit and push rates;
    charged a rake from its nets, it gives the SD after charges, below the SD."""
    f = _figures(cpstats.load_reference("ofc-pineapple"))
    assert 0 < f.at["hit_frequency", "estimate"] < 0.5 and 0 < f.at["push_rate", "estimate"] < 1
    assert f.at["sd_after_charges", "estimate"] == f.at["sd", "estimate"]
    from cpstats.rules.house import Rake

    charged = _figures(cpstats.load_reference("ofc-pineapple", rake=Rake(model="percent", percent=0.05)))
    assert charged.at["sd_after_charges", "estimate"] < charged.at["sd", "estimate"]
