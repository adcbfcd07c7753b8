"""The engine's sweep and its one row (cpstats.engine.sweep, cpstats.engine.paired.paired_row): the
loop every game's sweep is, checked on stub runs whose figures are known, so each row's numbers
are the row's arithmetic and nothing else."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from cpstats.engine.base import FigureBatches
from cpstats.engine.paired import DIFFERENCE_COLUMNS, batch_difference, paired_difference, paired_row
from cpstats.engine.sweep import SWEEP_COLUMNS, Sweep

LEVEL = 0.95


def _figure(estimate: float, batches) -> FigureBatches:
    return FigureBatches(estimate, estimate - 1.0, estimate + 1.0, np.asarray(batches, dtype=float), "stub")


def test_a_row_is_the_figure_then_its_difference_to_the_first():
    """diff is the estimates' difference and its interval diff -+ half; the other columns are the
    difference's events, note and deals as given; the figure's own columns come first."""
    mine, first = _figure(3.0, [1, 2]), _figure(1.25, [0, 1])
    row = paired_row(mine, first, (0.5, 7.0, "a note", 123.0))
    assert list(row) == ["estimate", "ci_low", "ci_high", "method", *DIFFERENCE_COLUMNS]
    assert row["diff"] == 1.75 and row["diff_ci_low"] == 1.25 and row["diff_ci_high"] == 2.25
    assert (row["diff_events"], row["diff_note"], row["deals_for_interval"]) == (7.0, "a note", 123.0)
    assert (row["estimate"], row["ci_low"], row["ci_high"], row["method"]) == (3.0, 2.0, 4.0, "stub")


def test_a_row_without_a_first_figure_has_no_difference():
    row = paired_row(_figure(3.0, [1, 2]), None, None)
    assert np.isnan([row["diff"], row["diff_ci_low"], row["diff_ci_high"], row["diff_events"],
                     row["deals_for_interval"]]).all()
    assert row["diff_note"] == "" and row["estimate"] == 3.0


def test_the_engines_difference_is_paired_on_the_batches():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=30), rng.normal(size=30)
    got = batch_difference(_figure(0.0, a), _figure(0.0, b), False, 3_000, LEVEL)
    want = paired_difference(a - b, 3_000, LEVEL)
    assert got[:3] == want[:3] and np.isnan(got[3]) and np.isnan(want[3]) and np.isfinite(got[0])
    # the same rules on the same deals differ by exactly 0, interval 0 to 0
    assert batch_difference(_figure(0.0, a), _figure(0.0, a), True, 3_000, LEVEL)[:3] == (0.0, 0.0, "")


class _Stub(Sweep):
    """The engine's sweep on stub runs: point i's figure ``x`` is i + 1 with batches shifted by i."""

    def play(self, i, point, root, played):
        return SimpleNamespace(i=i, metadata={"strategy": "stub"})

    def figures(self, result, chosen):
        base = np.linspace(0.0, 1.0, 30) ** 2
        return {"x": _figure(result.i + 1.0, base + result.i * np.sin(np.arange(30))),
                "y": _figure(-1.0, base)}

    def attrs(self, root, results):
        return {"points": len(results)}


def _stub(**options) -> Sweep:
    values = [0, 1, 2]
    return _Stub(v="v", key="k", values=values, points=[f"v(k={x})" for x in values], deals=3_000,
                 setter=None, level=LEVEL, rng=1, **options)


def test_the_sweep_writes_one_row_a_point_and_figure_in_the_layout():
    seen = []
    table = _stub(on_point=lambda i, point: seen.append((i, point))).table()
    assert seen == [(0, "v(k=0)"), (1, "v(k=1)"), (2, "v(k=2)")]
    assert list(table.columns) == list(SWEEP_COLUMNS) and table.attrs == {"points": 3}
    assert table[["value", "metric"]].values.tolist() == [[0, "x"], [0, "y"], [1, "x"], [1, "y"], [2, "x"], [2, "y"]]
    assert (table["parameter"] == "k").all() and (table["label"] == table["metric"]).all()
    x = table[table["metric"] == "x"].reset_index(drop=True)
    assert x["diff"].tolist() == [0.0, 1.0, 2.0]
    assert (x.loc[0, "diff_ci_low"], x.loc[0, "diff_ci_high"]) == (0.0, 0.0)  # the first point itself
    sweep = _stub()
    figures = [sweep.figures(SimpleNamespace(i=i), None)["x"] for i in range(3)]
    for i in (1, 2):  # every row is paired_row of the point's figure and the first point's
        want = paired_row(figures[i], figures[0], batch_difference(figures[i], figures[0], False, 3_000, LEVEL))
        for column, value in want.items():
            got = x.loc[i, column]
            assert got == value or (np.isnan(got) and np.isnan(value)), column
    y = table[table["metric"] == "y"]
    assert (y["diff"] == 0).all() and y["diff_note"].str.startswith("too few events").iloc[1:].all()


def test_the_figures_asked_for_are_checked_against_the_first_points():
    assert _stub(metrics=["y"]).table()["metric"].tolist() == ["y"] * 3
    with pytest.raises(Exception, match="metrics='z' is invalid"):
        _stub(metrics=["z"]).table()


def test_a_game_without_a_method_column_says_so_in_its_columns():
    class NoMethod(_Stub):
        columns = tuple(c for c in SWEEP_COLUMNS if c != "method")

    values = [0, 1]
    table = NoMethod(v="v", key="k", values=values, points=["a", "b"], deals=3_000, setter=None,
                     level=LEVEL).table()
    assert "method" not in table.columns and len(table) == 4
