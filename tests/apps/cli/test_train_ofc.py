"""``cpstats train-ofc`` and the open-face caches it writes: a designer's results go to the cache
folder (never the package), every output is checked before the work, bad counts are one line, and
a damaged cache file is named and set aside (the variant is solved again), never a traceback."""

import json

import pytest

from cpstats.apps.cli import main
from cpstats.errors import OptionError
from cpstats.ofc import entry_value as ev
from cpstats.ofc import street_training as st
from cpstats.ofc.rules import resolve_ofc_variant

OWN = "ofc-pineapple(royalties.front.QQ=9)"


def _package_files():
    return {p.name: p.read_bytes() for p in ev.SHIPPED.parent.iterdir() if p.is_file()}


@pytest.mark.parametrize("option", ["--street-values", "--hands", "--rounds", "--anchor-hands", "--workers"])
def test_a_count_of_zero_is_refused_in_one_line_and_nothing_is_written(option, capsys):
    before = _package_files()
    with pytest.raises(SystemExit) as stop:
        main(["train-ofc", OWN, option, "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"argument {option}: 0 is invalid: must be >= 1" in err
    assert _package_files() == before


def test_a_designers_entry_value_goes_to_the_cache_folder_never_the_package(monkeypatch, tmp_path, capsys):
    """``train-ofc VARIANT`` for rules the package ships no value for writes the cache folder's
    file; the play then reads it (its identity shows the solved baseline, not 'solved on first use')."""
    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    v = resolve_ofc_variant(OWN)
    assert ev.values_path(v) == tmp_path / "ofc" / "entry_values.json"
    assert ev.values_path(resolve_ofc_variant("ofc-pineapple")) == ev.SHIPPED
    assert "solved on first use" in ev.play_identity(v, ("rollout",))
    before = _package_files()
    assert main(["train-ofc", OWN, "--hands", "3", "--rounds", "1", "--seed", "5"]) == 0
    assert str(tmp_path / "ofc" / "entry_values.json") in capsys.readouterr().out
    assert _package_files() == before
    stored = json.loads((tmp_path / "ofc" / "entry_values.json").read_text())
    assert list(stored) == [str(v)]
    assert f"entry baseline {stored[str(v)]['baseline']:.6g}" in ev.play_identity(v, ("rollout",))


def test_an_unwritable_out_is_one_line_before_any_solving(monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")

    def never(*args, **kwargs):
        raise AssertionError("solved before --out was checked")

    monkeypatch.setattr(ev, "solve_entry_value", never)
    monkeypatch.setattr(st, "train_street_models", never)
    for extra in ([], ["--street-values", "2"]):
        with pytest.raises(OptionError, match=r"^--out=.*a-file/x.json' is invalid: its folder"):
            from cpstats.ofc.cli.train import run_train_ofc
            from cpstats.apps.cli import build_parser

            run_train_ofc(build_parser().parse_args(["train-ofc", "--out", str(blocker / "x.json"), *extra]))


def test_street_values_for_one_variant_are_refused_the_models_cover_every_variant(monkeypatch):
    monkeypatch.setattr(st, "train_street_models", lambda **k: pytest.fail("fitted"))
    with pytest.raises(OptionError, match="fits one file for every variant: leave out"):
        from cpstats.ofc.cli.train import run_train_ofc
        from cpstats.apps.cli import build_parser

        run_train_ofc(build_parser().parse_args(["train-ofc", OWN, "--street-values", "5"]))


@pytest.mark.parametrize("text", ["", "{\"ofc-pineapple(royalties.front.QQ=9)\": {\"baseline\": ", "[1, 2]",
                                  "{\"ofc-pineapple(royalties.front.QQ=9)\": {\"value\": 3}}",
                                  *(f"{{\"{OWN}\": {{\"baseline\": {x}}}}}" for x in
                                    ("NaN", "Infinity", "true", "1e300", "-1e4", "104", "\"6.3\"", "[6.3]")),
                                  f"{{\"{OWN}\": 6.3}}"])
def test_a_damaged_entry_value_cache_is_named_and_set_aside(monkeypatch, tmp_path, text):
    """A truncated, empty or incomplete cache file of entry values, or one whose baseline is not a
    finite number (NaN, true, a string) or lies outside what a board's objective can be (1e300;
    -1e4 below a foul, 104 above the best board of these rules), warns naming the file, and its
    variants are solved again on first use; the package's own values still read."""
    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    path = tmp_path / "ofc" / "entry_values.json"
    path.parent.mkdir()
    path.write_text(text)
    with pytest.warns(ev.EntryValueWarning, match=rf"{path}.*do not read .*solved again on first use"):
        assert ev._shipped_baseline(resolve_ofc_variant(OWN)) is None
    assert ev._shipped_baseline(resolve_ofc_variant("ofc-pineapple")) is not None



def _refused(argv: list[str], capsys) -> str:
    """The one stderr line of a command refused with status 2 (by argparse or by the command)."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "Traceback" not in err, err
    return err


def _no_work(monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("work started before the options were checked")

    monkeypatch.setattr(ev, "solve_entry_value", never)
    monkeypatch.setattr(st, "train_street_models", never)


@pytest.mark.parametrize("argv, words", [
    (["--workers", "2"], "--workers applies only with --street-values"),
    (["--draws", "5"], "--draws applies only with --street-values"),
    (["--anchor-hands", "3"], "--anchor-hands applies only with --street-values"),
    (["--street-values", "2", "--hands", "30"], "--hands does not apply with --street-values"),
    (["--street-values", "2", "--rounds", "2"], "--rounds does not apply with --street-values"),
])
def test_an_option_of_the_other_mode_is_refused_in_one_line(monkeypatch, tmp_path, capsys, argv, words):
    """``--workers``, ``--draws`` and ``--anchor-hands`` are the street models'; ``--hands`` and
    ``--rounds`` the entry values'. Given to the other mode they were ignored (and ``--workers 2``
    alone re-solved the package's entry values in place)."""
    _no_work(monkeypatch)
    before = _package_files()
    assert words in _refused(["train-ofc", *argv, "--out", str(tmp_path / "x.npz")], capsys)
    assert _package_files() == before and not list(tmp_path.iterdir())


@pytest.mark.parametrize("argv, words", [
    (["--hands", "100001"], "argument --hands: 100,001 is invalid: at most 100,000"),
    (["--hands", str(10**17)], "at most 100,000"),
    (["--rounds", "21"], "argument --rounds: 21 is invalid: at most 20"),
    (["--street-values", str(10**15)], "argument --street-values: 1,000,000,000,000,000 is invalid: at most 50,000"),
    (["--street-values", "14", "--draws", "10000"], "--draws 10,000 x --street-values 14 + 7 anchors x "
                                                    "--anchor-hands 300 = 142,100 self-play hands is invalid: "
                                                    "at most 50,000"),
    (["--street-values", "1", "--anchor-hands", "9000"], "= 63,300 self-play hands is invalid"),
    (["--street-values", "2", "--workers", "100000"], "argument --workers: 100,000 is invalid: at most "),
    ([OWN, "ofc-pineapple(fantasyland.cards=0/0/0/0)"], "has no Fantasyland"),
])
def test_a_count_past_its_cap_is_refused_in_one_line_before_any_work(monkeypatch, tmp_path, capsys, argv, words):
    """Counts are bounded by what memory and time make sensible, workers by this machine's cores:
    one line before any work (a huge count ended in numpy's "23.1 PiB" traceback, once after 104 s;
    100,000 workers flooded the machine); so is a variant with no entry value among several."""
    import os

    _no_work(monkeypatch)
    err = _refused(["train-ofc", *argv, "--out", str(tmp_path / "x.npz")], capsys)
    assert words in err
    if "--workers" in argv:
        assert f"at most {os.cpu_count():,} (this machine's cores)" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("argv", [[], ["ofc-classic"], ["ofc-pineapple(rake=time,rake.amount=6)"],
                                  [OWN, "ofc-pineapple"]])
def test_a_shipped_entry_value_is_solved_again_only_into_a_named_file(monkeypatch, tmp_path, capsys, argv):
    """Without ``--out`` a variant the package ships (its rake aside) is refused: the play reads the
    package's value, and the package's file is written only when ``--out`` names it."""
    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    _no_work(monkeypatch)
    before = _package_files()
    err = _refused(["train-ofc", *argv, "--hands", "3", "--rounds", "1"], capsys)
    assert "the package ships the entry value of ofc-" in err and OWN not in err
    assert "--out cpstats/data/ofc/entry_values.json" in err
    assert _package_files() == before and not list(tmp_path.iterdir())


def test_street_values_need_a_named_file(monkeypatch, capsys):
    """The street models were written into the package by default; now ``--out`` names the file."""
    _no_work(monkeypatch)
    before = _package_files()
    err = _refused(["train-ofc", "--street-values", "2"], capsys)
    assert "--street-values needs --out FILE" in err and "cpstats/data/ofc/street_models.npz" in err
    assert _package_files() == before


def test_a_shipped_variant_solved_into_the_cache_does_not_move_shipped_play(monkeypatch, tmp_path):
    """The package's value wins on read: a cache entry for a shipped variant (an older cpstats wrote
    them) leaves the play told the shipped baseline; a designer's cache entry is read."""
    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    shipped = json.loads(ev.SHIPPED.read_text())["ofc-pineapple"]["baseline"]
    path = tmp_path / "ofc" / "entry_values.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"ofc-pineapple": {"baseline": 1.5}, OWN: {"baseline": 2.5}}))
    assert ev._shipped_baseline(resolve_ofc_variant("ofc-pineapple")) == shipped
    assert ev._shipped_baseline(resolve_ofc_variant(OWN)) == 2.5


def _descendants(pid: int) -> list:
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def test_ctrl_c_ends_the_whole_pool_at_once(tmp_path):
    """Ctrl-C (SIGINT to the terminal's process group) while two workers play: the command exits
    within seconds with status 130 and one line, no worker's traceback, and no worker left
    running (before, the workers went on and the parent waited for them; a second Ctrl-C left them
    orphaned). The training is tiny, so the test costs a few seconds of CPU."""
    import os
    import signal
    import subprocess
    import sys
    import time

    pytest.importorskip("sklearn")
    psutil = pytest.importorskip("psutil")
    if os.cpu_count() < 2:
        pytest.skip("two workers need two cores")
    # 37 small tasks: enough queued that a pool which lets them run (as before) is still busy long after
    cmd = [sys.executable, "-m", "cpstats.apps.cli", "train-ofc", "--street-values", "1", "--draws", "30",
           "--anchor-hands", "2", "--workers", "2", "--out", str(tmp_path / "x.npz")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(workers := _descendants(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.5)  # they are playing their first hands
        os.killpg(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=20)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130 and waited < 10, (proc.returncode, waited)
    assert err == "cpstats train-ofc: interrupted\n"
    psutil.wait_procs(workers, timeout=5)
    assert not [w.pid for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
    assert not (tmp_path / "x.npz").exists()
