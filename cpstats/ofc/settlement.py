"""Settle open-face boards (OFC-FOUL, OFC-SCORE-1-6), many hands at once, with per-hand details.

Every pair of players is settled (pairwise among all players, zero-sum before rake): each row
won pays ``scoring.row``, winning all three pays ``scoring.scoop`` more, and the royalty
difference is paid on top. A fouled board loses all three rows to every clean board (a scoop)
and earns no royalty; two fouled boards score 0 between them. Boards are valued by the board
kernel (:func:`cpstats.ofc.board.board_values`); the pairs are numpy operations over all hands.

Table stakes (OFC-STAKES, ``stakes.buy_in``): :func:`settle_within_stacks` pays each pair's points
in the order of the hand's positions, the first to act against each later one, then the second
against each later one (at three players: first v second, first v last, second v last; with a
fixed button seat 0 v 1, 0 v 2, 1 v 2, S-CHIPS's order), each payment cut to what the paying
player has left of the points they started the hand with; a winner is never cut (nobody wins from
a player more than that player has, nobody loses more than they have). A player with none left
sits out (``active``), and their pairs pay nothing. The pairs are settled by a numba kernel over
all hands.

Rake (CASINO-MATH, "How cardrooms charge"), reported apart and never taken out of ``net``:

- ``percent`` (the per-point rake): the hand's pot is the points won, the sum of the winning
  seats' nets; the house takes 0 below ``rake.threshold``, else ``min(percent * pot, cap)``,
  charged to the winners in proportion to their wins;
- ``time``: ``rake.amount`` per seat-hour, so each seat pays ``amount / hands_per_hour`` a hand;
- ``fixed-table``: ``amount`` a hand shared equally by the seats; ``fixed-player``: ``amount``
  a seat a hand.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from cpstats.errors import CardError
from cpstats.ofc._stakes_kernel import stakes_kernel
from cpstats.ofc.board import as_boards, board_values
from cpstats.ofc.rules import Variant, resolve_ofc_variant
from cpstats.ofc.table_rules import RakeBasis
from cpstats.rules.house import Rake, RakeModel

__all__ = ["Settlement", "settle_boards", "settle_hands", "settle_table", "seat_rake", "seat_pairs", "pair_points",
           "settle_within_stacks", "StakesSettlement"]


class Settlement(NamedTuple):
    """Per-hand results of :func:`settle_hands`; leading shape ``(..., players)``."""

    net: np.ndarray  # int64[..., P]: units won before rake (zero-sum over the seats)
    fouled: np.ndarray  # bool[..., P]
    royalty: np.ndarray  # int64[..., P, 3]: front, middle, back royalties (0 on a foul)
    rows_won: np.ndarray  # int64[..., P]: rows won over all opponents (a foul loses all three)
    scoops: np.ndarray  # int64[..., P]: opponents scooped (all three rows won)
    fl_cards: np.ndarray  # int64[..., P]: Fantasyland deal this board earns from a normal hand
    stays: np.ndarray  # bool[..., P]: whether this board keeps a Fantasyland player there
    rake: np.ndarray  # float64[..., P]: the house's charge to each seat (see the module)
    owed: np.ndarray | None = None  # int64[H]: points the pairs owed before any limit (settle_table)
    unpaid: np.ndarray | None = None  # int64[H]: points owed that the stakes left unpaid (settle_table)


def _pair_points(ranks_i, ranks_j, foul_i, foul_j, row: int, scoop: int):
    """Row points (royalties apart) of i against j, rows won by each and scoop flags."""
    win = (ranks_i > ranks_j).sum(axis=-1)
    lose = (ranks_i < ranks_j).sum(axis=-1)
    win = np.where(foul_j & ~foul_i, 3, np.where(foul_i, 0, win))
    lose = np.where(foul_i & ~foul_j, 3, np.where(foul_j, 0, lose))
    points = row * (win - lose) + scoop * ((win == 3).astype(np.int64) - (lose == 3))
    return points, win, lose


def seat_pairs(players: int) -> np.ndarray:
    """``int64[K, 2]``: every pair of seats ``(i, j)``, ``i < j``, in seat order (the order of
    :func:`pair_points`' last axis)."""
    return np.array([(i, j) for i in range(players) for j in range(i + 1, players)], dtype=np.int64).reshape(-1, 2)


def settle_hands(variant: Variant | str, boards, *, check: bool = True) -> Settlement:
    """Settle complete boards of shape ``(..., players, 13)``, one row of boards per hand.

    With ``check``, the boards must be complete, valid and no card may appear twice in a hand.

    Examples
    --------
    >>> amy = "Qs Qd 2c / 5h 5d 5c 9s Td / Ah Kh Qh Jh 9h"    # QQ 7, trips 2, flush 4
    >>> bob = "As Kd 3c / 6h 6d 8c 9c Jd / 7s 7d 7c 2s 2d"    # clean, full house 6
    >>> s = settle_hands("ofc-pineapple", [[amy, bob]])
    >>> s.net.tolist(), s.royalty.sum(axis=-1).tolist(), s.scoops.tolist()   # 2 rows to 1, 13 - 6
    ([[8, -8]], [[13, 6]], [[0, 0]])
    """
    v = resolve_ofc_variant(variant)
    arr = _as_table(boards, v, check)
    vals = board_values(v, arr, check=False)
    shape = arr.shape[:-1]
    net = np.zeros(shape, dtype=np.int64)
    rows_won = np.zeros(shape, dtype=np.int64)
    scoops = np.zeros(shape, dtype=np.int64)
    for k, (i, j, points, win, lose) in enumerate(_pairs(v, vals)):
        net[..., i] += points
        net[..., j] -= points
        rows_won[..., i] += win
        rows_won[..., j] += lose
        scoops[..., i] += win == 3
        scoops[..., j] += lose == 3
    return Settlement(net, vals.fouled, vals.royalty, rows_won, scoops, vals.fl_cards,
                         vals.stays, seat_rake(v.rake, net))


def settle_table(v: Variant, played) -> Settlement:
    """Hands played at a table (:class:`~cpstats.ofc.play.PlayedHands` with its button, seats in and
    stacks): each pair of seats in the hand settled (a seat sitting out is in no pair and holds no
    board: its counts are 0), within the stacks under OFC-STAKES (a match's stacks as the hands
    left them; without matches the buy-in every hand), the rake per hand or, under
    ``match.rake=match``, on each match's nets at its last hand (a match a block cuts short at its
    last hand played). Without stakes and with every seat in, exactly :func:`settle_hands`."""
    active = played.active
    if not v.stakes.limited and (active is None or active.all()) and not v.match.rounds:
        return settle_hands(v, played.boards, check=False)
    vals = board_values(v, played.boards, check=False)
    shape = played.boards.shape[:-1]
    rows_won, scoops = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    owed = []
    for i, j, points, win, lose in _pairs(v, vals):
        both = active[:, i] & active[:, j]
        owed.append(np.where(both, points, 0))
        rows_won[:, i] += np.where(both, win, 0)
        rows_won[:, j] += np.where(both, lose, 0)
        scoops[:, i] += both & (win == 3)
        scoops[:, j] += both & (lose == 3)
    owed = np.stack(owed, axis=-1)
    if v.stakes.limited:
        stacks = played.stacks if v.match.rounds else np.full(shape, v.stakes.buy_in, dtype=np.int64)
        paid = settle_within_stacks(owed, stacks, played.first, active)
        net, unpaid = paid.net, paid.unpaid
    else:
        net = np.zeros(shape, dtype=np.int64)
        for k, (i, j) in enumerate(seat_pairs(v.players).tolist()):
            net[:, i] += owed[:, k]
            net[:, j] -= owed[:, k]
        unpaid = np.zeros(len(net), dtype=np.int64)
    rake = seat_rake(v.rake, net)
    if v.match.rake is RakeBasis.MATCH:
        rake = np.zeros_like(rake)
        ends = np.flatnonzero(np.r_[played.match[1:] != played.match[:-1], True])
        starts = np.r_[0, ends[:-1] + 1]
        rake[ends] = seat_rake(v.rake, np.add.reduceat(net, starts, axis=0))
    return Settlement(net, vals.fouled & active, np.where(active[..., None], vals.royalty, 0), rows_won, scoops,
                      np.where(active, vals.fl_cards, 0), vals.stays & active, rake,
                      np.abs(owed).sum(axis=-1), unpaid)


def _pairs(v: Variant, vals):
    """Each pair of seats ``(i, j, points of i against j, rows won by i, by j)``, in seat order."""
    royalty_total = np.where(vals.fouled, 0, vals.royalty.sum(axis=-1))
    row, scoop = v.scoring.row, v.scoring.scoop
    for i, j in seat_pairs(v.players).tolist():
        points, win, lose = _pair_points(vals.ranks[..., i, :], vals.ranks[..., j, :],
                                         vals.fouled[..., i], vals.fouled[..., j], row, scoop)
        yield i, j, points + royalty_total[..., i] - royalty_total[..., j], win, lose


def pair_points(variant: Variant | str, boards, *, check: bool = True) -> np.ndarray:
    """``int64[..., K]``: the points seat ``i`` wins from seat ``j`` for each pair of
    :func:`seat_pairs` (negative when ``j`` wins), before any stakes limit; a hand's nets are
    their sums (:func:`settle_hands`)."""
    v = resolve_ofc_variant(variant)
    vals = board_values(v, _as_table(boards, v, check), check=False)
    return np.stack([points for _, _, points, _, _ in _pairs(v, vals)], axis=-1)


class StakesSettlement(NamedTuple):
    """What :func:`settle_within_stacks` pays; H hands, K pairs (:func:`seat_pairs`), P seats."""

    paid: np.ndarray  # int64[H, K]: points seat i of the pair receives from seat j (negative: pays)
    net: np.ndarray  # int64[H, P]: each seat's net after the limit
    unpaid: np.ndarray  # int64[H]: points owed that the limit left unpaid (the hand's sum over pairs)


def settle_within_stacks(owed, stacks, first, active=None) -> StakesSettlement:
    """OFC-STAKES (the module's order and limit): each pair's ``owed`` points ``int64[H, K]``
    (:func:`pair_points`) paid within ``stacks``, the points each seat holds at the start of the
    hand ``int64[H, P]``, in the order of the positions from ``first``, the seat acting first in
    each hand ``int64[H]``; ``active`` ``bool[H, P]`` (default: every seat) seats in the hand,
    whose pairs with a seat sitting out pay nothing and owe nothing (their boards are not played).

    Examples
    --------
    Seat 1 owes seat 0 30 points but has 25; seat 0 then pays seat 2 its 8 from what it won; seat 1,
    with nothing left, pays seat 2 none of its 20:

    >>> s = settle_within_stacks([[30, -8, -20]], [[10, 25, 50]], [0])
    >>> s.paid.tolist(), s.net.tolist(), s.unpaid.tolist()
    ([[25, -8, 0]], [[17, -25, 8]], [25])
    """
    owed = np.ascontiguousarray(owed, dtype=np.int64)
    stacks = np.ascontiguousarray(stacks, dtype=np.int64)
    first = np.ascontiguousarray(first, dtype=np.int64)
    hands, players = stacks.shape
    if active is None:
        active = np.ones((hands, players), dtype=np.bool_)
    active = np.ascontiguousarray(active, dtype=np.bool_)
    paid = np.zeros(owed.shape, dtype=np.int64)
    net = np.zeros((hands, players), dtype=np.int64)
    unpaid = np.zeros(hands, dtype=np.int64)
    stakes_kernel(owed, stacks, first, active, _position_pairs(players), paid, net, unpaid)
    return StakesSettlement(paid, net, unpaid)


def _position_pairs(players: int) -> np.ndarray:
    """``int64[K, 2]``: the pairs in settlement order as positions (0 = first to act), the earlier
    first: (0, 1), (0, 2), (1, 2) at three players."""
    return np.array([(a, b) for a in range(players) for b in range(a + 1, players)], dtype=np.int64).reshape(-1, 2)


def settle_boards(variant: Variant | str, boards, *, check: bool = True) -> np.ndarray:
    """``int64[..., players]``: each seat's net units (before rake) for boards of shape
    ``(..., players, 13)``; :func:`settle_hands` gives the details.

    Examples
    --------
    >>> fouled = "Ks Kd 2c / 5h 5d 8s 9s Td / Ah Kh Qh Jh 9h"
    >>> clean = "2s 3d 4c / 6h 6d 8c 9c Jd / 7s 7d 7c 2h 2d"   # full house: 6
    >>> settle_boards("ofc-pineapple", [fouled, clean]).tolist()
    [-12, 12]
    """
    return settle_hands(variant, boards, check=check).net


def _as_table(boards, v: Variant, check: bool) -> np.ndarray:
    if isinstance(boards, (list, tuple)) and boards and all(isinstance(b, str) for b in boards):
        boards = [as_boards(b) for b in boards]
    elif isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], (list, tuple)):
        boards = [[as_boards(b) if isinstance(b, str) else b for b in hand] for hand in boards]
    arr = as_boards(boards, check=check)
    if arr.ndim < 2 or arr.shape[-2] != v.players:
        raise CardError(f"boards of shape {arr.shape} are invalid: expected (..., {v.players}, 13)"
                        f" for players={v.players}")
    if check:
        codes = arr.reshape(-1, v.players * 13).astype(np.int64)
        seen = np.zeros((codes.shape[0], 52), dtype=np.int64)
        np.add.at(seen, (np.arange(codes.shape[0])[:, None], codes), 1)
        bad = np.flatnonzero((seen > 1).any(axis=1))
        if bad.size:
            card = int(np.flatnonzero(seen[bad[0]] > 1)[0])
            raise CardError(f"hand {int(bad[0])} holds card code {card} on two boards")
    return arr


def seat_rake(rake: Rake, net: np.ndarray) -> np.ndarray:
    """``float64[..., players]``: the house's charge to each seat for hands with these nets
    (the module's conventions: per-point rake on the winners, time rake per seat)."""
    net = np.asarray(net)
    players = net.shape[-1]
    out = np.zeros(net.shape, dtype=np.float64)
    if rake.model is RakeModel.TIME:
        out[...] = rake.amount / rake.hands_per_hour
    elif rake.model is RakeModel.FIXED_PLAYER:
        out[...] = rake.amount
    elif rake.model is RakeModel.FIXED_TABLE:
        out[...] = rake.amount / players
    elif rake.model is RakeModel.PERCENT:
        wins = np.maximum(net, 0).astype(np.float64)
        pot = wins.sum(axis=-1, keepdims=True)
        cap = math.inf if rake.cap is None else rake.cap
        total = np.where(pot >= rake.threshold, np.minimum(rake.percent * pot, cap), 0.0)
        out = np.divide(total * wins, pot, out=np.zeros_like(wins), where=pot > 0)
    return out
