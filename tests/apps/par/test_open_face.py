"""The open-face PAR sheet (cpstats.ofc.par, ``cpstats.par_sheet``, ``cpstats par``): every section,
outcomes that add up, the worked hand, figures that agree with the run, the variant's pace, and what
it says when the street models cannot be read. Small runs on fixed seeds: every interval must hold
its estimate."""

from __future__ import annotations

import hashlib
import shutil
import subprocess

import matplotlib
import pandas as pd
import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.ofc.par import sheet as ofc_par
from cpstats.errors import OptionError
from cpstats.ofc.settlement import settle_hands
from cpstats.ofc.street_values import SHIPPED_PATH
from cpstats.rules.house import HANDS_PER_HOUR, Rake

SECTIONS = ["1. The rules", "2. The strategy assumed", "3. Outcomes", "4. Royalties", "5. Fantasyland",
            "6. Position and the button", "7. Headline figures", "8. Operator economics", "9. Session bands",
            "10. Sensitivity", "11. Methodology"]


@pytest.fixture(scope="module")
def sheet(tmp_path_factory):
    out = tmp_path_factory.mktemp("ofc-par")
    backend = matplotlib.get_backend()
    # greedy places fast; the sheet names it a baseline (rollout's sheet: the command-line test)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ofc_par, "STRENGTH_DEALS", 4)  # the strength match, a rollout player: kept small
        made = cpstats.par_sheet("ofc-pineapple", deals=64, rng=3, out=out, setter="greedy", sensitivity=False)
    assert matplotlib.get_backend() == backend  # rendering leaves the caller's backend alone
    return made, out


def _registered(monkeypatch, **views):
    """Every game's runs as registered, open face's views replaced by ``views``."""
    import dataclasses

    import cpstats.apps.par

    real = cpstats.apps.par.runs_of

    def runs_of(v):
        runs = real(v)
        if v.game != cpstats.ofc.GAME.name:
            return runs
        return dataclasses.replace(runs, views=dataclasses.replace(runs.views, **views))

    monkeypatch.setattr(cpstats.apps.par, "runs_of", runs_of)


def test_par_sheet_dispatches_through_the_registry(monkeypatch):
    """cpstats.par_sheet hands an open-face variant to the sheet builder its game registered (its
    ``par_sheet`` view) with the verb's options, the setter resolved, and fills the template with
    what it returns."""
    import cpstats.apps.par

    seen = {}
    _registered(monkeypatch, par_sheet=lambda v, **kw: seen.update(v=v, **kw) or "content")
    monkeypatch.setattr(cpstats.apps.par, "fill", lambda content, progress: (content, progress.unit))
    assert cpstats.par_sheet("ofc-pineapple(players=3)", deals=10, rng=1) == ("content", "hands")
    assert str(seen["v"]) == "ofc-pineapple(players=3)" and seen["deals"] == 10 and seen["rng"] == 1
    assert seen["setter"] == cpstats.FastPolicy()  # the game's setter for bulk runs
    # the sweeps the verb asks for by default are the game's par_sweeps, for the setter that plays them
    expected = ofc_par.sweeps_.default_parameters(seen["v"])
    assert seen["sweeps"](seen["setter"]) == expected and [k for k, _ in expected] == [
        "rake.percent", "fantasyland.cards", "royalties.front.QQ"]


def test_a_game_without_a_sheet_is_one_line(monkeypatch):
    """A game that registers no sheet builder is refused in one line naming the game, before
    anything runs."""
    _registered(monkeypatch, par_sheet=None)
    with pytest.raises(OptionError, match=r"^the open-face game has no PAR sheet$"):
        cpstats.par_sheet("ofc-pineapple", deals=10)


def test_the_apps_sheet_package_names_no_game():
    """The rendering knows no game: no module of cpstats/apps/par names the package of a game that
    registers a sheet (read from the registry)."""
    from helpers import PACKAGE

    from cpstats.engine.registry import GAMES

    builders = [g.runs.views.par_sheet for g in GAMES.values() if g.runs.views.par_sheet is not None]
    packages = {b.__module__.split(".")[1] for b in builders if b.__module__.startswith("cpstats.")}
    assert len(packages) >= 2, packages  # both games' sheets
    for path in (PACKAGE / "apps" / "par").glob("*.py"):
        text = path.read_text()
        assert not [p for p in packages if f"cpstats.{p}" in text], path.name


