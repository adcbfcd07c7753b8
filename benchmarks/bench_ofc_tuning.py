"""The OFC rollout's tuned settings against the alternatives, heads-up Pineapple.

Each line is a seat-swapped match on common decks: the package's default ``rollout`` against the
same strategy with one setting changed (:mod:`cpstats.ofc.placement`: ``FOUL_AVERSION``,
``DEFAULT_HINDSIGHT``, ``HINDSIGHT_FOUL_WEIGHT``, the samples), or a rule of thumb forced on its
first street (a dealt pair that enters Fantasyland goes to the front at once). Fantasyland is carried from hand
to hand (a player who enters plays the next hand with the exact solver), so the value of
entering counts. Printed: each side's foul and Fantasyland entry rates and mean royalty of its
normal boards (and of all boards), and the default's mean net a hand over the alternative with
its 95% interval (t on the per-deal means of the two seatings).

    python benchmarks/bench_ofc_tuning.py [--deals 1000] [--seed 2026] [--variant ofc-pineapple]
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from cpstats.ofc import _place_kernel as _pk  # noqa: E402
from cpstats.ofc import placement as pl  # noqa: E402
from cpstats.ofc.board import board_ranks, board_values  # noqa: E402
from cpstats.ofc.play import _next_state  # noqa: E402
from cpstats.engine.registry import get_preset  # noqa: E402
from cpstats.ofc.settlement import settle_boards  # noqa: E402


class Player:
    """A rollout player: kernel tables, samples, top and hindsight streets."""

    def __init__(self, variant, aversion=None, hindsight=None, weight=None, samples=None,
                 pair_front=False):
        base = pl.place_args(variant)
        vt, prm = pl._value_tables(variant, pl.row_win_tables(variant), pl.fantasy_values(variant),
                                   pl.OPPONENT_FOUL, pl.FOUL_AVERSION if aversion is None else aversion)
        prm[_pk.HIND_FOUL] = prm[_pk.FOUL] * (pl.HINDSIGHT_FOUL_WEIGHT if weight is None else weight)
        self.args = base._replace(vt=vt, prm=prm)
        self.hind = pl.DEFAULT_HINDSIGHT if hindsight is None else hindsight
        self.samples = pl.DEFAULT_SAMPLES if samples is None else samples
        self.pair_front = pair_front


def entering_pair(variant, dealt):
    """Indices of the best pair of ``dealt`` that enters Fantasyland from the front, else None."""
    ranks = dealt // 4
    for r in sorted(set(ranks.tolist()), reverse=True):
        pair = np.flatnonzero(ranks == r)[:2]
        others = [c for c in range(52) if c // 4 != r]
        if pair.size < 2:
            continue
        board = np.array([*dealt[pair], others[0], *others[1:11]], np.int8)
        if variant.kernel_tables().fl_entry_cards[board_ranks(board[None], check=False)[0, 0]] > 0:
            return pair
    return None


def _pair_to_front(variant, deal, keep, dealt, board, cnt, who, unseen, n_unseen, state):
    """First street with a dealt entering pair put in front at once, the rest set by rollout."""
    pair = entering_pair(variant, dealt)
    if pair is None:
        return False
    board[:2] = dealt[pair]
    cnt[0] = 2
    rest = np.delete(dealt, pair)
    deal2, keep2 = deal.copy(), keep.copy()
    deal2[0] = keep2[0] = rest.size
    o = _pk.rollout_option(board, cnt, rest, 0, deal2, keep2, unseen, n_unseen, who.samples,
                           pl.DEFAULT_TOP, who.hind, state, *who.args)
    rows = np.empty((243, 5), np.int8)
    n_assign = _pk.enumerate_rows(rest.size, cnt, rows)
    _pk.apply_option(board, cnt, rest, rest.size, rest.size, o, n_assign, rows)
    return True


def play_hand(variant, deck, players, fantasy, seed):
    """Boards of one hand: Fantasyland players by the solver, the others street by street."""
    deal = np.array(variant.cards_dealt, np.int64)
    keep = np.array(variant.cards_kept, np.int64)
    state = np.array([seed], np.uint64)
    boards = np.full((len(players), 13), -1, np.int8)
    pos = 0
    for p in np.flatnonzero(fantasy):
        boards[p] = pl.set_fantasy(deck[pos:pos + fantasy[p]], variant)[0]
        pos += int(fantasy[p])
    normal = np.flatnonzero(fantasy == 0)
    nb = np.full((normal.size, 13), -1, np.int8)
    cnt = np.zeros((normal.size, 3), np.int64)
    own = np.zeros((normal.size, 52), np.bool_)
    rows, unseen = np.empty((243, 5), np.int8), np.empty(52, np.int8)
    for t in range(deal.size):
        for i, p in enumerate(normal):
            dealt = deck[pos:pos + deal[t]]
            pos += deal[t]
            who = players[p]
            n_unseen = _pk._unseen(unseen, own[i], dealt, nb, normal.size)
            if t == 0 and who.pair_front and _pair_to_front(variant, deal, keep, dealt, nb[i], cnt[i], who,
                                                            unseen, n_unseen, state):
                continue
            o = _pk.rollout_option(nb[i], cnt[i], dealt, t, deal, keep, unseen, n_unseen, who.samples,
                                   pl.DEFAULT_TOP, who.hind, state, *who.args)
            n_assign = _pk.enumerate_rows(keep[t], cnt[i], rows)
            d = _pk.apply_option(nb[i], cnt[i], dealt, deal[t], keep[t], o, n_assign, rows)
            if d >= 0:
                own[i, d] = True
    boards[normal] = nb
    return boards


def run(variant, players, deals, seed):
    gen = np.random.default_rng(seed)
    fantasy = np.zeros(len(players), np.int64)
    boards = np.empty((deals, len(players), 13), np.int8)
    fl = np.empty((deals, len(players)), np.int64)
    for h in range(deals):
        deck = gen.permutation(52).astype(np.int8)
        fl[h] = fantasy
        boards[h] = play_hand(variant, deck, players, fantasy, np.uint64(gen.integers(0, 2**63)))
        fantasy = _next_state(variant, boards[h], fantasy)
    return boards, fl


def rates(variant, boards, fl):
    values = board_values(variant, boards)
    normal = fl == 0
    return (values.fouled[normal].mean(), (values.fl_cards[normal] > 0).mean(),
            values.royalty.sum(-1)[normal].mean(), values.royalty.sum(-1).mean())


def duel(variant, alternative, deals, seed):
    """Default against ``alternative``, seat-swapped: (default rates, alternative rates, mean, half-width)."""
    default = Player(variant)
    ab, fab = run(variant, (default, alternative), deals, seed)
    ba, fba = run(variant, (alternative, default), deals, seed)
    net = (settle_boards(variant, ab)[:, 0] + settle_boards(variant, ba)[:, 1]) / 2
    mine = np.mean([rates(variant, ab[:, 0], fab[:, 0]), rates(variant, ba[:, 1], fba[:, 1])], axis=0)
    theirs = np.mean([rates(variant, ab[:, 1], fab[:, 1]), rates(variant, ba[:, 0], fba[:, 0])], axis=0)
    return mine, theirs, net.mean(), 1.96 * net.std(ddof=1) / np.sqrt(deals)


ALTERNATIVES = {
    "previous default (rough foul risk, greedy completions)": dict(aversion=1.0, hindsight=0),
    "greedy completions (no hindsight)": dict(hindsight=0),
    "hindsight foul weight 1": dict(weight=1.0),
    "rough foul risk (power 1)": dict(aversion=1.0),
    "128 samples": dict(samples=128),
    "a dealt entering pair always put in front": dict(pair_front=True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variant", default="ofc-pineapple")
    parser.add_argument("--only", help="run only the alternatives whose name contains this text")
    parser.add_argument("--record", action="store_true", help="also write the output into docs/measurements.md")
    parser.add_argument("--under-load", action="store_true",
                        help="with --record: record on a busy machine too, marked as measured under load")
    opts = parser.parse_args()
    variant = get_preset(opts.variant)
    print(f"{variant}: default rollout (foul aversion {pl.FOUL_AVERSION}, hindsight {pl.DEFAULT_HINDSIGHT} "
          f"streets, weight {pl.HINDSIGHT_FOUL_WEIGHT}, {pl.DEFAULT_SAMPLES} samples) against each; "
          f"{opts.deals} deals x 2 seats, seed {opts.seed}")
    for name, kw in ALTERNATIVES.items():
        if opts.only and opts.only not in name:
            continue
        t = time.perf_counter()
        mine, theirs, mean, half = duel(variant, Player(variant, **kw), opts.deals, opts.seed)
        print(f"- vs {name}: {mean:+.2f} +/- {half:.2f} a hand | default foul {mine[0]:.3f} entry {mine[1]:.3f} "
              f"royalty {mine[2]:.2f} (all boards {mine[3]:.2f}) | other foul {theirs[0]:.3f} entry "
              f"{theirs[1]:.3f} royalty {theirs[2]:.2f} ({theirs[3]:.2f}) [{time.perf_counter() - t:.0f} s]",
              flush=True)


if __name__ == "__main__":
    from _record import recording

    with recording("bench_ofc_tuning"):
        main()
