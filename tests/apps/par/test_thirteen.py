"""The 13-card PAR sheet (cpstats.thirteen.par, ``cpstats.par_sheet``): every section, an interval
on every headline figure, readable numbers, the HTML and PDF files and the ``cpstats par`` command.

Runs are small (a few thousand deals set by greedy, a baseline the sheet names as such) to keep
the tests fast; users get ev by default.
"""

import argparse
import re
import shutil
import subprocess

import numpy as np
import pytest

from cpstats.apps.cli.par import add_par_command
from cpstats.apps.par import par_sheet
from cpstats.apps.par.render import display_frame, format_cell
from cpstats.errors import OptionError
from cpstats.workbench import simulate

SECTIONS = ("rules", "setting strategy", "outcomes", "royalties and naturals", "headline figures",
            "operator economics", "session bands", "sensitivity", "methodology")
TABLES = ("rules", "example_hands", "example_pairs", "example_net", "strategy", "pair_outcomes",
          "seat_scoops", "seat_outcomes", "royalties", "naturals", "headline", "economics",
          "charge_models", "sessions", "sensitivity", "methodology")


@pytest.fixture(scope="module")
def sheet():
    return par_sheet("2-4", result=simulate("2-4", 3000, setter="greedy", rng=11), rng=11,
                     sensitivity_deals=600)


@pytest.fixture(scope="module")
def banked_sheet():
    return par_sheet("banked", result=simulate("banked", 3000, setter="greedy", rng=12), rng=12,
                     seat_deals=1500, sensitivity_deals=600)


def test_every_section_and_table_is_there(sheet):
    """The sections in the order CASINO-MATH reads them, each with its tables."""
    titles = [s.title.lower() for s in sheet.sections]
    assert len(titles) == len(SECTIONS)
    for title, words in zip(titles, SECTIONS):
        assert words in title, (title, words)
    assert set(TABLES) <= set(sheet.tables)
    assert all(len(sheet.tables[k]) for k in TABLES)


def test_every_headline_figure_has_a_finite_interval(sheet, banked_sheet):
    """ci_low <= estimate <= ci_high, all finite, on every headline figure."""
    for s in (sheet, banked_sheet):
        head = s.tables["headline"]
        values = head[["estimate", "ci_low", "ci_high"]].to_numpy(dtype=float)
        assert np.isfinite(values).all(), head
        assert (head["ci_low"] <= head["estimate"] + 1e-12).all()
        assert (head["estimate"] <= head["ci_high"] + 1e-12).all()
    names = set(sheet.tables["headline"]["name"])
    assert {"mean_seat0", "mean", "sd", "volatility_index", "hit_frequency", "push_rate", "scoop_rate",
            "home_run_rate", "foul_rate"} <= names
    assert {"house_edge", "element_of_risk", "sd_seat0"} <= set(banked_sheet.tables["headline"]["name"])


def test_sd_and_scoop_match_the_run(sheet):
    """The headline SD is the seats' SD and the scoop rate the run's pooled rate."""
    head = sheet.tables["headline"].set_index("name")
    r = sheet.result
    assert head.loc["sd", "estimate"] == pytest.approx(r.moments()["sd"].mean())
    scoops = r.scoops()
    rate = scoops["scoops"].sum() / scoops["pairs"].sum()
    assert head.loc["scoop_rate", "estimate"] == pytest.approx(rate)


def test_greedy_is_named_a_baseline(sheet):
    """A sheet on a weak setter says so in its strategy section."""
    text = " ".join(sheet.sections[1].paragraphs)
    assert "Baseline: greedy" in text


def test_worked_example_settles_to_zero_and_follows_the_pairs(sheet):
    """The worked deal's nets add to zero and each seat's net is its pairs' totals."""
    pairs, net = sheet.tables["example_pairs"], sheet.tables["example_net"]
    assert net["net"].sum() == pytest.approx(0)
    for seat in range(4):
        mine = pairs["pair"].str.startswith(f"seat {seat} v")
        theirs = pairs["pair"].str.endswith(f"v seat {seat}")
        total = pairs.loc[mine, "total"].sum() - pairs.loc[theirs, "total"].sum()
        assert net["net"].iloc[seat] == pytest.approx(total)
    assert sheet.tables["example_hands"]["setting (front / middle / back)"].str.count("/").eq(2).all()


def test_outcome_tables_add_up(sheet):
    """Over one side of a pair, probabilities add to 1 and contributions to the mean
    and variance to the run's mean and variance of a pair's pay."""
    pairs = sheet.tables["pair_outcomes"]
    assert pairs["probability"].sum() == pytest.approx(1)
    seat = sheet.tables["seat_outcomes"]
    assert seat["probability"].sum() == pytest.approx(1)
    m = sheet.result.moments().iloc[0]
    assert seat["contribution_to_mean"].sum() == pytest.approx(m["mean"], abs=1e-9)
    assert seat["contribution_to_variance"].sum() == pytest.approx(m["variance"], rel=1e-9)


