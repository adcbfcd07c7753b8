"""One contract, every game (the OpenSpiel pattern: one API test runs over every registered game):
each verb plays each game through the registry, and each game's rules, setter, summary and result
have what the checklist below says. A game registered later is covered with no edit here.

The games are those ``import cpstats`` registers, and the toy showdown (``tests/toy_showdown``,
a game written as a new one is), registered only while its own tests run. :data:`CHECKLIST` is
docs/architecture.md's checklist for adding a game: the page shows it as :func:`checklist_text`
renders it (a test keeps the two equal), and every item is a check run on every game here.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pytest

import cpstats
from cpstats.engine.additive import Additive
from cpstats.engine.base import FIGURE_COLUMNS, FigureBatches, Result
from cpstats.engine.files import load_result, save_result
from cpstats.engine.lookup import figure_name, figure_table
from cpstats.engine.registry import GAMES, Game, game_of, holds_whole_numbers
from cpstats.engine.setter import Setter
from helpers import ROOT
from helpers.toy import PACKAGE as TOY, toy_registered

#: Every game ``import cpstats`` registers, and the toy's package.
GAME_PARAMS = [*GAMES, TOY]


@pytest.fixture(scope="module", params=GAME_PARAMS)
def game(request):
    """Each game in turn (the toy registered while its tests run: pytest groups them)."""
    if request.param != TOY:
        yield GAMES[request.param]
        return
    with toy_registered() as toy:
        yield toy.GAME


def _variant(game: Game) -> Any:
    return game.get_preset(game.default_preset)


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


def _others(game: Game) -> list[Game]:
    return [g for g in GAMES.values() if g is not game]


# -- the checklist: what a new game must give, each item checked on every game ---------------------

class Played(NamedTuple):
    """What the checks look at: the game, its default preset, a short run of it by the probe
    setter that kept its rows (in memory and in its folder) and a folder to write in."""

    game: Game
    v: Any
    run: Result
    folder: Path


class Need(NamedTuple):
    """One item of the checklist: what has it (``part``), the line docs/architecture.md shows
    (Markdown), and the check that holds every game to it."""

    part: str
    text: str
    check: Callable[[Played], None]


def _frozen(obj: Any) -> bool:
    return dataclasses.is_dataclass(obj) and type(obj).__dataclass_params__.frozen


def _rules_are_frozen_data(p: Played) -> None:
    assert _frozen(p.v), f"{type(p.v).__name__} is no frozen dataclass"
    with pytest.raises(cpstats.OptionError):
        p.v.replace(players=99)


def _rules_name_their_game(p: Played) -> None:
    assert type(p.v).game == p.game.name and "game" not in {f.name for f in dataclasses.fields(p.v)}
    assert p.v.name == p.game.default_preset and isinstance(p.v.players, int)
    assert "players" in p.game.keys and holds_whole_numbers(p.v, "players")


def _rules_are_a_string(p: Played) -> None:
    w = p.v.replace(players=_other_players(p.v))
    assert p.game.parse(str(p.v)) == p.v and cpstats.load_variant(str(w)) == w and w != p.v
    assert w.players == _other_players(p.v) and p.v == _variant(p.game)  # a copy, the original kept


def _rules_are_plain_data(p: Played) -> None:
    data = p.v.to_dict()
    assert type(p.v).from_dict(json.loads(json.dumps(data))) == p.v


def _rules_are_a_file(p: Played) -> None:
    path = p.v.to_file(p.folder / f"{p.v.name}.toml", label="a label", description="a line")
    assert cpstats.load_variant(path) == p.v


def _game_is_registered_by_its_package(p: Played) -> None:
    assert GAMES[p.game.name] is p.game and p.game.label and p.game.unit in ("deals", "hands")
    assert p.game.default_preset in p.game.presets
    assert all(isinstance(p.game.get_preset(name), p.game.variant_type) for name in p.game.presets)
    package = importlib.import_module(_package_of(p.game))
    assert package.GAME is p.game, f"{package.__name__}.GAME is not the registered game"


def _game_has_keys(p: Played) -> None:
    assert all(isinstance(p.game.key_of(key).path, tuple) for key in p.game.keys)
    assert p.game.key_name("players") == "players"


def _game_has_words(p: Played) -> None:
    lines = p.game.describe_rules(p.v)
    assert lines and all(isinstance(rule, str) and isinstance(words, str) for rule, words in lines)
    label = p.game.short_label(p.v.replace(players=_other_players(p.v)), 4)
    assert label.startswith(p.v.name) and "(" not in label and "=" not in label


def _setter_is_named(p: Played) -> None:
    runs = p.game.runs
    setter = runs.resolve_setter(None, p.v)
    assert isinstance(setter, Setter) and _frozen(setter)
    assert setter.name == runs.default_setter and setter.game == p.game.name
    assert runs.setter(setter.name, p.v) == setter and runs.setter(setter, p.v) == setter
    assert p.run.metadata["setter"]["name"] == runs.probe_setter


def _setter_refuses_another_games(p: Played) -> None:
    mine = p.game.runs.resolve_setter(None, p.v)
    for other in _others(p.game):
        theirs = other.runs.resolve_setter(None, _variant(other))
        for runs, setter, v in ((p.game.runs, theirs, p.v), (other.runs, mine, _variant(other))):
            with pytest.raises(cpstats.OptionError) as refused:
                runs.setter(setter, v)
            assert "\n" not in str(refused.value)


def _summary_is_additive(p: Played) -> None:
    s = p.run.summary
    assert isinstance(s, Additive) and type(s) is p.game.runs.summary and _frozen(s)
    assert int((s + s).deals) == 2 * int(s.deals)
    again = type(s).from_arrays(s.to_arrays())
    assert all(np.array_equal(again.to_arrays()[k], x) for k, x in s.to_arrays().items())


def _summary_counts_deals_by_batch(p: Played) -> None:
    s = p.run.summary
    assert int(s.deals) == p.run.deals == int(np.sum(s.batch_sizes)) and len(s.batch_sizes) == p.run.batches


def _runs_are_blocks(p: Played) -> None:
    meta = p.run.metadata
    assert meta["variant"] == str(p.v) and meta["run_digest"] and meta["dealer"]
    serial = _run(p.game, p.v, block_deals=16, out=p.folder / "blocks").figures()
    with ThreadPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(_run(p.game, p.v, block_deals=16, executor=pool).figures(), serial)
    resumed = _run(p.game, p.v, block_deals=16, out=p.folder / "blocks", resume=True)
    pd.testing.assert_frame_equal(resumed.figures(), serial)


def _result_is_read_back(p: Played) -> None:
    r, runs = p.run, p.game.runs
    assert isinstance(r, Result) and isinstance(r, runs.result) and game_of(r.variant) is p.game
    pd.testing.assert_frame_equal(runs.result(p.v, r.summary, r.metadata).figures(), r.figures())
    again = load_result(save_result(r, p.folder / "saved"))
    pd.testing.assert_frame_equal(again.figures(), r.figures())


def _result_has_figures(p: Played) -> None:
    figures, paired = p.run.figures(), p.run.figure_batches()
    assert tuple(figures.columns[:5]) == FIGURE_COLUMNS and len(figures) > 0
    assert paired and all(isinstance(f, FigureBatches) and len(f.batches) == p.run.batches for f in paired.values())
    assert list(p.game.runs.result.figure_names(p.v)) == list(figure_table(p.run)["metric"])


def _result_has_rows(p: Played) -> None:
    assert len(p.run.rows()) > 0 and "net" in p.run.distribution().columns


#: What a new game gives, part by part (docs/architecture.md shows this list).
CHECKLIST = (
    Need("rules", "a frozen dataclass (`@dataclass(frozen=True)`) whose `__post_init__` refuses a rule it "
         "cannot play with `OptionError`", _rules_are_frozen_data),
    Need("rules", "`game`, a class attribute: the game's registered name; `name`, the preset it starts from; "
         "`players`, the seats, a key of its string typed `int`", _rules_name_their_game),
    Need("rules", "`str(v)`, its variant string (`preset(key=value,...)`), which the game's `parse` and "
         "`load_variant` read back equal; `replace(**changes)`, a validated copy", _rules_are_a_string),
    Need("rules", "`to_dict()`, every rule as plain data, and `from_dict(data)` back", _rules_are_plain_data),
    Need("rules", "`to_file(path, label=, description=)`, a variant file that `load_variant` reads back equal "
         "(`cpstats.engine.variant_files.write_file` writes one)", _rules_are_a_file),
    Need("registration", "a `Game` record registered by the package's `__init__.py` "
         "(`GAME = register_game(...)`): `name`, `label`, `unit` (`deals` or `hands`), `presets` (name: one "
         "line), `get_preset`, `default_preset`", _game_is_registered_by_its_package),
    Need("registration", "`keys`, `key_of(key)` (an object with the key's `path`, as "
         "`cpstats.rules.codec.Key`) and `key_name(parameter)`", _game_has_keys),
    Need("registration", "`describe_rules(v)`, `(rule, words)` pairs, and `short_label(v, max_parts)`, "
         "words with no brackets", _game_has_words),
    Need("setter", "a frozen subclass of `cpstats.engine.setter.Setter` with `name` and `game` class attributes; "
         "`GameRuns.setter(setter, v)` gives it for its name or itself; `GameRuns.default_setter` names the "
         "setter that plays `setter=None`, `GameRuns.probe_setter` a fast one for quick runs", _setter_is_named),
    Need("setter", "another game's setter refused by `GameRuns.setter` in one line (`OptionError`), as every "
         "other game refuses this one's", _setter_refuses_another_games),
    Need("summary", "a frozen `cpstats.engine.additive.Additive` dataclass (fields declared with `summed`, "
         "`largest` or `by_value`): two add (`a + b`), and `from_arrays(to_arrays())` gives it back",
         _summary_is_additive),
    Need("summary", "`deals` and `batch_sizes` (deals a batch), which the results' base reads "
         "(`Result.deals`, `Result.batches`)", _summary_counts_deals_by_batch),
    Need("runs", "`GameRuns.simulate`: `block_run(play, Summary, Result, block_deals=, dealer=)` from "
         "`play(spec, block, size)`, which deals from `block_seed(spec.root(), block)` alone (a new game's "
         "dealer: `cpstats.cards.deal_seats`, `dealer=SEATS_DEALER`), so a run is the same serial, in threads "
         "and resumed", _runs_are_blocks),
    Need("result", "a `cpstats.engine.base.Result` subclass built as `Result(v, summary, metadata)` (how "
         "`load_result` reads a saved run back)", _result_is_read_back),
    Need("result", "`figure_batches()`, each figure with its value on every batch (`figures()` is their "
         "table), and the class method `figure_names(v)`, the same names from the rules alone",
         _result_has_figures),
    Need("result", "`rows()`, a row a deal and seat of a run that kept them (`keep_hands=True`, with or "
         "without `out=`), and `distribution()`, each `net` value and how often each seat had it",
         _result_has_rows),
)

#: The shared files a new game's package touches (everything else reads the registry).
SHARED_EDITS = (
    ("cpstats/__init__.py", "one line importing the game's package beside the others' "
                            "(`from cpstats import <game> as _<game>`), so `import cpstats` registers it"),
    ("data/", "regenerated with `cpstats data`: a variant file a new preset (`variants/<preset>.toml`) and a "
              "table a shipped reference run (`reference/<preset>.csv`)"),
)

_PARTS = {"rules": "The rules (the variant type)", "registration": "The registration (`Game`)",
          "setter": "The setter", "summary": "The summary", "runs": "The runs (`GameRuns`)",
          "result": "The result"}


def checklist_text() -> str:
    """The checklist as docs/architecture.md shows it (Markdown)."""
    lines: list[str] = []
    for part, title in _PARTS.items():
        lines += ["", f"**{title}**", ""] + [f"- {need.text}" for need in CHECKLIST if need.part == part]
    lines += ["", "**Shared files a new game touches**, and nothing else:", ""]
    lines += [f"- `{path}`: {what}" for path, what in SHARED_EDITS]
    return "\n".join(lines[1:])


#: The markers docs/architecture.md holds the checklist between.
BEGIN, END = "<!-- checklist: tests/verbs/test_games_contract.py -->", "<!-- end of checklist -->"


def _package_of(game: Game) -> str:
    """The package a game's variant type lives in (``cpstats.ofc``, ``toy_showdown``)."""
    parts = game.variant_type.__module__.split(".")
    return ".".join(parts[:2] if parts[0] == "cpstats" else parts[:1])


