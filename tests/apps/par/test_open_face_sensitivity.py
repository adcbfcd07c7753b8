"""The open-face PAR sheet's sensitivity section (issue 37, "Deliver 5"): the house charge and two rule
numbers that move play, a step either side, paired on the sheet's own deals with its play, every
change with its interval, rendered by the section the 13-card sheet shares."""

from __future__ import annotations

import re

import pytest

import cpstats
from cpstats.apps.par import open_face as ofc_par
from cpstats.apps.par import open_face_sensitivity as S
from cpstats.apps.par.base import ParSheet
from cpstats.errors import OptionError
from cpstats.ofc import simulation as sim
from cpstats.engine.registry import get_preset

SEED = 12
HANDS = 60


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
def sheet(tmp_path_factory):
    out = tmp_path_factory.mktemp("ofc-sensitivity")
    made = ofc_par.ofc_par_sheet("ofc-pineapple", deals=HANDS, rng=SEED, setter="greedy", strength_deals=2,
                                 sensitivity=True, out=out, progress=LINES.append)
    return made, out


def test_every_sweep_starts_from_the_sheets_own_run(sheet):
    s, _ = sheet
    assert list(s.sweeps) == ["rake.percent", "fantasyland.cards", "royalties.front.QQ"]
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
    live = cpstats.simulate("ofc-pineapple(rake=percent,rake.percent=0.05)", HANDS, setter="greedy", rng=SEED)
    f = live.figures().set_index("metric")
    row = frame[(frame["value"] == 0.05) & (frame["metric"] == "rake_per_hand")].iloc[0]
    assert (row["estimate"], row["ci_low"], row["ci_high"]) == pytest.approx(
        (f.at["rake_per_hand", "estimate"], f.at["rake_per_hand", "ci_low"], f.at["rake_per_hand", "ci_high"]),
        rel=1e-12)
    table = s.tables["sensitivity"]
    rake = table[table["parameter"] == "Rake, share of the points won"]
    assert {"Rake per hand, per seat (units)", "Rake over the points won"} <= set(rake["figure"])
    assert not {"Foul rate (per board)", "Royalties per board (units)"} & set(rake["figure"])
    assert "rake, share of the points won (foul rate, Fantasyland entry" in s.sections[8].tables[0].note


def test_the_rule_points_are_played_paired_with_intervals(sheet):
    s, _ = sheet
    table = s.tables["sensitivity"]
    qq = table[table["parameter"] == "Royalty for QQ in the front (units)"]
    assert list(dict.fromkeys(qq["value"])) == ["6", "7 (this variant)", "8"]
    royalty = qq[qq["figure"] == "Royalties per board (units)"].set_index("value")
    assert royalty.at["7 (this variant)", "diff"] == 0
    for value in ("6", "8"):  # a paired difference with its interval, or a note saying why not
        r = royalty.loc[value]
        assert (r["diff_ci_low"] <= r["diff"] <= r["diff_ci_high"]) or r["diff_note"] in (
            "no deal differs: no interval", "too few events") or r["diff_note"].startswith("too few events: about")
    cards = table[table["parameter"] == "Fantasyland cards for QQ/KK/AA/trips"]
    assert set(cards["value"]) == {"13/13/13/13", "14/14/14/14 (this variant)", "15/15/15/15"}


def test_the_section_is_the_shared_one_in_html_and_pdf(sheet):
    s, out = sheet
    assert type(s).sensitivity_section is ParSheet.sensitivity_section  # written once, in the base
    assert [x.title for x in s.sections][8:] == ["9. Sensitivity", "10. Methodology"]
    html = (out / "par.html").read_text()
    assert "<h2>9. Sensitivity</h2>" in html and "a small step either side" in html
    assert html.count("data:image/png;base64") >= 3 + len(s.sweeps)
    text = " ".join(s.sections[8].paragraphs)
    assert f"Every point: {HANDS} hands on the same seed (entropy {SEED}), set by greedy" in text
    assert "charged again (a charge never moves play)" in text
    assert (out / "par.pdf").stat().st_size > 0


