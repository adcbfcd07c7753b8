"""Intervals: Student's t on a run's batches (and its coverage), Wilson bounds, the SD and variance
per hand, and paired SD differences."""

import os

import numpy as np
import pytest
from scipy import stats as st

from cpstats import OptionError
from cpstats.engine.batches import BATCHES
from cpstats.workbench import compare, simulate
from cpstats.thirteen.result import SimulationResult
from cpstats.engine.stats import (batch_variance_interval, batch_variances, half_width,
                                      paired_sd_difference, wilson_interval)

KW = dict(setter="greedy", block_deals=5_000)


def _normal_summary(rng, sigma: float, batches: int = BATCHES, size: int = 500, runs: int = 1):
    """Batch sums, sums of squares and sizes of ``runs`` samples of normal draws (mean 1)."""
    x = rng.normal(1.0, sigma, size=(runs, batches, size))
    return x.sum(axis=2).T, (x * x).sum(axis=2).T, np.full(batches, size)


def test_sd_and_variance_intervals_hold_the_estimate_and_follow_the_method():
    """Every seat's SD and variance interval holds its estimate; the variance's
    half-width is t(B - 1) * sd(unbiased batch variances) / sqrt(B), the SD's ends its square roots."""
    r = simulate("2-4", 20_000, rng=11, **KW)
    m = r.moments()
    assert (m["variance_ci_low"] < m["variance"]).all() and (m["variance"] < m["variance_ci_high"]).all()
    assert (m["sd_ci_low"] < m["sd"]).all() and (m["sd"] < m["sd_ci_high"]).all()
    s = r.summary
    n = s.batch_sizes[:, None]
    v = (s.net_sq_by_batch / n - (s.net_by_batch / n) ** 2) * n / (n - 1)
    half = st.t.ppf(0.975, BATCHES - 1) * v.std(axis=0, ddof=1) / np.sqrt(BATCHES)
    assert np.allclose(m["variance_ci_high"] - m["variance"], half, rtol=1e-9)
    assert np.allclose(m["sd_ci_low"] ** 2, m["variance_ci_low"], rtol=1e-12)
    wide = r.moments(0.99)
    assert (wide["sd_ci_high"] > m["sd_ci_high"]).all()


def test_variance_interval_holds_the_known_variance_of_normal_draws():
    """On normal draws of variance 4 the intervals hold 4 and SD 2, and over 400
    samples of 30 x 200 draws the 95% interval holds the true variance 95% +- 3.5 points of the
    time (the coverage's own SE is 1.1 points). Seed 16's first sample is one of the 5% misses."""
    rng = np.random.default_rng(17)
    s1, s2, sizes = _normal_summary(rng, 2.0, size=1_000)
    variance, low, high = batch_variance_interval(s1, s2, sizes)
    assert low[0] < 4.0 < high[0] and np.sqrt(low[0]) < 2.0 < np.sqrt(high[0])
    assert variance[0] == pytest.approx(4.0, rel=0.03)
    s1, s2, sizes = _normal_summary(rng, 2.0, size=200, runs=400)
    _, low, high = batch_variance_interval(s1, s2, sizes)
    assert abs(np.mean((low <= 4.0) & (4.0 <= high)) - 0.95) <= 0.035


def test_sd_intervals_are_nan_without_batch_sums_of_squares_or_with_one_deal_a_batch():
    """Older saved results lack ``batch_s2`` and runs under 60 deals have batches of
    one deal: the SD and variance intervals are NaN, the other figures unchanged, nothing fails."""
    r = simulate("2-4", 3_000, rng=2, **KW)
    old = SimulationResult(r.variant, {k: x for k, x in r.summary.to_arrays().items() if k != "batch_s2"},
                           r.metadata)
    m, m_old = r.moments(), old.moments()
    assert m_old[["sd_ci_low", "sd_ci_high", "variance_ci_low", "variance_ci_high"]].isna().all().all()
    assert np.array_equal(m["ci_low"], m_old["ci_low"]) and np.array_equal(m["sd"], m_old["sd"])
    assert np.isnan(paired_sd_difference((r.summary.net_by_batch, None),
                                         (r.summary.net_by_batch, r.summary.net_sq_by_batch),
                                         r.summary.batch_sizes)[1])
    tiny = simulate("2-4", 40, rng=2, **KW).moments()
    assert tiny["sd_ci_low"].isna().all() and (tiny["sd"] > 0).all()
    assert batch_variances(np.zeros((2, 1)), np.zeros((2, 1)), [1, 2]) is None


