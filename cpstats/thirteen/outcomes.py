"""Outcome tables (of the PAR sheet): what happens between two players and to one seat.

A block's deals are sorted into outcomes of each pair of hands (rows won-lost-tied, naturals,
surrenders, fouls) and of each hand against its whole table (home run, scoops, scooped...), with
the count and the sums of the pay and its square in each outcome: fixed-size additive arrays, so
the tables give each outcome's probability, mean pay and contributions to the mean and variance.
The per-batch sums of the designer's metrics (scoops, home runs, fouls, royalties and naturals
paid, gross winnings) live here too, for paired differences between variants.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.thirteen.rules.components import Royalties
from cpstats.rules.house import Stakes
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.settlement import settle_many
from cpstats.engine.stats import wilson_interval
from cpstats.thirteen.block import FOUL, NATURAL, SURRENDER, SetHands
from cpstats.engine.batches import by_batch
from cpstats.thirteen.summary import SimulationSummary

__all__ = ["PAIR_OUTCOMES", "SEAT_OUTCOMES", "outcome_summary", "outcome_table", "outcome_batches"]

#: Rows won-lost-tied of two played hands, then naturals, surrenders and fouls (own, opponent's,
#: both), with their words; the first is the hand of the row's ``seat``.
PAIR_OUTCOMES = (
    ("3-0-0", "scoop won (all three rows)"), ("2-1-0", "won two rows, lost one"),
    ("1-2-0", "won one row, lost two"), ("0-3-0", "scoop lost (all three rows)"),
    ("2-0-1", "won two rows, one tied"), ("1-1-1", "won one, lost one, one tied"),
    ("0-2-1", "lost two rows, one tied"), ("1-0-2", "won one row, two tied"),
    ("0-1-2", "lost one row, two tied"), ("0-0-3", "all three rows tied"),
    ("natural", "declared a natural"), ("natural against", "the opponent declared a natural"),
    ("naturals both", "both declared naturals"), ("surrender", "surrendered"),
    ("surrender against", "the opponent surrendered"), ("surrenders both", "both surrendered"),
    ("foul", "fouled (mis-set)"), ("foul against", "the opponent fouled"),
    ("fouls both", "both fouled"),
)
#: A hand against its whole table: its own natural, surrender or foul first, then scoops.
SEAT_OUTCOMES = (
    ("natural", "declared a natural"), ("surrender", "surrendered"), ("foul", "fouled (mis-set)"),
    ("home run", "scooped every opponent"), ("scoops", "scooped some opponents, scooped by none"),
    ("scooped", "scooped by some opponents, scooped none"),
    ("scoops and scooped", "scooped some opponents and was scooped by others"),
    ("no scoop", "no scoop either way"),
)
#: Index in PAIR_OUTCOMES of (rows won, rows lost).
_PATTERN = np.array([[9, 8, 6, 3], [7, 5, 2, -1], [4, 1, -1, -1], [0, -1, -1, -1]])
_MIRROR = np.array([3, 2, 1, 0, 6, 5, 4, 8, 7, 9, 11, 10, 12, 14, 13, 15, 17, 16, 18])


def pair_codes(v: Variant, settings: np.ndarray, surrender, declared,
               hands: SetHands | None = None) -> np.ndarray:
    """int (D, P): the outcome (index in :data:`PAIR_OUTCOMES`) of each pair of
    ``v.pair_order()``, from its first hand's side. Rows are compared as ranked: a tie is a tie
    even where the bank wins it (its pay says so). ``hands``: the block's
    :class:`~cpstats.thirteen.block.SetHands` of these decisions, if already made."""
    if hands is None:
        hands = SetHands.of(v, settings, surrender, declared)
    status = hands.status
    pairs = v.pair_order().astype(int)
    out = np.empty((len(status), len(pairs)), dtype=np.int64)
    for p, (a, b) in enumerate(pairs):
        pattern = _PATTERN[hands.won[:, a, b], hands.lost[:, a, b]]
        sa, sb = status[:, a], status[:, b]
        code = pattern
        for kind, first in ((FOUL, 16), (SURRENDER, 13), (NATURAL, 10)):
            code = np.where((sa == kind) & (sb == kind), first + 2, np.where(
                sa == kind, first, np.where(sb == kind, first + 1, code)))
        out[:, p] = code
    return out


def pair_pays(v: Variant, settings: np.ndarray, surrender, declared, net: np.ndarray) -> np.ndarray:
    """float (D, P): what the first hand's seat of each pair receives from the second's, before
    house charges. Two seats: the first seat's net; banked: minus the player's net; otherwise one
    settlement per seat with the stakes of every other pair set to 0 (home runs still count the
    whole table). Criss-cross pairs of hands carry the two seats' whole exchange."""
    pairs = v.pair_order().astype(int)
    seats = pairs // v.hands_per_player
    out = np.empty((len(net), len(pairs)))
    if v.players == 2 or v.bank.banked:
        for p, (sa, sb) in enumerate(seats):
            out[:, p] = net[:, sa] if v.players == 2 else -net[:, sb]
        return out
    stakes = v.stakes_array()
    for i in range(v.players - 1):
        only = np.zeros_like(stakes)
        only[i, :], only[:, i] = stakes[i, :], stakes[:, i]
        alone = dataclasses.replace(v, stakes=Stakes(only.tolist()))
        part, _ = settle_many(alone, settings, naturals=declared, surrender=surrender, check_deck=False)
        for p, (sa, sb) in enumerate(seats):
            if sa == i:
                out[:, p] = -part[:, sb]
    return out


