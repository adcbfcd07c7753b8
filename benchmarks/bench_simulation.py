"""Simulation benchmarks: deals/s with greedy and ev (both cores), rescore, and with ``--memory``
the peak memory (resident set, ``/usr/bin/time -v``) of CLI runs: 10M greedy deals, the default
``cpstats simulate`` (100,000 ev deals) and ``cpstats report``, and where a 100,000-deal
simulation's memory goes, stage by stage (the process's high-water mark, VmHWM).

Run: ``python benchmarks/bench_simulation.py [--memory]``. Prints medians of several runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
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


STAGES = """
import sys
def hwm():
    return next(int(l.split()[1]) // 1024 for l in open("/proc/self/status") if l.startswith("VmHWM"))
import numpy, pandas
marks = [("python, numpy, pandas", hwm())]
import numba
marks.append(("numba", hwm()))
import cpstats.apps.cli
marks.append(("import cpstats (its CLI)", hwm()))
from cpstats.workbench import simulate
simulate("2-4", 2_000, rng=1)
marks.append(("kernels loaded, ev tables read (2,000 deals)", hwm()))
result = simulate("2-4", 100_000, rng=2026)
marks.append(("100,000 ev deals", hwm()))
result.figures()
marks.append(("figures() (the exact naturals counted)", hwm()))
print("; ".join(f"{name} {mb} MB" for name, mb in marks))
"""


def peak(command: list[str]) -> str:
    """The wall time and peak resident set of ``command`` (``/usr/bin/time -v``)."""
    err = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True).stderr
    kb = next(int(line.rsplit(":", 1)[1]) for line in err.splitlines() if "Maximum resident" in line)
    wall = next(line.rsplit("): ", 1)[1] for line in err.splitlines() if "Elapsed" in line)
    return f"{kb // 1024} MB peak, {wall} wall"


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
        cli = [sys.executable, "-m", "cpstats.apps.cli"]
        print("cpstats simulate --deals 10000000 --setter greedy:",
              peak([*cli, "simulate", "--preset", "2-4", "--deals", "10000000", "--setter", "greedy",
                    "--quiet", "--format", "csv"]))
        print("cpstats simulate --preset 2-4 (100,000 ev deals):",
              peak([*cli, "simulate", "--preset", "2-4", "--quiet", "--format", "csv"]))
        with tempfile.TemporaryDirectory() as out:
            print("cpstats report (200,000 ev deals):", peak([*cli, "report", "--out", out, "--quiet"]))
        stages = subprocess.run([sys.executable, "-c", STAGES], capture_output=True, text=True, check=True)
        print("high-water mark by stage:", stages.stdout.strip())


if __name__ == "__main__":
    from _record import recording

    with recording("bench_simulation"):
        main()