def test_html_and_pdf_name_every_section(sheet):
    s, out = sheet
    html = (out / "par.html").read_text()
    for title in SECTIONS:
        assert f"<h2>{title}</h2>" in html
    for caption in ("Worked hand: each pair settled row by row", "Measured strength", "Royalties by row "
                    "and hand", "Outcomes per pair of players", "Row results per pair of players",
                    "Typical charges at this table", "Session bands"):
        assert caption in html
    assert html.count("<img alt=") == 4  # no sweeps: the sensitivity section says it was not run
    assert "placed by greedy (a baseline: a weak field, not the figures of good play)" in html
    assert s.footer.endswith("placed by greedy, a baseline")
    assert [sec.title for sec in s.sections] == SECTIONS
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out / "par.pdf"), "-"], capture_output=True, text=True,
                              check=True).stdout
        for title in SECTIONS:
            assert title in text


def test_every_interval_holds_its_estimate(sheet):
    s, _ = sheet
    checked = 0
    for key, frame in s.tables.items():
        for est in ("estimate", "probability", "frequency", "mean", "per_seat_hour"):
            if est in frame and "ci_low" in frame:
                # 64 hands give every batch two, so even the SD has its interval; only a figure
                # resting on too few hands (greedy rarely reaches Fantasyland) has none, and says so
                few = frame.get("method", pd.Series("", index=frame.index)).eq("too few hands")
                ok = (frame["ci_low"] <= frame[est] + 1e-12) & (frame[est] <= frame["ci_high"] + 1e-12)
                assert (ok | few).all() and frame.loc[few, "ci_low"].isna().all(), key
                checked += 1
    assert checked == 9  # the position table too (the button moves by default)
    shares = s.tables["charge_models"]
    assert ((shares["share_ci_low"] <= shares["share_of_gross_wins"] + 1e-12)
            & (shares["share_of_gross_wins"] <= shares["share_ci_high"] + 1e-12)).all()


def test_outcomes_add_up_and_the_game_is_zero_sum(sheet):
    """A pair's outcomes cover every hand once from each side: probabilities add to 1 and the
    contributions to the mean to 0; each row's four results add to 1."""
    s, _ = sheet
    pairs = s.tables["pair_outcomes"]
    assert pairs["probability"].sum() == pytest.approx(1.0)
    assert pairs["contribution_to_mean"].sum() == pytest.approx(0.0, abs=1e-9)
    assert pairs["count"].sum() == 64 * 2  # 64 hands, two ordered pairs heads-up
    rows = s.tables["row_results"]
    assert rows.groupby("row")["probability"].sum().to_numpy() == pytest.approx([1, 1, 1])
    fouls = pairs.set_index("description")["probability"]
    assert fouls["own board fouls (scooped)"] == fouls["the opponent's board fouls (a scoop)"]


def test_the_worked_hand_settles_as_the_engine_does(sheet):
    s, _ = sheet
    pairs, net = s.tables["example_pairs"], s.tables["example_net"]
    total = pairs[pairs["item"] == "total"]["points"].iloc[0]
    assert net["net"].tolist() == [total, -total]
    boards = s.tables["example_boards"]
    assert len(boards) == 6 and set(boards["row"]) == {"front", "middle", "back"}
    text = [" / ".join(boards[boards["seat"] == p]["cards"]) for p in (0, 1)]
    assert settle_hands("ofc-pineapple", [text]).net[0].tolist() == net["net"].tolist()


def test_royalties_fantasyland_and_headline_agree_with_the_result(sheet):
    s, _ = sheet
    f = s.result.figures().set_index("metric")
    roy = s.tables["royalties"]
    for row in ("front", "middle", "back"):
        paid = roy[roy["row"] == row]["paid_per_hand"].sum()
        assert paid == pytest.approx(f.at[f"royalty_{row}", "estimate"])
    head = s.tables["headline"].set_index("name")
    sd = f.at["sd", "estimate"]
    assert head.at["volatility_index", "estimate"] == pytest.approx(1.645 * sd)
    assert head.at["hit_frequency", "estimate"] == f.at["hit_frequency", "estimate"]
    assert head.at["push_rate", "estimate"] == f.at["push_rate", "estimate"]
    assert head.at["sd_after_charges", "estimate"] == f.at["sd_after_charges", "estimate"]
    fl = s.tables["fantasyland"].set_index("name")
    assert fl.at["fl_entry_rate", "estimate"] == pytest.approx(f.at["fl_entry_rate", "estimate"])
    assert s.tables["strength"]["field"].tolist() == ["greedy", "random", "rollout-v1", "rollout-exact"]


