"""The package's layout is its architecture: layers import one way, no circles, short modules,
and game wings over one engine (docs/architecture.md).

Layers, lowest first: cards, hands (ranking and rows, every game's), rules (the house components
the games charge, the checks, the rulebook's glossary, the codec helpers), the engine (runner,
statistics, results' base, the registry of games, the setter contract), the games side by side
(each its whole game: every registered game's package, found from the registry), the verbs
(workbench), apps. ``cpstats.errors``, ``cpstats._version``, ``cpstats._resources`` and
``cpstats._atomic`` sit below them all; the package root re-exports the public API and is imported
by nothing inside. Every import counts, at module level or inside a function.

The games are read from the registry (``import cpstats`` registers the package's), with the toy
showdown (``tests/toy_showdown``) registered beside them while this module runs: its package is
held to every rule here as a game of the package is, so a new game needs no edit of this file.
"""

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from helpers import PACKAGE, ROOT
from helpers.toy import PACKAGE as TOY, toy_registered

#: The shared layers, lowest first; every registered game's package sits on :data:`GAME_LAYER`.
SHARED_LAYERS = {"errors": 0, "_version": 0, "_resources": 0, "_atomic": 0, "cards": 1, "hands": 2, "rules": 3,
                 "engine": 4, "workbench": 6, "apps": 7}
#: The games' layer: above the engine, below the verbs; each game's package found from the registry.
GAME_LAYER = 5
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
#: The code these rules read: the package, and the toy game's package (a game written as a new one
#: is, ``tests/toy_showdown``), each by its import name; a ``conftest.py`` is pytest's, not the game's.
SOURCES = {"cpstats": PACKAGE, TOY: ROOT / "tests" / TOY}


class Games(NamedTuple):
    """What the rules read of the registered games (the toy's included): each game's package
    (``cpstats.ofc``, ``toy_showdown``), the words that name it in code (its name, its package's
    folder, its presets) and what else it claims as its own (open face: any ``ofc-*`` name)."""

    packages: dict[str, str]
    words: dict[str, frozenset[str]]
    claims: dict[str, Callable[[str], bool]]


def package_of(game) -> str:
    """The package a registered game's variant type lives in."""
    parts = game.variant_type.__module__.split(".")
    return ".".join(parts[:2] if parts[0] == "cpstats" else parts[:1])


@pytest.fixture(scope="module")
def games() -> Games:
    """The registered games, the toy registered beside the real ones while this module runs."""
    from cpstats.engine.registry import GAMES

    with toy_registered():
        packages = {name: package_of(game) for name, game in GAMES.items()}
        words = {name: frozenset({name, packages[name].rpartition(".")[2], *game.presets})
                 for name, game in GAMES.items()}
        yield Games(packages, words, {name: game.claims for name, game in GAMES.items()})


@pytest.fixture(scope="module")
def layers(games) -> dict[str, int]:
    return {**SHARED_LAYERS, **{package.rpartition(".")[2]: GAME_LAYER for package in games.packages.values()}}


def _source_files() -> dict[str, Path]:
    """Every source file, by its path from its source's parent (``cpstats/cards/codes.py``,
    ``toy_showdown/block.py``)."""
    return {str(path.relative_to(root.parent)): path for root in SOURCES.values()
            for path in sorted(root.rglob("*.py")) if path.name != "conftest.py"}