def test_banker_edge_by_seats(banked_sheet):
    """A banked sheet gives the bank's edge with 1, 2 and 3 players, each with a CI."""
    table = banked_sheet.tables["banker_by_seats"]
    assert list(table["player_seats"]) == [1, 2, 3]
    assert (table["ci_low"] <= table["house_edge"]).all() and (table["house_edge"] <= table["ci_high"]).all()
    assert "charge_models" not in banked_sheet.tables


def test_numbers_are_written_for_reading(sheet, banked_sheet):
    """No exponent notation and no raw NaN anywhere in the rendered tables."""
    assert format_cell(1e6, "int") == "1,000,000"
    assert format_cell(6.3e-12, "prob") == "1 in 159,000,000,000"
    assert "e" not in format_cell(2.5e-7, "units")
    assert format_cell(0.1062, "prob") == "10.62%"
    for s in (sheet, banked_sheet):
        for key, frame in s.tables.items():
            headers, rows, _ = display_frame(frame)
            for cell in [c for row in rows for c in row]:
                assert not re.search(r"\de[+-]?\d", cell) and cell.lower() != "nan", (key, cell)
            assert not any("_" in h for h in headers), (key, headers)


def test_bad_input_is_one_readable_error():
    """A bad pace or a result of another variant is refused naming the value."""
    with pytest.raises(OptionError, match="hands_per_hour=0 is invalid"):
        par_sheet("2-4", hands_per_hour=0)
    result = simulate("1-6", 100, setter="greedy", rng=1)
    with pytest.raises(OptionError, match="result is of 1-6, not of 2-4"):
        par_sheet("2-4", result=result)


def test_cli_writes_html_and_pdf(tmp_path):
    """``cpstats par VARIANT --out DIR`` writes par.html and par.pdf holding every
    section (the PDF's text is read with pdftotext where it is installed)."""
    sub = argparse.ArgumentParser().add_subparsers()
    add_par_command(sub)
    parser = sub.choices["par"]
    args = parser.parse_args(["2-4", "--out", str(tmp_path / "par"), "--deals", "2,000",
                              "--setter", "greedy", "--hands-per-hour", "40",
                              "--sensitivity-deals", "600"])
    message = args.run(args)
    html_path, pdf_path = tmp_path / "par" / "par.html", tmp_path / "par" / "par.pdf"
    assert str(pdf_path) in message and "2,000 deals" in message
    page = html_path.read_text()
    for words in SECTIONS:
        assert words in page.lower()
    assert pdf_path.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf_path), "-"], capture_output=True, text=True,
                              check=True).stdout.lower()
        for words in SECTIONS:
            assert words in text, words
        assert "at 40 hands an hour" in text
        pages = text.split("\f")[:-1]
        assert all("set by greedy, a baseline" in page for page in pages)  # every page's footer
    assert "set by greedy, a baseline setter" in page  # the HTML's subtitle
    assert "a baseline setter" in message


def test_cli_refuses_a_file_as_out(tmp_path):
    """--out naming a file is refused in one line before anything runs."""
    target = tmp_path / "file.txt"
    target.write_text("x")
    sub = argparse.ArgumentParser().add_subparsers()
    add_par_command(sub)
    args = sub.choices["par"].parse_args(["2-4", "--out", str(target)])
    with pytest.raises(OptionError, match="is a file, not a folder"):
        args.run(args)


def test_a_royalty_never_made_is_charted_as_its_upper_bound(sheet):
    """A royalty hand with no count is drawn at its 95% upper bound (as the table gives it), an
    open triangle the axis explains, never silently dropped."""
    import matplotlib.pyplot as plt

    roy = sheet.tables["royalties"]
    unseen = roy[(roy["frequency"] == 0) & (roy["ci_high"] > 0)]
    assert len(unseen)  # the small greedy run leaves some never made
    top = sheet.chart("frequencies").axes[0]
    triangles = [line for line in top.lines if line.get_marker() == "<"]
    assert sorted(triangles[0].get_xdata()) == pytest.approx(sorted(unseen["ci_high"]))
    assert "open triangle: none seen" in top.get_xlabel()
    plt.close("all")


