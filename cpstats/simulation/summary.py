"""Block summaries: one block's deals, settings and results reduced to additive arrays.

Counts, power sums and per-batch sums (one row per batch of the whole run) add from block to
block, so merging in block order gives bit-identical results whatever the executor and memory
does not grow with the deals; the net distribution is kept sparse. Also the rows of one block as
a DataFrame (``keep_hands``).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from cpstats.hands import tables as _tables
from cpstats.hands.naturals import NATURALS, natural_mask
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import is_foul
from cpstats.rules import Variant
from cpstats.settlement import rake_limits, seat_charges, settle_many

#: Batch means per run: intervals of means use Student's t with BATCHES - 1 degrees of freedom
#: (20-30 batches, CASINO-MATH); a run of fewer deals has one batch a deal.
BATCHES = 30
#: Version of the block summaries' layout, part of a run's identity (resume refuses older blocks).
SUMMARY_FORMAT = 4
ROYALTY_ROWS = ("front_trips", "middle_full_house", "middle_quads", "middle_straight_flush",
                "back_quads", "back_straight_flush")


def settle_block(v: Variant, hands: np.ndarray, settings, declare, surrender):
    """Settle one block's decisions; returns (net, rake, natural bits declared, natural bits held)."""
    d, h = hands.shape[:2]
    held = natural_mask(hands.reshape(-1, 13), qka_front_straight=v.naturals.qka_front_straight,
                        straight_flush_counts=v.naturals.straight_flush_counts,
                        check=False).reshape(d, h)
    in_play = np.uint32(sum(1 << i for i, r in enumerate(v.kernel_tables()["natural_rank"]) if r >= 0))
    declared = np.where(declare.reshape(d, h), held & in_play, 0).astype(np.uint32)
    net, rake = settle_many(v, settings.reshape(d, h, 13), naturals=declared,
                            surrender=surrender.reshape(d, h))
    return net, rake, declared, held


def _royalty_made(v: Variant, settings: np.ndarray) -> np.ndarray:
    """bool (N, 6): rows holding a royalty hand (front trips, middle FH/quads/SF, back quads/SF)."""
    order = v.ranking.value
    back_order = "H1" if order == "H5" else order
    front = rank3(settings[:, :3], check=False)
    middle_cat = _tables.five_card_tables(order).category[rank5(settings[:, 3:8], ordering=order, check=False)]
    back_cat = _tables.five_card_tables(back_order).category[rank5(settings[:, 8:], ordering=back_order, check=False)]
    if order == "H5":
        middle_cat = np.zeros_like(middle_cat)
    front_trips = front >= 455 - 13  # the 13 trips are the top three-card ranks
    return np.stack([front_trips, middle_cat == 6, middle_cat == 7, middle_cat == 8,
                     back_cat == 7, back_cat == 8], axis=1)


def _row_results(v: Variant, settings: np.ndarray, live: np.ndarray) -> np.ndarray:
    """int8 (D, H, H): rows won minus lost by hand a against hand b (fouled hands lose all)."""
    d, h = settings.shape[:2]
    flat = settings.reshape(-1, 13)
    order = v.ranking.value
    back_order = "H1" if order == "H5" else order
    ranks = np.stack([rank3(flat[:, :3], check=False).astype(np.int32),
                      rank5(flat[:, 3:8], ordering=order, check=False).astype(np.int32),
                      rank5(flat[:, 8:], ordering=back_order, check=False).astype(np.int32)], axis=1)
    foul = is_foul(flat, ordering=order, check=False).reshape(d, h)
    ranks = ranks.reshape(d, h, 3)
    out = np.zeros((d, h, h), dtype=np.int8)
    for a in range(h):
        for b in range(h):
            if a == b:
                continue
            rows = np.sign(ranks[:, a] - ranks[:, b]).sum(axis=1)
            rows = np.where(foul[:, a] & ~foul[:, b], -3, np.where(foul[:, b] & ~foul[:, a], 3,
                            np.where(foul[:, a] & foul[:, b], 0, rows)))
            out[:, a, b] = np.where(live[:, a] & live[:, b], rows, 0)
    return out


