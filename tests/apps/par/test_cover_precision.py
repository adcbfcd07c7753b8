"""The PAR sheet's cover and precision levels (issue 48): the cover identifies the game, the rules and
the run, states the precision asked and reached and says DRAFT below a submission's; a re-run from the
cover's seed and deals reproduces its results digest; each level's targets are met where it says so;
the 13-card naturals table gives the exact enumeration's combinations and probabilities.

The shipped levels take minutes; these tests give the levels small targets on tiny caps (as
tests/verbs/test_precision.py does) and a fast baseline setter where the play does not matter."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.apps.par.cover import reached_level, results_digest
from cpstats.apps.par.render import format_cell
from cpstats.engine.games import Precision
from cpstats.engine.registry import GAMES
from cpstats.engine.sheet import PrecisionLevel
from cpstats.errors import OptionError
from cpstats.ofc.par import sheet as ofc_par
from cpstats.thirteen.par import sheet as thirteen_par

OFC = cpstats.ofc.GAME.name
LOOSE = {"fl_entry_rate": 0.12, "foul_rate": 0.12, "royalty": 2.5}


def _designer(monkeypatch, targets: dict, most: int = 300, pilot: int = 40) -> None:
    """Open face's designer precision: ``targets`` on a tiny cap (the game's record replaced)."""
    game = GAMES[OFC]
    p = Precision(targets=targets, most=most, budget=2 * most, pilot=pilot)
    monkeypatch.setitem(GAMES, OFC, dataclasses.replace(game, runs=dataclasses.replace(game.runs, precision=p)))


def _submission(monkeypatch, targets: dict, *, most: int = 300, pilot: int = 40, strength: float | None = None,
                strength_most: int = 0) -> PrecisionLevel:
    level = PrecisionLevel("submission", targets, most, pilot, strength=strength, strength_most=strength_most)
    monkeypatch.setattr(ofc_par, "SUBMISSION", level)
    return level


def _ofc_sheet(monkeypatch, **options):
    monkeypatch.setattr(ofc_par, "STRENGTH_DEALS", 2)  # the strength match, a rollout player: kept small
    return cpstats.par_sheet("ofc-pineapple", setter="greedy", rng=9, sensitivity=False, **options)


def test_a_sheet_at_a_submissions_precision_says_so_and_meets_every_target(monkeypatch):
    """Grown to the (small) submission targets: every target met by the run's own intervals, the
    cover says "For submission" and which level was asked and reached; the run is the fixed-length
    run of its length, so the cover's re-run reproduces its digest."""
    _designer(monkeypatch, LOOSE)
    targets = {"fl_entry_rate": 0.09, "foul_rate": 0.09, "royalty": 1.8, "sd": 2.0, "hit_frequency": 0.08}
    _submission(monkeypatch, targets, most=400)
    sheet = _ofc_sheet(monkeypatch, precision="submission")
    stop, cover = sheet.precision, sheet.cover
    assert stop["reached"] and 40 < sheet.result.deals == stop["deals"] <= 400
    figures = sheet.result.figures().set_index("metric")
    for metric, width in targets.items():
        half = (figures.at[metric, "ci_high"] - figures.at[metric, "ci_low"]) / 2
        assert half <= width, metric
    assert cover.status == "For submission" and cover.status_words.startswith("For submission")
    identity = cover.identity.set_index("item")["value"]
    assert identity["Precision"] == "asked: submission; reached: submission"
    assert identity["Run"].startswith(f"seed 9, {sheet.result.deals:,} hands")
    assert "OFC-R-STANDARD" in identity["Rulebook IDs"] and identity["Software"].startswith("cpstats ")
    assert identity["Re-run"] == f"cpstats par 'ofc-pineapple' --deals {sheet.result.deals} --seed 9 --setter greedy"
    rerun = _ofc_sheet(monkeypatch, deals=sheet.result.deals)
    assert results_digest(rerun.result) == cover.digest == identity["Results digest"].split()[0]
    assert rerun.cover.status == "For submission"  # the same half-widths, whatever asked for them


