"""Statistics helpers: Wilson intervals, moments from power sums, batch-means standard errors.

The definitions follow ``CASINO-MATH.md``: SD per hand sqrt(E[X^2] - mu^2), volatility index
1.645 SD, session interval n*mu +- z*SD*sqrt(n), batch means sd(block means) / sqrt(k).
"""

from __future__ import annotations

import numpy as np

__all__ = ["wilson_interval", "moments_from_sums", "batch_means_se", "batch_mean_interval", "z_value",
           "t_value", "half_width", "check_confidence", "batch_variances", "batch_variance_interval",
           "paired_sd_difference", "rate_interval", "session_band", "MIN_BATCH_EVENTS", "VOLATILITY_Z"]

VOLATILITY_Z = 1.645


def check_confidence(confidence: float) -> float:
    """``confidence`` as a float strictly between 0 and 1, or one clear OptionError."""
    from cpstats.errors import OptionError

    try:
        value = float(confidence)
    except (TypeError, ValueError):
        value = float("nan")
    if not 0 < value < 1:
        raise OptionError(f"confidence={confidence!r} is invalid: a level strictly between 0 and 1, "
                          "such as 0.95")
    return value


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile for ``confidence`` (1.96 for 95%)."""
    from scipy import stats  # imported on first use: scipy.stats is a second of import cpstats

    return float(stats.norm.ppf(0.5 + check_confidence(confidence) / 2))


def t_value(confidence: float, batches: int) -> float:
    """Two-sided Student's t quantile with ``batches - 1`` degrees of freedom (nan below 2 batches).

    Batch means are the observations of the interval, so their number sets its degrees of
    freedom: with 30 batches the 95% quantile is 2.045, not 1.96 (CASINO-MATH, Schmeiser 1982).
    """
    level = check_confidence(confidence)
    if batches < 2:
        return float("nan")
    from scipy import stats

    return float(stats.t.ppf(0.5 + level / 2, batches - 1))


def wilson_interval(hits, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for binomial proportions (vectorised; the same as scipy's
    ``binomtest(k, n).proportion_ci(method="wilson")``)."""
    k = np.asarray(hits, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = z_value(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    # the bounds are exactly 0 with no hits and 1 with no misses (rounding leaves 1e-23 otherwise)
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0, 1))
    high = np.where(k == n, 1.0, np.clip(centre + half, 0, 1))
    return low, high


def moments_from_sums(n, s1, s2, s3, s4) -> dict[str, np.ndarray]:
    """Mean, variance (population), SD, skewness and excess kurtosis from power sums."""
    n = np.asarray(n, dtype=float)
    mean = np.asarray(s1, dtype=float) / n
    e2 = np.asarray(s2, dtype=float) / n
    e3 = np.asarray(s3, dtype=float) / n
    e4 = np.asarray(s4, dtype=float) / n
    var = np.maximum(e2 - mean**2, 0.0)
    m3 = e3 - 3 * mean * e2 + 2 * mean**3
    m4 = e4 - 4 * mean * e3 + 6 * mean**2 * e2 - 3 * mean**4
    with np.errstate(divide="ignore", invalid="ignore"):
        skew = np.where(var > 0, m3 / var**1.5, 0.0)
        kurt = np.where(var > 0, m4 / var**2 - 3.0, 0.0)
    return {"mean": mean, "variance": var, "sd": np.sqrt(var), "skewness": skew, "kurtosis": kurt}


def batch_means_se(batch_sums: np.ndarray, batch_sizes: np.ndarray) -> np.ndarray:
    """Standard error of the overall mean from batch sums (k, ...) of ``batch_sizes`` (k,) deals.

    Batches of unequal size (sizes differ by one deal when the deals do not divide evenly) are
    weighted by size; empty batches are left out.
    """
    sizes = np.asarray(batch_sizes, dtype=float)
    sums = np.asarray(batch_sums, dtype=float)
    used = sizes > 0
    sizes, sums = sizes[used], sums[used]
    k = len(sizes)
    if k < 2:
        return np.full(sums.shape[1:], np.nan)
    total = sizes.sum()
    mean = sums.sum(axis=0) / total
    means = sums / sizes.reshape((-1,) + (1,) * (sums.ndim - 1))
    w = (sizes / sizes.mean()).reshape((-1,) + (1,) * (sums.ndim - 1))
    var_of_batch = (w**2 * (means - mean) ** 2).sum(axis=0) / (k - 1)
    return np.sqrt(var_of_batch / k)


