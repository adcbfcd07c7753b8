"""Simulation: deal, set and settle millions of deals block by block into summary tables.

Each block of deals (see :mod:`cpstats.cards.blocks`) is dealt from its own SeedSequence child, set
by the strategy, settled by :func:`cpstats.settlement.settle_many` and reduced to additive
summaries (counts and power sums), so memory stays flat however many deals run, and the same
seed gives bit-identical results whatever the executor: summaries are merged in block order.

With ``out=DIR`` every finished block is written at once (``block-000012.npz``, plus
``hands-000012.parquet`` when ``keep_hands``), so an interrupted run started again with
``resume=True`` reuses them and ends with the result an uninterrupted run would have had.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import deque
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from cpstats.hands import tables as _tables
from cpstats.simulation.files import prepare_out, read_block, run_digest, write_block
from cpstats.cards.blocks import BLOCK_DEALS, DEALER, MAX_DEALS, BlockPlan, root_seed, shuffled_decks
from cpstats.errors import OptionError
from cpstats.hands.naturals import NATURALS, natural_mask
from cpstats.hands.ranking import rank3, rank5
from cpstats.rules.variant import Variant
from cpstats.rules.variant import resolve_variant
from cpstats.settlement.engine import settle_many
from cpstats.simulation.stats import (VOLATILITY_Z, batch_mean_interval, check_confidence, moments_from_sums,
                    wilson_interval, z_value)

__all__ = ["simulate", "compare", "SimulationResult", "BATCHES", "ROYALTY_ROWS", "save_result",
           "load_result", "load_reference", "REFERENCE_DIR", "batch_count"]

from cpstats._resources import REFERENCE_DIR  # cpstats/data/reference

#: Batch means per run: intervals of means use Student's t with BATCHES - 1 degrees of freedom
#: (20-30 batches, CASINO-MATH); a run of fewer deals has one batch a deal.
BATCHES = 30
#: Version of the block summaries' layout, part of a run's identity (resume refuses older blocks).
SUMMARY_FORMAT = 2
ROYALTY_ROWS = ("front_trips", "middle_full_house", "middle_quads", "middle_straight_flush",
                "back_quads", "back_straight_flush")
_SESSION_HANDS = (100, 1_000, 10_000)


# -- strategies ------------------------------------------------------------------------------

def _decide(strategy: Any, hands: np.ndarray, variant: Variant, rng: np.random.Generator):
    """(settings, declare, surrender) for hands (N, 13) by a strategy name or callable."""
    from cpstats.strategies.setters import set_hands

    decisions = set_hands(hands, variant, strategy=strategy, rng=rng)
    return (np.ascontiguousarray(decisions.settings, dtype=np.uint8),
            np.asarray(decisions.declare, dtype=bool), np.asarray(decisions.surrender, dtype=bool))


# -- one block -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Spec:
    """Everything a worker needs for a block: picklable, no open files."""

    variant: str
    strategy: Any
    entropy: Any
    spawn_key: tuple
    block_deals: int
    keep_hands: bool
    out: str | None
    deals: int
    batches: int
    digest: str


def _settle_block(v: Variant, hands: np.ndarray, settings, declare, surrender):
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
    from cpstats.hands.setting import is_foul

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


def _setting_summary(v: Variant, size: int, settings, surrender, declared, held) -> dict:
    """The summary parts that depend only on the settings and decisions, not on scoring:
    fouls, royalty hands made, scoops and home runs, natural and decision counts. Rescoring
    under rules with the same ranking, naturals and seats reuses them."""
    h = v.players * v.hands_per_player
    d = size
    flat = settings.reshape(-1, 13)
    live = ~(surrender.reshape(d, h) | (declared != 0))
    from cpstats.hands.setting import is_foul

    foul = is_foul(flat, ordering=v.ranking.value, check=False).reshape(d, h)
    rows = _row_results(v, settings.reshape(d, h, 13), live)
    scoops = rows == 3
    made = _royalty_made(v, flat) & ~foul.reshape(-1, 1) & live.reshape(-1, 1)
    hand_bits = held.reshape(-1)
    decl_bits = declared.reshape(-1)
    seat_of = np.arange(h) // v.hands_per_player
    opponents = seat_of[:, None] != seat_of[None, :]
    if v.bank.mode.value != "none":
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


def _net_distribution(net: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values, counts per seat) of the nets: sparse, so memory follows the distinct values.

    Nets in eighths of a unit over a range no wider than the block are counted without sorting;
    anything else (huge stakes, odd fractions) goes through ``np.unique``.
    """
    scaled = np.round(net * 8)
    if scaled.size and np.array_equal(scaled / 8, net):
        low, high = float(scaled.min()), float(scaled.max())
        if high - low <= 4 * net.size:
            codes = (scaled - low).astype(np.int64)
            width = int(high - low) + 1
            counts = np.stack([np.bincount(codes[:, s], minlength=width)
                               for s in range(net.shape[1])], axis=1)
            keep = counts.any(axis=1)
            return (np.arange(width)[keep] + low) / 8, counts[keep]
    values, inverse = np.unique(np.round(net, 9), return_inverse=True)
    counts = np.zeros((len(values), net.shape[1]), dtype=np.int64)
    np.add.at(counts, (inverse.reshape(net.shape), np.arange(net.shape[1])), 1)
    return values, counts


