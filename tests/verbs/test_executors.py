"""The long verbs give the same numbers serial and on a Dask LocalCluster, for both games:
``compare``, ``par_sheet``, ``skill`` and ``solve`` (``sweep`` and 13-card ``skill`` are in
verbs/test_sweep.py, ``simulate`` in thirteen/test_run.py and ofc/test_simulation.py)."""

import pandas as pd
import pytest

import cpstats


@pytest.mark.parametrize("presets, kw", [
    (["2-4", "1-6"], dict(deals=600, setter="greedy", block_deals=200)),
    (["ofc-pineapple", "ofc-pineapple-progressive"], dict(deals=60, setter="random", block_deals=20)),
], ids=["13-card", "open-face"])
def test_compare_is_the_same_on_dask(dask_executor, presets, kw):
    serial = cpstats.compare(presets, rng=7, **kw)
    dask = cpstats.compare(presets, rng=7, executor=dask_executor, **kw)
    pd.testing.assert_frame_equal(serial, dask)
    assert len(serial) >= 2 and serial.select_dtypes("number").notna().any().any()


def _tables(sheet) -> list[tuple[str, pd.DataFrame]]:
    return [(t.key, t.frame) for s in sheet.sections for t in s.tables]


@pytest.mark.parametrize("preset, kw", [
    ("2-4", dict(deals=400, setter="greedy", sensitivity=False)),
    ("ofc-pineapple", dict(deals=30, setter="random", sensitivity=False)),
], ids=["13-card", "open-face"])
def test_par_sheet_is_the_same_on_dask(dask_executor, preset, kw, monkeypatch):
    import cpstats.ofc.par.sheet as ofc_par

    monkeypatch.setattr(ofc_par, "STRENGTH_DEALS", 4)  # open face's strength match, a rollout player: kept small
    build = cpstats.par_sheet
    serial, dask = build(preset, rng=3, **kw), build(preset, rng=3, executor=dask_executor, **kw)
    a, b = _tables(serial), _tables(dask)
    assert [k for k, _ in a] == [k for k, _ in b] and len(a) > 5
    for (key, x), (_, y) in zip(a, b):
        pd.testing.assert_frame_equal(x, y, obj=key)


def test_open_face_skill_is_the_same_on_dask(dask_executor):
    kw = dict(deals=8, rng=2, fields=["random"])
    from cpstats.ofc import skill_table

    serial = skill_table("ofc-pineapple", **kw)
    pd.testing.assert_frame_equal(serial, skill_table("ofc-pineapple", executor=dask_executor, **kw))


def test_solve_is_the_same_on_dask(dask_executor):
    """Every candidate's blocks go through the executor; the answer and its evaluations are the
    serial ones."""
    kw = dict(bounds=(0, 0.1), deals=900, setter="greedy", rng=4)
    serial = cpstats.solve("banked(bank.setter=ev)", "bank.commission", "house_edge", 0.015, **kw)
    dask = cpstats.solve("banked(bank.setter=ev)", "bank.commission", "house_edge", 0.015, executor=dask_executor, **kw)
    assert (serial.value, serial.ci_low, serial.ci_high) == (dask.value, dask.ci_low, dask.ci_high)
    columns = ["value", "estimate", "ci_low", "ci_high"]
    pd.testing.assert_frame_equal(serial.evaluations[columns], dask.evaluations[columns])
