"""One contract, every registered game (the OpenSpiel pattern: one API test runs over every
registered game): each verb plays each game through the registry, and each game's result gives the
shared table API. A game registered later is covered with no edit here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cpstats
from cpstats.engine.registry import GAMES, game_of
from cpstats.engine.base import FIGURE_COLUMNS, FigureBatches, Result
from cpstats.engine.files import load_result, save_result
from cpstats.engine.lookup import figure_name, figure_table

#: Every game registered when the tests are collected (``import cpstats`` registers them all).
REGISTERED = list(GAMES)


@pytest.fixture(params=REGISTERED)
def game(request):
    return GAMES[request.param]


def _variant(game):
    return game.get_preset(game.default_preset or next(iter(game.presets)))


def _run(game, v, **options):
    """A few deals set by the game's probe setter (a fast baseline)."""
    deals = options.pop("deals", max(game.runs.sizes.least, 60))
    return cpstats.simulate(v, deals, setter=game.runs.probe_setter, rng=7, **options)


def _other_players(v) -> int:
    for players in (3, 2, 4):
        if players != v.players:
            try:
                v.replace(players=players)
            except cpstats.OptionError:
                continue
            return players
    raise AssertionError(f"{v} seats no other player count")


def test_the_registry_knows_every_game_and_its_presets(game):
    assert game.runs is not None and game.unit in ("deals", "hands")
    table = cpstats.presets().set_index("name")
    for name in game.presets:
        v = cpstats.get_preset(name)
        assert game_of(v) is game and table.loc[name, "game"] == game.name
        assert cpstats.load_variant(str(v)) == v
    v = _variant(game)
    assert cpstats.describe(v).splitlines()[0].endswith(f"[{v}]")
    assert "(" not in cpstats.short_label(v.replace(players=_other_players(v)))


def test_simulate_gives_the_shared_table_api(game, tmp_path):
    v = _variant(game)
    r = _run(game, v, out=tmp_path / "run", keep_hands=True)
    assert isinstance(r, Result) and game_of(r.variant) is game
    figures = r.figures()
    assert tuple(figures.columns[:5]) == FIGURE_COLUMNS and len(figures) > 0
    paired = r.figure_batches()
    assert paired and all(isinstance(f, FigureBatches) and len(f.batches) == r.batches for f in paired.values())
    assert len(r.rows()) > 0 and "net" in r.distribution().columns
    assert r.metadata["run_digest"] and r.metadata["setter"]["name"] == game.runs.probe_setter
    again = load_result(save_result(r, tmp_path / "saved"))
    pd.testing.assert_frame_equal(again.figures(), figures)


def test_until_grows_a_run_of_every_game_to_a_precision(game):
    """An easy precision stops at the game's pilot stage, the run the fixed-deals run of that length."""
    v = _variant(game)
    name = next(m for m in figure_table(_run(game, v))["metric"] if figure_name(v, m) == m)
    pilot = game.runs.sizes.pilot
    r = cpstats.simulate(v, 4 * pilot, setter=game.runs.probe_setter, rng=7, until={name: 1e9})
    assert r.metadata["until"]["reached"] and r.deals == pilot
    pd.testing.assert_frame_equal(r.figures(), _run(game, v, deals=pilot).figures())


def test_compare_pairs_two_variants_of_every_game(game):
    v = _variant(game)
    w = v.replace(players=_other_players(v))
    table = cpstats.compare([v, w], 60, setter=game.runs.probe_setter, rng=7, tidy=True)
    assert {"label", "metric", "estimate", "ci_low", "ci_high", "diff", "diff_ci_low"} <= set(table.columns)
    first = table[table["label"] == table["label"].iloc[0]]
    assert np.nanmax(np.abs(first["diff"].to_numpy(float))) == 0.0  # the first variant against itself
    other = next((g for g in GAMES.values() if g is not game), None)
    if other is not None:
        with pytest.raises(cpstats.OptionError, match="compare plays one game"):
            cpstats.compare([v, _variant(other)], 10)


def test_sweep_walks_a_rule_of_every_game_on_common_deals(game):
    v = _variant(game)
    values = [v.players, _other_players(v)]
    table = cpstats.sweep(v, "players", values, deals=60, setter=game.runs.probe_setter, rng=7)
    assert table["value"].iloc[0] == values[0] and set(table["value"]) == set(values)
    assert (table.loc[table["value"] == values[0], "diff"].abs() == 0).all()
    assert table.attrs["unit"] == game.unit and table.attrs["pairing"] == "nested deals"


def test_skill_measures_the_strong_setter_of_every_game_that_has_a_table(game):
    v = _variant(game)
    if game.runs.skill is None:
        with pytest.raises(cpstats.OptionError, match="has no skill table"):
            cpstats.skill(v, deals=4)
        return
    table = cpstats.skill(v, deals=4, rng=7)
    assert {"label", "mean", "ci_low", "ci_high", "deals"} <= set(table.columns)
    assert table.attrs["variant"] == str(v)


def _a_figure(game, v, deals: int) -> tuple[str, float]:
    """A figure of ``v``'s run (a name the lookup takes as it is) and its estimate there."""
    table = figure_table(_run(game, v, deals=deals)).set_index("metric")
    for name, row in table.iterrows():
        if figure_name(v, name) == name and np.isfinite(row["estimate"]) and 0 <= row["estimate"] <= 1:
            return name, float(row["estimate"])
    raise AssertionError(f"no figure of {v} to solve for")


def test_solve_and_design_search_a_rule_of_every_game(game):
    v = _variant(game)
    low, high = sorted([v.players, _other_players(v)])
    deals = max(game.runs.sizes.least, 60)
    metric, target = _a_figure(game, v.replace(players=low), deals)
    s = cpstats.solve(v, "players", metric, target, bounds=[low, high], deals=deals,
                      setter=game.runs.probe_setter, rng=7)
    assert s.value in (low, high) and s.unit == game.unit and len(s.evaluations) >= 2
    d = cpstats.design(v, {"players": (low, high)}, metric, trials=2, finalists=1, deals=deals,
                       setter=game.runs.probe_setter, rng=7)
    assert d.best["players"] in (low, high) and d.objective == metric


def test_every_registered_reference_opens(game):
    names = list(game.runs.references)
    if not names:
        pytest.skip(f"the {game.name} game ships no reference runs")
    r = cpstats.load_reference(names[0])
    assert game_of(r.variant) is game and len(r.figures()) > 0