def test_paired_sd_difference_of_a_variant_with_itself_is_exactly_zero():
    """The same variant on the same deals has SD difference 0 with a [0, 0] interval."""
    table = compare(["2-4", "1-6", "2-4"], 6_000, rng=4, **KW)
    for row in (0, 2):
        assert table.loc[row, ["sd_diff", "sd_diff_ci_low", "sd_diff_ci_high"]].tolist() == [0, 0, 0]


def test_one_six_is_more_volatile_than_two_four_with_confidence():
    """1-6 pays 6 for a scoop against 4, so on the same deals its SD is higher and
    the paired interval lies above 0; the estimate is the difference of the ``sd`` column."""
    table = compare(["2-4", "1-6"], 20_000, rng=5, **KW)
    row = table.iloc[1]
    assert 0 < row["sd_diff_ci_low"] < row["sd_diff"] < row["sd_diff_ci_high"]
    assert row["sd_diff"] == pytest.approx(row["sd"] - table.loc[0, "sd"], abs=1e-12)


def test_paired_sd_difference_rejects_a_bad_confidence():
    """A confidence outside (0, 1) is one readable OptionError."""
    s1, s2, sizes = _normal_summary(np.random.default_rng(0), 1.0)
    with pytest.raises(OptionError, match="confidence=1.5 is invalid"):
        paired_sd_difference((s1, s2), (s1, s2), sizes, 1.5)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CPSTATS_SLOW"), reason="opt-in: CPSTATS_SLOW=1 (about 2 min)")
def test_sd_interval_coverage():
    """Over 200 seeds at 20,000 deals (greedy) the 95% intervals of seat 0's SD in 2-4
    and of the paired SD difference 1-6 minus 2-4 hold the true values 95% +- 3 points of the time
    (the measurement's SE is 1.5 points). True values from 4M deals on common deals: their own
    error is under a tenth of a 20,000-deal SE. Seats of 2-4 are exchangeable, so the true SD of
    seat 0 is the seat average of the long run."""
    seeds = int(os.environ.get("CPSTATS_COVERAGE_SEEDS", 200))
    long_deals = int(os.environ.get("CPSTATS_COVERAGE_TRUTH_DEALS", 4_000_000))
    truth = compare(["2-4", "1-6"], long_deals, rng=10_000, setter="greedy")
    true_sd, true_diff = truth.loc[0, "sd"], truth.loc[1, "sd_diff"]
    sd_hits = diff_hits = 0
    for seed in range(seeds):
        m = simulate("2-4", 20_000, rng=seed, setter="greedy").moments().iloc[0]
        sd_hits += m["sd_ci_low"] <= true_sd <= m["sd_ci_high"]
        row = compare(["2-4", "1-6"], 20_000, rng=seed, setter="greedy").iloc[1]
        diff_hits += row["sd_diff_ci_low"] <= true_diff <= row["sd_diff_ci_high"]
    sd_cov, diff_cov = sd_hits / seeds, diff_hits / seeds
    print(f"true SD {true_sd:.5f}, true SD difference {true_diff:.5f}; over {seeds} seeds at 20,000 "
          f"deals: SD coverage {sd_cov:.3f}, paired SD difference coverage {diff_cov:.3f}")
    assert abs(sd_cov - 0.95) <= 0.03 and abs(diff_cov - 0.95) <= 0.03


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CPSTATS_SLOW"), reason="opt-in: CPSTATS_SLOW=1 (about 6 min)")
@pytest.mark.parametrize("game", ["taiwanese", "pagat-casino"])
def test_sd_interval_coverage_in_heavy_tailed_games(game):
    """Heavy-tailed games (big scoop and natural pays): the SD interval of ``moments()`` holds the
    true SD (2M deals, seats averaged: the seats are exchangeable) in 95% +- 2 points of 400
    runs at 10,000 greedy deals (SE 1.1 points; the four seats' hits are averaged), and in at
    least 93% at 2,000 deals, where it falls short (measured 94.2% and 94.7%, misses one-sided:
    the interval lies below the truth 4.3% of the time, above it 1.2%)."""
    seeds = int(os.environ.get("CPSTATS_COVERAGE_SEEDS", 400))
    long = simulate(game, 2_000_000, rng=10_000, setter="greedy").moments()
    true_sd = float(long["sd"].mean())
    for deals, low in ((10_000, 0.93), (2_000, 0.93)):
        hits = np.mean([((m["sd_ci_low"] <= true_sd) & (true_sd <= m["sd_ci_high"])).mean()
                        for m in (simulate(game, deals, rng=s, setter="greedy").moments()
                                  for s in range(seeds))])
        print(f"{game}: SD coverage at {deals:,} deals over {seeds} seeds {hits:.3f}")
        assert hits >= low and (deals < 10_000 or abs(hits - 0.95) <= 0.02)


