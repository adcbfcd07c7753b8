"""The open-face PAR sheet's sensitivity section: the house charge and two rule numbers that move
play, a step either side, paired on the sheet's own deals with its play, every change with its
interval, rendered by the section the 13-card sheet shares. The strength match is a stand-in here
(``no_strength_match_in_module``): these tests are about the sweeps."""

from __future__ import annotations

import re

import pandas as pd
import pytest

import cpstats
from cpstats.apps.par.sensitivity import sensitivity_table
from cpstats.engine.games import runs_of
from cpstats.errors import OptionError
from cpstats.ofc.par import sheet as ofc_par
from cpstats.ofc.par import sweeps as S
from cpstats.ofc import simulation as sim
from cpstats.ofc.rules import StayRule
from cpstats.ofc.sweep import OFC_METRIC_LABELS
from cpstats.engine.registry import get_preset

SEED = 12
HANDS = 60
#: The module sheet's variant and sweeps: the charge (the sheet's hands charged again) and two rules
#: that move play, whose points play as the shipped presets and runs do (their Fantasyland entry
#: values are shipped: a point of other rules solves its own first, about 20 s of CPU each).
VARIANT = "ofc-pineapple(rake=percent,rake.percent=0.05)"
SWEEPS = {"rake.percent": [0.05, 0.0, 0.025], "fantasyland.cards": ["14/14/14/14", "14/15/16/17"],
          "fantasyland.stay": ["B", "A"]}
pytestmark = pytest.mark.usefixtures("no_strength_match_in_module")


@pytest.mark.parametrize("variant, expected", [
    ("ofc-pineapple", [("rake.percent", [0.0, 0.025, 0.05]),
                       ("fantasyland.cards", ["14/14/14/14", "13/13/13/13", "15/15/15/15"]),
                       ("royalties.front.QQ", [7, 6, 8])]),
    ("ofc-classic", [("rake.percent", [0.0, 0.025, 0.05]),
                     ("fantasyland.cards", ["13/13/13/13", "15/15/15/15", "14/14/14/14"]),
                     ("royalties.front.QQ", [7, 6, 8])]),
    ("ofc-pineapple-progressive(rake=percent,rake.percent=0.05)",
     [("rake.percent", [0.05, 0.04, 0.06]), ("fantasyland.cards", ["14/15/16/17", "13/14/15/16", "15/16/17/17"]),
      ("royalties.front.QQ", [7, 6, 8])]),
    ("ofc-pineapple(rake=time,rake.amount=4,fantasyland.cards=0/0/0/0,royalties.front.QQ=0)",
     [("rake.amount", [4.0, 3.0, 5.0]), ("royalties.front.QQ", [0, 1, 2])]),
])
def test_the_default_numbers_are_the_charge_the_cards_and_the_front_royalty(variant, expected):
    v = cpstats.load_variant(variant)
    specs = S.default_parameters(v)
    assert specs == expected
    for key, values in specs:  # every point is a variant the rules take
        base = S.charge_base(v, key)
        assert [str(base.replace(**{key: x})) for x in values][0] in (str(v), str(base))


#: The progress lines the module's sheet told as it was built.
LINES: list[str] = []


@pytest.fixture(scope="module")
def sheet(tmp_path_factory, no_strength_match_in_module):
    out = tmp_path_factory.mktemp("ofc-sensitivity")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ofc_par, "STRENGTH_DEALS", 2)
        made = cpstats.par_sheet(VARIANT, deals=HANDS, rng=SEED, setter="greedy", out=out,
                                 sensitivity=SWEEPS, progress=LINES.append)
    return made, out


def test_every_sweep_starts_from_the_sheets_own_run(sheet):
    s, _ = sheet
    assert list(s.sweeps) == list(SWEEPS)
    own = s.result.figures().set_index("metric")
    for key, frame in s.sweeps.items():
        assert frame.attrs["deals"] == HANDS and frame.attrs["entropy"] == str(SEED)
        first = frame[frame["value"] == frame["value"].iloc[0]].set_index("metric")
        for metric in ("foul_rate", "fl_entry_rate", "royalty"):
            assert first.at[metric, "estimate"] == own.at[metric, "estimate"], (key, metric)
            assert first.at[metric, "diff"] == 0


