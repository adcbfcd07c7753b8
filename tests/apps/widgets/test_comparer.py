"""The variant comparer and picker (cpstats.apps.widgets.comparer, picker) driven as a user would: set
``.value``, ``.click()``, read the numbers shown; one module an app, every public name at the package."""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.engine import REFERENCE_DIR, load_reference
from cpstats.workbench import simulate
from cpstats.apps.widgets import (
    SEED, WIDGET_BLOCK_DEALS, RakeExplorer, ResultCache, VariantComparer, VariantPicker,
)

DEALS = 2_000
pytestmark = pytest.mark.usefixtures("quick_tables")


@pytest.fixture(scope="module")
def cache():
    return ResultCache()


@pytest.fixture()
def comparer(cache):
    app = VariantComparer(("2-4", "1-6"), deals=DEALS, cache=cache)
    return app


def shown(app) -> str:
    return app.table_html.value


def test_opens_from_the_reference_results():
    if not all((REFERENCE_DIR / f"{name}.npz").exists() for name in ("2-4", "1-6")):
        pytest.skip("no reference results in cpstats/data/reference (run `cpstats reference`)")
    cache = ResultCache()
    app = VariantComparer(("2-4", "1-6"), cache=cache)
    ref = load_reference("2-4")
    assert cache.runs == 0  # nothing simulated to open
    assert int(app.table.loc["deals"].iloc[0]) == ref.deals
    assert f"{ref.moments()['sd'].iloc[0]:.3f}" in shown(app)
    assert "reference results" in app.status.value
    assert app.output.outputs[0]["data"]["image/png"]


def test_simulate_shows_the_numbers_of_the_run(comparer, cache):
    comparer.pickers[1].royalties.value = "R-TW"
    assert "click Simulate" in comparer.status.value
    comparer.simulate_button.click()
    assert [str(r.variant) for r in comparer.results] == ["2-4", "1-6(royalties=R-TW)"]
    labels = comparer.table.attrs["labels"]
    for result, column in zip(comparer.results, comparer.table.columns):
        m = result.moments()
        assert result.deals == DEALS and result.metadata["entropy"] == str(SEED)
        assert comparer.table.loc[labels["mean_seat0"], column] == pytest.approx(m["mean"].iloc[0])
        assert f"{m['sd'].iloc[0]:.3f}" in shown(comparer)
        assert f"{m['mean'].iloc[0]:+.4f}" in shown(comparer)
    # paired on common deals (the verb's differences): A against itself is exactly 0, B's SD
    # difference (royalties move it) has an interval around it
    paired = comparer.figures.attrs["figures"].set_index(["run", "metric"])
    assert (paired.loc[0, ["diff", "diff_ci_low", "diff_ci_high"]] == 0).all().all()
    sd = paired.loc[(1, "sd")]
    assert sd["diff_ci_low"] < sd["diff"] < sd["diff_ci_high"] and sd["method"] == "paired batches"
    assert comparer.table.attrs["paired"]
    assert comparer.progress.value == comparer.progress.max and comparer.progress.bar_style == "success"


def test_second_click_and_chart_changes_come_from_the_cache(comparer, cache):
    comparer.simulate_button.click()
    runs = cache.runs
    comparer.simulate_button.click()
    assert cache.runs == runs
    pictures = set()
    for chart in comparer.chart.options:
        comparer.chart.value = chart
        pictures.add(comparer.output.outputs[0]["data"]["image/png"])
    assert len(pictures) == len(comparer.chart.options) and cache.runs == runs
    # back to a cached variant: shown at once, without Simulate
    comparer.pickers[1].royalties.value = "R-TW"
    comparer.pickers[1].royalties.value = "R-NONE"
    assert "from the cache" in comparer.status.value and cache.runs == runs


