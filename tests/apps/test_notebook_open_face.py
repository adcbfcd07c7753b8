"""Notebook 06 (open face) runs quickly and every number its sentences cite is the package's own,
recomputed here from the shipped runs (and the live paired position run and buy-in sweep, at the
notebook's parameters); its verdicts follow their intervals; and it passes every
check the story notebooks pass (``helpers.notebooks.CHECKS``: no typed numbers, intervals that
support each sentence, static text, readable outputs and labels, fresh stored outputs).
"""

from __future__ import annotations

import pytest

pytest.importorskip("nbclient")
import cpstats  # noqa: E402
from helpers import ROOT  # noqa: E402
from helpers.notebooks import CHECKS, execute, figures  # noqa: E402

from cpstats.ofc.shipped import (OFC_REFERENCE_DIR, OFC_REFERENCE_RUNS, SENSITIVITY_RUNS,  # noqa: E402
                                 ofc_sensitivity)
from cpstats.engine import load_reference  # noqa: E402
from cpstats.ofc import fantasyland_table  # noqa: E402
from cpstats.ofc.result import paired_figures  # noqa: E402
from cpstats.ofc.simulation import acting_last  # noqa: E402
from cpstats.ofc.strength import shipped_strength  # noqa: E402
from cpstats.rules.house import Rake  # noqa: E402

NOTEBOOK = ROOT / "notebooks" / "06_open_face.ipynb"
pytestmark = pytest.mark.skipif(
    not all((OFC_REFERENCE_DIR / f"{k}.npz").exists() for k in OFC_REFERENCE_RUNS),
    reason="no shipped OFC runs (cpstats.ofc.shipped.write_ofc_reference)")


@pytest.fixture(scope="module")
def run():
    nb, claims, seconds = execute(NOTEBOOK)
    params: dict = {}
    exec(nb.cells[1].source, params)  # the notebook's parameters cell
    return nb, claims, seconds, params


def _expected(params: dict) -> dict[str, tuple[float, float, float]]:
    """(estimate, low, high) of every cited figure, from the package and the shipped runs."""
    pace = params["HANDS_PER_HOUR"]
    names = {"c": "ofc-classic", "p": "ofc-pineapple", "g": "ofc-pineapple-progressive"}
    runs = {k: load_reference(n) for k, n in names.items()}

    def fig(result, metric, scale=1.0):
        f = result.figures(hands_per_hour=pace).set_index("metric").loc[metric]
        return f["estimate"] * scale, f["ci_low"] * scale, f["ci_high"] * scale

    out = {"hands": (runs["p"].deals,) * 3}
    for k, r in runs.items():
        out[f"foul_{k}"], out[f"roy_{k}"], out[f"sd_{k}"] = (fig(r, m)
                                                             for m in ("foul_rate", "royalty", "sd_seat0"))
        out[f"entry_{k}"], out[f"stay_{k}"] = fig(r, "fl_entry_rate"), fig(r, "fl_stay_rate")
        rake = Rake(model="percent", percent=params["POINT_RAKE"])
        out[f"pp_{k}"] = fig(load_reference(names[k], rake=rake), "rake_per_seat_per_hour")
        won = fig(load_reference(names[k], rake=Rake(model="percent", percent=1.0)), "rake_per_seat_per_hour")
        out[f"m_{k}"] = tuple(params["TIME_RAKE"] / w for w in (won[0], won[2], won[1]))
    out["n_p"] = fig(runs["p"], "hands_seat0")
    out["mean"] = fig(runs["p"], "mean_seat0")
    for name, metric in (("pos_value", "value_of_acting_last"), ("pos_last", "mean_acting_last"),
                         ("pos_first", "mean_acting_first")):
        out[name] = fig(runs["p"], metric)
    out.update(_live(params))
    paired = paired_figures([runs["p"], runs["c"], runs["g"]], ["p", "c", "g"], hands_per_hour=pace)
    sens = ofc_sensitivity(hands_per_hour=pace)
    labels = list(SENSITIVITY_RUNS.values())

    def diff(table, label, metric, scale=1.0):
        row = table[(table["label"] == label) & (table["metric"] == metric)].iloc[0]
        return tuple(row[c] * scale for c in ("diff", "diff_ci_low", "diff_ci_high"))

    out["gap"] = diff(paired, "c", "foul_rate", 100)
    out["more"] = diff(paired, "g", "royalty")
    out["stay_a"] = diff(sens, labels[1], "fl_share", 100)
    out["no_stay"] = diff(sens, labels[2], "fl_share", 100)
    out["no_fl"], out["flat"] = diff(sens, labels[3], "royalty"), diff(sens, labels[4], "royalty")
    out["foul_no_fl"] = diff(sens, labels[3], "foul_rate", 100)
    strength = shipped_strength().set_index(["variant", "setter", "metric"])
    for short, setter in (("def", "rollout"), ("v1", "rollout-v1"), ("gr", "greedy")):
        for name, metric, scale in (("foul", "foul_rate", 100), ("entry", "fl_entry_rate", 100),
                                    ("roy", "royalty", 1), ("rake", "rake_share", 100)):
            r = strength.loc[("ofc-pineapple", setter, metric)]
            out[f"st_{name}_{short}"] = tuple(r[c] * scale for c in ("estimate", "ci_low", "ci_high"))
    del out["st_rake_v1"]  # the rake sentence compares the weak field with the default only
    solved = fantasyland_table("ofc-pineapple", rng=params["SEED"]).iloc[0]  # the solver's stay value
    for name, columns in (("r_p", ("royalty", "royalty_low", "royalty_high")),
                          ("p_p", ("stay_rate", "stay_low", "stay_high")),
                          ("v_p", ("value", "value_low", "value_high"))):
        out[name] = tuple(solved[c] for c in columns)
    return out