def _setting_summary_keys() -> tuple[str, ...]:
    return ("foul", "surrender", "declared", "natural_held", "natural_declared", "royalty_made",
            "rows_played", "scoops", "pair_live", "home_runs")


def _static_key(v: Variant) -> tuple:
    """What the setting summary depends on besides the settings: rescoring keeps it if equal."""
    rank = v.kernel_tables()["natural_rank"]
    return (v.ranking.value, v.players, v.hands_per_player, v.bank.mode.value,
            v.naturals.qka_front_straight, v.naturals.straight_flush_counts,
            tuple(int(r >= 0) for r in rank), v.surrender_amount() is not None)


def batch_count(deals: int) -> int:
    """Batches of a run of ``deals`` deals: :data:`BATCHES`, or one a deal below that."""
    return int(min(BATCHES, deals))


def _batch_of(first: int, size: int, deals: int, batches: int) -> np.ndarray:
    """Batch index of deals ``first .. first + size - 1``: batch j holds deals
    ``floor(j D / B) .. floor((j + 1) D / B) - 1``, so sizes differ by one deal at most."""
    return (np.arange(first, first + size, dtype=np.int64) * batches) // deals


def _by_batch(values: np.ndarray, batch: np.ndarray, batches: int) -> np.ndarray:
    """Sums of ``values`` (N,) or (N, k) per batch: (B,) or (B, k)."""
    if values.ndim == 1:
        return np.bincount(batch, weights=values, minlength=batches)
    return np.stack([np.bincount(batch, weights=values[:, j], minlength=batches)
                     for j in range(values.shape[1])], axis=1)


def _net_summary(net: np.ndarray, rake: np.ndarray, batch: np.ndarray, batches: int,
                 tie_gain: np.ndarray | None = None) -> dict:
    """The summary parts that depend on the nets and the rake.

    Per-batch sums (of nets, squared nets, rake, and in a banked game the bank's gain from
    winning ties) have one row per batch of the whole run, so a block's summary adds to the
    others and memory does not grow with the deals.
    """
    values, counts = _net_distribution(net)
    sq = net * net
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
    }
    if tie_gain is not None:
        part["batch_tie_gain"] = _by_batch(tie_gain, batch, batches)
    return part


def _tie_gain(v: Variant, settings: np.ndarray, declared, surrender, net: np.ndarray) -> np.ndarray | None:
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


def _summarise(v: Variant, size: int, hands, settings, declare, surrender, net, rake, declared, held,
               batch, batches, tie_gain):
    """Additive summary arrays of one block."""
    return {**_net_summary(net, rake, batch, batches, tie_gain),
            **_setting_summary(v, size, settings, surrender, declared, held)}


_DIST = ("dist_values", "dist_counts")


