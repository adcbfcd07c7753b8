"""The Open-face tab (issue 17.5) driven as a user would: set ``.value``, click, read what it shows."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from cpstats.errors import OptionError
from cpstats.ofc.shipped import OFC_REFERENCE_DIR, OFC_REFERENCE_RUNS
from cpstats.engine import load_reference
from cpstats.workbench import simulate
from cpstats.apps.widgets.cache import SEED
from cpstats.apps.widgets.open_face import OFC_BLOCK_HANDS, OpenFaceApp
from cpstats.ofc.dashboard import ofc_variant
from cpstats.engine.describe import short_label
from cpstats.rules.house import HANDS_PER_HOUR, Rake

shipped = pytest.mark.skipif(
    not all((OFC_REFERENCE_DIR / f"{k}.npz").exists() for k in OFC_REFERENCE_RUNS),
    reason="no shipped OFC runs (cpstats.ofc.shipped.write_ofc_reference)")


def _estimate(app, name: str) -> float:
    """The estimate shown of figure ``name`` (its row is the figure's catalogue label)."""
    return float(app.table.loc[app.labels[name][0], "estimate"])


@shipped
def test_opens_on_the_shipped_run_without_playing():
    """The tab opens at once on the preset's shipped rollout run, its figures shown."""
    app = OpenFaceApp()
    ref = load_reference("ofc-pineapple").figures().set_index("metric")
    assert app.runs == {} and "shipped run" in app.source
    assert _estimate(app, "foul_rate") == pytest.approx(ref.at["foul_rate", "estimate"])
    assert f"{ref.at['foul_rate', 'estimate']:.1%}" in app.table_html.value
    assert f"{ref.at['royalty', 'ci_low']:.2f}" in app.table_html.value
    assert "rollout (good play)" in app.status.value and app.output.outputs[0]["data"]["image/png"]


@shipped
def test_a_shipped_rule_change_is_shown_from_its_run():
    """Stay A on Pineapple is a shipped run: shown, not played."""
    app = OpenFaceApp()
    app.stay.value = "A"
    assert str(app.result.variant) == "ofc-pineapple(fantasyland.stay=A)" and app.runs == {}
    app.preset.value = "ofc-pineapple-progressive"
    assert str(app.result.variant) == "ofc-pineapple-progressive" and app.stay.value == "B"


@shipped
def test_rake_is_charged_on_the_shipped_run():
    """A time rake costs exactly its amount per seat-hour; a per-point rake is the
    shipped run charged again, as a live run would be."""
    app = OpenFaceApp()
    app.rake_model.value = "time"
    app.rake_amount.value = 6.0
    app.hands_per_hour.value = 60
    assert _estimate(app, "rake_per_seat_per_hour") == pytest.approx(6.0)
    assert _estimate(app, "rake_per_seat_per_hand") == pytest.approx(0.1)
    app.rake_model.value = "percent"
    app.rake_cap.value = 1.0
    want = load_reference("ofc-pineapple", rake=Rake(model="percent", percent=0.05, cap=1.0))
    want = want.figures(hands_per_hour=60).set_index("metric")
    assert _estimate(app, "rake_per_seat_per_hour") == \
        pytest.approx(want.at["rake_per_seat_per_hour", "estimate"])
    assert 0 < _estimate(app, "rake_share") <= 0.05


def test_other_rules_are_played_live_with_the_apps_seed():
    """A choice no shipped run plays asks for Run (the figures of the earlier choice
    taken down, the status in words), then shows the live run's figures."""
    app = OpenFaceApp(hands=100)
    assert app.table_html.value and app.output.outputs  # the shipped rollout run
    app.strategy.value = "random"
    app.players.value = 3
    assert "click Run" in app.status.value and "ofc-pineapple, 3 players" in app.status.value
    assert app.result is None and not app.table_html.value and not app.output.outputs
    assert app.progress.value == 0 and app.progress.bar_style == "info"
    with pytest.raises(OptionError, match="nothing to export"):
        app.export_files("unused")
    app.run_button.click()
    assert app.source == "live run" and app.result.deals == 100
    live = simulate("ofc-pineapple(players=3)", 100, setter="random", rng=SEED,
                    block_deals=OFC_BLOCK_HANDS).figures().set_index("metric")
    assert _estimate(app, "foul_rate") == live.at["foul_rate", "estimate"]
    assert "random (baseline: no skill)" in app.status.value
    assert app.progress.value == 100 and app.progress.bar_style == "success"
    app.players.value = 2
    app.players.value = 3  # back to the live choice: from the app's own runs, not played again
    assert app.source == "live run" and len(app.runs) == 1


def test_invalid_choice_is_one_line_and_disables_run():
    """Rules that do not fit the deck are refused in the status line."""
    app = OpenFaceApp("ofc-classic", setter="random")
    app.players.value = 4
    app.fantasy.value = "14/15/16/17 (progressive)"
    assert "not a valid game" in app.status.value and "players" in app.status.value
    assert app.run_button.disabled and app.result is None and not app.table_html.value


def test_variant_from_the_controls():
    """The controls' variant: Fantasyland cards set the stay deal to a QQ entry's,
    one royalty entry changes, the rake is attached; an unknown royalty key is refused."""
    v = ofc_variant("ofc-classic", fantasy="14/15/16/17", royalty=("royalties.front.QQ", 10),
                    rake=Rake(model="time", amount=5))
    assert v.fantasyland.cards == (14, 15, 16, 17) and v.fantasyland.stay_cards == 14
    assert v.royalties.front_pairs[10] == 10 and v.rake.amount == 5
    assert ofc_variant("ofc-pineapple", royalty=("royalties.front.QQ", 7)) == ofc_variant("ofc-pineapple")
    with pytest.raises(OptionError, match="royalty='royalties.front.Q' is invalid"):
        ofc_variant("ofc-pineapple", royalty=("royalties.front.Q", 3))


def test_export_writes_chart_and_table(tmp_path):
    """The figures table exports as CSV and the chart as PNG, SVG and PDF."""
    app = OpenFaceApp(hands=100, setter="random")
    app.players.value = 3
    app.run()
    names = sorted(p.name for p in app.export_files(tmp_path))
    assert names == ["open-face.csv", "open-face.pdf", "open-face.png", "open-face.svg"]
    table = pd.read_csv(tmp_path / "open-face.csv", index_col=0)
    assert len(table) == len(app.table)
    assert set(table["strategy"]) == {"random (baseline: no skill)"} and set(table["hands"]) == {100}
    assert set(table["variant"]) == {"ofc-pineapple(players=3)"} and set(table["source"]) == {"live run"}


def test_chart_titles_name_rules_in_words():
    """issue 17.5 (and 16.5): a chart title names the variant in words, never its raw string."""
    v = ofc_variant("ofc-pineapple", players=3, stay="A")
    assert short_label(v) == "ofc-pineapple, 3 players, stay rule A"
    assert short_label(ofc_variant("ofc-classic")) == "ofc-classic"
    app = OpenFaceApp(hands=100, setter="random")
    app.players.value = 3
    app.run()
    title = app.figure._suptitle.get_text()
    assert "(" not in title.split(";")[0] and "=" not in title and "3 players" in title


def test_rule_choices_are_in_words():
    """Issue 16.5 / 17.5: the stay rules and royalty entries are offered in words, valued as the
    variant string writes them."""
    from cpstats.apps.widgets.open_face import OpenFaceApp

    app = OpenFaceApp()
    assert app.stay.label.startswith("B: trips front") and app.stay.value == "B"
    assert app.royalty_key.label == "front QQ" and app.royalty_key.value == "royalties.front.QQ"
    assert not [label for label, _ in app.royalty_key.options if "royalties." in label]


@pytest.mark.parametrize("error, shown", [(OptionError("hands=0 is invalid: at least 1"), "hands=0 is invalid"),
                                          (RuntimeError("worker lost"), "simulation failed: RuntimeError")])
def test_a_failed_run_is_one_line_and_gives_the_button_back(monkeypatch, error, shown):
    """A live run that raises shows one line in the status (a refusal as itself, anything else as a
    failed run), marks the progress bar, and enables Run again (the apps' shared run guard)."""
    import cpstats.apps.widgets.open_face as tab

    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(tab, "simulate", fail)
    app = OpenFaceApp()
    app.players.value = 3
    app.run()
    assert shown in app.status.value and "Traceback" not in app.status.value
    assert app.progress.bar_style == "danger" and not app.run_button.disabled


def test_a_figure_without_an_interval_is_drawn_hollow_and_says_why():
    """A chart on an axis labelled '(95% CI)' never shows a bare point as if it had an interval:
    a figure with too few hands for one is a hollow marker with the reason written beside it."""
    from cpstats.apps.panels import plot_results
    from cpstats.ofc.charts import FIGURE_CHARTS as charts

    result = simulate("ofc-pineapple(players=3)", 100, setter="greedy", rng=1, block_deals=100)
    assert result.figures().set_index("metric").at["fl_value", "method"] == "too few hands"
    fig = plot_results({"greedy": result}, charts.labels, charts.rates, charts.units)
    notes = [t for ax in fig.axes for t in ax.texts if t.get_text() == "no interval: too few hands"]
    assert len(notes) == 1
    ax = notes[0].axes
    low, high = ax.get_xlim()
    assert low <= notes[0].xy[0] <= high
    plt.close(fig)


def test_the_open_face_app_opens_at_the_one_default_pace():
    pytest.importorskip("ipywidgets")
    from cpstats.apps.widgets.open_face import OpenFaceApp

    assert OpenFaceApp().hands_per_hour.value == HANDS_PER_HOUR