@pytest.fixture(scope="module")
def played(game, tmp_path_factory) -> Played:
    v, folder = _variant(game), tmp_path_factory.mktemp(_package_of(game))
    return Played(game, v, _run(game, v, keep_hands=True, out=folder / "run"), folder)


@pytest.mark.parametrize("need", CHECKLIST, ids=[need.check.__name__.strip("_") for need in CHECKLIST])
def test_every_game_has_what_the_checklist_says(played, need):
    need.check(played)


def test_the_architecture_page_shows_the_checklist():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert BEGIN in page and END in page, f"docs/architecture.md lacks the markers {BEGIN} ... {END}"
    shown = page.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert shown == checklist_text(), "docs/architecture.md's checklist differs; paste:\n" + checklist_text()


def test_the_checklist_checks_each_part_of_a_game():
    assert {need.part for need in CHECKLIST} == set(_PARTS)
    assert len({need.check for need in CHECKLIST}) == len(CHECKLIST)


def test_no_verb_names_a_default_setter():
    """``setter=None`` is each game's own default (``GameRuns.default_setter``) in every verb."""
    for verb in (cpstats.simulate, cpstats.compare, cpstats.sweep, cpstats.skill, cpstats.solve, cpstats.design):
        parameters = inspect.signature(verb).parameters
        assert parameters["setter"].default is None, verb.__name__
        assert "tables" not in parameters, verb.__name__


# -- every verb over every game ----------------------------------------------------------------

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
    for other in _others(game)[:1]:
        with pytest.raises(cpstats.OptionError, match="compare plays one game"):
            cpstats.compare([v, _variant(other)], 10)


def test_sweep_walks_a_rule_of_every_game_on_common_deals(game):
    """A players sweep's points pair as the game's sweep says: the engine's (a game that registers
    none) pairs every point on the same deals; a game's own may deal each player count its own
    deals and pair them in part (``nested deals``)."""
    v = _variant(game)
    values = [v.players, _other_players(v)]
    table = cpstats.sweep(v, "players", values, deals=60, setter=game.runs.probe_setter, rng=7)
    assert table["value"].iloc[0] == values[0] and set(table["value"]) == set(values)
    assert (table.loc[table["value"] == values[0], "diff"].abs() == 0).all()
    pairing = {"common deals"} if game.runs.sweep is None else {"common deals", "nested deals"}
    assert table.attrs["unit"] == game.unit and table.attrs["pairing"] in pairing


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
