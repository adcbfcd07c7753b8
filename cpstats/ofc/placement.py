"""Street placement strategies for open-face Chinese poker: ``random``, ``greedy``, ``rollout``
(the default: rollouts with an exact endgame and learned street values), ``fast`` (the learned
street values alone), ``rollout-exact`` (the previous default) and ``rollout-v1``, the first
rollout, frozen.

- ``random``: a uniform draw among the street's legal options (a discard, then a row with room
  for every kept card). Weak on purpose: a baseline.
- ``greedy``: the option of best one-step evaluation (:func:`cpstats.ofc._place_kernel.board_h`:
  made hands, royalties, Fantasyland, row strength, an estimated foul risk and flush draws;
  exact on the last street). Fast; a baseline.
- ``rollout-exact`` (kernel code 5; the default until ``rollout`` below beat it by +1.02 a hand):
  Monte Carlo rollouts of the unseen cards, with an exact endgame and a solved Fantasyland value
  (below). The :data:`DEFAULT_TOP` options of best
  one-step evaluation enter a successive halving: all are rolled out on a first quarter of the
  :data:`DEFAULT_SAMPLES` samples, the better half on the next quarter, and so on, the survivors
  seeing every sample; the same sampled futures serve every option (common random numbers). A
  rollout plays the player's next streets with ``greedy`` and completes the last
  :data:`DEFAULT_HINDSIGHT` streets by hindsight (:mod:`cpstats.ofc._place_hindsight`: the best
  placement knowing the sample's future cards, exact by branch and bound), then scores the final
  board by the exact objective; the last street is an exact search, and the street before the
  last is decided exactly too (:mod:`cpstats.ofc._place_exact`: expectimax over every draw of
  the last street's cards, instead of rollouts completed by hindsight). It is told the
  Fantasyland entry value of :mod:`cpstats.ofc.entry_value` (a fixed point: the entry's
  objective less a normal board's; 11.4 for heads-up Pineapple), shipped for the presets and
  the shipped runs' variants and solved on first use for another variant (a few seconds).
- ``rollout`` (the default; kernel code 6):
  ``rollout-exact`` with its earlier streets decided by one deal of lookahead valued by street
  models learned from ``rollout-exact``'s exact-endgame self-play over rule draws around the presets
  (:mod:`cpstats.ofc.street_values`: one file, conditioned on the rules, so every variant plays by
  it with no fitting), the options it searches pruned by those models; the last two streets exact,
  told the same entry value. Its measured strength and speed: docs/measurements.md#bench_ofc_play
  (``benchmarks/bench_ofc_play.py``).
- ``fast`` (kernel code 7): the same street models without rollouts: each earlier street the
  option whose board its street's model values best, the street before the last by the exact
  endgame, the last exactly; for the runs that need many hands.
- ``rollout-v1``: the first rollout, frozen (kernel code 4, its own value tables: no exact
  endgame, told the uncorrected Fantasyland value of :func:`fantasy_values`), the default until
  the exact endgame beat it by duplicate matches; the yardstick of the benchmark's matches.

Budget: :data:`DEFAULT_SAMPLES` samples and :data:`DEFAULT_TOP` options a decision: under a tenth of a second
a heads-up Pineapple hand on one core (``rollout-exact`` about a third of that). :data:`FOUL_AVERSION`, :data:`DEFAULT_HINDSIGHT` and
:data:`HINDSIGHT_FOUL_WEIGHT` were tuned by seat-swapped matches on common decks with Fantasyland carried
(``benchmarks/bench_ofc_tuning.py``); the foul weight of 2 keeps fouls under 20% of boards at a small cost in
strength. What was measured and tried: docs/measurements.md, sections bench_ofc_tuning and ofc_strength.

The objective, exact on a final board, is the expected result against a typical opponent: the
board's royalties; the value of the Fantasyland hand it enters (:func:`fantasy_values`); the
rows it wins, each with the chance that its rank beats the same row of a non-fouled opponent
(the empirical distribution of ``greedy`` self-play boards, :func:`row_win_tables`), the scoop
on top; an opponent fouls with probability :data:`OPPONENT_FOUL` (then every clean board wins
all rows); a fouled board loses every row and scoop to a clean opponent and gets nothing else.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc.board import board_values
from cpstats.ofc.fantasyland import solve_fantasyland
from cpstats.ofc.rules import Variant

__all__ = ["PLACEMENT_STRATEGIES", "STRATEGY_NOTES", "DEFAULT_SAMPLES", "DEFAULT_TOP", "DEFAULT_HINDSIGHT",
           "OPPONENT_FOUL", "FOUL_AVERSION", "HINDSIGHT_FOUL_WEIGHT", "PlaceArgs", "place_args",
           "fantasy_values", "row_win_tables", "set_fantasy", "strategy_code", "OUTSIDE_NOTE", "strategy_note"]

PLACEMENT_STRATEGIES = ("random", "greedy", "rollout", "fast", "rollout-v1", "rollout-exact")
#: How a strategy's figures are named wherever they appear: the baselines as baselines.
STRATEGY_NOTES = {"rollout": "strong play: rollouts with an exact endgame and learned street values",
                  "fast": "strong play, fast: the learned street values without rollouts, an exact endgame",
                  "rollout-v1": "the first rollout, frozen as a yardstick for matches",
                  "rollout-exact": "good play: rollouts with an exact endgame, the previous default",
                  "greedy": "a baseline: a weak field, not the figures of good play",
                  "random": "a baseline: no skill, not the figures of good play"}
#: A learned setter's play where the rules lie outside its street models' trained ranges.
OUTSIDE_NOTE = "strength not measured here: the rules lie outside the street models' trained ranges"


def strategy_note(name: str, street_models: dict | None = None) -> str:
    """How the play of setter ``name`` is named, given a run's ``metadata["street_models"]``: a
    strength was measured only inside the models' trained ranges, so outside them it is not claimed
    (the baselines and ``rollout-exact``/``rollout-v1`` play no street models and keep their names)."""
    outside = bool(street_models) and street_models.get("in_range") is False
    return OUTSIDE_NOTE if outside and name in ("rollout", "fast") else STRATEGY_NOTES[name]

_CODES = {"random": 0, "greedy": 1, "rollout": _pk.ROLLOUT_LEARNED, "fast": _pk.FAST, "rollout-v1": _pk.ROLLOUT_V1,
          "rollout-exact": _pk.ROLLOUT_EXACT}
DEFAULT_SAMPLES = 32  # rollouts a surviving option gets: a heads-up Pineapple hand in <= 100 ms
DEFAULT_TOP = 24  # options (best one-step first) that enter the successive halving
DEFAULT_HINDSIGHT = 3  # last streets of a rollout completed by hindsight (the others by greedy)
OPPONENT_FOUL = 0.2  # assumed chance that a typical opponent fouls
_LIFT_FAIL = ((1.0, 0.45, 0.2, 0.1, 0.05, 0.02),  # a row with 0..5 empty slots fails to lift
              (1.0, 0.7, 0.45, 0.3, 0.2, 0.12),  # above high card, pair of 2-7, 8-J, Q-A, two pair+
              (1.0, 0.8, 0.6, 0.45, 0.33, 0.25),
              (1.0, 0.85, 0.7, 0.55, 0.45, 0.35),
              (1.0, 0.9, 0.8, 0.7, 0.6, 0.5))
FOUL_AVERSION = 0.15  # the evaluation's foul risk is _LIFT_FAIL ** FOUL_AVERSION (module docstring)
HINDSIGHT_FOUL_WEIGHT = 2.0  # a hindsight completion's foul counts this many times a foul's value
_FLUSH_CHANCE = (0.0, 0.0, 0.04, 0.18, 0.4, 0.0)  # all n cards of a row suited: flush chance
_FLUSH_GAIN = (6.0, 4.0)  # middle, back: value of a flush over the row's made hand
_ROW_SAMPLE_HANDS = 1500  # greedy self-play hands behind the row-win tables
_FANTASY_DEALS = 64  # Fantasyland deals per hand size behind fantasy_values


class PlaceArgs(NamedTuple):
    """The kernels' table arguments, in their order (see :mod:`cpstats.ofc._place_kernel`)."""

    key: np.ndarray
    nonflush: np.ndarray
    flush: np.ndarray
    bit: np.ndarray
    t3: np.ndarray
    ct: np.ndarray
    vt: np.ndarray
    prm: np.ndarray


