"""Fantasyland (OFC-FL-ENTRY, OFC-FL-PROGRESSIVE, OFC-FL-STAY-A/B): the exact solver and its figures.

A player in Fantasyland is dealt 13..17 cards at once and sets 13 of them (the rest are discarded
face down) like a 13-card Chinese poker hand. :func:`solve_fantasyland` finds the setting that
maximises ``royalty + (stays ? stay_value : 0)`` over the boards that do not foul, exactly
(branch and bound in :mod:`cpstats.ofc._fantasy_kernel`, checked against brute force in the tests).
Ties are broken by the sum of the three row strengths (the chance each row beats a random row of
its size, ties counted half), which favours the setting likelier to win rows, then by a fixed
order of the cards, so the answer depends only on the set of cards.

The value of staying, by default, is the package's own estimate for the variant
(:func:`estimate_stay_value`): the value ``V`` of a Fantasyland hand dealt the stay's cards, the
fixed point ``V = E[max over settings of (royalty + stays * V)]`` on common random deals, i.e.
``V = r / (1 - p)`` with ``r`` the mean royalty and ``p`` the stay rate of the policy that ``V``
itself induces. An ordinary hand's expected result is taken as 0 (heads-up play is symmetric), and
the rows a Fantasyland board wins over an ordinary one are not counted: ``V`` is the royalty
stream alone, a slight underestimate.

``V`` is the value of *being in* Fantasyland, counting stays: the royalty of this hand and of every
Fantasyland hand its stays bring, ``r + p r + p^2 r + ... = r / (1 - p)``. It is not the figure a
simulation reports as ``fl_value`` (:meth:`cpstats.ofc.SimulationResult.figures`), the simulated gain
of one Fantasyland hand over a normal hand at the table: that counts one hand only (a stay's next
hand is a hand of its own there) and the hand's whole net against the other seat's board (rows,
scoops, both sides' royalties). So the two differ by design: ``V`` holds the ``1 / (1 - p)`` of
the stays and no rows; the gain holds the rows and no stays (docs/open_face.md gives both for
heads-up Pineapple).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from cpstats._atomic import atomic_path
from cpstats._resources import cache_root
from cpstats.cards.codes import DECK_SIZE, format_cards, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.hands import tables as _tables
from cpstats.ofc import _fantasy_kernel as _fk
from cpstats.ofc.rules import Variant, resolve_ofc_variant
from cpstats.engine.stats import batch_mean_interval, check_confidence, wilson_interval

__all__ = ["FantasySetting", "solve_fantasyland", "fantasyland_table", "estimate_stay_value",
           "kernel_args", "row_strengths", "FANTASY_SIZES"]

#: Hand sizes the solver takes (OFC-FL-ENTRY deals 13 or 14, OFC-FL-PROGRESSIVE up to 17).
FANTASY_SIZES = (13, 14, 15, 16, 17)


class FantasySetting(NamedTuple):
    """A solved Fantasyland hand: ``board`` int8[13] front (3), middle (5), back (5);
    ``discards`` int8[n - 13]; the board's ``royalty``; whether it ``stays`` in Fantasyland;
    ``value`` = royalty + (stays ? stay_value : 0), the solver's objective; ``fouled`` only if
    no setting avoids a foul (never with 13 or more distinct cards)."""

    board: np.ndarray
    discards: np.ndarray
    royalty: int
    stays: bool
    value: float
    fouled: bool = False

    def __str__(self) -> str:
        rows = " / ".join(format_cards(self.board[a:b]) for a, b in ((0, 3), (3, 8), (8, 13)))
        out = f"{rows}  royalty {self.royalty}{', stays' if self.stays else ''}"
        return out + (f"  (discard {format_cards(self.discards)})" if self.discards.size else "")


@lru_cache(maxsize=1)
def row_strengths() -> tuple[np.ndarray, np.ndarray]:
    """(strength3 float64[455], strength5 float64[7462]): the chance that a row beats a random
    row of its size from a full deck, ties counted half (exact counts over all 3- and 5-card
    hands). Monotone in rank, so a back's strength bounds its middle's."""
    t5 = _tables.five_card_tables("H1")
    count5 = np.zeros(7462)
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        mult = [ranks.count(r) for r in set(ranks)]
        if max(mult) > 4:
            continue
        ways = math.prod(math.comb(4, c) for c in mult) - (4 if len(mult) == 5 else 0)
        count5[t5.nonflush[sum(int(_tables.RANK_KEYS[r]) for r in ranks)]] += ways
    for ranks in itertools.combinations(range(13), 5):
        count5[t5.flush[sum(1 << r for r in ranks)]] += 4
    three = _tables.three_card_table()
    count3 = np.zeros(455)
    for ranks in itertools.combinations_with_replacement(range(13), 3):
        mult = [ranks.count(r) for r in set(ranks)]
        count3[three[ranks[0] * 169 + ranks[1] * 13 + ranks[2]]] += math.prod(math.comb(4, c) for c in mult)
    out = []
    for count in (count3, count5):
        below = np.concatenate([[0.0], np.cumsum(count)[:-1]])
        out.append((below + count / 2) / count.sum())
    for arr in out:
        arr.setflags(write=False)
    return out[0], out[1]


def _args_from_tables(tables) -> tuple[np.ndarray, ...]:
    """The kernel's table arguments (after ``cards``, before ``stay_value``) from ``RuleArrays``."""
    t5 = _tables.five_card_tables("H1")
    strength3, strength5 = row_strengths()

    def arr(values, dtype):
        return np.ascontiguousarray(values, dtype=dtype)

    return (_tables.CARD_KEY, _tables.CARD_BIT, t5.nonflush, t5.flush, _tables.three_card_table(),
            arr(tables.front_royalty, np.int64), arr(tables.middle_royalty, np.int64),
            arr(tables.back_royalty, np.int64), arr(tables.front_common, np.int64),
            arr(tables.middle_common, np.int64), arr(tables.fl_stay_front, np.bool_),
            arr(tables.fl_stay_middle, np.bool_), arr(tables.fl_stay_back, np.bool_),
            strength3, strength5)