def test_below_a_submissions_precision_the_cover_says_draft(monkeypatch, tmp_path):
    """The designer's precision met, a submission's not: DRAFT on the cover, in the HTML and on the
    PDF's first page, and the reached level named; the precision table prints each target."""
    _designer(monkeypatch, LOOSE)
    _submission(monkeypatch, {"royalty": 0.01})
    sheet = _ofc_sheet(monkeypatch, out=tmp_path)
    reached, half = reached_level(_content(sheet))
    assert reached == "designer" and half["royalty"] > 0.01
    assert sheet.cover.status == "DRAFT"
    assert "below a submission's precision (the designer precision is reached)" in sheet.cover.status_words
    table = sheet.cover.precision.set_index("figure")
    assert table.loc["Royalties per board", "submission target (95% half-width)"] == "±0.01"
    assert table.loc["Royalties per board", "designer target (95% half-width)"] == "±2.5"
    page = (tmp_path / "par.html").read_text()
    assert page.index("DRAFT") < page.index("1. The rules") and "Certification." in page
    assert "Analyst" in page and "Reviewer (sign-off)" in page
    assert (tmp_path / "par.pdf").read_bytes().startswith(b"%PDF")


def _content(sheet):
    """The game's content behind a filled sheet, for the cover's functions (its levels, its run)."""
    levels = ofc_par.precision_levels(sheet.variant)
    content = ofc_par.Sheet(sheet.variant, sheet.result, sheet.hands_per_hour, sheet.label, seed=sheet.seed,
                            level="designer", levels=levels, strategy="greedy")
    return content


def test_a_submission_grows_the_strength_table_until_its_fields_are_told_apart(monkeypatch):
    """The strength table's own target: a field whose interval is wider plays again on more hands,
    at most the cap; each row says its hands."""
    _designer(monkeypatch, LOOSE)
    _submission(monkeypatch, {"royalty": 2.5}, strength=4.0, strength_most=12)
    sheet = _ofc_sheet(monkeypatch, precision="submission")
    strength = sheet.tables["strength"].set_index("field")
    half = (strength["ci_high"] - strength["ci_low"]) / 2
    assert set(strength["hands"]) <= set(range(2, 13)) and strength["hands"].max() > 2
    grown = strength["hands"] > 2
    assert ((half <= 4.0) | (strength["hands"] == 12)).all()  # met, or the cap came first
    assert (half[~grown] <= 4.0).all() or not (~grown).any()
    text = " ".join(sheet.sections[1].paragraphs)
    assert "each field played until its interval is within ±4 units a hand, at most 12 hands" in text


def test_precision_and_deals_are_one_budget_and_a_level_is_named():
    with pytest.raises(OptionError, match="precision='submission' is invalid with deals="):
        cpstats.par_sheet("ofc-pineapple", deals=50, precision="submission")
    with pytest.raises(OptionError, match="precision='exact' is invalid: one of designer, submission"):
        cpstats.par_sheet("2-4", precision="exact")
    with pytest.raises(SystemExit):
        main(["par", "2-4", "--precision", "regulator"])


def test_the_13_card_levels_state_their_targets():
    """A banked game's house edge, else every seat's mean; the hit frequency and SD; a submission's
    tighter than the designer's on every figure."""
    for name, first in (("banked", ["house_edge"]), ("2-4", [f"mean_seat{k}" for k in range(4)])):
        levels = thirteen_par.precision_levels(cpstats.load_variant(name))
        designer, submission = levels["designer"], levels["submission"]
        assert list(submission.targets) == [*first, "hit_frequency", "sd"] == list(designer.targets)
        assert all(submission.targets[m] < designer.targets[m] for m in designer.targets)
        assert submission.pilot == designer.pilot == thirteen_par.DEFAULT_DEALS < submission.most
    assert thirteen_par.precision_levels(cpstats.load_variant("banked"))["submission"].targets["house_edge"] == 0.0005