@pytest.fixture(scope="module")
def pdf_text(sheet, tmp_path_factory) -> str:
    """The text of the module's sheet written as a PDF (one PDF for the tests that read it)."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed")
    path = sheet.to_pdf(tmp_path_factory.mktemp("pdf") / "par.pdf")
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_net_result_table_gives_wilson_intervals_as_the_report_does(sheet):
    """The net-result table gives each result's probability with its 95% Wilson interval (n =
    deals), from the one function the report's outcome table also reads."""
    from cpstats.thirteen.report import outcome_table
    from cpstats.thirteen.par.figures import seat_outcomes
    from cpstats.engine.stats import wilson_interval

    r = sheet.result
    table = sheet.tables["seat_outcomes"]
    counts = r.distribution()["seat_0"].to_numpy()
    counts = counts[counts > 0]
    low, high = wilson_interval(counts, r.deals)
    assert len(table) == len(counts)  # nothing lumped in this run
    np.testing.assert_allclose(table["ci_low"], low)
    np.testing.assert_allclose(table["ci_high"], high)
    headers, rows, _ = display_frame(table)
    assert headers[2:5] == ["Probability", "95% low", "95% high"]
    assert all(re.fullmatch(r"[+-]?\d+", row[1]) for row in rows)  # a whole pay prints whole
    report = outcome_table(r)
    np.testing.assert_allclose(report["probability_ci_low"], seat_outcomes(r, 0, tail=0)["ci_low"])
    np.testing.assert_allclose(report["net"], table["pay"])


def test_lumped_note_only_when_results_are_lumped(sheet, pdf_text, monkeypatch):
    """The net-result table says results were lumped only when some were, naming the cut."""
    from cpstats.thirteen.par import sheet as par

    assert sheet.sections[2].tables[-1].note == ""
    assert "lumped" not in pdf_text
    monkeypatch.setattr(par, "TAIL", 0.05)  # greedy's -12 and -11 are 3.4% together
    section = par._outcome_section(sheet.result)
    table = section.tables[-1]
    lumped = table.frame["outcome"].str.endswith((" or less", " or more"))
    assert lumped.any() and len(table.frame) < len(sheet.tables["seat_outcomes"])
    assert table.note == "Results rarer than 1 in 20 at either end are lumped into one row each."
    assert table.frame["probability"].sum() == pytest.approx(1)
    edge = table.frame[lumped].iloc[0]
    assert edge["ci_low"] <= edge["probability"] <= edge["ci_high"]


def test_percent_ticks_show_the_decimals_their_step_needs(sheet):
    """The net-result chart's probability ticks read as their values: 2.5% steps print 2.5%,
    17.5% (not 2%, 18%); whole steps print no decimals."""
    import matplotlib.pyplot as plt

    from cpstats.apps.plots import StepPercentFormatter

    fmt = StepPercentFormatter(1.0)
    _, axis = plt.subplots()
    axis.yaxis.set_major_formatter(fmt)
    assert fmt.format_ticks([0, 0.025, 0.05]) == ["0.0%", "2.5%", "5.0%"]
    assert fmt.format_ticks([0, 0.05, 0.1]) == ["0%", "5%", "10%"]
    fig = sheet.chart("outcomes")
    ax = fig.axes[0]
    for top in (None, 0.175):  # the run's own range, then one whose ticks step by 2.5%
        if top:
            ax.set_ylim(0, top)
        fig.canvas.draw()
        lo, hi = ax.get_ylim()
        ticks = [(t.get_position()[1], t.get_text()) for t in ax.get_yticklabels()
                 if lo <= t.get_position()[1] <= hi]
        assert len(ticks) >= 3
        for value, text in ticks:
            assert float(text.replace("−", "-").rstrip("%")) == pytest.approx(value * 100, abs=1e-9), text
    assert "12.5%" in [text for _, text in ticks]
    plt.close("all")


def test_session_legend_covers_no_band(sheet):
    """The session chart's legend sits outside the axes, where it covers no band."""
    import matplotlib.pyplot as plt

    fig = sheet.chart("sessions")
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent()
    assert not legend.overlaps(ax.get_window_extent())
    assert fig.bbox.contains(legend.x0, legend.y0) and fig.bbox.contains(legend.x1, legend.y1)
    plt.close(fig)


def test_session_band_columns_share_their_decimals():
    """A session's expected result and its bands are written with the same decimals: never
    "-104" beside "80.0" (a raked table's expected column reaches 10,000, its bands do not)."""
    import pandas as pd

    frame = pd.DataFrame({"who": ["a player seat"] * 2, "hands": [100, 100_000],
                          "expected": [-11.77, -11_768.0], "low_90%": [-104.2, -14_671.3],
                          "high_90%": [80.4, -8_865.1], "low_95%": [-121.3, -15_227.4],
                          "high_95%": [97.8, -8_309.0]})
    _, rows, _ = display_frame(frame)
    assert rows[0][2:] == ["-12", "-104", "80", "-121", "98"]
    assert rows[1][2:] == ["-11,768", "-14,671", "-8,865", "-15,227", "-8,309"]


