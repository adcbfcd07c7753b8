"""Speed and strength of the OFC placement strategies, heads-up Pineapple.

Strength is claimed only from duplicate matches: every deal is played twice on the same deck
with the seats swapped, Fantasyland carried from hand to hand within each seating (a player who
enters plays the next hand with the exact solver, so the value of entering counts), and the
result is the mean net a hand of the first bot over the second with a 95% interval (Student's t
on batch means of :data:`BATCH` deals: consecutive hands share Fantasyland states). Printed:
ms of CPU per hand (both players, all streets; median over repeats, one core) of
``rollout`` (the default: the rollout with an exact endgame, the fixed-point Fantasyland value and
learned street values), ``rollout-exact`` (the previous
default, without street models), ``rollout-v1`` (the first rollout, frozen) and ``greedy``; self-play foul, Fantasyland entry and royalty rates; duplicate matches of
``rollout`` against ``rollout-v1``, ``greedy`` and ``random``, of ``rollout-v1`` against
``greedy`` (the yardstick of the gain over a weak field) and of ``rollout-v1`` against the former
policy (kernel code 3); and the strength curve of ``rollout`` over samples against
``rollout-v1`` at its default, each point with its CPU ms a hand, saved as
``benchmarks/ofc_strength.png``.

    python benchmarks/bench_ofc_play.py [--deals 400] [--selfplay 400]
    python benchmarks/bench_ofc_play.py --match rollout:rollout-v1 --deals 5000 --seed 7
    python benchmarks/bench_ofc_play.py --match rollout:rollout --samples 128,32   # the strong setting
    python benchmarks/bench_ofc_play.py --match rollout:rollout-exact --deals 3000 --seed 1
    python benchmarks/bench_ofc_play.py --match rollout:rollout-v1 --deals 1000 --seed 41 --save d.npy
    python benchmarks/bench_ofc_play.py --match rollout:rollout-v1 --deals 1000 --seed 41 --fl-baseline 2 \
        --paired d.npy   # told a larger entry value: its margin less the default's, on the same deals
    python benchmarks/bench_ofc_play.py --versus-greedy --deals 2000   # both margins over greedy, paired
    python benchmarks/bench_ofc_play.py --curve 8,16,32,64,128 --deals 1000   # the strength curve
    python benchmarks/bench_ofc_play.py --ceiling 512 --selfplay 300   # self-play only, 512 samples
    python benchmarks/bench_ofc_play.py --speed 5   # only the ms a hand, median of 5 repeats
    python benchmarks/bench_ofc_play.py --entry-value rollout --selfplay 300   # the default's own fixed point
    python benchmarks/bench_ofc_play.py --match rollout:rollout-exact --variant "ofc-pineapple(royalties.front.QQ=9)"
    python benchmarks/bench_ofc_play.py --match fast:rollout --deals 6000 --seed 3   # the fast setting's margin
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from cpstats.ofc import _place_kernel as _pk  # noqa: E402
from cpstats.ofc import entry_value as ev  # noqa: E402
from cpstats.ofc import placement as pl  # noqa: E402
from cpstats.ofc.board import board_values  # noqa: E402
from cpstats.ofc.placement import DEFAULT_SAMPLES, DEFAULT_TOP, strategy_code  # noqa: E402
from cpstats.ofc.play import _next_state, _play_hand  # noqa: E402
from cpstats.engine.registry import get_preset  # noqa: E402
from cpstats.ofc.rules import resolve_ofc_variant  # noqa: E402
from cpstats.ofc.settlement import settle_boards  # noqa: E402
from cpstats.ofc.street_values import street_model  # noqa: E402
from cpstats.engine.stats import t_value  # noqa: E402

V = get_preset("ofc-pineapple")  # --variant replaces it
BATCH = 20  # deals a batch: the interval's unit (Fantasyland links consecutive hands)
FORMER = 3  # kernel code of the former policy (rollouts completed by greedy, top 12)


def _code(name: str) -> int:
    return FORMER if name == "former" else strategy_code(name)


def play_run(codes: tuple[int, int], deals: int, seed: int, samples=(None, None),
             endgame: int = _pk.ENDGAME, args=None, model=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``deals`` consecutive hands of two bots (kernel codes, seat order), Fantasyland carried:
    (boards, Fantasyland cards a hand, seconds of CPU a hand); decks and strategy seeds from
    ``seed`` alone, so two runs with the same seed deal the same cards."""
    gen = np.random.default_rng(seed)
    budget = np.array([s or DEFAULT_SAMPLES for s in samples], np.int64)
    state = np.zeros(2, np.int64)
    boards = np.empty((deals, 2, 13), np.int8)
    fantasy = np.zeros((deals, 2), np.int64)
    cpu = np.empty(deals)
    for h in range(deals):
        deck = gen.permutation(52).astype(np.int8)
        hand_seed = np.uint64(gen.integers(0, 2**63))
        fantasy[h] = state
        t = time.process_time()
        boards[h], _ = _play_hand(V, deck, np.array(codes, np.int64), state, budget, DEFAULT_TOP, hand_seed,
                                  endgame=endgame, args=args, model=model)
        cpu[h] = time.process_time() - t
        state = _next_state(V, boards[h], state)
    return boards, fantasy, cpu