def _live(params: dict) -> dict[str, tuple[float, float, float]]:
    """The figures the notebook plays live: the paired value of acting last (cited when its interval
    has a width: a setter blind to the others' cards gives exactly 0) and the buy-in sweep's SD per
    match with no limit, each buy-in's bind rate and, where the paired difference has an interval,
    that difference and the rate of matches ending with a player out."""
    out = {}
    table, _ = acting_last("ofc-pineapple", params["POSITION_DECKS"], setter="fast", rng=params["SEED"])
    paired = table.set_index("metric").loc["value_of_acting_last"]
    if paired["ci_high"] > paired["ci_low"]:
        out["paired"] = tuple(paired[c] for c in ("estimate", "ci_low", "ci_high"))
    buy_ins = params["BUY_INS"]
    stakes = cpstats.sweep("ofc-pineapple(match=round)", "stakes.buy_in", ["none", *buy_ins],
                           deals=params["STAKES_HANDS"], metrics=["sd_per_match", "stakes_bind_rate", "match_out_rate"],
                           setter="fast", rng=params["SEED"]).assign(point=lambda f: f["value"].astype(str))
    rows = stakes.set_index(["point", "metric"])
    out["sd_none"] = tuple(rows.loc[("none", "sd_per_match"), c] for c in ("estimate", "ci_low", "ci_high"))
    for b in buy_ins:
        out[f"bind_{b}"] = tuple(rows.loc[(str(b), "stakes_bind_rate"), c] for c in ("estimate", "ci_low", "ci_high"))
        sd = rows.loc[(str(b), "sd_per_match")]
        if out[f"bind_{b}"][0] > 0 and sd["diff_ci_low"] == sd["diff_ci_low"]:  # a paired interval (not NaN)
            out[f"dsd_{b}"] = tuple(sd[c] for c in ("diff", "diff_ci_low", "diff_ci_high"))
            out[f"out_{b}"] = tuple(rows.loc[(str(b), "match_out_rate"), c] for c in ("estimate", "ci_low", "ci_high"))
    return out


def test_notebook_runs_in_ci_time(run):
    """Notebook 06 executes from the shipped runs in well under a minute."""
    _, claims, seconds, params = run
    assert params["USE_SHIPPED"] is True and params["CUSTOM"] is None
    assert seconds < 90, f"notebook 06 took {seconds:.0f} s"
    assert len(claims) >= 10


def test_cited_numbers_are_the_packages_own(run):
    """Every figure a sentence of notebook 06 cites, and its interval, is the value the
    package computes from the shipped runs (foul, royalty, Fantasyland, SD, rake, paired diffs)."""
    _, claims, _, params = run
    cited = figures(claims)
    expected = _expected(params)
    for name, values in expected.items():
        assert name in cited, f"notebook 06 no longer cites {name}"
        f = cited[name]
        shown = [format(f[k], f["fmt"]) for k in ("value", "low", "high") if f[k] is not None]
        want = [format(v, f["fmt"]) for v in values[:len(shown)]]
        assert shown == want, (name, shown, want)


def test_verdicts_follow_their_intervals(run):
    """A sentence says a rule moves a figure only when the paired interval excludes 0."""
    _, claims, _, _ = run
    words = {"above 0": ("rises", "more often", "pays more", "seat zero wins", "acting last wins more"),
             "below 0": ("falls", "less often", "pays less", "seat zero loses", "acting last wins less"),
             "holds 0": ("does not move measurably", "cannot be told apart", "neither seat", "cannot tell")}
    checked = 0
    for c in claims:
        for name, f in c["figures"].items():
            if name in ("gap", "more", "stay_a", "foul_no_fl", "mean", "pos_value", "paired") or name.startswith("dsd_"):
                assert any(w in c["text"] for w in words[f["claim"]]), (name, f["claim"], c["text"])
                checked += 1
    assert checked >= 7


def test_position_and_stakes_sections_come_before_your_own_rule(run):
    """The position section (the button, the run's and the paired value of acting last, seat 0 by
    symmetry) and the table stakes section (the buy-in sweep) precede "Your own rule", and their
    sizes are parameters of the first cell."""
    nb, claims, _, params = run
    heads = [c.source.splitlines()[0] for c in nb.cells if c.cell_type == "markdown"]
    order = [next(i for i, h in enumerate(heads) if h.startswith(title)) for title in
             ("## Position: the button", "## Table stakes and matches", "## Your own rule")]
    assert order == sorted(order), heads
    assert all(isinstance(params[k], int) and params[k] > 0 for k in ("POSITION_DECKS", "STAKES_HANDS"))
    cited = figures(claims)
    assert {"pos_value", "pos_last", "pos_first", "mean", "sd_none"} <= set(cited)
    assert all(f"bind_{b}" in cited for b in params["BUY_INS"])
    texts = " ".join(c["text"] for c in claims)
    assert "zero by symmetry" in texts and "acting last is worth" in texts


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_the_notebook_passes_the_story_notebooks_checks(run, check):
    nb, claims, seconds, _ = run
    check((NOTEBOOK, nb, claims, seconds))
