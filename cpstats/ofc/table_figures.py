"""Open face's figures of the table rules (OFC-BUTTON's rotation, OFC-STAKES, OFC-MATCH): each seat's
position in its hand, the per-batch sums by position, of the stakes and of whole matches a run
records (:func:`table_sums`), and the figures made of them (:func:`table_ratios`, :func:`match_sd`),
which :class:`~cpstats.ofc.result.SimulationResult` reports only for rules that play them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from cpstats.engine.stats import half_width
from cpstats.ofc.rules import Variant
from cpstats.ofc.settlement import Settlement

#: A run's summary (:class:`~cpstats.ofc.result.SimulationSummary`, which reads this module).
Summary = Any

__all__ = ["POSITIONS", "by_batch_sums", "plays_table_rules", "positions_of", "table_sums", "table_ratios",
           "match_sd", "acting_last_line", "STAKES_NAMES", "position_names"]

#: Positions by name: the first to act, the middle one at three players, the last (the button).
POSITIONS = {2: ("first", "last"), 3: ("first", "middle", "last"), 4: ("first", "second", "third", "last")}
#: The stakes and match figures, in the order the views print them.
STAKES_NAMES = ("stakes_bind_rate", "unpaid_share", "sd_per_match", "mean_per_match_after_charges",
                "match_out_rate", "hands_per_match", "rake_per_match")


def position_names(places) -> list[str]:
    """The position figures of ``places`` (a table's :data:`POSITIONS`, or several tables' together),
    in the order the views print them: each position's mean, the value of acting last, each SD."""
    return [*(f"mean_acting_{p}" for p in places), "value_of_acting_last", *(f"sd_acting_{p}" for p in places)]


def by_batch_sums(values: np.ndarray, batch: np.ndarray, batches: int) -> np.ndarray:
    """Sums of ``values`` (N, ...) per batch: (B, ...)."""
    out = np.zeros((batches, *values.shape[1:]), dtype=np.float64)
    np.add.at(out, batch, values)
    return out


def plays_table_rules(v: Variant) -> bool:
    """Whether ``v`` plays any of OFC-BUTTON's rotation, OFC-STAKES or OFC-MATCH (their figures)."""
    return v.button.rotates or v.stakes.limited or v.match.rounds


def positions_of(first: np.ndarray, active: np.ndarray) -> np.ndarray:
    """``int64[N, P]``: each seat's position in its hand (0 the first to act, P - 1 the last, the
    last of the seats in always P - 1), -1 for a seat sitting out."""
    hands, players = active.shape
    out = (np.arange(players)[None, :] - np.asarray(first, dtype=np.int64)[:, None]) % players  # everyone in
    for h in np.flatnonzero(~active.all(axis=1)):  # a hand with seats out: the seats in, in order
        out[h] = -1
        seats = (first[h] + np.arange(players)) % players
        seats = seats[active[h, seats]]
        out[h, seats] = np.arange(len(seats))
        out[h, seats[-1]] = players - 1
    return out


def table_sums(v: Variant, s: Settlement, played, batch: np.ndarray, batches: int) -> dict[str, np.ndarray]:
    """The sums by position (net, its square, boards; the last less the first each hand), of the
    stakes (points owed, left unpaid, hands cut) and of the whole matches (a match is in the batch
    of its first hand; one a block cuts short is left out of the match sums)."""
    add = lambda x: by_batch_sums(np.asarray(x, dtype=np.float64), batch, batches)  # noqa: E731
    players = v.players
    net = s.net.astype(np.float64)
    pos = positions_of(played.first, played.active)
    at = [pos == k for k in range(players)]
    by_position = np.stack([np.where(m, net, 0.0).sum(axis=1) for m in at], axis=1)
    out = {"position_net_by_batch": add(by_position),
           "position_net_sq_by_batch": add(np.stack([np.where(m, net**2, 0.0).sum(axis=1) for m in at], axis=1)),
           "position_boards_by_batch": add(np.stack([m.sum(axis=1) for m in at], axis=1)),
           "acting_last_by_batch": add(by_position[:, -1] - by_position[:, 0])}
    owed = np.zeros(len(net)) if s.owed is None else s.owed
    unpaid = np.zeros(len(net)) if s.unpaid is None else s.unpaid
    out.update(owed_by_batch=add(owed), unpaid_by_batch=add(unpaid), bound_by_batch=add(unpaid > 0))
    match_sums = np.zeros((5, batches))
    if v.match.rounds:
        ends = np.flatnonzero(played.match_end)
        starts = np.r_[0, ends[:-1] + 1]
        if ends.size:
            nets = np.add.reduceat(net, starts, axis=0)[: ends.size]
            rake = np.add.reduceat(s.rake, starts, axis=0)[: ends.size]
            out_at_end = ~played.active[ends].all(axis=1) | (_stacks_after(v, played, s, ends) <= 0).any(axis=1)
            where = batch[starts]
            for row, values in enumerate(((ends - starts + 1), (nets**2).sum(axis=1), (nets - rake).sum(axis=1),
                                          out_at_end if v.stakes.limited else np.zeros(ends.size), rake.sum(axis=1))):
                np.add.at(match_sums[row], where, values)
    for row, key in enumerate(("match_hands_by_batch", "match_net_sq_by_batch", "match_after_by_batch",
                               "match_out_by_batch", "match_rake_by_batch")):
        out[key] = match_sums[row]
    out["matches_by_batch"] = add(np.zeros(len(net))) if not v.match.rounds else _count_at(played, batch, batches)
    return out