def _merge(total: dict | None, part: dict) -> dict:
    """Add a block's summary to the running total (every array adds but the distribution)."""
    if total is None:
        return {k: np.array(x, copy=True) for k, x in part.items()}
    out = {key: total[key] + value for key, value in part.items() if key not in _DIST}
    values = np.union1d(total["dist_values"], part["dist_values"])
    counts = np.zeros((len(values), total["dist_counts"].shape[1]), dtype=np.int64)
    counts[np.searchsorted(values, total["dist_values"])] += total["dist_counts"]
    counts[np.searchsorted(values, part["dist_values"])] += part["dist_counts"]
    out["dist_values"], out["dist_counts"] = values, counts
    return out


def _run_block(spec: _Spec, block: int, size: int) -> tuple[dict, dict | None]:
    """Deal, set, settle and summarise one block; write it to ``spec.out`` when given."""
    from cpstats.rules.variant import load_variant

    v = load_variant(spec.variant)
    root = np.random.SeedSequence(spec.entropy, spawn_key=spec.spawn_key)
    decks = shuffled_decks(root, block, size)
    h = v.players * v.hands_per_player
    hands = decks[:, : 13 * h].reshape(size, h, 13)
    # the strategy's own randomness: a grandchild of the block's seed, apart from the deal's stream
    strategy_rng = np.random.default_rng(
        np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (block, 0)))
    settings, declare, surrender = _decide(spec.strategy, hands.reshape(-1, 13), v, strategy_rng)
    net, rake, declared, held = _settle_block(v, hands, settings, declare, surrender)
    settings = settings.reshape(size, h, 13)
    first = block * spec.block_deals
    batch = _batch_of(first, size, spec.deals, spec.batches)
    tie_gain = _tie_gain(v, settings, declared, surrender.reshape(size, h), net)
    summary = _summarise(v, size, hands, settings, declare, surrender, net, rake, declared, held,
                         batch, spec.batches, tie_gain)
    kept = None
    if spec.keep_hands:
        kept = {"settings": settings, "declare": declare.reshape(size, h),
                "surrender": surrender.reshape(size, h), "held": held, "net": net, "rake": rake,
                "first": first, "static": {k: summary[k] for k in _setting_summary_keys()},
                "rules": _static_key(v)}
    if spec.out is not None:
        out = Path(spec.out)
        if kept is not None:
            frame = hands_frame(v, settings, kept["declare"], kept["surrender"], net, rake, held, first)
            tmp = out / f".hands-{block:06d}.parquet"
            frame.to_parquet(tmp, index=False)
            os.replace(tmp, out / f"hands-{block:06d}.parquet")
        write_block(out, block, summary, spec.digest)
    return summary, kept


def hands_frame(v: Variant, settings, declare, surrender, net, rake, held, first_deal: int = 0) -> pd.DataFrame:
    """One row per deal and seat (hand, in criss-cross) with compact dtypes."""
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
    from cpstats.hands.setting import is_foul

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
    frame["rake"] = np.repeat(rake, h).astype(np.float32)
    return frame


# -- public API -------------------------------------------------------------------------------

