"""The PAR sheet's sensitivity section (CASINO-MATH, "A PAR sheet", 8): the rules it sweeps,
its table and charts, and a sheet that leaves the caller's matplotlib backend and figures alone.

Runs are small and set by greedy (a baseline the sheet names as such) except one ev sheet with
``quick_tables``; users get ev and 20,000 deals a point by default.
"""

import shutil
import subprocess
import sys

import numpy as np
import pytest

from helpers import ROOT

import cpstats
from cpstats.apps.par import par_sheet
from cpstats.apps.par.sensitivity import parameters, unmoved
from cpstats.thirteen.par.sweeps import around, default_parameters
from cpstats.thirteen.sweep import METRIC_LABELS
from cpstats.errors import OptionError
from cpstats.workbench import simulate
from cpstats.engine.points import sweep_variants


@pytest.fixture(scope="module")
def raked():
    """A raked game with royalties and naturals: a charge, a rare natural (six pairs), a bonus."""
    return par_sheet("pagat-casino", result=simulate("pagat-casino", 1500, setter="greedy", rng=5),
                     rng=5, seat_deals=2, sensitivity_deals=900,
                     sensitivity={"rake.amount": [0.5, 0.25, 1.0], "naturals.six_pairs": [3, 6],
                                  "scoring.scoop_bonus": [3, 0, 6]})


def test_default_rules_are_the_variant_charge_then_two_that_move_the_setter():
    """The house charge first where there is one, then royalty, surrender, scoop bonus..."""
    keys = lambda name, strategy="ev": [k for k, _ in default_parameters(  # noqa: E731
        cpstats.load_variant(name), strategy)]
    assert keys("2-4") == ["scoring.scoop_bonus", "scoring.majority"]
    assert keys("1-6") == ["scoring.scoop_bonus", "scoring.row"]
    assert keys("pagat-casino") == ["rake.amount", "royalties.middle_full_house", "surrender"]
    # the baselines never surrender: a surrender sweep would be one game four times
    assert keys("pagat-casino", "greedy") == ["rake.amount", "royalties.middle_full_house",
                                              "scoring.scoop_bonus"]
    assert keys("banked") == ["bank.commission", "royalties.middle_full_house", "scoring.scoop_bonus"]
    assert keys("2-4(rake=percent,rake.percent=0.05)")[0] == "rake.percent"


@pytest.mark.parametrize("name", [n for n in cpstats.presets()["name"]
                                  if cpstats.get_preset(n).game == "13-card"])
def test_default_values_start_at_the_variant_and_stay_legal(name):
    """Four values a rule, the variant's own first, every one a variant the rules accept."""
    v = cpstats.get_preset(name)
    for key, values in default_parameters(v):
        assert len(values) == 4 and len(set(values)) == 4, (key, values)
        assert sweep_variants(v, key, values)[0] == v, key  # the first point is the variant
        assert all(x >= 0 for x in values)


def test_values_around_a_number():
    assert around(3, whole=True) == [3, 2, 5, 6]
    assert around(0, whole=True) == [0, 1, 2, 3]
    assert around(1, whole=True) == [1, 0, 2, 3]
    assert around(1, whole=True, positive=True) == [1, 2, 3]
    assert around(0.5, whole=False) == [0.5, 0.25, 0.75, 1.0]
    assert around(0, whole=False) == [0, 0.01, 0.03, 0.05]
    assert around(0.6, whole=False, most=1.0) == [0.6, 0.3, 0.9]


def test_table_gives_each_value_its_paired_difference_to_the_variant(raked):
    """Each row's difference is its estimate less the variant's value's, on the same deals; the
    variant's row is marked and differs by exactly 0."""
    table = raked.tables["sensitivity"]
    for (parameter, figure), rows in table.groupby(["parameter", "figure"]):
        base = rows[rows["value"].str.endswith("(this variant)")]
        assert len(base) == 1, (parameter, figure)
        assert (base[["diff", "diff_ci_low", "diff_ci_high"]].to_numpy() == 0).all()
        assert base["diff_note"].iloc[0] == "the variant's value"
        np.testing.assert_allclose(rows["diff"], rows["estimate"] - base["estimate"].iloc[0], atol=1e-12)
    sd = table[(table["parameter"] == "Scoop bonus (units)") & table["figure"].str.startswith("SD")]
    shown = sd[~sd["value"].str.endswith("(this variant)")]
    # the points share their deals: the paired interval is far narrower than the estimates'
    assert ((shown["diff_ci_high"] - shown["diff_ci_low"]) < 0.5 * (shown["ci_high"] - shown["ci_low"])).all()
    assert list(table["parameter"].unique()) == ["Rake or time fee (units)",
                                                 "Natural six pairs pays (units)",
                                                 "Scoop bonus (units)"]


def test_a_difference_on_too_few_deals_has_no_interval_and_says_so(raked):
    """Six pairs are rare: 900 deals hold too few (8 of 30 batches) to give the SD's change an
    interval when the natural pays 6 rather than 3."""
    table = raked.tables["sensitivity"]
    rows = table[(table["parameter"] == "Natural six pairs pays (units)") & (table["value"] == "6")]
    sd = rows[rows["figure"].str.startswith("SD")].iloc[0]
    assert sd["diff"] > 0 and np.isnan(sd["diff_ci_low"]) and np.isnan(sd["diff_ci_high"])
    assert sd["diff_note"] == "too few events: about 1,177 deals a point would give an interval"


