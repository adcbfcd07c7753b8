"""Open-face boards as numpy arrays: validation, ranks and values of many boards at once.

A board is 13 int8 codes ``[front(3), middle(5), back(5)]`` (-1 for an empty slot during
play); these helpers take complete boards of shape ``(..., 13)`` and call
:mod:`cpstats.ofc._board_kernel` once for all of them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cpstats.cards.codes import check_hands, parse_cards
from cpstats.errors import CardError
from cpstats.hands.setting import parse_setting
from cpstats.ofc import _board_kernel as _bk
from cpstats.ofc.rules import Variant, resolve_ofc_variant

__all__ = ["table_args", "as_boards", "board_ranks", "board_values", "BoardValues"]


def table_args(variant: Variant | str) -> tuple[np.ndarray, ...]:
    """The variant's :class:`~cpstats.ofc.rules.RuleArrays` as a plain tuple, in the argument
    order of :func:`cpstats.ofc._board_kernel.board_value` (numba takes arrays, not
    NamedTuples): ``board_value(f, m, b, *table_args(v))``.

    Examples
    --------
    >>> [a.shape for a in table_args("ofc-pineapple")][:3]
    [(455,), (7462,), (7462,)]
    """
    return tuple(resolve_ofc_variant(variant).kernel_tables())


def as_boards(boards, *, check: bool = True) -> np.ndarray:
    """Complete boards as contiguous int8 codes of shape ``(..., 13)``.

    Accepts a setting string (``"Qs Qd 2c / ... / ..."``), a string of 13 cards, or codes.
    With ``check``, refuses a -1 (empty) slot, codes out of 0..51 and a card twice on a board
    with one :class:`~cpstats.errors.CardError` line.
    """
    if isinstance(boards, str):
        boards = parse_setting(boards) if "/" in boards else parse_cards(boards)
    arr = np.asarray(boards)
    if check:
        if arr.dtype.kind in "iu" and arr.size and arr.min() < 0:
            raise CardError("a board has an empty slot (-1): only complete boards are valued")
        arr = check_hands(arr, 13)
    return np.ascontiguousarray(arr, dtype=np.int8)


class BoardValues(NamedTuple):
    """Per-board results of :func:`board_values` (leading shape of the boards)."""

    ranks: np.ndarray  # int64[..., 3]: front rank3, middle rank5, back rank5
    fouled: np.ndarray  # bool[...]
    royalty: np.ndarray  # int64[..., 3]: front, middle, back royalties (0 on a foul)
    fl_cards: np.ndarray  # int64[...]: Fantasyland cards earned by a normal hand (0 = none)
    stays: np.ndarray  # bool[...]: whether a Fantasyland hand with this board stays


def board_values(variant: Variant | str, boards, *, check: bool = True) -> BoardValues:
    """Ranks, fouls, row royalties, Fantasyland entry and stay of complete boards.

    Examples
    --------
    >>> b = board_values("ofc-pineapple", "Qs Qd 2c / 5h 5d 5c 9s 9d / Ah Kh Qh Jh Th")
    >>> bool(b.fouled), b.royalty.tolist(), int(b.fl_cards), bool(b.stays)
    (False, [7, 12, 25], 14, True)
    """
    v = resolve_ofc_variant(variant)
    arr = as_boards(boards, check=check)
    flat = arr.reshape(-1, 13)
    n = flat.shape[0]
    ranks = np.empty((n, 3), dtype=np.int64)
    royalty = np.empty((n, 3), dtype=np.int64)
    fouled = np.empty(n, dtype=np.bool_)
    fl_cards = np.empty(n, dtype=np.int64)
    stays = np.empty(n, dtype=np.bool_)
    _bk.boards_kernel(flat, *table_args(v), ranks, fouled, royalty, fl_cards, stays)
    lead = arr.shape[:-1]
    return BoardValues(ranks.reshape(*lead, 3), fouled.reshape(lead), royalty.reshape(*lead, 3),
                       fl_cards.reshape(lead), stays.reshape(lead))


def board_ranks(boards, *, check: bool = True) -> np.ndarray:
    """``int64[..., 3]``: front rank3, middle rank5 and back rank5 of complete boards (H1, H2).

    Examples
    --------
    >>> board_ranks("Ac Ad As / 2c 3d 4h 5s 7c / Kh Qh Jh Th 9h").tolist()
    [454, 0, 7460]
    """
    return board_values("ofc-pineapple", boards, check=check).ranks