@dataclass
class SimulationResult:
    """Merged summaries of a simulation, with tables as DataFrames.

    Attributes
    ----------
    variant
        The variant simulated.
    summary
        The merged additive summary arrays (counts and power sums).
    metadata
        Variant string, strategy, deals, root entropy, block size, package versions.
    """

    variant: Variant
    summary: dict
    metadata: dict
    kept: list | None = field(default=None, repr=False)
    out: Path | None = None

    @property
    def deals(self) -> int:
        return int(self.summary["deals"])

    @property
    def hands(self) -> pd.DataFrame:
        """One row per deal and seat (needs ``keep_hands=True``): built from the rows kept in
        memory, or read back from the run's Parquet files when it was written to ``out=``."""
        if self.kept:
            v = self.variant
            return pd.concat([hands_frame(v, k["settings"], k["declare"], k["surrender"], k["net"],
                                          k["rake"], k["held"], k["first"]) for k in self.kept],
                             ignore_index=True)
        if self.out is None or not list(self.out.glob("hands-*.parquet")):
            raise OptionError("hands are not kept: run simulate(..., keep_hands=True)")
        return pd.concat([pd.read_parquet(p) for p in sorted(self.out.glob("hands-*.parquet"))],
                         ignore_index=True)

    def moments(self, confidence: float = 0.95) -> pd.DataFrame:
        """Mean, SD, variance, skewness, kurtosis per seat; the mean's interval by batch means
        with Student's t (``batches - 1`` degrees of freedom)."""
        s = self.summary
        m = moments_from_sums(self.deals, s["net_s1"], s["net_s2"], s["net_s3"], s["net_s4"])
        _, se, half = batch_mean_interval(s["batch_sums"], s["batch_sizes"], confidence)
        frame = pd.DataFrame({"seat": np.arange(self.variant.players), **m, "se": se})
        frame["ci_low"] = frame["mean"] - half
        frame["ci_high"] = frame["mean"] + half
        frame["hit_frequency"] = s["hits"] / self.deals
        frame["push_rate"] = s["pushes"] / self.deals
        frame["volatility_index"] = VOLATILITY_Z * frame["sd"]
        return frame

    def sessions(self, hands: Sequence[int] = _SESSION_HANDS, confidence: float = 0.90) -> pd.DataFrame:
        """Session intervals n*mu +- z*SD*sqrt(n) per seat."""
        m = self.moments()
        z = z_value(confidence)
        rows = []
        for n in hands:
            for _, r in m.iterrows():
                rows.append({"hands": n, "seat": int(r["seat"]), "expected": n * r["mean"],
                             "low": n * r["mean"] - z * r["sd"] * np.sqrt(n),
                             "high": n * r["mean"] + z * r["sd"] * np.sqrt(n)})
        return pd.DataFrame(rows)

    def naturals(self) -> pd.DataFrame:
        """Natural frequencies per hand (held and declared) with Wilson intervals and exact values."""
        from cpstats.hands.exact import exact_naturals

        s = self.summary
        hands = self.deals * self.variant.players * self.variant.hands_per_player
        exact = exact_naturals(qka_front_straight=self.variant.naturals.qka_front_straight)
        low, high = wilson_interval(s["natural_held"], hands)
        return pd.DataFrame({"natural": list(NATURALS), "held": s["natural_held"],
                             "frequency": s["natural_held"] / hands, "ci_low": low, "ci_high": high,
                             "exact_probability": exact.set_index("natural")["probability"].reindex(
                                 list(NATURALS)).to_numpy(),
                             "declared": s["natural_declared"]})

    def royalties(self) -> pd.DataFrame:
        """Rate of each royalty row made, per played (non-fouled, non-natural, non-surrender) hand."""
        s = self.summary
        played = max(int(s["rows_played"]), 1)
        low, high = wilson_interval(s["royalty_made"], played)
        return pd.DataFrame({"row": list(ROYALTY_ROWS), "made": s["royalty_made"],
                             "rate": s["royalty_made"] / played, "ci_low": low, "ci_high": high})

    def scoops(self) -> pd.DataFrame:
        """Scoop probability per pair of hands, and home-run rate per hand."""
        s = self.summary
        rows = []
        h = s["scoops"].shape[0]
        for a in range(h):
            for b in range(h):
                if s["pair_live"][a, b]:
                    k, n = s["scoops"][a, b], s["pair_live"][a, b]
                    low, high = wilson_interval(k, n)
                    rows.append({"hand": a, "against": b, "scoops": int(k), "pairs": int(n),
                                 "rate": k / n, "ci_low": float(low), "ci_high": float(high)})
        frame = pd.DataFrame(rows)
        frame.attrs["home_run_rate"] = (s["home_runs"] / self.deals).tolist()
        return frame

    def rates(self) -> pd.DataFrame:
        """Foul, surrender and declaration rates per hand position."""
        s = self.summary
        out = []
        for name in ("foul", "surrender", "declared"):
            low, high = wilson_interval(s[name], self.deals)
            out.append(pd.DataFrame({"rate": name, "hand": np.arange(len(s[name])), "count": s[name],
                                     "frequency": s[name] / self.deals, "ci_low": low, "ci_high": high}))
        return pd.concat(out, ignore_index=True)

    def distribution(self) -> pd.DataFrame:
        """Distribution of net units per seat: value, count and probability."""
        s = self.summary
        frame = pd.DataFrame(s["dist_counts"], columns=[f"seat_{i}" for i in range(s["dist_counts"].shape[1])])
        frame.insert(0, "net", s["dist_values"])
        for c in frame.columns[1:]:
            frame[c.replace("seat", "p")] = frame[c] / self.deals
        return frame

    def house(self, hands_per_hour: float | None = None, confidence: float = 0.95) -> pd.DataFrame:
        """The house's money: rake per hand, per hour and per seat, share of gross winnings,
        break-even edge, jackpot drop; in a banked game the house edge and element of risk.

        ``hands_per_hour`` defaults to the variant's pace (``rake.hands_per_hour``, 30). A time
        charge (``rake=time``) is ``rake.amount`` per seat per hour whatever the pace: per hour it
        is amount x seats, per hand amount x seats / hands_per_hour, so a faster game makes each
        hand cheaper and the hourly figure does not move. The jackpot drop is taken per hand on
        top of the rake and returns to the players as jackpots: it is shown apart and is not in
        the rake, its share of gross or the break-even edge (the skill edge per hand a seat needs
        to pay its share of the rake).

        Banked games (the bank is seat 0): a player stakes one unit on each row before the deal
        and adds nothing during the hand (surrender lowers a loss, it adds no wager), so the
        initial wager and the total wagered are both B = 3 units, and house edge = element of
        risk = -mu / 3, with mu a player's mean after the house's commission or fee (the
        ``rake``, shared among the player seats). With every seat set by one strategy the game
        with ties pushed is symmetric (mean exactly 0), so the bank's mean equals its mean gain
        from winning ties, which the simulation records deal by deal: that control variate has
        far less noise than the bank's own result (``house_edge_method``). Intervals: Student's
        t on batch means.
        """
        v = self.variant
        pace = v.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
        if isinstance(pace, bool) or not isinstance(pace, (int, float, np.number)) \
                or not np.isfinite(pace) or pace <= 0:
            raise OptionError(f"hands_per_hour={pace!r} is invalid: a pace above 0 hands an hour")
        pace = float(pace)
        s = self.summary
        seats = v.players
        sizes = s["batch_sizes"]
        rake, _, half = batch_mean_interval(s["batch_rake"], sizes, confidence)
        rake = float(rake)
        if v.rake.model.value == "time":  # the simulation charged it at the variant's own pace
            rake += v.rake.amount * seats * (1 / pace - 1 / v.rake.hands_per_hour)
        gross = float(s["gross"]) / self.deals
        drop = float(v.rake.jackpot_drop)
        row = {"hands_per_hour": pace, "rake_per_hand": rake, "rake_ci_low": rake - float(half),
               "rake_ci_high": rake + float(half), "rake_per_hour": rake * pace,
               "rake_per_seat_per_hand": rake / seats, "rake_per_seat_per_hour": rake * pace / seats,
               "rake_share_of_gross": rake / gross if gross else np.nan,
               "break_even_edge": rake / seats,
               "jackpot_drop_per_hand": drop, "jackpot_drop_per_hour": drop * pace}
        if v.bank.banked:
            row.update(self._banked_edge(confidence))
        return pd.DataFrame([row])

    def _banked_edge(self, confidence: float) -> dict:
        """House edge and element of risk of a banked game, per unit of the 3-unit wager."""
        s = self.summary
        opponents = max(self.variant.players - 1, 1)
        wager = 3.0
        if "batch_tie_gain" in s:
            per_deal = s["batch_tie_gain"] + s["batch_rake"]
            method = "control variate: the bank's gain from winning ties (the pushed game's mean is 0)"
        else:  # results saved before the control variate was recorded
            per_deal = s["batch_sums"][:, 0] + s["batch_rake"]
            method = "raw mean of the bank's result"
        edge, se, half = batch_mean_interval(per_deal / (opponents * wager), s["batch_sizes"], confidence)
        edge, se, half = float(edge), float(se), float(half)
        return {"initial_wager_units": wager, "house_edge": edge, "house_edge_se": se,
                "house_edge_ci_low": edge - half, "house_edge_ci_high": edge + half,
                "element_of_risk": edge, "bank_result_per_hand": edge * opponents * wager,
                "house_edge_method": method}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every summary table by name."""
        return {"moments": self.moments(), "sessions": self.sessions(), "naturals": self.naturals(),
                "royalties": self.royalties(), "scoops": self.scoops(), "rates": self.rates(),
                "distribution": self.distribution(), "house": self.house()}

    def rescore(self, other: Variant | str) -> "SimulationResult":
        """The same deals and settings settled under another scoring system, royalties or rake.

        Needs the settings: run with ``keep_hands=True``. The other variant must seat the same
        hands (players and deal format). The settings stay those chosen for the simulated
        variant: where the rules that move a setter's choices differ (scoring, royalties,
        naturals, surrender...), the result says so in ``metadata["rescore_notes"]``, with every
        rule that changed. Naturals of the new schedule are declared whenever a hand holds one
        (the decision of ``greedy`` and ``random``; a natural pays more than playing the hand in
        all but a few hands), surrender only where the hand surrendered and the new rules allow it.
        """
        v = resolve_variant(other)
        if self.kept is None:
            raise OptionError("rescore needs the settings: run simulate(..., keep_hands=True)")
        if (v.players, v.hands_per_player) != (self.variant.players, self.variant.hands_per_player):
            raise OptionError(f"rescore with {v} is invalid: it seats {v.players} players, "
                              f"the simulation {self.variant.players}")
        static_key = _static_key(v)
        in_play = np.uint32(sum(1 << i for i, r in enumerate(v.kernel_tables()["natural_rank"]) if r >= 0))
        deals, batches = self.deals, int(self.metadata.get("batches", batch_count(self.deals)))

        def one(kept: dict) -> dict:
            settings, surrender = kept["settings"], kept["surrender"]
            size, h = settings.shape[:2]
            if v.surrender_amount() is None:
                surrender = np.zeros_like(surrender)
            held = kept["held"]
            if kept["rules"] != static_key:
                held = natural_mask(settings.reshape(-1, 13), qka_front_straight=v.naturals.qka_front_straight,
                                    straight_flush_counts=v.naturals.straight_flush_counts,
                                    check=False).reshape(size, h)
            declared = np.where(surrender, 0, held & in_play).astype(np.uint32)
            net, rake = settle_many(v, settings, naturals=declared, surrender=surrender)
            batch = _batch_of(kept["first"], size, deals, batches)
            part = _net_summary(net, rake, batch, batches, _tie_gain(v, settings, declared, surrender, net))
            if kept["rules"] == static_key:
                part.update(kept["static"])
            else:
                part.update(_setting_summary(v, size, settings, surrender, declared, held))
            return part

        # The kernels release the GIL, so threads use every core; merging in block order keeps
        # the result bit-identical to a serial pass.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            parts = list(pool.map(one, self.kept))
        total = None
        for part in parts:
            total = _merge(total, part)
        meta = dict(self.metadata, variant=str(v), rescored_from=str(self.variant),
                    settings_variant=self.metadata.get("settings_variant", str(self.variant)),
                    rescore_notes=_rescore_notes(self.variant, v, self.metadata.get("strategy")))
        return SimulationResult(v, total, meta, kept=self.kept)


def _rescore_notes(setting: Variant, other: Variant, strategy) -> list[str]:
    """What a rescore changes: every rule component that differs, and whether the settings were
    chosen for other rules than those now scored."""
    before, after = setting.to_dict(), other.to_dict()
    changed = [k for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]
    notes = [f"{k}: {_short(before.get(k))} -> {_short(after.get(k))}" for k in changed]
    moves_play = [k for k in changed if k not in ("rake", "stakes", "name", "description")]
    if moves_play:
        notes.insert(0, f"settings are those {strategy} chose under {setting}, not under {other} "
                        f"({', '.join(moves_play)} changed)")
    return notes


def _short(value) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def save_result(result: SimulationResult, path: str | os.PathLike) -> Path:
    """Save a result's summaries (``.npz``) and metadata (``.json`` beside it)."""
    path = Path(path).with_suffix(".npz")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **result.summary)
    path.with_suffix(".json").write_text(json.dumps(result.metadata, indent=2))
    return path