def kernel_args(variant: Variant | str) -> tuple[np.ndarray, ...]:
    """Arguments of :func:`cpstats.ofc._fantasy_kernel.solve_kernel` between ``cards`` and
    ``stay_value``, for a variant (cached per variant): the H1 rank tables, the variant's
    :class:`~cpstats.ofc.rules.RuleArrays` royalty, common-scale and stay arrays, and the row
    strengths. Call ``solve_kernel(cards, *kernel_args(v), stay_value, out_board, out_discards)``
    (from numba code too, with the tuple unpacked by the caller)."""
    return _kernel_args(resolve_ofc_variant(variant))


@lru_cache(maxsize=32)
def _kernel_args(variant: Variant) -> tuple[np.ndarray, ...]:
    return _args_from_tables(variant.kernel_tables())


def _fantasy_cards(cards, variant: Variant) -> np.ndarray:
    """``cards`` (text or codes) as int8 codes after the checks of :func:`solve_fantasyland`."""
    if isinstance(cards, str) or (isinstance(cards, (list, tuple)) and cards
                                  and all(isinstance(c, str) for c in cards)):
        cards = parse_cards(cards)
    try:
        arr = np.asarray(cards)
    except (TypeError, ValueError) as err:
        raise CardError(f"cards must be card codes or text: {err}") from None
    deals = _sizes(variant, None)
    if arr.ndim != 1 or arr.size not in FANTASY_SIZES:
        raise CardError(f"cards of shape {arr.shape} are invalid: a Fantasyland hand is 13..17 cards "
                        f"(this variant deals {'/'.join(map(str, deals))})")
    if arr.dtype.kind not in "iu":
        raise CardError(f"card codes must be integers, got dtype {arr.dtype}")
    if arr.min() < 0 or arr.max() >= DECK_SIZE:
        bad = int(arr[(arr < 0) | (arr >= DECK_SIZE)][0])
        raise CardError(f"card code {bad} is invalid: codes are 0..51 (4 * rank + suit)")
    values, counts = np.unique(arr, return_counts=True)
    if (counts > 1).any():
        twice = format_cards(values[counts > 1][:1])
        raise CardError(f"cards hold {twice} twice: a Fantasyland hand cannot repeat a card")
    return np.ascontiguousarray(arr, dtype=np.int8)


def _stay_value(variant: Variant, stay_value) -> float:
    if stay_value is None:
        return _default_stay_value(variant.royalties, variant.fantasyland)
    try:
        value = float(stay_value)
    except (TypeError, ValueError):
        value = float("nan")
    if not 0 <= value < np.inf:
        raise OptionError(f"stay_value={stay_value!r} is invalid: a finite value >= 0 (points)")
    return value