def setting_summary(v: Variant, size: int, settings, surrender, declared, held) -> dict:
    """The summary parts that depend only on the settings and decisions, not on scoring:
    fouls, royalty hands made, scoops and home runs, natural and decision counts. Rescoring
    under rules with the same ranking, naturals and seats reuses them."""
    h = v.players * v.hands_per_player
    d = size
    flat = settings.reshape(-1, 13)
    live = ~(surrender.reshape(d, h) | (declared != 0))
    foul = is_foul(flat, ordering=v.ranking.value, check=False).reshape(d, h)
    rows = _row_results(v, settings.reshape(d, h, 13), live)
    scoops = rows == 3
    made = _royalty_made(v, flat) & ~foul.reshape(-1, 1) & live.reshape(-1, 1)
    hand_bits = held.reshape(-1)
    decl_bits = declared.reshape(-1)
    seat_of = np.arange(h) // v.hands_per_player
    opponents = seat_of[:, None] != seat_of[None, :]
    if v.bank.banked:
        opponents &= (seat_of[:, None] == 0) | (seat_of[None, :] == 0)
    home_run = (scoops | ~opponents[None]).all(axis=2) & opponents.any(axis=1)[None] & live
    return {
        "foul": foul.sum(axis=0), "surrender": surrender.reshape(d, h).sum(axis=0),
        "declared": (declared != 0).sum(axis=0),
        "natural_held": np.array([(hand_bits >> i & 1).sum() for i in range(len(NATURALS))]),
        "natural_declared": np.array([(decl_bits >> i & 1).sum() for i in range(len(NATURALS))]),
        "royalty_made": made.sum(axis=0), "rows_played": np.array(live.sum() - (foul & live).sum()),
        "scoops": (scoops & opponents[None]).sum(axis=0),
        "pair_live": ((live[:, :, None] & live[:, None, :]) & opponents[None]).sum(axis=0),
        "home_runs": home_run.sum(axis=0),
    }


def net_distribution(net: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values, counts per seat) of the nets: sparse, so memory follows the distinct values.

    Nets in eighths of a unit over a range no wider than the block are counted without sorting;
    anything else (huge stakes, odd fractions) goes through ``np.unique``.
    """
    return charged_distribution(net, np.zeros(net.shape))[:2]


def charged_distribution(net: np.ndarray, charge: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`net_distribution` with, per value and seat, the sum of the seat's share of the
    house charge over the deals in which it netted that value (for the result after charges)."""
    scaled = np.round(net * 8)
    if scaled.size and np.array_equal(scaled / 8, net):
        low, high = float(scaled.min()), float(scaled.max())
        if high - low <= 4 * net.size:
            codes = (scaled - low).astype(np.int64)
            width = int(high - low) + 1
            counts = np.stack([np.bincount(codes[:, s], minlength=width)
                               for s in range(net.shape[1])], axis=1)
            charges = np.stack([np.bincount(codes[:, s], weights=charge[:, s], minlength=width)
                                for s in range(net.shape[1])], axis=1)
            keep = counts.any(axis=1)
            return (np.arange(width)[keep] + low) / 8, counts[keep], charges[keep]
    values, inverse = np.unique(np.round(net, 9), return_inverse=True)
    counts = np.zeros((len(values), net.shape[1]), dtype=np.int64)
    charges = np.zeros((len(values), net.shape[1]))
    where = (inverse.reshape(net.shape), np.arange(net.shape[1]))
    np.add.at(counts, where, 1)
    np.add.at(charges, where, charge)
    return values, counts, charges


def setting_summary_keys() -> tuple[str, ...]:
    return ("foul", "surrender", "declared", "natural_held", "natural_declared", "royalty_made",
            "rows_played", "scoops", "pair_live", "home_runs")