def strategy_code(name: object, where: str = "strategy") -> int:
    """Kernel code of a placement strategy name (0 random, 1 greedy, 4 rollout-v1, 5 rollout-exact,
    6 rollout, 7 fast; the kernel's code 2 is ``rollout-v1``'s play, unnamed)."""
    if name not in PLACEMENT_STRATEGIES:
        raise OptionError(f"{where}={name!r} is invalid: allowed are "
                          f"{', '.join(map(repr, PLACEMENT_STRATEGIES))}")
    return _CODES[name]


def _base_tables(variant: Variant) -> tuple[np.ndarray, ...]:
    t5 = _tables.five_card_tables("H1")
    tab = variant.kernel_tables()
    ct = np.zeros((2, 7462), dtype=np.int64)
    ct[0, :455] = tab.front_common
    ct[1] = tab.middle_common
    return (np.ascontiguousarray(_tables.CARD_KEY, dtype=np.int64), t5.nonflush, t5.flush,
            np.ascontiguousarray(_tables.CARD_BIT, dtype=np.int64), _tables.three_card_table(), ct)


def _value_tables(variant: Variant, win: np.ndarray, fantasy: np.ndarray, opponent_foul: float,
                  aversion: float = FOUL_AVERSION) -> tuple[np.ndarray, np.ndarray]:
    """``vt`` float64[6, 7462] and ``prm`` of the objective (module docstring); the foul risk
    is ``_LIFT_FAIL ** aversion``."""
    tab = variant.kernel_tables()
    row, scoop = (float(x) for x in tab.row_points)
    clean = 1.0 - opponent_foul
    vt = np.zeros((6, 7462))
    vt[3:] = win
    vt[0, :455] = tab.front_royalty + fantasy[tab.fl_entry_cards] + row * clean * (2 * win[0, :455] - 1)
    vt[0, :455] += opponent_foul * (3 * row + scoop)
    vt[1] = tab.middle_royalty + row * clean * (2 * win[1] - 1)
    vt[2] = tab.back_royalty + row * clean * (2 * win[2] - 1)
    prm = np.zeros(_pk.N_PRM)
    prm[_pk.FOUL] = -clean * (3 * row + scoop)
    prm[_pk.SCOOP] = scoop * clean
    prm[_pk.FAIL:_pk.FAIL + 30] = np.ravel(np.power(_LIFT_FAIL, aversion))
    prm[_pk.FLUSH:_pk.FLUSH + 6] = _FLUSH_CHANCE
    prm[_pk.GAIN:_pk.GAIN + 2] = _FLUSH_GAIN
    prm[_pk.SEEN] = variant.cards_dealt[-1] / variant.cards_kept[-1]
    prm[_pk.HIND_FOUL] = prm[_pk.FOUL] * HINDSIGHT_FOUL_WEIGHT
    return vt, prm


