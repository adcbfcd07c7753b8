"""Variants saved and loaded as TOML or JSON files (issue 16 item 6)."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from cpstats.errors import OptionError
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.registry import get_preset, load_variant
from cpstats.engine.variant_files import read_file

VARIANTS = [
    "2-4", "1-6", "taiwanese", "banked", "criss-cross", "race-to-11", "mandarin",
    "2-4(royalties=R-PAGAT-TYPICAL,royalty_mode=RM-CANCEL)",
    "banked(rake=percent,rake.percent=0.05,rake.cap=2)",
    "1-6(scoring.middle=2,scoring.back=3,surrender=3)",
]


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("text", VARIANTS)
def test_a_variant_file_loads_back_equal(tmp_path, text, suffix):
    """to_file then load_variant gives the same variant, from a Path or a str."""
    v = load_variant(text)
    path = v.to_file(tmp_path / f"v{suffix}", label="my game", description="for the owner")
    assert load_variant(path) == v
    assert load_variant(str(path)) == v
    saved = read_file(path)
    assert (saved.variant, saved.label, saved.description) == (str(v), "my game", "for the owner")


def test_custom_variant_with_its_own_name_and_stakes_round_trips(tmp_path):
    """A name that is no preset, a stakes matrix and a surrender amount survive."""
    v = Variant(name="house-game", players=3, stakes=[[0, 1, 2], [1, 0, 1], [2, 1, 0]],
                surrender={"enabled": True, "amount": 2.5})
    for suffix in (".toml", ".json"):
        assert load_variant(v.to_file(tmp_path / f"g{suffix}")) == v


def test_the_file_holds_the_string_and_the_rules_in_full(tmp_path):
    """A reader finds every option; TOML leaves out the None ones (no null in TOML)."""
    v = load_variant("banked(rake=percent,rake.percent=0.05)")
    toml = tomllib.loads(v.to_file(tmp_path / "v.toml").read_text())
    data = json.loads(v.to_file(tmp_path / "v.json").read_text())
    assert toml["variant"] == data["variant"] == str(v)
    assert data["rules"] == json.loads(v.to_json())
    assert toml["rules"]["rake"]["percent"] == 0.05 and "cap" not in toml["rules"]["rake"]
    assert "label" not in data


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_hand_edited_rule_is_refused_naming_the_field(tmp_path, suffix):
    """Rules edited without the string are refused, not silently half-read."""
    path = load_variant("2-4").to_file(tmp_path / f"v{suffix}")
    text = path.read_text()
    edited = text.replace('"front_trips": 0', '"front_trips": 5') if suffix == ".json" \
        else text.replace("front_trips = 0", "front_trips = 5")
    assert edited != text
    path.write_text(edited)
    with pytest.raises(OptionError, match=r"rules\.royalties\.front_trips=5 disagrees with "
                                          r"variant='2-4' \(which gives 0\)"):
        load_variant(path)


def test_a_bool_written_as_a_number_and_an_unknown_rule_are_refused(tmp_path):
    """home_run = 1 is not true, and a rule the variant does not have is named."""
    path = tmp_path / "v.json"
    data = json.loads(load_variant("2-4").to_file(path).read_text())
    data["rules"]["home_run"] = 1
    path.write_text(json.dumps(data))
    with pytest.raises(OptionError, match=r"rules\.home_run=1 disagrees"):
        load_variant(path)
    data["rules"]["home_run"] = True
    data["rules"]["royalties"]["front_quads"] = 3
    path.write_text(json.dumps(data))
    with pytest.raises(OptionError, match=r"^'.*v\.json': 'rules\.royalties\.front_quads' is an unknown key "
                                          r"\(did you mean 'rules\.royalties\.front_trips'"):
        load_variant(path)


def test_a_file_with_only_the_variant_string_loads(tmp_path):
    """The string is the identity; the rules table is for a reader and optional."""
    path = tmp_path / "short.toml"
    path.write_text('variant = "2-4(surrender=2)"\nlabel = "2-4 with surrender"\n')
    assert load_variant(path) == load_variant("2-4(surrender=2)")


@pytest.mark.parametrize("name", ["v.yaml", "v.txt", "v"])
def test_a_bad_suffix_is_refused(tmp_path, name):
    """Only .toml and .json, in one line, both to write and to read."""
    with pytest.raises(OptionError, match=r"is invalid: a variant file ends in \.toml or \.json"):
        get_preset("2-4").to_file(tmp_path / name)
    (tmp_path / name).write_text('variant = "2-4"')
    with pytest.raises(OptionError, match=r"ends in \.toml or \.json"):
        load_variant(tmp_path / name)


@pytest.mark.parametrize("path", ["missing.toml", "missing.JSON"])
def test_a_missing_file_is_refused(tmp_path, path):
    """A string ending in .toml/.json names a file; a missing one is named."""
    with pytest.raises(OptionError, match=r"missing\.(toml|JSON)'? is invalid: no such variant file"):
        load_variant(str(tmp_path / path))
    with pytest.raises(OptionError, match="no such variant file"):
        load_variant(tmp_path / path)


@pytest.mark.parametrize("body, match", [
    ("variant = ", "does not read as TOML"),
    ('variant = "2-4"\nvarient = "x"\n', r"'varient' is an unknown key \(did you mean 'variant'\?\)$"),
    ('variant = "2-4"\nzzz = "x"\n', r"'zzz' is an unknown key; the keys: description, label, rules, variant$"),
    ("variant = 3\n", r"variant=3 is invalid: the variant string"),
    ('variant = "2-5"\n', r"'.*bad\.toml': unknown preset '2-5'"),
    ('variant = "2-4"\nrules = "all"\n', r"rules='all' is invalid: expected a table"),
])
def test_a_broken_file_is_refused_in_one_line(tmp_path, body, match):
    """Bad TOML, unknown keys, wrong types and a bad string each get one line."""
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(OptionError, match=match) as err:
        load_variant(path)
    assert "\n" not in str(err.value)


def test_a_json_file_that_is_not_an_object_is_refused(tmp_path):
    """A JSON list is not a variant file."""
    path = tmp_path / "list.json"
    path.write_text('["2-4"]')
    with pytest.raises(OptionError, match=r"expected a table with variant"):
        load_variant(path)


def test_a_label_that_is_not_a_string_is_refused(tmp_path):
    """Label and description are text."""
    with pytest.raises(OptionError, match=r"label=3 is invalid: a string, or None"):
        get_preset("2-4").to_file(tmp_path / "v.toml", label=3)


def test_preset_names_and_variant_strings_still_load_as_before(tmp_path, monkeypatch):
    """The name "2-4" is a preset even beside a file called 2-4; strings with dots still parse."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "2-4").write_text('variant = "1-6"')
    assert load_variant("2-4") == get_preset("2-4")
    assert load_variant("banked(rake=percent,rake.percent=0.05)").rake.percent == 0.05


