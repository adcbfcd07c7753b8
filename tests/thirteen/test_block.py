"""A block's settings ranked once (SetHands): fouls from ranks, rows won and lost, one ranking a block."""

import numpy as np
import pytest

import cpstats
from cpstats.cards import deal
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import foul_of_ranks, is_foul, split_positions
from cpstats.engine.registry import load_variant
from cpstats.thirteen import block
from cpstats.thirteen.block import SetHands, row_ranks, row_results, rows_won_lost


def _random_settings(n: int, seed: int) -> np.ndarray:
    """Dealt hands split at random (ordered splits, so about half foul)."""
    rng = np.random.default_rng(seed)
    hands = deal(rng, n, 1).reshape(n, 13)
    positions = split_positions(ordered=True)[rng.integers(0, len(split_positions(ordered=True)), n)]
    return np.take_along_axis(hands, positions.astype(np.int64), axis=1)


@pytest.mark.parametrize("ordering", ["H1", "H4", "H5"])
def test_fouls_from_ranks_are_is_foul(ordering):
    settings = _random_settings(20_000, 1)
    v = load_variant(f"2-4(ranking={ordering})")
    ranks = row_ranks(v, settings)
    foul = foul_of_ranks(ranks[:, 0], ranks[:, 1], ranks[:, 2], ordering=ordering)
    expected = is_foul(settings, ordering=ordering, check=False)
    assert 0.2 < expected.mean() < 0.9  # both kinds present, so the comparison can fail
    np.testing.assert_array_equal(foul, expected)
    np.testing.assert_array_equal(block.fouls_of(v, ranks), expected)


def _reference_rows(ranks, foul, live):
    """The pairwise loop the block summaries used before: sign of each row's difference, summed."""
    d, h = foul.shape
    out = np.zeros((d, h, h), dtype=np.int8)
    for a in range(h):
        for b in range(h):
            if a != b:
                rows = np.sign(ranks[:, a] - ranks[:, b]).sum(axis=1)
                rows = np.where(foul[:, a] & ~foul[:, b], -3, np.where(foul[:, b] & ~foul[:, a], 3,
                                np.where(foul[:, a] & foul[:, b], 0, rows)))
                out[:, a, b] = np.where(live[:, a] & live[:, b], rows, 0)
    return out


def test_rows_won_lost_and_row_results_match_the_pairwise_loop():
    rng = np.random.default_rng(2)
    ranks = rng.integers(0, 40, (5_000, 4, 3)).astype(np.int32)  # few values: many tied rows
    foul = rng.random((5_000, 4)) < 0.2
    live = rng.random((5_000, 4)) < 0.9
    won, lost = rows_won_lost(ranks)
    signs = np.sign(ranks[:, :, None, :] - ranks[:, None, :, :])
    np.testing.assert_array_equal(won, (signs > 0).sum(axis=3))
    np.testing.assert_array_equal(lost, (signs < 0).sum(axis=3))
    rows = row_results(won, lost, foul, live)
    assert rows.dtype == np.int8
    np.testing.assert_array_equal(rows, _reference_rows(ranks, foul, live))


def test_set_hands_status_puts_naturals_before_surrenders_before_fouls():
    v = load_variant("futurebet-2-4")
    settings = _random_settings(4_000, 3).reshape(1_000, 4, 13)
    rng = np.random.default_rng(4)
    surrender = rng.random((1_000, 4)) < 0.3
    declared = np.where(rng.random((1_000, 4)) < 0.3, 1, 0).astype(np.uint32)
    hands = SetHands.of(v, settings, surrender, declared)
    foul = is_foul(settings, check=False)
    expected = np.where(declared != 0, block.NATURAL, np.where(
        surrender, block.SURRENDER, np.where(foul, block.FOUL, block.NORMAL)))
    np.testing.assert_array_equal(hands.status, expected)
    np.testing.assert_array_equal(hands.live, ~surrender & (declared == 0))
    front = rank3(settings[..., :3], check=False)
    np.testing.assert_array_equal(hands.ranks[..., 0], front)
    np.testing.assert_array_equal(hands.ranks[..., 2], rank5(settings[..., 8:], check=False))


def test_a_block_ranks_its_settings_once(monkeypatch):
    calls = []
    original = block.row_ranks

    def counted(v, flat):
        calls.append(len(flat))
        return original(v, flat)

    monkeypatch.setattr(block, "row_ranks", counted)
    r = cpstats.simulate("2-4", 3_000, setter="greedy", rng=5, block_deals=1_000)
    assert calls == [4_000, 4_000, 4_000]  # one ranking of each block's 1,000 deals x 4 hands
    assert r.summary.fouls_by_batch.sum() == r.summary.fouls.sum()
