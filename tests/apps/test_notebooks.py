"""The notebooks' sentences cite numbers from their own run, each with an interval that supports it.

These tests execute every story notebook once (``helpers.notebooks.execute``) and check what
``helpers.notebooks.CHECKS`` checks: the template's own text holds no number (outside `code spans`,
such as preset names, and the confidence level, 95%), so every number in a sentence is a recorded
figure; every interval holds its estimate and supports what the sentence says (a difference said to
be above 0 has its whole interval above 0); the outputs read as numbers for people (no exponent
notation, no raw ``<span>``); charts and tables name rules in words; and the outputs stored in the
notebooks (what the docs render) are those of a fresh run. Key figures equal the package's own
values computed here.
"""

from __future__ import annotations

import pytest

pytest.importorskip("nbformat")
pytest.importorskip("nbclient")

from helpers import ROOT  # noqa: E402
from helpers import notebooks  # noqa: E402

STORIES = ("01_naturals", "02_royalties", "03_scoring_systems", "04_house_edge_and_rake", "05_rule_designer",
           "07_solve")
NOTEBOOKS = [ROOT / "notebooks" / f"{name}.ipynb" for name in STORIES]


@pytest.fixture(scope="module", params=NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def run(request):
    return (request.param, *notebooks.execute(request.param))


@pytest.mark.parametrize("check", notebooks.CHECKS, ids=lambda check: check.__name__)
def test_the_notebook_passes(run, check):
    """Each of the checks every notebook's claims pass (helpers/notebooks.py)."""
    check(run)


def test_label_check_catches_raw_labels():
    """The readable-labels check flags IDs and variant strings, and passes short labels."""
    import cpstats

    raw = ["NS-PAGAT-TYPICAL", "R-PAGAT-EXTRA-B", "A: SC-2-4", "1-6(royalties=R-FUTUREBET,surrender=3)"]
    readable = [cpstats.short_label("1-6(royalties=R-FUTUREBET,surrender=3)"), cpstats.RULES["NS-TW"].short,
                "2-4", "A: pagat-typical, 3 players", "SD per hand (95% CI)", "ev (tables trained for 2-4, borrowed)"]
    assert notebooks.raw_labels(raw) == raw
    assert notebooks.raw_labels(readable) == []
    html = '<table><caption>x</caption><tr><th class="col_heading">NS-TW</th><td>SC-2-4</td></tr></table>'
    assert [m[1] for m in notebooks.HEADER.findall(html)] == ["x", "NS-TW"]


def _independent(name: str) -> dict[str, float]:
    """Figures recomputed here from the package, by notebook: the text cites the package's numbers."""
    import numpy as np

    import cpstats

    if name == "01_naturals":
        p = cpstats.exact_naturals().set_index("natural")["probability"]
        ref = cpstats.load_reference("taiwanese")
        return {"dragon": 1 / p["dragon"], "top": 1 / p.max(), "hands": ref.deals * ref.variant.players}
    if name == "03_scoring_systems":
        r = cpstats.load_reference("2-4")
        s = r.summary
        return {"sd_2_4": float(r.moments()["sd"].mean()),
                "scoop_2_4": float(s.scoops[0, 1] / s.pairs_played[0, 1]),
                "home_2_4": float(s.home_runs[0] / r.deals),
                "home_seat": float(s.home_runs[0] / r.deals)}  # the outcome table's home runs, section 4
    if name == "04_house_edge_and_rake":
        return {}
    return {}


def test_key_figures_are_the_packages_own(run):
    """Figures a sentence cites equal the package's values computed independently."""
    path, _, claims, _ = run
    figures = notebooks.figures(claims)
    for name, value in _independent(path.stem).items():
        assert name in figures, f"{path.name} no longer cites {name}"
        f = figures[name]
        assert format(f["value"], f["fmt"]) == format(value, f["fmt"]), (path.name, name, f, value)
