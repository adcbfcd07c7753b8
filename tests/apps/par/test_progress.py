"""The progress lines of a PAR sheet's build (cpstats.apps.par.progress, ``cpstats par``'s stderr):
each stage, the hands so far and an estimate of the time left; ``--quiet`` hides them. The
open-face sheet's lines: tests/apps/par/test_open_face_sensitivity.py."""

from __future__ import annotations

import pytest

from cpstats.apps.cli import main
from cpstats.apps.par import progress as progress_


def test_the_time_left_is_the_pace_so_far_times_the_hands_still_planned(monkeypatch):
    """100 hands in 10 s, then a stage of 100 with 200 more planned: about 30 s left; work that
    plays no hands (writing a file) is left out of the pace."""
    clock = iter([0.0, 10.0, 10.0, 50.0, 50.0, 55.0])
    monkeypatch.setattr(progress_.time, "monotonic", lambda: next(clock))
    lines: list[str] = []
    tracker = progress_.SheetProgress(lines.append)
    tracker.plan("sweeps", 300)
    tracker.playing("run", "the run", 100)  # 0 s
    tracker.playing("sweeps", "point 1", 100)  # 10 s: 100 played in 10 s, 100 + 200 planned
    tracker.step("the tables")  # 50 s: 200 hands in 50 s
    tracker.playing("sweeps", "point 2", 100)  # 55 s: the 5 s of the tables not counted, 100 + 100 left
    assert lines == ["the run: 100 hands",
                     "point 1: 100 hands (100 played so far in 10 s; about 30 s left)",
                     "the tables",
                     "point 2: 100 hands (200 played so far in 50 s; about 50 s left)"]
    silent = progress_.SheetProgress(None)
    silent.playing("run", "the run", 10)  # no callback: nothing told, nothing raised
    assert progress_.as_progress(tracker, "deals") is tracker


def test_cpstats_par_prints_each_stage_on_stderr_and_quiet_hides_them(tmp_path, capsys):
    """A short 13-card sheet (greedy, small sweeps): the run, every sweep point with the deals so
    far and the time left, the tables and the two files, on stderr; stdout keeps the answer."""
    out = tmp_path / "par"
    assert main(["par", "2-4", "--deals", "1,500", "--setter", "greedy", "--sensitivity-deals", "300",
                 "--out", str(out)]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines[0] == "the run, set by greedy: 1,500 deals"
    points = [line for line in lines if line.startswith("the sensitivity sweeps: ")]
    assert len(points) >= 4 and "point 1 of " in points[0]
    assert all("played so far in" in line and line.endswith(" left)") for line in points)
    assert points[0].endswith(": 300 deals (1,500 played so far in " + points[0].split(" so far in ")[1])
    assert lines[-3:] == ["the tables and charts", f"writing {out / 'par.html'}", f"writing {out / 'par.pdf'}"]
    assert captured.out.startswith("PAR sheet of 2-4")
    assert main(["par", "2-4", "--deals", "1,500", "--setter", "greedy", "--no-sensitivity", "--quiet",
                 "--out", str(out)]) == 0
    assert capsys.readouterr().err == ""


def test_a_banked_sheet_tells_each_run_of_the_banks_edge_by_seats():
    """The bank with 3 player seats is the run; 1 and 2 seats are played, a line each."""
    import cpstats

    lines: list[str] = []
    cpstats.par_sheet("banked", deals=600, setter="greedy", seat_deals=300, sensitivity=False, rng=3,
                      progress=lines.append)
    seats = [line for line in lines if line.startswith("the bank's edge with ")]
    assert [line.split(":")[0] for line in seats] == ["the bank's edge with 1 player seat",
                                                      "the bank's edge with 2 player seats"]
    assert all(": 300 deals (" in line for line in seats)


@pytest.mark.parametrize("seconds, words", [(0.0, "1 s"), (89.4, "89 s"), (90, "2 min"), (7200, "2 h 0 min")])
def test_time_words(seconds, words):
    assert progress_.time_words(seconds) == words
