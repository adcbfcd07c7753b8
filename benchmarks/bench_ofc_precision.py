"""Open face at designer precision by default, its acceptance check:
``cpstats sweep ofc-pineapple royalties.front.QQ 6,7,8,9`` at its default (``fast``, every point
grown until Fantasyland entry and foul rates are within +-0.5 points and royalties a board within
+-0.1, 95%, at most 30,000 hands a point) must finish in at most 5 minutes on 2 cores, every point
played by the same play; and the open-face PAR sheet at its default (``cpstats par ofc-pineapple``:
the same precision, its sensitivity section included), timed the same way.

Run: ``python benchmarks/bench_ofc_precision.py [--skip-sheet] [--record [--under-load]]``. The
kernels are compiled first (not counted: once after install). Prints the wall time of each (with
the load average before and after, the machine being shared), the stages and the hands the precision
took, the half-widths reached, and the play of every point.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from contextlib import redirect_stderr
from io import StringIO

LIMIT_SECONDS = 300
COMMAND = ["sweep", "ofc-pineapple", "royalties.front.QQ", "6,7,8,9", "--quiet"]


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _sweep() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from cpstats.engine.sequential import until_record
    from cpstats.workbench import sweep

    before = _load()
    start, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(2) as pool:  # what the command runs on (--scheduler threads, 2 cores)
        table = sweep("ofc-pineapple", "royalties.front.QQ", [6, 7, 8, 9], rng=2026, executor=pool)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    a = table.attrs
    stop = until_record(a, "hands a point")
    verdict = "PASS" if seconds <= LIMIT_SECONDS and stop["reached"] and len(set(a["plays"])) == 1 else "FAIL"
    print(f"cpstats {' '.join(COMMAND[:4])} (default: {a['strategy']}, seed 2026, 2 threads): {seconds:.1f} s "
          f"wall, load average {before} before and {_load()} after ({verdict}: limit {LIMIT_SECONDS} s, the "
          "precision reached, one play)")
    hands = len(a["plays"]) * sum(s["deals"] for s in a["until"]["stages"])
    print(f"  CPU {cpu:.1f} s for {hands:,} hands played in all (stages included), {1000 * cpu / hands:.2f} ms a "
          f"hand: about {cpu / 2:.0f} s on 2 free cores")
    stages = ", ".join(f"{s['deals']:,}" for s in a["until"]["stages"])
    print(f"  stages (hands a point): {stages}")
    print(f"  {stop['note']}")
    print(f"  every point's play: {', '.join(sorted(set(a['plays'])))} "
          f"({len(a['plays'])} points; street models {[m['digest'] for m in a['street_models']]})")
    shown = table[table["metric"].isin(["fl_entry_rate", "foul_rate", "royalty"])]
    print(shown[["value", "metric", "estimate", "ci_low", "ci_high", "diff", "diff_ci_low",
                 "diff_ci_high"]].to_string(index=False, float_format=lambda x: f"{x:.4f}"))


def _sheet() -> None:
    from cpstats.apps.cli import main

    before = _load()
    start, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="bench-ofc-par-") as out:
        log = StringIO()
        with redirect_stderr(log):
            main(["par", "ofc-pineapple", "--out", out, "--workers", "2"])
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"cpstats par ofc-pineapple (default: fast, precision, sensitivity, seed 2026, 2 threads): "
          f"{seconds:.1f} s wall, CPU {cpu:.1f} s (about {cpu / 2:.0f} s on 2 free cores), load average {before} "
          f"before and {_load()} after"
          + (f"; stderr: {log.getvalue().strip()}" if log.getvalue().strip() else ""))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-sheet", action="store_true", help="time the sweep only")
    parser.add_argument("--record", action="store_true", help="also write the output into docs/measurements.md")
    parser.add_argument("--under-load", action="store_true",
                        help="with --record: record on a busy machine too, marked as measured under load")
    args = parser.parse_args()
    import cpstats

    start = time.perf_counter()
    cpstats.simulate("ofc-pineapple", 40, setter="fast", rng=1)  # compile the kernels
    print(f"compile and warm-up: {time.perf_counter() - start:.1f} s (not counted)")
    _sweep()
    if not args.skip_sheet:
        _sheet()


if __name__ == "__main__":
    from _record import recording

    with recording("bench_ofc_precision"):
        main()