def load_result(path: str | os.PathLike) -> SimulationResult:
    """Load a result written by :func:`save_result` (summaries only: no settings to rescore)."""
    from cpstats.rules.variant import load_variant

    path = Path(path).with_suffix(".npz")
    if not path.exists():
        raise OptionError(f"no saved result at {str(path)!r}")
    meta = json.loads(path.with_suffix(".json").read_text())
    with np.load(path) as data:
        summary = {k: data[k] for k in data.files}
    return SimulationResult(load_variant(meta["variant"]), summary, meta)


def load_reference(preset: str) -> SimulationResult:
    """The shipped reference result of a preset (``cpstats/data/reference/PRESET.npz``), made by
    ``cpstats reference``; opens instantly for notebooks and widgets."""
    from cpstats.rules.presets import get_preset

    get_preset(preset)  # unknown names get the close-match error
    return load_result(REFERENCE_DIR / f"{preset}.npz")


def _metadata(v: Variant, strategy, root, deals, block_deals) -> dict:
    import numba
    import scipy

    from cpstats._version import __version__

    meta = {"variant": str(v), "strategy": strategy if isinstance(strategy, str) else repr(strategy),
            "deals": int(deals), "entropy": str(root.entropy), "spawn_key": list(root.spawn_key),
            "block_deals": int(block_deals), "batches": batch_count(deals), "dealer": DEALER,
            "summary_format": SUMMARY_FORMAT, "cpstats": __version__, "numpy": np.__version__,
            "pandas": pd.__version__, "numba": numba.__version__, "scipy": scipy.__version__}
    if strategy == "ev":
        from cpstats.strategies.setters import tables_record

        meta["tables"] = tables_record(v)
    meta["run_digest"] = run_digest(meta)
    return meta