def test_a_13_card_run_grown_to_a_level_is_reproduced_from_its_cover(monkeypatch):
    """A live 13-card run grown in stages to the (small) designer targets stops at a length the cover
    states; the fixed-length run of that seed and length reproduces its digest, and the cover's summary
    line gives the banked game's house edge per initial and per total wager, hit frequency and SD."""
    v = cpstats.load_variant("banked")
    level = PrecisionLevel("designer", {"house_edge": 0.03, "hit_frequency": 0.02, "sd": 0.2}, 6_000, 600)
    real = thirteen_par.precision_levels
    monkeypatch.setattr(thirteen_par, "precision_levels", lambda w: {**real(w), "designer": level})
    sheet = cpstats.par_sheet(v, setter="greedy", rng=5, sensitivity=False, seat_deals=200)
    assert sheet.precision["reached"] and 600 < sheet.result.deals <= 6_000
    identity = sheet.cover.identity.set_index("item")["value"]
    assert identity["Precision"] == "asked: designer; reached: designer"
    assert sheet.cover.status == "DRAFT"
    rerun = cpstats.par_sheet(v, setter="greedy", rng=5, sensitivity=False, seat_deals=200, deals=sheet.result.deals)
    assert results_digest(rerun.result) == sheet.cover.digest
    assert results_digest(cpstats.simulate(v, sheet.result.deals, setter="greedy", rng=6)) != sheet.cover.digest
    summary = list(sheet.cover.summary_figures["name"])
    assert summary == ["house_edge", "element_of_risk", "hit_frequency", "sd"]
    line = sheet.cover.summary_line
    assert line.startswith("House edge (per initial wager)") and "Element of risk" in line
    head = sheet.tables["headline"].set_index("name")
    shown = [format_cell(head.at["house_edge", c], "row", head.at["house_edge", "unit"])
             for c in ("estimate", "ci_low", "ci_high")]
    assert line.startswith(f"House edge (per initial wager), after house charges: {shown[0]} ({shown[1]} to {shown[2]})")


def test_the_13_card_naturals_are_exact_counts_with_the_simulated_rate_beside():
    """Combinations and probabilities equal the enumeration's (every 13-card hand counted again,
    about 10 s); pay and return follow the rules; the simulated rate is the run's held rate, within
    its interval of the exact probability (5 standard errors of a binomial on the hands dealt)."""
    from cpstats.thirteen.naturals.exact import enumerate_counts
    from cpstats.thirteen.par.figures import exact_natural_table, natural_label

    r = cpstats.simulate("banked", 4_000, setter="greedy", rng=3)
    table = exact_natural_table(r).set_index("natural")
    counts = dict(enumerate_counts(r.variant.naturals.qka_front_straight))
    tables = r.variant.kernel_tables()
    paid = [(name, float(pay)) for name, pay, rank in zip(counts, tables["natural_payout"], tables["natural_rank"])
            if rank >= 0]
    assert list(table.index) == [natural_label(name) for name, _ in paid]
    hands = r.deals * r.variant.players
    for name, pay in paid:
        row = table.loc[natural_label(name)]
        assert row["combinations"] == counts[name]
        assert row["probability"] == counts[name] / math.comb(52, 13)
        assert row["pay_per_opponent"] == pay and row["return_per_hand"] == pytest.approx(row["probability"] * pay)
        se = math.sqrt(row["probability"] * (1 - row["probability"]) / hands)
        assert abs(row["simulated_frequency"] - row["probability"]) <= 5 * se + 1 / hands
    sheet = cpstats.par_sheet("banked", result=r, rng=3, sensitivity=False, seat_deals=200)
    shown = sheet.tables["naturals_exact"]
    np.testing.assert_array_equal(shown["combinations"], table["combinations"])
    assert sheet.sections[2].title == "3. House way (how the bank sets)"


def test_the_commands_help_states_the_submission_levels_as_the_games_hold_them():
    """``cpstats par --help`` imports no game: its words for a submission's precision are held here
    to the games' own levels."""
    import argparse

    from cpstats.apps.cli.par import add_par_command

    parser = add_par_command(argparse.ArgumentParser().add_subparsers())
    text = " ".join(parser.format_help().split())
    banked = thirteen_par.precision_levels(cpstats.load_variant("banked"))["submission"]
    seats = thirteen_par.precision_levels(cpstats.load_variant("2-4"))["submission"]
    ofc = ofc_par.SUBMISSION
    assert f"house edge +-{100 * banked.targets['house_edge']:g} points" in text
    assert f"each seat's mean +-{seats.targets['mean_seat0']:g}" in text
    assert f"at most {banked.most:,} deals" in text and f"at most {ofc.most:,} hands" in text
    assert f"foul and Fantasyland entry +-{100 * ofc.targets['foul_rate']:g} points" in text
    assert ofc.targets["foul_rate"] == ofc.targets["fl_entry_rate"]
    assert f"royalties +-{ofc.targets['royalty']:g}, Fantasyland value +-{ofc.targets['fl_value']:g}" in text
    assert f"SD +-{ofc.targets['sd']:g}" in text