def test_a_folder_is_named_a_folder_with_the_variant_files_in_it(tmp_path, monkeypatch):
    """load_variant(<a folder>) said "unknown preset"; it says it is a folder and what is
    expected, naming the variant files in it; a preset's name still wins over a folder of that
    name in the working directory."""
    load_variant("2-4").to_file(tmp_path / "mine.toml")
    (tmp_path / "notes.txt").write_text("not a variant")
    found = r"is a folder, not a variant: give a variant file \(.toml or .json, as a variant.s to_file writes; "
    for source in (tmp_path, str(tmp_path), f"{tmp_path}/"):
        with pytest.raises(OptionError, match=f"^'{tmp_path}/?' {found}variant files there: mine.toml\\), "
                                              "a preset name or a variant string$"):
            load_variant(source)
    (tmp_path / "odd.toml").mkdir()
    with pytest.raises(OptionError, match=f"^'{tmp_path}/odd.toml' {found}it holds no .toml or .json file\\)"):
        load_variant(tmp_path / "odd.toml")
    (tmp_path / "2-4").mkdir()
    monkeypatch.chdir(tmp_path)
    assert load_variant("2-4") == get_preset("2-4")
    with pytest.raises(OptionError, match=r"^'\.' is a folder, not a variant"):
        load_variant(".")


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_an_unknown_rule_is_an_unknown_key_with_its_close_matches(tmp_path, suffix):
    """A misspelt rule said "disagrees with variant (which gives None)"."""
    path = tmp_path / f"v{suffix}"
    path.write_text('variant = "2-4"\n[rules.royalties]\nfront_trip = 3\n' if suffix == ".toml"
                    else json.dumps({"variant": "2-4", "rules": {"royalties": {"front_trip": 3}}}))
    with pytest.raises(OptionError, match=r"^'.*v\.(toml|json)': 'rules\.royalties\.front_trip' is an unknown "
                                          r"key \(did you mean 'rules\.royalties\.front_trips'\?\)$"):
        load_variant(path)


@pytest.mark.parametrize("body, key, game, other", [
    ('variant = "2-4"\n[rules.royalties.front]\nQQ = 7\n', r"royalties\.front\.QQ", "open-face", "13-card"),
    ('variant = "2-4(players=3)"\n[rules.fantasyland]\nstay = "A"\n', r"fantasyland\.stay", "open-face",
     "13-card"),
    ('variant = "ofc-pineapple"\n[rules.naturals]\nschedule = "NS-TW"\n', r"naturals\.schedule", "13-card",
     "open-face"),
])
def test_a_rule_of_the_other_game_names_both_games(tmp_path, body, key, game, other):
    """A 13-card file holding an open-face rule said "rules.name=None disagrees"."""
    path = tmp_path / "v.toml"
    path.write_text(body)
    variant = tomllib.loads(body)["variant"]
    with pytest.raises(OptionError, match=rf"^'.*v\.toml': rules\.{key} is an? {game} rule; this file's "
                                          rf"variant is {other} \({re.escape(variant)}\)"):
        load_variant(path)


def test_an_open_face_rules_table_under_a_13_card_string_names_the_game(tmp_path):
    """The whole rules table of an open-face file, its string changed to a 13-card one."""
    path = load_variant("ofc-pineapple").to_file(tmp_path / "v.toml")
    path.write_text(path.read_text().replace('variant = "ofc-pineapple"', 'variant = "2-4"'))
    with pytest.raises(OptionError, match=r"is an open-face rule; this file's variant is 13-card \(2-4\)"):
        load_variant(path)


def test_a_rule_left_out_is_named_missing(tmp_path):
    """A rules table of some rules only: the first one left out is named, not "name=None"."""
    path = tmp_path / "v.toml"
    path.write_text('variant = "2-4"\n[rules]\nname = "2-4"\n')
    with pytest.raises(OptionError, match=r"^'.*v\.toml': rules\.scoring\.system is missing \(variant='2-4' "
                                          r"gives 'SC-2-4'\): "
                                          r"edit the variant string, not the rules, or leave the rules table out$"):
        load_variant(path)


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_file_that_starts_with_a_byte_order_mark_loads(tmp_path, suffix):
    """Windows editors save UTF-8 with a BOM; TOML said "Invalid statement (at line 1, column 1)"."""
    v = load_variant("2-4(royalties=R-TW)")
    path = v.to_file(tmp_path / f"v{suffix}", label="mine")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_variant(path) == v and read_file(path).label == "mine"
