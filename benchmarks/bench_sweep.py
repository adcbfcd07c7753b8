"""Sweep benchmark (its acceptance test): ``royalties.front_trips`` of ``2-4`` over 5 values at
100,000 deals each with ``ev`` on 2 threads must finish in <= 5 minutes, ev's tables trained per
point included.

Run: ``python benchmarks/bench_sweep.py [--deals N] [--out DIR]``. The kernels are compiled first
(once after install, not part of a sweep); the tables cache is a fresh folder, so every point
whose rules have no shipped tables trains its own, as on a first run. Prints the time of each
point (and where its tables came from) and the total; ``--out`` writes the table and charts.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

VALUES = [0, 2, 5, 10, 20]
LIMIT_SECONDS = 300


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--out", default=None)
    parser.add_argument("--record", action="store_true", help="also write the output into docs/measurements.md")
    parser.add_argument("--under-load", action="store_true",
                        help="with --record: record on a busy machine too, marked as measured under load")
    args = parser.parse_args()
    os.environ["CPSTATS_CACHE_DIR"] = tempfile.mkdtemp(prefix="cpstats-bench-sweep-")

    from cpstats.workbench import simulate
    from cpstats.workbench import sweep

    start = time.perf_counter()
    simulate("2-4", 2_000, setter="ev", rng=1)  # compile the kernels (shipped tables)
    print(f"compile and warm-up: {time.perf_counter() - start:.1f} s (not counted)")
    marks: list[float] = []
    start = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        table = sweep("2-4", "royalties.front_trips", VALUES, deals=args.deals, setter="ev", rng=2026,
                      executor=pool, on_point=lambda i, v: marks.append(time.perf_counter()))
    total = time.perf_counter() - start
    marks.append(start + total)
    for i, (value, setter) in enumerate(zip(VALUES, table.attrs["setters"])):
        print(f"  front_trips={value:>3}: {marks[i + 1] - marks[i]:6.1f} s  ({setter})")
    verdict = "PASS" if total <= LIMIT_SECONDS else "FAIL"
    print(f"sweep of royalties.front_trips over {len(VALUES)} values, {args.deals:,} deals each, ev, "
          f"2 threads: {total:.1f} s ({verdict}: limit {LIMIT_SECONDS} s)")
    sd = table[table["metric"] == "sd"][["value", "estimate", "ci_low", "ci_high", "diff",
                                         "diff_ci_low", "diff_ci_high"]]
    print(sd.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    if args.out:
        from cpstats.apps.sweep_chart import save_sweep

        print("wrote", ", ".join(str(p) for p in save_sweep(table, args.out)))


if __name__ == "__main__":
    from _record import recording

    with recording("bench_sweep"):
        main()