def solve_fantasyland(cards, variant: Variant | str = "ofc-pineapple", *,
                      stay_value: float | None = None) -> FantasySetting:
    """The best setting of a Fantasyland hand: 13 of ``cards`` set front/middle/back, the rest
    discarded, maximising ``royalty + (stays ? stay_value : 0)`` over boards that do not foul.

    Parameters
    ----------
    cards
        13..17 distinct cards (codes or text); any size is solved, not only the variant's deals.
    variant
        An :class:`~cpstats.ofc.rules.Variant`, preset name or variant string: its royalty
        table and stay rule (OFC-FL-STAY-A/B) make the objective.
    stay_value
        Points a stay is worth; default :func:`estimate_stay_value` of the variant (cached).

    Examples
    --------
    >>> s = solve_fantasyland("Ac Ad Ah Kc Kd 7s 7h 7d 7c 2s 3s 4s 5s 9d", stay_value=10)
    >>> print(s)
    Ah Ad Ac / 7s 5s 4s 3s 2s / Kd Kc 7h 7d 7c  royalty 36, stays  (discard 9d)
    """
    v = resolve_ofc_variant(variant)
    codes = _fantasy_cards(cards, v)
    bonus = _stay_value(v, stay_value)
    board = np.empty(13, dtype=np.int8)
    discards = np.empty(codes.size - 13, dtype=np.int8)
    value, royalty, stays, fouled = _fk.solve_kernel(codes, *kernel_args(v), bonus, board, discards)
    return FantasySetting(board, discards, int(royalty), bool(stays), float(value), bool(fouled))


def _generator(rng) -> np.random.Generator:
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise OptionError(f"rng={rng!r} is invalid: a numpy Generator, a seed (int >= 0) or None") from None


def _random_deals(rng: np.random.Generator, hands: int, size: int) -> np.ndarray:
    decks = rng.permuted(np.tile(np.arange(DECK_SIZE, dtype=np.int8), (hands, 1)), axis=1)
    return np.ascontiguousarray(decks[:, :size])


def _solve_deals(deals: np.ndarray, variant: Variant, stay_value: float):
    """(boards, royalty, stays, value) of every deal (rows of ``deals``)."""
    k = deals.shape[0]
    boards = np.empty((k, 13), dtype=np.int8)
    royalty = np.empty(k, dtype=np.int64)
    stays = np.empty(k, dtype=np.bool_)
    value = np.empty(k, dtype=np.float64)
    _fk.solve_many_kernel(deals, *kernel_args(variant), stay_value, boards, royalty, stays, value)
    return boards, royalty, stays, value


_STAY_DEALS, _STAY_SEED = 1000, 1717


def estimate_stay_value(variant: Variant | str, *, deals: int = _STAY_DEALS, rng=_STAY_SEED) -> float:
    """The value of a Fantasyland hand dealt the stay's cards (``fantasyland.stay_cards``), in
    points: the fixed point ``V = E[max over settings of (royalty + stays * V)]`` on ``deals``
    common random deals, found by policy iteration (solve with ``V``, set ``V = r / (1 - p)``
    from that policy's mean royalty ``r`` and stay rate ``p``, until the stays repeat).

    An ordinary hand's expected result is taken as 0 (symmetry) and the rows won are not
    counted: the value of *being in* Fantasyland, its stays counted, not a simulation's
    ``fl_value`` (one hand's gain at the table; see the module docstring). 0 when the variant
    has no stay. With the default deals and seed this is the default
    stay value of :func:`solve_fantasyland`, cached per royalty table and Fantasyland rules
    (players, scoring and rake do not change it).
    """
    v = resolve_ofc_variant(variant)
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise OptionError(f"deals={deals!r} is invalid: a whole number of deals >= 1")
    if deals == _STAY_DEALS and isinstance(rng, int) and rng == _STAY_SEED:
        return _default_stay_value(v.royalties, v.fantasyland)
    return _estimate(v, int(deals), _generator(rng))


def _estimate(v: Variant, deals: int, rng: np.random.Generator) -> float:
    tables = v.kernel_tables()
    if not (tables.fl_stay_front.any() or tables.fl_stay_middle.any() or tables.fl_stay_back.any()):
        return 0.0
    sample = _random_deals(rng, deals, v.fantasyland.stay_cards)
    value, previous = 0.0, None
    for _ in range(100):
        _, royalty, stays, _ = _solve_deals(sample, v, value)
        if previous is not None and np.array_equal(stays, previous):
            break
        if stays.all():
            raise OptionError(f"variant {v} stays on every deal: the value of Fantasyland is unbounded")
        value, previous = float(royalty.mean() / (1.0 - stays.mean())), stays
    return value


@lru_cache(maxsize=32)
def _default_stay_value(royalties, fantasyland) -> float:
    """The default stay value, once a process, kept in cpstats' cache folder
    (``ofc/stay_value/KEY.json``, KEY a digest of the royalty table, the Fantasyland rules and the
    code that solves them): xdist workers, notebook kernels, CLI runs and a designer's next session
    read the number (4-6 s a rule set to solve) bit for bit (JSON keeps a float's every bit); a file
    that does not read is solved again and replaced; a folder that cannot be written only costs a solve."""
    key = repr((royalties, fantasyland, _STAY_DEALS, _STAY_SEED, _solver_code()))
    path = cache_root() / "ofc" / "stay_value" / f"{hashlib.sha256(key.encode()).hexdigest()[:20]}.json"
    try:
        entry = json.loads(path.read_text())
        if isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("value"), float) \
                and math.isfinite(entry["value"]):
            return entry["value"]
    except (OSError, ValueError):
        pass
    value = _estimate(Variant(royalties=royalties, fantasyland=fantasyland), _STAY_DEALS, _generator(_STAY_SEED))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as part:
            part.write_text(json.dumps({"key": key, "value": value}))
    except OSError:
        pass
    return value


