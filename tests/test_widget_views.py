"""The Compare view with open-face variants and the PAR sheet tab, driven as a user would: set
``.value``, click, read what they show. Tiny runs of the baselines keep each test to seconds."""

from __future__ import annotations

import base64
import re

import pandas as pd
import pytest

import cpstats
from cpstats.apps.widgets import ParView, ResultCache, VariantComparer
from cpstats.apps.widgets.cache import SEED
from cpstats.apps.widgets.open_face import OFC_BLOCK_HANDS
from cpstats.errors import OptionError

HANDS = 20
PAIR = ("ofc-pineapple", "ofc-pineapple-progressive")


@pytest.fixture(scope="module")
def ofc_app():
    app = VariantComparer(PAIR, deals=HANDS, strategy="greedy", cache=ResultCache())
    app.simulate_button.click()
    return app


def test_open_face_presets_open_the_open_face_view(ofc_app):
    app = VariantComparer(PAIR, deals=HANDS, strategy="greedy", cache=ResultCache())
    assert app.game.value == "open-face" and app.deals.description == "hands" and app.deals.value == HANDS
    assert app.open_face.inputs.layout.display is None and app._thirteen_inputs.layout.display == "none"
    assert [b.value for b in app.open_face.boxes[:2]] == list(PAIR)
    assert "click Simulate" in app.status.value and not app.simulate_button.disabled
    assert dict(app.strategy.options)["rollout (good play)"] == "ev"


