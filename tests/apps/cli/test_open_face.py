"""What the command line says of an open-face run (cpstats.ofc.cli.simulate): rules outside the
street models' trained ranges said on stderr, in the header and in the JSON, never called strong
play; a default length that finishes in about a minute; progress with the time left."""

from __future__ import annotations

import json
import re

import pytest

import cpstats.workbench
from cpstats.apps.cli import main
from cpstats.ofc.cli.simulate import default_hands
from cpstats.ofc.placement import OUTSIDE_NOTE
from cpstats.errors import CpstatsError

OUTSIDE = "ofc-pineapple(royalties.front.QQ=1000)"  # trained 3..13
WARNING = "warning: outside the street models' trained ranges: "


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    import cpstats.apps.cli

    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: None)


def test_simulate_outside_the_trained_ranges_says_so_and_claims_no_strong_play(capsys):
    """The API's metadata and the PAR sheet said it; the command's table and JSON did not, and its
    header called the play strong."""
    base = ["simulate", "--preset", OUTSIDE, "--deals", "8", "--setter", "fast", "--quiet"]
    assert main(base) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith(f"cpstats simulate: {WARNING}") and "royalties.front.QQ 1000" in captured.err
    head = captured.out.split("\n\n")[0]
    assert "strong play" not in head and OUTSIDE_NOTE in head
    assert "outside the street models' trained ranges: " in head.splitlines()[1]
    assert main([*base, "--format", "json"]) == 0
    captured = capsys.readouterr()
    run = json.loads(captured.out)["run"]
    assert run["street_models"]["in_range"] is False and run["strategy_note"] == OUTSIDE_NOTE
    assert WARNING in captured.err


def test_simulate_inside_the_trained_ranges_says_nothing_more(capsys):
    assert main(["simulate", "--preset", "ofc-pineapple", "--deals", "8", "--setter", "fast", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "strong play, fast" in captured.out.splitlines()[0]
    assert "trained ranges" not in captured.out


def test_sweep_outside_the_trained_ranges_says_so_for_each_point(capsys):
    """KK=8 is the preset's own amount: that point is ``OUTSIDE`` itself, whose entry value the
    simulate test above solved in this process (each new open-face rule set solves its own, ~10 s)."""
    assert main(["sweep", OUTSIDE, "royalties.front.KK", "8,12", "--deals", "4", "--setter", "fast",
                 "--metrics", "foul_rate", "--scheduler", "none", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count(f"cpstats sweep: warning: royalties.front.KK=") == 2
    head = captured.out.split("\n   value")[0]
    assert "royalties.front.KK=8: outside the street models' trained ranges" in head and "strong play" not in head


class _Stop(CpstatsError):
    pass


@pytest.mark.parametrize("setter, hands", [("ev", 1_500), ("rollout", 1_500), ("fast", 20_000),
                                           ("random", 20_000)])
def test_open_face_simulate_defaults_to_about_a_minute(setter, hands, monkeypatch, capsys):
    """The default was the 13-card 100,000 deals: about 70 minutes of rollout, with no warning."""
    played = []

    def fake(variant, deals, **kwargs):
        played.append(deals)
        raise _Stop("stopped")

    monkeypatch.setattr(cpstats.workbench, "simulate", fake)
    assert main(["simulate", "--preset", "ofc-pineapple", "--setter", setter, "--quiet"]) == 2
    assert played == [hands] == [default_hands(setter if setter != "ev" else "rollout")]
    assert main(["simulate", "--preset", "2-4", "--setter", "greedy", "--quiet"]) == 2
    assert played[-1] == 100_000


@pytest.mark.parametrize("preset", ["ofc-pineapple", "2-4"])
def test_a_simulate_shows_progress_with_the_time_left(preset, capsys):
    deals = "8" if preset.startswith("ofc") else "2000"
    assert main(["simulate", "--preset", preset, "--deals", deals, "--setter", "random"]) == 0
    bar = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()[-1]
    assert f"{deals}" in bar.replace(".00", "").replace("k", "000") and "<" in bar  # elapsed<left


def test_open_face_compare_defaults_to_the_same_length(monkeypatch, capsys):
    played = []

    def fake(variants, deals, **kwargs):
        played.append(deals)
        raise _Stop("stopped")

    monkeypatch.setattr(cpstats.workbench, "compare", fake)
    assert main(["compare", "--preset", "ofc-pineapple", "--preset", "ofc-pineapple(players=3)", "--quiet"]) == 2
    assert main(["compare", "--preset", "2-4", "--preset", "1-6", "--quiet"]) == 2
    assert played == [1_500, 100_000]


@pytest.mark.parametrize("options,message", [
    (["--tables", "2-4"], r"--tables does not apply to open-face presets"),
    (["--keep-hands"], r"--keep-hands needs --out"),
    (["--players", "2"], r"--players 2 contradicts .*players=3"),
    (["--setter", "foo"], r"--setter 'foo' is invalid for an open-face preset"),
])
def test_simulate_refuses_options_it_would_ignore(options, message, capsys):
    """Options that do not apply to open face are refused in one line before any hand, never ignored."""
    assert main(["simulate", "--preset", "ofc-pineapple(players=3)", "--deals", "4", *options]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(message, err), err
