"""Views call results (issue 46.6): no module of the apps computes an interval, every table of figures
in the widgets names its figures by their catalogue labels (basis and unit), and the comparer's paired
differences are the verb's, number for number."""

from __future__ import annotations

import ast
import html
from pathlib import Path

import pytest

import cpstats
from cpstats.engine.catalogue import figures_of, find_figure
from cpstats.engine.figures_text import figure_label
from cpstats.engine.registry import game_named

pytest.importorskip("ipywidgets")
pytestmark = pytest.mark.usefixtures("quick_tables")

APPS = Path(cpstats.__file__).parent / "apps"
#: Interval arithmetic of the engine (cpstats.engine.stats, and cpstats.engine.paired which
#: re-exports half_width): a view reads a result's or a verb's figure instead of calling these.
INTERVAL_FUNCTIONS = {"batch_mean_interval", "t_value", "z_value", "wilson_interval", "rate_interval",
                      "half_width"}
#: Normal quantiles written out (95%, 90%): an interval made by hand.
QUANTILES = {1.96, 1.645}
RAKED = "2-4(rake=percent,rake.percent=0.05,rake.cap=3)"
DEALS = 600


def interval_code(path: Path) -> list[str]:
    """Where the module at ``path`` imports an interval function from the engine, calls one (by any
    name but a function of the apps' own: the CLI's ``half_width`` parses an option), or writes a
    normal quantile."""
    tree = ast.parse(path.read_text(), str(path))
    own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    own |= {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            and (n.module or "").startswith("cpstats.apps") for a in n.names}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cpstats.engine"):
            found += [f"imports {a.name} from {node.module}" for a in node.names if a.name in INTERVAL_FUNCTIONS]
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in INTERVAL_FUNCTIONS:
                found.append(f"calls {func.attr}")
            elif isinstance(func, ast.Name) and func.id in INTERVAL_FUNCTIONS and func.id not in own:
                found.append(f"calls {func.id}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, float) and node.value in QUANTILES:
            found.append(f"writes {node.value}")
    return found


def test_no_module_of_the_apps_computes_an_interval():
    """Every interval the apps show comes from a result's or a verb's figure: no module under
    cpstats/apps imports or calls the engine's interval functions or writes 1.96 or 1.645 (drawing
    a figure that has no interval, sweep_chart.mark_no_interval, is not interval code)."""
    modules = sorted(APPS.rglob("*.py"))
    assert len(modules) > 20
    found = [f"{path.relative_to(APPS.parent)}: {x}" for path in modules for x in interval_code(path)]
    assert found == []


def test_the_scan_finds_interval_code(tmp_path):
    """The scan fails on what it looks for: a module making a band by hand, whatever the import's form."""
    probe = tmp_path / "probe.py"
    probe.write_text("from cpstats.engine.stats import t_value\nimport cpstats.engine.stats as st\n"
                     "from cpstats.apps.cli.args import half_width\n"
                     "def band(m, se, b):\n    return m - t_value(0.95, b) * se, m + 1.96 * st.z_value(0.9), "
                     "half_width('0.1')\n")
    assert sorted(interval_code(probe)) == ["calls t_value", "calls z_value",
                                            "imports t_value from cpstats.engine.stats", "writes 1.96"]


# -- every figure a widget shows is a catalogue figure under its label -----------------------------

def catalogue(game: str):
    return figures_of(game_named(game).runs)


def assert_catalogue_labels(labels: dict[str, str], game: str) -> None:
    """Every (name -> label) shown is a catalogue figure of ``game`` labelled as the catalogue labels it."""
    figures = catalogue(game)
    assert labels
    for name, label in labels.items():
        figure = find_figure(name, figures)
        assert figure is not None, f"{name} is not in the {game} catalogue"
        assert label == figure_label(figure, name)


def test_the_comparer_shows_catalogue_figures():
    """Both of the comparer's tables (the figures with the verb's differences, and the detail of each
    result's figures()) name every figure by its catalogue label, with the SD before and after house
    charges among them."""
    from cpstats.apps.widgets import ResultCache, VariantComparer

    app = VariantComparer(("2-4", "2-4"), deals=DEALS, setter="greedy", cache=ResultCache())
    app.pickers[1].set_variant(RAKED)
    app.simulate_button.click()
    assert [str(r.variant) for r in app.results] == ["2-4", RAKED]
    for table in (app.figures, app.table):
        labels = table.attrs["labels"]
        assert_catalogue_labels(labels, "13-card")
        assert {"sd", "sd_after_charges"} <= set(labels)
        assert set(table.index) - {"strategy", "tables", "deals"} == set(labels.values())
        assert all(html.escape(x) in app.table_html.value for x in labels.values())


def test_the_comparer_pairs_as_the_verb_does():
    """The comparer's paired difference of the SD after house charges between 2-4 and the same game
    with a 5% rake capped at 3 is cpstats.compare's on the same deals (seed, blocks, setter), bit for
    bit; the SD before charges differs by exactly 0 with a zero-width interval (the rake never moves
    play), and the after-charges SD is lower with an interval clear of 0."""
    from cpstats.apps.widgets import SEED, WIDGET_BLOCK_DEALS, ResultCache, VariantComparer

    app = VariantComparer(("2-4", "2-4"), deals=DEALS, setter="greedy", cache=ResultCache())
    app.pickers[1].set_variant(RAKED)
    app.simulate_button.click()
    mine = app.figures.attrs["figures"].set_index(["run", "metric"])
    verb = cpstats.compare(["2-4", RAKED], DEALS, setter="greedy", rng=SEED, block_deals=WIDGET_BLOCK_DEALS,
                           hands_per_hour=float(app.pace.value), tidy=True).set_index(["run", "metric"])
    columns = ["estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]
    for key in ((0, "sd_after_charges"), (1, "sd_after_charges"), (1, "sd")):
        assert mine.loc[key, columns].tolist() == verb.loc[key, columns].tolist()
    before, after = mine.loc[(1, "sd")], mine.loc[(1, "sd_after_charges")]
    assert before["diff"] == before["diff_ci_low"] == before["diff_ci_high"] == 0
    assert after["diff_ci_high"] < 0


@pytest.mark.parametrize("preset", ["2-4", "banked"])
def test_the_house_money_tab_shows_catalogue_figures_and_named_what_ifs(preset):
    """Each row of the house-money table is a catalogue figure under its label, or one of the
    explorer's own what-ifs (a stake, a skill edge, a commission) under the words that say its basis."""
    from cpstats.apps.widgets import RakeExplorer, ResultCache
    from cpstats.thirteen.dashboard import WHAT_IF

    app = RakeExplorer(preset, deals=DEALS, setter="greedy", cache=ResultCache())
    assert app.result is not None and app.result.metadata["strategy"] == "greedy"
    names = app.table.attrs["metrics"]
    shown = {name: label for label, name in names.items()}
    figures = {n: x for n, x in shown.items() if n not in WHAT_IF}
    assert_catalogue_labels(figures, "13-card")
    assert {n: x for n, x in shown.items() if n in WHAT_IF} == {n: WHAT_IF[n] for n in shown if n in WHAT_IF}
    assert {"rake_per_hand", "rake_per_seat_per_hand", "rake_share", "break_even_edge", "sd"} <= set(figures)
    assert list(app.table.index) == list(names)
    sd = app.result.figures().set_index("metric").loc["sd"]
    assert app.figures["sd"] == sd["estimate"]  # the result's own figure, not recomputed


def test_the_open_face_tab_and_typed_compare_show_catalogue_figures():
    """Open face's rule explorer and the comparer's typed view label their figures from the catalogue."""
    from cpstats.apps.widgets import OpenFaceApp, VariantComparer

    app = OpenFaceApp("ofc-pineapple", hands=100, setter="greedy")
    app.run_button.click()
    assert app.result is not None and app.result.deals == 100
    labels = {name: words for name, (words, _) in app.labels.items()}
    assert_catalogue_labels(labels, "open-face")
    assert set(app.table.index) <= set(labels.values()) and len(app.table) > 5
    comparer = VariantComparer(("ofc-pineapple", "ofc-pineapple(royalties.front.QQ=9)"), deals=100,
                               setter="greedy")
    comparer.simulate_button.click()
    typed = comparer.typed
    assert typed.table is not None
    labels = {name: words for name, (words, _) in typed.labels.items()}
    assert_catalogue_labels(labels, "open-face")
    assert set(typed.figures.index) <= set(labels.values()) and len(typed.figures) > 5
    assert all(find_figure(m, catalogue("open-face")) is not None for m in set(typed.table["metric"]))


@pytest.mark.parametrize("preset, parameter, values, deals", [
    ("2-4(rake=percent,rake.percent=0.05)", "rake.cap", "1,3", DEALS),
    ("ofc-pineapple", "royalties.front.QQ", "7,9", 40)])
def test_the_sweep_view_shows_catalogue_figures(preset, parameter, values, deals):
    """The sweep's rows are its figures under their catalogue labels (the table's names all in the catalogue)."""
    from cpstats.apps.widgets.sweep import SweepView, sweep_labels

    app = SweepView(preset, parameter, values, deals=deals, setter="greedy")
    app.run_button.click()
    assert app.table is not None, app.status.value
    labels = sweep_labels(app.table)
    assert_catalogue_labels(labels, app.table.attrs["game"])
    assert set(labels) == set(app.table["metric"]) and "sd" in labels
    assert all(f">{html.escape(x)}</th>" in app.table_html.value for x in labels.values())


def test_the_solve_view_names_its_figure_by_its_label():
    from cpstats.apps.widgets import SolveView

    app = SolveView("banked(bank.setter=ev)", deals=DEALS, setter="greedy")
    app.run_button.click()
    assert app.solution is not None, app.status.value
    assert_catalogue_labels({app.solution.metric: app.label}, "13-card")
    assert html.escape(app.label) in app.answer.value
