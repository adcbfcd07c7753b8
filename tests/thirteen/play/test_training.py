"""Training the ev setter's row tables (damped best response), duplicate matches."""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.thirteen.play import row_tables
from cpstats.errors import OptionError
from cpstats.engine.registry import get_preset
from cpstats.thirteen.play.training import train_tables

PER_ROUND = ("convergence", "response_gap", "noise", "weights", "phases", "round_deals")


@pytest.fixture(scope="module")
def small():
    """A small damped run: 4,000 hands a round, at most 10 damped rounds, 2 refinements."""
    return train_tables("2-4", deals=4_000, rounds=10, refine=2, rng=17)


def test_training_small_run_and_roundtrip(tmp_path):
    t = train_tables("2-4", deals=2_000, rounds=2, refine=1, rng=3)
    assert t.front.shape == (455,) and t.middle.shape == (7462,) and t.back.shape == (7462,)
    assert t.meta["seed"] == 3 and t.meta["deals"] == 2_000 and t.meta["rounds"] == 3
    assert len(t.meta["convergence"]) == 3 and t.meta["phases"] == ["damped", "damped", "refine"]
    assert t.meta["round_deals"] == [2_000, 2_000, 4_000]
    assert abs(t.back.sum() - 1) < 1e-9 and abs(t.front.sum() - 1) < 1e-9
    t.save(tmp_path / "t.npz")
    back = row_tables.RowTables.load(tmp_path / "t.npz")
    assert back.variant == "2-4" and back.meta == t.meta and np.array_equal(back.middle, t.middle)
    again = train_tables("2-4", deals=2_000, rounds=2, refine=1, rng=3)
    assert np.array_equal(again.middle, t.middle)  # seeded: repeatable
    assert np.array_equal(again.front, t.front) and np.array_equal(again.back, t.back)
    assert again.meta["response_gap"] == t.meta["response_gap"]
    other = train_tables("2-4", deals=2_000, rounds=2, refine=1, rng=4)
    assert not np.array_equal(other.middle, t.middle)


def test_training_fits_card_removal(small):
    """The last step fits the card-removal correction: per row, one slope per rank class and
    feature; a least-squares fit of class indicators, so every feature's slopes sum to zero
    over the classes (the probabilities keep summing to one)."""
    r = small.removal
    # Its own stream: the last child of rounds (10) + refinements (2) + start, check, removal.
    assert r is not None and r.meta["deals"] == 2_000 and r.meta["spawn_key"] == [14]
    assert r.front.shape == (37, 14) and r.middle.shape == r.back.shape == (100, 14)
    for slope in r.slopes():
        np.testing.assert_allclose(slope.sum(axis=0), 0.0, atol=1e-12)
        assert np.abs(slope).max() > 1e-4


def test_meta_records_convergence(small):
    m = small.meta
    assert m["method"] == "damped" and m["variant"] == "2-4" and m["seed"] == 17
    n = m["rounds"]
    assert all(len(m[k]) == n for k in PER_ROUND)
    assert m["phases"][-2:] == ["refine", "refine"] and m["weights"][0] == 0.5
    assert m["weights"][-1] == 0.2 and m["round_deals"][-1] == 8_000
    assert m["check_deals"] == 8_000 and m["final_gap"] is not None and m["final_noise"] > 0
    assert isinstance(m["stopped"], str) and m["seconds"] >= 0
    # the change of the win tables is the blend weight times the gap
    assert np.allclose(m["convergence"], np.multiply(m["weights"], m["response_gap"]))


def test_damped_gap_decreases(small):
    gaps = small.meta["response_gap"]
    assert gaps[0] > 0.5  # greedy is far from a fixed point (its fronts are weak)
    assert min(gaps) < gaps[0] / 10
    assert gaps[-1] < gaps[0] / 10 and small.meta["final_gap"] < 0.06
    # the earlier procedure (fictitious play) is still far from the fixed point after as many
    # rounds on as many hands
    fp = train_tables("2-4", deals=4_000, rounds=small.meta["rounds"], rng=17,
                      method="fictitious", check_deals=8_000)
    assert fp.meta["phases"] == ["fictitious"] * small.meta["rounds"]
    assert fp.meta["weights"][:3] == [1 / 2, 1 / 3, 1 / 4]
    assert small.meta["final_gap"] < fp.meta["final_gap"] / 2


def test_damped_phase_stops_when_the_gap_stops_falling():
    t = train_tables("2-4", deals=2_000, rounds=40, refine=0, patience=1, rng=5,
                     check_deals=0)
    gaps = t.meta["response_gap"]
    assert len(gaps) < 40 and gaps[-1] >= min(gaps[:-1])  # stopped on the first rise
    assert all(a > b for a, b in zip(gaps[:-2], gaps[1:-1]))
    assert "stopped falling" in t.meta["stopped"] and t.meta["final_gap"] is None


