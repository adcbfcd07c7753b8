"""The rules' refusals read for a user (issue 50 item 11): the allowed values in words (no bare
rulebook ID), every word a value may be (``none``, ``scoop``), a fraction given as a percentage
answered with the fraction it likely means, and an unknown key quoted with its close matches."""

from __future__ import annotations

import re

import pytest

import cpstats
from cpstats.errors import OptionError
from cpstats.rules.house import Bank, Rake
from cpstats.engine.registry import GAMES
from cpstats import ofc
from cpstats.thirteen.rules.variant import Variant

# A rulebook ID the user never writes (D2, OFC-DEAL-PINEAPPLE, MAX_NUMBER) in brackets at the end.
_BARE_ID = re.compile(r"\((?:[A-Z][A-Z0-9]*-)*[A-Z]+[0-9]*(?:-[A-Z0-9]+)*\)$|\(D[23]\)|MAX_NUMBER")


@pytest.mark.parametrize("text, message", [
    ("2-4(players=7)", r"^players=7 is invalid: 2, 3 or 4 players$"),
    ("ofc-pineapple(players=4)", r"^players=4 is invalid: 2 or 3 players with the pineapple deal "
                                 r"\(2, 3 or 4 with deal=classic\)$"),
    ("ofc-pineapple(deal=classic,players=5)", r"^players=5 is invalid: 2, 3 or 4 players$"),
])
def test_a_player_count_says_the_allowed_counts_in_words(text, message):
    with pytest.raises(OptionError, match=message):
        cpstats.load_variant(text)


def test_players_refused_by_the_python_api_read_the_same():
    with pytest.raises(OptionError, match=r"^players=7 is invalid: 2, 3 or 4 players$"):
        Variant(players=7)
    with pytest.raises(OptionError, match=r"^players=9 is invalid: 2 or 3 players"):
        ofc.Variant(players=9)


@pytest.mark.parametrize("text", [
    "2-4(players=7)", "2-4(players=1e12)", "ofc-pineapple(players=9)", "2-4(scoring=SC-1-6-HR,home_run=false)",
    "ofc-pineapple(deal=classic,players=5)", "2-4(royalties.front_trips=1e12)",
])
def test_no_message_ends_on_a_bare_rulebook_id(text):
    """A rulebook ID appears only as a value the user writes (``scoring=SC-1-6``), never alone."""
    with pytest.raises(OptionError) as err:
        cpstats.load_variant(text)
    assert not _BARE_ID.search(str(err.value)), str(err.value)


@pytest.mark.parametrize("text, message", [
    ("2-4(rake=percent,rake.cap=abc)", r"^rake\.cap='abc' is invalid: expected a number of units, or none$"),
    ("ofc-pineapple(rake=percent,rake.cap=abc)", r"^rake\.cap='abc' is invalid: expected a number of units, "
                                                 r"or none$"),
    ("2-4(misset=lots)", r"^misset='lots' is invalid: expected a number of units, or scoop$"),
    ("taiwanese(naturals.dragon=lots)", r"^naturals\.dragon='lots' is invalid: expected a number of units, "
                                        r"or scoop$"),
    ("2-4(players=2,stakes=0:x/x:0)", r"^stakes=.0:x/x:0. is invalid: expected rows of units joined by / "
                                       r"\(0:1/1:0 for two players\), or none$"),
])
def test_a_value_that_may_be_a_word_names_the_word(text, message):
    with pytest.raises(OptionError, match=message):
        cpstats.load_variant(text)


def test_the_python_api_names_none_for_the_cap():
    with pytest.raises(OptionError, match=r"^rake\.cap='abc' is invalid: expected a number of units, or none$"):
        Rake(model="percent", percent=0.05, cap="abc")


@pytest.mark.parametrize("text, message", [
    ("2-4(rake=percent,rake.percent=5)", r"^rake\.percent=5 is invalid: a fraction of the pot, at most 1 "
                                         r"\(did you mean 0\.05, 5%\?\)$"),
    ("banked(bank.commission=5)", r"^bank\.commission=5 is invalid: a fraction of the win, below 1 "
                                  r"\(did you mean 0\.05, 5%\?\)$"),
    ("banked(bank.commission=2.5)", r"\(did you mean 0\.025, 2\.5%\?\)$"),
    ("ofc-pineapple(rake=percent,rake.percent=100)", r"at most 1 \(did you mean 1, 100%\?\)$"),
])
def test_a_percentage_given_for_a_fraction_suggests_the_fraction(text, message):
    with pytest.raises(OptionError, match=message):
        cpstats.load_variant(text)


