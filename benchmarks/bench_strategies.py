"""Benchmark of the setting strategies: settings per second on one core (median of 5 runs).

Run ``python benchmarks/bench_strategies.py [greedy_hands] [ev_hands]``. ``greedy`` and
``random`` go through :func:`cpstats.thirteen.play.set_hands` (validation and natural detection
included); ``ev`` is timed through ``set_hands`` too (trained ``2-4`` tables, surrender and
natural decisions included), on one core and on two threads (the kernels release the GIL),
then the bare greedy and ev kernels. The machine's load is printed: another busy process
halves these figures.
"""

from __future__ import annotations

import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from cpstats.thirteen.play import _greedy_kernel
from cpstats.cards import deal
from cpstats.engine.registry import get_preset
from cpstats.thirteen.play import load_tables, set_hands
from cpstats.thirteen.play._kernel_args import _flush_best, _rank_args
from cpstats.thirteen.play.ev_setter import ev_search


def _median_rate(fn, n: int, runs: int = 5) -> tuple[float, list[float]]:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates), rates


def main(greedy_hands: int = 200_000, ev_hands: int = 20_000, runs: int = 5) -> dict[str, float]:
    variant = get_preset("2-4")
    rng = np.random.default_rng(20261129)
    hands = deal(rng, (greedy_hands + 3) // 4, 4).reshape(-1, 13)[:greedy_hands]
    ev_set = np.ascontiguousarray(hands[:ev_hands])
    tables = load_tables(variant)
    for name in ("greedy", "random", "ev"):  # compile
        set_hands(hands[:10], variant, setter=name, rng=1)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    out = {}
    for name, arr in (("greedy", hands), ("random", hands), ("ev", ev_set)):
        rate, rates = _median_rate(lambda: set_hands(arr, variant, setter=name, rng=1),
                                   len(arr), runs)
        out[name] = rate
        print(f"{name:>8}: {rate:12,.0f} settings/s (one core; runs {[round(r) for r in rates]})")
    with ThreadPoolExecutor(2) as pool:
        rate, rates = _median_rate(
            lambda: set_hands(ev_set, variant, setter="ev", executor=pool), len(ev_set), runs)
    out["ev_2_threads"] = rate
    print(f"{'ev x2':>8}: {rate:12,.0f} settings/s (two threads, set_hands(executor=...); "
          f"{rate / out['ev']:.2f}x one core)")
    key, _, nonflush, flush, _, _, _ = _rank_args(variant)
    best = _flush_best(variant.ranking.value)
    out_greedy = np.empty_like(hands)
    kernel, _ = _median_rate(lambda: _greedy_kernel.greedy_kernel(hands, key, nonflush, flush, best,
                                                                   out_greedy), len(hands), runs)
    out["greedy_kernel"] = kernel
    print(f"greedy kernel alone: {kernel:,.0f} settings/s on one core")
    single, _ = _median_rate(lambda: ev_search(ev_set, variant, tables), len(ev_set), runs)
    out["ev_search"] = single
    print(f"ev search kernel alone: {single:,.0f} settings/s on one core")
    return out


if __name__ == "__main__":
    from _record import arguments, recording

    with recording("bench_strategies"):
        main(*(int(a) for a in arguments()[:2]))
