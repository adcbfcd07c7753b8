"""Solve benchmark (acceptance of the rules-for-a-target issue): each of the four questions of
notebook 07 solved at its default budget (``deals=None``: 20,000 deals a candidate, open face 200
hands) with ``ev`` on 2 threads must take at most 5 minutes, median of ``--repeats`` runs.

Run: ``python benchmarks/bench_solve.py [--repeats 3] [--only NAME]``. The kernels are compiled
first (not part of a solve). ev's tables are cached after the first run of a strategy-relevant
question (the front-trips royalty trains one set a candidate); ``--fresh-cache`` times every
repeat with an empty cache, as on a first run. Prints each run's time, the median, the solution
and the verdict.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

LIMIT_SECONDS = 300
QUESTIONS = {
    "commission": ("banked", "bank.commission", "house_edge", 0.015, (0.0, 0.1)),
    "rake_percent": ("2-4(rake=percent,rake.cap=1)", "rake.percent", "rake_share", 0.08, (0.0, 0.3)),
    "front_trips": ("2-4(royalties=R-FUTUREBET)", "royalties.front_trips", "sd", 7.0, (0, 20)),
    "open_face": ("ofc-pineapple(rake=percent,rake.cap=1)", "rake.percent", "rake_share", 0.04, (0.0, 0.3)),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=tuple(QUESTIONS), default=None)
    parser.add_argument("--fresh-cache", action="store_true")
    args = parser.parse_args()
    import cpstats

    cpstats.simulate("2-4", 200, setter="greedy", rng=1)  # compile outside the timings
    cpstats.simulate("ofc-pineapple", 4, setter="greedy", rng=1)
    for name, (variant, parameter, metric, target, bounds) in QUESTIONS.items():
        if args.only and name != args.only:
            continue
        seconds = []
        for i in range(args.repeats):
            if args.fresh_cache:
                os.environ["CPSTATS_CACHE_DIR"] = tempfile.mkdtemp(prefix="cpstats-bench-solve-")
            start = time.perf_counter()
            with ThreadPoolExecutor(2) as pool:
                s = cpstats.solve(variant, parameter, metric, target, bounds=bounds, rng=2026 + i,
                                  executor=pool)
            seconds.append(time.perf_counter() - start)
            print(f"{name} run {i + 1}: {seconds[-1]:.1f} s; {s.sentence()}", flush=True)
        median = statistics.median(seconds)
        verdict = "ok" if median <= LIMIT_SECONDS else "TOO SLOW"
        print(f"{name}: median {median:.1f} s of {len(seconds)} (limit {LIMIT_SECONDS} s): {verdict}", flush=True)


if __name__ == "__main__":
    main()
