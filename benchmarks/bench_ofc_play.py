"""Speed and strength of the OFC placement strategies (issue 17 item 3), heads-up Pineapple.

Prints ms per hand (both players, all streets; median over repeats, one core) and its ratio to
the former policy (rollouts completed by ``greedy`` on every sample, top 12: kernel code 3)
timed in the same process; self-play foul, Fantasyland entry and royalty rates; seat-swapped
matches (same decks, seats swapped) of ``rollout`` against ``greedy``, ``random`` and the former
policy; and the strength curve (``rollout`` with 8 / 32 / 128 samples against ``greedy``, and
128 against 8), saved as ``benchmarks/ofc_strength.png``.

    python benchmarks/bench_ofc_play.py [--deals 400] [--selfplay 400]
    python benchmarks/bench_ofc_play.py --ceiling 512 --selfplay 300   # self-play only, 512 samples
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from cpstats.ofc.board import board_values  # noqa: E402
from cpstats.ofc.placement import DEFAULT_SAMPLES, DEFAULT_TOP  # noqa: E402
from cpstats.ofc.play import _next_state, _play_hand, play_hands  # noqa: E402
from cpstats.rules import get_preset  # noqa: E402
from cpstats.ofc.settlement import settle_boards  # noqa: E402

V = get_preset("ofc-pineapple")


def ms_per_hand(repeats: int = 7, hands: int = 10) -> tuple[float, float]:
    """Median ms a normal heads-up hand of the default ``rollout`` and of the former policy,
    interleaved on the same decks (so the machine's load falls on both alike)."""
    codes = {"rollout": np.full(2, 2, np.int64), "former": np.full(2, 3, np.int64)}
    none = np.zeros(2, np.int64)
    times: dict[str, list[float]] = {k: [] for k in codes}
    for r in range(repeats + 1):
        gen = np.random.default_rng(r)
        decks = [gen.permutation(52).astype(np.int8) for _ in range(hands)]
        for name, code in codes.items():
            t = time.perf_counter()
            for deck in decks:
                _play_hand(V, deck, code, none, DEFAULT_SAMPLES, DEFAULT_TOP, np.uint64(r))
            if r:  # the first round compiles
                times[name].append((time.perf_counter() - t) / hands * 1e3)
    return float(np.median(times["rollout"])), float(np.median(times["former"]))


def self_play(hands: int, samples: int | None = None) -> dict[str, tuple[float, float]]:
    """Foul, entry and royalty rates of normal hands in rollout self-play (mean, SE); an attempt
    is a board whose front would enter Fantasyland (QQ+) were it not fouled."""
    out = play_hands(V, hands, 2024, samples=samples)
    values = board_values(V, out.boards)
    normal = out.fantasy_cards == 0
    attempt = (V.kernel_tables().fl_entry_cards[values.ranks[..., 0]] > 0) & normal
    figures = {"foul": values.fouled[normal].astype(float),
               "entry": (values.fl_cards[normal] > 0).astype(float),
               "Fantasyland attempt (front QQ+)": attempt[normal].astype(float),
               "foul of an attempt": values.fouled[attempt].astype(float),
               "royalty": values.royalty.sum(-1)[normal].astype(float),
               "royalty (all boards, Fantasyland too)": values.royalty.sum(-1).ravel().astype(float)}
    return {k: (x.mean(), x.std(ddof=1) / np.sqrt(x.size)) for k, x in figures.items()}


def match(a: str, b: str, deals: int, samples_a: int | None = None,
          samples_b: int | None = None) -> tuple[float, float]:
    """Mean net per hand of ``a`` over ``b`` on the same decks with seats swapped, and its 95%
    half-width (t on the per-deal pair means; Fantasyland state carried within each run)."""
    def run(first: str, second: str, s1, s2) -> np.ndarray:
        boards = play_hands(V, deals, 99, strategies=(first, second), samples=(s1, s2)).boards
        return settle_boards(V, boards)
    d = DEFAULT_SAMPLES
    ab = run(a, b, samples_a or d, samples_b or d)[:, 0]
    ba = run(b, a, samples_b or d, samples_a or d)[:, 1]
    return _interval((ab + ba) / 2)


def _interval(pair: np.ndarray) -> tuple[float, float]:
    return float(pair.mean()), float(1.96 * pair.std(ddof=1) / np.sqrt(pair.size))


def match_former(deals: int) -> tuple[float, float]:
    """``rollout`` against the former policy (code 3, top 12), seat-swapped on common decks."""
    def run(codes: tuple[int, int]) -> np.ndarray:
        gen = np.random.default_rng(99)
        state = np.zeros(2, np.int64)
        boards = np.empty((deals, 2, 13), np.int8)
        for h in range(deals):
            deck = gen.permutation(52).astype(np.int8)
            seed = np.uint64(gen.integers(0, 2**63))
            boards[h], _ = _play_hand(V, deck, np.array(codes), state, DEFAULT_SAMPLES, DEFAULT_TOP, seed)
            state = _next_state(V, boards[h], state)
        return settle_boards(V, boards)
    return _interval((run((2, 3))[:, 0] + run((3, 2))[:, 1]) / 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--selfplay", type=int, default=400)
    parser.add_argument("--ceiling", type=int, default=0, metavar="SAMPLES",
                        help="only self-play with this many samples a decision (the approach's ceiling)")
    opts = parser.parse_args()
    if opts.ceiling:
        for k, (m, se) in self_play(opts.selfplay, opts.ceiling).items():
            print(f"self-play, {opts.ceiling} samples, {k}: {m:.3f} (SE {se:.3f}), {opts.selfplay} hands")
        return
    new, old = ms_per_hand()
    print(f"rollout, default {DEFAULT_SAMPLES} samples, top {DEFAULT_TOP}: {new:.1f} ms per heads-up hand "
          f"(former policy {old:.1f} ms, ratio {new / old:.2f}, same process)")
    for k, (m, se) in self_play(opts.selfplay).items():
        print(f"self-play {k}: {m:.3f} (SE {se:.3f}), {opts.selfplay} hands")
    for other in ("greedy", "random"):
        m, h = match("rollout", other, opts.deals)
        print(f"rollout vs {other}: {m:+.2f} +/- {h:.2f} a hand (95%), {opts.deals} deals x 2 seats")
    m, h = match_former(opts.deals)
    print(f"rollout vs former policy: {m:+.2f} +/- {h:.2f} a hand (95%), {opts.deals} deals x 2 seats")
    curve = []
    for s in (8, 32, 128):
        m, h = match("rollout", "greedy", opts.deals, s, s)
        curve.append((s, m, h))
        print(f"rollout({s}) vs greedy: {m:+.2f} +/- {h:.2f}")
    m, h = match("rollout", "rollout", opts.deals, 128, 8)
    print(f"rollout(128) vs rollout(8): {m:+.2f} +/- {h:.2f}")
    _plot(curve, (m, h), opts.deals)


def _plot(curve, head, deals: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s, m, h = (np.array(x) for x in zip(*curve))
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(s, m, yerr=h, marker="o", capsize=4, label="rollout(samples) vs greedy")
    ax.errorbar([128], [head[0]], yerr=[head[1]], marker="s", capsize=4, color="C3",
                label="rollout(128) vs rollout(8)")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("rollout samples per surviving option")
    ax.set_ylabel("net units a hand (95% CI, seat-swapped)")
    ax.set_title(f"OFC Pineapple heads-up: rollout strength ({deals} deals x 2 seats)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(Path(__file__).with_name("ofc_strength.png"), dpi=110)


if __name__ == "__main__":
    main()
