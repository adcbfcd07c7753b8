"""The Python API refuses bad input as one cpstats error line naming the argument and what it
allows, as the command line does: never numpy's or pathlib's exception from deep inside a run."""

from __future__ import annotations

import pytest

import cpstats
from cpstats.errors import OptionError


@pytest.mark.parametrize("call, message", [
    (lambda: cpstats.match("2-4", "greedy", "random", deals=0),
     r"^deals=0 is invalid: a whole number >= 2"),
    (lambda: cpstats.match("2-4", "greedy", "random", deals=100, rng=-1), r"^rng=-1 is invalid"),
    (lambda: cpstats.match("2-4", "greedy", "random", deals=100, rng="x"), r"^rng='x' is invalid: pass None"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", block_deals=7.5),
     r"^block_deals=7\.5 is invalid: a whole number >= 1"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", out=42), r"^out=42 is invalid: a folder path"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", executor="local"),
     r"^executor='local' is invalid: None \(serial\) or a concurrent\.futures-style executor"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", players="3"), r"^players='3' is invalid"),
    (lambda: cpstats.simulate("ofc-pineapple", 10, setter="random", executor="local"),
     r"^executor='local' is invalid"),
    (lambda: cpstats.compare(["2-4", "1-6"], 100, setter="greedy", tidy="yes"),
     r"^tidy='yes' is invalid"),
    (lambda: cpstats.compare(["2-4", "1-6"], 100, setter="greedy", labels=["a", "a"]),
     r"^labels=\['a', 'a'\] is invalid: each result needs its own name"),
    (lambda: cpstats.par_sheet("2-4", deals=100, setter="greedy", seat_deals=0),
     r"^seat_deals=0 is invalid"),
    (lambda: cpstats.train_tables("2-4", deals=-1), r"^deals=-1 is invalid: must be >= 1000$"),
    (lambda: cpstats.train_tables("2-4", deals=2000, damping=2), r"^damping=2 is invalid: must be in \(0, 1\]$"),
])
def test_bad_input_is_one_line_naming_the_argument(call, message):
    with pytest.raises(OptionError, match=message):
        call()


def test_a_figure_that_cannot_be_negative_never_gets_a_negative_bound():
    """A rare royalty in a small run: the batch-t interval of royalties paid is clipped at 0 (a
    cost that cannot be negative), while the bank's mean keeps its sign."""
    from cpstats.thirteen.paired import METRICS, paired_metrics

    results = [cpstats.simulate(f"2-4(royalties.front_trips={x})", 3000, setter="greedy", rng=1)
               for x in (0, 2)]
    table = paired_metrics(results)
    assert (table["ci_low"] >= 0).all()
    royalty = table.query("run == 1 and metric == 'royalty_per_hand'").iloc[0]
    assert royalty["ci_low"] == 0 < royalty["estimate"] < royalty["ci_high"]
    assert set(table["metric"]) <= set(METRICS)
