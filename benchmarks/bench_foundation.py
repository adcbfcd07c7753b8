"""Foundation benchmarks: rank5, rank3, deal + detect naturals, memory of ``cpstats naturals``.

Also the price of the default card check, which must stay cheap to stay on: each public entry that
checks cards (``rank5``, ``rank3``, ``natural_mask``, ``is_foul``) timed with ``check=True`` (the
default, validated in the kernel) and ``check=False``, interleaved in the same process; the ratio of
the medians is the checked speed as a fraction of the unchecked one (target >= 0.8), and for rank5
on two threads too (each ranks half the hands into its half of ``out=``).

Why checked rank5 loses more on two threads than on one: not memory (the check reads each hand's
bytes once, in the ranking pass, plus a 2 KB mask table) and not a reduction (the kernel stops at
the first bad hand). It is the kernel's own work: the check adds five mask loads, a popcount and a
branch a hand and costs the loop its unrolling, 48 uops and 17 loads a hand against 37 and 11 on
the hot (non-flush) path; llvm-mca's znver3 model puts both at its 6-wide dispatch limit, 8.0
against 6.4 cycles a hand (ratio 0.79). One thread hides part of it behind the ranking table's L2
latency (0.86 measured quiet); two threads that share a core's ports, as this machine's two vCPUs
behave, fill those stalls and run at that limit (0.74 measured quiet). Variants tried, ratio to
unchecked by the model and measured (one thread, CPU time, load 5-7): bits made by shifts instead
of loads (63 uops) 0.59 and 0.59; the loop without an exit (bad hands flagged, tables padded)
0.70-0.78 measured; the mask shared with the flush test (41 uops) 0.90 by the model but 0.75-0.79
measured, for a reason the model does not show; the check as a vectorised byte pass over chunks of 1,024
hands ahead of the unchecked loop (2026-12-03, 40 runs of each interleaved one by one, 2M hands): 0.78 on one
thread and 0.86 on two, the fused check 0.79 and 0.85 in the same runs, and the chunked loop with no check at
all 0.78 and 0.85, so the chunking costs what the check saves. None is kept: 0.8 on
one thread is not reached, and two threads reach it or not by how the runs interleave.

Prints medians of several runs on one core, with baselines (phevaluator's and eval7's per-hand
Python calls, if installed) measured in the same process. Run: ``python benchmarks/bench_foundation.py``.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from cpstats import rank3, rank5
from cpstats.cards.blocks import root_seed, shuffled_decks
from cpstats.thirteen.frequencies import _natural_block
from cpstats.thirteen.naturals.detect import natural_mask
from cpstats.hands.setting import is_foul

RUNS = 5


def median_rate(fn, items: int, runs: int = RUNS) -> float:
    fn()  # compile and warm caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return items / statistics.median(times)


def checked_ratio(name: str, fn, items: int, rounds: int = 3) -> float:
    """Print checked and unchecked rates of ``fn(check=...)`` (medians of interleaved runs)."""
    fn(check=True)
    fn(check=False)
    checked, unchecked = [], []
    for _ in range(rounds):
        unchecked.append(median_rate(lambda: fn(check=False), items))
        checked.append(median_rate(lambda: fn(check=True), items))
    c, u = statistics.median(checked), statistics.median(unchecked)
    print(f"{name:<22} checked {c / 1e6:8.1f} M/s, unchecked {u / 1e6:8.1f} M/s, ratio {c / u:.2f}")
    return c / u


def two_thread_ratio(name: str, hands: np.ndarray, out: np.ndarray, rounds: int = 7) -> float:
    """Print checked and unchecked rates of rank5 on two threads, each ranking half the hands into
    its half of ``out`` (medians of interleaved runs, as :func:`checked_ratio`)."""
    half = len(hands) // 2
    parts = [(hands[:half], out[:half]), (hands[half:], out[half:])]
    with ThreadPoolExecutor(2) as pool:
        def both(check: bool) -> None:
            list(pool.map(lambda part: rank5(part[0], check=check, out=part[1]), parts))

        return checked_ratio(name, both, len(hands), rounds=rounds)


def main() -> None:
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}, numpy {np.__version__}")
    root = root_seed(1)
    decks = shuffled_decks(root, 0, 2_000_000)
    hands5 = np.ascontiguousarray(decks[:, :10].reshape(-1, 5))  # 4M random five-card hands
    hands5 = np.concatenate([hands5] * 3)[:10_000_000]
    hands3 = np.ascontiguousarray(decks[:, :51].reshape(-1, 3))[:10_000_000]
    buf5 = np.empty(len(hands5), dtype=np.uint16)
    buf3 = np.empty(len(hands3), dtype=np.uint16)
    r5a = median_rate(lambda: rank5(hands5, check=False), len(hands5))
    r5 = median_rate(lambda: rank5(hands5, check=False, out=buf5), len(hands5))
    r3a = median_rate(lambda: rank3(hands3, check=False), len(hands3))
    r3 = median_rate(lambda: rank3(hands3, check=False, out=buf3), len(hands3))
    print(f"rank5: {r5 / 1e6:8.1f} M hands/s with an out= buffer, {r5a / 1e6:.1f} M/s allocating "
          f"(10M random hands, median of {RUNS})")
    print(f"rank3: {r3 / 1e6:8.1f} M hands/s with an out= buffer, {r3a / 1e6:.1f} M/s allocating")
    print("the default card check (in the kernel) against check=False, same process:")
    checked_ratio("rank5 (out=)", lambda check: rank5(hands5, check=check, out=buf5), len(hands5))
    checked_ratio("rank5 (allocating)", lambda check: rank5(hands5, check=check), len(hands5))
    two = hands5[:2_000_000]
    two_thread_ratio("rank5 (out=, 2 thr)", two, buf5[: len(two)])
    checked_ratio("rank5 (out=, 2M)", lambda check: rank5(two, check=check, out=buf5[: len(two)]), len(two))
    checked_ratio("rank3 (out=)", lambda check: rank3(hands3, check=check, out=buf3), len(hands3))
    hands13 = np.ascontiguousarray(decks[:1_000_000].reshape(-1, 13))
    checked_ratio("natural_mask (13)", lambda check: natural_mask(hands13, check=check),
                  len(hands13))
    checked_ratio("is_foul (13)", lambda check: is_foul(hands13, check=check), len(hands13))
    sample = hands5[:20_000].tolist()
    try:
        from phevaluator import evaluate_cards

        base = median_rate(lambda: [evaluate_cards(*h) for h in sample], len(sample), runs=3)
        print(f"phevaluator per-hand call: {base / 1e6:8.3f} M hands/s -> rank5 is {r5 / base:,.0f}x")
    except ImportError:
        print("phevaluator not installed: no baseline")
    try:
        import eval7

        cards = [[eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in h] for h in sample]
        base = median_rate(lambda: [eval7.evaluate(h) for h in cards], len(cards), runs=3)
        print(f"eval7 per-hand call:       {base / 1e6:8.3f} M hands/s -> rank5 is {r5 / base:,.0f}x")
    except ImportError:
        print("eval7 not installed: no baseline")
    deals = 1 << 16
    rates = []
    for block in range(RUNS + 1):
        start = time.perf_counter()
        _natural_block(root.entropy, root.spawn_key, block, deals, 4, True)
        rates.append(deals / (time.perf_counter() - start))
    print(f"deal + detect naturals: {statistics.median(rates[1:]) / 1e6:6.2f} M four-handed deals/s "
          f"(block of {deals}, median of {RUNS})")
    if "--memory" in sys.argv:
        out = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "cpstats.apps.cli", "naturals",
                              "--deals", "10000000", "--quiet", "--format", "csv"],
                             capture_output=True, text=True)
        peak = [l for l in out.stderr.splitlines() if "Maximum resident" in l]
        wall = [l for l in out.stderr.splitlines() if "Elapsed" in l]
        print("cpstats naturals --deals 10000000:", *(l.strip() for l in peak + wall))


if __name__ == "__main__":
    from _record import recording

    with recording("bench_foundation"):
        main()
