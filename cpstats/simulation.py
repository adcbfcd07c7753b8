"""Simulation: deal, set and settle millions of deals block by block into summary tables.

Each block of deals (see :mod:`cpstats.blocks`) is dealt from its own SeedSequence child, set
by the strategy, settled by :func:`cpstats.settlement.settle_many` and reduced to additive
summaries (counts and power sums), so memory stays flat however many deals run, and the same
seed gives bit-identical results whatever the executor: summaries are merged in block order.

With ``out=DIR`` every finished block is written at once (``block-000012.npz``, plus
``hands-000012.parquet`` when ``keep_hands``), so an interrupted run started again with
``resume=True`` reuses them and ends with the result an uninterrupted run would have had.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from . import _tables
from .blocks import BLOCK_DEALS, DEALER, BlockPlan, root_seed, shuffled_decks
from .errors import OptionError
from .naturals import NATURALS, natural_mask
from .ranking import rank3, rank5
from .rules import Variant
from .settlement import resolve_variant, settle_many
from .stats import VOLATILITY_Z, batch_means_se, moments_from_sums, wilson_interval, z_value

__all__ = ["simulate", "compare", "SimulationResult", "BATCH_DEALS", "ROYALTY_ROWS", "save_result",
           "load_result", "load_reference", "REFERENCE_DIR"]

from ._resources import REFERENCE_DIR  # cpstats/data/reference

BATCH_DEALS = 1024  # deals per batch mean (standard errors by batch means)
ROYALTY_ROWS = ("front_trips", "middle_full_house", "middle_quads", "middle_straight_flush",
                "back_quads", "back_straight_flush")
_SESSION_HANDS = (100, 1_000, 10_000)


# -- strategies ------------------------------------------------------------------------------

def _decide(strategy: Any, hands: np.ndarray, variant: Variant, rng: np.random.Generator):
    """(settings, declare, surrender) for hands (N, 13) by a strategy name or callable."""
    from .strategies import set_hands

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
    from .setting import is_foul

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
    from .setting import is_foul

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
    """(values, counts per seat) of the nets; eighths of a unit are counted without sorting."""
    scaled = np.round(net * 8)
    if np.array_equal(scaled / 8, net) and scaled.size:
        low = int(scaled.min())
        codes = (scaled - low).astype(np.int64)
        width = int(codes.max()) + 1
        counts = np.stack([np.bincount(codes[:, s], minlength=width) for s in range(net.shape[1])], axis=1)
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


def _net_summary(size: int, net: np.ndarray, rake: np.ndarray) -> dict:
    """The summary parts that depend on the nets and the rake."""
    n_batches = -(-size // BATCH_DEALS)
    batch_idx = np.arange(size) // BATCH_DEALS
    batch_sizes = np.bincount(batch_idx, minlength=n_batches)
    batch_sums = np.add.reduceat(net, np.arange(0, size, BATCH_DEALS), axis=0)
    batch_rake = np.add.reduceat(rake, np.arange(0, size, BATCH_DEALS))
    values, counts = _net_distribution(net)
    sq = net * net
    return {
        "deals": np.array(size, dtype=np.int64),
        "net_s1": net.sum(axis=0), "net_s2": sq.sum(axis=0),
        "net_s3": (sq * net).sum(axis=0), "net_s4": (sq * sq).sum(axis=0),
        "hits": (net > 0).sum(axis=0), "pushes": (net == 0).sum(axis=0),
        "rake_s1": np.array(rake.sum()), "rake_s2": np.array((rake**2).sum()),
        "gross": np.array(np.where(net > 0, net, 0).sum()),
        "batch_sums": batch_sums, "batch_sizes": batch_sizes, "batch_rake": batch_rake,
        "dist_values": values, "dist_counts": counts,
    }


def _summarise(v: Variant, size: int, hands, settings, declare, surrender, net, rake, declared, held):
    """Additive summary arrays of one block."""
    return {**_net_summary(size, net, rake), **_setting_summary(v, size, settings, surrender, declared, held)}


_CONCAT = {"batch_sums", "batch_sizes", "batch_rake"}


def _merge(total: dict | None, part: dict) -> dict:
    if total is None:
        return {k: np.array(x, copy=True) for k, x in part.items()}
    out = {}
    for key, value in part.items():
        if key in _CONCAT:
            out[key] = np.concatenate([total[key], value])
        elif key in ("dist_values", "dist_counts"):
            continue
        else:
            out[key] = total[key] + value
    values = np.union1d(total["dist_values"], part["dist_values"])
    counts = np.zeros((len(values), total["dist_counts"].shape[1]), dtype=np.int64)
    counts[np.searchsorted(values, total["dist_values"])] += total["dist_counts"]
    counts[np.searchsorted(values, part["dist_values"])] += part["dist_counts"]
    out["dist_values"], out["dist_counts"] = values, counts
    return out


def _run_block(spec: _Spec, block: int, size: int) -> tuple[dict, dict | None]:
    """Deal, set, settle and summarise one block; write it to ``spec.out`` when given."""
    from .rules import load_variant

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
    summary = _summarise(v, size, hands, settings, declare, surrender, net, rake, declared, held)
    kept = None
    if spec.keep_hands:
        kept = {"settings": settings.reshape(size, h, 13), "declare": declare.reshape(size, h),
                "surrender": surrender.reshape(size, h), "held": held,
                "static": {k: summary[k] for k in _setting_summary_keys()}, "rules": _static_key(v)}
    if spec.out is not None:
        _write_block(Path(spec.out), block, summary, v, hands, kept, net, rake, declared, held,
                     block * spec.block_deals)
    return summary, kept


# -- files ------------------------------------------------------------------------------------

def _write_block(out: Path, block: int, summary: dict, v: Variant, hands, kept, net, rake,
                 declared, held, first_deal: int) -> None:
    if kept is not None:
        frame = hands_frame(v, kept["settings"], kept["declare"], kept["surrender"], net, rake,
                            held, first_deal)
        tmp = out / f".hands-{block:06d}.parquet"
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, out / f"hands-{block:06d}.parquet")
    tmp = out / f".block-{block:06d}.npz"
    with open(tmp, "wb") as fh:
        np.savez(fh, **summary)
    os.replace(tmp, out / f"block-{block:06d}.npz")  # written last: its presence marks the block done


def _read_block(out: Path, block: int) -> dict | None:
    path = out / f"block-{block:06d}.npz"
    if not path.exists():
        return None
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


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
    from .setting import is_foul

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
        """One row per deal and seat, read back from Parquet (needs ``out=`` and ``keep_hands``)."""
        if self.out is None or not list(self.out.glob("hands-*.parquet")):
            raise OptionError("hands are not kept: run simulate(..., keep_hands=True, out=DIR)")
        return pd.concat([pd.read_parquet(p) for p in sorted(self.out.glob("hands-*.parquet"))],
                         ignore_index=True)

    def moments(self, confidence: float = 0.95) -> pd.DataFrame:
        """Mean, SD, variance, skewness, kurtosis per seat; mean CI by batch means."""
        s = self.summary
        m = moments_from_sums(self.deals, s["net_s1"], s["net_s2"], s["net_s3"], s["net_s4"])
        se = batch_means_se(s["batch_sums"], s["batch_sizes"])
        z = z_value(confidence)
        frame = pd.DataFrame({"seat": np.arange(self.variant.players), **m, "se": se})
        frame["ci_low"] = frame["mean"] - z * frame["se"]
        frame["ci_high"] = frame["mean"] + z * frame["se"]
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
        from .exact import exact_naturals

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

    def house(self, hands_per_hour: float = 30.0) -> pd.DataFrame:
        """Rake per hand and per hour, burden per seat, share of gross winnings, break-even edge;
        for a banked game, the house edge (the bank is seat 0) and element of risk.

        Decision: in a banked game the initial wager B is one unit per player and the total
        wagered is three units (one on each row), so house edge = -mu / 1 and element of
        risk = -mu / 3, with mu a player's mean net after the house's commission or fee
        (``rake`` shared among the player seats). The break-even edge is the skill edge per
        hand a player needs against the field to pay their share of the rake.""" 
        s = self.summary
        rake = float(s["rake_s1"]) / self.deals
        gross = float(s["gross"]) / self.deals
        rake_se = float(batch_means_se(s["batch_rake"], s["batch_sizes"]))
        seats = self.variant.players
        row = {"rake_per_hand": rake, "rake_se": rake_se, "rake_per_hour": rake * hands_per_hour,
               "rake_per_seat_per_hand": rake / seats, "rake_share_of_gross": rake / gross if gross else np.nan,
               "break_even_edge": rake / seats, "hands_per_hour": hands_per_hour}
        if self.variant.bank.mode.value != "none":
            m = self.moments()
            bank = m.loc[m["seat"] == 0].iloc[0]
            opponents = max(seats - 1, 1)
            # the nets are zero-sum, so a player's mean is the bank's, shared, with sign reversed
            mu = -(float(bank["mean"]) + rake) / opponents
            row["house_edge"] = -mu
            row["house_edge_se"] = float(bank["se"]) / opponents
            row["element_of_risk"] = -mu / 3
            row["bank_result_per_hand"] = float(bank["mean"]) + rake
        return pd.DataFrame([row])

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every summary table by name."""
        return {"moments": self.moments(), "sessions": self.sessions(), "naturals": self.naturals(),
                "royalties": self.royalties(), "scoops": self.scoops(), "rates": self.rates(),
                "distribution": self.distribution(), "house": self.house()}

    def rescore(self, other: Variant | str) -> "SimulationResult":
        """The same deals and settings settled under another scoring system, royalties or rake.

        Needs the settings: run with ``keep_hands=True``. The other variant must seat the same
        hands (players and deal format).
        """
        v = resolve_variant(other)
        if self.kept is None:
            raise OptionError("rescore needs the settings: run simulate(..., keep_hands=True)")
        if (v.players, v.hands_per_player) != (self.variant.players, self.variant.hands_per_player):
            raise OptionError(f"rescore with {v} is invalid: it seats {v.players} players, "
                              f"the simulation {self.variant.players}")
        static_key = _static_key(v)
        in_play = np.uint32(sum(1 << i for i, r in enumerate(v.kernel_tables()["natural_rank"]) if r >= 0))

        def one(kept: dict) -> dict:
            settings, declare, surrender = kept["settings"], kept["declare"], kept["surrender"]
            size, h = settings.shape[:2]
            if v.surrender_amount() is None:
                surrender = np.zeros_like(surrender)
            held = kept["held"]
            if kept["rules"] != static_key:
                held = natural_mask(settings.reshape(-1, 13), qka_front_straight=v.naturals.qka_front_straight,
                                    straight_flush_counts=v.naturals.straight_flush_counts,
                                    check=False).reshape(size, h)
            declared = np.where(declare, held & in_play, 0).astype(np.uint32)
            net, rake = settle_many(v, settings, naturals=declared, surrender=surrender)
            part = _net_summary(size, net, rake)
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
        meta = dict(self.metadata, variant=str(v), rescored_from=str(self.variant))
        return SimulationResult(v, total, meta, kept=self.kept)


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
    from .rules import load_variant

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
    from .presets import get_preset

    get_preset(preset)  # unknown names get the close-match error
    return load_result(REFERENCE_DIR / f"{preset}.npz")


