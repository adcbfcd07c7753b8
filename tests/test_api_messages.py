"""The Python API refuses bad input as one cpstats error line naming the argument and what it
allows, as the command line does: never numpy's or pathlib's exception from deep inside a run."""

from __future__ import annotations

import pytest

import cpstats
from cpstats.errors import OptionError


@pytest.mark.parametrize("call, message", [
    (lambda: cpstats.match("2-4", "greedy", "random", deals=0), r"^deals=0 is invalid: a whole number >= 2"),
    (lambda: cpstats.match("2-4", "greedy", "random", deals=100, seed=-1), r"^seed=-1 is invalid"),
    (lambda: cpstats.match("2-4", "greedy", "random", deals=100, seed="x"), r"^seed='x' is invalid: pass None"),
    (lambda: cpstats.simulate("2-4", 100, strategy="greedy", block_deals=7.5),
     r"^block_deals=7\.5 is invalid: a whole number >= 1"),
    (lambda: cpstats.simulate("2-4", 100, strategy="greedy", out=42), r"^out=42 is invalid: a folder path"),
    (lambda: cpstats.simulate("2-4", 100, strategy="greedy", executor="local"),
     r"^executor='local' is invalid: None \(serial\) or a concurrent\.futures-style executor"),
    (lambda: cpstats.simulate("2-4", 100, strategy="greedy", players="3"), r"^players='3' is invalid"),
    (lambda: cpstats.simulate_ofc("ofc-pineapple", 10, strategy="random", executor="local"),
     r"^executor='local' is invalid"),
])
def test_bad_input_is_one_line_naming_the_argument(call, message):
    with pytest.raises(OptionError, match=message):
        call()
