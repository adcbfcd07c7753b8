"""Dashboard files (issue 16.6): a variant saved and loaded through the picker's own functions,
charts and tables exported as valid PNG, SVG, PDF and CSV; and the dashboard's readable bits
(issue 16.5): whole tab titles, numbers for reading, no raw HTML as a notebook's plain text."""

from __future__ import annotations

import base64
import datetime
import html
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from cpstats.apps.widgets import RakeExplorer, ResultCache, VariantPicker
from cpstats.apps.widgets._common import ExportBar, _table_html, export_buttons, export_bytes
from cpstats.errors import OptionError
from cpstats.engine.registry import load_variant

PNG, PDF = b"\x89PNG\r\n\x1a\n", b"%PDF"
CUSTOM = "2-4(players=3,royalties=R-TW,royalties.front_trips=10,stakes=0:1:2/1:0:1/2:1:0)"


def _links(html: str) -> dict[str, bytes]:
    """File name -> bytes of every download link in ``html``."""
    found = re.findall(r'<a download="([^"]+)" href="data:[^;]+;base64,([^"]+)"', html)
    return {name: base64.b64decode(data) for name, data in found}


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_picker_saves_and_loads_a_variant_file(tmp_path, suffix):
    """Save writes the variant shown, load brings it back equal, with the options
    the controls do not show (a custom royalty amount, a stakes matrix) kept."""
    picker = VariantPicker("2-4")
    picker.set_variant(CUSTOM)
    assert picker.variant == load_variant(CUSTOM)
    path = picker.save(tmp_path / f"mine{suffix}")
    other = VariantPicker("1-6")
    assert other.load(path) == load_variant(CUSTOM) and other.variant == load_variant(CUSTOM)
    assert other.preset.value == "2-4" and other.royalties.value == "R-TW"
    assert "loaded from mine" in other.status.value
    other.royalty_mode.value = "RM-CANCEL"  # a control changed after loading overrides it
    assert other.variant == load_variant(CUSTOM).replace(royalty_mode="RM-CANCEL")
    other.players.value = 4  # the loaded 3x3 stakes no longer fit: the rules say so
    assert other.variant is None and "stakes matrix must be 4x4" in other.status.value
    other.preset.value = "1-6"  # another preset drops it
    assert str(other.variant) == "1-6"


def test_picker_download_links_and_upload_round_trip():
    """The save links hold the variant's file (TOML and JSON); an upload of that
    file (the FileUpload's value) loads it; a refused file is explained, the variant kept."""
    picker = VariantPicker("2-4")
    picker.set_variant(CUSTOM)
    files = _links(picker.save_links.value)
    assert set(files) == {n for n in files if n.endswith((".toml", ".json"))} and len(files) == 2
    toml = next(data for name, data in files.items() if name.endswith(".toml"))
    assert toml == picker.file_bytes(".toml") and b'variant = "2-4(' in toml
    fresh = VariantPicker("basic")
    fresh.upload.value = ({"name": "shared.toml", "type": "", "size": len(toml),
                           "content": memoryview(toml),
                           "last_modified": datetime.datetime.now(datetime.timezone.utc)},)
    assert fresh.variant == load_variant(CUSTOM) and fresh.upload.value == ()
    assert fresh.load_bytes("bad.toml", b'variant = "2-4(players=9)"') is None
    assert "not loaded: 'bad.toml': players=9 is invalid" in html.unescape(fresh.status.value)
    assert "/tmp" not in fresh.status.value and fresh.variant == load_variant(CUSTOM)


def test_export_writes_valid_png_svg_pdf_and_csv(tmp_path):
    """Every chart exports as PNG, SVG and PDF, every table as CSV, both as files
    and as download links."""
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    table = pd.DataFrame({"A": [1.5, 2.0], "B": [1e6, 3.0]}, index=["sd", "mean"])
    bar = export_buttons([("chart", fig), ("table", table)], "demo")
    paths = {p.name: p for p in bar.save(tmp_path)}
    assert set(paths) == {"demo-chart.png", "demo-chart.svg", "demo-chart.pdf", "demo-table.csv"}
    assert paths["demo-chart.png"].read_bytes().startswith(PNG)
    assert paths["demo-chart.pdf"].read_bytes().startswith(PDF)
    assert b"<svg" in paths["demo-chart.svg"].read_bytes()
    back = pd.read_csv(paths["demo-table.csv"], index_col=0)
    pd.testing.assert_frame_equal(back, table)
    assert set(_links(bar.links.value)) == {"demo-table.csv"}  # charts wait for the button
    bar.button.click()
    links = _links(bar.links.value)
    assert links["demo-chart.png"].startswith(PNG) and links["demo-chart.pdf"].startswith(PDF)
    plt.close(fig)
    with pytest.raises(OptionError, match="format='gif' is invalid for a chart"):
        ExportBar("x", formats=("gif",))
    with pytest.raises(OptionError, match="format='png' is invalid for a table: csv"):
        export_bytes(table, "png")


