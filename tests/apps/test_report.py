"""The math report: the 13-card content (outcome table arithmetic, sections, charts), the files
the apps write, CLI."""

import re

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from cpstats.apps import plots
from cpstats.apps.cli import main
from cpstats.errors import OptionError
from cpstats.apps.report import write_report as write_content
from cpstats.thirteen.report import outcome_table, report_content
from cpstats.workbench import simulate


def write_report(result, out, **options):
    """The 13-card report of ``result`` written into ``out``, as ``cpstats report`` writes it."""
    return write_content(report_content(result, **options), out)


@pytest.fixture(scope="module")
def result():
    return simulate("pagat-typical", 3_000, setter="greedy", rng=2, keep_hands=True, block_deals=1000)


def test_outcome_table_adds_up_to_the_mean_and_variance(result):
    table = outcome_table(result)
    m = result.moments().iloc[0]
    assert table["probability"].sum() == pytest.approx(1)
    assert table["contribution_to_mean"].sum() == pytest.approx(m["mean"])
    assert table["contribution_to_variance"].sum() == pytest.approx(m["variance"])
    assert (table["probability_ci_low"] <= table["probability"]).all()
    assert (table["probability"] <= table["probability_ci_high"]).all()
    assert (table["probability_ci_low"] > 0).any() and (table["probability_ci_high"] < 1).all()


def test_report_files_and_sections(result, tmp_path):
    path = write_report(result, tmp_path, systems=[result.rescore("pagat-typical(scoring=SC-1-6)")],
                        rakes=[result.rescore(result.variant.replace(rake="fixed-table", rake__amount=0.5))])
    text = path.read_text()
    order = [text.index(f"## {n}.") for n in range(1, 8)]
    assert order == sorted(order)  # the order of a casino math report
    for png in ("naturals", "royalties", "net_distribution", "sd_by_system", "rake_burden"):  # all in play
        assert (tmp_path / f"{png}.png").stat().st_size > 5_000
    html = (tmp_path / "report.html").read_text()
    assert "<table" in html and 'alt="rake_burden.png"' in html
    assert html.count('<img src="data:image/png;base64,') == 5  # the file alone keeps its charts
    assert "<title>cpstats math report: " in html


def test_every_report_chart_says_who_set_the_hands(result):
    """A chart handed on names the setter (a baseline as one) and the deals; the SD chart
    carries the designer's SD figure with its 95% interval."""
    from cpstats.apps.report import _charts

    charts = _charts(report_content(result, label="game", hands_per_hour=30.0))
    for name, fig in charts.items():
        title = fig.axes[0].get_title()
        assert f"{result.deals:,} deals" in title and "greedy, a baseline setter" in title, name
    assert "error bars: 95% CI" in charts["sd_by_system.png"].axes[0].get_xlabel()


def test_cli_report(tmp_path, capsys):
    assert main(["report", "--preset", "2-4", "--deals", "1500", "--setter", "greedy", "--quiet",
                 "--out", str(tmp_path)]) == 0
    assert "report written" in capsys.readouterr().out
    assert "## 6. House money" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "rake_burden.png").stat().st_size > 5_000


def _house_rows(text: str) -> dict[str, str]:
    """Section 6's house money table of a Markdown report: each figure's label to its cell."""
    house = text[text.index("## 6."):text.index("## 7.")]
    rows = [line.strip("|").split("|") for line in house.splitlines() if line.startswith("| ")]
    return {label.strip(): cell.strip() for label, cell in rows[1:]}


def test_house_section_states_time_charges_drops_and_the_banked_wager(tmp_path):
    """Audit 13.1-13.3: the report's house money at the pace asked, the jackpot drop apart, and
    a banked game's wager (house edge = element of risk on 3 units)."""
    timed = simulate("2-4(rake=time,rake.amount=6,rake.jackpot_drop=0.1)", 500, setter="greedy",
                     rng=1, block_deals=500)
    text = write_report(timed, tmp_path / "t", hands_per_hour=60).read_text()
    house = text[text.index("## 6."):text.index("## 7.")]
    assert "6 units per seat per hour whatever the pace (24 an hour for the table)" in house
    assert "jackpot drop of 0.1 units a hand" in house
    assert "**House money at 60 hands an hour**" in house
    rows = _house_rows(text)
    per_hour = next(cell for label, cell in rows.items() if label.startswith("rake per hour"))
    drop = next(cell for label, cell in rows.items() if label.startswith("jackpot drop per hand"))
    assert float(per_hour.split()[0]) == pytest.approx(24)
    assert float(drop.split()[0]) == pytest.approx(0.1)
    banked = simulate("banked", 500, setter="greedy", rng=1, block_deals=500)
    text = write_report(banked, tmp_path / "b").read_text()
    assert "house edge equals the element of risk" in text
    assert "Not in these rules, so left out (all 0): the rake and the jackpot drop." in text
    assert any(label.startswith("house edge") for label in _house_rows(text))
    with pytest.raises(Exception, match="hands_per_hour=-5 is invalid"):
        write_report(banked, tmp_path / "c", hands_per_hour=-5)


def test_report_rules_in_words_and_numbers_for_reading(result, tmp_path):
    """The rules table is the rules in words (no `rake.cap nan`, no `stakes nan`),
    numbers are written for reading (no 1e+06, no nan) and `label=` names the game."""
    path = write_report(result, tmp_path, label="pagat's typical game",
                        rakes=[("house fee", result.rescore(result.variant.replace(
                            rake="fixed-table", rake__amount=0.5)))])
    text = path.read_text()
    rules = text[text.index("## 2."):text.index("## 3.")]
    assert "| royalties | pagat typical royalties (R-PAGAT-TYPICAL)" in rules
    assert "| house charge | no house charge |" in rules
    assert "nan" not in text and "rake.cap" not in text and "stakes" not in rules
    assert not re.search(r"\de[+-]\d", text), "a number in exponent form"
    assert text.startswith("# cpstats math report: pagat's typical game")
    html = (tmp_path / "report.html").read_text()
    assert "nan" not in html and not re.search(r"\de[+-]\d", html)


def test_chart_labels_are_short_and_value_labels_fit():
    """The rake-burden chart names rows by short labels, never raw variant strings,
    and every value label lies inside the axes (it was clipped)."""
    frame = pd.DataFrame({
        "variant": ["1-6(royalties=R-FUTUREBET,rake=percent,rake.percent=0.05)",
                    "2-4(rake=time,rake.amount=6)", "house rake"],
        "rake_per_seat_per_hand": [0.19, 0.2, 0.05], "rake_share": [0.071, 0.05, 0.01]})
    for fig in (plots.plot_rake_burden(frame),
                plots.plot_sd_by_variant(frame.assign(sd=[6.6, 8.4, 4.5]))):
        ax = fig.axes[0]
        names = [t.get_text() for t in ax.get_yticklabels()]
        assert names == ["1-6, FutureBet royalties, 5% rake", "2-4, time fee 6/seat-hour", "house rake"]
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        right = ax.get_window_extent(renderer).x1
        assert all(t.get_window_extent(renderer).x1 <= right + 1 for t in ax.texts)
        plt.close(fig)
    fig = plots.plot_sd_by_variant(frame.assign(sd=[1, 2, 3]), label=["A", "B", "C"])
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["A", "B", "C"]
    with pytest.raises(OptionError, match="label has 2 names for 3 rows"):
        plots.plot_sd_by_variant(frame.assign(sd=[1, 2, 3]), label=["A", "B"])