# -- intervals on a run's batches -------------------------------------------------------------------

def test_intervals_use_student_t_on_the_run_batches():
    """30 batches at 2,000 deals and the interval half-width is t(29) x SE."""
    result = simulate("2-4", 2_000, rng=5, setter="greedy", block_deals=500)
    assert len(result.summary.batch_sizes) == BATCHES == result.metadata["batches"]
    assert result.summary.batch_sizes.sum() == 2_000
    assert np.ptp(result.summary.batch_sizes) <= 1
    m = result.moments().iloc[0]
    assert (m["ci_high"] - m["mean"]) == pytest.approx(st.t.ppf(0.975, BATCHES - 1) * m["se"])
    tiny = simulate("2-4", 7, rng=5, setter="greedy", block_deals=500)
    assert len(tiny.summary.batch_sizes) == 7  # one batch a deal below 30 deals


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CPSTATS_SLOW"), reason="opt-in: CPSTATS_SLOW=1")
@pytest.mark.parametrize("deals", [2_000, 5_000, 20_000])
def test_mean_interval_coverage(deals):
    """The 95% interval of a seat's mean holds the true mean (0: seats are
    exchangeable) in 95% +- 1.5 points of 2,000 runs; the measurement's own SE is 0.49 points."""
    seeds = int(os.environ.get("CPSTATS_COVERAGE_SEEDS", 2_000))
    hits = 0
    for seed in range(seeds):
        m = simulate("2-4", deals, rng=seed, setter="greedy").moments().iloc[0]
        hits += m["ci_low"] <= 0 <= m["ci_high"]
    coverage = hits / seeds
    print(f"coverage at {deals} deals over {seeds} seeds: {coverage:.4f}")
    assert abs(coverage - 0.95) <= 0.015


def test_wilson_bounds_are_exact_at_the_edges():
    """No hits gives a lower bound of exactly 0, all hits an upper bound of 1."""
    low, high = wilson_interval(np.array([0, 10]), np.array([10, 10]))
    assert low[0] == 0.0 and high[1] == 1.0


def test_half_width_is_student_t_on_batch_values():
    """The one batch-t half-width: t(k - 1) * sd(ddof=1) / sqrt(k), a float for (k,), per column for
    (k, ...); NaN without values, below 2 batches, or where a batch value is not finite."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=30)
    want = st.t.ppf(0.975, 29) * x.std(ddof=1) / np.sqrt(30)
    assert isinstance(half_width(x, 0.95), float)
    assert half_width(x, 0.95) == pytest.approx(want, rel=1e-12)
    m = rng.normal(size=(30, 3))
    m[4, 1] = np.nan
    got = half_width(m, 0.95)
    assert got.shape == (3,) and np.isnan(got[1])
    assert got[0] == half_width(m[:, 0], 0.95) and got[2] == half_width(m[:, 2], 0.95)
    assert np.isnan(half_width(None, 0.95)) and np.isnan(half_width(x[:1], 0.95))
    assert np.isnan(half_width(np.r_[x, np.inf], 0.95))
    assert half_width(np.full(5, 2.5), 0.95) == 0.0
