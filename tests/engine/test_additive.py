"""Typed block summaries and the results' shared table API.

A summary's key set, its arrays on disk and its sum all come from its fields; the shipped
references load through them unchanged; both games' results give ``deals``, ``figures()``,
``rows()``, ``distribution()`` and ``metadata``.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import cpstats
from cpstats.errors import OptionError
from cpstats.ofc.result import SimulationSummary as OpenFaceSummary
from cpstats.engine import load_reference
from cpstats.engine.base import FIGURE_COLUMNS
from cpstats.engine.files import REFERENCE_DIR
from cpstats.thirteen.summary import SimulationSummary

KW = dict(setter="greedy", block_deals=300)


def _old_merge(total: dict, part: dict) -> dict:
    """The untyped merge the summaries replaced (sum; maximum for pot_max; distribution on the
    union of its values), kept here as the reference a typed sum must equal bit for bit."""
    dist = ("dist_values", "dist_counts", "dist_charge")
    out = {k: total[k] + x for k, x in part.items() if k not in (*dist, "pot_max")}
    if "pot_max" in part:
        out["pot_max"] = np.maximum(total["pot_max"], part["pot_max"])
    values = np.union1d(total["dist_values"], part["dist_values"])
    old, new = np.searchsorted(values, total["dist_values"]), np.searchsorted(values, part["dist_values"])
    for key in dist[1:]:
        if key in part:
            merged = np.zeros((len(values), total[key].shape[1]), dtype=total[key].dtype)
            merged[old] += total[key]
            merged[new] += part[key]
            out[key] = merged
    out["dist_values"] = values
    return out


def _bits(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        x, y = np.asarray(a[k]), np.asarray(b[k])
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), k


@pytest.mark.parametrize("variant", ["2-4", "banked(bank.commission=0.05)", "ofc-pineapple"])
def test_a_sum_of_summaries_is_the_old_merge_bit_for_bit(variant):
    """Two runs' summaries of different deals (so distinct net values) add as the dict merge did."""
    n = 40 if variant.startswith("ofc") else 700
    setter = "random" if variant.startswith("ofc") else "greedy"
    a = cpstats.simulate(variant, n, setter=setter, rng=1, block_deals=n).summary
    b = cpstats.simulate(variant, n, setter=setter, rng=3 if variant.startswith("ofc") else 2, block_deals=n).summary
    assert not np.array_equal(a.net_values, b.net_values)
    _bits((a + b).to_arrays(), _old_merge(a.to_arrays(), b.to_arrays()))


def test_the_key_set_comes_from_the_fields():
    fields = dataclasses.fields(SimulationSummary)
    assert SimulationSummary.keys() == tuple(f.metadata["key"] for f in fields)
    assert len(set(SimulationSummary.keys())) == len(fields) == 53
    assert "net_s1" in SimulationSummary.keys() and SimulationSummary(
        **{f.name: np.zeros(1) for f in fields}).net_sum.shape == (1,)
    plain, banked = cpstats.get_preset("2-4"), cpstats.get_preset("banked")
    assert SimulationSummary.layout(banked) - SimulationSummary.layout(plain) == {"batch_tie_gain"}
    assert len(OpenFaceSummary.keys()) == 34 and "hands" in OpenFaceSummary.keys()
    ofc = cpstats.get_preset("ofc-pineapple").replace(button="fixed")
    assert len(OpenFaceSummary.layout(ofc)) == 21  # the table rules' sums only where the rules play them
    assert len(OpenFaceSummary.layout(cpstats.get_preset("ofc-pineapple"))) == 34  # the button moves: the table sums
    assert len(OpenFaceSummary.layout(ofc.replace(match="round"))) == 34


def test_a_summary_is_frozen_and_refuses_what_it_cannot_hold():
    s = load_reference("2-4").summary
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.deals = 1  # type: ignore[misc]
    with pytest.raises(OptionError, match="arrays batch_net are not in a SimulationSummary"):
        SimulationSummary.from_arrays({**s.to_arrays(), "batch_net": np.zeros(3)})
    with pytest.raises(OptionError, match="SimulationSummary is incomplete: no net_s1 arrays"):
        SimulationSummary.from_arrays({k: x for k, x in s.to_arrays().items() if k != "net_s1"})
    older = SimulationSummary.from_arrays({k: x for k, x in s.to_arrays().items() if k != "pot_max"})
    with pytest.raises(OptionError, match="summaries of two layouts do not add: only one holds pot_max"):
        s + older
    assert s.__add__(1) is NotImplemented


def test_shipped_references_load_unchanged_and_write_back_the_same_arrays(tmp_path):
    """A shipped reference reads into the typed summary and saves back under its old keys."""
    for name in ("2-4", "banked"):
        ref = load_reference(name)
        with np.load(REFERENCE_DIR / f"{name}.npz") as data:
            stored = {k: data[k] for k in data.files}
        _bits(ref.summary.to_arrays(), stored)
        assert ref.metadata["summary_format"] == 4
    from cpstats.ofc.shipped import OFC_REFERENCE_DIR

    with np.load(OFC_REFERENCE_DIR / "ofc-pineapple.npz") as data:
        stored = {k: data[k] for k in data.files}
    _bits(load_reference("ofc-pineapple").summary.to_arrays(), stored)


def test_both_results_share_one_table_api():
    thirteen = cpstats.simulate("2-4", 600, rng=1, keep_hands=True, **KW)
    ofc = cpstats.simulate("ofc-pineapple", 30, setter="random", rng=1, block_deals=30)
    for r, deals in ((thirteen, 600), (ofc, 30)):
        assert r.deals == deals and r.batches == 30 and isinstance(r.metadata, dict)
        figures = r.figures()
        assert tuple(figures.columns[:5]) == FIGURE_COLUMNS and len(figures) > 20
        assert int(r.distribution().filter(like="seat").iloc[:, 0].sum()) == deals
    assert len(thirteen.rows()) == 600 * 4
    with pytest.raises(OptionError, match="this result has no rows"):
        ofc.rows()


def test_13_card_figures_are_the_results_own_tables():
    r = load_reference("2-4")
    f = r.figures().set_index("metric")
    m = r.moments()
    assert f.loc["mean_seat1", "estimate"] == m.at[1, "mean"]
    assert f.loc["mean_seat1", "ci_low"] == m.at[1, "ci_low"]
    assert f.loc["rake_per_hand", "table"] == "house"
    assert f.loc["royalty_rate_back_quads", "ci_high"] == r.royalties().set_index("row").at["back_quads", "ci_high"]
    narrow = r.figures(0.90).set_index("metric")
    assert narrow.loc["mean_seat1", "ci_high"] < f.loc["mean_seat1", "ci_high"]
    assert narrow.loc["foul_rate_hand0", "ci_high"] < f.loc["foul_rate_hand0", "ci_high"]
    assert json.loads(f.reset_index().to_json(orient="records"))[0]["metric"] == "mean_seat0"
