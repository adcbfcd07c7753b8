"""Benchmark of the ev tables trained on the fly: time, strength, and statistics.

Run ``python benchmarks/bench_training.py [runs] [match_deals] [self_play_deals]``. Prints:

1. Training from nothing: for each custom variant, ``runs`` trainings into an empty cache
   folder (``CPSTATS_CACHE_DIR`` pointed at a fresh temporary folder each time), timed through
   :func:`cpstats.thirteen.play.load_tables`, as a user's first ``set_hands`` or ``simulate`` would
   meet them (threads on every core); the median, and once the same training serial (one
   thread) for the threads' speedup. The load average before and after each run says how busy
   the shared machine was.
2. Strength: duplicate matches under each custom variant between ``ev`` with its own tables
   and ``ev`` with the borrowed ``2-4`` tables (:func:`cpstats.thirteen.play.match`, mean per hand
   and 95% CI), each way round (one seat against three of the other); how often each sets
   three of a kind in front, on the same hands, against ``ev`` under plain ``2-4``, and how
   many hands the two tables set alike.
3. ``2-4`` tables trained on the fly against the shipped ones: a duplicate match under ``2-4``.
4. Heads-up ``2-4`` self-play with ``ev``: the scoop rate (either player scoops) and the SD of a
   seat's result per hand, with their standard errors.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from cpstats.cards import deal
from cpstats.hands.ranking import rank3
from cpstats.engine.registry import load_variant
from cpstats.workbench import simulate
from cpstats.thirteen.play import EvSetter, ev, load_tables, match, set_hands
from cpstats.thirteen.play.row_tables import CACHE_ENV, QUICK_TRAINING
from cpstats.thirteen.play.training import train_tables

CUSTOM = ("2-4(royalties=R-FUTUREBET,royalties.front_trips=10)",
          "2-4(scoring.scoop_bonus=5,royalties=R-FUTUREBET,royalties.front_trips=10)")


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def _with_tables(tables, name: str):
    """``ev`` with fixed tables, named for the match's printout."""
    def setter(hands, variant, *, rng=None):
        return ev(hands, variant, rng=rng, tables=tables)

    setter.__name__ = name
    return setter


def time_training(variant: str, runs: int):
    """The tables of the last of ``runs`` trainings from an empty cache, timed as
    ``load_tables`` meets them."""
    seconds, tables = [], None
    for run in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            os.environ[CACHE_ENV] = folder
            before = _load()
            start = time.perf_counter()
            tables = load_tables(variant)
            seconds.append(time.perf_counter() - start)
            print(f"  run {run + 1}: {seconds[-1]:.1f} s ({tables.meta['rounds']} rounds, final gap "
                  f"{tables.meta['final_gap']:.4f}; {before} before, {_load()} after)", flush=True)
    print(f"  median {statistics.median(seconds):.1f} s over {runs} runs on {os.cpu_count()} cores")
    return tables


def time_serial(variant: str) -> float:
    start = time.perf_counter()
    train_tables(variant, **QUICK_TRAINING)
    seconds = time.perf_counter() - start
    print(f"  serial (one thread): {seconds:.1f} s ({_load()} after)")
    return seconds


def front_trips_rate(variant: str, hands: np.ndarray, tables=None) -> float:
    """Share of ``hands`` ``ev`` sets with three of a kind in front under ``variant``."""
    front = set_hands(hands, variant, setter=EvSetter(tables=tables)).settings[:, :3]
    return float(np.mean(rank3(front, check=False) >= 455 - 13))  # the 13 trips rank highest


def strength(variant: str, tables, deals: int, hands: np.ndarray) -> None:
    borrowed = _with_tables(load_tables("2-4"), "ev[2-4 tables]")
    result = match(variant, _with_tables(tables, "ev[own tables]"), borrowed, deals=deals,
                   rng=15)
    print(f"  {result}")
    print(f"  {match(variant, borrowed, _with_tables(tables, 'ev[own tables]'), deals=deals, rng=15)}")
    own, plain = front_trips_rate(variant, hands, tables), front_trips_rate("2-4", hands)
    lent = front_trips_rate(variant, hands, "2-4")
    print(f"  front trips: {own:.4%} of hands under {variant} (own tables), {lent:.4%} (2-4 "
          f"tables), {plain:.4%} under 2-4 (ev, the same {len(hands):,} hands)")
    same = np.mean((set_hands(hands, variant, setter=EvSetter(tables=tables)).settings
                    == set_hands(hands, variant, setter=EvSetter(tables="2-4")).settings).all(axis=1))
    print(f"  own and 2-4 tables set {same:.2%} of the hands the same")


def fresh_against_shipped(deals: int) -> None:
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        start = time.perf_counter()
        fresh = train_tables("2-4", **QUICK_TRAINING, executor=pool)
    print(f"  trained 2-4 on the fly in {time.perf_counter() - start:.1f} s ({_load()})")
    result = match("2-4", _with_tables(fresh, "ev[2-4 on the fly]"),
                   _with_tables(load_tables("2-4"), "ev[2-4 shipped]"), deals=deals, rng=16)
    print(f"  {result}")


def heads_up_self_play(deals: int) -> None:
    r = simulate("2-4(players=2)", deals, setter="ev", rng=2026)
    sc = r.scoops()
    k = int(sc["scoops"].sum())  # the two directions are disjoint events of a deal
    p = k / deals
    m = r.moments()
    sd = float(m["sd"].iloc[0])
    # SE of a sample SD: sd * sqrt((kurtosis - 1) / (4 n)), kurtosis = excess + 3
    se_sd = sd * np.sqrt((float(m["kurtosis"].iloc[0]) + 2) / (4 * deals))
    print(f"  {deals:,} deals ({r.setter}): scoop {p:.4%} +- {np.sqrt(p * (1 - p) / deals):.4%}"
          f" (SE), SD {sd:.4f} +- {se_sd:.4f} (SE)")


def main(runs: int = 3, match_deals: int = 20_000, self_play_deals: int = 400_000) -> None:
    print(f"{os.cpu_count()} cores, {_load()}; quick training {QUICK_TRAINING}")
    hands = deal(np.random.default_rng(20261129), 25_000, 4).reshape(-1, 13)
    set_hands(hands[:10], "2-4")  # compile
    for variant in CUSTOM:
        load_variant(variant)
        print(f"\n{variant}\n1. training from nothing")
        tables = time_training(variant, runs)
        print("2. strength (the tables of the last run)")
        strength(variant, tables, match_deals, hands)
    print("\n3. 2-4 on the fly against the shipped 2-4 tables")
    fresh_against_shipped(match_deals)
    print("\n4. heads-up 2-4 self-play")
    heads_up_self_play(self_play_deals)
    print(f"\nthreads' speedup on {CUSTOM[0]}")
    time_serial(CUSTOM[0])


if __name__ == "__main__":
    from _record import arguments, recording

    with recording("bench_training"):
        main(*(int(a) for a in arguments()))
