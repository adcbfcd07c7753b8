"""The PAR sheet tab (cpstats.apps.widgets.par_view) driven as a user would: a 13-card sheet with its
downloads, an open-face sheet, the sensitivity box and refusals, and the inline executor that moves
its progress bar."""

from __future__ import annotations

import base64
import re

from cpstats.apps.widgets import ParView
from cpstats.apps.widgets.cache import SEED
from cpstats.errors import OptionError

HANDS = 20


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
    monkeypatch.setattr("cpstats.ofc.par.sheet.STRENGTH_DEALS", 4)  # the strength match, kept tiny
    app = ParView("ofc-pineapple(fantasyland.stay=A)", deals=HANDS, setter="greedy")
    assert not app.sensitivity.disabled and not app.sensitivity.value  # open face sweeps too, when ticked
    app.build_button.click()
    assert type(app.sheet).__name__ == "ParSheet", app.status.value  # the one template both games fill
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


def test_the_par_views_default_setter_is_the_sheets_own(monkeypatch):
    """Left at its default the view passes setter=None, so open face's sheet plays fast (its
    precision-grown run would take minutes at rollout's pace) and a 13-card sheet ev."""
    calls = []
    monkeypatch.setattr("cpstats.apps.par.par_sheet", lambda v, **kw: calls.append(kw) or 1 / 0)
    app = ParView("ofc-pineapple")
    assert app.setter.value == "default"
    app.build_button.click()
    assert calls[0]["setter"] is None
    app.setter.value = "ev"
    app.build_button.click()
    assert calls[1]["setter"] == "ev"
