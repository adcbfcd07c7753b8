"""Simulation benchmarks: deals/s with greedy and ev (both cores), rescore, memory of 10M deals.

Run: ``python benchmarks/bench_simulation.py [--memory]``. Prints medians of several runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from cpstats.workbench import simulate


def rate(fn, deals: int, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return deals / statistics.median(times)


def main() -> None:
    simulate("2-4", 2_000, setter="greedy", rng=1)  # compile
    simulate("2-4", 2_000, setter="ev", rng=1)
    n = 1 << 18
    serial = rate(lambda: simulate("2-4", n, setter="greedy", rng=1), n)
    with ThreadPoolExecutor(2) as pool:
        both = rate(lambda: simulate("2-4", n, setter="greedy", rng=1, executor=pool), n)
    print(f"greedy 2-4: {serial:,.0f} deals/s one core, {both:,.0f} deals/s two threads "
          f"({n:,} deals, median of 3)")
    m = 1 << 16
    with ThreadPoolExecutor(2) as pool:
        ev = rate(lambda: simulate("2-4", m, setter="ev", rng=1, executor=pool), m, runs=1)
    print(f"ev 2-4: {ev:,.0f} deals/s two threads -> 1M deals in {1e6 / ev:,.0f} s")
    kept = simulate("2-4", n, setter="greedy", rng=1, keep_hands=True)
    kept.rescore("1-6")
    print(f"rescore 2-4 -> 1-6: {rate(lambda: kept.rescore('1-6'), n):,.0f} deals/s (two threads)")
    if "--memory" in sys.argv:
        out = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "cpstats.apps.cli", "simulate",
                              "--preset", "2-4", "--deals", "10000000", "--setter", "greedy",
                              "--quiet", "--format", "csv"], capture_output=True, text=True)
        peak = [line.strip() for line in out.stderr.splitlines()
                if "Maximum resident" in line or "Elapsed" in line]
        print("cpstats simulate --deals 10000000 --setter greedy:", *peak)


if __name__ == "__main__":
    from _record import recording

    with recording("bench_simulation"):
        main()
