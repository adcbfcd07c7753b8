"""Benchmark of the vectorized settlement: four-handed deals per second under ``2-4`` with
royalties (R-FUTUREBET) and naturals (NS-PAGAT-TYPICAL), on one core.

Run ``python benchmarks/bench_settlement.py [deals]``; prints the median of 5 runs. Settings are
random splits of dealt hands (a realistic mix of legal and fouled settings); declared naturals
are every natural the hands hold, found once before timing (detection is not settlement).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from cpstats.cards import deal
from cpstats.thirteen.naturals.detect import natural_mask
from cpstats.thirteen.settlement import settle_many
from cpstats.engine.registry import load_variant

VARIANT = "2-4(royalties=R-FUTUREBET,naturals=NS-PAGAT-TYPICAL)"


def main(deals: int = 1_000_000, runs: int = 5) -> float:
    variant = load_variant(VARIANT)
    rng = np.random.default_rng(20261129)
    hands = deal(rng, deals, 4)
    # Sorting by rank makes many legal settings with royalties; half stay as dealt (many fouls).
    sorted_hands = np.sort(hands, axis=-1)
    settings = np.where((rng.random((deals, 4)) < 0.5)[..., None], sorted_hands, hands)
    settings = np.ascontiguousarray(settings)
    naturals = natural_mask(settings, check=False)
    settle_many(variant, settings[:100], naturals=naturals[:100])  # compile
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        settle_many(variant, settings, naturals=naturals)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"{VARIANT}: {deals:,} four-handed deals, median of {runs}: {median:.3f} s "
          f"= {deals / median / 1e6:.2f} M deals/s")
    return deals / median


if __name__ == "__main__":
    from _record import arguments, recording

    with recording("bench_settlement"):
        main(*(int(a) for a in arguments()[:1]))
