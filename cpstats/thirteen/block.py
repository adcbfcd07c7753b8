"""One block's settings as its summaries read them: each hand's row ranks, foul and status, and
the rows each hand won and lost against every other, computed once per block.

The setting summary (fouls, royalty hands, scoops, home runs), the outcome tables (pair and seat
outcomes) and the per-batch metrics all read the same ranks and fouls; :class:`SetHands` holds
them, so a block ranks its rows once instead of once in each of those places.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import foul_of_ranks
from cpstats.thirteen.rules.variant import Variant

#: Each hand's status as the settlement sees it (:attr:`SetHands.status`).
NORMAL, FOUL, SURRENDER, NATURAL = 0, 1, 2, 3


def row_ranks(v: Variant, flat: np.ndarray) -> np.ndarray:
    """int32 (N, 3): each setting's front, middle and back ranks (under H5 the middle low, the
    back high: H1)."""
    order = v.ranking.value
    back_order = "H1" if order == "H5" else order
    return np.stack([rank3(flat[:, :3], check=False).astype(np.int32),
                     rank5(flat[:, 3:8], ordering=order, check=False).astype(np.int32),
                     rank5(flat[:, 8:], ordering=back_order, check=False).astype(np.int32)], axis=1)


def fouls_of(v: Variant, ranks: np.ndarray) -> np.ndarray:
    """bool (...,): the fouls of settings with ``ranks`` (..., 3) from :func:`row_ranks`."""
    return foul_of_ranks(ranks[..., 0], ranks[..., 1], ranks[..., 2], ordering=v.ranking.value)


def rows_won_lost(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """uint8 (D, H, H) twice: rows hand a ranks above hand b, and below it (fouls aside)."""
    d, h = ranks.shape[:2]
    won = np.zeros((d, h, h), dtype=np.uint8)
    lost = np.zeros((d, h, h), dtype=np.uint8)
    for a in range(h):
        for b in range(a + 1, h):
            diff = ranks[:, a] - ranks[:, b]
            # three uint8 adds: a fraction of the time of a reduction over an axis of three
            above = sum((diff[:, row] > 0).view(np.uint8) for row in range(3))
            below = sum((diff[:, row] < 0).view(np.uint8) for row in range(3))
            won[:, a, b] = lost[:, b, a] = above
            lost[:, a, b] = won[:, b, a] = below
    return won, lost


def row_results(won: np.ndarray, lost: np.ndarray, foul: np.ndarray, live: np.ndarray) -> np.ndarray:
    """int8 (D, H, H): rows won minus lost by hand a against hand b, where both play their rows
    (fouled hands lose all three rows; 0 for a hand against itself)."""
    fa, fb = foul[:, :, None], foul[:, None, :]
    rows = won.astype(np.int8) - lost.astype(np.int8)
    rows = np.where(fa & ~fb, -3, np.where(fb & ~fa, 3, np.where(fa & fb, 0, rows)))
    both = live[:, :, None] & live[:, None, :]
    return np.where(both, rows, 0).astype(np.int8)


def opponents_of(v: Variant) -> np.ndarray:
    """bool (H, H): hands that play each other (other seats; in a banked game the bank and a
    player only)."""
    seat_of = np.arange(v.players * v.hands_per_player) // v.hands_per_player
    opponents = seat_of[:, None] != seat_of[None, :]
    if v.bank.banked:
        opponents &= (seat_of[:, None] == 0) | (seat_of[None, :] == 0)
    return opponents


@dataclass(frozen=True)
class SetHands:
    """A block's settings and decisions as its summaries read them. Shapes: D deals, H hands."""

    ranks: np.ndarray  # int32 (D, H, 3) front, middle, back ranks (row_ranks)
    foul: np.ndarray  # bool (D, H)
    status: np.ndarray  # int (D, H): NATURAL, then SURRENDER, then FOUL, else NORMAL
    live: np.ndarray  # bool (D, H): played its rows (declared no natural, did not surrender)
    won: np.ndarray  # uint8 (D, H, H) rows a ranks above b
    lost: np.ndarray  # uint8 (D, H, H) rows a ranks below b
    rows: np.ndarray  # int8 (D, H, H) rows won less lost, fouls counted (row_results)
    opponents: np.ndarray  # bool (H, H) (opponents_of)

    @classmethod
    def of(cls, v: Variant, settings: np.ndarray, surrender, declared) -> "SetHands":
        """From settings (D, H, 13), surrenders and the natural bits declared (each (D, H))."""
        d, h = settings.shape[:2]
        surrender = np.asarray(surrender, dtype=bool).reshape(d, h)
        declared = np.asarray(declared).reshape(d, h)
        ranks = row_ranks(v, settings.reshape(-1, 13)).reshape(d, h, 3)
        foul = fouls_of(v, ranks)
        status = np.where(declared != 0, NATURAL, np.where(surrender, SURRENDER,
                                                           np.where(foul, FOUL, NORMAL)))
        live = ~(surrender | (declared != 0))
        won, lost = rows_won_lost(ranks)
        return cls(ranks, foul, status, live, won, lost, row_results(won, lost, foul, live),
                   opponents_of(v))
