"""The shipped open-face reference runs (issue 17.5): stored as the 13-card references are, loaded
back whole, charged any rake exactly, and found for the apps."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import ROOT

from cpstats.errors import OptionError
import cpstats
from cpstats.ofc.shipped import (OFC_REFERENCE_DIR, OFC_REFERENCE_RUNS, REFERENCE_SEED, REFERENCE_STRATEGY,
                                 SENSITIVITY_RUNS,
                                 find_ofc_reference, load_shipped, ofc_sensitivity,
                                 write_ofc_reference)
from cpstats.engine.batches import batch_of

HANDS = 40


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A random-strategy Pineapple run written as the shipped ones are (fast)."""
    out = tmp_path_factory.mktemp("ofc-ref")
    write_ofc_reference(out, HANDS, names=["ofc-pineapple"], strategy="random")
    return out


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def test_written_run_loads_back_as_the_run(folder):
    """A stored run reads back with the figures of the same run played again."""
    stored = load_shipped("ofc-pineapple", folder=folder)
    live = cpstats.simulate("ofc-pineapple", HANDS, setter="random", rng=REFERENCE_SEED)
    assert stored.deals == HANDS and stored.metadata["strategy"] == "random/random"
    assert "write_ofc_reference(hands=40, names=['ofc-pineapple']" in stored.metadata["command"]
    _same(stored.figures(), live.figures())
    assert (folder / "ofc-pineapple-nets.npz").exists() and (folder / "ofc-pineapple.json").exists()


@pytest.mark.parametrize("rake", ["rake=percent,rake.percent=0.05,rake.cap=1",
                                  "rake=percent,rake.percent=0.1,rake.threshold=4",
                                  "rake=time,rake.amount=6,rake.hands_per_hour=60"])
def test_rake_charged_again_equals_a_live_run(folder, rake):
    """A shipped run charged another rake has the figures of a live run with that rake
    (rake never moves play), caps and thresholds included."""
    variant = f"ofc-pineapple({rake})"
    found = find_ofc_reference(variant, "random", folder=folder)
    live = cpstats.simulate(variant, HANDS, setter="random", rng=REFERENCE_SEED)
    assert str(found.variant) == variant
    _same(found.figures(), live.figures())
    assert found.figures().set_index("metric").at["rake_per_seat_per_hand", "estimate"] > 0


def test_find_refuses_other_rules_or_strategy(folder):
    """Only a run of the same rules (rake and label aside) and strategy is offered."""
    assert find_ofc_reference("ofc-pineapple", "rollout", folder=folder) is None
    assert find_ofc_reference("ofc-pineapple(players=3)", "random", folder=folder) is None
    assert find_ofc_reference("ofc-pineapple(fantasyland.stay=A)", "random", folder=folder) is None
    assert find_ofc_reference("ofc-pineapple(name=mine)", "random", folder=folder) is not None


def test_unknown_run_is_one_readable_line():
    """A wrong name says which runs exist."""
    with pytest.raises(OptionError, match=r"name='ofc-pinapple' is invalid.*did you mean"):
        cpstats.load_reference("ofc-pinapple")


def test_load_reference_opens_every_shipped_run_of_either_game():
    """The shared verb opens the shipped open-face runs (the sensitivity runs too), charged a rake
    as the game's own loader charges it; a 13-card reference has no nets, so rake= is refused."""
    if not all((OFC_REFERENCE_DIR / f"{k}.npz").exists() for k in OFC_REFERENCE_RUNS):
        pytest.skip("no shipped OFC runs (write_ofc_reference)")
    rake = cpstats.rules.house.Rake(model="percent", percent=0.05, cap=1.0)
    _same(cpstats.load_reference("OFC-Pineapple", rake=rake).figures(),
          load_shipped("ofc-pineapple", rake=rake).figures())
    assert str(cpstats.load_reference("pineapple-stay-a").variant) == "ofc-pineapple(fantasyland.stay=A)"
    assert cpstats.load_reference("2-4").variant.game == "13-card"
    with pytest.raises(OptionError, match=r"^rake= is invalid for the 13-card reference '2-4': only open-face"):
        cpstats.load_reference("2-4", rake=rake)


def test_shipped_runs_are_complete_and_consistent():
    """Every shipped run has its summary, metadata and nets; all are rollout on the same
    seed and hand count, and the nets add up to the summary's per-batch nets."""
    if not all((OFC_REFERENCE_DIR / f"{k}.npz").exists() for k in OFC_REFERENCE_RUNS):
        pytest.skip("no shipped OFC runs (write_ofc_reference)")
    hands = set()
    for key, text in OFC_REFERENCE_RUNS.items():
        r = load_shipped(key)
        assert str(r.variant) == str(load_shipped(key).variant) and r.variant.players == 2
        assert r.metadata["strategy"] == "rollout/rollout" and r.metadata["entropy"] == str(REFERENCE_SEED)
        hands.add(r.deals)
        with np.load(OFC_REFERENCE_DIR / f"{key}-nets.npz") as data:
            net = data["net"].astype(np.int64)
        assert net.shape == (r.deals, 2) and (net.sum(axis=1) == 0).all()
        batches = r.summary.batch_sizes.size
        sums = np.zeros((batches, 2))
        np.add.at(sums, batch_of(0, r.deals, r.deals, batches), net)
        np.testing.assert_array_equal(sums, r.summary.net_by_batch)
    assert len(hands) == 1


