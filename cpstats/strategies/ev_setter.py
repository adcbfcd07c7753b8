"""The rule-aware ``ev`` setter, registered as ``ev``: the row model built from
:class:`~cpstats.strategies.row_tables.RowTables` and the exact search over every legal split.

``ev`` searches every legal split (pruned exactly, see :mod:`cpstats.strategies._ev_kernel`) for
the highest expected result against the field under the variant's scoring, royalties and table
size; it declares a natural when that pays more than the hand is expected to, and surrenders
when playing is expected to cost more than surrendering.

Decision (where the issue leaves a choice open): the row model treats the three rows and the
opponents as independent; card removal (what the hand holds changes what the opponents can
hold) enters to first order, per rank class of each row
(:class:`~cpstats.strategies.row_tables.CardRemoval`); RM-CANCEL, RM-ONE and RM-DEALT are
valued as RM-WINNER, SC-2-4-total as SC-2-4, and a banked game as a ring game. Those are
approximations of the objective only: every setting returned is legal.
"""

from __future__ import annotations

import numpy as np

from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.rules.variant import Variant
from cpstats.strategies import _ev_kernel as _sk
from cpstats.strategies._kernel_args import _flush_best, _low_middle, _rank_args, _subset_tables
from cpstats.strategies.api import Decisions, natural_payout, register_strategy
from cpstats.strategies.row_tables import MAX_CLASSES, RowTables, load_tables, rank_classes

__all__ = ["ev", "ev_decisions", "ev_search"]


def _opponents(variant: Variant) -> float:
    return 2.0 if variant.hands_per_player == 2 else float(max(variant.players - 1, 1))


def _mass_below(x: np.ndarray) -> np.ndarray:
    """At each rank, the sum of ``x`` over the lower ranks."""
    return np.concatenate([[0.0], np.cumsum(x)[:-1]])


def _mass_above(x: np.ndarray) -> np.ndarray:
    """At each rank, the sum of ``x`` over the higher ranks."""
    return np.concatenate([np.cumsum(x[::-1])[::-1][1:], [0.0]])


def _row_arrays(dist: np.ndarray, bonus: np.ndarray, always: bool,
                classes: np.ndarray) -> tuple[np.ndarray, ...]:
    """(exact, envelope) float32[R, 8] for one row, then (exact, envelope) float32[R] units
    collected win or lose (RM-ALWAYS), then float64[MAX_CLASSES, 2]: each rank class's field
    probability and expected units paid when it beats the player.

    Table columns: win probability, loss probability, units collected when the row wins,
    expected units paid when it loses; then, for card removal (``_ev_kernel._row``),
    the field probability of the lower and of the higher ranks of the same class and the
    expected units paid by those higher ranks, then padding. The envelope holds, at rank r,
    the best of the units collected over ranks <= r; win, loss and payment columns are
    monotone in the rank as they stand, and stay so under the card-removal correction (it
    keeps every probability non-negative), which makes the bound exact.
    """
    p = np.asarray(dist, dtype=np.float64)
    p = p / p.sum()
    below = _mass_below(p)
    win = np.minimum(below, 1.0)
    lose = np.clip(1.0 - below - p, 0.0, 1.0)
    if always:
        value = np.ones_like(p)
        collect = np.ones_like(p)
        constant = bonus.copy()
    else:
        value = 1.0 + bonus
        collect = value
        constant = np.zeros_like(p)
    lv = _mass_above(p * value)
    first = np.searchsorted(classes, classes, side="left")
    last = np.searchsorted(classes, classes, side="right") - 1
    cum, cum_v = np.cumsum(p), np.cumsum(p * value)
    class_below = below - below[first]
    class_above = cum[last] - cum
    class_above_v = cum_v[last] - cum_v
    exact = np.stack([win, lose, collect, lv, class_below, class_above, class_above_v,
                      np.zeros_like(p)], axis=1).astype(np.float32)
    # float32 keeps the tables in cache; rounding is monotone, so the envelope stays a bound.
    env = exact.copy()
    env[:, 2] = np.maximum.accumulate(exact[:, 2])
    if np.array_equal(env, exact):
        env = exact  # monotone schedules: one table in cache instead of two
    c = constant.astype(np.float32)
    mass = np.zeros((MAX_CLASSES, 2))
    mass[:, 0] = np.bincount(classes, weights=p, minlength=MAX_CLASSES)
    mass[:, 1] = np.bincount(classes, weights=p * value, minlength=MAX_CLASSES)
    return (np.ascontiguousarray(exact), np.ascontiguousarray(env), c,
            np.maximum.accumulate(c), mass)