def static_key(v: Variant) -> tuple:
    """What the setting summary depends on besides the settings: rescoring keeps it if equal."""
    rank = v.kernel_tables()["natural_rank"]
    return (v.ranking.value, v.players, v.hands_per_player, v.bank.mode.value,
            v.naturals.qka_front_straight, v.naturals.straight_flush_counts,
            tuple(int(r >= 0) for r in rank), v.surrender_amount() is not None)


def batch_count(deals: int) -> int:
    """Batches of a run of ``deals`` deals: :data:`BATCHES`, or one a deal below that."""
    return int(min(BATCHES, deals))


def batch_of(first: int, size: int, deals: int, batches: int) -> np.ndarray:
    """Batch index of deals ``first .. first + size - 1``: batch j holds deals
    ``floor(j D / B) .. floor((j + 1) D / B) - 1``, so sizes differ by one deal at most."""
    return (np.arange(first, first + size, dtype=np.int64) * batches) // deals


def _by_batch(values: np.ndarray, batch: np.ndarray, batches: int) -> np.ndarray:
    """Sums of ``values`` (N,) or (N, k) per batch: (B,) or (B, k)."""
    if values.ndim == 1:
        return np.bincount(batch, weights=values, minlength=batches)
    return np.stack([np.bincount(batch, weights=values[:, j], minlength=batches)
                     for j in range(values.shape[1])], axis=1)


def net_summary(v: Variant, net: np.ndarray, rake: np.ndarray, batch: np.ndarray, batches: int,
                tie_gain: np.ndarray | None = None) -> dict:
    """The summary parts that depend on the nets and the rake.

    Per-batch sums (of nets, squared nets, rake, and in a banked game the bank's gain from
    winning ties) have one row per batch of the whole run, so a block's summary adds to the
    others and memory does not grow with the deals.

    Summary format 4 adds, per seat and per batch, the deals won (``batch_hits``) and broken
    even (``batch_pushes``), for intervals of frequencies pooled over seats; each seat's share
    of the house charge (:func:`cpstats.settlement.seat_charges`: ``charge_s1``,
    ``batch_charge``, per net value ``dist_charge``) and the square of its result after charges
    (``after_s2``, ``batch_after_s2``); and how often a percent rake's cap bound
    (``rake_capped``) or its threshold kept it at 0 (``rake_below_threshold``), with the largest
    pot (``pot_max``, merged by maximum).
    """
    charge = seat_charges(v, net, rake)
    limits = rake_limits(v, net)
    values, counts, charges = charged_distribution(net, charge)
    sq = net * net
    after_sq = (net - charge) ** 2
    part = {
        "deals": np.array(len(net), dtype=np.int64),
        "net_s1": net.sum(axis=0), "net_s2": sq.sum(axis=0),
        "net_s3": (sq * net).sum(axis=0), "net_s4": (sq * sq).sum(axis=0),
        "hits": (net > 0).sum(axis=0), "pushes": (net == 0).sum(axis=0),
        "rake_s1": np.array(rake.sum()), "rake_s2": np.array((rake**2).sum()),
        "gross": np.array(np.where(net > 0, net, 0).sum()),
        "batch_sums": _by_batch(net, batch, batches), "batch_s2": _by_batch(sq, batch, batches),
        "batch_sizes": np.bincount(batch, minlength=batches).astype(np.int64),
        "batch_rake": _by_batch(rake, batch, batches),
        "dist_values": values, "dist_counts": counts,
        "batch_hits": _by_batch((net > 0).astype(float), batch, batches),
        "batch_pushes": _by_batch((net == 0).astype(float), batch, batches),
        "charge_s1": charge.sum(axis=0), "after_s2": after_sq.sum(axis=0),
        "batch_charge": _by_batch(charge, batch, batches),
        "batch_after_s2": _by_batch(after_sq, batch, batches),
        "dist_charge": charges,
        "rake_capped": np.array(int(limits["capped"].sum()), dtype=np.int64),
        "rake_below_threshold": np.array(int(limits["below_threshold"].sum()), dtype=np.int64),
        "pot_max": np.array(float(limits["pot"].max(initial=0.0))),
    }
    if tie_gain is not None:
        part["batch_tie_gain"] = _by_batch(tie_gain, batch, batches)
    return part