def test_sensitivity_is_paired_on_the_pineapple_decks():
    """The sensitivity table compares every run with stay B (its own differences 0)."""
    if not all((OFC_REFERENCE_DIR / f"{k}.npz").exists() for k in SENSITIVITY_RUNS):
        pytest.skip("no shipped OFC runs (write_ofc_reference)")
    table = ofc_sensitivity()
    assert list(dict.fromkeys(table["label"])) == list(SENSITIVITY_RUNS.values())
    base = table[table["label"] == "Pineapple (stay B)"].set_index("metric")
    assert (base.loc[["royalty", "foul_rate"], "diff"] == 0).all()
    no_fl = table[table["label"] == "no Fantasyland"].set_index("metric")
    assert no_fl.at["fl_entry_rate", "estimate"] == 0


def test_package_data_globs_ship_the_ofc_runs():
    """The wheel ships cpstats/data/reference/ofc (pyproject's package-data globs match
    every file there; ``data/reference/*.npz`` does not reach the subfolder)."""
    import fnmatch
    import tomllib

    from cpstats._resources import DATA_DIR

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = setuptools["package-data"]["cpstats"]
    files = [p.relative_to(DATA_DIR.parent).as_posix() for p in OFC_REFERENCE_DIR.glob("*")]
    if not files:
        pytest.skip("no shipped OFC runs (write_ofc_reference)")
    missed = [f for f in files
              if not any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/") for g in globs)]
    assert missed == [], (f"pyproject package-data misses {missed[:3]}: "
                          "add data/reference/ofc/*.npz and *.json")


def test_rake_must_be_a_rake(folder):
    """A rake given as anything but a Rake is one readable line."""
    with pytest.raises(OptionError, match=r"rake='time' is invalid: a cpstats.rules.house.Rake"):
        load_shipped("ofc-pineapple", rake="time", folder=folder)


def test_open_face_page_figures_name_their_denominators_and_are_the_packages():
    """The open-face page's figures (docs/open_face.md) are the package's own and say what they are: entry per
    normal board (not over every board, which the shipped run would put lower), foul over every
    board, the simulated gain of a Fantasyland hand (fl_value) apart from the solver's stay value
    V = r / (1 - p)."""
    import re

    from cpstats.ofc import estimate_stay_value, fantasyland_table

    if not (OFC_REFERENCE_DIR / "ofc-pineapple.npz").exists():
        pytest.skip("no shipped OFC runs (write_ofc_reference)")
    page = " ".join((ROOT / "docs" / "open_face.md").read_text().split())
    run = load_shipped("ofc-pineapple")
    f = run.figures().set_index("metric")
    s = run.summary
    entry = f.loc["fl_entry_rate"]
    assert entry["estimate"] == pytest.approx(s.entries_by_batch.sum() / s.normal_by_batch.sum())
    every = s.entries_by_batch.sum() / (s.normal_by_batch.sum() + s.fantasyland_by_batch.sum())
    assert f"{every:.1%}" != f"{entry['estimate']:.1%}"  # the two denominators read differently

    def cited(row, fmt, scale=1.0):
        return (f"{row['estimate'] * scale:{fmt}}", f"{row['ci_low'] * scale:{fmt}}",
                f"{row['ci_high'] * scale:{fmt}}")

    e, lo, hi = cited(entry, ".1f", 100)
    assert f"entry {e}% of normal boards ({lo}..{hi})" in page
    e, lo, hi = cited(f.loc["foul_rate"], ".1f", 100)
    assert f"foul {e}% of all boards ({lo}..{hi})" in page
    assert "Fantasyland entry is per normal board (only a normal hand can enter)" in page
    stay = estimate_stay_value("ofc-pineapple")
    e, lo, hi = cited(f.loc["fl_value"], ".2f")
    assert f"it is {e} a hand ({lo}..{hi}), below V = {stay:.2f}" in page
    assert f.loc["fl_value", "ci_high"] < stay
    t = fantasyland_table("ofc-pineapple", rng=2026).iloc[0]  # the seed notebook 06 uses
    r = f"r {t['royalty']:.2f}, 95% CI {t['royalty_low']:.2f}..{t['royalty_high']:.2f}"
    p = f"p {t['stay_rate']:.1%}, {t['stay_low'] * 100:.1f}..{t['stay_high']:.1%}"
    assert re.search(rf"V = {stay:.2f} \(.*{re.escape(r)}; {re.escape(p)}\)", page), (r, p)


@pytest.mark.parametrize("key", list(OFC_REFERENCE_RUNS))
def test_a_shipped_run_is_the_play_of_todays_strategy(key):
    """A shipped run's identity is what the package computes for its spec today, the play its
    strategy name now means included (its kernel, the Fantasyland value it is told): a run left
    behind when the default changed fails here."""
    import json

    from cpstats.ofc import simulation as sim
    from cpstats.ofc.setters import seat_setters
    from cpstats.ofc.rules import parse_ofc_variant

    path = OFC_REFERENCE_DIR / f"{key}.json"
    if not path.exists():
        pytest.skip("no shipped OFC runs (write_ofc_reference)")
    meta = json.loads(path.read_text())
    v = parse_ofc_variant(meta["variant"])
    root = np.random.SeedSequence(int(meta["entropy"]), spawn_key=tuple(meta["spawn_key"]))
    fresh = sim._metadata(v, seat_setters(meta["strategy"].split("/")[0], v.players), root, meta["deals"],
                          meta["block_deals"], meta["burn_in"])
    assert meta["strategy"] == f"{REFERENCE_STRATEGY}/{REFERENCE_STRATEGY}"
    assert meta.get("play") == fresh.get("play") and meta["run_digest"] == fresh["run_digest"]
    assert "street models " in meta["play"] and "street models none" not in meta["play"]  # the learned play
