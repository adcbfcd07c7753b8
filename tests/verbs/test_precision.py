"""Open face's designer precision by default (issue 37, "Deliver 4"): the sheet, a sweep and a solve
choose their hand counts for a stated precision (``GameRuns.precision``), grow in stages until it or
its cap, say what they reached, and an explicit ``deals=`` keeps meaning exactly that many.

The shipped precision takes minutes; these tests register small targets on a tiny cap (the game's
record replaced for the test) and a fast baseline setter where the play does not matter."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.ofc.game import DESIGNER_PRECISION
from cpstats.engine.registry import GAMES
from cpstats.engine.games import Precision
from cpstats.engine.sequential import until_record

GAME = cpstats.ofc.GAME.name
SWEEP = ("ofc-pineapple", "royalties.front.QQ", [6, 8])
RAKE_SOLVE = ("ofc-pineapple(rake=percent)", "rake.percent", "rake_share", 0.05)


def _precision(monkeypatch, targets: dict, most: int = 400, budget: int = 800, pilot: int = 40) -> Precision:
    """Register open face with ``targets`` on a tiny cap for the test."""
    p = Precision(targets=targets, most=most, budget=budget, pilot=pilot)
    game = GAMES[GAME]
    monkeypatch.setitem(GAMES, GAME, dataclasses.replace(game, runs=dataclasses.replace(game.runs, precision=p)))
    return p


LOOSE = {"fl_entry_rate": 0.12, "foul_rate": 0.12, "royalty": 2.5}
TIGHT = {"fl_entry_rate": 0.06, "foul_rate": 0.06, "royalty": 1.2}


def _half_widths(table, metric: str) -> np.ndarray:
    rows = table[table["metric"] == metric]
    level = ((rows["ci_high"] - rows["ci_low"]) / 2).to_numpy(float)
    diff = ((rows["diff_ci_high"] - rows["diff_ci_low"]) / 2).to_numpy(float)[1:]
    return np.concatenate([level, diff[np.isfinite(diff)]])


def test_the_shipped_precision_is_the_designers():
    p = GAMES[GAME].runs.precision
    assert p is DESIGNER_PRECISION
    assert dict(p.targets) == {"fl_entry_rate": 0.005, "foul_rate": 0.005, "royalty": 0.1}
    assert p.pilot < p.most <= p.budget
    assert GAMES["13-card"].runs.precision is None


def test_a_tighter_target_plays_more_hands_a_point(monkeypatch):
    """Every point of the sweep plays the same hands, more of them for the tighter target; each
    run stops once every point's estimate and paired difference is within its half-width."""
    tables = {}
    for name, targets in (("loose", LOOSE), ("tight", TIGHT)):
        _precision(monkeypatch, targets)
        tables[name] = cpstats.sweep(*SWEEP, setter="greedy", rng=3, metrics=["royalty", "scoop_rate"])
    loose, tight = tables["loose"], tables["tight"]
    assert loose.attrs["until"]["reached"] and tight.attrs["until"]["reached"]
    assert loose.attrs["deals"] < tight.attrs["deals"] <= 400
    for table, targets in ((loose, LOOSE), (tight, TIGHT)):
        stages = table.attrs["until"]["stages"]
        assert stages[0]["deals"] == 40 and stages[-1]["deals"] == table.attrs["deals"]
        assert [s["deals"] for s in stages] == sorted({s["deals"] for s in stages})
        assert sorted(set(table["metric"])) == ["royalty", "scoop_rate"]  # the figures asked, only
        assert (table["variant"].nunique(), set(table["value"])) == (2, {6, 8})