def test_rake_explorer_exports_its_chart_and_tables(tmp_path):
    """The rake tab's chart and both tables, as on show."""
    app = RakeExplorer("2-4", deals=1_000, cache=ResultCache())
    app.rake_model.value = "fixed-player"
    app.amount.value = 0.25
    paths = {p.name: p for p in app.export.save(tmp_path)}
    assert {"rake-chart.png", "rake-figures.csv", "rake-sessions.csv"} <= set(paths)
    figures = pd.read_csv(paths["rake-figures.csv"], index_col=0)
    assert figures.iloc[:, 0]["rake per seat per hand (units)"] == pytest.approx(0.25)
    assert paths["rake-chart.png"].read_bytes().startswith(PNG)
    assert "(" not in figures.columns[0].split(":")[0]  # the column names the game by its label


def test_tables_write_numbers_for_reading_and_apps_print_words():
    """No 1e+06 in an app's table; a notebook rendered without its widgets shows the
    app's status in words, not raw <span> HTML."""
    frame = pd.DataFrame({"A": [1e6, 2.5e-7, float("nan")]}, index=["deals", "rate", "none"])
    table = _table_html(frame, {}, "t")
    assert "1,000,000" in table and "0.00000025" in table and "e+" not in table and "nan" not in table
    app = RakeExplorer("2-4", deals=1_000, cache=ResultCache())
    text = app._repr_mimebundle_()["text/plain"]
    assert text.startswith("RakeExplorer: ") and "<" not in text and "2-4" in text


def test_dashboard_tab_titles_are_whole():
    """The tab titles are set in full and the page style lets each tab fit its title
    (the tab bar cut "House edge and rake" at a fixed width); each registered game's own tab
    follows the comparer, in the order the games registered, then the tabs every game shares."""
    from cpstats.apps.dashboard import build_dashboard, tab_titles

    box = build_dashboard(1_000, cache=ResultCache())
    style, tabs = box.children
    assert tabs.titles == tab_titles() == ("Compare variants", "House edge and rake", "Open face", "Rule sweep",
                                          "Solve for a target", "PAR sheet")
    assert "max-width:none" in style.value and "TabBar-tab" in style.value


def test_picker_choices_are_named_in_words():
    """The picker's rule dropdowns show short names ('2-4', 'TW royalties'), never a
    raw rule ID, while their values stay the IDs the variant string uses."""
    import re

    from cpstats.apps.widgets import VariantPicker

    picker = VariantPicker("2-4")
    for dropdown in (picker.scoring, picker.royalties, picker.royalty_mode, picker.naturals):
        labels = [label for label, _ in dropdown.options]
        assert not [x for x in labels if re.fullmatch(r"[A-Z]+(-[A-Z0-9]+)+", x)], labels
        assert all(re.fullmatch(r"[A-Z]+(-[A-Za-z0-9]+)+", value) for _, value in dropdown.options)
    assert picker.scoring.value == "SC-2-4" and picker.scoring.label == "2-4"


def test_the_dashboard_reads_each_games_tab_from_the_registry():
    """A game's own tab, the app that draws it and what every app opens on are its registration's
    (GameViews.dashboard_tab): a game registered later with a tab joins the dashboard after the
    others' tabs; a game without one (the toy) adds none; an app no game opens is one line."""
    import dataclasses

    from helpers.toy import toy_registered

    from cpstats.apps.dashboard import APPS, tab_titles
    from cpstats.apps.widgets._common import dashboard_tabs, opening
    from cpstats.engine.registry import GAMES, register_game
    from cpstats.engine.views import DashboardTab

    tabs = dashboard_tabs()
    assert list(tabs) == [name for name, game in GAMES.items() if game.runs.views.dashboard_tab is not None]
    assert len(tabs) >= 2 and {tab.app for tab in tabs.values()} <= set(APPS)
    assert all(isinstance(opening(app), str) for app in ("picker", "house", "sweep", "par", "solve", "rules"))
    with pytest.raises(OptionError, match="app='nothing' is invalid: no registered game says"):
        opening("nothing")
    before = tab_titles()
    with toy_registered() as toy:
        assert tab_titles() == before
        views = dataclasses.replace(toy.GAME.runs.views, dashboard_tab=DashboardTab("Toy tab", "rules"))
        register_game(dataclasses.replace(toy.GAME, runs=dataclasses.replace(toy.GAME.runs, views=views)))
        assert tab_titles() == (*before[:-3], "Toy tab", *before[-3:])
    assert tab_titles() == before
