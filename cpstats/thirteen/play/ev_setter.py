"""The rule-aware ``ev`` setter, registered as ``ev``: the row model built from
:class:`~cpstats.thirteen.play.row_tables.RowTables` and the exact search over every legal split.

``ev`` searches every legal split (pruned exactly, see :mod:`cpstats.thirteen.play._ev_kernel`) for
the highest expected result against the field under the variant's scoring, royalties and table
size; it declares a natural when that pays more than the hand is expected to, and surrenders
when playing is expected to cost more than surrendering.

Decision (where the issue leaves a choice open): the row model treats the three rows and the
opponents as independent; card removal (what the hand holds changes what the opponents can
hold) enters to first order, per rank class of each row
(:class:`~cpstats.thirteen.play.row_tables.CardRemoval`); RM-CANCEL, RM-ONE and RM-DEALT are
valued as RM-WINNER, SC-2-4-total as SC-2-4, and a banked game as a ring game. Those are
approximations of the objective only: every setting returned is legal.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cpstats.thirteen.rules.ids import RoyaltyMode
from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.play import _ev_kernel as _sk
from cpstats.thirteen.play import _ev_low_kernel as _lk
from cpstats.thirteen.play._kernel_args import _flush_best, _low_middle, _rank_args, _subset_tables
from cpstats.thirteen.play.api import Decisions, natural_payout, register_strategy
from cpstats.thirteen.play.row_tables import MAX_CLASSES, RowTables, load_tables, rank_classes

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


def _cached(cache: dict, build, variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    """``build(variant, tables)``, cached in ``cache`` per (variant, tables object), 32 at most."""
    key = (variant, id(tables))
    hit = cache.get(key)
    if hit is not None and hit[0] is tables:  # ``is``: an id can be reused after collection
        return hit[1]
    arrays = build(variant, tables)
    if len(cache) >= 32:
        cache.pop(next(iter(cache)))
    cache[key] = (tables, arrays)
    return arrays


def _model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    """Kernel arrays of the row model, cached per (variant, tables object)."""
    return _cached(_MODEL_CACHE, _build_model, variant, tables)


def _scored_row(dist: np.ndarray, bonus: np.ndarray, points: float, always: bool,
                classes: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`_row_arrays` for a row that pays ``points`` when won (rows may pay
    differently): the points stand for the row's 1 and the royalty ``bonus`` stays on top,
    collected win or lose under RM-ALWAYS."""
    if not always:
        return _row_arrays(dist, bonus + (points - 1.0), False, classes)
    exact, env, _, _, mass = _row_arrays(dist, np.full_like(bonus, points - 1.0), False, classes)
    c = bonus.astype(np.float32)
    return exact, env, c, np.maximum.accumulate(c), mass


def _build_model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    kt = variant.kernel_tables()
    order = variant.ranking.value
    by_cat = kt["royalty_by_category"]
    always = variant.royalties.mode is RoyaltyMode.ALWAYS
    cat3 = np.array([int(k[0]) for k in _tables.three_card_keys()], dtype=np.int64)
    cat5 = _tables.five_card_tables(order).category.astype(np.int64)
    slopes = (None, None, None) if tables.removal is None else tables.removal.slopes()
    classes3, classes5 = rank_classes(order)
    points = variant.scoring_params().rows
    tf, ef, cf, ecf, mf = _scored_row(tables.front, by_cat[0][cat3], points[0], always, classes3)
    tm, em, cm, ecm, mm = _scored_row(tables.middle, by_cat[1][cat5], points[1], always, classes5)
    tb, eb, cb, ecb, mb = _scored_row(tables.back, by_cat[2][cat5], points[2], always, classes5)
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
    royalty = max(float(np.max(by_cat)), 0.0) + max(points) - 1.0  # a row's most, less 1
    params[7] = _rounding_margin(params, royalty)
    return tf, tm, tb, cst, ef, em, eb, ecst, cap3, params, removal, classes


@lru_cache(maxsize=1)
def _low_of_high() -> np.ndarray:
    """uint16[7462]: the H5 (low) rank of the five cards of each H1 rank. H5 orders the H1
    classes the other way round, except the wheel: a straight (flush) in H1, an ace-high hand
    (flush) in H5."""
    low = {k: i for i, k in enumerate(_tables.five_card_tables("H5").keys)}
    wheel = (12.0, 3.0, 2.0, 1.0, 0.0)
    out = np.empty(7462, dtype=np.uint16)
    for rank, key in enumerate(_tables.five_card_tables("H1").keys):
        if key[0] in (4, 8) and key[1] == 3.0:  # the wheel and the wheel straight flush
            key = (0.0 if key[0] == 4 else 5.0,) + wheel
        out[rank] = low[key]
    return out


@lru_cache(maxsize=1)
def _high_cap3() -> np.ndarray:
    """uint16[7462]: the strongest front (three-card rank) a back of each H1 rank allows."""
    common5 = _tables.five_card_tables("H1").common.astype(np.int64)
    common3 = _tables.three_card_common("H1").astype(np.int64)
    best_under = np.maximum.accumulate(np.arange(455)[np.argsort(common3, kind="stable")])
    return best_under[np.searchsorted(np.sort(common3), common5, side="right") - 1].astype(np.uint16)


