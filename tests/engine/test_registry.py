"""The one registry of games (cpstats.engine.registry): variants and presets of every game load, round-trip
and describe themselves through it, an option or a verb of another game is named in one line, and a
game registered later (the toy showdown, ``tests/toy_showdown``) joins every listing and leaves it."""

from __future__ import annotations

import pytest

import cpstats
from cpstats.errors import OptionError
from cpstats.engine.registry import GAMES, game_named, game_of, get_preset, load_variant, presets, register_game
from helpers.toy import toy_registered
from cpstats import ofc
from cpstats.thirteen.rules.variant import Variant


@pytest.mark.parametrize("text, kind", [("2-4", Variant), ("ofc-pineapple", ofc.Variant),
                                        ("ofc-classic(players=3)", ofc.Variant),
                                        ("1-6(royalties=R-TW)", Variant)])
def test_load_variant_returns_either_games_variant_and_round_trips(text, kind):
    v = load_variant(text)
    assert isinstance(v, kind) and v.game == game_of(text).name
    assert load_variant(str(v)) == v and v.from_dict(v.to_dict()) == v
    assert load_variant(v) is v


def test_presets_and_get_preset_list_every_game():
    table = presets()
    assert set(table["game"]) == set(GAMES) and len(GAMES) >= 2
    assert list(table["name"]) == [name for game in GAMES.values() for name in game.presets]
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




def test_a_game_registered_later_joins_every_listing_and_leaves_it():
    before = list(GAMES)
    with toy_registered() as toy:
        name = toy.GAME.name
        assert list(GAMES) == [*before, name] and game_named(name) is toy.GAME
        table = presets().set_index("name")
        assert table.loc["showdown-4", "game"] == name and table.loc["showdown-4", "variant"] == "showdown-4"
        assert game_of("showdown(bonus=2)") is toy.GAME and get_preset("SHOWDOWN").players == 2
        with pytest.raises(OptionError, match=r"is an option of open-face variants, not of toy-showdown ones "
                                              r"\(showdown\): toy-showdown keys are bonus, players"):
            load_variant("showdown(royalties.front.QQ=7)")
        with pytest.raises(OptionError, match=r"'showdown' is a toy-showdown variant: this plays 13-card"):  # a 13-card verb
            cpstats.set_hand("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "showdown")
        with pytest.raises(OptionError, match=r"unknown preset 'showdwn' \(did you mean 'showdown'"):
            load_variant("showdwn")
    assert list(GAMES) == before and "showdown" not in set(presets()["name"])
    with pytest.raises(OptionError, match=rf"game='toy-showdown' is invalid: the games are {', '.join(before)}$"):
        game_named("toy-showdown")


def test_register_game_takes_a_game_record_only():
    with pytest.raises(OptionError, match=r"game='showdown' is invalid: a cpstats.engine.registry.Game"):
        register_game("showdown")
