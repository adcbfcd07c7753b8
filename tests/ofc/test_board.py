"""Boards (cpstats.ofc.board, _board_kernel): the kernel's row ranks are the hands layer's, the
tables' argument order and types, and an incomplete board refused in one line."""

import numpy as np
import pytest

from cpstats.errors import CardError
from cpstats.hands.ranking import rank3, rank5
from cpstats.ofc import _board_kernel as bk
from cpstats.ofc import board_ranks, board_values, table_args
from cpstats.engine.registry import get_preset


def test_board_kernel_matches_hands_ranking():
    """The board kernel's ranks equal cpstats.hands.ranking's on random complete boards."""
    rng = np.random.default_rng(5)
    boards = np.array([rng.permutation(52)[:13] for _ in range(500)], dtype=np.int8)
    ranks = board_ranks(boards)
    assert ranks[:, 0].tolist() == rank3(boards[:, :3].astype(np.uint8)).tolist()
    assert ranks[:, 1].tolist() == rank5(boards[:, 3:8].astype(np.uint8)).tolist()
    assert ranks[:, 2].tolist() == rank5(boards[:, 8:].astype(np.uint8)).tolist()
    out = np.empty(3, dtype=np.int64)
    bk.board_ranks(boards[7], out)
    assert out.tolist() == ranks[7].tolist()
    assert bk.board_value(*out, *table_args("ofc-pineapple"))[0] == board_values(
        "ofc-pineapple", boards[7]).fouled


def test_table_args_order_and_types():
    """table_args follows RuleArrays' field order with contiguous int64/bool arrays."""
    args = table_args("ofc-pineapple-progressive")
    t = get_preset("ofc-pineapple-progressive").kernel_tables()
    assert len(args) == len(t._fields) == 11
    for a, name in zip(args, t._fields):
        assert a is getattr(t, name) and a.flags.c_contiguous
        assert a.dtype == (bool if name.startswith("fl_stay_") and name != "fl_stay_cards" else np.int64)
    assert t.row_points.tolist() == [1, 3]


def test_board_values_refuses_incomplete_boards():
    """An empty slot (-1) or a card twice is one CardError line."""
    board = np.arange(13, dtype=np.int8)
    board[4] = -1
    with pytest.raises(CardError, match="empty slot"):
        board_values("ofc-pineapple", board)
    board[4] = 0
    with pytest.raises(CardError):
        board_values("ofc-pineapple", board)