def test_heads_up_trains_the_same_tables():
    """Under 2-4 (no royalties, naturals or surrender) the number of opponents only scales the
    expected value, so heads-up training makes the same tables: why ``2-4(players=2)`` plays
    with the shipped 2-4 tables (issue 15.2, ``row_tables.strategy_rules``)."""
    a = train_tables("2-4", deals=2_000, rounds=3, refine=1, rng=9, check_deals=0)
    b = train_tables("2-4(players=2)", deals=2_000, rounds=3, refine=1, rng=9, check_deals=0)
    assert b.variant == "2-4(players=2)"
    for x, y in zip((a.front, a.middle, a.back), (b.front, b.middle, b.back)):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("options", [dict(deals=999), dict(rounds=-1), dict(method="newton"),
                                     dict(damping=0.0), dict(patience=0), dict(check_deals=10)])
def test_bad_options_rejected(options):
    with pytest.raises(OptionError):
        train_tables("2-4", **{"deals": 2_000, **options})


def test_shipped_2_4_tables_converged():
    t = row_tables.RowTables.load(row_tables.TABLES_DIR / "2-4.npz")
    assert t.meta["method"] == "damped" and t.meta["deals"] >= 200_000
    assert t.meta["final_gap"] < 0.01 and t.meta["check_deals"] >= 200_000


def test_threads_train_the_same_tables_as_one_core():
    """The ev search runs in chunks on a thread pool (its kernel releases the GIL);
    the chunks are joined in order, so the tables do not depend on the executor."""
    from concurrent.futures import ThreadPoolExecutor

    options = dict(deals=2_000, rounds=2, refine=1, rng=11, check_deals=2_000,
                   removal_deals=1_000)
    serial = train_tables("2-4(royalties=R-FLAT)", **options)
    with ThreadPoolExecutor(2) as pool:
        threaded = train_tables("2-4(royalties=R-FLAT)", executor=pool, **options)
    for a, b in zip((serial.front, serial.middle, serial.back, *serial.removal.slopes()),
                    (threaded.front, threaded.middle, threaded.back, *threaded.removal.slopes())):
        np.testing.assert_array_equal(a, b)
    assert serial.meta["response_gap"] == threaded.meta["response_gap"]


@pytest.mark.parametrize("options", [dict(rounds=3, patience=5), dict(rounds=40, patience=1)])
def test_progress_counts_every_step_once(options):
    """The progress callback adds up to rounds + refine + 1 (check) + 3 (card-removal passes),
    whether the damped phase plays every round or stops early (the skipped rounds count)."""
    steps = []
    t = train_tables("2-4", deals=1_000, refine=1, check_deals=1_000, removal_deals=1_000,
                     rng=2, progress=steps.append, **options)
    assert sum(steps) == options["rounds"] + 1 + 1 + 3
    assert len(t.meta["response_gap"]) <= options["rounds"] + 1


# -- matches and exploitability ---------------------------------------------------------------------

def test_match_ev_beats_greedy():
    from cpstats.thirteen.play.training import match

    res = match("2-4", "ev", "greedy", deals=3_000, rng=11)
    assert res.ci95[0] > 0, str(res)
    same = match("2-4", "greedy", "greedy", deals=500, rng=1)
    assert same.mean == 0.0


def test_exploitability_flags_greedy():
    from cpstats.thirteen.play.training import exploitability

    res = exploitability("greedy", hands=6, opponents=200, rng=2)
    assert res.in_sample >= res.out_of_sample - 1.0 and res.in_sample > 0.3, str(res)


def test_shipped_tables_carry_metadata():
    from cpstats.thirteen.rules.presets import preset_names

    shipped = sorted(p.stem for p in row_tables.TABLES_DIR.glob("*.npz"))
    assert "2-4" in shipped
    for name in shipped:
        assert name in preset_names()
        t = row_tables.RowTables.load(row_tables.TABLES_DIR / f"{name}.npz")
        assert t.variant == str(get_preset(name))
        assert {"seed", "deals", "rounds", "convergence"} <= set(t.meta)
        assert t.meta["convergence"][-1] < 0.05


def test_match_plays_criss_cross_by_seat():
    """D3: both hands of a seat are set by that seat's strategy; identical strategies tie."""
    from cpstats.thirteen.play.training import match

    res = match("criss-cross", "ev", "greedy", deals=1_500, rng=3)
    assert res.ci95[0] > 0
    assert match("criss-cross", "greedy", "greedy", deals=300, rng=3).mean == 0