def simulate(variant: Variant | str, deals: int, players: int | None = None, strategy: Any = "ev",
             rng=None, executor: Executor | None = None, keep_hands: bool = False,
             out: str | os.PathLike | None = None, *, resume: bool = False, progress: bool = False,
             block_deals: int = BLOCK_DEALS) -> SimulationResult:
    """Deal, set and settle ``deals`` deals under ``variant`` and summarise them.

    Parameters
    ----------
    variant
        A Variant, preset name or variant string.
    deals
        Number of deals, 1 to :data:`~cpstats.cards.blocks.MAX_DEALS`.
    players
        Seats (2-4); None keeps the variant's.
    strategy
        Strategy name (see :mod:`cpstats.strategies`) or callable.
    rng
        Seed, SeedSequence, Generator or None (a Generator gives its next child each call).
    executor
        Any ``concurrent.futures``-style executor (a Dask client's included); None is serial.
        Blocks are submitted a window at a time and merged in block order as they finish.
    keep_hands
        Keep the settings in memory (for :meth:`SimulationResult.rescore` and
        :attr:`SimulationResult.hands`) and, with ``out``, write one Parquet file of rows per
        block.
    out
        Folder for finished blocks (and rows); with ``resume=True`` finished blocks of this
        same run (variant, seed, deals, strategy and tables) are reused; blocks of another run
        or that do not read are done again (``metadata["blocks_redone"]``).

    Examples
    --------
    >>> result = simulate("2-4", 2_000, strategy="greedy", rng=1)
    >>> abs(float(result.moments()["mean"].sum())) < 1e-9  # zero-sum between seats
    True
    """
    v = resolve_variant(variant)
    if players is not None and players != v.players:
        v = v.replace(players=players)
    plan = BlockPlan(deals, block_deals)
    root = root_seed(rng)
    meta = _metadata(v, strategy, root, deals, block_deals)
    out_path = prepare_out(out, meta, resume)
    spec = _Spec(str(v), strategy, root.entropy, tuple(root.spawn_key), block_deals, keep_hands,
                 None if out_path is None else str(out_path), int(deals), meta["batches"],
                 meta["run_digest"])
    from tqdm.auto import tqdm

    bar = tqdm(total=int(deals), unit="deal", unit_scale=True, disable=not progress,
               desc=f"simulating {v}")
    total, kept, redone = None, ([] if keep_hands else None), 0
    try:
        for block, (summary, block_kept), was_redone in _blocks_in_order(spec, plan, executor,
                                                                        out_path, resume):
            total = _merge(total, summary)
            if keep_hands:
                kept.append(block_kept)
            redone += was_redone
            bar.update(plan.size(block))
    finally:
        bar.close()
    meta["blocks_redone"] = redone
    return SimulationResult(v, total, meta, kept=kept, out=out_path)