def test_each_intro_sentence_is_printed_before_its_own_table(sheet, pdf_text, tmp_path):
    """Page 4 (a variant paying neither royalties nor naturals): each table follows its own
    sentence, the royalty table before the naturals' sentence, in the PDF and the HTML."""
    text = " ".join(pdf_text.split())
    page = sheet.to_html(tmp_path / "par.html").read_text()
    for body in (text, page):
        order = [body.index(w) for w in ("This variant pays no royalties", "Royalty hands made (none paid here)",
                                         "Straight flush in the back", "This variant pays no naturals",
                                         "Natural hands held (none paid here)")]
        assert order == sorted(order), order


def test_the_seats_pooled_mean_is_exactly_0_in_a_game_between_players(sheet, banked_sheet):
    """Beside the seats' means, their pooled mean: exactly 0 with no interval width (every deal's
    nets add to 0 before house charges), the seats' average; a banked game has none."""
    head = sheet.tables["headline"]
    seats = head[head["name"].str.startswith("mean_seat")]
    assert len(seats) == sheet.variant.players
    pooled = head[head["name"] == "mean"].iloc[0]
    assert pooled["estimate"] == pooled["ci_low"] == pooled["ci_high"] == 0.0
    assert seats["estimate"].mean() == pytest.approx(0.0, abs=1e-12)
    assert "exact" in pooled["method"] and "zero-sum" in pooled["figure"]
    assert "mean" not in set(banked_sheet.tables["headline"]["name"])


def test_the_chance_that_some_seats_interval_excludes_0():
    """Independent intervals: 1 - 0.95^n. The seats of a zero-sum game are linked: two seats'
    intervals exclude 0 together (5%); for 3 and 4 seats the chance matches a simulation of
    normal estimates that add to 0, within 5 standard errors of that simulation."""
    from cpstats.engine.stats import z_value
    from cpstats.thirteen.par.figures import chance_an_interval_excludes as chance

    for n in (2, 3, 4):
        assert chance(n, linked=False) == pytest.approx(1 - 0.95 ** n)
    assert chance(2) == pytest.approx(0.05, abs=1e-3)
    rng = np.random.default_rng(50)
    draws = 400_000
    for n in (3, 4):
        y = rng.standard_normal((draws, n))
        z = (y - y.mean(axis=1, keepdims=True)) / np.sqrt((n - 1) / n)  # each a standard normal
        p = float((np.abs(z) > z_value(0.95)).any(axis=1).mean())
        se = np.sqrt(p * (1 - p) / draws)
        assert chance(n) == pytest.approx(p, abs=5 * se), n
        assert chance(n) < chance(n, linked=False)


def test_the_headline_says_how_often_one_seat_of_several_excludes_0_by_chance(sheet):
    """The seats' means come with what several intervals mean: the pooled mean is exactly 0 and
    the chance, computed for the sheet's seat count, that one of them excludes 0 by chance."""
    from cpstats.thirteen.par.figures import chance_an_interval_excludes as chance
    from cpstats.thirteen.par.sheet import _seat_means_words

    text = " ".join(sheet.sections[4].paragraphs)
    n = sheet.variant.players
    assert f"With {n} seats" in text and "pooled mean is exactly 0" in text
    assert f"about {chance(n):.0%} of the time" in text
    assert f"were they independent, {chance(n, linked=False):.0%}" in text
    assert "about 12% of the time" in _seat_means_words(3) and "about 5% of the time" in _seat_means_words(2)


def test_the_commands_help_states_each_games_defaults():
    """``cpstats par`` imports no game: its help states the games' default lengths in words, held
    here to the games' own numbers."""
    from cpstats.ofc.game import DESIGNER_PRECISION
    from cpstats.thirteen.par import DEFAULT_DEALS, SENSITIVITY_DEALS

    parser = add_par_command(argparse.ArgumentParser().add_subparsers())
    text = " ".join(parser.format_help().split())
    assert f"else {DEFAULT_DEALS:,};" in text and f"at most {DESIGNER_PRECISION.most:,} hands" in text
    assert f"(default {SENSITIVITY_DEALS:,}; open face: the sheet's own hands)" in text


def test_the_banked_sheet_prints_the_house_way_and_the_edge_by_the_players_strength(banked_sheet):
    """S-HOUSE-WAY on the sheet: the house way's rules in words, and the house edge against it for
    the sheet's players and for a weak field (greedy), each with its interval."""
    from cpstats.thirteen.play.house_way import house_way_words

    assert banked_sheet.tables["house_way"]["rule"].tolist() == list(house_way_words())
    table = banked_sheet.tables["edge_by_players"]
    assert len(table) == 2 and table["players"].iloc[1].startswith("greedy (a baseline")
    assert (table["ci_low"] <= table["house_edge"]).all() and (table["house_edge"] <= table["ci_high"]).all()
    assert table["house_edge"].iloc[1] > 0.1  # the house way wins big against a weak field
    assert "bank: house way" in table["players"].iloc[0]