def batch_mean_interval(batch_sums: np.ndarray, batch_sizes: np.ndarray,
                        confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, standard error, half-width) of the overall mean from batch sums, with Student's t on
    the batch means (``batches - 1`` degrees of freedom)."""
    sizes = np.asarray(batch_sizes, dtype=float)
    sums = np.asarray(batch_sums, dtype=float)
    mean = sums.sum(axis=0) / sizes.sum()
    se = batch_means_se(sums, sizes)
    return mean, se, t_value(confidence, int((sizes > 0).sum())) * se


def batch_variances(batch_sums, batch_s2, batch_sizes) -> np.ndarray | None:
    """Unbiased variance within each batch, (k, ...), or None without ``batch_s2`` (older results)
    or when a batch holds fewer than 2 deals (runs below 60 deals): no spread to measure.

    The n/(n - 1) correction makes every batch variance an unbiased estimate of the variance, so
    their spread is that of the estimate itself rather than shrunk by 1 - 1/n; without it, runs
    with few deals a batch would claim too narrow an interval.
    """
    if batch_s2 is None:
        return None
    sizes = np.asarray(batch_sizes, dtype=float)
    if len(sizes) < 2 or sizes.min() < 2:
        return None
    shape = (-1,) + (1,) * (np.ndim(batch_sums) - 1)
    n = sizes.reshape(shape)
    mean = np.asarray(batch_sums, dtype=float) / n
    return np.maximum(np.asarray(batch_s2, dtype=float) / n - mean**2, 0.0) * n / (n - 1)


def half_width(values: np.ndarray | None, confidence: float) -> float | np.ndarray:
    """Student's t half-width of the mean of batch values: t(k - 1) * sd(ddof=1) / sqrt(k).

    ``values`` is (k,) or (k, ...), one row a batch. The half-width is NaN without values, with
    fewer than 2 batches, or where a batch's value is not finite (per column for (k, ...)). A float
    for (k,), an array of the trailing shape otherwise. The one definition every interval and paired
    difference on batch values calls, so one run gives one half-width everywhere.
    """
    if values is None:
        return float("nan")
    values = np.asarray(values)
    k = len(values)
    if k < 2:
        return float("nan") if values.ndim == 1 else np.full(values.shape[1:], np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = values.std(axis=0, ddof=1)
    if values.ndim == 1:
        return float(t_value(confidence, k) * float(sd) / np.sqrt(k))
    return t_value(confidence, k) * sd / np.sqrt(k)


def batch_variance_interval(batch_sums, batch_s2, batch_sizes, confidence: float = 0.95
                            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(variance, low, high) of the per-deal variance from per-batch sums and sums of squares.

    The estimate is the full-sample variance (population form, as :func:`moments_from_sums`);
    its standard error is sd(batch variances) / sqrt(k), with Student's t on k - 1 degrees of
    freedom (batch means on per-batch variances, CASINO-MATH); the low end is clipped at 0. NaN
    ends where :func:`batch_variances` gives None (no ``batch_s2``, batches of one deal).
    It holds 95% from about 10,000 deals in heavy-tailed games and a little less at 2,000 (the
    misses mostly below the truth); the alternatives tried were no better there (coverage
    measured: docs/measurements.md#coverage_sd).
    """
    level = check_confidence(confidence)
    sizes = np.asarray(batch_sizes, dtype=float)
    sums = np.asarray(batch_sums, dtype=float)
    nan = np.full(sums.shape[1:], np.nan)
    if batch_s2 is None:
        return nan, nan.copy(), nan.copy()
    total = sizes.sum()
    variance = np.maximum(np.asarray(batch_s2, dtype=float).sum(axis=0) / total
                          - (sums.sum(axis=0) / total) ** 2, 0.0)
    per_batch = batch_variances(sums, batch_s2, sizes)
    if per_batch is None:
        return variance, nan, nan.copy()
    half = half_width(per_batch, level)
    return variance, np.maximum(variance - half, 0.0), variance + half


