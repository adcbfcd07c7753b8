"""Two versions of cpstats timed side by side: settlement, ev setting, greedy and ev simulation,
the open-face rollout and open-face simulation.

Run ``python benchmarks/bench_versions.py BEFORE [AFTER]`` (git refs; AFTER defaults to the working
tree). Each ref is checked out into a temporary folder; every case runs in a fresh interpreter
that imports that folder's copy, alternating before / after ``--rounds`` times so both see the same
machine load (this machine is shared and noisy).

Inside a round the interpreter calls the case once untimed (numba compiles or loads its kernels
there), then finds how many calls last at least ``--target`` seconds (an autorange like
:meth:`timeit.Timer.autorange`'s) and times that many ``--repeat`` times; the round's figure is
the fastest of those repeats, per call (the minimum, as :mod:`timeit` advises: noise only adds).
A case of 40 ms is so timed about 27 calls at a time, not once: timed once, it moved by half
between runs (2.48x "slower" between two trees whose calls take the same time).

Printed for each case: the median of the rounds' figures for both versions, the ratio after /
before (below 1 is faster: the median of the rounds' paired ratios, each round's two versions
timed back to back, which goes first alternating), its distribution-free interval for the median (order statistics of the
paired ratios; 93.8% at 5 rounds, the most 5 can give, 95% from 6) and the spread of each
version against itself (the largest round's figure over the smallest, less 1). A ratio whose
interval holds 1 reads "same"; under 5 rounds (an interval below 90%) "too few rounds". ``--record`` writes the table into docs/measurements.md.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

# Who sets the hands, in the keyword the version reads: setter= where it has it, else the
# strategy= it replaced (set_hands took strategy= until the verbs' one keyword reached it).
SETTER = """
import inspect
def setter_keyword(fn):
    return "setter" if "setter" in inspect.signature(fn).parameters else "strategy"
"""

# Each case is timed inside the child interpreter by :func:`measure`, after one untimed call
# (numba compiles there); the snippets use names both versions have (the top level's, whatever
# folder a function lives in).
CASES = {
    "settlement 200k deals": """
import numpy as np
from cpstats import load_variant, settle_many
from cpstats.cards import deal
v = load_variant("2-4(royalties=R-FUTUREBET)")
hands = np.sort(deal(np.random.default_rng(1), 200_000, 4), axis=-1)
def run():
    settle_many(v, hands)
""",
    "ev setting 4k hands": SETTER + """
import numpy as np
from cpstats import set_hands
from cpstats.cards import deal
hands = deal(np.random.default_rng(2), 1_000, 4).reshape(-1, 13)
SETTER = setter_keyword(set_hands)
def run():
    set_hands(hands, "2-4", **{SETTER: "ev"})
""",
    "greedy simulate 100k": """
import cpstats
def run():
    cpstats.simulate("2-4", 100_000, rng=3, setter="greedy")
""",
    "ev simulate 10k": """
import cpstats
def run():
    cpstats.simulate("2-4", 10_000, rng=4, setter="ev")
""",
    "ofc rollout simulate 40 hands": """
import cpstats
def run():
    cpstats.simulate("ofc-pineapple", 40, rng=5, setter="rollout")
""",
    "ofc greedy simulate 2k hands": """
import cpstats
def run():
    cpstats.simulate("ofc-pineapple", 2_000, rng=6, setter="greedy")
""",
}

CHILD = """
import json, sys
sys.path.insert(0, {src!r})
{case}
import cpstats
assert cpstats.__file__.startswith({src!r}), cpstats.__file__  # this tree's copy, not the installed one
sys.path.insert(0, {here!r})
from bench_versions import measure
print(json.dumps(measure(run, {target!r}, {repeat!r})))
"""


def measure(run: Callable[[], object], target: float, repeat: int,
            clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Seconds a call of ``run``, ``repeat`` times: one untimed call, then as many calls a
    timing as last at least ``target`` seconds (grown from one until a timing does), each timing
    divided by its calls. The timing that reached ``target`` is the first of the ``repeat``."""
    run()
    number, seconds = 1, _timed(run, 1, clock)
    while seconds < target:
        # Aim 5% past the target from the last timing, growing at most tenfold a step (a
        # first call can be quick by luck).
        number = min(10 * number, max(number + 1, math.ceil(1.05 * number * target / max(seconds, 1e-9))))
        seconds = _timed(run, number, clock)
    return [seconds / number] + [_timed(run, number, clock) / number for _ in range(repeat - 1)]


def _timed(run: Callable[[], object], number: int, clock: Callable[[], float]) -> float:
    start = clock()
    for _ in range(number):
        run()
    return clock() - start


#: The least coverage of the ratio's interval that gives a verdict (5 rounds give 93.8%).
MIN_COVERAGE = 0.9


