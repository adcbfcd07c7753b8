"""Both games behind one contract: one registry of variants and presets, and the shared verbs
(simulate, compare) playing either game through one block runner."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import cpstats
from cpstats.strategies import EvSetter
from cpstats.errors import OptionError
from cpstats.rules import GAMES, OfcVariant, Variant, game_of, get_preset, load_variant, presets
from cpstats.apps.cli import main


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
    words = dict(cpstats.rules.describe.describe_rules("ofc-pineapple-progressive"))
    assert words["fantasyland"].startswith("a QQ+ front") and "QQ 14 cards, KK 15 cards" in words["fantasyland"]
    assert "(" not in cpstats.short_label("ofc-pineapple(royalties.front.QQ=9)")


def test_simulate_plays_open_face_as_the_game_runs_it():
    """The shared verb gives the open-face run's numbers (same seed, same decks), serial or not."""
    shared = cpstats.simulate("ofc-pineapple", 300, setter="greedy", rng=1)
    own = cpstats.ofc.simulation.simulate("ofc-pineapple", 300, setter="greedy", rng=1)
    pd.testing.assert_frame_equal(shared.figures(), own.figures())
    with ThreadPoolExecutor(2) as pool:
        threaded = cpstats.simulate("ofc-pineapple", 300, setter="greedy", rng=1, executor=pool)
    pd.testing.assert_frame_equal(threaded.figures(), own.figures())
    with pytest.raises(OptionError, match="tables= does not apply to open-face"):
        cpstats.simulate("ofc-pineapple", 10, setter=EvSetter(tables="2-4"))
    with pytest.raises(OptionError, match="setter='ev2' is invalid for an open-face variant"):
        cpstats.simulate("ofc-pineapple", 10, setter="ev2")


def test_simulate_open_face_keeps_rows_with_out_and_resumes(tmp_path):
    first = cpstats.simulate("ofc-pineapple", 200, setter="random", rng=3, out=tmp_path, keep_hands=True,
                             block_deals=100)
    assert len(list(tmp_path.glob("hands-*.parquet"))) == 2
    again = cpstats.simulate("ofc-pineapple", 200, setter="random", rng=3, out=tmp_path, keep_hands=True,
                             block_deals=100, resume=True)
    assert again.metadata["blocks_redone"] == 0
    pd.testing.assert_frame_equal(first.figures(), again.figures())


def test_compare_plays_open_face_on_common_decks_and_refuses_mixed_games():
    table = cpstats.compare(["ofc-pineapple", "ofc-pineapple(royalties.back.pair=1)"], 400,
                            setter="random", rng=1)
    royalty = table.set_index(["label", "metric"]).loc[("ofc-pineapple(royalties.back.pair=1)", "royalty")]
    assert royalty["diff"] > 0 and royalty["diff_ci_low"] >= 0  # a paid back pair pays more, on the same decks
    assert set(table["setter"]) == {"random/random"}  # one strategy a seat
    with pytest.raises(OptionError, match="compare plays one game on common deals"):
        cpstats.compare(["ofc-pineapple", "2-4"], 100)


def test_cli_compare_takes_open_face_presets(capsys):
    argv = ["compare", "--preset", "ofc-pineapple", "--preset", "ofc-pineapple-progressive",
            "--deals", "100", "--strategy", "random", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ofc-pineapple, ofc-pineapple-progressive on 100 common hands")
    assert "baseline" in out[0] and out[1].split()[:3] == ["label", "metric", "estimate"]
