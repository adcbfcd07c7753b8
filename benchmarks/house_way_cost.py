"""The house way's cost to the bank in the ``banked`` preset, against the ``ev`` bank.

Duplicate deals: the players (seats 1-3) are set by ``ev`` once; the bank (seat 0) is set by
``ev``, by the house way and by ``greedy`` (a weak baseline) on the same deals, and each deal is
settled three times (the settlement seats any setting in any seat, so the field is mixed
directly). The figure is the bank's mean net a deal (all three players, units, before house
charges) and the paired difference against the ev bank, with a 95% interval (Student's t,
deals independent). Also the house way's speed on 100,000 hands.

Run: ``python benchmarks/house_way_cost.py [--deals 4000] [--seed 48]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

from cpstats.cards.codes import deal
from cpstats.thirteen.play import set_hands
from cpstats.thirteen.play.house_way import house_way
from cpstats.thirteen.rules.variant import resolve_variant
from cpstats.thirteen.settlement.engine import settle_many


def _interval(x: np.ndarray) -> tuple[float, float, float]:
    mean = float(x.mean())
    half = float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))
    return mean, mean - half, mean + half


def bank_nets(deals: int, seed: int) -> dict[str, np.ndarray]:
    """The bank's net a deal when it sets by each setter, players by ev, on the same deals."""
    v = resolve_variant("banked")
    cards = deal(np.random.default_rng(seed), deals, v.players)
    flat = cards.reshape(-1, 13)
    field = set_hands(flat, v, setter="ev")
    settings = field.settings.reshape(deals, v.players, 13)
    naturals = field.natural_bits(flat, v).reshape(deals, v.players)
    surrender = field.surrender.reshape(deals, v.players)
    bank = np.ascontiguousarray(cards[:, 0])
    nets = {}
    for name in ("ev", "house-way", "greedy"):
        d = set_hands(bank, v, setter=name)
        s, n, u = settings.copy(), naturals.copy(), surrender.copy()
        s[:, 0], n[:, 0], u[:, 0] = d.settings, d.natural_bits(bank, v), d.surrender
        net, _ = settle_many(v, s, naturals=n, surrender=u if u.any() else None)
        nets[name] = net[:, 0]
    return nets


def speed(hands: int = 100_000) -> float:
    """Seconds to set ``hands`` hands by the house way (compiled already), one thread."""
    v = resolve_variant("banked")
    dealt = deal(np.random.default_rng(1), hands, 1).reshape(-1, 13)
    house_way(dealt[:10], v)
    start = time.perf_counter()
    house_way(dealt, v)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    nets = bank_nets(args.deals, args.seed)
    print(f"banked preset, {args.deals:,} duplicate deals, seed {args.seed}; players set by ev; "
          "the bank's net a deal (3 players, units, before house charges), 95% CI")
    for name, net in nets.items():
        m, lo, hi = _interval(net)
        line = f"  bank set by {name:9s}: {m:+.3f} ({lo:+.3f}..{hi:+.3f})"
        if name != "ev":
            dm, dlo, dhi = _interval(net - nets["ev"])
            line += f"; against the ev bank {dm:+.3f} ({dlo:+.3f}..{dhi:+.3f}), a player {dm / 3:+.3f}"
        print(line)
    print(f"house way: 100,000 hands set in {speed():.2f} s (one thread)")


if __name__ == "__main__":
    main()