def test_every_tabled_sweep_is_charted_with_every_figure_it_tables(sheet):
    """One chart a swept rule of the table, in the table's order, in the HTML too, its panels the
    figures the table gives that rule (the front QQ royalty's among them)."""
    s, out = sheet
    section = s.sections[8]
    table = s.tables["sensitivity"]
    tabled = list(dict.fromkeys(table["parameter"]))
    assert len(tabled) == len(s.sweeps) == 3
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
    note = s.sections[8].tables[0].note
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
    assert points[0] == "the sensitivity sweeps: rake.percent=0.0, point 1 of 3: the sheet's own hands"
    assert points[1] == "the sensitivity sweeps: rake.percent=0.025, point 2 of 3: the sheet's own hands, charged again"
    played = [line for line in points if "played so far" in line]
    assert played and all(re.search(r": \d+ hands \([\d,]+ played so far in \d+ (s|min); about \d+ (s|min) left\)$",
                                    line) for line in played), played
    assert played[0].startswith("the sensitivity sweeps: fantasyland.cards=13/13/13/13, point 2 of 3: "
                                f"{HANDS} hands ({HANDS} played")
    strength = LINES.index(next(line for line in LINES if line.startswith("the strength table: greedy against 4 "
                                                                           "fields, 2 hands a seat")))
    assert LINES[strength + 1:] == ["the tables and charts", f"writing {out / 'par.html'}",
                                    f"writing {out / 'par.pdf'}"]


def test_sensitivity_deals_of_another_length_plays_every_point_afresh():
    made = ofc_par.ofc_par_sheet("ofc-pineapple", deals=40, rng=SEED, setter="greedy", strength_deals=2,
                                 sensitivity=True, sensitivity_deals=30)
    assert made.result.deals == 40 and list(made.sweeps) == ["rake.percent", "fantasyland.cards", "royalties.front.QQ"]
    assert {frame.attrs["deals"] for frame in made.sweeps.values()} == {30}
    live = cpstats.simulate("ofc-pineapple", 30, setter="greedy", rng=SEED).figures().set_index("metric")
    qq = made.sweeps["royalties.front.QQ"]
    first = qq[qq["value"] == 7].set_index("metric")
    assert first.at["royalty", "estimate"] == live.at["royalty", "estimate"]


def test_the_verb_sweeps_open_face_by_default(monkeypatch):
    seen = {}
    monkeypatch.setattr(S, "run_sensitivity", lambda v, result, net, specs, **kw: seen.update(specs=specs) or {})
    cpstats.par_sheet("ofc-pineapple", deals=20, setter="greedy", rng=1)
    assert [k for k, _ in seen["specs"]] == ["rake.percent", "fantasyland.cards", "royalties.front.QQ"]


def test_a_point_played_by_other_models_stops_the_section_in_one_line(monkeypatch):
    """One point reading another street-model file makes the section one line, not a table whose
    differences would measure the play instead of the rule."""
    real = sim.model_identity

    def identity(v, path=None):
        if v.royalties.front_pairs[10] == 8:  # royalties.front.QQ=8 reads another file
            return {"file": "other.npz", "digest": "0123456789ab", "in_range": True, "note": None}
        return real(v, path)

    digest = real(get_preset("ofc-pineapple"))["digest"]
    monkeypatch.setattr(sim, "model_identity", identity)
    with pytest.raises(OptionError, match=rf"^this sheet's sensitivity section would mix two plays: '7' is played by "
                                          rf"fast, street models {digest} and '8' by fast, street models 0123456789ab"):
        ofc_par.ofc_par_sheet("ofc-pineapple", deals=8, rng=1, setter="fast", strength_deals=2,
                              sensitivity={"royalties.front.QQ": [7, 8]})


def test_the_sections_one_play_check_can_fail_across_sweeps():
    """The section's own check reads every sweep's plays: two sweeps of other plays are one line."""
    from cpstats.ofc.simulation import check_one_play

    plays = ["fast, street models aaaaaaaaaaaa", "fast, street models aaaaaaaaaaaa", "greedy"]
    with pytest.raises(OptionError, match=r"^this sheet's sensitivity section would mix two plays"):
        check_one_play(plays, ["this sheet's run", "rake.percent=0", "royalties.front.QQ=8"],
                       "this sheet's sensitivity section")