def _removal_array(slopes: tuple[np.ndarray | None, ...],
                   masses: tuple[np.ndarray, ...]) -> np.ndarray:
    """float64[3, 16, MAX_CLASSES] for ``_ev_kernel.row_state``: per row, the slope of
    each class's ``ratio`` per feature (the probability's slope over the class's probability),
    then each class's probability and expected payment; zero slopes (no correction) without
    ``slopes``."""
    out = np.zeros((3, 16, MAX_CLASSES))
    for row, (slope, mass) in enumerate(zip(slopes, masses)):
        out[row, 14:16] = mass.T
        if slope is None:
            continue
        p = mass[:len(slope), 0]
        gamma = np.divide(slope, p[:, None], out=np.zeros_like(slope), where=p[:, None] > 0)
        out[row, :14, :len(slope)] = gamma.T
    return out


def _rounding_margin(params: np.ndarray, royalty: float) -> float:
    """How much float32 rounding can lift a split's value above its envelope bound.

    A corrected column is ``a[r] + b + ratio * c[r]`` with ``a`` and ``c`` stored in float32
    (relative error 2**-24), ``|ratio| <= 7`` and ``a``, ``c`` at most ``1 + royalty``; it is
    monotone in exact arithmetic, so rounding can break that by at most twice the error. That,
    for each of the nine inputs, times a generous bound on the value's slope in it.
    """
    top = 1.0 + royalty
    ratio = max(1.0 - (1.0 + _sk.RATIO_LO) / _sk.TOTAL_HI,
                (1.0 + _sk.RATIO_HI) / _sk.TOTAL_LO - 1.0)
    dip = 2.0 * 2.0 ** -24 * top * (1.0 + ratio)
    maj, sb, sm, k, hrb, hrm = (abs(float(x)) for x in params[:6])
    won = 3 * top + maj + sb
    slope = 1.0 + top + maj + sb + abs(sm - 1) * 2 * won + k * (hrb + abs(hrm - sm) * won)
    return dip * 9 * k * slope + 1e-12


_MODEL_CACHE: dict[tuple[Variant, int], tuple[RowTables, tuple[np.ndarray, ...]]] = {}


def _model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    """Kernel arrays of the row model, cached per (variant, tables object)."""
    key = (variant, id(tables))
    hit = _MODEL_CACHE.get(key)
    if hit is not None and hit[0] is tables:  # ``is``: an id can be reused after collection
        return hit[1]
    arrays = _build_model(variant, tables)
    if len(_MODEL_CACHE) >= 32:
        _MODEL_CACHE.pop(next(iter(_MODEL_CACHE)))
    _MODEL_CACHE[key] = (tables, arrays)
    return arrays