def _modules() -> dict[str, Path]:
    out = {}
    for rel, path in _source_files().items():
        parts = Path(rel).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` imports (a package's import counts as its __init__)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in known}
    return found - {name}


def _offending_lines(rule, exempt: tuple[str, ...] = ()) -> dict[str, list[int]]:
    """Every source file outside ``exempt`` (path prefixes) with the lines ``rule`` flags."""
    return {rel: lines for rel, path in _source_files().items()
            if not rel.startswith(exempt) and (lines := rule(ast.parse(path.read_text())))}


def _layer(module: str, layers: dict[str, int]) -> int | None:
    """The layer of a package module by its subpackage, of the toy's by its package; the package
    root has none."""
    parts = module.split(".")
    if parts[0] != "cpstats":
        return layers[parts[0]]
    return layers[parts[1]] if len(parts) > 1 else None


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def test_every_subpackage_has_a_layer(graph, layers):
    """A shared layer is listed; a new game's package has its layer by being registered."""
    tops = {m.split(".")[1] if m.startswith("cpstats.") else m.split(".")[0] for m in graph if m != "cpstats"}
    assert tops <= set(layers), tops - set(layers)


def test_imports_never_point_up_a_layer(graph, layers):
    upward = [f"{a} -> {b}" for a, targets in graph.items() for b in targets
              if a != "cpstats" and (b == "cpstats" or _layer(b, layers) > _layer(a, layers))]
    assert not upward, "\n".join(sorted(upward))


def test_no_import_circles(graph):
    """Depth-first search for a back edge; the circle found is named."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt] if nxt in path else path + [nxt]
            if nxt not in state and (found := visit(nxt, path + [nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (circle := visit(start, [start])):
            pytest.fail("import circle: " + " -> ".join(circle))


def test_modules_are_read_in_one_sitting():
    long = {rel: n for rel, p in _source_files().items() if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, long


def _code_lines(node: ast.FunctionDef) -> int:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return body[-1].end_lineno - body[0].lineno + 1 if body else 0


def test_functions_fit_on_a_screen_outside_kernels():
    long = [f"{rel}:{n.name} ({_code_lines(n)} lines)"
            for rel, p in _source_files().items() for n in ast.walk(ast.parse(p.read_text()))
            if isinstance(n, ast.FunctionDef) and _code_lines(n) > MAX_FUNCTION_LINES
            and not any("njit" in ast.unparse(d) for d in n.decorator_list)]
    assert not long, long


def test_the_toy_game_is_read_by_these_rules(graph, layers):
    """The rules above read the toy's package too, on the games' layer."""
    assert f"{TOY}/block.py" in _source_files() and _layer(f"{TOY}.block", layers) == GAME_LAYER
    assert any(b.startswith("cpstats.engine") for b in graph[f"{TOY}.game"])


def test_the_import_check_sees_a_circle_and_an_upward_import(tmp_path):
    """The checks above can fail: a two-module circle, an import from apps into cards, and a game
    that imports a verb."""
    graph = {"cpstats.cards.a": {"cpstats.cards.b"}, "cpstats.cards.b": {"cpstats.cards.a"}}
    with pytest.raises(pytest.fail.Exception, match="import circle"):
        test_no_import_circles(graph)
    layers = {**SHARED_LAYERS, "newgame": GAME_LAYER}
    with pytest.raises(AssertionError, match="cpstats.cards.a -> cpstats.apps.cli"):
        test_imports_never_point_up_a_layer({"cpstats.cards.a": {"cpstats.apps.cli"}}, layers)
    with pytest.raises(AssertionError, match="newgame.run -> cpstats.workbench.sweep"):
        test_imports_never_point_up_a_layer({"newgame.run": {"cpstats.workbench.sweep"}}, layers)


def _value_compared_with_text(tree: ast.AST) -> list[int]:
    """Lines comparing an enum's ``.value`` with a string literal (``v.deal.value == "D3"``)."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        has_value = any(isinstance(s, ast.Attribute) and s.attr == "value" for s in sides)
        literals = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
        literals += [e for s in sides if isinstance(s, (ast.Tuple, ast.List, ast.Set)) for e in s.elts
                     if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if has_value and literals:
            lines.append(node.lineno)
    return lines


def test_enum_members_are_compared_as_members_not_as_their_text():
    """Code compares enum members (``v.deal is Deal.CRISS_CROSS``), never a member's value with
    a string: a renamed ID would then fail silently."""
    found = _offending_lines(_value_compared_with_text)
    assert not found, found


def test_the_enum_rule_can_fail():
    bad = ast.parse('if v.deal.value == "D3":\n    pass\nok = v.rake.model.value in ("time", "none")')
    assert _value_compared_with_text(bad) == [1, 3]
    assert _value_compared_with_text(ast.parse("ok = v.deal is Deal.CRISS_CROSS")) == []


#: The engine reads results' summaries; so does each game's results code, found from its registration
#: (:func:`_results_files`).
ENGINE_RESULTS = ("cpstats/engine/",)
#: The 13-card result's figures are read off its summary by several modules of its package (figures,
#: house money, paired metrics), all of them results code.
THIRTEEN_RESULTS = ("cpstats/thirteen/",)


def _results_files() -> tuple[str, ...]:
    """The files of every registered game's summary type, result type and run (open face:
    ``ofc/result.py``, ``ofc/simulation.py``), as path prefixes."""
    from cpstats.engine.registry import GAMES

    modules = {obj.__module__ for game in GAMES.values()
               for obj in (game.runs.summary, game.runs.result, game.runs.simulate)}
    return tuple(sorted(m.replace(".", "/") + ".py" for m in modules))


def _summary_reads(tree: ast.AST) -> list[int]:
    """Lines reading an attribute named ``summary`` (``result.summary``, ``run.summary[...]``)."""
    return sorted({node.lineno for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and node.attr == "summary"})


def test_only_the_results_layers_read_a_summary(games):
    """Apps, widgets and the shipped-run loader read results through methods, never their
    block summary: a summary's fields can then change without a view noticing."""
    found = _offending_lines(_summary_reads, ENGINE_RESULTS + THIRTEEN_RESULTS + _results_files())
    assert not found, found
    assert f"{TOY}/result.py" in _results_files()


def test_the_summary_rule_can_fail():
    bad = ast.parse('gross = float(result.summary["gross"]) / result.deals\n'
                    'ok = result.gross_per_deal()\nsizes = r.summary.batch_sizes')
    assert _summary_reads(bad) == [1, 3]
    assert _summary_reads(ast.parse("from cpstats.thirteen.summary import batch_of")) == []


#: A reference to the tracker ("(issue 16.5)", "audit 13.21", "item 6"): it tells a reader where a
#: change was asked for, not why the code is so, and means nothing to whoever has not the tracker.
CITATION = re.compile(r"\b(?:issue|audit)s?(?: item)?[ :]*\d|\bitem \d", re.I)


def _citations(text: str) -> list[int]:
    """Lines of ``text`` citing an issue or audit item."""
    return [n for n, line in enumerate(text.splitlines(), 1) if CITATION.search(line)]


def test_sources_say_why_instead_of_citing_the_tracker():
    """Comments and docstrings of the package and the benchmarks state the reason for a choice;
    an issue or audit number is no reason (the measured figures are in docs/measurements.md)."""
    files = {**_source_files(), **{str(p.relative_to(ROOT)): p for p in sorted((ROOT / "benchmarks").rglob("*.py"))}}
    found = {rel: lines for rel, path in files.items() if (lines := _citations(path.read_text()))}
    assert not found, found


def test_the_citation_rule_can_fail():
    bad = ('"""Where files are (audit 13.21)."""\nx = 1  # issue 16.5\n# within issue 17\'s 20%\n'
           '"""Review (issue: strategies, item 6)."""\n# Issue 4 item 5c\n')
    assert _citations(bad) == [1, 2, 3, 4, 5]
    assert _citations('"""A tissue of 16 items; issued to 2 players, audited."""\nitems = 3\n') == []


# -- game wings over one engine ---------------------------------------------------------------

#: Names only the 13-card game defines beyond its registration: its setters, packages and
#: vocabulary (every game's name, package, types and default setter are read from the registry);
#: ev's row tables are ``row_tables``/``RowTables`` (a bare ``tables`` is any sheet's tables).
THIRTEEN_NAMES = frozenset({"Variant", "EvSetter", "GreedySetter", "RandomSetter", "HandSetter", "SetHands",
                            "RowTables", "row_tables", "strategies", "settlement", "ev", "tables_source",
                            "house_edge", "bank_mean", "naturals", "royalties", "surrender"})



def _game_of_module(module: str, packages: dict[str, str]) -> str | None:
    """The game whose package holds ``module`` (None for shared code)."""
    return next((game for game, package in packages.items()
                 if module == package or module.startswith(package + ".")), None)


def _game_of_file(rel: str, packages: dict[str, str]) -> str | None:
    return _game_of_module(str(Path(rel).with_suffix("")).replace("/", "."), packages)


def _across_games(graph: dict[str, set[str]], packages: dict[str, str]) -> list[str]:
    """Imports from one game's modules into another game's."""
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if (mine := _game_of_module(a, packages)) and (theirs := _game_of_module(b, packages))
                  and mine != theirs)


def _into_games(graph: dict[str, set[str]], floors: tuple[str, ...], packages: dict[str, str]) -> list[str]:
    """Imports from the ``floors`` (the engine, the verbs) into any game's modules."""
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if a.startswith(floors) and _game_of_module(b, packages))


def test_no_game_imports_another(graph, games):
    """No game's package imports another game's."""
    found = _across_games(graph, games.packages)
    assert not found, "\n".join(found)


def test_the_engine_and_the_verbs_import_no_game(graph, games):
    """The engine (cpstats.engine) and the verbs (cpstats.workbench) reach a game through the
    registry only; the games sit between them and import the engine."""
    found = _into_games(graph, ("cpstats.engine", "cpstats.workbench"), games.packages)
    assert not found, "\n".join(found)
    for game, package in games.packages.items():
        assert any(b.startswith("cpstats.engine") for a, t in graph.items() if a.startswith(package) for b in t), game


def test_the_package_root_imports_every_game_package(graph, games):
    """``import cpstats`` registers every game of the package: its root imports each one (the one
    line of shared code a new game adds, docs/architecture.md's checklist)."""
    inside = [package for package in games.packages.values() if package.startswith("cpstats.")]
    assert len(inside) >= 2 and set(inside) <= graph["cpstats"], set(inside) - graph["cpstats"]


def test_the_import_rules_of_the_games_can_fail():
    packages = {"one": "cpstats.one", "two": "cpstats.two", "toy": "newgame"}
    assert _across_games({"cpstats.two.play": {"cpstats.one.play.api"}}, packages) == [
        "cpstats.two.play -> cpstats.one.play.api"]
    assert _across_games({"newgame.run": {"cpstats.two.rules"}}, packages) == ["newgame.run -> cpstats.two.rules"]
    assert _across_games({"cpstats.two.play": {"cpstats.rules.house"}}, packages) == []
    assert _into_games({"cpstats.engine.lookup": {"newgame.result"}}, ("cpstats.engine",), packages) == [
        "cpstats.engine.lookup -> newgame.result"]


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _game_literals(tree: ast.AST, words: frozenset[str], claims: Callable[[str], bool]) -> list[int]:
    """Lines holding a string (not a docstring) that names a game: one of ``words`` (its name, its
    package's folder, a preset) or a name it ``claims`` (open face: ``"ofc-..."``)."""
    docs = _docstrings(tree)
    return sorted({n.lineno for n in ast.walk(tree)
                   if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
                   and (n.value in words or claims(n.value))})


def _named_games(tree: ast.AST, games: Games, mine: str | None) -> list[int]:
    """Lines of a file of game ``mine`` (None: shared code) naming any other registered game."""
    return sorted({line for game in games.words if game != mine
                   for line in _game_literals(tree, games.words[game], games.claims[game])})


#: The rulebook's glossary names rules, not games: a preset is named after its scoring rule or its
#: deal (``2-4``, ``criss-cross``), so the glossary's short names are preset names too.
GLOSSARY = "cpstats/rules/rulebook.py"


def test_no_game_is_named_outside_its_own_modules(games):
    """A game's name (its registered name, its package's folder, a preset's, a name it claims)
    appears as a literal in its own modules only: the engine, the verbs, the registry, the apps and
    the other games reach a game through the registry (its registered name, words and runs), so
    a new game is a package, not an edit of shared code."""
    found = {rel: lines for rel, path in _source_files().items() if rel != GLOSSARY
             if (lines := _named_games(ast.parse(path.read_text()), games, _game_of_file(rel, games.packages)))}
    assert not found, found


def test_the_game_name_rule_can_fail():
    bad = ast.parse('"""Plays "one" and "two-deluxe"."""\nif v.game == "one":\n    pass\n'
                    'PILOT = {"two": 100}\nunit = "hands" if text.startswith("twopkg") else "deals"\n'
                    'run("two-deluxe")\nrun("two-anything")\n')
    games = Games({"one": "cpstats.onepkg", "two": "cpstats.twopkg"},
                  {"one": frozenset({"one", "onepkg", "1-2"}), "two": frozenset({"two", "twopkg", "two-deluxe"})},
                  {"one": lambda name: False, "two": lambda name: name.startswith("two-")})
    assert _named_games(bad, games, None) == [2, 4, 5, 6, 7]
    assert _named_games(bad, games, "two") == [2]  # a game names itself freely, not another
    assert _named_games(ast.parse('if v.game == GAME.name:\n    unit = game_of(v).unit\n'), games, None) == []


def _code_names(tree: ast.AST) -> dict[str, int]:
    """Every name the code uses (identifiers, attributes, imported names and modules, arguments,
    keywords, strings that are not docstrings), word by word, with the first line of each."""
    docs, found = _docstrings(tree), {}
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            words = [node.name]
        elif isinstance(node, ast.arg):
            words = [node.arg]
        elif isinstance(node, ast.keyword) and node.arg:
            words = [node.arg]
        elif isinstance(node, ast.alias):
            words = node.name.split(".") + ([node.asname] if node.asname else [])
        elif isinstance(node, ast.ImportFrom) and node.module:
            words = node.module.split(".")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            words = re.findall(r"[\w-]+", node.value)
        for word in words:
            found.setdefault(word, getattr(node, "lineno", 0))
    return found


def _game_names(games: Games) -> frozenset[str]:
    """Names a game defines, for every registered game: its name, package folder, variant,
    summary and result types and default setter, and the 13-card game's vocabulary."""
    from cpstats.engine.registry import GAMES

    found = set(THIRTEEN_NAMES)
    for name, game in GAMES.items():
        found |= {name, games.packages[name].rpartition(".")[2], game.variant_type.__name__,
                  game.runs.summary.__name__, game.runs.result.__name__, game.runs.default_setter}
    return frozenset(found)


def _names_in(tree: ast.AST, names: frozenset[str]) -> dict[str, int]:
    return {word: line for word, line in _code_names(tree).items() if word in names}


def test_the_engine_holds_no_games_name(games):
    """The engine names no game's type, setter, package or figure: each game is one wing on it."""
    names = _game_names(games)
    assert {"SimulationResult", "Variant", "ShowdownSummary", "toy_showdown", "rollout"} <= names
    found = {rel: words for rel, path in _source_files().items() if rel.startswith("cpstats/engine/")
             if (words := _names_in(ast.parse(path.read_text()), names))}
    assert not found, found


def test_the_game_names_rule_can_fail():
    names = THIRTEEN_NAMES | {"SimulationResult", "thirteen"}
    bad = ast.parse('"""Runs of a Variant."""\nfrom cpstats.thirteen.result import SimulationResult\n'
                    'def run(v, row_tables=None):\n    return v.bank_mean if setter == "ev" else EvSetter()\n')
    assert _names_in(bad, names) == {"thirteen": 2, "SimulationResult": 2, "row_tables": 3, "bank_mean": 4, "ev": 4,
                                     "EvSetter": 4}
    assert _names_in(ast.parse('"""A Variant in words."""\nx = AnyVariant\ntables: list = []\n'), names) == {}


# -- rules folders import one way -------------------------------------------------------------------

#: The rules modules, lowest first: each may import only those before it (the shared rules, and
#: the 13-card game's own).
RULES_ORDER = {"cpstats.rules": ("check", "rulebook", "house", "codec"),
               "cpstats.thirteen.rules": ("ids", "schedules", "components", "presets", "text", "variant",
                                          "words")}


def _rules_imports(path: Path, package: str) -> set[str]:
    """The modules of ``package`` a file imports, at module level or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found |= {n[len(package) + 1:].split(".")[0] for n in names if n.startswith(package + ".")}
    return found


@pytest.mark.parametrize("package", sorted(RULES_ORDER))
def test_rules_modules_import_one_way(package: str) -> None:
    """Inside a rules folder every import points down its order (no presets -> variant -> text ->
    presets circle, function-level imports included)."""
    order = RULES_ORDER[package]
    folder = PACKAGE.parent.joinpath(*package.split("."))
    assert sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__") == sorted(order)
    for position, stem in enumerate(order):
        upward = _rules_imports(folder / f"{stem}.py", package) - set(order[:position])
        assert not upward, f"{package}.{stem} imports {sorted(upward)}"