def paired_sd_difference(a: tuple, b: tuple, batch_sizes, confidence: float = 0.95
                         ) -> tuple[float, float, float]:
    """(difference, low, high) of the seat-averaged SD per deal of ``a`` less that of ``b``.

    ``a`` and ``b`` are (batch_sums, batch_s2), each (k, seats), of two runs on the same deals,
    so batch j of one holds the deals of batch j of the other. The estimate is the difference of
    the full-sample SDs; its interval is Student's t (k - 1 degrees of freedom) on the per-batch
    SD differences, whose spread leaves out the noise the common deals share. NaN where a run
    lacks ``batch_s2`` or batches hold one deal.
    """
    level = check_confidence(confidence)
    sds = [np.sqrt(batch_variance_interval(s1, s2, batch_sizes, level)[0]).mean() for s1, s2 in (a, b)]
    per_batch = [batch_variances(s1, s2, batch_sizes) for s1, s2 in (a, b)]
    diff = float(sds[0] - sds[1])
    if per_batch[0] is None or per_batch[1] is None:
        return diff, float("nan"), float("nan")
    d = np.sqrt(per_batch[0]).mean(axis=1) - np.sqrt(per_batch[1]).mean(axis=1)
    half = float(half_width(d, level))
    return diff, diff - half, diff + half


#: Fewest events (and non-events) in every batch for a rate's batch-means interval: below it
#: the batch rates are too coarse for Student's t, and the rate is taken as rare (Wilson).
MIN_BATCH_EVENTS = 10


def rate_interval(batch_events, batch_trials, confidence: float = 0.95, *, what: str = "trials"
                  ) -> tuple[float, float, float, str]:
    """(rate, low, high, method) of a frequency pooled over seats or pairs, from per-batch counts.

    ``batch_events`` and ``batch_trials`` (k,) are each batch's events and trials summed over
    everything pooled (a trial is one seat's or pair's deal). The seats of a deal are linked
    (one seat's win is another's loss), so a binomial interval on the trials does not describe
    the pooled rate's spread (one on deals is several times too wide). Batches of consecutive
    deals are independent: the rate is the ratio estimator sum(events) / sum(trials), its standard error
    the batch-means one of the per-batch rates (weighted by the batch's trials, as
    :func:`batch_means_se`), with Student's t on k - 1 degrees of freedom, clipped to [0, 1].
    A rare frequency (fewer than :data:`MIN_BATCH_EVENTS` events or non-events in some batch,
    or under 2 batches) gets the Wilson interval on the pooled counts instead, and its method
    says how few events it rests on. ``what`` names the trials in that method.
    """
    level = check_confidence(confidence)
    events = np.asarray(batch_events, dtype=float).reshape(-1)
    trials = np.asarray(batch_trials, dtype=float).reshape(-1)
    used = trials > 0
    events, trials = events[used], trials[used]
    k, n = float(events.sum()), float(trials.sum())
    if n == 0:
        return float("nan"), float("nan"), float("nan"), "no trials"
    rate = k / n
    if len(trials) >= 2 and min(events.min(), (trials - events).min()) >= MIN_BATCH_EVENTS:
        _, _, half = batch_mean_interval(events, trials, level)
        return (rate, max(rate - float(half), 0.0), min(rate + float(half), 1.0),
                f"Student's t on {len(trials)} batch means of the pooled rate")
    low, high = wilson_interval(k, n, level)
    return (rate, float(low), float(high),
            f"Wilson on {k:,.0f} event{'' if k == 1 else 's'} in {n:,.0f} {what} pooled (too few a "
            "batch for batch means)")


def session_band(mean: float, sd: float, hands, confidence: float = 0.95
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(expected, low, high) of a player's total over ``hands`` hands (a number or an array):
    ``hands * mean -+ z * sd * sqrt(hands)``, the normal band of a sum of independent hands
    (CASINO-MATH's session interval), ``z`` two-sided at ``confidence``.

    Examples
    --------
    >>> expected, low, high = session_band(-0.1, 5.0, 100, 0.95)
    >>> float(expected), round(float(high - expected), 2)
    (-10.0, 98.0)
    """
    n = np.asarray(hands, dtype=float)
    half = z_value(confidence) * sd * np.sqrt(n)
    return n * mean, n * mean - half, n * mean + half
