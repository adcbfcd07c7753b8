"""One catalogue of figures (issue 46.1): every figure a game's verbs report is declared once, with its
meaning, unit, scope, basis, kind, interval and display, and one name means one thing in every game."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import cpstats
from cpstats.engine.catalogue import SHARED, Figure, figure_catalogue, figures_of, find_figure
from cpstats.engine.registry import GAMES
from cpstats.errors import OptionError

#: A small run of each game's presets, the weak setter: names do not depend on the play.
RUNS = {"13-card": [("2-4", "greedy"), ("banked", "greedy"), ("2-4(rake=percent,rake.percent=0.05)", "greedy"),
                    ("criss-cross", "greedy")],
        "open-face": [("ofc-pineapple", "greedy"), ("ofc-classic(players=3)", "greedy")]}


def test_the_catalogue_lists_each_figure_once_with_every_column():
    table = figure_catalogue()
    assert list(table.columns) == ["name", "meaning", "unit", "scope", "basis", "kind", "interval", "display",
                                   "label", "games"]
    assert table["name"].is_unique and (table["meaning"].str.len() > 10).all()
    row = table.set_index("name").loc["sd_after_charges"]
    assert (row["unit"], row["basis"], row["kind"]) == ("units", "after charges", "sd")
    assert set(table.set_index("name").loc["sd", "games"].split(", ")) <= set(GAMES)


@pytest.mark.parametrize("game", sorted(RUNS))
def test_every_name_a_game_reports_is_in_the_catalogue(game):
    """figures(), the comparison metrics (compare, sweep, solve's lookup) and the figure names a
    solve accepts, for several rule sets of each game."""
    figures = figures_of(GAMES[game].runs)
    for text, setter in RUNS[game]:
        result = cpstats.simulate(text, 60, setter=setter, rng=1)
        names = set(result.figures()["metric"]) | set(type(result).figure_names(result.variant))
        names |= set(result.figure_batches())
        missing = sorted(n for n in names if find_figure(n, figures) is None)
        assert not missing, (text, missing)


def test_a_name_in_two_games_is_one_figure():
    """A name both games report is the shared declaration, never two with different meanings."""
    by_game = {name: figures_of(game.runs) for name, game in GAMES.items()}
    names = [{f.name for f in figures} for figures in by_game.values()]
    for name in set.intersection(*names) if len(names) > 1 else set():
        declared = {next(f for f in figures if f.name == name) for figures in by_game.values()}
        assert len(declared) == 1 and declared <= set(SHARED.values()), name


def test_two_declarations_of_one_name_are_refused(monkeypatch):
    other = Figure("sd", "the SD per board", "units", "board", "before charges", "sd", "batch t", "units")
    fake = SimpleNamespace(runs=SimpleNamespace(figures=(other,)))
    monkeypatch.setitem(GAMES, "another-game", fake)
    with pytest.raises(OptionError, match="'sd' means two things: .* differ in its meaning, scope"):
        figure_catalogue()


@pytest.mark.parametrize("field, value, allowed", [("unit", "dollars", "units, units squared, units an hour"),
                                                   ("basis", "after rake", "before charges, after charges"),
                                                   ("scope", "player", "seat, position, hand, pair")])
def test_a_figure_is_validated_on_construction(field, value, allowed):
    good = dict(name="x", meaning="a figure", unit="units", scope="seat", basis="none", kind="mean",
                interval="none", display="units")
    with pytest.raises(OptionError, match=f"{field}='{value}' is invalid: one of {allowed}"):
        Figure(**{**good, field: value})


def test_a_family_matches_its_members_only():
    seat = SHARED["mean_seat{seat}"]
    assert seat.matches("mean_seat0") and seat.matches("mean_seat12") and not seat.matches("mean_seat")
    assert not seat.matches("sd_seat0")
    assert find_figure("sd", SHARED.values()) is SHARED["sd"]