def place_args(variant: Variant, *, with_values: bool = True) -> PlaceArgs:
    """Kernel arguments of a variant (cached): the rank and common-scale tables, the value
    tables of the objective (row-win tables and Fantasyland values estimated on first use).
    ``with_values=False``: flat row terms, no Fantasyland value and the rough foul risk
    ``_LIFT_FAIL`` (the ``greedy`` behind :func:`row_win_tables`; ``random`` ignores them)."""
    return _place_args(variant, with_values)


@lru_cache(maxsize=16)
def _place_args(variant: Variant, with_values: bool) -> PlaceArgs:
    base = _base_tables(variant)
    if with_values:
        win, fantasy, aversion = row_win_tables(variant), fantasy_values(variant), FOUL_AVERSION
    else:
        win, fantasy, aversion = np.full((3, 7462), 0.5), np.zeros(18), 1.0
        win[0, 455:] = 0.0
    vt, prm = _value_tables(variant, win, fantasy, OPPONENT_FOUL, aversion)
    return PlaceArgs(*base, vt, prm)


def stacked(*args: PlaceArgs) -> PlaceArgs:
    """The arguments of :func:`cpstats.ofc._place_kernel.play_streets_kernel`: the value tables
    of each ``args`` (same variant) stacked on a leading axis, the first for ``rollout``, the last
    for the other strategies."""
    return args[0]._replace(vt=np.stack([a.vt for a in args]), prm=np.stack([a.prm for a in args]))


