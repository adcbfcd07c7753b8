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


def _rate_table(low: float, high: float):
    """A sweep table of one rate whose estimates run from ``low`` to ``high`` (tight bands)."""
    import pandas as pd

    values = [0, 1, 2, 3]
    est = np.linspace(low, high, len(values))
    table = pd.DataFrame({"parameter": "scoring.scoop_bonus", "value": values, "variant": [f"v{x}" for x in values],
                          "metric": "scoop_rate", "label": "Scoop rate", "estimate": est,
                          "ci_low": est - 0.0002, "ci_high": est + 0.0002})
    table.attrs.update(parameter_label="Scoop bonus (units)", base="2-4", strategy="greedy", deals=1000,
                       entropy=1)
    return table


@pytest.mark.parametrize("low, high", [(0.135, 0.150), (0.05, 0.20), (0.1401, 0.1409), (0.0, 0.5)])
def test_percent_ticks_are_distinct_and_evenly_spaced_in_text(low, high):
    """Rate ticks at 0.25-point steps (the first range) read 13.75%, 14.00%, 14.25%, never the
    uneven 13.8%, 14.0%, 14.3%; 2.5-point steps 5.0%, 7.5%, never 5%, 8%: every label distinct,
    the same decimals on each, and the numbers they print evenly spaced (and equal to the ticks'
    values)."""
    import matplotlib.pyplot as plt

    from cpstats.apps.sweep_chart import plot_sweep

    fig = plot_sweep(_rate_table(low, high))
    fig.canvas.draw()
    ax = fig.axes[0]
    bottom, top = ax.get_ylim()
    shown = [(t.get_position()[1], t.get_text()) for t in ax.get_yticklabels() if bottom <= t.get_position()[1] <= top]
    texts = [text for _, text in shown]
    assert len(texts) >= 3 and len(set(texts)) == len(texts), texts
    decimals = {len(text.rstrip("%").partition(".")[2]) for text in texts}
    assert len(decimals) == 1, texts
    printed = np.array([float(text.replace("\u2212", "-").rstrip("%")) for text in texts])
    assert np.allclose(np.diff(printed), np.diff(printed)[0], rtol=0, atol=1e-9), texts
    assert np.allclose(printed, [100 * value for value, _ in shown], rtol=0, atol=1e-9), texts
    plt.close(fig)


def test_a_figure_with_no_estimate_at_any_value_says_so():
    """A panel whose every estimate is missing (no Fantasyland hand in a short run) says so and
    keeps the values' axis, rather than an empty frame with the values pushed to its edge."""
    import matplotlib.pyplot as plt

    from cpstats.apps.sweep_chart import plot_sweep

    table = _rate_table(0.1, 0.2).assign(estimate=np.nan, ci_low=np.nan, ci_high=np.nan)
    fig = plot_sweep(table)
    ax = fig.axes[0]
    assert any(t.get_text().startswith("no estimate at any value") for t in ax.texts)
    low, high = ax.get_xlim()
    assert low < 0 and high > 3
    plt.close(fig)
