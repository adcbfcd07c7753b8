"""A number of any size in any numeric rule of either game, a sweep value or a CLI count is
refused in one line (never float()'s OverflowError), the value shown cut to its ends."""

from __future__ import annotations

import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.errors import OptionError
from cpstats.engine.registry import load_variant
from cpstats.ofc import parse_ofc_variant

HUGE = "9" * 400
CUT = r"999999999999\.\.\.999999 \(400 characters\)"


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    import cpstats.apps.cli

    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: None)


@pytest.mark.parametrize("text, key", [
    (f"2-4(players={HUGE})", "players"),
    (f"2-4(royalties.front_trips={HUGE})", "royalties.front_trips"),
    (f"2-4(stakes=0:{HUGE}/1:0,players=2)", r"stakes\[0\]\[1\]"),
    (f"2-4(rake=percent,rake.cap={HUGE})", "rake.cap"),
    (f"ofc-pineapple(royalties.front.AAA={HUGE})", "royalties.front.AAA"),
    (f"ofc-pineapple(players={HUGE})", "players"),
])
def test_a_huge_number_in_a_variant_string_is_one_option_error(text, key):
    load = parse_ofc_variant if text.startswith("ofc") else cpstats.load_variant
    with pytest.raises(OptionError, match=rf"^{key}={CUT} is invalid: .*at most 1e\+09"):
        load(text)


def test_a_huge_negative_number_is_below_the_minimum():
    with pytest.raises(OptionError, match=r"^royalties.front.AAA=-9{11}\.\.\.9{6} \(401 characters\) "
                                         r"is invalid: units must be >= 0$"):
        parse_ofc_variant(f"ofc-pineapple(royalties.front.AAA=-{HUGE})")


def test_a_huge_python_int_is_refused_by_replace_and_sweep():
    with pytest.raises(OptionError, match=r"^players=1000.*\(401 characters\) is invalid"):
        cpstats.load_variant("2-4").replace(players=10 ** 400)
    with pytest.raises(OptionError, match=r"^royalties.front_trips=1000.*is invalid: .*at most"):
        cpstats.sweep("2-4", "royalties.front_trips", [0, 10 ** 400], deals=100)


@pytest.mark.parametrize("argv", [
    ["simulate", "--preset", f"2-4(players={HUGE})", "--deals", "10", "--quiet"],
    ["simulate", "--preset", f"ofc-pineapple(royalties.front.AAA={HUGE})", "--deals", "10", "--quiet"],
    ["sweep", "2-4", "royalties.front_trips", f"0,{HUGE}", "--deals", "10", "--quiet"],
    ["simulate", "--preset", "2-4", "--deals", HUGE, "--quiet"],
])
def test_a_huge_number_on_the_command_line_is_one_line_status_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "(400 characters) is invalid" in err and len(err) < 200, err


@pytest.mark.parametrize("text", ["2-4(royalties.front_trips=1e300)",
                                  "2-4(players=2,stakes=1e10:1e10/1e10:1e10)"])
def test_numbers_past_the_documented_limit_are_refused(text):
    """A royalty of 1e300 crashed the summaries; every number is at most 1e9."""
    with pytest.raises(OptionError, match="must be at most 1e\\+09"):
        load_variant(text)
