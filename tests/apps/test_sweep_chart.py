"""The sweep chart (cpstats.apps.sweep_chart): a panel and a band a metric, the parameter in words,
every file format written and read back."""

import numpy as np
import pytest

from cpstats import OptionError
from cpstats.workbench import sweep

KW = dict(setter="greedy", block_deals=1_500)


def _small_table():
    return sweep("2-4(rake=percent,rake.percent=0.05)", "rake.cap", [0.5, 1, 2], deals=1_200, rng=3,
                 **KW)


def test_chart_has_a_panel_and_a_band_per_metric_and_saves_every_format(tmp_path):
    """The chart draws one panel per metric, each with a shaded band (a
    PolyCollection) and the parameter in words on the x axis; save_sweep writes the CSV and PNG,
    SVG and PDF of both charts, and the CSV reads back as the table."""
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.collections import PolyCollection

    from cpstats.apps.sweep_chart import plot_sweep, save_sweep

    table = _small_table()
    fig = plot_sweep(table)
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(shown) == table["metric"].nunique()
    assert all(any(isinstance(c, PolyCollection) for c in ax.collections) for ax in shown)
    assert {ax.get_xlabel() for ax in shown} - {""} == {"Rake cap (units)"}
    assert all("rake.cap" not in ax.get_title() for ax in shown)
    figure_text = " ".join(t.get_text() for t in fig.texts)
    assert "(" not in figure_text.split(":")[1].split("greedy")[0], figure_text  # no raw variant string
    assert "greedy (a baseline" in figure_text
    plt.close(fig)
    paths = save_sweep(table, tmp_path / "out")
    names = sorted(p.name for p in paths)
    assert names == sorted(["sweep.csv"] + [f"{stem}.{f}" for stem in ("sweep", "sweep-difference")
                                            for f in ("png", "svg", "pdf")])
    assert (tmp_path / "out" / "sweep.pdf").read_bytes().startswith(b"%PDF")
    back = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert np.allclose(back["estimate"], table["estimate"])
    assert back["setter"].str.startswith("greedy, a baseline setter").all()  # the file says who set them
    assert set(back["deals"]) == {table.attrs["deals"]}
    with pytest.raises(OptionError, match=r"^kind='bars' is invalid"):
        plot_sweep(table, kind="bars")