def _blocks_in_order(spec: _Spec, plan: BlockPlan, executor, out_path: Path | None, resume: bool):
    """Yield (block, (summary, kept), redone) in block order, planning blocks lazily.

    Finished blocks of this run in ``out_path`` are read instead of run (not with ``keep_hands``,
    whose settings are not on disk). With an executor at most ``window`` blocks are in flight.
    """
    keys = None

    def stored(b: int):
        nonlocal keys
        if out_path is None or not resume or spec.keep_hands:
            return None, False
        if keys is None:
            keys = frozenset(_expected_keys(spec))
        return read_block(out_path, b, spec.digest, keys)

    if executor is None:
        for b in range(plan.blocks):
            done, redo = stored(b)
            yield b, (done, None) if done is not None else _run_block(spec, b, plan.size(b)), redo
        return
    window = 4 * (os.cpu_count() or 1) + 8
    pending: deque = deque()
    for b in range(plan.blocks):
        done, redo = stored(b)
        pending.append((b, (done, None) if done is not None
                        else executor.submit(_run_block, spec, b, plan.size(b)), redo))
        while len(pending) >= window or (pending and not hasattr(pending[0][1], "result")):
            yield _finished(pending.popleft())
    while pending:
        yield _finished(pending.popleft())


def _finished(item):
    block, work, redo = item
    return block, (work.result() if hasattr(work, "result") else work), redo


