"""Paired differences on common deals (cpstats.engine.paired): the deals a difference resting on
too few differing deals would need for an interval, for runs of any length, never NaN or a numpy
warning."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cpstats
from cpstats.engine.batches import BATCHES, batch_count
from cpstats.engine.paired import MIN_EVENT_BATCHES, deals_for_interval, paired_difference


@pytest.mark.parametrize("deals", [2, 5, 9, 10, 12, 29])
@pytest.mark.parametrize("events", [0, 1, 3])
def test_a_run_of_few_batches_gets_a_real_number_of_deals(deals, events):
    """A run of fewer deals than BATCHES has one batch a deal; fewer than MIN_EVENT_BATCHES batches
    (or exactly that many) divided by zero or took the log of a negative number: an inf or NaN in
    the note and numpy's RuntimeWarning."""
    batches = batch_count(deals)
    events = min(events, batches)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        needed = deals_for_interval(events, deals, batches)
    assert np.isfinite(needed) and needed >= BATCHES and needed == int(needed)
    # fewer events seen in the same run: a rarer difference needs more deals (none seen is the
    # rule of three's lower bound, not this estimate)
    if events >= 2:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert deals_for_interval(events - 1, deals, batches) >= needed


def test_a_run_of_full_batches_keeps_the_poisson_rule():
    """With BATCHES batches the longer run's batches are the same count: ``deals * ln(1 - k / B) /
    ln(1 - events / B)``, the rule of three where none differed."""
    need = np.log(1 - MIN_EVENT_BATCHES / BATCHES)
    assert deals_for_interval(4, 3_000, BATCHES) == np.ceil(3_000 * need / np.log(1 - 4 / BATCHES))
    assert deals_for_interval(0, 3_000, BATCHES) == np.ceil(3_000 * BATCHES * -need / -np.log(0.05))


def test_the_note_of_a_few_deals_names_a_number():
    diffs = np.array([0.0, 1.0, 0.0, 0.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        half, events, note, needed = paired_difference(diffs, 5, 0.95)
    assert np.isnan(half) and events == 2 and np.isfinite(needed)
    assert f"about {needed:,.0f} deals would give one" in note and "nan" not in note and "inf" not in note


@pytest.mark.parametrize("deals", [9, 10])
def test_a_sweep_of_fewer_than_ten_batches_leaks_no_warning_and_no_nan(deals):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = cpstats.sweep("2-4", "royalties.front_trips", [3, 10], deals=deals, setter="greedy", rng=1)
    notes = " ".join(table["diff_note"])
    assert "deals would give one" in notes and "nan" not in notes and "inf " not in notes
    assert np.isfinite(table["deals_for_interval"].dropna()).all()
