"""The open-face figures' intervals (issue 50, item 19): a rate pooled over the seats or the pairs of
a hand is Student's t on batches of whole hands, so the dependence inside a hand (three pairs a
hand at three players) is carried; its coverage measured over 400 seeds (opt-in)."""

import os

import numpy as np
import pytest

from cpstats.ofc import simulation as sim
from cpstats.ofc.result import figure_batches
from cpstats.engine.batches import batch_count, batch_of
from cpstats.engine.stats import t_value

THREE = "ofc-pineapple(players=3,button=fixed)"  # the recorded seats; the button moves no interval


def _per_hand_interval(events: np.ndarray, trials: np.ndarray) -> tuple[float, float, float]:
    """Batch t on per-hand counts, written out here: each hand's events and trials summed into the
    run's batches of consecutive hands, the ratio of totals, its linearised batch values."""
    hands = len(events)
    batches = batch_count(hands)
    batch = batch_of(0, hands, hands, batches)
    num = np.bincount(batch, weights=events, minlength=batches)
    den = np.bincount(batch, weights=trials, minlength=batches)
    est = num.sum() / den.sum()
    z = (num - est * den) / den.mean()
    half = t_value(0.95, batches) * z.std(ddof=1) / np.sqrt(batches)
    return est, est - half, est + half


def test_pooled_rates_are_batch_t_on_whole_hands(tmp_path):
    """The scoop rate (per player and opponent: six ordered pairs a three-handed hand) and the
    foul rate (three boards a hand) are the batch t interval of per-hand counts read back from the
    run's rows, not an interval on pairs or boards counted as independent."""
    r = sim.simulate(THREE, 600, setter="random", rng=5, block_deals=200, out=tmp_path, keep_hands=True)
    rows = r.rows()
    per_hand = rows.groupby("hand").agg(scoops=("scoops", "sum"), fouls=("foul", "sum"))
    hands = len(per_hand)
    table = r.figures().set_index("metric")
    for metric, events, trials in (("scoop_rate", per_hand["scoops"], 3 * 2), ("foul_rate", per_hand["fouls"], 3)):
        want = _per_hand_interval(events.to_numpy(float), np.full(hands, float(trials)))
        got = table.loc[metric, ["estimate", "ci_low", "ci_high"]].to_numpy(float)
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=metric)
        assert table.at[metric, "method"] == "batch t"
    # pairs counted as independent would not give this interval: the pairs of a hand are
    # negatively correlated (a pair has at most one scoop), so the binomial SE on pairs differs
    p, pairs = table.at["scoop_rate", "estimate"], hands * 6
    binomial = np.sqrt(p * (1 - p) / pairs) * t_value(0.95, batch_count(hands))
    assert abs(binomial - (table.at["scoop_rate", "ci_high"] - p)) > 0.05 * binomial


def _slow(test):
    """Opt-in (CPSTATS_SLOW=1) and marked ``slow``, so ``-m slow`` selects it."""
    return pytest.mark.slow(pytest.mark.skipif(not os.environ.get("CPSTATS_SLOW"),
                                               reason="opt-in: CPSTATS_SLOW=1 (about 10 min)")(test))


@_slow
def test_three_player_coverage_over_400_seeds():
    """400 runs of 2,000 greedy hands at three players (seeds 1000..1399): every batch-t figure's
    95% interval holds the truth (the other 399 runs pooled, 798,000 hands) 95% +- 4 SE of the
    coverage, and its mean reported SE over the estimates' spread is 1 within 4 SE of that ratio;
    the scoop rate within 3 SE (issue 50's audit: 91.3% over 138 runs of fast, SE ratio 0.88).
    Measured: scoop rate 95.0% +- 1.1, SE ratio 1.03 +- 0.04, misses 10 below and 10 above."""
    runs = [figure_batches(sim.simulate(THREE, 2000, setter="greedy", rng=seed)) for seed in range(1000, 1400)]
    t = t_value(0.95, 30)
    se_cov, se_ratio = np.sqrt(0.95 * 0.05 / len(runs)), 1 / np.sqrt(2 * (len(runs) - 1))
    checked = []
    for name in runs[0]:
        if any(r[name].method != "batch t" for r in runs):
            continue  # fell back to Wilson in some run (the Fantasyland stay rate, few stays)
        est = np.array([r[name].estimate for r in runs])
        low, high = np.array([r[name].ci_low for r in runs]), np.array([r[name].ci_high for r in runs])
        totals = np.array([r[name].sums.sum(axis=1) for r in runs])  # numerator, denominator (twice for fl_value)
        rest = totals.sum(axis=0) - totals
        truth = rest[:, 0] / rest[:, 1] - (rest[:, 2] / rest[:, 3] if rest.shape[1] == 4 else 0)
        covered = np.mean((low <= truth) & (truth <= high))
        ratio = np.mean((high - low) / (2 * t)) / est.std(ddof=1)
        k = 3 if name == "scoop_rate" else 4
        assert abs(covered - 0.95) < k * se_cov, (name, covered)
        assert abs(ratio - 1) < k * se_ratio, (name, ratio)
        checked.append(name)
    assert "scoop_rate" in checked and len(checked) >= 12
