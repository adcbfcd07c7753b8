"""The Python API refuses unwritable outputs, malformed JSON rules, a bad rng, raw syntax in a
value and an unused rollout budget in one CpstatsError line (never the operating system's or
numpy's own error); a hand's error names it once."""

from __future__ import annotations

import re

import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.errors import CardError, OptionError

MISSING = "/proc/no-such-folder/x"  # cannot be created, even by root
HAND = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h"


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    import cpstats.apps.cli

    monkeypatch.setattr(cpstats.apps.cli.commands, "needs_compiling", lambda *modules: False)


@pytest.mark.parametrize("write, message", [
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", out=MISSING),
     rf"^out='{MISSING}' is invalid: the folder cannot be created \(No such file or directory\)$"),
    (lambda: cpstats.simulate("ofc-pineapple", 10, setter="greedy", out=MISSING),
     rf"^out='{MISSING}' is invalid: the folder cannot be created"),
    (lambda: cpstats.par_sheet("2-4(royalties=R-FLAT)", out=MISSING),
     rf"^out='{MISSING}' is invalid: the folder cannot be created"),
    (lambda: cpstats.load_variant("2-4").to_file(f"{MISSING}/v.toml"),
     rf"^path='{MISSING}/v.toml' is invalid: its folder cannot be created"),
])
def test_an_unwritable_output_is_one_option_error_before_any_work(write, message):
    """par_sheet on a variant without a reference would simulate 200,000 deals first: the
    refusal is immediate (the test would take minutes otherwise)."""
    with pytest.raises(OptionError, match=message):
        write()


def test_par_sheet_files_refuse_a_missing_folder_or_a_folder(tmp_path):
    sheet = cpstats.par_sheet("2-4", sensitivity=False)
    with pytest.raises(OptionError, match=rf"^path='{MISSING}/p.pdf' is invalid: its folder cannot"):
        sheet.to_pdf(f"{MISSING}/p.pdf")
    with pytest.raises(OptionError, match=rf"^path='{tmp_path}' is invalid: it is a folder; name a file in it$"):
        sheet.to_pdf(tmp_path)
    with pytest.raises(OptionError, match="it is a folder"):
        sheet.to_html(tmp_path)


def test_cli_par_refuses_an_unwritable_out_before_simulating(capsys):
    assert main(["par", "2-4(royalties=R-FLAT)", "--out", MISSING]) == 2
    err = capsys.readouterr().err
    assert err == (f"cpstats par: error: --out='{MISSING}' is invalid: the folder cannot be "
                   "created (No such file or directory)\n")


@pytest.mark.parametrize("text, message", [
    ("[1,2]", r"^a variant's rules must be a mapping of option to value \(a JSON object\), not list \[1, 2\]$"),
    ('"2-4"', r"not str '2-4'$"),
    ("{x", r"^text='\{x' is invalid: not JSON \(Expecting property name"),
])
def test_from_json_refuses_what_is_not_a_json_object(text, message):
    with pytest.raises(OptionError, match=message):
        cpstats.Variant.from_json(text)


@pytest.mark.parametrize("rng", ["x", -1, 1.5])
def test_a_bad_rng_is_one_option_error(rng):
    with pytest.raises(OptionError, match=rf"^rng={rng!r} is invalid: pass None, an int seed >= 0, "
                                          "a SeedSequence or a Generator$"):
        cpstats.set_hand(HAND, "2-4", strategy="random", rng=rng)


def test_a_bad_card_code_names_the_hand_once():
    bad = [99, *range(12)]
    with pytest.raises(CardError, match=r"^hand 1: card code 99 is invalid: codes are 0\.\.51"):
        cpstats.settle("2-4(players=2)", [HAND, bad])
    with pytest.raises(CardError, match=r"^card code 99 is invalid"):
        cpstats.set_hand(bad, "2-4", strategy="greedy")
    with pytest.raises(CardError, match=r"^hand 1: card code 99 is invalid"):
        cpstats.set_hands([[*range(13)], bad], "2-4", strategy="greedy")


@pytest.mark.parametrize("text, raw", [("2-4(rake.jackpot_trigger=))", "')'; write %29"),
                                       ("2-4(rake.jackpot_trigger=a=b)", "'='; write %3D"),
                                       ("2-4(rake.jackpot_trigger=(x)", "'('; write %28")])
def test_a_value_cannot_hold_the_strings_own_syntax(text, raw):
    with pytest.raises(OptionError, match=r"^malformed override .* a value cannot hold a raw " + re.escape(raw)):
        cpstats.load_variant(text)


def test_a_rollout_budget_is_refused_without_rollout():
    with pytest.raises(OptionError, match=r"^samples=8 is invalid with strategy 'greedy/greedy': "
                                          "only rollout takes samples and top$"):
        cpstats.ofc.simulation.simulate("ofc-pineapple", 8, setter="greedy", samples=8)
