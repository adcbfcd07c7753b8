"""The block runner as a run sees it: resume (another run's, a damaged or a missing block redone), out
folders refused before any work, huge deal counts planned lazily, memory that follows distinct
values, a Generator passed twice, and the digest every block carries."""

import json

import numpy as np
import pytest

from cpstats import OptionError
from cpstats.workbench import simulate
from cpstats.engine.runner import BlockJob, blocks_in_order
from cpstats.engine.batches import net_distribution

KW = dict(setter="greedy", block_deals=500)


def test_resume_with_other_deals_is_refused(tmp_path):
    """The deal count is part of the run's identity."""
    simulate("2-4", 1_000, rng=7, out=tmp_path, **KW)
    with pytest.raises(OptionError, match="differs in deals"):
        simulate("2-4", 1_500, rng=7, out=tmp_path, resume=True, **KW)


def test_resume_redoes_blocks_of_another_run_or_damaged(tmp_path):
    """With run.json gone a resume with another seed redoes every block; a block
    copied from another run, a truncated, an empty and a garbage block are redone and counted."""
    simulate("2-4", 2_000, rng=8, out=tmp_path / "a", **KW)
    (tmp_path / "a" / "run.json").unlink()
    other = simulate("2-4", 2_000, rng=9, out=tmp_path / "a", resume=True, **KW)
    fresh = simulate("2-4", 2_000, rng=9, **KW)
    assert other.metadata["blocks_redone"] == 4
    assert np.array_equal(other.summary.net_sq_sum, fresh.summary.net_sq_sum)

    simulate("2-4", 2_000, rng=10, out=tmp_path / "b", **KW)
    blocks = sorted((tmp_path / "b").glob("block-*.npz"))
    blocks[0].write_bytes((tmp_path / "a" / "block-000000.npz").read_bytes())  # another run's
    blocks[1].write_bytes(blocks[1].read_bytes()[:100])  # truncated
    blocks[2].write_bytes(b"")
    raw = bytearray(blocks[3].read_bytes())
    raw[len(raw) // 2] ^= 0xFF  # a flipped byte: bad CRC or bad data
    blocks[3].write_bytes(bytes(raw))
    resumed = simulate("2-4", 2_000, rng=10, out=tmp_path / "b", resume=True, **KW)
    assert resumed.metadata["blocks_redone"] == 4
    again = simulate("2-4", 2_000, rng=10, **KW)
    resumed, again = resumed.summary.to_arrays(), again.summary.to_arrays()
    for key in again:
        assert np.array_equal(resumed[key], again[key]), key


def test_corrupt_or_misplaced_out_is_refused(tmp_path):
    """A corrupt run.json, an empty name and a file in place of the folder."""
    (tmp_path / "run.json").write_text("{not json")
    with pytest.raises(OptionError, match="run.json that does not read"):
        simulate("2-4", 100, rng=1, out=tmp_path, **KW)
    assert simulate("2-4", 100, rng=1, out=tmp_path, resume=True, **KW).deals == 100
    with pytest.raises(OptionError, match="out='' is invalid"):
        simulate("2-4", 100, rng=1, out="", **KW)
    (tmp_path / "file").write_text("x")
    with pytest.raises(OptionError, match="is a file"):
        simulate("2-4", 100, rng=1, out=tmp_path / "file", **KW)


def test_huge_deal_counts_are_planned_lazily_and_bounded():
    """Past MAX_DEALS is refused; below it, blocks are made one at a time."""
    with pytest.raises(OptionError, match="from 1 to 100,000,000,000"):
        simulate("2-4", 10**12, **KW)
    from cpstats.cards.blocks import BlockPlan
    from cpstats.thirteen.run import _Spec, _play_block
    from cpstats.thirteen.summary import SimulationSummary

    plan = BlockPlan(10**11, 100)
    spec = _Spec("2-4", "greedy", 1, (), 100, False, None, 10**11, 30, "x")
    first = next(blocks_in_order(BlockJob(_play_block, spec, None, "x", SimulationSummary), plan, None, None))
    assert first[0] == 0 and int(first[1][0].deals) == 100


def test_distribution_memory_follows_distinct_values_not_the_unit():
    """Nets a million units apart give a short distribution, not a dense one."""
    net = np.array([[1e6, -1e6], [-3e6, 3e6], [1e6, -1e6]])
    values, counts = net_distribution(net)
    assert values.tolist() == [-3e6, -1e6, 1e6, 3e6]
    assert counts.sum(axis=0).tolist() == [3, 3]
    result = simulate("2-4(players=2,stakes=1000000:1000000/1000000:1000000)", 500, rng=2, **KW)
    assert len(result.distribution()) < 100
    assert result.moments()["sd"].iloc[0] > 1e6


def test_hands_without_out_come_from_memory():
    """keep_hands without out keeps the rows in memory: rows() gives every seat of every deal."""
    result = simulate("2-4", 300, rng=3, keep_hands=True, **KW)
    rows = result.rows()
    assert len(rows) == 300 * 4 and rows["deal"].max() == 299


def test_a_generator_passed_twice_gives_two_runs_repeatably():
    """A Generator is a stream; the same seed's Generator repeats both runs."""
    def two(seed):
        rng = np.random.default_rng(seed)
        return [simulate("2-4", 200, rng=rng, **KW).summary.net_sq_sum for _ in range(2)]

    first, second = two(5)
    assert not np.array_equal(first, second)
    again = two(5)
    assert np.array_equal(first, again[0]) and np.array_equal(second, again[1])


def test_run_json_records_the_run_digest(tmp_path):
    """Every block carries the digest of the run that wrote it."""
    simulate("2-4", 600, rng=1, out=tmp_path, **KW)
    run = json.loads((tmp_path / "run.json").read_text())
    with np.load(tmp_path / "block-000000.npz") as block:
        assert str(block["run_digest"]) == run["run_digest"]


