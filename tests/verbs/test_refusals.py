"""The Python API refuses bad input as one cpstats error line naming the argument and what it allows,
as the command line does: bad counts and options, unwritable outputs, malformed JSON rules, a bad
rng, raw syntax in a value and an unused rollout budget (never numpy's, pathlib's or the operating
system's own exception from deep inside a run); a hand's error names it once."""

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

    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: None)


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
        cpstats.set_hand(HAND, "2-4", setter="random", rng=rng)


def test_a_bad_card_code_names_the_hand_once():
    bad = [99, *range(12)]
    with pytest.raises(CardError, match=r"^hand 1: card code 99 is invalid: codes are 0\.\.51"):
        cpstats.settle("2-4(players=2)", [HAND, bad])
    with pytest.raises(CardError, match=r"^card code 99 is invalid"):
        cpstats.set_hand(bad, "2-4", setter="greedy")
    with pytest.raises(CardError, match=r"^hand 1: card code 99 is invalid"):
        cpstats.set_hands([[*range(13)], bad], "2-4", setter="greedy")


@pytest.mark.parametrize("text, raw", [("2-4(rake.jackpot_trigger=))", "')'; write %29"),
                                       ("2-4(rake.jackpot_trigger=a=b)", "'='; write %3D"),
                                       ("2-4(rake.jackpot_trigger=(x)", "'('; write %28")])
def test_a_value_cannot_hold_the_strings_own_syntax(text, raw):
    with pytest.raises(OptionError, match=r"^malformed override .* a value cannot hold a raw " + re.escape(raw)):
        cpstats.load_variant(text)


@pytest.mark.parametrize("call, message", [
    (lambda: cpstats.match("2-4", "greedy", "random", deals=0),
     r"^deals=0 is invalid: a whole number >= 2"),
    (lambda: cpstats.match("2-4", "greedy", "random", deals=100, rng=-1), r"^rng=-1 is invalid"),
    (lambda: cpstats.match("2-4", "greedy", "random", deals=100, rng="x"), r"^rng='x' is invalid: pass None"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", block_deals=7.5),
     r"^block_deals=7\.5 is invalid: a whole number >= 1"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", out=42), r"^out=42 is invalid: a folder path"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", executor="local"),
     r"^executor='local' is invalid: None \(serial\) or a concurrent\.futures-style executor"),
    (lambda: cpstats.simulate("2-4", 100, setter="greedy", players="3"), r"^players='3' is invalid"),
    (lambda: cpstats.simulate("ofc-pineapple", 10, setter="random", executor="local"),
     r"^executor='local' is invalid"),
    (lambda: cpstats.compare(["2-4", "1-6"], 100, setter="greedy", tidy="yes"),
     r"^tidy='yes' is invalid"),
    (lambda: cpstats.compare(["2-4", "1-6"], 100, setter="greedy", labels=["a", "a"]),
     r"^labels=\['a', 'a'\] is invalid: each result needs its own name"),
    (lambda: cpstats.par_sheet("2-4", deals=100, setter="greedy", seat_deals=0),
     r"^seat_deals=0 is invalid"),
    (lambda: cpstats.train_tables("2-4", deals=-1), r"^deals=-1 is invalid: must be >= 1000$"),
    (lambda: cpstats.train_tables("2-4", deals=2000, damping=2), r"^damping=2 is invalid: must be in \(0, 1\]$"),
])
def test_bad_input_is_one_line_naming_the_argument(call, message):
    with pytest.raises(OptionError, match=message):
        call()


@pytest.mark.parametrize("metrics, named", [("home_run_rate,fl_entry_rate", "home_run_rate"), ("xyz", "xyz"), (["xyz"], "xyz")])
def test_a_sweep_grown_to_its_precision_names_the_whole_metric(metrics, named):
    """A text of metrics reached the precision's stages as text and was iterated letter by letter
    (``metrics='s' is invalid``); the verb makes it one list for every path."""
    with pytest.raises(OptionError, match=rf"^metrics='{named}' is invalid for an open-face sweep"):
        cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [7, 9], metrics=metrics, setter="greedy")


def test_compare_seats_every_variant_at_players():
    table = cpstats.compare(["2-4", "1-6"], 300, players=3, setter="greedy", rng=1, tidy=True)
    assert set(table["label"]) == {"2-4, 3 players", "1-6, 3 players"}
