"""The presets (cpstats.engine.registry.presets): every required one, the table of them, their scoring, names
in any case, and plain data that get_preset and presets() build and list exactly."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from cpstats.engine.registry import get_preset, presets
from cpstats.thirteen.rules.presets import preset_names
from cpstats.thirteen.rules.ids import NaturalSchedule, RoyaltySchedule, Scoring
from cpstats.rules.house import RakeModel
from cpstats.thirteen.rules.components import ScoringRules
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.registry import load_variant


REQUIRED_PRESETS = [
    "basic", "2-4", "2-4-total", "1-4", "1-6", "futurebet-2-4", "futurebet-1-6",
    "pagat-typical", "pagat-casino", "taiwanese", "eastern", "western", "mandarin",
    "thirteen-card", "banked", "criss-cross", "race-to-11",
]


def test_required_presets_exist() -> None:
    assert set(REQUIRED_PRESETS) <= set(preset_names())


def test_presets_dataframe() -> None:
    from cpstats.engine.registry import games
    from cpstats.thirteen.rules.variant import GAME

    table = presets()
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns) == ["name", "game", "description", "seed", "variant"]
    assert list(table["name"]) == [name for game in games().values() for name in game.presets]
    assert list(table["game"]) == [game.name for game in games().values() for _ in game.presets]
    cards = table[table["game"] == GAME]
    assert list(cards["name"]) == list(preset_names())
    assert set(cards["seed"]) <= {"000", "001", "002", "004"}
    for name, game in zip(table["name"], table["game"]):
        assert isinstance(get_preset(name), games()[game].variant_type)
    assert all("\n" not in d and d for d in table["description"])
    for name, text in zip(table["name"], table["variant"]):
        assert load_variant(text) == get_preset(name)


def test_basic_is_the_default_variant() -> None:
    assert get_preset("basic") == Variant() and str(Variant()) == "basic"
    assert get_preset("basic").scoring.system is Scoring.BASIC


@pytest.mark.parametrize("name, scoring", [
    ("2-4", "SC-2-4"), ("2-4-total", "SC-2-4-total"), ("1-4", "SC-1-4"), ("1-6", "SC-1-6"),
    ("taiwanese", "SC-TW"), ("eastern", "SC-EASTERN"), ("western", "SC-2-4"),
    ("mandarin", "SC-MANDARIN"), ("race-to-11", "SC-RACE-11"), ("pagat-casino", "SC-1-6-HR"),
])
def test_preset_scoring(name: str, scoring: str) -> None:
    assert get_preset(name).scoring.system.value == scoring
    assert get_preset(name).scoring == ScoringRules(system=scoring)


def test_futurebet_presets() -> None:
    for name, surrender in (("futurebet-2-4", 2), ("futurebet-1-6", 3)):
        v = get_preset(name)
        assert v.royalties.schedule is RoyaltySchedule.FUTUREBET
        assert v.surrender_amount() == surrender
        assert v.rake.model is RakeModel.FIXED_PLAYER and v.rake.amount > 0


def test_pagat_presets() -> None:
    typical = get_preset("pagat-typical")
    assert typical.royalties.schedule is RoyaltySchedule.PAGAT_TYPICAL
    assert typical.naturals.schedule is NaturalSchedule.PAGAT_TYPICAL
    casino = get_preset("pagat-casino")
    assert casino.royalties.schedule is RoyaltySchedule.PAGAT_CASINO
    assert casino.surrender_amount() == 3 and casino.chips_limit and casino.aces.enabled


def test_taiwanese_and_004_presets() -> None:
    tw = get_preset("taiwanese")
    assert (tw.royalties.schedule, tw.naturals.schedule) == (RoyaltySchedule.TW, NaturalSchedule.TW)
    for name in ("eastern", "western", "mandarin", "thirteen-card"):
        v = get_preset(name)
        assert v.naturals.schedule is NaturalSchedule.AUTOWIN and v.misset.points == 4
    assert get_preset("eastern").royalties.schedule is RoyaltySchedule.EASTERN
    assert get_preset("mandarin").royalties.schedule is RoyaltySchedule.MANDARIN


def test_presets_are_case_insensitive() -> None:
    assert get_preset(" Taiwanese ") == get_preset("taiwanese")
    assert load_variant("TAIWANESE") == get_preset("taiwanese")


def test_presets_are_data_that_get_preset_builds() -> None:
    """The preset definitions are plain data (components and values, no Variant), and
    get_preset and presets() build and list exactly them."""
    from cpstats.thirteen.rules.presets import PRESETS

    assert preset_names() == tuple(PRESETS)
    table = presets().set_index("name")
    for name, preset in PRESETS.items():
        assert not any(isinstance(v, Variant) for v in preset.options.values())
        assert get_preset(name) == Variant(name=name, **preset.options)
        assert table.loc[name, "description"] == preset.description
        assert table.loc[name, "seed"] == preset.seed
        assert load_variant(table.loc[name, "variant"]) == get_preset(name)


@pytest.mark.parametrize("name", REQUIRED_PRESETS)
def test_preset_round_trips(name: str) -> None:
    v = get_preset(name)
    assert str(v) == name
    assert load_variant(str(v)) == v
    assert Variant.from_dict(v.to_dict()) == v
    assert Variant.from_json(v.to_json()) == v
    json.loads(v.to_json())  # plain JSON
    assert hash(v) == hash(load_variant(name))