def interval(x: np.ndarray, batch: int = BATCH) -> tuple[float, float]:
    """Mean and 95% half-width of per-deal values, Student's t on batch means."""
    k = max(2, x.size // batch)
    means = np.array([b.mean() for b in np.array_split(x, k)])
    return float(x.mean()), float(t_value(0.95, k) * means.std(ddof=1) / np.sqrt(k))


def duplicate(a: str, b: str, deals: int, seed: int = 99, samples=(None, None),
              endgame: int = _pk.ENDGAME, told=(None, None)) -> dict:
    """Duplicate match of bot ``a`` against ``b`` (names; ``former`` is kernel code 3): both
    seatings of the same ``deals`` decks. Returns the mean net a hand of ``a`` with its 95%
    half-width, both bots' normal-board rates over the two seatings, and the per-deal nets."""
    ca, cb = _code(a), _code(b)
    ab, fab, _ = play_run((ca, cb), deals, seed, samples, endgame, *told)
    ba, fba, _ = play_run((cb, ca), deals, seed, samples[::-1], endgame, *told)
    net = (settle_boards(V, ab)[:, 0] + settle_boards(V, ba)[:, 1]) / 2
    mean, half = interval(net)
    if a == b:
        a, b = (f"{a}({s or DEFAULT_SAMPLES})" for s in samples)
    rates = {a: _rates(np.concatenate([ab[:, 0], ba[:, 1]]), np.concatenate([fab[:, 0], fba[:, 1]])),
             b: _rates(np.concatenate([ab[:, 1], ba[:, 0]]), np.concatenate([fab[:, 1], fba[:, 0]]))}
    return {"mean": mean, "half": half, "deals": deals, "rates": rates, "net": net}


def _rates(boards: np.ndarray, fantasy: np.ndarray) -> dict[str, float]:
    values = board_values(V, boards)
    normal = fantasy == 0
    return {"foul": float(values.fouled[normal].mean()), "entry": float((values.fl_cards[normal] > 0).mean()),
            "royalty": float(values.royalty.sum(-1)[normal].mean())}


def ms_per_hand(names=("rollout", "fast", "rollout-exact", "rollout-v1", "greedy"), repeats: int = 7, hands: int = 10,
                samples: int = DEFAULT_SAMPLES) -> dict:
    """Median ms of CPU a normal heads-up hand of each bot in self-play, interleaved on the same
    decks (so the machine's load falls on all alike; CPU time, not wall time)."""
    none = np.zeros(2, np.int64)
    times: dict[str, list[float]] = {k: [] for k in names}
    for r in range(repeats + 1):
        gen = np.random.default_rng(r)
        decks = [gen.permutation(52).astype(np.int8) for _ in range(hands)]
        for name in names:
            code = np.full(2, _code(name), np.int64)
            t = time.process_time()
            for deck in decks:
                _play_hand(V, deck, code, none, samples, DEFAULT_TOP, np.uint64(r))
            if r:  # the first round compiles
                times[name].append((time.process_time() - t) / hands * 1e3)
    return {k: float(np.median(v)) for k, v in times.items()}


def self_play(hands: int, name: str = "rollout", samples: int | None = None,
              seed: int = 2024, told=(None, None)) -> dict[str, tuple[float, float]]:
    """Foul, entry and royalty rates of normal hands in self-play (mean, SE); an attempt is a
    board whose front would enter Fantasyland (QQ+) were it not fouled."""
    code = _code(name)
    boards, fantasy, _ = play_run((code, code), hands, seed, (samples, samples), _pk.ENDGAME, *told)
    values = board_values(V, boards)
    normal = fantasy == 0
    attempt = (V.kernel_tables().fl_entry_cards[values.ranks[..., 0]] > 0) & normal
    figures = {"foul": values.fouled[normal].astype(float),
               "entry": (values.fl_cards[normal] > 0).astype(float),
               "Fantasyland attempt (front QQ+)": attempt[normal].astype(float),
               "foul of an attempt": values.fouled[attempt].astype(float),
               "royalty": values.royalty.sum(-1)[normal].astype(float),
               "royalty (all boards, Fantasyland too)": values.royalty.sum(-1).ravel().astype(float)}
    return {k: (x.mean(), x.std(ddof=1) / np.sqrt(x.size)) for k, x in figures.items()}


def _print_match(a: str, b: str, out: dict) -> None:
    print(f"{a} vs {b}: {out['mean']:+.3f} +/- {out['half']:.3f} a hand (95%), "
          f"{out['deals']} duplicate deals (x 2 seats)", flush=True)
    for who, r in out["rates"].items():
        print(f"    {who}: foul {r['foul']:.3f}, entry {r['entry']:.3f}, royalty {r['royalty']:.2f} "
              "a normal board", flush=True)


def _args(baseline: float | None, appetite: float = 1.0):
    """Stacked tables and street models with the learned plays and ``rollout-exact`` told the entry
    values at ``baseline`` (None: their own), times ``appetite`` (the tables and the models' rule
    numbers alike); (None, None) when neither is asked."""
    if baseline is None and appetite == 1.0:
        return None, None
    value = ev.default_entry_values(V) if baseline is None else ev.entry_values(V, ev.fantasy_terms(V), baseline)
    value = value * appetite
    model = street_model(V)
    if model is not None:
        rules = model.rules.copy()
        cards = V.fantasyland.cards
        for i, n in enumerate(cards):  # entry_qq .. entry_trips lead the rule numbers
            rules[i] = value[n] if n else 0.0
        model = model._replace(rules=rules)
    return pl.stacked(ev.rollout_args(V, value), pl.place_args(V)), model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--selfplay", type=int, default=400)
    parser.add_argument("--seed", type=int, default=99, help="seed of the matches' decks")
    parser.add_argument("--variant", default="ofc-pineapple", help="the heads-up variant played (default ofc-pineapple)")
    parser.add_argument("--endgame", type=int, default=_pk.ENDGAME,
                        help="streets before the last that rollout plays exactly")
    parser.add_argument("--fl-baseline", type=float, default=None,
                        help="the rollouts told the entry value at this normal-board baseline")
    parser.add_argument("--appetite", type=float, default=1.0,
                        help="the rollouts told their entry values times this (the street models' rule numbers too)")
    parser.add_argument("--match", metavar="A:B", help="only the duplicate match of A against B")
    parser.add_argument("--samples", metavar="SA,SB", help="with --match: samples a decision of A and of B")
    parser.add_argument("--save", metavar="NPY", help="with --match: save the per-deal nets here")
    parser.add_argument("--paired", metavar="NPY",
                        help="with --match: also the paired difference of its per-deal nets less those saved in "
                             "NPY by a match on the same deals and seed (two bots against one opponent)")
    parser.add_argument("--only-selfplay", metavar="BOT", help="only the self-play rates of BOT")
    parser.add_argument("--entry-value", nargs="?", const="rollout-exact", choices=("rollout-exact", "rollout"),
                        metavar="PLAY",
                        help="only solve the Fantasyland entry value (fixed point) of PLAY's self-play (default "
                             "rollout-exact, whose values are shipped), --selfplay hands a round")
    parser.add_argument("--versus-greedy", action="store_true",
                        help="only rollout and rollout-v1 against greedy on the same decks, and the paired "
                             "difference of their margins")
    parser.add_argument("--speed", type=int, default=0, metavar="REPEATS",
                        help="only the CPU ms a heads-up hand of each bot, median of REPEATS interleaved repeats")
    parser.add_argument("--curve", metavar="S1,S2,...",
                        help="only the strength curve: rollout at these samples a decision against rollout-v1 "
                             "(its default), with CPU ms a hand; saved as benchmarks/ofc_strength.png")
    parser.add_argument("--ceiling", type=int, default=0, metavar="SAMPLES",
                        help="only self-play with this many samples a decision (the approach's ceiling)")
    opts = parser.parse_args()
    global V
    V = resolve_ofc_variant(opts.variant)
    told = _args(opts.fl_baseline, opts.appetite)
    if opts.ceiling:
        for k, (m, se) in self_play(opts.selfplay, samples=opts.ceiling).items():
            print(f"self-play, {opts.ceiling} samples, {k}: {m:.3f} (SE {se:.3f}), {opts.selfplay} hands")
        return
    if opts.only_selfplay:
        for k, (m, se) in self_play(opts.selfplay, opts.only_selfplay, seed=opts.seed, told=told).items():
            print(f"self-play {opts.only_selfplay} {k}: {m:.3f} (SE {se:.3f}), {opts.selfplay} hands")
        return
    if opts.entry_value:
        start = ev._shipped_baseline(V) if opts.entry_value == "rollout" else 0.0
        model = street_model(V) if opts.entry_value == "rollout" else None
        e = ev.solve_entry_value(V, hands=opts.selfplay, rounds=3, model=model, start=start)
        print(f"Fantasyland entry ({e.cards} cards) worth {e.value:.2f} (95% {e.ci_low:.2f}..{e.ci_high:.2f}) "
              f"over a normal hand, fixed point of {opts.entry_value} (baselines {e.rounds}, SE of the last "
              f"{e.baseline_se:.3f}, from {start:.3f}); in the long run (the displaced normal hand's own entry, "
              f"{e.entry_rate:.1%}, counted) {e.long_run_value:.2f} (95% {e.long_run_low:.2f}..{e.long_run_high:.2f}); "
              "anchors: 9.6 (a public bot's fixed point), about 8 (players)")
        return
    if opts.versus_greedy:
        new, old = (duplicate(name, "greedy", opts.deals, opts.seed) for name in ("rollout", "rollout-v1"))
        _print_match("rollout", "greedy", new)
        _print_match("rollout-v1", "greedy", old)
        mean, half = interval(new["net"] - old["net"])
        print(f"rollout's margin over greedy less rollout-v1's, paired on the same {opts.deals} decks: "
              f"{mean:+.3f} +/- {half:.3f} a hand (95%), seed {opts.seed}")
        return
    if opts.curve:
        curve(tuple(int(x) for x in opts.curve.split(",")), opts.deals, opts.seed)
        return
    if opts.match:
        a, b = opts.match.split(":")
        t = time.time()
        budget = tuple(int(x) for x in opts.samples.split(",")) if opts.samples else (None, None)
        out = duplicate(a, b, opts.deals, opts.seed, budget, endgame=opts.endgame, told=told)
        _print_match(a, b, out)
        if opts.save:
            np.save(opts.save, out["net"])
        if opts.paired:
            mean, half = interval(out["net"] - np.load(opts.paired))
            print(f"paired against {opts.paired}: {mean:+.3f} +/- {half:.3f} a hand (95%)")
        print(f"samples {budget}, endgame {opts.endgame}, Fantasyland baseline {opts.fl_baseline}, appetite "
              f"{opts.appetite}, variant {V}, seed {opts.seed}, "
              f"{time.time() - t:.0f} s")
        return
    ms = ms_per_hand(repeats=opts.speed or 7)
    print("ms of CPU a heads-up hand (median): " + ", ".join(f"{k} {v:.2f}" for k, v in ms.items())
          + f"; rollout / rollout-exact {ms['rollout'] / ms['rollout-exact']:.2f}, fast / rollout "
          f"{ms['fast'] / ms['rollout']:.3f}; load average {os.getloadavg()[0]:.1f}")
    if opts.speed:
        return
    for name in ("rollout", "rollout-v1"):
        for k, (m, se) in self_play(opts.selfplay, name, told=told).items():
            print(f"self-play {name} {k}: {m:.3f} (SE {se:.3f}), {opts.selfplay} hands", flush=True)
    for a, b in (("rollout", "rollout-v1"), ("rollout", "rollout-exact"), ("fast", "rollout"), ("fast", "rollout-v1"),
                 ("rollout", "greedy"), ("rollout-v1", "greedy"), ("rollout", "random"), ("rollout-v1", "former")):
        _print_match(a, b, duplicate(a, b, opts.deals, opts.seed, endgame=opts.endgame, told=told))
    curve((8, 16, 32, 64, 128), opts.deals, opts.seed)


def curve(budgets: tuple[int, ...], deals: int, seed: int) -> list[tuple[int, float, float, float]]:
    """The strength curve: ``rollout`` at each budget (samples a decision) against ``rollout-v1``
    at its default, duplicate deals, with the CPU ms a heads-up self-play hand at that budget;
    printed and drawn as ``benchmarks/ofc_strength.png``. Returns (samples, mean, half, ms)."""
    points = []
    for s in budgets:
        ms = ms_per_hand(("rollout",), repeats=5, hands=10, samples=s)["rollout"]
        out = duplicate("rollout", "rollout-v1", deals, seed, (s, None))
        points.append((s, out["mean"], out["half"], ms))
        print(f"rollout({s}) vs rollout-v1({DEFAULT_SAMPLES}): {out['mean']:+.3f} +/- {out['half']:.3f} a hand "
              f"(95%, {deals} deals x 2 seats, seed {seed}); {ms:.1f} ms a hand", flush=True)
    _plot(points, deals, seed)
    return points


def _plot(points, deals: int, seed: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s, m, h, ms = (np.array(x) for x in zip(*points))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.errorbar(s, m, yerr=h, marker="o", capsize=4, label=f"rollout(samples) vs rollout-v1({DEFAULT_SAMPLES})")
    for x, y, t in zip(s, m, ms):
        ax.annotate(f"{t:.0f} ms", (x, y), textcoords="offset points", xytext=(6, -12), fontsize=8)
    ax.axhline(0, color="grey", lw=0.8)
    ax.axvline(DEFAULT_SAMPLES, color="grey", lw=0.8, ls=":", label=f"default ({DEFAULT_SAMPLES} samples)")
    ax.set_xscale("log", base=2)
    ax.set_xticks(s, [str(int(x)) for x in s])
    ax.set_xlabel("rollout samples a decision (CPU ms a heads-up hand beside each point)")
    ax.set_ylabel("net points a hand (95% CI, duplicate)")
    ax.set_title(f"OFC Pineapple heads-up: strength over budget\n({deals} deals x 2 seats, seed {seed})")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(Path(__file__).with_name("ofc_strength.png"), dpi=110)


if __name__ == "__main__":
    main()
