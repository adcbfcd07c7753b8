"""The Rule sweep tab (cpstats.apps.widgets.sweep) driven as a user would: a preset with the rule a
parameter needs added, open-face presets and variant strings, refusals shown in its status."""

import os

import pytest

from cpstats.engine.registry import load_variant


def test_the_sweep_view_sweeps_an_open_face_preset_and_variant_string():
    """The dashboard's Rule sweep takes open-face presets and variant strings: every point's
    interval holds its estimate, the status names the variant swept, and a variant string's rule
    offers its values (the sweep of a variant string's stay rule is opt-in, below)."""
    pytest.importorskip("ipywidgets")
    from cpstats.apps.widgets import SweepView

    app = SweepView("ofc-pineapple", "royalties.front.QQ", "7,10", deals=6, setter="greedy")
    app.run_button.click()
    assert sorted(set(app.table["value"])) == [7, 10] and app.figure is not None
    assert "royalties.front.QQ on ofc-pineapple" in app.status.value
    shown = app.table.dropna(subset=["estimate", "ci_low"])  # no Fantasyland board: no stay rate
    assert ((shown["ci_low"] <= shown["estimate"]) & (shown["estimate"] <= shown["ci_high"])).all()
    app.preset.value, app.parameter.value = "ofc-pineapple(players=3)", "fantasyland.stay"
    assert app.values.value == "B,A,none"


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CPSTATS_SLOW"), reason="opt-in: CPSTATS_SLOW=1 (about 30 s)")
def test_the_sweep_view_sweeps_a_stay_rule_of_a_variant_string():
    """A stay-rule sweep of a variant string from the view: each point a variant no shipped entry
    value covers, so each solves its own (about 10 s a point). The default run covers the values
    offered (above) and a stay-rule sweep through the verb (verbs/test_sweep.py)."""
    pytest.importorskip("ipywidgets")
    from cpstats.apps.widgets import SweepView

    app = SweepView("ofc-pineapple(players=3)", "fantasyland.stay", "B,A,none", deals=6, setter="greedy")
    app.run()
    assert "3 values of fantasyland.stay on ofc-pineapple(players=3)" in app.status.value


def test_widget_runs_a_sweep_adds_the_rule_a_parameter_needs_and_shows_refusals():
    """The dashboard tab runs a sweep on a preset (adding a percentage rake for a
    rake-cap sweep, and saying so), shows the table (a row per metric, a column per value) and the
    chart, and shows a bad value as one line in its status."""
    from cpstats.apps.widgets.sweep import SweepView, prepared_variant

    app = SweepView("2-4", "rake.cap", "0.5,2", deals=1_000, setter="greedy")
    app.run_button.click()
    assert "rake.cap needs rake=percent" in app.status.value
    assert app.table is not None and sorted(set(app.table["value"])) == [0.5, 2]
    assert app.table_html.value.count("<tr>") == 1 + app.table["metric"].nunique()
    assert app.output.outputs[0]["data"]["image/png"]
    app.values.value = "0.5,-1"
    app.run_button.click()
    assert "rake.cap=-1 is invalid" in app.status.value
    v, note = prepared_variant("pagat-casino", "rake.amount")
    assert note == "" and v == load_variant("pagat-casino")