def _build_low_model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    """Kernel arrays of the row model under H5 (``_ev_low_kernel.ev_low_kernel``'s ``tf`` to
    ``classes``), as :func:`_build_model` builds them (row points included) but with the
    middle's table and rank classes on the low scale and no middle royalty (an H5 middle earns
    none, so its units collected are the same at every rank and its table is its own envelope),
    the back's on the high (H1) scale."""
    kt = variant.kernel_tables()
    by_cat = kt["royalty_by_category"]
    always = variant.royalties.mode is RoyaltyMode.ALWAYS
    cat3 = np.array([int(k[0]) for k in _tables.three_card_keys()], dtype=np.int64)
    classes3, low_classes = rank_classes("H5")
    high_classes = rank_classes("H1")[1]
    high_cat = _tables.five_card_tables("H1").category.astype(np.int64)
    slopes = (None, None, None) if tables.removal is None else tables.removal.slopes()
    points = variant.scoring_params().rows
    tf, ef, cf, ecf, mf = _scored_row(tables.front, by_cat[0][cat3], points[0], always, classes3)
    tm, _, cm, _, mm = _scored_row(tables.middle, np.zeros(7462), points[1], always, low_classes)
    tb, eb, cb, ecb, mb = _scored_row(tables.back, by_cat[2][high_cat], points[2], always,
                                      high_classes)
    cst = np.zeros((3, 7462), dtype=np.float32)
    ecst = np.zeros((3, 7462), dtype=np.float32)
    for row, (c, e) in enumerate(((cf, ecf), (cm, cm), (cb, ecb))):
        cst[row, :len(c)] = c
        ecst[row, :len(e)] = e
    classes = np.zeros((3, 7462), dtype=np.uint8)
    classes[0, :455] = classes3
    classes[1], classes[2] = low_classes, high_classes
    s = kt["scoring"]
    params = np.array([s[1], s[2], s[3], _opponents(variant), s[4], s[5], float(always), 0.0])
    params[7] = _rounding_margin(params, max(float(np.max(by_cat[[0, 2]])), 0.0) + max(points) - 1.0)
    return (tf, tm, tb, cst, ef, eb, ecst, _high_cap3(), params,
            _removal_array(slopes, (mf, mm, mb)), classes)


_LOW_MODEL_CACHE: dict[tuple[Variant, int], tuple[RowTables, tuple[np.ndarray, ...]]] = {}


def _low_model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    """:func:`_build_low_model`, cached per (variant, tables object) as :func:`_model` is."""
    return _cached(_LOW_MODEL_CACHE, _build_low_model, variant, tables)


def _search_model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    """The kernel arrays :func:`ev_search` uses for ``variant`` (built and cached on the first
    call: callers that run the search on threads build them once beforehand)."""
    return _low_model(variant, tables) if _low_middle(variant) else _model(variant, tables)


@lru_cache(maxsize=64)
def _trained_low(variant_text: str) -> bool | None:
    """Whether tables trained for ``variant_text`` hold a low (H5) middle; None when the text
    is not a variant (then nothing is checked)."""
    from cpstats.thirteen.rules.variant import parse_variant

    try:
        return _low_middle(parse_variant(variant_text))
    except ValueError:
        return None


def _refuse_low_middle(variant: Variant, tables: RowTables) -> None:
    """Refuse tables whose middle is on the other scale: an H5 middle is a low hand, so tables
    trained under H1 or H4 (a high middle) say nothing about it, and the other way round."""
    trained = _trained_low(tables.variant)
    if trained is None or trained == _low_middle(variant):
        return
    need = "a low (H5)" if _low_middle(variant) else "a high"
    raise OptionError(f"ev: the row tables trained for {tables.variant!r} cannot set hands of "
                      f"{str(variant)!r}, which needs tables trained with {need} middle: train "
                      f"them with cpstats.thirteen.play.training.train_tables({str(variant)!r})")


def _ev_low_search(hands: np.ndarray, variant: Variant, tables: RowTables,
                   prune: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`ev_search` under H5: the ordered search of :mod:`~cpstats.thirteen.play._ev_low_kernel`."""
    key, bit, nonflush, flush, t3, c5, c3 = _rank_args(variant)  # H1 under H5
    five_pos, three_pos, rest_mid, rest_front = _subset_tables()
    n = hands.shape[0]
    out = np.empty_like(hands)
    value = np.empty(n, dtype=np.float64)
    visited = np.empty((n, 2), dtype=np.int64)
    scratch = (np.empty(1287, dtype=np.uint16), np.empty(1287, dtype=np.uint16),
               np.empty(286, dtype=np.uint16), np.empty(1287, dtype=np.int32),
               np.empty(_sk._N_BUCKETS + 1, dtype=np.int32), np.empty(1287, dtype=np.int64),
               np.empty((3, MAX_CLASSES, 4)), np.empty(14 + MAX_CLASSES))
    _lk.ev_low_kernel(hands, key, bit, nonflush, flush, t3, c5, c3, _low_of_high(), rest_mid,
                      rest_front, five_pos, three_pos, *_low_model(variant, tables), prune, out,
                      value, visited, *scratch)
    return out, value, visited


def ev_search(hands: np.ndarray, variant: Variant, tables: RowTables, *,
              prune: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(settings, expected value over all opponents, splits evaluated) of the ``ev`` search.

    Under H5 (a low middle) the search is over ordered splits with back >= front only (see
    :mod:`cpstats.thirteen.play._ev_low_kernel`), and ``tables`` must have been trained under H5.
    """
    _refuse_low_middle(variant, tables)
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    if _low_middle(variant):
        return _ev_low_search(arr, variant, tables, prune)
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
    """The rule-aware setter: the legal setting with the highest expected result (see module);
    under H5 (a low middle) over ordered splits, see :func:`ev_search`."""
    return ev_decisions(hands, variant, load_tables(variant) if tables is None else tables)


register_strategy("ev", ev)