@lru_cache(maxsize=1)
def _solver_code() -> str:
    """A digest of the code the stay value is solved by (this module, its kernel, the rules'
    tables) and numpy's version (the deals are its random streams)."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(np.__version__.encode())
    for name in ("fantasyland.py", "_fantasy_kernel.py", "rules.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def _sizes(variant: Variant, sizes) -> list[int]:
    if sizes is None:
        tables = variant.kernel_tables()
        found = sorted({*tables.fl_entry_cards.tolist(), variant.fantasyland.stay_cards} - {0})
        return found or [variant.fantasyland.stay_cards]
    values = [sizes] if isinstance(sizes, (int, np.integer)) else list(sizes)
    for n in values:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 13 <= n <= 17:
            raise OptionError(f"sizes={sizes!r} is invalid: Fantasyland hands of 13..17 cards")
    return sorted(set(int(n) for n in values))


def fantasyland_table(variant: Variant | str = "ofc-pineapple", *, hands_per_size: int = 2000,
                      sizes=None, rng=None, stay_value: float | None = None, batches: int = 20,
                      confidence: float = 0.95) -> pd.DataFrame:
    """Stay rate and mean royalty of solved Fantasyland hands, per hand size, with intervals.

    Deals ``hands_per_size`` random hands of each size (default: the sizes the variant deals,
    entry and stay) and solves them exactly (:func:`solve_fantasyland`). The stay rate has a
    Wilson interval; the mean royalty and mean objective value (royalty plus the stay value on a
    stay) a Student's t interval on ``batches`` batch means. ``value`` is the value of being
    dealt such a hand in Fantasyland, the stays counted through the stay value (at the stay's
    own size it estimates the stay value itself, the fixed point); it is not a simulation's
    ``fl_value``, the gain of one Fantasyland hand over a normal hand at the table.

    Returns
    -------
    pandas.DataFrame
        One row per size: ``cards``, ``hands``, ``stay_rate``, ``stay_low``, ``stay_high``,
        ``royalty``, ``royalty_low``, ``royalty_high``, ``value``, ``value_low``,
        ``value_high``; ``attrs`` hold the variant string, the stay value and the seed entropy.

    Examples
    --------
    >>> t = fantasyland_table("ofc-pineapple-progressive", hands_per_size=40, rng=1, stay_value=14)
    >>> t["cards"].tolist(), bool((t["royalty_low"] < t["royalty"]).all())
    ([14, 15, 16, 17], True)
    """
    v = resolve_ofc_variant(variant)
    level = check_confidence(confidence)
    if sizes is None and not v.kernel_tables().fl_entry_cards.any():
        raise OptionError(f"{v} has no Fantasyland (no front enters): pass sizes= (13..17) to "
                          f"solve hands of those sizes anyway")
    todo = _sizes(v, sizes)
    for name, n, low in (("hands_per_size", hands_per_size, 2), ("batches", batches, 2)):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < low:
            raise OptionError(f"{name}={n!r} is invalid: a whole number >= {low}")
    if batches > hands_per_size:
        raise OptionError(f"batches={batches} is invalid: at most hands_per_size={hands_per_size}")
    bonus = _stay_value(v, stay_value)
    gen = _generator(rng)
    rows = []
    for n, child in zip(todo, gen.spawn(len(todo))):
        deals = _random_deals(child, int(hands_per_size), n)
        _, royalty, stays, value = _solve_deals(deals, v, bonus)
        low, high = wilson_interval(int(stays.sum()), stays.size, level)
        row = {"cards": n, "hands": stays.size, "stay_rate": float(stays.mean()), "stay_low": float(low),
               "stay_high": float(high)}
        for name, x in (("royalty", royalty), ("value", value)):
            parts = np.array_split(x.astype(float), batches)
            mean, _, half = batch_mean_interval(np.array([p.sum() for p in parts]),
                                                np.array([p.size for p in parts]), level)
            row |= {name: float(mean), f"{name}_low": float(mean - half), f"{name}_high": float(mean + half)}
        rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs |= {"variant": str(v), "stay_value": bonus, "entropy": gen.bit_generator.seed_seq.entropy}
    return table