def test_progress_moves_block_by_block(cache):
    app = VariantComparer(("basic", "1-4"), deals=5_000, cache=cache)
    seen = []
    app.progress.observe(lambda c: seen.append(c["new"]), names="value")
    app.simulate_button.click()
    blocks = -(-5_000 // WIDGET_BLOCK_DEALS)
    assert app.progress.max == 2 * 5_000
    assert len([v for v in seen if v > 0]) >= 2 * blocks
    assert seen == sorted(seen) and seen[-1] == 2 * 5_000


def test_third_variant(comparer):
    comparer.third.value = True
    comparer.pickers[2].preset.value = "taiwanese"
    comparer.simulate_button.click()
    assert list(comparer.table.columns)[2] == "C: taiwanese"
    comparer.third.value = False
    assert comparer.pickers[2].widget.layout.display == "none"


def test_options_that_do_not_combine_are_not_offered():
    p = VariantPicker("2-4")
    p.scoring.value = "SC-TW"  # its home run needs 3 players
    assert 2 not in p.players.options and "3 players" in p.status.value
    assert "standard" not in p.surrender.options
    p.scoring.value = "SC-MANDARIN"
    assert tuple(p.players.options) == (4,)
    p.royalties.value = "R-NONE"
    assert p.royalty_mode.disabled
    p.rake.value = "none"
    assert p.rake_amount.disabled
    cc = VariantPicker("criss-cross")
    assert tuple(cc.players.options) == (2,) and cc.players.disabled
    assert str(cc.variant) == "criss-cross"


def test_picker_sets_every_scoring_number():
    """The picker has a control per scoring number; a changed number becomes a
    ``scoring.<number>`` override, choosing a system resets them all to its numbers, and a
    number the rules refuse is explained and leaves no variant."""
    p = VariantPicker("2-4")
    assert set(p.numbers) == {"front", "middle", "back", "majority", "scoop_bonus",
                              "scoop_multiplier", "home_run_bonus", "home_run_multiplier",
                              "home_run_players", "totals_first", "race_target"}
    p.numbers["scoop_bonus"].value = 5
    assert str(p.variant) == "2-4(scoring.scoop_bonus=5)"
    p.scoring.value = "SC-1-6"
    assert p.numbers["scoop_bonus"].value == 3 and str(p.variant) == "2-4(scoring=SC-1-6)"
    p.numbers["middle"].value, p.numbers["back"].value = 2, 3
    assert str(p.variant) == "2-4(scoring=SC-1-6,scoring.middle=2,scoring.back=3)"
    p.numbers["home_run_bonus"].value = 3  # a home run now: no heads-up table
    assert 2 not in p.players.options and p.variant.scoring_params().home_run_bonus == 3
    p.numbers["front"].value = 0
    assert p.variant is None and "scoring.front=0.0 is invalid: points must be &gt; 0" in (
        p.status.value)
    p.preset.value = "taiwanese"
    assert str(p.variant) == "taiwanese" and p.numbers["home_run_multiplier"].value == 4


def test_a_rejected_variant_is_explained_and_cannot_run(comparer, monkeypatch):
    picker = comparer.pickers[1]
    monkeypatch.setattr(type(picker), "_overrides", lambda self: {"players": 7})
    picker.players.value = 3  # any change rebuilds the variant
    assert picker.variant is None and "players=7 is invalid" in picker.status.value
    assert comparer.simulate_button.disabled and "not valid" in comparer.status.value


def test_a_failed_run_shows_its_error(comparer, monkeypatch):
    comparer.pickers[0].naturals.value = "NS-TW"

    def boom(*args, **kwargs):
        raise RuntimeError("worker lost")

    monkeypatch.setattr(comparer.cache, "run", boom)
    comparer.simulate_button.click()
    assert "worker lost" in comparer.status.value and comparer.progress.bar_style == "danger"
    assert not comparer.simulate_button.disabled


def test_export_writes_csv_png_and_svg(comparer, tmp_path):
    comparer.simulate_button.click()
    paths = comparer.export(tmp_path)
    assert (tmp_path / "comparison.csv").read_text().startswith(",A: 2-4")
    assert {p.suffix for p in paths} == {".csv", ".png", ".svg"}


# -- the package ------------------------------------------------------------------------------


def test_one_module_per_app_and_every_public_name_at_the_package():
    """The widgets are a package, one module per app; the names notebooks import
    (``from cpstats.apps.widgets import RakeExplorer, VariantComparer, ...``) stay at its top."""
    from cpstats.apps import widgets

    homes = {"VariantPicker": "picker", "VariantComparer": "comparer", "comparison_table": "comparer",
             "RakeExplorer": "rake", "ResultCache": "cache",
             "SkillView": "skill", "skill_table": "skill", "setter_text": "_common",
             "runs_text": "_common", "SweepView": "sweep", "OpenFaceApp": "open_face",
             "ParView": "par_view", "SolveView": "solve"}
    for name, module in homes.items():
        assert getattr(widgets, name).__module__ == f"cpstats.apps.widgets.{module}"
    public = {"SEED", "WIDGET_BLOCK_DEALS", "DEFAULT_STRATEGY", "DEAL_CHOICES", "STRATEGY_LABELS",
              *homes}
    assert set(widgets.__all__) == public and all(hasattr(widgets, n) for n in public)


# -- ev is the default, baselines are named, figures say who set the hands -----------

def test_live_runs_use_ev_and_the_baselines_are_named():
    """The apps' live runs set hands with ev unless asked; greedy and random are
    offered under labels that say they are baselines of a weak field."""
    from cpstats.apps.widgets import DEFAULT_STRATEGY, STRATEGY_LABELS

    assert DEFAULT_STRATEGY == "ev"
    comparer = VariantComparer(("2-4", "1-6"), cache=ResultCache())
    explorer = RakeExplorer("2-4", cache=ResultCache())
    for dropdown in (comparer.strategy, explorer.strategy):
        assert dropdown.value == "ev"
        labels = dict((value, label) for label, value in dropdown.options)
        assert labels["greedy"] == "greedy (baseline: a weak field)"
        assert labels["random"].startswith("random (baseline") and labels == STRATEGY_LABELS


def _sd_and_se(result) -> tuple[float, float]:
    """Seat 0's SD per hand and its standard error, sqrt(Var(X^2)) / (2 SD sqrt(n)), from the
    moments (deals independent): SE(s) ~ SD sqrt((excess kurtosis + 2) / (4 n))."""
    m = result.moments().iloc[0]
    return float(m["sd"]), float(m["sd"] * np.sqrt((m["kurtosis"] + 2) / (4 * result.deals)))


def test_opening_on_the_reference_then_simulating_gives_comparable_numbers():
    """The comparer opens on the reference results (ev, 1,000,000 deals) and a live
    run plays the same strategy, the deal counts stated in the status line and the chart title.
    Seat 0's SD per hand of the live 2-4 run is within 5 standard errors of the reference's
    (5.62 against 5.58, 0.6 SE; with greedy live runs, the old default, 6.58: 14 SEs off)."""
    if not (REFERENCE_DIR / "2-4.npz").exists():
        pytest.skip("no reference results in cpstats/data/reference (run `cpstats reference`)")
    app = VariantComparer(("2-4", "1-6"), deals=DEALS, cache=ResultCache())
    ref = app.results[0]
    assert "ev (good play)" in app.status.value and "1,000,000 deals per variant" in app.status.value
    assert "1,000,000 deals" in app.output.outputs[0]["data"]["text/plain"]
    app.simulate_button.click()
    live = app.results[0]
    assert live.metadata["strategy"] == ref.metadata["strategy"] == "ev"
    assert f"{DEALS:,} deals per variant" in app.status.value and "ev (good play)" in app.status.value
    title = app.output.outputs[0]["data"]["text/plain"]
    assert "ev (good play)" in title and f"{DEALS:,} deals per variant" in title
    (sd_ref, se_ref), (sd_live, se_live) = _sd_and_se(ref), _sd_and_se(live)
    assert abs(sd_live - sd_ref) < 5 * np.hypot(se_ref, se_live)


def _status_when_running(app, monkeypatch) -> list[str]:
    seen, run = [], app.cache.run

    def spy(*args, **kwargs):
        seen.append(app.status.value)
        return run(*args, **kwargs)

    monkeypatch.setattr(app.cache, "run", spy)
    return seen


def test_comparer_on_a_custom_scoring_shows_its_strategy_and_tables(monkeypatch):
    """issue 15 acceptance: a VariantComparer driven on a custom scoring (2-4 paying 5 for a
    scoop) runs it with ev, says beforehand that ev trains its tables, and shows the strategy
    and the tables that set each variant's hands (result.metadata["tables"] and their source)
    in the table, the status line and the charts; a second app finds them in the cache."""
    app = VariantComparer(("2-4", "2-4"), deals=1_000, cache=ResultCache())
    app.pickers[1].numbers["scoop_bonus"].value = 5
    custom = app.pickers[1].variant
    assert str(custom) == "2-4(scoring.scoop_bonus=5)"
    seen = _status_when_running(app, monkeypatch)
    app.simulate_button.click()
    assert "training them first" in seen[-1] and "training" not in seen[0]
    result = app.results[1]
    tables, source = result.metadata["tables"], result.metadata["tables_source"]
    assert result.metadata["strategy"] == "ev" and tables["trained_for"] == str(custom)
    assert source == "trained now"
    column = app.table["B: 2-4, scoop bonus 5"]
    assert column["strategy"] == "ev (good play)"
    assert column["tables"] == f"{custom} (trained now)" and app.table["A: 2-4"]["tables"] == "2-4 (shipped)"
    assert "ev (good play)" in app.status.value and "(A: shipped, B: trained now)" in app.status.value
    assert f"{custom} (trained now)" in shown(app)
    again = VariantComparer(("2-4", "2-4"), deals=1_000, cache=ResultCache())
    again.pickers[1].numbers["scoop_bonus"].value = 5
    seen_again = _status_when_running(again, monkeypatch)
    again.simulate_button.click()
    assert not any("training" in s for s in seen_again)
    assert again.table.loc["tables", "B: 2-4, scoop bonus 5"] == f"{custom} (cache)"


def test_a_baseline_is_named_wherever_its_figures_appear():
    """A comparer asked for greedy does not open on the (ev) reference results; its
    run is named "greedy (baseline: a weak field)" in the status, the table and the chart."""
    app = VariantComparer(("2-4", "1-6"), deals=DEALS, setter="greedy", cache=ResultCache())
    assert not app.results and "greedy (baseline: a weak field)" in app.status.value
    app.simulate_button.click()
    label = "greedy (baseline: a weak field)"
    assert list(app.table.loc["strategy"]) == [label, label]
    assert list(app.table.loc["tables"]) == ["none", "none"]
    assert label in app.status.value and label in shown(app)
    assert label in app.output.outputs[0]["data"]["text/plain"]
    app.strategy.value = "ev"  # the greedy figures stay on show until Simulate: the app says so
    assert "click Simulate for ev (good play)" in app.status.value


def test_a_table_of_two_strategies_says_so():
    """No table mixes figures of two strategies without saying so: the columns'
    labels carry the strategy and ``attrs["mixed"]`` is set; the comparer warns under it."""
    from cpstats.apps.widgets import comparison_table

    ev = simulate("2-4", 1_000, rng=SEED, block_deals=WIDGET_BLOCK_DEALS)
    weak = simulate("2-4", 1_000, setter="greedy", rng=SEED, block_deals=WIDGET_BLOCK_DEALS)
    table = comparison_table([ev, weak])
    assert list(table.columns) == ["A: 2-4 [ev]", "B: 2-4 [greedy]"] and table.attrs["mixed"]
    assert list(table.loc["strategy"]) == ["ev (good play)", "greedy (baseline: a weak field)"]
    same = comparison_table([ev, ev])
    assert list(same.columns) == ["A: 2-4", "B: 2-4"] and not same.attrs["mixed"]
    app = VariantComparer(("2-4", "1-6"), deals=1_000, cache=ResultCache())
    app._show([ev, weak])
    assert "different strategies" in shown(app)
    assert "different strategies" in app.output.outputs[0]["data"]["text/plain"]


# -- the skill section -------------------------------------------------------------

def test_the_comparer_shows_the_skill_table_of_its_variants():
    """The comparer's skill section runs cpstats.skill for the variants shown, on the
    deals chosen and the apps' seed, and shows ev against each field with its interval; a
    second click reuses the tables, and a change of variant marks the table as stale."""
    import cpstats

    app = VariantComparer(("2-4", "1-6"), deals=1_000, cache=ResultCache())
    app.skill.button.click()
    assert list(app.skill.tables) == ["A: 2-4", "B: 1-6"]
    for label, variant in (("A: 2-4", "2-4"), ("B: 1-6", "1-6")):
        t = app.skill.tables[label]
        assert t.equals(cpstats.skill(variant, deals=1_000, rng=SEED))
        assert t.loc["greedy", "ci_low"] > 0 and t.loc["ev", "mean"] == 0
    column = app.skill.table["B: 1-6"]
    greedy = app.skill.tables["B: 1-6"].loc["greedy", "mean"]
    assert column["ev against greedy (baseline: a weak field)"] == greedy
    assert column["ev's row tables"] == "1-6 (shipped)"
    assert "greedy (baseline: a weak field)" in app.skill.table_html.value
    assert app.skill.output.outputs[0]["data"]["image/png"]
    runs = app.skill.runs
    app.skill.button.click()
    assert app.skill.runs == runs == 2 and "1,000 duplicate deals" in app.skill.status.value
    app.pickers[1].royalties.value = "R-TW"  # the table on show is now of another B: it says so
    assert "changed: click Skill table" in app.skill.status.value


def test_sd_chart_draws_the_headline_figure_with_its_interval(comparer):
    """The 'SD per hand' chart shows the designer's figure of the table above it (all players'
    SD, not seat 0's detail) with its 95% interval as error bars."""
    comparer.simulate_button.click()
    comparer.chart.value = "SD per hand"
    ax = comparer._draw("SD per hand").axes[0]
    sd = comparer.figures.attrs["figures"].query("metric == 'sd'").sort_values("run")
    widths = sorted(p.get_width() for p in ax.patches)
    assert widths == pytest.approx(sorted(sd["estimate"]))
    assert "95% CI" in ax.get_xlabel()
    segments = [seg for c in ax.collections for seg in c.get_segments()]
    assert sorted(seg[0][0] for seg in segments) == pytest.approx(sorted(sd["ci_low"]))


def test_comparer_shows_the_figures_and_follows_the_pace():
    """The comparer opens on the reference results with the figures in words first,
    the user's labels on the columns, and redraws the take per seat-hour when the pace changes."""
    from cpstats.apps.widgets import ResultCache, VariantComparer

    app = VariantComparer(("2-4", "futurebet-2-4"), labels=["plain", "futurebet"], cache=ResultCache())
    assert list(app.table.columns) == ["plain", "futurebet"]
    html = app.table_html.value
    assert html.index(app.figures.attrs["labels"]["sd"]) < html.index("Details")
    hourly = app.figures.attrs["labels"]["rake_per_seat_per_hour"]
    app.pace.value = 60
    assert app.figures.loc[hourly, "futurebet"].startswith("3.00 ")
    app.pace.value = 30
    assert app.figures.loc[hourly, "futurebet"].startswith("1.50 ")