def test_open_face_run_is_cpstats_compare_on_common_decks(ofc_app):
    """The figures shown are cpstats.compare's (seed SEED, paired on common decks), with
    intervals and the paired difference to A (A's own difference exactly 0)."""
    want = cpstats.compare(PAIR, HANDS, setter="greedy", rng=SEED, block_deals=OFC_BLOCK_HANDS)
    got = ofc_app.open_face.table
    cols = ["metric", "estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]
    pd.testing.assert_frame_equal(got[cols].reset_index(drop=True), want[cols].reset_index(drop=True))
    assert list(dict.fromkeys(got["label"])) == ["A: ofc-pineapple", "B: ofc-pineapple-progressive"]
    assert (got[got["label"].str.startswith("A")]["diff"].dropna() == 0).all()
    words = ofc_app.open_face.figures
    assert list(words.columns) == ["A: ofc-pineapple", "B: ofc-pineapple-progressive", "B - A"]
    foul = want[want["metric"] == "foul_rate"].iloc[1]
    cell = words.loc["foul rate (per board)", "B - A"]
    assert cell == f"{100 * foul['diff']:+.1f} pts ({100 * foul['diff_ci_low']:+.1f} to {100 * foul['diff_ci_high']:+.1f})"
    shown = ofc_app.open_face.table_html.value
    assert cell in shown and "greedy (baseline: a weak field)" in shown
    assert ofc_app.progress.value == ofc_app.progress.max == 2 * HANDS and ofc_app.progress.bar_style == "success"
    assert ofc_app.open_face.output.outputs[0]["data"]["image/png"]
    assert "figures.csv" in ofc_app.open_face.export.links.value


def test_open_face_variant_strings_and_a_third_variant():
    app = VariantComparer(("ofc-pineapple", "ofc-pineapple(fantasyland.stay=A)", "ofc-classic"),
                          deals=HANDS, strategy="random", cache=ResultCache())
    assert app.third.value and app.open_face.boxes[2].layout.display is None
    app.simulate_button.click()
    assert list(dict.fromkeys(app.open_face.table["variant"])) == [
        "ofc-pineapple", "ofc-pineapple(fantasyland.stay=A)", "ofc-classic"]
    assert {"B - A", "C - A"} <= set(app.open_face.figures.columns)
    app.third.value = False  # a choice played before is shown again without playing
    assert app.open_face.table is None and "click Simulate" in app.status.value
    app.third.value = True
    assert app.open_face.table is not None and "kept from an earlier run" in app.status.value


def test_mixed_games_are_refused():
    with pytest.raises(OptionError, match=r"presets=\['2-4', 'ofc-pineapple'\] mix the 13-card and "
                                          r"open-face games: compare variants of one game"):
        VariantComparer(("2-4", "ofc-pineapple"))


def test_a_13_card_variant_in_the_open_face_view_is_one_line(ofc_app):
    app = VariantComparer(PAIR, deals=HANDS, strategy="greedy", cache=ResultCache())
    app.open_face.boxes[1].value = "2-4"
    assert app.simulate_button.disabled
    assert "variant B is a 13-card variant: the open-face view compares open-face variants" in app.status.value
    app.open_face.boxes[1].value = "ofc-pineapple(royalties.front.QQ=-1)"
    assert app.simulate_button.disabled and "variant B is not valid" in app.status.value


def test_switching_games_keeps_each_games_choices():
    """The 13-card view is as before (its pickers, deals and reference results); the switch shows
    the other game's part with its own deals and strategy labels, and back again."""
    app = VariantComparer(("2-4", "2-4(royalties=R-TW)"), deals=1_000, cache=ResultCache())
    assert app.game.value == "13-card" and app.open_face.shown.layout.display == "none"
    assert str(app.pickers[1].variant) == "2-4(royalties=R-TW)"
    assert app.deals.value == 1_000 and app.deals.description == "deals"
    before = app.status.value
    app.game.value = "open-face"
    assert app.deals.value == 200 and app.deals.description == "hands" and app._thirteen_shown.layout.display == "none"
    assert "rollout (good play)" in dict(app.strategy.options)
    app.deals.value = 100
    app.game.value = "13-card"
    assert app.deals.value == 1_000 and app.status.value == before
    assert "ev (good play)" in dict(app.strategy.options)
    app.game.value = "open-face"
    assert app.deals.value == 100


# -- the PAR sheet tab ---------------------------------------------------------------------------

def _download(links: str, name: str) -> bytes:
    href = re.search(rf'download="{re.escape(name)}" href="data:[^;]+;base64,([^"]+)"', links)
    assert href, f"no link {name} in {links[:300]}"
    return base64.b64decode(href.group(1))


def test_par_view_builds_a_13_card_sheet_with_downloads():
    app = ParView("2-4", deals=200, setter="greedy")
    assert not app.sensitivity.value and not app.sensitivity.disabled  # off by default: slow
    app.build_button.click()
    assert app.sheet is not None and app.sheet.sweeps == {}, app.status.value
    titles = re.findall(r"<h2>(.*?)</h2>", app.sheet_html.value)
    assert titles == [s.title for s in app.sheet.sections] and len(titles) == 9
    assert "95%" in app.sheet_html.value and "body{" not in app.sheet_html.value  # its style kept to it
    assert "200 deals" in app.status.value and app.progress.bar_style == "success"
    assert _download(app.links.value, "par-2-4.html") == app.files["html"]
    assert "pdf" not in app.files and not app.pdf_button.disabled
    app.pdf_button.click()
    assert _download(app.links.value, "par-2-4.pdf").startswith(b"%PDF") and app.pdf_button.disabled


def test_par_view_builds_an_open_face_sheet(monkeypatch):
    monkeypatch.setattr("cpstats.apps.par.open_face.STRENGTH_DEALS", 4)  # the strength match, kept tiny
    app = ParView("ofc-pineapple(fantasyland.stay=A)", deals=HANDS, setter="greedy")
    assert not app.sensitivity.disabled and not app.sensitivity.value  # open face sweeps too, when ticked
    app.build_button.click()
    assert type(app.sheet).__name__ == "OfcParSheet", app.status.value
    assert str(app.sheet.variant) == "ofc-pineapple(fantasyland.stay=A)" and app.sheet.result.deals == HANDS
    assert "5. Fantasyland" in app.sheet_html.value and f"{HANDS} hands" in app.status.value
    assert _download(app.links.value, "par-ofc-pineapple-fantasyland.stay-A.html") == app.files["html"]


def test_par_view_passes_the_sensitivity_box_and_shows_refusals(monkeypatch):
    """The box is the sheet's sensitivity= (False unless ticked), either game's; a refusal of the
    sheet is its one line in the status."""
    calls = []

    def refuse(v, **kw):
        calls.append((str(v), kw))
        raise OptionError("deals=3 is invalid: stop here")

    monkeypatch.setattr("cpstats.apps.par.par_sheet", refuse)
    app = ParView("2-4", setter="random")
    app.build_button.click()
    app.sensitivity.value = True
    app.build_button.click()
    app.variant.value = "ofc-classic"
    app.build_button.click()
    assert [c[1].get("sensitivity") for c in calls] == [False, True, True]
    assert calls[0][1]["deals"] is None and calls[0][1]["setter"] == "random" and calls[0][1]["rng"] == SEED
    assert "deals=3 is invalid: stop here" in app.status.value and not app.build_button.disabled
    app.variant.value = "2-4(royalties.front.QQ=3)"
    assert app.build_button.disabled and "is an option of open-face variants" in app.status.value


def test_the_inline_executor_reports_block_sizes_only():
    """The PAR view hands the sheet's runs one inline executor: a runner block (last argument its
    size) moves the bar, other work (a skill match, last argument a field's name) runs untouched."""
    import numpy as np

    from cpstats.apps.widgets.cache import _InlineExecutor

    moved = []
    pool = _InlineExecutor(moved.append)
    assert pool.submit(lambda job, block, size: size * 2, "job", 0, np.int64(5)).result() == 10
    assert pool.submit(lambda v, who, field: field, "2-4", "ev", "greedy").result() == "greedy"
    assert moved == [5]