def _build_model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    kt = variant.kernel_tables()
    order = variant.ranking.value
    by_cat = kt["royalty_by_category"]
    always = variant.royalties.mode.value == "RM-ALWAYS"
    cat3 = np.array([int(k[0]) for k in _tables.three_card_keys()], dtype=np.int64)
    cat5 = _tables.five_card_tables(order).category.astype(np.int64)
    slopes = (None, None, None) if tables.removal is None else tables.removal.slopes()
    classes3, classes5 = rank_classes(order)
    tf, ef, cf, ecf, mf = _row_arrays(tables.front, by_cat[0][cat3], always, classes3)
    tm, em, cm, ecm, mm = _row_arrays(tables.middle, by_cat[1][cat5], always, classes5)
    tb, eb, cb, ecb, mb = _row_arrays(tables.back, by_cat[2][cat5], always, classes5)
    cst = np.zeros((3, 7462), dtype=np.float32)
    ecst = np.zeros((3, 7462), dtype=np.float32)
    for row, (c, e) in enumerate(((cf, ecf), (cm, ecm), (cb, ecb))):
        cst[row, :len(c)] = c
        ecst[row, :len(e)] = e
    removal = _removal_array(slopes, (mf, mm, mb))
    classes = np.zeros((3, 7462), dtype=np.uint8)
    classes[0, :455] = classes3
    classes[1:] = classes5
    # cap3[r]: the strongest front a middle of five-card rank r allows (H3, common scale).
    common5 = _tables.five_card_tables(order).common.astype(np.int64)
    common3 = _tables.three_card_common(order).astype(np.int64)
    best_under = np.maximum.accumulate(np.arange(455)[np.argsort(common3, kind="stable")])
    sorted3 = np.sort(common3)
    cap3 = best_under[np.searchsorted(sorted3, common5, side="right") - 1].astype(np.uint16)
    s = kt["scoring"]
    params = np.array([s[1], s[2], s[3], _opponents(variant), s[4], s[5], float(always), 0.0],
                      dtype=np.float64)
    royalty = max(float(np.max(by_cat)), 0.0)
    params[7] = _rounding_margin(params, royalty)
    return tf, tm, tb, cst, ef, em, eb, ecst, cap3, params, removal, classes


def _refuse_low_middle(variant: Variant) -> None:
    if _low_middle(variant):
        raise OptionError("strategy 'ev' does not support ranking=H5 (a low middle): its row "
                          "model and pruning assume back >= middle >= front; use 'greedy' or "
                          "'random', or pass your own strategy callable")


def ev_search(hands: np.ndarray, variant: Variant, tables: RowTables, *,
              prune: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(settings, expected value over all opponents, splits evaluated) of the ``ev`` search."""
    _refuse_low_middle(variant)
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    key, bit, nonflush, flush, t3, c5, c3 = _rank_args(variant)
    five_pos, three_pos, rest_mid, rest_front = _subset_tables()
    model = _model(variant, tables)
    n = arr.shape[0]
    out = np.empty_like(arr)
    value = np.empty(n, dtype=np.float64)
    visited = np.empty((n, 2), dtype=np.int64)
    scratch = (np.empty(1287, dtype=np.uint16), np.empty(286, dtype=np.uint16),
               np.empty(1287, dtype=np.int32), np.empty(_sk._N_BUCKETS + 1, dtype=np.int32),
               np.empty(1287, dtype=np.int64), np.empty((3, MAX_CLASSES, 4)),
               np.empty(14 + MAX_CLASSES))
    _sk.ev_kernel(arr, key, bit, nonflush, flush, _flush_best(variant.ranking.value), t3, c5, c3,
                  rest_mid, rest_front, five_pos, three_pos, *model, prune, out, value, visited,
                  *scratch)
    return out, value, visited


def ev_decisions(hands: np.ndarray, variant: Variant, tables: RowTables) -> Decisions:
    """``ev`` with explicit tables (used by training and by :func:`ev`)."""
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    settings, value, _ = ev_search(arr, variant, tables)
    k = _opponents(variant)
    payout = natural_payout(arr, variant) * k
    declare = (payout > 0) & (payout > value)
    cost = float(variant.kernel_tables()["surrender"])
    surrender = np.zeros(arr.shape[0], dtype=bool)
    if cost >= 0:
        surrender = ~declare & (value < -cost * k)
    chosen = np.where(declare, payout, np.where(surrender, -cost * k, value))
    return Decisions(settings, declare, surrender, chosen)


def ev(hands: np.ndarray, variant: Variant, *, rng: np.random.Generator | None = None,
       tables: RowTables | None = None) -> Decisions:
    """The rule-aware setter: the legal setting with the highest expected result (see module)."""
    _refuse_low_middle(variant)
    return ev_decisions(hands, variant, load_tables(variant) if tables is None else tables)


register_strategy("ev", ev)
