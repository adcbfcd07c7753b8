"""The designer's figures of several results side by side, each with its interval and its paired
difference to the first.

Every figure is computed for the whole run and for each of its batches (30 by default). Its
interval is Student's t (``batches - 1`` degrees of freedom) on the batch values; a ratio (a rate
over live pairs, the rake share of gross) uses batch ratios. Two runs on the same deals (same
seed, deals and batch plan: :func:`cpstats.compare`, or the shipped reference results)
are paired batch by batch: the difference's interval is t on the per-batch differences, which
leave out the noise the common deals share. Runs on other deals are compared as independent:
the standard errors add in quadrature (``method`` says which).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.engine.describe import short_label
from cpstats.engine.base import Result
from cpstats.engine.paired import difference_of, paired_difference, paired_row
from cpstats.engine.stats import check_confidence, half_width
from cpstats.thirteen.metrics import BEFORE_CHARGES, METRICS, without_charges, SIGNED_METRICS, figure_batches, metric_batches

__all__ = ["METRICS", "SIGNED_METRICS", "metric_batches", "figure_batches", "paired_metrics"]


def _common_deals(a: Result, b: Result) -> bool:
    keys = ("entropy", "spawn_key", "deals", "batches", "block_deals")
    return (all(a.metadata.get(k) == b.metadata.get(k) for k in keys)
            and np.array_equal(a.summary.batch_sizes, b.summary.batch_sizes))


def _same_rules(a: Result, b: Result) -> bool:
    """The same rules set by the same setter: on common deals their figures are the same."""
    return str(a.variant) == str(b.variant) and _same_setter(a, b)


def _same_setter(a: Result, b: Result) -> bool:
    return all(a.metadata.get(k) == b.metadata.get(k) for k in ("strategy", "tables"))


def _same_play(a: Result, b: Result) -> bool:
    """The same rules but for the house's charges (rake, commission, fees, pace), set by the same
    setter and tables: on common deals every figure before charges (:data:`BEFORE_CHARGES`) is
    the same, so its difference is exactly 0."""
    return without_charges(a.variant) == without_charges(b.variant) and _same_setter(a, b)


#: The tidy table's columns: the run, the figure with its interval, the difference with its
#: interval, how the two runs were paired (``method``), then the difference's events and note.
_COLUMNS = ["run", "label", "variant", "metric", "description", "unit", "estimate", "ci_low", "ci_high", "diff",
            "diff_ci_low", "diff_ci_high", "method", "diff_events", "diff_note", "deals_for_interval"]


def _row(key: str, run: int, label: str, variant: str, mine, base, paired: bool, level: float,
         deals: int = 0, same_rules: bool = False) -> dict:
    """One result's figure ``key`` and its difference to the base's (:func:`paired_row`): paired
    batch by batch on common deals, else independent (the half-widths add in quadrature)."""
    words, unit, _ = METRICS[key]
    value, batches = mine
    half = half_width(batches, level)
    low = value - half if key in SIGNED_METRICS else max(value - half, 0.0)  # rates, SDs and takes are >= 0
    row = {"run": run, "label": label, "variant": variant, "metric": key, "description": words, "unit": unit}
    if base is None:
        return {**row, **paired_row(_Figure(value, low, value + half, ""), None, None)}
    if paired:
        both = None if batches is None or base[1] is None else difference_of(batches, base[1])
        difference = paired_difference(both, deals, level, same_rules=same_rules)
    else:
        difference = float(np.hypot(half, half_width(base[1], level))), np.nan, "", np.nan
    method = "paired batches" if paired else "independent runs"
    return {**row, **paired_row(_Figure(value, low, value + half, method), _Figure(base[0], 0.0, 0.0, ""),
                                difference)}


class _Figure(NamedTuple):
    """A figure as :func:`paired_row` reads it; ``method`` is how its difference was paired."""

    estimate: float
    ci_low: float
    ci_high: float
    method: str


def _default_labels(results: Sequence[Result]) -> list[str]:
    short = [short_label(r.variant) for r in results]
    return short if len(set(short)) == len(short) else [str(r.variant) for r in results]


def paired_metrics(results: Sequence[Result], labels: Sequence[str] | None = None, *,
                   hands_per_hour: float | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """One row per result and figure: estimate with its interval, and the difference to the
    first result with its interval.

    Parameters
    ----------
    results
        Two or more results; the first is the base (A) every other is compared with.
    labels
        Short names for the results (default: :func:`cpstats.engine.describe.short_label` of each
        variant, or the variant strings when two short labels would be the same).
    hands_per_hour
        Pace for the house take per seat-hour (None: each variant's ``rake.hands_per_hour``).
    confidence
        Level of every interval.

    Returns
    -------
    pandas.DataFrame
        ``run`` (position in ``results``), ``label``, ``variant``, ``metric`` (a key of
        :data:`METRICS`), ``description``, ``unit``, ``estimate``, ``ci_low``, ``ci_high`` (its low
        end clipped at 0 for a figure that cannot be negative; a figure never seen in the run has
        the interval 0 to 0: batch means cannot bound what no batch saw),
        ``diff`` (this result less the first), ``diff_ci_low``, ``diff_ci_high``, ``method``
        (``paired batches`` or ``independent runs``), and for a paired difference
        ``diff_events`` (batches holding a deal where the two differ), ``diff_note`` and
        ``deals_for_interval``: with fewer than :data:`~cpstats.engine.paired.MIN_EVENT_BATCHES` such batches the
        difference has no interval (NaN ends), the note says ``too few events`` and the deals a
        run would need for one (:func:`~cpstats.engine.paired.paired_difference`). The same rules and setter on the
        same deals differ by exactly 0, interval 0 to 0; so do the figures before house charges
        (:data:`~cpstats.thirteen.metrics.BEFORE_CHARGES`: the SD, rates, royalties and naturals paid)
        of two variants that differ only in their house charges, which change ``sd_after_charges``,
        ``mean_after_charges`` and the house's take. A figure shows only for the games it
        describes: seat 0's (the bank's) mean and the house edge in banked games; the cost per
        player in symmetric games (seat 0's mean is 0 up to noise there). The base's own
        difference is exactly 0; a difference to a base lacking the figure is NaN.

    Examples
    --------
    >>> from cpstats import simulate
    >>> runs = [simulate(v, 1_000, setter="greedy", rng=1)
    ...         for v in ("2-4", "2-4(rake=percent,rake.percent=0.05)")]
    >>> table = paired_metrics(runs, ["no rake", "5% rake"]).set_index(["label", "metric"])
    >>> bool(table.loc[("5% rake", "rake_per_seat_per_hand"), "diff_ci_low"] > 0)
    True
    """
    level = check_confidence(confidence)
    results = list(results)
    if not results:
        raise OptionError("paired_metrics needs at least one result")
    names = _default_labels(results) if labels is None else [str(x) for x in labels]
    if len(names) != len(results):
        raise OptionError(f"labels has {len(names)} names for {len(results)} results: one a result")
    if labels is not None and len(set(names)) != len(names):
        raise OptionError(f"labels={names!r} is invalid: each result needs its own name")
    figures = [metric_batches(r, hands_per_hour) for r in results]
    rows = []
    for i, (r, name, mine) in enumerate(zip(results, names, figures)):
        paired = _common_deals(results[0], r)
        same = paired and _same_rules(results[0], r)
        same_play = paired and _same_play(results[0], r)
        for key in METRICS:
            if key in mine:
                rows.append(_row(key, i, name, str(r.variant), mine[key], figures[0].get(key), paired,
                                 level, r.deals, same or (same_play and key in BEFORE_CHARGES)))
    return pd.DataFrame(rows, columns=_COLUMNS)
