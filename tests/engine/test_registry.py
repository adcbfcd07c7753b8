"""The one registry of games (cpstats.engine.registry): variants and presets of both games load, round-trip
and describe themselves through it, and an option or a verb of the other game is named in one line."""

from __future__ import annotations

import pytest

import cpstats
from cpstats.errors import OptionError
from cpstats.engine.registry import GAMES, game_of, get_preset, load_variant, presets
from cpstats.ofc.rules import OfcVariant
from cpstats.thirteen.rules.variant import Variant


@pytest.mark.parametrize("text, kind", [("2-4", Variant), ("ofc-pineapple", OfcVariant),
                                        ("ofc-classic(players=3)", OfcVariant),
                                        ("1-6(royalties=R-TW)", Variant)])
def test_load_variant_returns_either_games_variant_and_round_trips(text, kind):
    v = load_variant(text)
    assert isinstance(v, kind) and v.game == game_of(text).name
    assert load_variant(str(v)) == v and v.from_dict(v.to_dict()) == v
    assert load_variant(v) is v


def test_presets_and_get_preset_list_both_games():
    table = presets()
    assert {"13-card", "open-face"} == set(table["game"]) == set(GAMES)
    for name, game in zip(table["name"], table["game"]):
        assert get_preset(name).game == game
    with pytest.raises(OptionError, match=r"unknown OFC preset 'ofc-pinapple'.*ofc-pineapple"):
        get_preset("ofc-pinapple")


def test_open_face_variant_files_round_trip(tmp_path):
    v = load_variant("ofc-pineapple(fantasyland.stay=A,royalties.front.QQ=9)")
    path = v.to_file(tmp_path / "house.toml", label="house rules")
    assert load_variant(path) == v and load_variant(str(path)) == v
    text = path.read_text().replace("front_pairs = [ 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 9,", "front_pairs = [ 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 8,")
    if text != path.read_text():
        path.write_text(text)
        with pytest.raises(OptionError, match="disagrees with variant"):
            load_variant(path)


@pytest.mark.parametrize("text, other", [("2-4(royalties.front.QQ=7)", "open-face"),
                                         ("ofc-pineapple(scoring.scoop_bonus=5)", "13-card")])
def test_an_option_of_the_other_game_names_both_games(text, other):
    with pytest.raises(OptionError, match=rf"is an option of {other} variants, not of .* keys are"):
        load_variant(text)


def test_a_13_card_only_verb_refuses_an_open_face_variant_in_one_line():
    with pytest.raises(OptionError, match="'ofc-pineapple' is an open-face variant: this plays 13-card"):
        cpstats.set_hand("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "ofc-pineapple")


def test_describe_and_short_label_take_either_game():
    assert cpstats.short_label("ofc-pineapple(players=3,fantasyland.stay=A)") == \
        "ofc-pineapple, 3 players, stay rule A"
    words = dict(cpstats.engine.describe.describe_rules("ofc-pineapple-progressive"))
    assert words["fantasyland"].startswith("a QQ+ front") and "QQ 14 cards, KK 15 cards" in words["fantasyland"]
    assert "(" not in cpstats.short_label("ofc-pineapple(royalties.front.QQ=9)")


