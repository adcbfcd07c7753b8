"""``cpstats train-ofc`` and the open-face caches it writes: a designer's results go to the cache
folder (never the package), every output is checked before the work, bad counts are one line, and
a damaged cache file is named and set aside (the variant is solved again), never a traceback."""

import json

import pytest

from cpstats.apps.cli import main
from cpstats.errors import OptionError
from cpstats.ofc import entry_value as ev
from cpstats.ofc import street_training as st
from cpstats.rules.open_face import resolve_ofc_variant

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
            from cpstats.apps.cli.train_ofc import run_train_ofc
            from cpstats.apps.cli import build_parser

            run_train_ofc(build_parser().parse_args(["train-ofc", "--out", str(blocker / "x.json"), *extra]))


def test_street_values_for_one_variant_are_refused_the_models_cover_every_variant(monkeypatch):
    monkeypatch.setattr(st, "train_street_models", lambda **k: pytest.fail("fitted"))
    with pytest.raises(OptionError, match="fits one file for every variant: leave out"):
        from cpstats.apps.cli.train_ofc import run_train_ofc
        from cpstats.apps.cli import build_parser

        run_train_ofc(build_parser().parse_args(["train-ofc", OWN, "--street-values", "5"]))


@pytest.mark.parametrize("text", ["", "{\"ofc-pineapple(royalties.front.QQ=9)\": {\"baseline\": ", "[1, 2]",
                                  "{\"ofc-pineapple(royalties.front.QQ=9)\": {\"value\": 3}}"])
def test_a_damaged_entry_value_cache_is_named_and_set_aside(monkeypatch, tmp_path, text):
    """A truncated, empty or incomplete cache file of entry values warns once, naming the file, and
    its variants are solved again on first use; the package's own values still read."""
    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    path = tmp_path / "ofc" / "entry_values.json"
    path.parent.mkdir()
    path.write_text(text)
    with pytest.warns(ev.EntryValueWarning, match=rf"{path}.*do not read .*solved again on first use"):
        assert ev._shipped_baseline(resolve_ofc_variant(OWN)) is None
    assert ev._shipped_baseline(resolve_ofc_variant("ofc-pineapple")) is not None