def _expected_keys(spec: _Spec) -> list[str]:
    """The summary keys a block of this run holds (to refuse a block of another layout)."""
    from cpstats.rules.variant import load_variant

    keys = ["deals", "net_s1", "net_s2", "net_s3", "net_s4", "hits", "pushes", "rake_s1", "rake_s2",
            "gross", "batch_sums", "batch_s2", "batch_sizes", "batch_rake", "dist_values", "dist_counts",
            *_setting_summary_keys()]
    if load_variant(spec.variant).bank.banked:
        keys.append("batch_tie_gain")
    return keys


def compare(variants: Sequence[Variant | str], deals: int, *, strategy: Any = "ev", rng=None,
            executor: Executor | None = None, block_deals: int = BLOCK_DEALS,
            confidence: float = 0.95) -> pd.DataFrame:
    """Side-by-side figures of several variants on common deals, with paired differences.

    Every variant plays the same deals (the same seed); each sets them with its own strategy
    tables, so where a variant changes how hands are set the settings are redone. The paired
    difference of seat 0's mean against the first variant is the mean of per-deal differences,
    its interval Student's t on the differences' batch means.
    """
    level = check_confidence(confidence)
    vs = [resolve_variant(v) for v in variants]
    if len(vs) < 2:
        raise OptionError(f"compare needs at least two variants, got {len(vs)}")
    root = root_seed(rng)
    results = [simulate(v, deals, strategy=strategy, rng=root, executor=executor,
                        block_deals=block_deals) for v in vs]
    rows = []
    base = results[0]
    for v, r in zip(vs, results):
        m = r.moments(level)
        seat0 = m.iloc[0]
        diff = r.summary["batch_sums"][:, :1] - base.summary["batch_sums"][:, :1]
        mean_diff, _, half = batch_mean_interval(diff, r.summary["batch_sizes"], level)
        mean_diff, half = float(mean_diff[0]), float(half[0])
        home = r.summary["home_runs"] / r.deals
        sc = r.scoops()
        rows.append({"variant": str(v), "mean_seat0": seat0["mean"], "sd": float(m["sd"].mean()),
                     "scoop_rate": float(sc["rate"].mean()) if len(sc) else 0.0,
                     "home_run_rate": float(home.mean()),
                     "foul_rate": float(r.summary["foul"].sum() / (r.deals * len(r.summary["foul"]))),
                     "rake_per_hand": float(r.summary["rake_s1"]) / r.deals,
                     "diff_vs_first": mean_diff, "diff_ci_low": mean_diff - half,
                     "diff_ci_high": mean_diff + half})
    return pd.DataFrame(rows)
