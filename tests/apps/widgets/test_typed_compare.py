"""The Compare view with open-face variants (cpstats.apps.widgets.typed_compare), driven as a user would:
set ``.value``, click, read what it shows. Tiny runs of the baselines keep each test to seconds."""

from __future__ import annotations

import pandas as pd
import pytest

import cpstats
from cpstats.apps.widgets import ResultCache, VariantComparer
from cpstats.apps.widgets.cache import SEED
from cpstats.apps.widgets.open_face import OFC_BLOCK_HANDS
from cpstats.errors import OptionError

HANDS = 20
PAIR = ("ofc-pineapple", "ofc-pineapple-progressive")


@pytest.fixture(scope="module")
def ofc_app():
    app = VariantComparer(PAIR, deals=HANDS, setter="greedy", cache=ResultCache())
    app.simulate_button.click()
    return app


def test_open_face_presets_open_the_open_face_view(ofc_app):
    app = VariantComparer(PAIR, deals=HANDS, setter="greedy", cache=ResultCache())
    assert app.game.value == "open-face" and app.deals.description == "hands" and app.deals.value == HANDS
    assert app.typed.inputs.layout.display is None and app._picker_inputs.layout.display == "none"
    assert [b.value for b in app.typed.boxes[:2]] == list(PAIR)
    assert "click Simulate" in app.status.value and not app.simulate_button.disabled
    assert dict(app.strategy.options)["rollout (good play)"] == "ev"


def test_open_face_run_is_cpstats_compare_on_common_decks(ofc_app):
    """The figures shown are cpstats.compare's (seed SEED, paired on common decks), with
    intervals and the paired difference to A (A's own difference exactly 0)."""
    want = cpstats.compare(PAIR, HANDS, setter="greedy", rng=SEED, block_deals=OFC_BLOCK_HANDS)
    got = ofc_app.typed.table
    cols = ["metric", "estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]
    pd.testing.assert_frame_equal(got[cols].reset_index(drop=True), want[cols].reset_index(drop=True))
    assert list(dict.fromkeys(got["label"])) == ["A: ofc-pineapple", "B: ofc-pineapple-progressive"]
    assert (got[got["label"].str.startswith("A")]["diff"].dropna() == 0).all()
    words = ofc_app.typed.figures
    assert list(words.columns) == ["A: ofc-pineapple", "B: ofc-pineapple-progressive", "B - A"]
    foul = want[want["metric"] == "foul_rate"].iloc[1]
    cell = words.loc[ofc_app.typed.labels["foul_rate"][0], "B - A"]
    assert cell == f"{100 * foul['diff']:+.1f} pts ({100 * foul['diff_ci_low']:+.1f} to {100 * foul['diff_ci_high']:+.1f})"
    shown = ofc_app.typed.table_html.value
    assert cell in shown and "greedy (baseline: a weak field)" in shown
    assert ofc_app.progress.value == ofc_app.progress.max == 2 * HANDS and ofc_app.progress.bar_style == "success"
    assert ofc_app.typed.output.outputs[0]["data"]["image/png"]
    assert "figures.csv" in ofc_app.typed.export.links.value


def test_open_face_variant_strings_and_a_third_variant():
    app = VariantComparer(("ofc-pineapple", "ofc-pineapple(fantasyland.stay=A)", "ofc-classic"),
                          deals=HANDS, setter="random", cache=ResultCache())
    assert app.third.value and app.typed.boxes[2].layout.display is None
    app.simulate_button.click()
    assert list(dict.fromkeys(app.typed.table["variant"])) == [
        "ofc-pineapple", "ofc-pineapple(fantasyland.stay=A)", "ofc-classic"]
    assert {"B - A", "C - A"} <= set(app.typed.figures.columns)
    app.third.value = False  # a choice played before is shown again without playing
    assert app.typed.table is None and "click Simulate" in app.status.value
    app.third.value = True
    assert app.typed.table is not None and "kept from an earlier run" in app.status.value


def test_mixed_games_are_refused():
    with pytest.raises(OptionError, match=r"presets=\['2-4', 'ofc-pineapple'\] mix the 13-card and "
                                          r"open-face games: compare variants of one game"):
        VariantComparer(("2-4", "ofc-pineapple"))


def test_a_13_card_variant_in_the_open_face_view_is_one_line(ofc_app):
    app = VariantComparer(PAIR, deals=HANDS, setter="greedy", cache=ResultCache())
    app.typed.boxes[1].value = "2-4"
    assert app.simulate_button.disabled
    assert "variant B is a 13-card variant: the open-face view compares open-face variants" in app.status.value
    app.typed.boxes[1].value = "ofc-pineapple(royalties.front.QQ=-1)"
    assert app.simulate_button.disabled and "variant B is not valid" in app.status.value


def test_switching_games_keeps_each_games_choices():
    """The 13-card view is as before (its pickers, deals and reference results); the switch shows
    the other game's part with its own deals and strategy labels, and back again."""
    app = VariantComparer(("2-4", "2-4(royalties=R-TW)"), deals=1_000, cache=ResultCache())
    assert app.game.value == "13-card" and app.typed.shown.layout.display == "none"
    assert str(app.pickers[1].variant) == "2-4(royalties=R-TW)"
    assert app.deals.value == 1_000 and app.deals.description == "deals"
    before = app.status.value
    app.game.value = "open-face"
    assert app.deals.value == 200 and app.deals.description == "hands" and app._picker_shown.layout.display == "none"
    assert "rollout (good play)" in dict(app.strategy.options)
    app.deals.value = 100
    app.game.value = "13-card"
    assert app.deals.value == 1_000 and app.status.value == before
    assert "ev (good play)" in dict(app.strategy.options)
    app.game.value = "open-face"
    assert app.deals.value == 100


# -- the PAR sheet tab ---------------------------------------------------------------------------