def test_figures_a_rule_never_moves_are_named_not_tabled(raked):
    """A fixed rake moves neither the SD (before or after the charge: an equal share a seat) nor
    the scoop rate: one sentence says so."""
    table, note = raked.tables["sensitivity"], raked.sections[7].tables[0].note
    assert set(unmoved(raked.sweeps["rake.amount"])) == {"sd", "sd_after_charges", "scoop_rate"}
    rake = table[table["parameter"] == "Rake or time fee (units)"]
    assert list(rake["figure"].unique()) == [METRIC_LABELS["rake_per_hand"]]
    assert note.startswith("Figures left out of the table and the charts because they do not change with the "
                           "rule in these runs (identical on every deal at every value): rake or time fee (SD per "
                           "hand, before house charges, scoop rate, SD per hand after house charges); ")


def test_section_states_setter_deals_and_intervals(raked, tmp_path):
    """The section names the setter (a baseline here), the deals a point and the interval, on
    the sheet and in the PDF, between the session bands and the methodology, with a chart a rule."""
    section = raked.sections[7]
    assert section.title == "8. Sensitivity" and raked.sections[8].title == "9. Methodology"
    text = " ".join(section.paragraphs)
    assert "900 deals on the same seed" in text and "greedy, a baseline" in text
    assert "95% paired interval" in text
    assert section.charts == ["sweep:rake.amount", "sweep:naturals.six_pairs",
                              "sweep:scoring.scoop_bonus"]
    path = raked.to_pdf(tmp_path / "par.pdf")
    if shutil.which("pdftotext"):
        pdf = " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                                      check=True).stdout.split())
        order = [pdf.index(w) for w in ("7. Session bands", "8. Sensitivity", "Figures across each rule's range",
                                        "9. Methodology")]
        assert order == sorted(order)
        assert "too few events" in pdf and "the variant's value" in pdf


def test_ev_sheet_trains_tables_only_for_rules_that_move_ev(quick_tables):
    """With ev a scoop bonus plays tables trained for each point, a rake the variant's own."""
    v = "2-4(rake=percent,rake.percent=0.05)"
    sheet = par_sheet(v, result=simulate(v, 600, rng=3), rng=3, sensitivity_deals=600,
                      sensitivity=[("rake.percent", [0.05, 0.1]), ("scoring.scoop_bonus", [0, 2])])
    assert all("tables trained for 2-4," in s for s in sheet.sweeps["rake.percent"].attrs["setters"])
    assert "scoop_bonus=2" in sheet.sweeps["scoring.scoop_bonus"].attrs["setters"][1]
    text = " ".join(sheet.sections[7].paragraphs)
    assert "scoop bonus: each point plays ev tables trained for its own rules" in text
    assert "rake" not in text.split("scoop bonus:")[1]


def test_no_sensitivity_and_bad_options():
    result = simulate("2-4", 300, setter="greedy", rng=1)
    sheet = par_sheet("2-4", result=result, sensitivity=False)
    assert sheet.sweeps == {} and "sensitivity" not in sheet.tables
    assert sheet.sections[7].paragraphs == ["Not run for this sheet (sensitivity=False)."]
    with pytest.raises(OptionError, match="sensitivity='scoop' is invalid: True, False, or a dict"):
        par_sheet("2-4", result=result, sensitivity="scoop")
    with pytest.raises(OptionError, match="parameter='scoop' is invalid"):
        par_sheet("2-4", result=result, sensitivity={"scoop": [1, 2]})
    with pytest.raises(OptionError, match="sensitivity_deals=1 is invalid"):
        par_sheet("2-4", result=result, sensitivity_deals=1)
    assert parameters(None, cpstats.get_preset("2-4")) == parameters(False, cpstats.get_preset("2-4")) == []
    assert parameters(True, cpstats.get_preset("2-4")) is None  # the game's defaults


def test_charts_are_figures_outside_pyplot(raked):
    """Every chart of the sheet is a Figure pyplot does not hold: a caller's session keeps only
    its own figures, and the one it had open stays open."""
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    plt.close("all")
    mine = plt.figure()
    try:
        for section in raked.sections:
            for name in section.charts:
                assert isinstance(raked.chart(name), Figure)
        assert plt.get_fignums() == [mine.number]
    finally:
        plt.close(mine)


def test_rendering_leaves_the_backend_alone(tmp_path):
    """A session that chose a backend (svg here) keeps it after importing and writing a sheet:
    the sheet's modules never call ``matplotlib.use``. In a fresh interpreter, so that the
    import itself is tested."""
    code = f"""
import matplotlib
matplotlib.use("svg")
import matplotlib.pyplot as plt
from cpstats.apps.par import par_sheet
from cpstats.workbench import simulate
sheet = par_sheet("2-4", result=simulate("2-4", 300, setter="greedy", rng=1), rng=1,
                  sensitivity={{"scoring.scoop_bonus": [0, 1]}}, sensitivity_deals=300,
                  out={str(tmp_path)!r})
assert matplotlib.get_backend() == "svg", matplotlib.get_backend()
assert plt.get_fignums() == [], plt.get_fignums()
print("ok")
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]
    assert (tmp_path / "par.pdf").read_bytes().startswith(b"%PDF")