def test_the_charges_points_are_the_sheets_hands_charged_again_exactly(sheet):
    """A charge never moves play: its points' play figures never differ (left out of the table, named
    in its note), and each point's rake equals a live run of that point's rules on the same deals."""
    s, _ = sheet
    frame = s.sweeps["rake.percent"]
    moved = frame[frame["metric"].isin(["foul_rate", "fl_entry_rate", "royalty"])]
    assert (moved["diff"] == 0).all() and (moved["diff_events"].fillna(0) == 0).all()
    live = cpstats.simulate("ofc-pineapple(rake=percent,rake.percent=0.025)", HANDS, setter="greedy", rng=SEED)
    f = live.figures().set_index("metric")
    row = frame[(frame["value"] == 0.025) & (frame["metric"] == "rake_per_seat_per_hand")].iloc[0]
    assert (row["estimate"], row["ci_low"], row["ci_high"]) == pytest.approx(
        (f.at["rake_per_seat_per_hand", "estimate"], f.at["rake_per_seat_per_hand", "ci_low"], f.at["rake_per_seat_per_hand", "ci_high"]),
        rel=1e-12)
    table = s.tables["sensitivity"]
    rake = table[table["parameter"] == "Rake, share of the points won"]
    assert {OFC_METRIC_LABELS["rake_per_seat_per_hand"], OFC_METRIC_LABELS["rake_share"]} <= set(rake["figure"])
    assert not {OFC_METRIC_LABELS["foul_rate"], OFC_METRIC_LABELS["royalty"]} & set(rake["figure"])
    assert "rake, share of the points won (foul rate, Fantasyland entry" in s.sections[9].tables[0].note


def test_the_rule_points_are_played_paired_with_intervals(sheet):
    s, _ = sheet
    table = s.tables["sensitivity"]
    cards = table[table["parameter"] == "Fantasyland cards for QQ/KK/AA/trips"]
    assert list(dict.fromkeys(cards["value"])) == ["14/14/14/14 (this variant)", "14/15/16/17"]
    royalty = cards[cards["figure"] == OFC_METRIC_LABELS["royalty"]].set_index("value")
    assert royalty.at["14/14/14/14 (this variant)", "diff"] == 0
    checked = 0
    for frame in (cards, table[table["parameter"] == s.sweeps["fantasyland.stay"].attrs["parameter_label"]]):
        for _, r in frame[~frame["value"].str.endswith("(this variant)")].iterrows():
            # a paired difference with its interval, or a note saying why not
            assert (r["diff_ci_low"] <= r["diff"] <= r["diff_ci_high"]) or r["diff_note"] in (
                "no deal differs: no interval", "too few events") or r["diff_note"].startswith("too few events: about")
            checked += 1
    assert checked >= 4


def test_the_section_is_the_shared_one_in_html_and_pdf(sheet):
    s, out = sheet
    pd.testing.assert_frame_equal(s.tables["sensitivity"], sensitivity_table(s.sweeps))  # the shared table
    assert [x.title for x in s.sections][9:] == ["10. Sensitivity", "11. Methodology"]
    html = (out / "par.html").read_text()
    assert "<h2>10. Sensitivity</h2>" in html and "a small step either side" in html
    assert html.count("data:image/png;base64") >= 3 + len(s.sweeps)
    text = " ".join(s.sections[9].paragraphs)
    assert f"Every point: {HANDS} hands on the same seed (entropy {SEED}), set by greedy" in text
    assert "charged again (a charge never moves play)" in text
    assert (out / "par.pdf").stat().st_size > 0


def test_every_tabled_sweep_is_charted_with_every_figure_it_tables(sheet):
    """One chart a swept rule of the table, in the table's order, in the HTML too, its panels the
    figures the table gives that rule."""
    s, out = sheet
    section = s.sections[9]
    table = s.tables["sensitivity"]
    tabled = list(dict.fromkeys(table["parameter"]))
    assert len(tabled) == len(s.sweeps) == len(SWEEPS)
    assert section.charts == [f"sweep:{key}" for key in s.sweeps]
    html = (out / "par.html").read_text()
    for key, label in zip(s.sweeps, tabled):
        assert s.sweeps[key].attrs["parameter_label"] == label
        assert f"alt='sweep:{key} chart'" in html
        fig = s.chart(f"sweep:{key}")
        panels = {ax.get_title() for ax in fig.axes if ax.get_visible()}
        assert panels == set(table.loc[table["parameter"] == label, "figure"]), key


def test_the_unmoved_note_says_in_plain_words_why_figures_are_left_out(sheet):
    s, _ = sheet
    note = s.sections[9].tables[0].note
    assert note.startswith("Figures left out of the table and the charts because they do not change with "
                           "the rule in these runs (identical on every deal at every value): ")
    assert "Not shown" not in note