def seat_codes(v: Variant, status: np.ndarray, rows: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    """int (D, H): each hand's outcome against its table (index in :data:`SEAT_OUTCOMES`).
    Scoops count as in :meth:`SimulationResult.scoops`: a fouled opponent is scooped."""
    scoops = ((rows == 3) & opponents[None]).any(axis=2)
    scooped = ((rows == -3) & opponents[None]).any(axis=2)
    home_run = ((rows == 3) | ~opponents[None]).all(axis=2) & opponents.any(axis=1)[None]
    played = np.where(home_run, 3, np.where(scoops & scooped, 6, np.where(
        scoops, 4, np.where(scooped, 5, 7))))
    return np.select([status == NATURAL, status == SURRENDER, status == FOUL], [0, 1, 2], played)


def _by_code(codes: np.ndarray, values: np.ndarray, kinds: int) -> np.ndarray:
    """(columns, kinds) sums of ``values`` (D, columns) by the code (D, columns) of each cell."""
    cols = codes.shape[1]
    index = (codes + kinds * np.arange(cols)[None, :]).reshape(-1)
    return np.bincount(index, weights=values.reshape(-1), minlength=cols * kinds).reshape(cols, kinds)


def _by_batch_code(codes: np.ndarray, batch: np.ndarray, batches: int, kinds: int) -> np.ndarray:
    """(batches, columns, kinds) counts of each code (D, columns) per batch: the per-batch
    outcome counts behind intervals of outcome rates pooled over pairs or seats."""
    cols = codes.shape[1]
    index = ((batch[:, None] * cols + np.arange(cols)[None, :]) * kinds + codes).reshape(-1)
    return np.bincount(index, minlength=batches * cols * kinds).reshape(batches, cols, kinds)


def _royalty_moved(v: Variant, settings, surrender, declared, net) -> np.ndarray:
    """Units that change hands a deal because of royalties: the winners' gain over the same
    deal settled without royalties (zero without a royalty schedule)."""
    if v.royalties == Royalties():
        return np.zeros(len(net))
    bare = dataclasses.replace(v, royalties=Royalties())
    without, _ = settle_many(bare, settings, naturals=declared, surrender=surrender, check_deck=False)
    return np.maximum(net - without, 0).sum(axis=1)


def outcome_summary(v: Variant, settings: np.ndarray, surrender, declared, net: np.ndarray,
                    batch: np.ndarray, batches: int, charge: np.ndarray,
                    hands: SetHands | None = None) -> dict:
    """The :class:`~cpstats.thirteen.summary.SimulationSummary` outcome fields (by name) of
    one block: per pair and per hand the count of each outcome and
    the sums of its pay and squared pay, and per batch the counts; per hand the sum of its seat's share of the house
    charge in each outcome (``charge``, (D, players), :func:`cpstats.thirteen.settlement.seat_charges`;
    in criss-cross a seat's two hands carry its whole share, as they carry its whole net); per
    batch the sums behind the paired metrics. ``hands``: the block's
    :class:`~cpstats.thirteen.block.SetHands` of these decisions, if already made."""
    d, h = settings.shape[:2]
    surrender = np.asarray(surrender, dtype=bool).reshape(d, h)
    declared = np.asarray(declared).reshape(d, h)
    if hands is None:
        hands = SetHands.of(v, settings, surrender, declared)
    live, rows, opponents = hands.live, hands.rows, hands.opponents
    codes = pair_codes(v, settings, surrender, declared, hands)
    pays = pair_pays(v, settings, surrender, declared, net)
    hand_codes = seat_codes(v, hands.status, rows, opponents)
    hand_pays = net[:, np.arange(h) // v.hands_per_player]
    kp, ks = len(PAIR_OUTCOMES), len(SEAT_OUTCOMES)
    ones = np.ones_like(pays)
    natural_paid = np.where((codes >= 10) & (codes <= 12), np.abs(pays), 0.0).sum(axis=1)
    per_deal = {
        "scoops_by_batch": ((rows == 3) & opponents[None]).sum(axis=(1, 2)),
        "pairs_played_by_batch": ((live[:, :, None] & live[:, None, :]) & opponents[None]).sum(axis=(1, 2)),
        "home_runs_by_batch": (hand_codes == 3).sum(axis=1),
        "fouls_by_batch": hands.foul.sum(axis=1),  # as the summary's fouls
        "royalty_paid_by_batch": _royalty_moved(v, settings, surrender, declared, net),
        "natural_paid_by_batch": natural_paid,
        "gross_by_batch": np.where(net > 0, net, 0).sum(axis=1),
    }
    return {
        "pair_outcomes": _by_code(codes, ones, kp).astype(np.int64),
        "pair_pay_sum": _by_code(codes, pays, kp), "pair_pay_sq_sum": _by_code(codes, pays**2, kp),
        "seat_outcomes": _by_code(hand_codes, np.ones(hand_pays.shape), ks).astype(np.int64),
        "seat_pay_sum": _by_code(hand_codes, hand_pays, ks),
        "seat_pay_sq_sum": _by_code(hand_codes, hand_pays**2, ks),
        "seat_charge_sum": _by_code(hand_codes, charge[:, np.arange(h) // v.hands_per_player], ks),
        "pair_outcomes_by_batch": _by_batch_code(codes, batch, batches, kp),
        "seat_outcomes_by_batch": _by_batch_code(hand_codes, batch, batches, ks),
        **{k: by_batch(x.astype(float), batch, batches) for k, x in per_deal.items()},
    }


def _possible(v: Variant, keys: tuple) -> np.ndarray:
    """Outcomes the rules allow: no surrender rows without surrender, no naturals without any."""
    naturals = bool((np.asarray(v.kernel_tables()["natural_rank"]) >= 0).any())
    return np.array([not ((k.startswith("surrender") and v.surrender_amount() is None)
                          or (k.startswith("natural") and not naturals)) for k in keys])


def _rows(counts, s1, s2, deals: int, confidence: float, names, charge=None) -> pd.DataFrame:
    """One side's outcome rows: probability with Wilson interval, mean pay, contributions; with
    ``charge`` (sums of the seat's share of the house charge) its mean share per outcome."""
    counts = np.asarray(counts, dtype=float)
    mean = s1.sum() / deals
    low, high = wilson_interval(counts, deals, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        pay = np.where(counts > 0, s1 / counts, np.nan)
        share = None if charge is None else np.where(counts > 0, charge / counts, np.nan)
    frame = pd.DataFrame({
        "outcome": [k for k, _ in names], "description": [w for _, w in names],
        "count": counts.astype(np.int64), "probability": counts / deals, "ci_low": low, "ci_high": high,
        "mean_pay": pay, "contribution_to_mean": s1 / deals,
        "contribution_to_variance": (s2 - 2 * mean * s1 + mean**2 * counts) / deals})
    if share is not None:
        frame["mean_charge"] = share
        frame["mean_pay_after_charges"] = pay - share
    return frame


def outcome_table(v: Variant, summary: SimulationSummary, deals: int, per: str = "pair",
                  confidence: float = 0.95) -> pd.DataFrame:
    """The outcome table of :meth:`SimulationResult.outcomes` from a merged
    :class:`~cpstats.thirteen.summary.SimulationSummary`."""
    if summary.pair_outcomes is None:
        raise OptionError("outcomes are not in this result: it was saved before outcome counts were "
                          "recorded (summary format 3); run it again (reference results: "
                          "`cpstats reference`)")
    if per not in ("pair", "seat"):
        raise OptionError(f"per={per!r} is invalid: 'pair' (each pair of players) or 'seat'")
    frames = []
    if per == "seat":
        keep = _possible(v, tuple(k for k, _ in SEAT_OUTCOMES))
        for hand in range(summary.seat_outcomes.shape[0]):
            charge = None if summary.seat_charge_sum is None else summary.seat_charge_sum[hand]
            rows = _rows(summary.seat_outcomes[hand], summary.seat_pay_sum[hand],
                         summary.seat_pay_sq_sum[hand], deals, confidence, SEAT_OUTCOMES, charge)
            rows.insert(0, "hand", hand)
            rows.insert(0, "seat", hand // v.hands_per_player)
            frames.append(rows[keep])
        return pd.concat(frames, ignore_index=True)
    keep = _possible(v, tuple(k for k, _ in PAIR_OUTCOMES))
    for p, (a, b) in enumerate(v.pair_order().astype(int)):
        counts, s1, s2 = summary.pair_outcomes[p], summary.pair_pay_sum[p], summary.pair_pay_sq_sum[p]
        for hand, other, sign, order in ((a, b, 1, slice(None)), (b, a, -1, _MIRROR)):
            rows = _rows(counts[order], sign * s1[order], s2[order], deals, confidence, PAIR_OUTCOMES)
            for i, (name, value) in enumerate((("seat", hand // v.hands_per_player),
                                               ("against", other // v.hands_per_player),
                                               ("hand", hand), ("against_hand", other))):
                rows.insert(i, name, value)
            frames.append(rows[keep])
    return pd.concat(frames, ignore_index=True)


def outcome_batches(v: Variant, summary: SimulationSummary, per: str = "pair") -> list[tuple[int, str, np.ndarray]] | None:
    """Per-batch counts behind :func:`outcome_table`'s rows, side by side with them: one
    (seat, outcome, counts per batch (B,)) for each row of the full table before rules that
    cannot happen are dropped, in the table's order (None for results saved before summary
    format 4)."""
    out = []
    if summary.pair_outcomes_by_batch is None:
        return None
    if per == "seat":
        names = [k for k, _ in SEAT_OUTCOMES]
        for hand in range(summary.seat_outcomes.shape[0]):
            batch = summary.seat_outcomes_by_batch[:, hand, :]
            out += [(hand // v.hands_per_player, k, batch[:, i]) for i, k in enumerate(names)]
        return out
    names = [k for k, _ in PAIR_OUTCOMES]
    for p, (a, b) in enumerate(v.pair_order().astype(int)):
        batch = summary.pair_outcomes_by_batch[:, p, :]
        for hand, order in ((a, slice(None)), (b, _MIRROR)):
            out += [(hand // v.hands_per_player, k, batch[:, order][:, i]) for i, k in enumerate(names)]
    return out
