"""Benchmark of the exact Fantasyland solver: median ms a hand of 13..17 cards.

Run ``python benchmarks/bench_fantasyland.py [hands]``. One thread (the kernel is serial; numba
is held to one thread), ``ofc-pineapple-progressive`` tables (stay B) at its default stay value,
``hands`` random deals a size (default 300) after one compiling call. Times are the thread's
CPU time (``time.thread_time``), so that other work on a shared machine does not inflate them.
The baseline, in the same
process, is brute force at 13 cards: all 72,072 settings ranked and valued in numpy, the way the
tests check exactness. Acceptance: <= 50 ms a 14-card hand.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from cpstats.hands.ranking import rank3, rank5  # noqa: E402
from cpstats.hands.setting import split_positions  # noqa: E402
from cpstats.ofc import _fantasy_kernel as fk  # noqa: E402
from cpstats.ofc.fantasyland import estimate_stay_value, kernel_args  # noqa: E402
from cpstats.engine.registry import get_preset  # noqa: E402

VARIANT = "ofc-pineapple-progressive"


def brute13(cards: np.ndarray, tables, stay_value: float) -> float:
    """Best value of 13 cards over all 72,072 settings (numpy)."""
    st = cards.astype(np.uint8)[split_positions(ordered=True)]
    f = rank3(st[:, :3], check=False).astype(np.int64)
    m = rank5(st[:, 3:8], check=False).astype(np.int64)
    b = rank5(st[:, 8:], check=False).astype(np.int64)
    clean = (b >= m) & (tables.middle_common[m] >= tables.front_common[f])
    stays = tables.fl_stay_front[f] | tables.fl_stay_middle[m] | tables.fl_stay_back[b]
    value = tables.front_royalty[f] + tables.middle_royalty[m] + tables.back_royalty[b] + stays * stay_value
    return float(np.where(clean, value, -np.inf).max())


def _time_sizes(hands: int, stay_value: float) -> dict[int, list[float]]:
    args = kernel_args(VARIANT)
    rng = np.random.default_rng(20261717)
    times: dict[int, list[float]] = {}
    for n in range(13, 18):
        board, discards = np.empty(13, dtype=np.int8), np.empty(n - 13, dtype=np.int8)
        times[n] = []
        for _ in range(hands):
            cards = rng.permutation(52)[:n].astype(np.int8)
            start = time.thread_time()
            fk.solve_kernel(cards, *args, stay_value, board, discards)
            times[n].append(1000 * (time.thread_time() - start))
    return times


def main(hands: int = 300) -> dict[int, float]:
    variant = get_preset(VARIANT)
    stay_value = estimate_stay_value(variant)  # the solver's default (and its compile)
    times = _time_sizes(hands, stay_value)
    rng = np.random.default_rng(7)
    tables = variant.kernel_tables()
    brute = []
    for _ in range(max(5, hands // 20)):
        cards = rng.permutation(52)[:13]
        start = time.thread_time()
        brute13(cards, tables, stay_value)
        brute.append(1000 * (time.thread_time() - start))
    print(f"{VARIANT}, stay value {stay_value:.2f}, {hands} hands a size, one thread, CPU ms")
    print("cards  median ms  p90 ms  max ms")
    for n, t in times.items():
        print(f"{n:5d}  {statistics.median(t):9.3f}  {np.percentile(t, 90):6.2f}  {max(t):6.1f}")
    ratio = statistics.median(brute) / statistics.median(times[13])
    print(f"baseline: numpy brute force at 13 cards {statistics.median(brute):.2f} ms median, "
          f"solver {ratio:.0f}x faster")
    return {n: statistics.median(t) for n, t in times.items()}


if __name__ == "__main__":
    from _record import arguments, recording

    with recording("bench_fantasyland"):
        main(*(int(a) for a in arguments()[:1]))