def test_the_precision_stated_is_the_interval_in_the_table(monkeypatch):
    """The half-widths a sweep says it reached are the widest of its table's intervals, levels
    and paired differences (at its last stage: the table shown), and the CLI prints them."""
    _precision(monkeypatch, TIGHT)
    table = cpstats.sweep(*SWEEP, setter="greedy", rng=4)
    reached = until_record(table.attrs, "hands a point")
    assert reached["reached"] and reached["deals"] == table.attrs["deals"]
    for metric, width in reached["half_widths"].items():
        assert width == pytest.approx(_half_widths(table, metric).max(), rel=1e-12)
        assert width <= TIGHT[metric]


def test_the_cap_stops_a_target_out_of_reach_and_says_so(monkeypatch, capsys):
    _precision(monkeypatch, {"royalty": 0.01}, most=120, budget=240, pilot=40)
    table = cpstats.sweep(*SWEEP, setter="greedy", rng=5)
    stop = until_record(table.attrs, "hands a point")
    assert not stop["reached"] and table.attrs["deals"] == 120 and stop["half_widths"]["royalty"] > 0.01
    assert "not reached: stopped at the most hands a point allowed, 120" in stop["note"]
    assert main(["sweep", *SWEEP[:2], "6,8", "--setter", "greedy", "--seed", "5", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("cpstats sweep: warning: until royalty=0.01 not reached")
    assert "120 hands a point" in captured.out.splitlines()[0] and "not reached" in captured.out.splitlines()[1]


def test_a_sweeps_points_share_the_budget(monkeypatch):
    """Three points share a stage's budget: none plays more than budget / points (the points are
    ``SWEEP``'s and the preset's own amount, 7: no rule set whose entry value is solved for this test)."""
    _precision(monkeypatch, {"royalty": 0.01}, most=400, budget=300, pilot=40)
    table = cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [6, 7, 8], setter="greedy", rng=6,
                          metrics=["royalty"])
    assert table.attrs["deals"] == 100 and table.attrs["until"]["max_deals"] == 100


def test_explicit_deals_are_exactly_that_many(monkeypatch):
    _precision(monkeypatch, TIGHT)
    table = cpstats.sweep(*SWEEP, deals=37, setter="greedy", rng=3)
    assert table.attrs["deals"] == 37 and "until" not in table.attrs
    s = cpstats.solve(*RAKE_SOLVE, bounds=(0.0, 0.2), deals=37, setter="greedy", rng=3)
    assert s.deals == 37 and s.precision is None and set(s.evaluations["deals"]) == {37}


def test_a_default_solve_plays_the_first_bound_to_the_precision(monkeypatch):
    """A solve with no deals plays the first bound until the precision, keeps that run as its first
    evaluation (never played twice) and plays every candidate as long; what it reached is the
    first bound's figures' intervals."""
    _precision(monkeypatch, LOOSE)
    calls = []
    real = cpstats.ofc.simulation.simulate
    game = GAMES[GAME]
    counting = dataclasses.replace(game.runs, simulate=lambda *a, **k: calls.append(a[:2]) or real(*a, **k))
    monkeypatch.setitem(GAMES, GAME, dataclasses.replace(game, runs=counting))
    s = cpstats.solve(*RAKE_SOLVE, bounds=(0.0, 0.2), setter="greedy", rng=8)
    assert s.precision["reached"] and s.deals == s.precision["deals"] and set(s.evaluations["deals"]) == {s.deals}
    played_at_length = [str(v) for v, n in calls if n == s.deals]
    assert len(played_at_length) == len(set(played_at_length)) == len(s.evaluations)
    first = cpstats.simulate("ofc-pineapple(rake=percent)", s.deals, setter="greedy", rng=8)
    f = first.figures().set_index("metric")
    for metric, width in s.precision["half_widths"].items():
        assert width == pytest.approx((f.at[metric, "ci_high"] - f.at[metric, "ci_low"]) / 2, rel=1e-12)
    assert s.evaluations.set_index("value").at[0.0, "estimate"] == f.at["rake_share", "estimate"]


def test_the_bulk_verbs_play_fast_by_default_and_the_strong_setter_stays_simulates(monkeypatch):
    """sweep, solve, design and the PAR sheet play open face with fast unless told; simulate keeps
    the strong rollout (reference runs)."""
    import inspect

    from cpstats.engine.games import runs_of

    v = cpstats.load_variant("ofc-pineapple")
    assert runs_of(v).resolve_setter(None, v) == cpstats.Rollout()  # simulate's setter=None: the strong default
    for verb in (cpstats.simulate, cpstats.sweep, cpstats.solve, cpstats.design, cpstats.par_sheet):
        assert inspect.signature(verb).parameters["setter"].default is None, verb.__name__
    seen = {}

    class Built(Exception):
        """The sheet's builder was called: what it was given is in ``seen``."""

    def build(v, **options):
        seen.update(options)
        raise Built

    game = GAMES[GAME]
    views = dataclasses.replace(game.runs.views, par_sheet=build)
    monkeypatch.setitem(GAMES, GAME, dataclasses.replace(game, runs=dataclasses.replace(game.runs, views=views)))
    with pytest.raises(Built):
        cpstats.par_sheet("ofc-pineapple", rng=1)
    assert seen["setter"] == cpstats.FastPolicy() and seen["deals"] is None and seen["sensitivity_deals"] is None
    _precision(monkeypatch, LOOSE, most=80, budget=160)
    table = cpstats.sweep(*SWEEP, rng=2, metrics=["royalty"])
    assert table.attrs["strategy"] == "fast" and table.attrs["play"].startswith("fast, street models ")
    d = cpstats.design("ofc-pineapple", {"royalties.front.QQ": [6, 8]}, "royalty", trials=2, finalists=1,
                       deals=8, rng=2)
    assert d.setter == "fast" and d.play.startswith("fast, street models ")


def test_bulk_runs_play_fast_under_the_pineapple_deal_and_rollout_under_the_classic(monkeypatch):
    """``fast`` is within its strength margin under the Pineapple deal only (it loses 0.47 a hand
    to ``rollout`` in classic, docs/measurements.md#ofc_play), so a classic bulk run plays the
    strong default; a setter given is kept, and 13-card's bulk setter stays ``ev``."""
    from cpstats.workbench.simulate import bulk_setter

    for variant, expected in (("ofc-pineapple", "fast"), ("ofc-pineapple-progressive(royalties.front.QQ=9)", "fast"),
                              ("ofc-classic", "rollout"), ("ofc-pineapple(deal=classic)", "rollout"),
                              ("2-4", "ev")):
        assert bulk_setter(cpstats.load_variant(variant), None) == expected, variant
    assert bulk_setter(cpstats.load_variant("ofc-classic"), "greedy") == "greedy"
    _precision(monkeypatch, LOOSE, most=40, budget=80, pilot=20)
    # a rake sweep: the setter chosen is the question, and a rake never moves the play, so no
    # classic rule set of its own solves its entry value here (about 10 s each)
    table = cpstats.sweep("ofc-classic(rake=percent)", "rake.percent", [0.0, 0.05], rng=2, metrics=["royalty"])
    assert table.attrs["strategy"] == "rollout" and table.attrs["play"].startswith("rollout, street models ")


# -- the PAR sheet ----------------------------------------------------------------------------------

def _sheet(monkeypatch, **options):
    import cpstats.ofc.par.sheet as ofc_par

    monkeypatch.setattr(ofc_par, "STRENGTH_DEALS", 2)  # the strength match, a rollout player: kept small
    return cpstats.par_sheet("ofc-pineapple", setter="greedy", rng=9, sensitivity=False, **options)


def _paragraphs(sheet, start: str) -> str:
    """The paragraphs of the sheet's section whose text starts ``start`` is in."""
    texts = [" ".join(section.paragraphs) for section in sheet.sections]
    return next(text for text in texts if start in text)


def _interval_half_widths(sheet) -> dict[str, float]:
    """The half-widths of the designer's figures as the sheet's own tables print them."""
    head = sheet.tables["headline"].set_index("name")
    fl = sheet.tables["fantasyland"].set_index("name")
    rows = {"foul_rate": head.loc["foul_rate"], "royalty": head.loc["royalty"],
            "fl_entry_rate": fl.loc["fl_entry_rate"]}
    return {m: float(r["ci_high"] - r["ci_low"]) / 2 for m, r in rows.items()}


def test_the_sheet_grows_to_the_precision_and_states_what_its_tables_show(monkeypatch, tmp_path):
    _precision(monkeypatch, TIGHT, most=300, pilot=40)
    sheet = _sheet(monkeypatch)
    sheet.to_html(tmp_path / "par.html")  # the HTML is what is read here; writing the PDF is tested with the CLI below
    stop = sheet.precision
    assert stop["reached"] and sheet.result.deals == stop["deals"] and 40 < stop["deals"] <= 300
    shown = _interval_half_widths(sheet)
    for metric, width in stop["half_widths"].items():
        assert width == pytest.approx(shown[metric], rel=1e-12) and width <= TIGHT[metric]
    text = _paragraphs(sheet, "Hands: ")
    assert f"Hands: {sheet.result.deals:,}, chosen for a designer's precision" in text and ": reached, " in text
    assert f"Fantasyland entry ±{100 * shown['fl_entry_rate']:.2f} points" in text
    method = sheet.tables["methodology"].set_index("item")["value"]
    assert method["Precision"].startswith("chosen for a designer's precision") and "reached" in method["Precision"]
    assert "chosen for a designer&#x27;s precision" in (tmp_path / "par.html").read_text()


def test_the_sheet_says_when_its_cap_came_first(monkeypatch, capsys, tmp_path):
    _precision(monkeypatch, {"royalty": 0.01, "foul_rate": 0.01, "fl_entry_rate": 0.01}, most=60, pilot=40)
    sheet = _sheet(monkeypatch)
    assert not sheet.precision["reached"] and sheet.result.deals == 60
    text = _paragraphs(sheet, "Hands: ")
    assert "not reached, the cap of 60 hands came first, at which Fantasyland entry ±" in text
    assert main(["par", "ofc-pineapple", "--setter", "greedy", "--no-sensitivity", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    warned = [line for line in captured.err.splitlines() if line.startswith("cpstats par: warning: until ")]
    assert len(warned) == 1 and "not reached" in warned[0]  # beside the progress lines
    assert captured.out.startswith("PAR sheet of ofc-pineapple (60 hands, greedy")


def test_the_sheets_explicit_deals_are_exactly_that_many(monkeypatch):
    _precision(monkeypatch, TIGHT)
    sheet = _sheet(monkeypatch, deals=45)
    assert sheet.result.deals == 45 and sheet.precision is None and "until" not in sheet.result.metadata
    headline = next(section for section in sheet.sections if section.title.endswith("Headline figures"))
    text = " ".join(headline.paragraphs)
    assert text.count("Hands: 45, as asked; at this length (95% half-widths) Fantasyland entry ±") == 1
    assert "By default the sheet plays until Fantasyland entry ±6.00 points, foul ±6.00 points" in text


def test_a_default_listed_solve_grows_no_further_than_the_precisions_cap(monkeypatch):
    """A whole-number or listed open-face solve of the default length starts from the hands the
    precision chose at the first bound and may grow to the precision's cap, not 50x a run."""
    p = _precision(monkeypatch, LOOSE)
    s = cpstats.solve("ofc-pineapple(rake=percent)", "rake.percent", "rake_share", 0.05,
                      bounds=[0.0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12], setter="greedy", rng=3)
    g = s.growth
    assert g["max_deals"] == p.most and g["stages"][0]["deals"] == s.precision["deals"] <= p.most
    assert g["reached"] == (g["values"] <= 3 and s.certified) and s.unit == "hands"
    assert f"{s.deals:,} hands an evaluation" in g["note"] and g["note"] in s.sentence()
