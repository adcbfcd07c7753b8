"""Simulation engine: reproducibility, resume, executors, rescoring, summaries."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from cpstats import OptionError
from cpstats.workbench import compare, simulate

KW = dict(setter="greedy", block_deals=500)


def same(a, b):
    a, b = a.summary.to_arrays(), b.summary.to_arrays()
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


@pytest.fixture(scope="module")
def serial():
    return simulate("pagat-typical", 2_000, rng=11, **KW)


def test_same_seed_same_result_whatever_the_executor(serial):
    with ThreadPoolExecutor(2) as pool:
        same(serial, simulate("pagat-typical", 2_000, rng=11, executor=pool, **KW))
    other = simulate("pagat-typical", 2_000, rng=12, **KW)
    assert not np.array_equal(other.summary.net_sq_sum, serial.summary.net_sq_sum)


def test_n_deals_are_a_prefix_of_2n():
    """The deals (and so every row) of an n-deal run are the first n of the 2n run; the batches
    differ, since a run's batches are cut from its own deal count."""
    short = simulate("pagat-typical", 1_000, rng=11, keep_hands=True, **KW).rows()
    longer = simulate("pagat-typical", 2_000, rng=11, keep_hands=True, **KW).rows()
    pd.testing.assert_frame_equal(longer.iloc[: len(short)], short)


def test_zero_sum_and_moments(serial):
    m = serial.moments()
    assert m["mean"].sum() == pytest.approx(0, abs=1e-9)
    assert (m["ci_low"] < m["mean"]).all() and (m["mean"] < m["ci_high"]).all()
    assert np.allclose(m["volatility_index"], 1.645 * m["sd"])
    dist = serial.distribution()
    assert (dist[[c for c in dist if c.startswith("seat_")]].sum() == 2_000).all()
    mu = (dist["net"] * dist["p_0"]).sum()
    assert mu == pytest.approx(m.loc[0, "mean"])


def test_resume_reuses_finished_blocks(tmp_path):
    full = simulate("2-4", 2_000, rng=5, out=tmp_path / "a", **KW)
    blocks = sorted((tmp_path / "a").glob("block-*.npz"))
    assert len(blocks) == 4
    blocks[1].unlink()
    blocks[3].unlink()  # as if killed before these finished
    stamp = blocks[0].stat().st_mtime_ns
    resumed = simulate("2-4", 2_000, rng=5, out=tmp_path / "a", resume=True, **KW)
    same(full, resumed)
    assert blocks[0].stat().st_mtime_ns == stamp  # reused, not recomputed


def test_out_folder_of_another_run_is_refused(tmp_path):
    simulate("2-4", 500, rng=5, out=tmp_path, **KW)
    with pytest.raises(OptionError, match="holds blocks of another run"):
        simulate("2-4", 500, rng=7, out=tmp_path, **KW)
    with pytest.raises(OptionError, match=r"already holds blocks of this run: pass resume=True \(--resume\)"):
        simulate("2-4", 500, rng=5, out=tmp_path, **KW)
    with pytest.raises(OptionError, match="differs in entropy"):
        simulate("2-4", 500, rng=6, out=tmp_path, resume=True, **KW)
    with pytest.raises(OptionError, match="resume=True needs out"):
        simulate("2-4", 500, rng=6, resume=True, **KW)


def test_hands_rows_in_parquet(tmp_path):
    result = simulate("pagat-typical", 600, rng=3, out=tmp_path, keep_hands=True, **KW)
    rows = result.rows()
    assert len(rows) == 600 * 4
    assert rows["middle_category"].dtype.ordered and rows["seat"].dtype == np.int8
    by_deal = rows.groupby("deal")["net"].sum()
    assert np.allclose(by_deal, 0, atol=1e-4)
    # scoops and scooped are two views of the same pairs; the summary counts them too
    assert rows["scoops"].sum() == rows["scooped"].sum()
    assert rows["scoops"].sum() == result.summary.scoops.sum()
    for j in range(4):
        assert (rows.loc[rows["hand"] == j, f"rows_vs_{j}"] == 0).all()
    import pyarrow.parquet as pq

    assert pq.read_table(sorted(tmp_path.glob("hands-*.parquet"))[0]).num_rows == 500 * 4


def test_rescore_equals_a_fresh_run_when_settings_do_not_change():
    """greedy ignores the rules, so rescoring under 1-6 equals simulating 1-6 on the same seed."""
    kept = simulate("2-4", 1_000, rng=9, keep_hands=True, **KW)
    same(kept.rescore("1-6"), simulate("1-6", 1_000, rng=9, **KW))
    with pytest.raises(OptionError, match="rescore needs the settings"):
        simulate("2-4", 100, rng=9, **KW).rescore("1-6")


def test_compare_is_paired_on_common_deals():
    df = compare(["2-4", "1-6"], 1_000, rng=4, **KW)
    assert list(df["variant"]) == ["2-4", "1-6"]
    assert df.loc[0, "sd_diff"] == 0 and df.loc[0, "scoop_rate_diff"] == 0
    assert df.loc[1, "sd"] > df.loc[0, "sd"]  # a 1-6 scoop moves 6, a 2-4 scoop 4