@lru_cache(maxsize=16)
def row_win_tables(variant: Variant) -> np.ndarray:
    """float64[3, 7462]: the chance that a row of each rank (front rank3, middle and back
    rank5) beats that row of a typical clean board, ties half: the rows of the non-fouled
    boards of ``greedy`` self-play (fixed seed; greedy set with a flat row term and the rough
    foul risk ``_LIFT_FAIL``: tables from the foul-averse greedy measured 0.9 a hand weaker)."""
    args = _place_args(variant, False)
    gen = np.random.default_rng(1700)
    deal = np.array(variant.cards_dealt, dtype=np.int64)
    keep = np.array(variant.cards_kept, dtype=np.int64)
    strat = np.ones(variant.players, dtype=np.int64)
    boards = np.empty((_ROW_SAMPLE_HANDS, variant.players, 13), dtype=np.int8)
    discards = np.empty((variant.players, deal.size), dtype=np.int8)
    for i in range(_ROW_SAMPLE_HANDS):
        deck = gen.permutation(52).astype(np.int8)
        _pk.play_streets_kernel(deck, strat, deal, keep, strat, 1, 0, np.uint64(i), *stacked(args), boards[i],
                                discards)
    values = board_values(variant, boards.reshape(-1, 13), check=False)
    clean = ~values.fouled
    out = np.zeros((3, 7462))
    for r, size in enumerate((455, 7462, 7462)):
        counts = np.bincount(values.ranks[clean, r], minlength=size).astype(float)
        below = np.concatenate([[0.0], np.cumsum(counts)[:-1]])
        out[r, :size] = (below + counts / 2) / max(counts.sum(), 1.0)
    return out


def set_fantasy(cards: np.ndarray, variant: Variant) -> tuple[np.ndarray, np.ndarray, float]:
    """(board int8[13], discards int8[n - 13], value) of a Fantasyland hand of ``cards``, set by
    the exact solver :func:`cpstats.ofc.fantasyland.solve_fantasyland` (its default stay value)."""
    solved = solve_fantasyland(cards, variant)
    return (np.asarray(solved.board, dtype=np.int8), np.asarray(solved.discards, dtype=np.int8),
            float(solved.value))


@lru_cache(maxsize=16)
def fantasy_values(variant: Variant) -> np.ndarray:
    """float64[18]: the value of entering Fantasyland with n cards (index n; 0 elsewhere): the
    mean objective of the solver's board of n random cards (royalties, rows and scoop against a
    typical opponent, as a normal board is valued, no entry value) plus its stay value when it
    stays; a fixed-seed sample of :data:`_FANTASY_DEALS` deals a size. A normal hand's expected
    result is 0 (symmetry). Heads-up Pineapple, 14 cards: 18.1, of which 13.2 royalty and stay."""
    vt, prm = _value_tables(variant, row_win_tables(variant), np.zeros(18), OPPONENT_FOUL)
    out = np.zeros(18)
    gen = np.random.default_rng(1717)
    for n in sorted(set(variant.kernel_tables().fl_entry_cards.tolist()) - {0}):
        total = 0.0
        for _ in range(_FANTASY_DEALS):
            solved = solve_fantasyland(gen.permutation(52)[:n].astype(np.int8), variant)
            values = board_values(variant, np.asarray(solved.board, dtype=np.int8))
            f, m, b = (int(r) for r in values.ranks)
            total += prm[_pk.FOUL] if values.fouled else (
                _pk._rows_value(f, m, b, vt, prm) + float(solved.value) - float(solved.royalty))
        out[n] = total / _FANTASY_DEALS
    return out
