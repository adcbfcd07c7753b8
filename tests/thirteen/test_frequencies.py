"""Natural frequencies by simulation: reproducibility, and agreement with the exact values."""

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from scipy import stats

from cpstats import OptionError
from cpstats.apps.cli import main
from cpstats.thirteen.frequencies import natural_frequencies, wilson_interval
from cpstats.thirteen.naturals.detect import NATURALS


@pytest.fixture(scope="module")
def frequencies():
    return natural_frequencies(300_000, players=4, rng=12345)


def test_simulated_frequencies_agree_with_exact_values(frequencies):
    """Every natural within 5 standard errors of its exact probability (SE from the exact p).

    With 1.2M hands the rarest naturals (p ~ 1e-11) are expected 0 times; for those the test
    requires no more than a handful of hits (5 sigma of a Poisson with mean ~0 is < 1 hit).
    """
    df = frequencies.set_index("natural")
    for name, row in df.iterrows():
        p, n = row["exact_probability"], row["hands"]
        se = np.sqrt(p * (1 - p) / n)
        assert abs(row["frequency"] - p) <= 5 * se + 1 / n, (name, row["frequency"], p)
    assert df.loc["no_pictures", "hits"] > 10_000  # the test has power where hits are common


def test_table_rate_is_at_least_the_seat_rate(frequencies):
    df = frequencies
    assert (df["per_table"] >= df["frequency"] - 1e-12).all()
    # without dependence between seats it would be 1-(1-p)^4; dealt from one deck it is close to that
    p = df.set_index("natural").loc["six_pairs", "exact_probability"]
    rate = df.set_index("natural").loc["six_pairs", "per_table"]
    assert abs(rate - (1 - (1 - p) ** 4)) < 5 * np.sqrt(rate * (1 - rate) / 300_000)


def test_columns_and_wilson_interval(frequencies):
    assert list(frequencies["natural"]) == list(NATURALS)
    assert {"natural", "hands", "hits", "frequency", "ci_low", "ci_high", "exact_probability", "z",
            "one_in", "per_table"} <= set(frequencies.columns)
    row = frequencies.set_index("natural").loc["six_pairs"]
    ci = stats.binomtest(int(row["hits"]), int(row["hands"])).proportion_ci(method="wilson")
    assert row["ci_low"] == pytest.approx(ci.low, rel=1e-9)
    assert row["ci_high"] == pytest.approx(ci.high, rel=1e-9)
    low, high = wilson_interval(0, 100)
    assert low == pytest.approx(0, abs=1e-15) and 0 < high < 0.05


def test_same_seed_same_counts_whatever_the_executor():
    serial = natural_frequencies(5_000, rng=7, block_deals=1000)
    with ThreadPoolExecutor(2) as pool:
        parallel = natural_frequencies(5_000, rng=7, block_deals=1000, executor=pool)
    assert serial.equals(parallel)
    other = natural_frequencies(5_000, rng=8, block_deals=1000)
    assert not serial["hits"].equals(other["hits"])


def test_n_deals_are_a_prefix_of_2n():
    """A 2n-deal run is the n-deal run plus the next block: block i always uses child i."""
    from cpstats.cards.blocks import root_seed, shuffled_decks
    from cpstats.thirteen.frequencies import _natural_block

    first = natural_frequencies(1_000, rng=3, block_deals=1000)["hits"].to_numpy()
    both = natural_frequencies(2_000, rng=3, block_deals=1000)["hits"].to_numpy()
    root = root_seed(3)
    block1 = _natural_block(root.entropy, root.spawn_key, 1, 1000, 4, True)[0]
    assert np.array_equal(both, first + block1)
    assert np.array_equal(shuffled_decks(root, 1, 200), shuffled_decks(root, 1, 1000)[:200])


@pytest.mark.parametrize("kwargs, message", [
    ({"deals": 0}, "deals=0 is invalid"),
    ({"deals": 10, "players": 5}, "players=5 is invalid"),
    ({"deals": 10, "rng": -1}, "rng=-1 is invalid"),
    ({"deals": 10, "rng": "x"}, "rng='x' is invalid"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(OptionError, match=message):
        natural_frequencies(**kwargs)


def test_cli_naturals_json(capsys):
    assert main(["naturals", "--deals", "2000", "--seed", "1", "--format", "json", "--quiet"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["natural"] for r in rows] == list(NATURALS)
    assert all(r["hands"] == 8000 for r in rows)


def test_cli_rejects_bad_deals(capsys):
    with pytest.raises(SystemExit):
        main(["naturals", "--deals", "0"])
    assert "must be >= 1" in capsys.readouterr().err