def test_the_build_tells_each_stage_with_the_hands_so_far_and_the_time_left(sheet):
    """The run, each sweep's points (the sheet's own hands read, not played again), the strength
    table, the tables and each file, in order; after the first played stage, the hands so far
    and an estimate of the time left."""
    s, out = sheet
    assert LINES[0] == f"the run, placed by greedy: {HANDS} hands"
    points = [line for line in LINES if line.startswith("the sensitivity sweeps: ")]
    assert len(points) == sum(len(f["value"].unique()) for f in s.sweeps.values())
    assert points[0] == "the sensitivity sweeps: rake.percent=0.05, point 1 of 3: the sheet's own hands"
    assert points[1] == "the sensitivity sweeps: rake.percent=0.0, point 2 of 3: the sheet's own hands, charged again"
    played = [line for line in points if "played so far" in line]
    assert played and all(re.search(r": \d+ hands \([\d,]+ played so far in \d+ (s|min); about \d+ (s|min) left\)$",
                                    line) for line in played), played
    assert played[0].startswith("the sensitivity sweeps: fantasyland.cards=14/15/16/17, point 2 of 2: "
                                f"{HANDS} hands ({HANDS} played")
    strength = LINES.index(next(line for line in LINES if line.startswith("the strength table: greedy against 4 "
                                                                           "fields, 2 hands a seat")))
    assert LINES[strength + 1:] == ["the tables and charts", f"writing {out / 'par.html'}",
                                    f"writing {out / 'par.pdf'}"]


def test_sensitivity_deals_of_another_length_plays_every_point_afresh():
    made = cpstats.par_sheet(VARIANT, deals=40, rng=SEED, setter="greedy", sensitivity=SWEEPS,
                             sensitivity_deals=30)
    assert made.result.deals == 40 and list(made.sweeps) == list(SWEEPS)
    assert {frame.attrs["deals"] for frame in made.sweeps.values()} == {30}
    live = cpstats.simulate(VARIANT, 30, setter="greedy", rng=SEED).figures().set_index("metric")
    for frame in made.sweeps.values():  # every sweep's own point played afresh: a run of 30 hands
        first = frame[frame["value"] == frame["value"].iloc[0]].set_index("metric")
        assert first.at["royalty", "estimate"] == live.at["royalty", "estimate"]


def test_the_verb_sweeps_open_face_by_default(monkeypatch):
    """The verb's default sweeps reach the open-face sheet's sweeps: the game's defaults."""
    seen = {}
    monkeypatch.setattr(S, "run_sensitivity", lambda v, result, net, specs, **kw: seen.update(specs=specs) or {})
    cpstats.par_sheet("ofc-pineapple", deals=20, setter="greedy", rng=1)
    assert [k for k, _ in seen["specs"]] == ["rake.percent", "fantasyland.cards", "royalties.front.QQ"]
    assert runs_of("ofc-pineapple").views.par_sweeps is S.default_parameters


def test_a_point_played_by_other_models_stops_the_section_in_one_line(monkeypatch):
    """One point reading another street-model file makes the section one line, not a table whose
    differences would measure the play instead of the rule."""
    real = sim.model_identity

    def identity(v, path=None):
        if v.fantasyland.stay is StayRule.A:  # fantasyland.stay=A reads another file
            return {"file": "other.npz", "digest": "0123456789ab", "in_range": True, "note": None}
        return real(v, path)

    digest = real(get_preset("ofc-pineapple"))["digest"]
    monkeypatch.setattr(sim, "model_identity", identity)
    with pytest.raises(OptionError, match=rf"^this sheet's sensitivity section would mix two plays: 'B' is played by "
                                          rf"fast, street models {digest} and 'A' by fast, street models 0123456789ab"):
        cpstats.par_sheet("ofc-pineapple", deals=8, rng=1, setter="fast", sensitivity={"fantasyland.stay": ["B", "A"]})


def test_the_sections_one_play_check_can_fail_across_sweeps():
    """The section's own check reads every sweep's plays: two sweeps of other plays are one line."""
    from cpstats.ofc.simulation import check_one_play

    plays = ["fast, street models aaaaaaaaaaaa", "fast, street models aaaaaaaaaaaa", "greedy"]
    with pytest.raises(OptionError, match=r"^this sheet's sensitivity section would mix two plays"):
        check_one_play(plays, ["this sheet's run", "rake.percent=0", "royalties.front.QQ=8"],
                       "this sheet's sensitivity section")