def _metadata(v: Variant, strategy, root, deals, block_deals) -> dict:
    import numba
    import scipy

    from . import __version__

    meta = {"variant": str(v), "strategy": strategy if isinstance(strategy, str) else repr(strategy),
            "deals": int(deals), "entropy": str(root.entropy), "spawn_key": list(root.spawn_key),
            "block_deals": int(block_deals), "dealer": DEALER, "cpstats": __version__,
            "numpy": np.__version__,
            "pandas": pd.__version__, "numba": numba.__version__, "scipy": scipy.__version__}
    if strategy == "ev":
        from .strategies import tables_record

        meta["tables"] = tables_record(v)
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
        Number of deals (>= 1).
    players
        Seats (2-4); None keeps the variant's.
    strategy
        Strategy name (see :mod:`cpstats.strategies`) or callable.
    rng
        Seed, SeedSequence, Generator or None.
    executor
        Any ``concurrent.futures``-style executor (a Dask client's included); None is serial.
    keep_hands
        Keep the settings (for :meth:`SimulationResult.rescore`) and, with ``out``, write one
        Parquet file of rows per block.
    out
        Folder for finished blocks (and rows); with ``resume=True`` finished blocks are reused.

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
    out_path = _prepare_out(out, meta, resume)
    spec = _Spec(str(v), strategy, root.entropy, tuple(root.spawn_key), block_deals,
                 keep_hands, None if out_path is None else str(out_path))
    results: dict[int, tuple[dict, dict | None]] = {}
    todo = []
    for b in range(plan.blocks):
        done = _read_block(out_path, b) if (out_path is not None and resume) else None
        if done is not None and not keep_hands:
            results[b] = (done, None)
        else:
            todo.append(b)
    from tqdm.auto import tqdm

    bar = tqdm(total=int(deals), initial=sum(plan.size(b) for b in results), unit="deal",
               unit_scale=True, disable=not progress, desc=f"simulating {v}")
    try:
        if executor is None:
            for b in todo:
                results[b] = _run_block(spec, b, plan.size(b))
                bar.update(plan.size(b))
        else:
            from concurrent.futures import as_completed

            futures = {executor.submit(_run_block, spec, b, plan.size(b)): b for b in todo}
            for future in as_completed(futures):
                b = futures[future]
                results[b] = future.result()
                bar.update(plan.size(b))
    finally:
        bar.close()
    total = None
    kept = [] if keep_hands else None
    for b in range(plan.blocks):
        summary, block_kept = results[b]
        total = _merge(total, summary)
        if keep_hands:
            kept.append(block_kept)
    return SimulationResult(v, total, meta, kept=kept, out=out_path)


def _prepare_out(out, meta: dict, resume: bool) -> Path | None:
    if out is None:
        if resume:
            raise OptionError("resume=True needs out=DIR, the folder of the run to resume")
        return None
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    run_file = path / "run.json"
    if run_file.exists():
        old = json.loads(run_file.read_text())
        keys = ("variant", "entropy", "spawn_key", "block_deals", "dealer", "strategy", "tables")
        if not resume or any(old.get(k) != meta.get(k) for k in keys):
            differ = [k for k in keys if old.get(k) != meta.get(k)]
            raise OptionError(
                f"out={str(path)!r} holds blocks of another run"
                + (f" (differs in {', '.join(differ)})" if differ else "")
                + ": pass resume=True with the same variant, seed and strategy (and ev tables), "
                "or another folder")
    run_file.write_text(json.dumps(meta, indent=2))
    return path


def compare(variants: Sequence[Variant | str], deals: int, *, strategy: Any = "ev", rng=None,
            executor: Executor | None = None, block_deals: int = BLOCK_DEALS,
            confidence: float = 0.95) -> pd.DataFrame:
    """Side-by-side figures of several variants on common deals, with paired differences.

    Every variant plays the same deals (the same seed); each sets them with its own strategy
    tables, so where a variant changes how hands are set the settings are redone. Paired
    differences against the first variant have SE = sd(X_A - X_B) / sqrt(n) per seat 0.
    """
    vs = [resolve_variant(v) for v in variants]
    if len(vs) < 2:
        raise OptionError(f"compare needs at least two variants, got {len(vs)}")
    root = root_seed(rng)
    results = [simulate(v, deals, strategy=strategy, rng=root, executor=executor,
                        block_deals=block_deals) for v in vs]
    z = z_value(confidence)
    rows = []
    base = results[0]
    for v, r in zip(vs, results):
        m = r.moments()
        seat0 = m.iloc[0]
        diff = r.summary["batch_sums"][:, 0] - base.summary["batch_sums"][:, 0]
        se_diff = float(batch_means_se(diff[:, None], r.summary["batch_sizes"])[0])
        mean_diff = float(diff.sum() / r.deals)
        home = r.summary["home_runs"] / r.deals
        sc = r.scoops()
        rows.append({"variant": str(v), "mean_seat0": seat0["mean"], "sd": float(m["sd"].mean()),
                     "scoop_rate": float(sc["rate"].mean()) if len(sc) else 0.0,
                     "home_run_rate": float(home.mean()),
                     "foul_rate": float(r.summary["foul"].sum() / (r.deals * len(r.summary["foul"]))),
                     "rake_per_hand": float(r.summary["rake_s1"]) / r.deals,
                     "diff_vs_first": mean_diff, "diff_ci_low": mean_diff - z * se_diff,
                     "diff_ci_high": mean_diff + z * se_diff})
    return pd.DataFrame(rows)