def test_dask_local_cluster_matches_serial():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        result = simulate("2-4", 1_500, rng=21, executor=client.get_executor(), **KW)
    same(result, simulate("2-4", 1_500, rng=21, **KW))


@pytest.mark.parametrize("kwargs, message", [
    ({"deals": 0}, "deals=0 is invalid"),
    ({"deals": 10, "players": 5}, "players"),
    ({"deals": 10, "setter": "genius"}, "genius"),
    ({"deals": 10, "variant": "2-5"}, "2-4"),
])
def test_bad_arguments(kwargs, message):
    args = {"variant": "2-4", **kwargs}
    with pytest.raises(OptionError, match=message):
        simulate(args.pop("variant"), args.pop("deals"), **{"setter": "greedy", **args})


def test_ev_runs_record_their_tables_and_resume_checks_them(tmp_path):
    import json

    res = simulate("2-4", 300, setter="ev", rng=1, out=tmp_path, block_deals=300)
    record = res.metadata["tables"]
    assert record["trained_for"] == "2-4" and len(record["sha256"]) == 16
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["tables"] == record
    run["tables"]["sha256"] = "0" * 16  # as if the blocks were set with other tables
    (tmp_path / "run.json").write_text(json.dumps(run))
    with pytest.raises(OptionError, match="differs in tables"):
        simulate("2-4", 300, setter="ev", rng=1, out=tmp_path, block_deals=300, resume=True)


def test_reference_results_match_the_shipped_tables_and_dealer():
    """Every preset ships >= 1M reference deals set by ev with the tables shipped beside them
    (the SHA-256 recorded at simulation time equals the tables' now)."""
    import json

    from cpstats.cards.blocks import DEALER
    from cpstats.thirteen.rules.presets import preset_names
    from cpstats.engine import REFERENCE_DIR
    from cpstats.thirteen.play import tables_record

    for name in preset_names():
        meta = json.loads((REFERENCE_DIR / f"{name}.json").read_text())
        assert meta["deals"] >= 1_000_000 and meta["strategy"] == "ev", name
        assert meta.get("dealer") == DEALER, name
        assert meta.get("tables") == tables_record(name), name
        assert f"--preset {name} " in meta["command"] and "--seed" in meta["command"], name


def test_session_bands_centre_on_the_true_mean_after_house_charges():
    """Identical players win nothing from each other: a seat's session band is centred on minus
    its share of the rake, not on its noisy sample mean; a banked game centres on the house edge."""
    r = simulate("2-4(rake=percent,rake.percent=0.05,rake.cap=2,players=3)", 600, setter="greedy", rng=1)
    rake = float(r.house().iloc[0]["rake_per_hand"])
    s = r.sessions(hands=[1000])
    assert rake > 0 and s["expected"].to_numpy() == pytest.approx([-1000 * rake / 3] * 3)
    sd = r.after_charges()["sd"].to_numpy()  # the SD of the result after the rake
    assert (s["high"] - s["expected"]).to_numpy() == pytest.approx(1.6449 * sd * np.sqrt(1000), rel=1e-4)
    b = simulate("banked", 600, setter="greedy", rng=1)
    edge = 3 * float(b.house().iloc[0]["house_edge"])
    assert b.sessions(hands=[100])["expected"].to_numpy() == pytest.approx([300 * edge, -100 * edge,
                                                                            -100 * edge, -100 * edge])


@pytest.mark.parametrize("tidy", [False, True])
def test_a_comparison_says_how_it_was_made(tidy):
    """A comparison handed on carries who set each variant's hands and how the run was made."""
    table = compare(["2-4", "1-6"], 300, setter="greedy", rng=2, tidy=tidy)
    assert set(table["setter"]) == {"greedy"}
    assert table.attrs["strategy"] == "greedy" and table.attrs["deals"] == 300
    assert table.attrs["pairing"] == "common deals" and table.attrs["entropy"] == "2"


def test_rescore_into_naturals_declares_them_and_says_whose_settings_they_are():
    """A run rescored into rules with naturals declares them as a fresh run would, and says the settings
    were chosen under other rules, naming what changed."""
    base = simulate("2-4(royalties=R-FUTUREBET,rake=fixed-table,rake.amount=0.5)", 2_000, rng=6,
                    keep_hands=True, **KW)
    natural = base.rescore("pagat-typical")
    direct = simulate("pagat-typical", 2_000, rng=6, **KW)
    assert natural.summary.declared.sum() > 0
    assert np.array_equal(natural.summary.declared, direct.summary.declared)
    assert natural.metadata["settings_variant"] == str(base.variant)
    assert any("settings are those greedy chose" in n for n in natural.metadata["rescore_notes"])
    plain = base.rescore("2-4")
    notes = " ".join(plain.metadata["rescore_notes"])
    assert "royalties" in notes and "rake" in notes


@pytest.mark.parametrize("confidence", [1.5, 0, 1, float("nan"), "high"])
def test_compare_refuses_a_confidence_outside_0_1(confidence):
    """compare(confidence=1.5) gave NaN/inf intervals."""
    with pytest.raises(OptionError, match="confidence=.* is invalid: a level strictly between 0 and 1"):
        compare(["2-4", "1-6"], 100, confidence=confidence, **KW)