@pytest.mark.parametrize("text", ["2-4(rake=percent,rake.percent=101)", "banked(bank.commission=100)",
                                  "banked(bank.commission=1)"])
def test_no_suggestion_that_would_be_refused_too(text):
    """Past 100, or where the fraction itself is out of range (a commission of 1), no guess."""
    with pytest.raises(OptionError) as err:
        cpstats.load_variant(text)
    assert "did you mean" not in str(err.value)


def test_the_python_api_suggests_the_fraction_too():
    with pytest.raises(OptionError, match=r"did you mean 0\.05, 5%\?"):
        Rake(model="percent", percent=5)
    with pytest.raises(OptionError, match=r"did you mean 0\.08, 8%\?"):
        Bank(mode="S-BANK", commission=8)


def _refusal(preset: str, key: str, value: str) -> str | None:
    try:
        cpstats.load_variant(f"{preset}({key}={value})")
    except OptionError as err:
        return str(err)
    return None


def test_every_fraction_valued_option_of_every_game_suggests_the_fraction():
    """Found by what each key of each registered game says of 5 (a bound of 1 or a fraction),
    not listed by hand: each such key suggests 0.05."""
    fractions = []
    for game in GAMES.values():
        preset = game.default_preset or next(iter(game.presets))
        for key in game.keys:
            said = _refusal(preset, key, "5")
            if said and re.search(r"fraction|(at most|below) 1\b", said):
                fractions.append(f"{game.name} {key}")
                assert "(did you mean 0.05, 5%?)" in said, said
    assert {"13-card rake.percent", "13-card bank.commission", "open-face rake.percent"} <= set(fractions)


@pytest.mark.parametrize("text, message", [
    ("2-4(royalties.front_trip=3)", r"^'royalties\.front_trip' is an unknown key \(did you mean "
                                    r"'royalties\.front_trips'\?\)$"),
    ("2-4(player=3)", r"^'player' is an unknown key \(did you mean 'players'\?\)$"),
    ("ofc-pineapple(royalties.front.Q=3)", r"^'royalties\.front\.Q' is an unknown key \(did you mean "
                                           r"'royalties\.front\.QQ'"),
    ("2-4(zzz=3)", r"^'zzz' is an unknown key; the keys: .*players.*royalties\.\*"),
    ("ofc-pineapple(zzz=3)", r"^'zzz' is an unknown key; the keys: .*fantasyland\.cards"),
])
def test_an_unknown_key_is_quoted_with_its_close_matches(text, message):
    with pytest.raises(OptionError, match=message):
        cpstats.load_variant(text)


def test_an_unknown_key_of_the_python_api_is_quoted():
    with pytest.raises(OptionError, match=r"^'rake\.percnt' is an unknown key \(did you mean 'rake\.percent'\?\)$"):
        Variant(rake={"model": "percent", "percnt": 0.05})
    with pytest.raises(OptionError, match=r"^'player' is an unknown key \(did you mean 'players'\?\)$"):
        Variant.from_dict({"player": 3})
    with pytest.raises(OptionError, match=r"^'player' is an unknown key \(did you mean 'players'\?\)$"):
        ofc.Variant.from_dict({"player": 3})


def test_stay_cards_below_zero_say_the_cards_allowed():
    with pytest.raises(OptionError, match=r"^fantasyland\.stay_cards=-1 is invalid: 13\.\.17 cards$"):
        cpstats.load_variant("ofc-pineapple(fantasyland.stay_cards=-1)")


def test_fantasyland_cards_below_zero_say_the_cards_allowed():
    with pytest.raises(OptionError, match=r"^fantasyland\.cards\.trips=-1 is invalid: 0 \(no entry\) or 13\.\.17 cards$"):
        cpstats.load_variant("ofc-pineapple(fantasyland.cards=14/14/14/-1)")
