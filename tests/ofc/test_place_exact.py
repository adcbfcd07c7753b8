"""The exact open-face endgame (cpstats/ofc/_place_exact.py) against brute force in plain Python.

The brute force knows nothing of the kernels' shortcuts: it enumerates every last-street draw of
the unseen cards, every discard and every placement of the kept cards, values each final board by
:func:`cpstats.ofc.board.board_values` (fouls from the variant's tables) and the placement's row
values, and takes the mean of the best.
"""

import itertools

import numpy as np
import pytest

from cpstats.ofc import _place_exact as _pe
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc.board import board_values
from cpstats.ofc.placement import place_args
from cpstats.engine.registry import get_preset

PINE = get_preset("ofc-pineapple")
CLASSIC = get_preset("ofc-classic")
STARTS = (0, 3, 8)
CAPS = (3, 5, 5)


def _value(variant, board, args):
    values = board_values(variant, board)
    if values.fouled:
        return args.prm[_pk.FOUL]
    f, m, b = (int(r) for r in values.ranks)
    return _pk._rows_value(f, m, b, args.vt, args.prm)


def _placements(board, cards):
    """Every board made by putting ``cards`` (in every order) into the empty slots of ``board``."""
    empty = [s for s in range(13) if board[s] < 0]
    for perm in itertools.permutations(cards):
        b = board.copy()
        b[empty] = perm
        yield b


def _brute_last(variant, board, unseen, k, args):
    """Mean over every k-subset of ``unseen`` of the best final board (any kept subset)."""
    kp = int((board < 0).sum())
    total, count = 0.0, 0
    for draw in itertools.combinations(unseen, k):
        total += max(_value(variant, b, args) for kept in itertools.combinations(draw, kp)
                     for b in _placements(board, kept))
        count += 1
    return total / count


def _partial_board(gen, empty_rows):
    """A random board with one empty slot in each row of ``empty_rows`` (a row may repeat), the
    remaining cards of the shuffled deck after it."""
    deck = gen.permutation(52).astype(np.int8)
    board = deck[:13].copy()
    for row, times in zip(*np.unique(empty_rows, return_counts=True)):
        for i in range(times):
            board[STARTS[row] + CAPS[row] - 1 - i] = -1
    return board, deck[13:]


@pytest.mark.parametrize("empty_rows", [(0, 1), (0, 2), (1, 2), (1, 1), (2, 2), (0, 0)])
def test_last_street_mean_is_the_brute_force_mean(empty_rows):
    """Pineapple's last street (3 dealt, 2 kept): the kernel's expected best final value equals the
    brute force over every draw of 8 unseen cards, for each way two empty slots can lie, on boards
    that foul often and on clean ones (8 random boards each)."""
    args = place_args(PINE)
    gen = np.random.default_rng(26)
    for _ in range(8):
        board, rest = _partial_board(gen, empty_rows)
        unseen = rest[:8].copy()
        got = _pe.last_street_mean(board, unseen, unseen.size, 3, 2, args.ct, args.vt,
                                   args.prm[_pk.FOUL], args.prm[_pk.SCOOP])
        assert got == pytest.approx(_brute_last(PINE, board, unseen, 3, args), abs=1e-9)


@pytest.mark.parametrize("row", [0, 1, 2])
def test_last_street_mean_classic_one_card(row):
    """Classic's last street (1 card, forced): the mean over the unseen cards of the final value."""
    args = place_args(CLASSIC)
    gen = np.random.default_rng(27)
    for _ in range(6):
        board, rest = _partial_board(gen, (row,))
        unseen = rest[:10].copy()
        got = _pe.last_street_mean(board, unseen, unseen.size, 1, 1, args.ct, args.vt,
                                   args.prm[_pk.FOUL], args.prm[_pk.SCOOP])
        assert got == pytest.approx(_brute_last(CLASSIC, board, unseen, 1, args), abs=1e-9)


def _brute_street_before_last(board, dealt, unseen, args):
    """Best expected value over the options of the street before Pineapple's last (discard one
    of three, place two), each valued by the brute-force last street."""
    cnt = [sum(board[STARTS[r] + i] >= 0 for i in range(CAPS[r])) for r in range(3)]
    best = -np.inf
    for kept in itertools.combinations(dealt, 2):
        for rows in itertools.product(range(3), repeat=2):
            c = list(cnt)
            b = board.copy()
            for card, r in zip(kept, rows):
                if c[r] >= CAPS[r]:
                    break
                b[STARTS[r] + c[r]] = card
                c[r] += 1
            else:
                best = max(best, _brute_last(PINE, b, unseen, 3, args))
    return best


