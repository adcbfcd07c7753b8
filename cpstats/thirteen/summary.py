"""Block summaries: one block's deals, settings and results reduced to additive arrays.

Counts, power sums and per-batch sums (one row per batch of the whole run) add from block to
block (:class:`SimulationSummary`, ``a + b``), so merging in block order gives bit-identical
results whatever the executor and memory does not grow with the deals; the net distribution is
kept sparse. Also the rows of one block as a DataFrame (``keep_hands``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cpstats.hands import tables as _tables
from cpstats.thirteen.naturals.detect import NATURALS, natural_mask
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.settlement import rake_limits, seat_charges, settle_many
from cpstats.engine.additive import Additive, by_value, largest, summed
from cpstats.engine.batches import by_batch, charged_distribution
from cpstats.thirteen.block import SetHands, fouls_of, row_ranks, row_results, rows_won_lost

#: Version of the block summaries' layout, part of a run's identity (resume refuses older blocks).
SUMMARY_FORMAT = 4
ROYALTY_ROWS = ("front_trips", "middle_full_house", "middle_quads", "middle_straight_flush",
                "back_quads", "back_straight_flush")
_F4 = "summary format 4"  # saved before it: no charge shares, rake limits or pooled batch counts
_F3 = "summary format 3"  # saved before it: no outcome counts


@dataclass(frozen=True)
class SimulationSummary(Additive):
    """A 13-card block's (or a whole run's) additive arrays. Shapes: P seats, H hands (seats x
    hands per seat), B batches of the run, V distinct nets, K pairs of hands, O outcomes.

    The first group depends on the nets and the rake (:func:`net_summary`), the second only on
    the settings and decisions (:func:`setting_summary`, reused by a rescore), the third on the
    outcomes between hands (:func:`cpstats.thirteen.outcomes.outcome_summary`).
    """

    deals: np.ndarray = summed("deals")  # () deals summarised
    net_sum: np.ndarray = summed("net_s1")  # (P,) power sums of each seat's net: sum of x
    net_sq_sum: np.ndarray = summed("net_s2")  # (P,) sum of x^2
    net_cube_sum: np.ndarray = summed("net_s3")  # (P,) sum of x^3
    net_fourth_sum: np.ndarray = summed("net_s4")  # (P,) sum of x^4
    wins: np.ndarray = summed("hits")  # (P,) deals the seat netted above 0
    pushes: np.ndarray = summed("pushes")  # (P,) deals it netted exactly 0
    rake_sum: np.ndarray = summed("rake_s1")  # () the house's charge (rake, commission, fee)
    rake_sq_sum: np.ndarray = summed("rake_s2")  # () its squares
    gross_sum: np.ndarray = summed("gross")  # () the winners' nets (the pot a percent rake takes)
    net_by_batch: np.ndarray = summed("batch_sums")  # (B, P)
    net_sq_by_batch: np.ndarray = summed("batch_s2", optional="results saved before per-batch squares")  # (B, P)
    batch_sizes: np.ndarray = summed("batch_sizes")  # (B,) deals in each batch
    rake_by_batch: np.ndarray = summed("batch_rake")  # (B,)
    net_values: np.ndarray = by_value("dist_values", "net_values")  # (V,) sorted
    net_counts: np.ndarray = by_value("dist_counts", "net_values")  # (V, P) deals at each net
    wins_by_batch: np.ndarray = summed("batch_hits", optional=_F4)  # (B, P)
    pushes_by_batch: np.ndarray = summed("batch_pushes", optional=_F4)  # (B, P)
    charge_sum: np.ndarray = summed("charge_s1", optional=_F4)  # (P,) seat's share of the charge
    after_charge_sq_sum: np.ndarray = summed("after_s2", optional=_F4)  # (P,) (net - share)^2
    charge_by_batch: np.ndarray = summed("batch_charge", optional=_F4)  # (B, P)
    after_charge_sq_by_batch: np.ndarray = summed("batch_after_s2", optional=_F4)  # (B, P)
    charge_by_net: np.ndarray = by_value("dist_charge", "net_values", optional=_F4)  # (V, P)
    rake_capped: np.ndarray = summed("rake_capped", optional=_F4)  # () deals a percent cap bound
    rake_below_threshold: np.ndarray = summed("rake_below_threshold", optional=_F4)  # ()
    pot_max: np.ndarray = largest("pot_max", optional=_F4)  # () the largest pot
    tie_gain_by_batch: np.ndarray = summed("batch_tie_gain", optional="banked games")  # (B,)
    fouls: np.ndarray = summed("foul")  # (H,) fouled hands by position
    surrenders: np.ndarray = summed("surrender")  # (H,)
    declared: np.ndarray = summed("declared")  # (H,) naturals declared
    naturals_held: np.ndarray = summed("natural_held")  # (naturals,) hands holding each
    naturals_declared: np.ndarray = summed("natural_declared")  # (naturals,)
    royalties_made: np.ndarray = summed("royalty_made")  # (6,) ROYALTY_ROWS made
    hands_played: np.ndarray = summed("rows_played")  # () hands that played rows, not fouled
    scoops: np.ndarray = summed("scoops")  # (H, H) hand a scooped hand b
    pairs_played: np.ndarray = summed("pair_live")  # (H, H) both played their rows
    home_runs: np.ndarray = summed("home_runs")  # (H,)
    pair_outcomes: np.ndarray = summed("pair_outcomes", optional=_F3)  # (K, O) counts
    pair_pay_sum: np.ndarray = summed("pair_pay_s1", optional=_F3)  # (K, O)
    pair_pay_sq_sum: np.ndarray = summed("pair_pay_s2", optional=_F3)  # (K, O)
    seat_outcomes: np.ndarray = summed("seat_outcomes", optional=_F3)  # (H, O)
    seat_pay_sum: np.ndarray = summed("seat_pay_s1", optional=_F3)  # (H, O)
    seat_pay_sq_sum: np.ndarray = summed("seat_pay_s2", optional=_F3)  # (H, O)
    seat_charge_sum: np.ndarray = summed("seat_charge_s1", optional=_F4)  # (H, O)
    pair_outcomes_by_batch: np.ndarray = summed("batch_pair_outcomes", optional=_F4)  # (B, K, O)
    seat_outcomes_by_batch: np.ndarray = summed("batch_seat_outcomes", optional=_F4)  # (B, H, O)
    scoops_by_batch: np.ndarray = summed("batch_scoops", optional=_F3)  # (B,) paired metrics:
    pairs_played_by_batch: np.ndarray = summed("batch_pair_live", optional=_F3)  # (B,)
    home_runs_by_batch: np.ndarray = summed("batch_home_runs", optional=_F3)  # (B,)
    fouls_by_batch: np.ndarray = summed("batch_fouls", optional=_F3)  # (B,)
    royalty_paid_by_batch: np.ndarray = summed("batch_royalty", optional=_F3)  # (B,) units moved
    natural_paid_by_batch: np.ndarray = summed("batch_natural", optional=_F3)  # (B,)
    gross_by_batch: np.ndarray = summed("batch_gross", optional=_F3)  # (B,)

    @classmethod
    def layout(cls, v: Variant) -> frozenset[str]:
        """The keys every block of a run of ``v`` holds (the bank's tie gain in banked games only)."""
        return frozenset(k for k in cls.keys() if v.bank.banked or k != "batch_tie_gain")


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


def _royalty_made(v: Variant, ranks: np.ndarray) -> np.ndarray:
    """bool (N, 6): rows holding a royalty hand (front trips, middle FH/quads/SF, back quads/SF),
    from the settings' ranks (N, 3) (:func:`~cpstats.thirteen.block.row_ranks`)."""
    order = v.ranking.value
    back_order = "H1" if order == "H5" else order
    middle_cat = _tables.five_card_tables(order).category[ranks[:, 1]]
    back_cat = _tables.five_card_tables(back_order).category[ranks[:, 2]]
    if order == "H5":
        middle_cat = np.zeros_like(middle_cat)
    front_trips = ranks[:, 0] >= 455 - 13  # the 13 trips are the top three-card ranks
    return np.stack([front_trips, middle_cat == 6, middle_cat == 7, middle_cat == 8,
                     back_cat == 7, back_cat == 8], axis=1)


def setting_summary(v: Variant, size: int, settings, surrender, declared, held,
                    hands: SetHands | None = None) -> dict:
    """The :class:`SimulationSummary` fields (by name) that depend only on the settings and decisions, not on scoring:
    fouls, royalty hands made, scoops and home runs, natural and decision counts. Rescoring
    under rules with the same ranking, naturals and seats reuses them. ``hands``: the block's
    :class:`~cpstats.thirteen.block.SetHands` of these decisions, if already made."""
    h = v.players * v.hands_per_player
    d = size
    if hands is None:
        hands = SetHands.of(v, settings.reshape(d, h, 13), surrender, declared)
    live, foul, opponents = hands.live, hands.foul, hands.opponents
    scoops = hands.rows == 3
    made = (_royalty_made(v, hands.ranks.reshape(-1, 3)) & ~foul.reshape(-1, 1)
            & live.reshape(-1, 1))
    hand_bits = held.reshape(-1)
    decl_bits = declared.reshape(-1)
    home_run = (scoops | ~opponents[None]).all(axis=2) & opponents.any(axis=1)[None] & live
    return {
        "fouls": foul.sum(axis=0), "surrenders": surrender.reshape(d, h).sum(axis=0),
        "declared": (declared != 0).sum(axis=0),
        "naturals_held": np.array([(hand_bits >> i & 1).sum() for i in range(len(NATURALS))]),
        "naturals_declared": np.array([(decl_bits >> i & 1).sum() for i in range(len(NATURALS))]),
        "royalties_made": made.sum(axis=0),
        "hands_played": np.array(live.sum() - (foul & live).sum()),
        "scoops": (scoops & opponents[None]).sum(axis=0),
        "pairs_played": ((live[:, :, None] & live[:, None, :]) & opponents[None]).sum(axis=0),
        "home_runs": home_run.sum(axis=0),
    }


def static_key(v: Variant) -> tuple:
    """What the setting summary depends on besides the settings: rescoring keeps it if equal."""
    rank = v.kernel_tables()["natural_rank"]
    return (v.ranking.value, v.players, v.hands_per_player, v.bank.mode.value,
            v.naturals.qka_front_straight, v.naturals.straight_flush_counts,
            tuple(int(r >= 0) for r in rank), v.surrender_amount() is not None)


def net_summary(v: Variant, net: np.ndarray, rake: np.ndarray, batch: np.ndarray, batches: int,
                tie_gain: np.ndarray | None = None) -> dict:
    """The :class:`SimulationSummary` fields (by name) that depend on the nets and the rake.

    Per-batch sums (of nets, squared nets, rake, and in a banked game the bank's gain from
    winning ties) have one row per batch of the whole run, so a block's summary adds to the
    others and memory does not grow with the deals.

    Summary format 4 adds, per seat and per batch, the deals won and broken even, for intervals
    of frequencies pooled over seats; each seat's share of the house charge
    (:func:`cpstats.thirteen.settlement.seat_charges`) and the square of its result after charges; and how
    often a percent rake's cap bound or its threshold kept it at 0, with the largest pot.
    """
    charge = seat_charges(v, net, rake)
    limits = rake_limits(v, net)
    values, counts, charges = charged_distribution(net, charge)
    sq = net * net
    after_sq = (net - charge) ** 2
    part = {
        "deals": np.array(len(net), dtype=np.int64),
        "net_sum": net.sum(axis=0), "net_sq_sum": sq.sum(axis=0),
        "net_cube_sum": (sq * net).sum(axis=0), "net_fourth_sum": (sq * sq).sum(axis=0),
        "wins": (net > 0).sum(axis=0), "pushes": (net == 0).sum(axis=0),
        "rake_sum": np.array(rake.sum()), "rake_sq_sum": np.array((rake**2).sum()),
        "gross_sum": np.array(np.where(net > 0, net, 0).sum()),
        "net_by_batch": by_batch(net, batch, batches), "net_sq_by_batch": by_batch(sq, batch, batches),
        "batch_sizes": np.bincount(batch, minlength=batches).astype(np.int64),
        "rake_by_batch": by_batch(rake, batch, batches),
        "net_values": values, "net_counts": counts,
        "wins_by_batch": by_batch((net > 0).astype(float), batch, batches),
        "pushes_by_batch": by_batch((net == 0).astype(float), batch, batches),
        "charge_sum": charge.sum(axis=0), "after_charge_sq_sum": after_sq.sum(axis=0),
        "charge_by_batch": by_batch(charge, batch, batches),
        "after_charge_sq_by_batch": by_batch(after_sq, batch, batches),
        "charge_by_net": charges,
        "rake_capped": np.array(int(limits["capped"].sum()), dtype=np.int64),
        "rake_below_threshold": np.array(int(limits["below_threshold"].sum()), dtype=np.int64),
        "pot_max": np.array(float(limits["pot"].max(initial=0.0))),
    }
    if tie_gain is not None:
        part["tie_gain_by_batch"] = by_batch(tie_gain, batch, batches)
    return part


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


def hands_frame(v: Variant, settings, declare, surrender, net, rake, held, first_deal: int = 0) -> pd.DataFrame:
    """One row per deal and seat (hand, in criss-cross) with compact dtypes.

    ``net`` is the seat's net before house charges (on each of its hands in criss-cross);
    ``rake`` is the seat's share of the deal's house charge (:func:`cpstats.thirteen.settlement.seat_charges`),
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
    ranks = row_ranks(v, flat)
    f_cat = np.array([int(k[0]) for k in _tables.three_card_keys()])[ranks[:, 0]]
    m_cat = _tables.five_card_tables(order).category[ranks[:, 1]]
    b_order = "H1" if order == "H5" else order
    b_cat = _tables.five_card_tables(b_order).category[ranks[:, 2]]
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
    foul = fouls_of(v, ranks)
    live = ~(surrender.reshape(d, h) | (declare.reshape(d, h) & (top.reshape(d, h) >= 0)))
    played = live.reshape(-1) & ~foul
    made = _royalty_made(v, ranks) & played[:, None]
    bonus = np.asarray(v.kernel_tables()["royalty_bonus"], dtype=np.float32)
    royalty = made * bonus[None, :]
    vs = row_results(*rows_won_lost(ranks.reshape(d, h, 3)), foul.reshape(d, h), live)
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