def net_summary_keys(v: Variant) -> tuple[str, ...]:
    """The keys :func:`net_summary` gives for ``v`` (the same for every block of a run)."""
    keys = ("deals", "net_s1", "net_s2", "net_s3", "net_s4", "hits", "pushes", "rake_s1", "rake_s2",
            "gross", "batch_sums", "batch_s2", "batch_sizes", "batch_rake", "dist_values",
            "dist_counts", "batch_hits", "batch_pushes", "charge_s1", "after_s2", "batch_charge",
            "batch_after_s2", "dist_charge", "rake_capped", "rake_below_threshold", "pot_max")
    return keys + (("batch_tie_gain",) if v.bank.banked else ())


def tie_gain(v: Variant, settings: np.ndarray, declared, surrender, net: np.ndarray) -> np.ndarray | None:
    """In a banked game, the bank's result per deal less its result with tied rows pushed and no
    commission (None in other games). With every seat set by the same strategy the pushed game is
    symmetric, so its mean is exactly zero and this difference, nonzero only around ties, estimates
    the bank's edge with far less noise than the bank's own result."""
    if not v.bank.banked:
        return None
    pushed = dataclasses.replace(v, bank=dataclasses.replace(v.bank, wins_ties=False,
                                                             commission=0.0, fee=0.0))
    if pushed == v:
        return np.zeros(len(net))
    push_net, _ = settle_many(pushed, settings, naturals=declared, surrender=surrender)
    return net[:, 0] - push_net[:, 0]


def summarise(v: Variant, size: int, hands, settings, declare, surrender, net, rake, declared, held,
               batch, batches, tie_gain):
    """Additive summary arrays of one block."""
    return {**net_summary(v, net, rake, batch, batches, tie_gain),
            **setting_summary(v, size, settings, surrender, declared, held)}


#: Kept by net value, not by position: merged on the union of the values.
_DIST = ("dist_values", "dist_counts", "dist_charge")
#: Largest values: merged by maximum, not by sum.
_MAXIMA = ("pot_max",)


def merge(total: dict | None, part: dict) -> dict:
    """Add a block's summary to the running total (every array adds but the distribution,
    merged on its values, and the maxima)."""
    if total is None:
        return {k: np.array(x, copy=True) for k, x in part.items()}
    out = {key: total[key] + value for key, value in part.items() if key not in _DIST + _MAXIMA}
    out.update({key: np.maximum(total[key], part[key]) for key in _MAXIMA if key in part})
    values = np.union1d(total["dist_values"], part["dist_values"])
    old, new = np.searchsorted(values, total["dist_values"]), np.searchsorted(values, part["dist_values"])
    for key in _DIST[1:]:
        if key in part:
            merged = np.zeros((len(values), total[key].shape[1]), dtype=total[key].dtype)
            merged[old] += total[key]
            merged[new] += part[key]
            out[key] = merged
    out["dist_values"] = values
    return out


