"""The baseline setters ``greedy`` and ``random`` (weak on purpose: figures they produce are
named as theirs), registered under those names.

Both declare every natural the hand holds and never surrender; their kernels are in
:mod:`cpstats.thirteen.play._greedy_kernel`.
"""

from __future__ import annotations

import numpy as np

from cpstats.hands import tables as _tables
from cpstats.hands.setting import legal_settings, split_positions
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.play import _greedy_kernel as _gk
from cpstats.thirteen.play._kernel_args import _flush_best, _low_middle, _rank_args, _subset_tables
from cpstats.thirteen.play.api import Decisions, best_natural_bits, register_strategy

__all__ = ["greedy", "random_setter"]


def _declare_all(hands: np.ndarray, variant: Variant) -> np.ndarray:
    return best_natural_bits(hands, variant) != 0


def greedy(hands: np.ndarray, variant: Variant, *, rng: np.random.Generator | None = None) -> Decisions:
    """The legal setting strongest by (back rank, middle rank, front rank); declares naturals.

    That is the best five of the thirteen in the back; among the backs of that rank, the one
    leaving the strongest legal middle; the rest in front. Equal-rank cards (suits) go to the
    lowest suit, back first (see :mod:`cpstats.thirteen.play._greedy_kernel`). Under H5 (a low
    middle) the middle is the best deuce-to-seven low of the eight cards the best back leaves
    (over every back of that rank), then the strongest front (a slower search over the subsets).
    """
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    key, bit, nonflush, flush, t3, _, _ = _rank_args(variant)
    out = np.empty_like(arr)
    if _low_middle(variant):
        low = _tables.five_card_tables("H5")
        five_pos, three_pos, rest_mid, rest_front = _subset_tables()
        _gk.greedy_low_middle_kernel(arr, key, bit, nonflush, flush, low.nonflush, low.flush, t3,
                                     rest_mid, rest_front, five_pos, three_pos,
                                     np.empty(1287, dtype=np.uint16), out)
    else:
        _gk.greedy_kernel(arr, key, nonflush, flush, _flush_best(variant.ranking.value), out)
    n = arr.shape[0]
    return Decisions(out, _declare_all(arr, variant), np.zeros(n, dtype=bool))


_RANDOM_TRIES = 24


def random_setter(hands: np.ndarray, variant: Variant, *,
                  rng: np.random.Generator | None = None) -> Decisions:
    """A uniform draw among each hand's legal settings; declares naturals.

    Legal settings are those of :func:`cpstats.hands.setting.legal_settings`: the stronger high five
    in the back, back >= middle >= front (H3), or back >= front under H5.
    """
    gen = np.random.default_rng(rng)
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    key, bit, nonflush, flush, t3, c5, c3 = _rank_args(variant)
    positions = np.ascontiguousarray(split_positions())
    n = arr.shape[0]
    draws = gen.integers(0, positions.shape[0], size=(n, _RANDOM_TRIES), dtype=np.int32)
    out = np.empty_like(arr)
    found = np.empty(n, dtype=np.bool_)
    _gk.random_kernel(arr, draws, positions, key, bit, nonflush, flush, t3, c5, c3,
                      _low_middle(variant), out, found)
    if not found.all():
        for i in np.flatnonzero(~found):
            legal = legal_settings(arr[i], ordering=variant.ranking.value)
            out[i] = legal[gen.integers(len(legal))]
    return Decisions(out, _declare_all(arr, variant), np.zeros(n, dtype=bool))


register_strategy("greedy", greedy)
register_strategy("random", random_setter)