def test_endgame_option_is_the_brute_force_best():
    """The street before Pineapple's last, decided by ``endgame_option``: the option it picks has
    the best expected value of the brute force over every option and every last-street draw (7
    unseen cards, 6 random boards with four empty slots)."""
    args = place_args(PINE)
    gen = np.random.default_rng(28)
    rows = np.empty((243, 5), dtype=np.int8)
    for _ in range(6):
        empty = tuple(gen.choice([0, 1, 1, 2, 2], 4, replace=True))
        board, rest = _partial_board(gen, empty if empty.count(0) <= 3 else (0, 1, 2, 2))
        cnt = np.array([(board[STARTS[r]:STARTS[r] + CAPS[r]] >= 0).sum() for r in range(3)], np.int64)
        dealt, unseen = rest[:3].copy(), rest[3:10].copy()
        n_assign = _pk.enumerate_rows(2, cnt, rows)
        o = _pk.endgame_option(board, cnt, dealt, 3, 2, rows, n_assign, n_assign * 3, 3, 2, unseen,
                               unseen.size, args.ct, args.vt, args.prm)
        b, c = board.copy(), cnt.copy()
        _pk.apply_option(b, c, dealt, 3, 2, o, n_assign, rows)
        picked = _brute_last(PINE, b, unseen, 3, args)
        assert picked == pytest.approx(_brute_street_before_last(board, dealt, unseen, args), abs=1e-9)


def test_rest_of_drops_the_drawn_cards():
    out = np.empty(52, dtype=np.int8)
    unseen = np.array([4, 9, 17, 30, 51], dtype=np.int8)
    n = _pe.rest_of(unseen, 5, np.array([17, 51, 2], dtype=np.int8), out)
    assert out[:n].tolist() == [4, 9, 30]


def test_exact_shape_is_the_supported_last_streets():
    assert _pe.exact_shape(3, 2) and _pe.exact_shape(1, 1)
    assert not _pe.exact_shape(4, 3) and not _pe.exact_shape(2, 3)


def _one_player(code, args, seed=3):
    """A one-player Pineapple hand of kernel ``code`` with the stacked tables ``args``."""
    deck = np.random.default_rng(seed).permutation(52).astype(np.int8)
    boards = np.empty((1, 13), np.int8)
    disc = np.empty((1, 5), np.int8)
    _pk.play_streets_kernel(deck, np.array([code]), np.array(PINE.cards_dealt), np.array(PINE.cards_kept),
                            np.array([8]), 6, 3, np.uint64(seed), *args, boards, disc)
    return boards[0]


def test_baselines_keep_their_own_tables():
    """``rollout-v1`` (and the others) read the last set of stacked tables, ``rollout-exact`` the
    first: spoiling the first set changes what ``rollout-exact`` plays, never what ``rollout-v1``
    plays."""
    from cpstats.ofc.placement import stacked

    args = place_args(PINE)
    spoilt = args._replace(vt=-args.vt)
    for seed in range(3):
        assert (_one_player(_pk.ROLLOUT_V1, stacked(spoilt, args), seed)
                == _one_player(_pk.ROLLOUT_V1, stacked(args), seed)).all()
        assert (_one_player(2, stacked(spoilt, args), seed) == _one_player(2, stacked(args), seed)).all()
    assert any((_one_player(_pk.ROLLOUT_EXACT, stacked(spoilt, args), s)
                != _one_player(_pk.ROLLOUT_EXACT, stacked(args), s)).any() for s in range(3))


def test_rollout_is_the_learned_play_and_v1_the_first_rollout():
    """The default ``rollout`` plays the learned street models (kernel code ROLLOUT_LEARNED), not
    as ``rollout-exact`` (the previous default), and ``rollout-v1`` as the kernel's first rollout
    (code 2): the plays differ from the same seed."""
    from cpstats.ofc.placement import stacked, strategy_code
    from cpstats.ofc.play import play_hands

    assert strategy_code("rollout") == _pk.ROLLOUT_LEARNED
    assert strategy_code("rollout-exact") == _pk.ROLLOUT_EXACT
    a = play_hands(PINE, 3, 8, strategies="rollout", samples=4)
    c = play_hands(PINE, 3, 8, strategies="rollout-v1", samples=4)
    d = play_hands(PINE, 3, 8, strategies="rollout-exact", samples=4)
    assert (a.boards != c.boards).any() and (a.boards != d.boards).any()
    args = place_args(PINE)
    for seed in range(3):
        assert (_one_player(2, stacked(args), seed) == _one_player(_pk.ROLLOUT_V1, stacked(args), seed)).all()
