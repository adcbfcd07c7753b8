"""The toy showdown's block function and its additive summary.

A block deals its deals with the game-neutral dealer (:func:`cpstats.cards.deal_seats`) from its
own seed, ranks every hand (:func:`cpstats.hands.ranking.rank5`) and settles the antes and
bonuses; what it sums per batch is what the result's figures and intervals are made of.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cpstats.cards import deal_seats, format_cards
from cpstats.cards.blocks import block_seed
from cpstats.engine.additive import Additive, summed
from cpstats.engine.batches import batch_of, by_batch
from cpstats.engine.defaults import RunSpec
from cpstats.engine.runner import BlockOutput
from cpstats.hands.ranking import CATEGORIES_5, N_RANKS_5, category5, rank5
from toy_showdown.rules import parse_variant

__all__ = ["CARDS", "ShowdownSummary", "play", "settle"]

#: Cards a seat is dealt.
CARDS = 5
_CATEGORY = np.array([CATEGORIES_5.index(name) for name in category5(np.arange(N_RANKS_5, dtype=np.uint16))])
_PAIR, _TRIPS = CATEGORIES_5.index("pair"), CATEGORIES_5.index("three_of_a_kind")


@dataclass(frozen=True)
class ShowdownSummary(Additive):
    """A block's sums: ``deals`` and ``batch_sizes``, which every result reads, and per batch
    each seat's net, the hands holding a pair or better and the units paid as bonuses."""

    deals: np.ndarray = summed("deals")  # ()
    batch_sizes: np.ndarray = summed("batch_sizes")  # (B,) deals a batch
    net_by_batch: np.ndarray = summed("batch_net")  # (B, P) each seat's net
    pairs_by_batch: np.ndarray = summed("batch_pairs")  # (B,) hands holding a pair or better
    bonus_by_batch: np.ndarray = summed("batch_bonus")  # (B,) units paid as bonuses


def settle(ranks: np.ndarray, bonus: float) -> tuple[np.ndarray, np.ndarray]:
    """(nets (N, P), bonus units paid (N,)) of deals whose hands rank ``ranks`` (N, P): the best
    hands share the ``P`` antes, and each hand of trips or better collects ``bonus`` from each
    other seat (a seat's bonus net is ``bonus * (P * own - all)``, so the nets add to 0)."""
    players = ranks.shape[1]
    best = ranks == ranks.max(axis=1, keepdims=True)
    antes = best * (players / best.sum(axis=1))[:, None] - 1.0
    bonus_hands = _CATEGORY[ranks] >= _TRIPS
    count = bonus_hands.sum(axis=1)
    return antes + bonus * (players * bonus_hands - count[:, None]), bonus * (players - 1) * count


def play(spec: RunSpec, block: int, size: int) -> BlockOutput:
    """Block ``block`` of ``size`` deals of the run ``spec``, from the block's own seed."""
    v = parse_variant(spec.variant)
    hands = deal_seats(np.random.default_rng(block_seed(spec.root(), block)), size, seats=v.players, cards=CARDS)
    ranks = rank5(hands, check=False).astype(np.intp)
    net, paid = settle(ranks, v.bonus)
    batch = batch_of(block * spec.block_deals, size, spec.deals, spec.batches)
    summary = ShowdownSummary(np.array(size), np.bincount(batch, minlength=spec.batches),
                              by_batch(net, batch, spec.batches),
                              by_batch((_CATEGORY[ranks] >= _PAIR).sum(axis=1).astype(float), batch, spec.batches),
                              by_batch(paid, batch, spec.batches))
    return BlockOutput(summary, None, _rows(hands, ranks, net, block * spec.block_deals) if spec.keep_hands else None)


def _rows(hands: np.ndarray, ranks: np.ndarray, net: np.ndarray, first: int) -> pd.DataFrame:
    """One row a deal and seat: the deal's number in the run, the seat, its cards, rank and net."""
    deals, players = ranks.shape
    return pd.DataFrame({"deal": np.repeat(np.arange(first, first + deals), players),
                         "seat": np.tile(np.arange(players), deals),
                         "hand": [format_cards(h) for h in hands.reshape(-1, CARDS)],
                         "rank": ranks.reshape(-1), "net": net.reshape(-1)})
