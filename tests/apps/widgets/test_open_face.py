"""The Open-face tab (issue 17.5) driven as a user would: set ``.value``, click, read what it shows."""

from __future__ import annotations

import html
import math

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
from cpstats.ofc.table_figures import acting_last_line
from cpstats.ofc.rules import parse_ofc_variant
from cpstats.engine.catalogue import figures_of, find_figure
from cpstats.engine.figures_text import figure_label
from cpstats.engine.registry import game_named
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
    assert app.sections and len(table) == len(app.table) + sum(len(t) for t in app.sections.values())
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


#: The figures of the table rules (rulebook section 7) a two-player run with a buy-in and matches plays.
POSITION_FIGURES = ("mean_acting_first", "mean_acting_last", "value_of_acting_last", "sd_acting_first",
                    "sd_acting_last")
STAKES_FIGURES = ("stakes_bind_rate", "unpaid_share", "sd_per_match", "mean_per_match_after_charges",
                  "match_out_rate", "hands_per_match", "rake_per_match")


def _catalogue_label(name: str) -> str:
    figure = find_figure(name, figures_of(game_named("open-face").runs))
    assert figure is not None, name
    return figure_label(figure, name)


def _verdict(low: float, high: float) -> str:
    """What an interval of the value of acting last supports."""
    if low > 0:
        return ": more than acting first"
    if high < 0:
        return ": less than acting first"
    return "; the interval covers 0, so no difference is shown at this size"


def test_table_rules_are_offered_and_their_figures_shown():
    """Issue 47.4: a rotating button, a buy-in of 50 and matches of a round make the variant; the
    run shows its position and stakes/match figures under their catalogue labels, each the run's
    own figure, and one line that says of acting last what the interval supports."""
    app = OpenFaceApp(hands=300, setter="greedy")
    app.button.value, app.buy_in.value, app.match.value = "rotate", "50", "round"
    v = app.variant()
    assert v.button.rotates and v.stakes.buy_in == 50 and v.match.rounds
    assert "stakes.buy_in=50" in str(v) and "match=round" in str(v) and parse_ofc_variant(str(v)) == v
    assert "click Run" in app.status.value and app.sections == {} and not app.sections_html.value
    app.run_button.click()
    assert app.source == "live run" and str(app.result.variant) == str(v)
    assert list(app.sections) == ["Position", "Stakes and matches"]
    figures = app.result.figures().set_index("metric")
    for title, names in (("Position", POSITION_FIGURES), ("Stakes and matches", STAKES_FIGURES)):
        table = app.sections[title]
        assert list(table.index) == [_catalogue_label(n) for n in names]
        for name in names:
            shown = table.loc[_catalogue_label(name)]
            assert shown["estimate"] == figures.at[name, "estimate"]
            assert shown["ci_low"] == figures.at[name, "ci_low"] or math.isnan(figures.at[name, "ci_low"])
            assert f">{html.escape(_catalogue_label(name))}</th>" in app.sections_html.value
    assert not set(app.table.index) & {_catalogue_label(n) for n in POSITION_FIGURES + STAKES_FIGURES}
    est, low, high = figures.loc["value_of_acting_last", ["estimate", "ci_low", "ci_high"]]
    assert app.note.startswith(f"Acting last is worth {est:+.2f} units a hand")
    assert f"95% CI {low:+.2f} to {high:+.2f}){_verdict(low, high)}" in app.note
    assert html.escape(app.note) in app.sections_html.value
    assert app.sections_html.value.index("Position") < app.sections_html.value.index(html.escape(app.note)) \
        < app.sections_html.value.index("Stakes and matches")


def test_a_fixed_button_plays_no_position_unless_the_stakes_do():
    """A fixed button with no buy-in and no match plays no table rule: no section, no line. With a
    buy-in the position figures are back, and as the rules imply: seat 0 always acts first, so
    acting first is seat 0's figure and the line says the last to act is always seat 1."""
    app = OpenFaceApp(hands=200, setter="greedy")
    app.button.value = "fixed"
    assert str(app.variant()) == "ofc-pineapple(button=fixed)"
    app.run()
    assert app.result is not None and app.sections == {} and app.note == "" and not app.sections_html.value
    assert not [label for label in app.table.index if "acting" in label]
    app.buy_in.value = "50"
    assert app.result is None and not app.sections_html.value  # the figures of another choice taken down
    app.run()
    assert list(app.sections) == ["Position", "Stakes and matches"]
    figures = app.result.figures().set_index("metric")
    position = app.sections["Position"]
    assert position.at[_catalogue_label("mean_acting_first"), "estimate"] == figures.at["mean_seat0", "estimate"]
    assert position.at[_catalogue_label("mean_acting_last"), "estimate"] == figures.at["mean_seat1", "estimate"]
    assert list(app.sections["Stakes and matches"].index) == [_catalogue_label(n) for n in STAKES_FIGURES[:2]]
    assert app.note.endswith("(the button is fixed: the last to act is always seat 1).")


def test_the_buy_in_is_offered_or_typed_and_checked_by_the_rules():
    """The buy-in offers none, 50, 100 and 200 and takes any whole number typed; anything else is
    the rules' one-line refusal in the status, Run disabled; a new preset sets the table rules to its own."""
    app = OpenFaceApp(hands=100, setter="random")
    assert tuple(app.buy_in.options) == ("none", "50", "100", "200") and app.buy_in.value == "none"
    assert [value for _, value in app.button.options] == ["rotate", "fixed"]
    assert [value for _, value in app.match.options] == ["none", "round"]
    app.buy_in.value = "75"
    assert app.variant().stakes.buy_in == 75 and not app.run_button.disabled
    for typed, why in (("ten", "stakes.buy_in='ten' is invalid: expected a whole number"),
                       ("0", "stakes.buy_in=0 is invalid"), ("2.5", "expected a whole number")):
        app.buy_in.value = typed
        assert "not a valid game" in app.status.value and html.escape(why) in app.status.value, typed
        assert app.run_button.disabled
    app.match.value, app.button.value = "round", "fixed"
    app.preset.value = "ofc-classic"
    preset = ofc_variant("ofc-classic")
    assert app.buy_in.value == "none" and app.match.value == preset.match.format.value
    assert app.button.value == preset.button.moves.value and app.variant() == preset


@pytest.mark.parametrize("low, high, said", [
    (0.04, 0.76, "(95% CI +0.04 to +0.76): more than acting first"),
    (-0.90, -0.10, "(95% CI -0.90 to -0.10): less than acting first"),
    (-0.30, 0.36, "(95% CI -0.30 to +0.36); the interval covers 0, so no difference is shown at this size"),
    (math.nan, math.nan, "(no interval: too few hands), so no difference is shown")])
def test_the_acting_last_line_says_what_the_interval_supports(low, high, said):
    """The line is made from the numbers: the estimate, its interval and what the interval's sign says."""
    figures = pd.DataFrame([("value_of_acting_last", 0.40, low, high, "too few hands" if math.isnan(low) else
                             "batch t")], columns=["metric", "estimate", "ci_low", "ci_high", "method"])
    line = acting_last_line(ofc_variant("ofc-pineapple", button="rotate"), figures)
    assert line == f"Acting last is worth +0.40 units a hand before house charges {said}."
    assert acting_last_line(ofc_variant("ofc-pineapple"), figures.assign(metric="mean_seat0")) == ""