class Comparison(NamedTuple):
    """One case's figures from its rounds' per-call seconds (the fastest repeat of each round)."""

    before: float  # median of the rounds, seconds a call
    after: float
    ratio: float  # median of the rounds' paired ratios after / before
    low: float  # the ratio's interval for the median
    high: float
    coverage: float  # the interval's exact coverage (order statistics of the paired ratios)
    spread_before: float  # largest round over smallest, less 1: a version against itself
    spread_after: float

    @property
    def verdict(self) -> str:
        if self.coverage < MIN_COVERAGE:
            return "too few rounds"
        if self.low <= 1 <= self.high:
            return "same"
        return "faster" if self.high < 1 else "slower"


def median_interval(values: list[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Distribution-free interval for the median of ``values`` (the sign test's): the order
    statistics ``j`` and ``n + 1 - j`` with ``j`` the largest that keeps the coverage
    ``1 - 2 P(Binomial(n, 1/2) < j)`` at least ``confidence``; with too few values for it, the
    extremes and their coverage. Returns ``(low, high, coverage)``."""
    ordered = sorted(values)
    n = len(ordered)

    def coverage(j: int) -> float:
        return 1 - 2 * sum(math.comb(n, i) for i in range(j)) / 2**n

    j = 1
    while j + 1 <= (n + 1) // 2 and coverage(j + 1) >= confidence:
        j += 1
    return ordered[j - 1], ordered[n - j], coverage(j)


def compare(before: list[float], after: list[float]) -> Comparison:
    """The figures of one case from the rounds' seconds a call of each version (round i of
    ``before`` and of ``after`` timed back to back)."""
    ratios = [a / b for a, b in zip(after, before)]
    low, high, coverage = median_interval(ratios)
    return Comparison(statistics.median(before), statistics.median(after), statistics.median(ratios),
                      low, high, coverage, max(before) / min(before) - 1, max(after) / min(after) - 1)


HEADER = (f"{'case':30} {'before s':>9} {'after s':>9} {'ratio':>6} {'interval':>11} {'cover':>5} "
          f"{'spread b/a':>11}  verdict")


def row(name: str, c: Comparison) -> str:
    """One printed line: medians, ratio, its interval and coverage, each version's own spread."""
    spread = f"{c.spread_before:.0%}/{c.spread_after:.0%}"
    return (f"{name:30} {c.before:9.4f} {c.after:9.4f} {c.ratio:6.2f} {c.low:5.2f}-{c.high:<5.2f} "
            f"{c.coverage:5.1%} {spread:>11}  {c.verdict}")


def checkout(ref: str | None, into: Path) -> Path:
    """The tree of ``ref`` (or the working tree, ``None``) as a folder holding ``cpstats/``."""
    if ref is None:
        return ROOT
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "cpstats"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def time_case(src: Path, case: str, target: float, repeat: int) -> float:
    """The fastest of ``repeat`` timings of ``case`` in a fresh interpreter on tree ``src``,
    seconds a call."""
    code = CHILD.format(src=str(src), case=case, here=str(HERE), target=target, repeat=repeat)
    out = subprocess.run([sys.executable, "-c", code], cwd=src, capture_output=True, text=True, check=True)
    return min(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after", nargs="?")
    parser.add_argument("--rounds", type=int, default=5, help="fresh interpreters a version (default 5)")
    parser.add_argument("--target", type=float, default=1.0,
                        help="seconds a timing lasts at least: calls are repeated until it does (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="timings a round, the fastest kept (default 3)")
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--record", action="store_true", help="write the table into docs/measurements.md")
    parser.add_argument("--under-load", action="store_true", help="with --record: record on a busy machine, marked")
    args = parser.parse_args()
    if args.rounds < 2 or args.repeat < 1 or not args.target > 0:
        parser.error("--rounds must be at least 2, --repeat at least 1 and --target above 0")
    cases = {k: c for k, c in CASES.items() if not args.only or args.only in k}
    from _record import recording

    with recording("bench_versions", enabled=args.record), tempfile.TemporaryDirectory() as tmp:
        trees = [checkout(args.before, Path(tmp) / "before"), checkout(args.after, Path(tmp) / "after")]
        print(f"{args.before} -> {args.after or 'working tree'}: {args.rounds} rounds, each the fastest of "
              f"{args.repeat} timings of at least {args.target:g} s, seconds a call")
        print(HEADER)
        for name, case in cases.items():
            times: list[list[float]] = [[], []]
            for r in range(args.rounds):
                for i in (0, 1) if r % 2 == 0 else (1, 0):  # who goes first alternates too
                    times[i].append(time_case(trees[i], case, args.target, args.repeat))
            print(row(name, compare(*times)), flush=True)


if __name__ == "__main__":
    main()