def hands_frame(v: Variant, settings, declare, surrender, net, rake, held, first_deal: int = 0) -> pd.DataFrame:
    """One row per deal and seat (hand, in criss-cross) with compact dtypes.

    ``net`` is the seat's net before house charges (on each of its hands in criss-cross);
    ``rake`` is the seat's share of the deal's house charge (:func:`cpstats.settlement.seat_charges`),
    split evenly over its hands in criss-cross, so the column sums to the house's take.
    """
    d, h = settings.shape[:2]
    flat = settings.reshape(-1, 13)
    names = np.array([r + s for r in "23456789TJQKA" for s in "cdhs"])
    text = names[flat]
    rows = [pd.Series(text[:, a:b].tolist()).str.join(" ") for a, b in ((0, 3), (3, 8), (8, 13))]
    order = v.ranking.value
    cats5 = pd.CategoricalDtype(list(_tables.CATEGORIES_5), ordered=True)
    cats3 = pd.CategoricalDtype(list(_tables.CATEGORIES_3), ordered=True)
    f_rank = rank3(flat[:, :3], check=False)
    f_cat = np.array([int(k[0]) for k in _tables.three_card_keys()])[f_rank]
    m_cat = _tables.five_card_tables(order).category[rank5(flat[:, 3:8], ordering=order, check=False)]
    b_order = "H1" if order == "H5" else order
    b_cat = _tables.five_card_tables(b_order).category[rank5(flat[:, 8:], ordering=b_order, check=False)]
    seat = np.tile(np.arange(h) // v.hands_per_player, d)
    bits = held.reshape(-1).astype(np.int64)
    natural_rank = v.kernel_tables()["natural_rank"]
    top = np.full(d * h, -1)
    best = np.full(d * h, -1)
    for i in range(len(NATURALS)):
        better = ((bits >> i) & 1).astype(bool) & (natural_rank[i] > best)
        top = np.where(better, i, top)
        best = np.where(better, natural_rank[i], best)
    nat_cats = pd.CategoricalDtype(["none", *NATURALS])
    foul = is_foul(flat, ordering=order, check=False)
    live = ~(surrender.reshape(d, h) | (declare.reshape(d, h) & (top.reshape(d, h) >= 0)))
    played = live.reshape(-1) & ~foul
    made = _royalty_made(v, flat) & played[:, None]
    bonus = np.asarray(v.kernel_tables()["royalty_bonus"], dtype=np.float32)
    royalty = made * bonus[None, :]
    vs = _row_results(v, settings, live)
    frame = pd.DataFrame({
        "deal": np.repeat(np.arange(first_deal, first_deal + d, dtype=np.int64), h),
        "seat": seat.astype(np.int8),
        "hand": np.tile(np.arange(h), d).astype(np.int8),
        "front": rows[0], "middle": rows[1], "back": rows[2],
        "front_category": pd.Categorical.from_codes(np.array([0, 1, 2, 2])[f_cat], dtype=cats3),
        "middle_category": pd.Categorical.from_codes(m_cat.astype(np.int8), dtype=cats5),
        "back_category": pd.Categorical.from_codes(b_cat.astype(np.int8), dtype=cats5),
        "natural": pd.Categorical.from_codes(top + 1, dtype=nat_cats),
        "naturals_held": held.reshape(-1).astype(np.uint32),
        "declared": declare.reshape(-1) & (top >= 0),
        "foul": foul,
        "surrender": surrender.reshape(-1),
        "royalty_front": royalty[:, 0],
        "royalty_middle": royalty[:, 1:4].max(axis=1),
        "royalty_back": royalty[:, 4:].max(axis=1),
    })
    for j in range(h):
        frame[f"rows_vs_{j}"] = vs[:, :, j].reshape(-1)
    frame["scoops"] = (vs == 3).sum(axis=2).reshape(-1).astype(np.int8)
    frame["scooped"] = (vs == -3).sum(axis=2).reshape(-1).astype(np.int8)
    opponents = (np.arange(h)[:, None] // v.hands_per_player) != (np.arange(h)[None, :] // v.hands_per_player)
    frame["home_run"] = ((vs == 3) | ~opponents[None]).all(axis=2).reshape(-1) & live.reshape(-1)
    frame["net"] = net[:, seat[:h]].reshape(-1).astype(np.float32)  # the seat's net, on each of its hands
    share = seat_charges(v, net, rake)[:, seat[:h]] / v.hands_per_player
    frame["rake"] = share.reshape(-1).astype(np.float32)
    return frame
