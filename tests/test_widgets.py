"""The apps of cpstats.apps.widgets driven as a user would: set ``.value``, ``.click()``, read the
numbers shown."""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.simulation import REFERENCE_DIR, load_reference
from cpstats.apps.widgets import (
    SEED, WIDGET_BLOCK_DEALS, RakeExplorer, ResultCache, VariantComparer, VariantPicker,
)

DEALS = 2_000


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
    for result, column in zip(comparer.results, comparer.table.columns):
        m = result.moments()
        assert result.deals == DEALS and result.metadata["entropy"] == str(SEED)
        assert comparer.table.loc["mean seat 0 (units)", column] == pytest.approx(m["mean"].iloc[0])
        assert f"{m['sd'].iloc[0]:.3f}" in shown(comparer)
        assert f"{m['mean'].iloc[0]:+.4f}" in shown(comparer)
    # paired on common deals: A against itself is exactly 0, B's interval is around its mean
    diff = comparer.table.loc["difference vs A, seat 0 (units)"]
    low, high = comparer.table.loc["difference 95% CI low"], comparer.table.loc["difference 95% CI high"]
    assert diff.iloc[0] == 0 and low.iloc[0] == high.iloc[0] == 0
    assert low.iloc[1] < diff.iloc[1] < high.iloc[1]
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


# -- RakeExplorer ------------------------------------------------------------------------------

@pytest.fixture()
def rake_app(cache):
    app = RakeExplorer("2-4", deals=DEALS, cache=cache)
    app.simulate_button.click()
    return app


def test_fixed_rake_per_seat_and_per_hour(rake_app):
    rake_app.rake_model.value = "fixed-player"
    rake_app.amount.value = 0.25
    rake_app.hands_per_hour.value = 40
    rake_app.unit_value.value = 2.0
    f = rake_app.figures
    assert f["rake per seat per hand (units)"] == pytest.approx(0.25)
    assert f["rake per seat per hour (money)"] == pytest.approx(0.25 * 40 * 2.0)
    assert "20.00" in rake_app.table_html.value  # 0.25 units x 40 hands x 2 money
    rake_app.skill_edge.value = 0.4
    assert rake_app.figures["player's expectation (units per hand)"] == pytest.approx(0.15)


def test_percent_rake_from_the_gross_and_capped_needs_a_run(rake_app, cache):
    r = rake_app.result
    rake_app.rake_model.value = "percent"
    rake_app.percent.value = 0.05
    gross = float(r.summary["gross"]) / r.deals
    assert rake_app.figures["rake per hand (units)"] == pytest.approx(0.05 * gross)
    rake_app.cap.value = 0.5
    assert "click Simulate" in rake_app.status.value
    rake_app.simulate_button.click()
    capped = rake_app.result
    assert "rake.cap=0.5" in str(capped.variant)
    # the cap binds: less than the uncapped 5%, exactly the simulated rake
    per_hand = rake_app.figures["rake per hand (units)"]
    assert per_hand == pytest.approx(float(capped.summary["rake_s1"]) / capped.deals)
    assert 0 < per_hand < 0.05 * gross


def test_session_bands(rake_app):
    rake_app.rake_model.value = "none"
    rake_app.confidence.value = 0.90
    s = rake_app.sessions().set_index("hands")
    sd = rake_app.figures["SD per hand, seat (units)"]
    assert s.loc[100, "high (units)"] == pytest.approx(1.6448536 * sd * 10, rel=1e-6)
    assert f"{s.loc[1_000, 'low (units)']:+,.1f}" in rake_app.table_html.value


def test_banked_commission_matches_a_simulation_with_it(cache):
    app = RakeExplorer("banked", deals=DEALS, cache=cache)
    app.simulate_button.click()
    base = app.result
    app.commission.value = 0.05
    edge = app.figures["house edge, bank (units per player hand)"]
    # the commission is charged outside the nets, so the same deals give the same nets
    with_c = cache.run(base.variant.replace(bank__commission=0.05), DEALS, "greedy")
    # house() gives the edge per 3-unit wager, commission included: per player hand it is x 3
    house = with_c.house().iloc[0]
    assert edge == pytest.approx(house["house_edge"] * house["initial_wager_units"], rel=1e-9)
    assert app._bank_box.layout.display is None
    app.wins_ties.value = False
    assert "click Simulate" in app.status.value
    app.simulate_button.click()
    assert app.result.variant.bank.wins_ties is False


def test_rake_explorer_error_is_shown(rake_app, monkeypatch):
    monkeypatch.setattr(rake_app.cache, "run", lambda *a, **k: (_ for _ in ()).throw(ValueError("no")))
    rake_app.players.value = 3
    rake_app.simulate_button.click()
    assert "ValueError: no" in rake_app.status.value and rake_app.progress.bar_style == "danger"


def test_one_module_per_app_and_every_public_name_at_the_package():
    """Issue 14: the widgets are a package, one module per app; the names notebooks import
    (``from cpstats.apps.widgets import RakeExplorer, rake_figures, ...``) stay at its top."""
    from cpstats.apps import widgets

    homes = {"VariantPicker": "picker", "VariantComparer": "comparer", "comparison_table": "comparer",
             "RakeExplorer": "rake", "rake_figures": "rake", "ResultCache": "cache"}
    for name, module in homes.items():
        assert getattr(widgets, name).__module__ == f"cpstats.apps.widgets.{module}"
    public = {"SEED", "WIDGET_BLOCK_DEALS", "DEFAULT_STRATEGY", "DEAL_CHOICES", *homes}
    assert set(widgets.__all__) == public and all(hasattr(widgets, n) for n in public)