def _count_at(played, batch: np.ndarray, batches: int) -> np.ndarray:
    ends = np.flatnonzero(played.match_end)
    starts = np.r_[0, ends[:-1] + 1]
    return np.bincount(batch[starts], minlength=batches).astype(np.float64) if ends.size else np.zeros(batches)


def _stacks_after(v: Variant, played, s: Settlement, ends: np.ndarray) -> np.ndarray:
    """Each seat's points after the last hand of each match (a seat already out: 0)."""
    if not v.stakes.limited:
        return np.ones((ends.size, v.players))
    return np.where(played.active[ends], played.stacks[ends] + s.net[ends], 0)


def table_ratios(s: Summary, players: int) -> dict:
    """The figures of position, stakes and matches (rules that move the button, limit the stakes or
    play matches)."""
    out: dict = {f"mean_acting_{name}": ("m", (s.position_net_by_batch[:, k], s.position_boards_by_batch[:, k]))
                 for k, name in zip((0, *range(1, players - 1), players - 1), POSITIONS[players])}
    out["value_of_acting_last"] = ("m", (s.acting_last_by_batch, s.batch_sizes))
    if s.owed_by_batch.sum() > 0 or s.matches_by_batch.sum() > 0:
        out["stakes_bind_rate"] = ("p", (s.bound_by_batch, s.batch_sizes))
        out["unpaid_share"] = ("p", (s.unpaid_by_batch, s.owed_by_batch))
    if s.matches_by_batch.sum() > 0:
        seats = s.matches_by_batch * players
        out["mean_per_match_after_charges"] = ("m", (s.match_after_by_batch, seats))
        out["match_out_rate"] = ("p", (s.match_out_by_batch, s.matches_by_batch))
        out["hands_per_match"] = ("n", (s.match_hands_by_batch, s.matches_by_batch))
        out["rake_per_match"] = ("n", (s.match_rake_by_batch, s.matches_by_batch))
    return out


def match_sd(s: Summary, level: float) -> tuple:
    """A seat's SD per match before charges (its mean is 0: the match is zero-sum before the house),
    the root mean square of the seats' match nets; batch t on the per-batch values (a batch without
    a whole match counts as the run's value), which a paired difference reads as any figure's."""
    seats = s.matches_by_batch * s.net_by_batch.shape[1]
    whole = float(np.sqrt(s.match_net_sq_by_batch.sum() / seats.sum()))
    z = np.where(seats > 0, np.sqrt(s.match_net_sq_by_batch / np.maximum(seats, 1)), whole)
    stacked = np.vstack([s.match_net_sq_by_batch, seats])
    if (seats > 0).sum() < 2:
        return "s", stacked, (whole, np.nan, np.nan, z, "too few matches")
    half = half_width(z, level)
    return "s", stacked, (whole, max(whole - half, 0.0), whole + half, z, "batch t (root mean square per batch)")


def acting_last_line(v: Variant, figures: pd.DataFrame, confidence: float = 0.95) -> str:
    """One line on what acting last is worth, read from the run's ``figures`` (``figures(confidence)``)
    and said only as far as its interval goes; empty when ``v``'s rules play no position."""
    rows = figures.set_index("metric")
    if "value_of_acting_last" not in rows.index:
        return ""
    est, low, high, method = rows.loc["value_of_acting_last", ["estimate", "ci_low", "ci_high", "method"]]
    said = f"Acting last is worth {est:+.2f} units a hand before house charges"
    if not (math.isfinite(low) and math.isfinite(high)):
        said += f" (no interval: {method}), so no difference is shown"
    elif low > 0:
        said += f" ({confidence:.0%} CI {low:+.2f} to {high:+.2f}): more than acting first"
    elif high < 0:
        said += f" ({confidence:.0%} CI {low:+.2f} to {high:+.2f}): less than acting first"
    else:
        said += f" ({confidence:.0%} CI {low:+.2f} to {high:+.2f}); the interval covers 0, so no difference is " \
                "shown at this size"
    if not v.button.rotates:
        said += f" (the button is fixed: the last to act is always seat {v.players - 1})"
    said += "."
    return said