def test_hourly_figures_use_the_variants_pace(sheet):
    """One hands-per-hour default: the sheet's is the variant's (HANDS_PER_HOUR without a time
    rake), and the time collection costs exactly its fee a seat-hour at that pace."""
    s, _ = sheet
    assert s.hands_per_hour == HANDS_PER_HOUR == Rake().hands_per_hour == 30
    charges = s.tables["charge_models"].set_index("charge")
    assert charges.iloc[0]["per_seat_hour"] == pytest.approx(6.0)


@pytest.mark.parametrize("options, match", [
    ({"setter": "best"}, r"setter='best' is invalid for an open-face variant: allowed are ev"),
    ({"hands_per_hour": 0}, r"hands_per_hour=0 is invalid"),
    ({"deals": 1}, r"deals=1 is invalid: a whole number >= 2"),
    ({"sensitivity": {"royalties.front.QQ": [7, 7]}}, r"royalties.front.QQ=7 is given twice"),
])
def test_bad_sheet_options_are_one_line(options, match):
    with pytest.raises(OptionError, match=match):
        cpstats.par_sheet("ofc-pineapple", **options)


def test_a_result_of_another_variant_or_without_rows_is_refused():
    run = cpstats.simulate("ofc-pineapple", 4, setter="random", rng=1)
    with pytest.raises(OptionError, match=r"result is of ofc-pineapple, not of ofc-classic"):
        cpstats.par_sheet("ofc-classic", result=run)
    with pytest.raises(OptionError, match=r"this result has no rows"):
        cpstats.par_sheet("ofc-pineapple", result=run)


def test_par_cli_for_open_face(tmp_path, capsys, no_strength_match):
    """``cpstats par`` of an open-face preset with ``--setter ev``: rollout places the boards, and the
    sheet says which street models it read (the sweeps and the strength match: other tests)."""
    assert main(["par", "ofc-pineapple", "--deals", "4", "--setter", "ev", "--no-sensitivity", "--quiet",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PAR sheet of ofc-pineapple (4 hands, rollout (strong play: rollouts with an exact "
                          "endgame and learned street values)) written")
    html = (tmp_path / "par.html").read_text()
    assert (tmp_path / "par.pdf").stat().st_size > 0 and "11. Methodology" in html
    digest = hashlib.sha256(SHIPPED_PATH.read_bytes()).hexdigest()[:12]
    assert "street models learned from exact-endgame self-play over rule draws around the presets" in html
    assert f"Street models {digest} (street_models.npz)" in html and "inside its trained ranges" in html


def test_the_sheet_claims_no_strength_outside_the_trained_ranges():
    """A learned setter's sheet says "strong play" only where the rules lie inside the street
    models' trained ranges; a baseline keeps its name either way."""
    from types import SimpleNamespace

    from cpstats.ofc.placement import OUTSIDE_NOTE

    def words(strategy, in_range):
        run = SimpleNamespace(metadata={"street_models": {"in_range": in_range}})
        return ofc_par.Sheet.setter_words.fget(SimpleNamespace(strategy=strategy, result=run))

    assert "strong play" in words("fast", True) and OUTSIDE_NOTE not in words("rollout", True)
    assert words("fast", False) == f"fast ({OUTSIDE_NOTE})" and "strong play" not in words("rollout", False)
    assert "a baseline" in words("greedy", False)


def test_a_sheet_without_readable_street_models_says_how_it_was_played(tmp_path, monkeypatch,
                                                                      no_strength_match):
    """No readable street-model file: the sheet says the earlier streets were decided by the
    rollouts alone, and its strategy table says which models (none). A rake variant: the play is
    the preset's, whose entry value ships, so no rule set's entry value is solved (about 10 s)."""
    import warnings

    from cpstats.ofc import street_values

    monkeypatch.setattr(street_values, "SHIPPED_PATH", tmp_path / "missing.npz")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", street_values.StreetModelWarning)
        made = cpstats.par_sheet("ofc-pineapple(rake=percent)", deals=4, rng=3, setter="ev",
                                 sensitivity=False)
    text = " ".join(made.sections[1].paragraphs)
    assert "the street models cannot be read" in text and "valued by street models learned" not in text
    assert "No street models (missing.npz cannot be read)" in text
    rows = made.tables["strategy"].set_index("item")["value"]
    assert rows["Street models (SHA-256, first 12 digits)"] == "none (plays as rollout-exact)"
