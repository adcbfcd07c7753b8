"""The package's layout is its architecture: layers import one way, no circles, short modules,
and two game wings over one engine (docs/architecture.md).

Layers, lowest first: cards, hands (ranking and rows, both games'), rules (the house components
both games charge, the checks, the rulebook's glossary), the engine (runner, statistics, results'
base, the registry of games, the setter contract), the games side by side (thirteen, ofc: each
its whole game), the verbs (workbench), apps. ``cpstats.errors``, ``cpstats._version``,
``cpstats._resources`` and ``cpstats._atomic`` sit below them all; the package root re-exports the
public API and is imported by nothing inside. Every import counts, at module level or inside a
function.
"""

import ast
import re
from pathlib import Path

import pytest

from helpers import PACKAGE

LAYERS = {"errors": 0, "_version": 0, "_resources": 0, "_atomic": 0, "cards": 1, "hands": 2, "rules": 3,
          "engine": 4, "thirteen": 5, "ofc": 5, "workbench": 6, "apps": 7}
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The cpstats modules ``name`` imports (a package's import counts as its __init__)."""
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
        found |= {t for t in targets if t.split(".")[0] == "cpstats" and t in known}
    return found - {name}


def _offending_lines(rule, exempt: tuple[str, ...] = ()) -> dict[str, list[int]]:
    """Every package module outside ``exempt`` (path prefixes) with the lines ``rule`` flags."""
    return {rel: lines for path in PACKAGE.rglob("*.py")
            if not (rel := str(path.relative_to(PACKAGE.parent))).startswith(exempt)
            and (lines := rule(ast.parse(path.read_text())))}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS[parts[1]] if len(parts) > 1 else None


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def test_every_subpackage_has_a_layer(graph):
    tops = {m.split(".")[1] for m in graph if m != "cpstats"}
    assert tops <= set(LAYERS), tops - set(LAYERS)


def test_imports_never_point_up_a_layer(graph):
    upward = [f"{a} -> {b}" for a, targets in graph.items() for b in targets
              if a != "cpstats" and (b == "cpstats" or _layer(b) > _layer(a))]
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
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, long


def _code_lines(node: ast.FunctionDef) -> int:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return body[-1].end_lineno - body[0].lineno + 1 if body else 0


def test_functions_fit_on_a_screen_outside_kernels():
    long = [f"{p.relative_to(PACKAGE)}:{n.name} ({_code_lines(n)} lines)"
            for p in PACKAGE.rglob("*.py") for n in ast.walk(ast.parse(p.read_text()))
            if isinstance(n, ast.FunctionDef) and _code_lines(n) > MAX_FUNCTION_LINES
            and not any("njit" in ast.unparse(d) for d in n.decorator_list)]
    assert not long, long


def test_the_import_check_sees_a_circle_and_an_upward_import(tmp_path):
    """The checks above can fail: a two-module circle and an import from apps into cards."""
    graph = {"cpstats.cards.a": {"cpstats.cards.b"}, "cpstats.cards.b": {"cpstats.cards.a"}}
    with pytest.raises(pytest.fail.Exception, match="import circle"):
        test_no_import_circles(graph)
    with pytest.raises(AssertionError, match="cpstats.cards.a -> cpstats.apps.cli"):
        test_imports_never_point_up_a_layer({"cpstats.cards.a": {"cpstats.apps.cli"}})


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


#: The results layers: the only code that reads a result's ``summary`` (views read results
#: through their methods). The open-face run builds its result from the runner's totals.
RESULTS_MODULES = ("cpstats/engine/", "cpstats/thirteen/", "cpstats/ofc/result.py",
                   "cpstats/ofc/simulation.py")


def _summary_reads(tree: ast.AST) -> list[int]:
    """Lines reading an attribute named ``summary`` (``result.summary``, ``run.summary[...]``)."""
    return sorted({node.lineno for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and node.attr == "summary"})


def test_only_the_results_layers_read_a_summary():
    """Apps, widgets and the shipped-run loader read results through methods, never their
    block summary: a summary's fields can then change without a view noticing."""
    found = _offending_lines(_summary_reads, RESULTS_MODULES)
    assert not found, found


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
    found = {rel: lines for folder in ("cpstats", "benchmarks")
             for path in sorted((PACKAGE.parent / folder).rglob("*.py"))
             if (lines := _citations(path.read_text()))
             for rel in [str(path.relative_to(PACKAGE.parent))]}
    assert not found, found


def test_the_citation_rule_can_fail():
    bad = ('"""Where files are (audit 13.21)."""\nx = 1  # issue 16.5\n# within issue 17\'s 20%\n'
           '"""Review (issue: strategies, item 6)."""\n# Issue 4 item 5c\n')
    assert _citations(bad) == [1, 2, 3, 4, 5]
    assert _citations('"""A tissue of 16 items; issued to 2 players, audited."""\nitems = 3\n') == []


# -- two game wings over one engine ------------------------------------------------------------

#: Each game's modules: its package, which holds the whole game.
GAME_MODULES = {"13-card": ("cpstats.thirteen",), "open-face": ("cpstats.ofc",)}
#: Where a game may be named by a literal: its own package (the registry names none).
GAME_HOMES = ("cpstats/thirteen/", "cpstats/ofc/")
#: Names only the 13-card game defines: its name, types, setters, packages and vocabulary.
THIRTEEN_NAMES = frozenset({"13-card", "Variant", "EvSetter", "GreedySetter", "RandomSetter", "HandSetter",
                            "SimulationResult", "SimulationSummary", "SetHands", "RowTables", "thirteen",
                            "strategies", "settlement", "ev", "tables", "tables_source", "house_edge",
                            "bank_mean", "naturals", "royalties", "surrender"})


def _game_of_module(module: str) -> str | None:
    return next((game for game, prefixes in GAME_MODULES.items()
                 if any(module == p or module.startswith(p + ".") for p in prefixes)), None)


def _across_games(graph: dict[str, set[str]]) -> list[str]:
    """Imports from one game's modules into another game's."""
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if _game_of_module(a) and _game_of_module(b) and _game_of_module(a) != _game_of_module(b))


def _into_games(graph: dict[str, set[str]], floors: tuple[str, ...]) -> list[str]:
    """Imports from the ``floors`` (the engine, the verbs) into any game's modules."""
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if a.startswith(floors) and _game_of_module(b))


def test_no_game_imports_the_other(graph):
    """Neither game's package imports the other game's."""
    found = _across_games(graph)
    assert not found, "\n".join(found)


def test_the_engine_and_the_verbs_import_no_game(graph):
    """The engine (cpstats.engine) and the verbs (cpstats.workbench) reach a game through the
    registry only; the games sit between them and import the engine."""
    found = _into_games(graph, ("cpstats.engine", "cpstats.workbench"))
    assert not found, "\n".join(found)
    for game, prefixes in GAME_MODULES.items():
        package = prefixes[0]
        assert any(b.startswith("cpstats.engine") for a, t in graph.items() if a.startswith(package) for b in t), game


def test_the_import_rules_of_the_games_can_fail():
    assert _across_games({"cpstats.ofc.play": {"cpstats.thirteen.play.api"}}) == [
        "cpstats.ofc.play -> cpstats.thirteen.play.api"]
    assert _across_games({"cpstats.thirteen.run": {"cpstats.ofc.rules"}}) == [
        "cpstats.thirteen.run -> cpstats.ofc.rules"]
    assert _across_games({"cpstats.ofc.play": {"cpstats.rules.house"}}) == []
    assert _into_games({"cpstats.engine.lookup": {"cpstats.thirteen.paired"}}, ("cpstats.engine",)) == [
        "cpstats.engine.lookup -> cpstats.thirteen.paired"]


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _game_literals(tree: ast.AST) -> list[int]:
    """Lines holding a string (not a docstring) that names a game: ``"13-card"``, ``"open-face"``,
    ``"ofc"`` or an open-face preset (``"ofc-..."``)."""
    docs = _docstrings(tree)
    return sorted({n.lineno for n in ast.walk(tree)
                   if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
                   and (n.value in ("13-card", "open-face", "ofc") or n.value.startswith("ofc-"))})


def test_no_game_is_named_outside_its_own_modules():
    """A game's name (or an open-face preset's) appears as a literal in its own modules only: the
    engine, the verbs, the registry and the apps reach a game through the registry (its registered
    name, words and runs), so a new game is a package, not an edit of shared code."""
    found = _offending_lines(_game_literals, GAME_HOMES)
    assert not found, found


def test_the_game_name_rule_can_fail():
    bad = ast.parse('"""Plays "13-card" and "ofc-pineapple"."""\nif v.game == "13-card":\n    pass\n'
                    'PILOT = {"open-face": 100}\nunit = "hands" if text.startswith("ofc") else "deals"\n'
                    'run("ofc-pineapple")\n')
    assert _game_literals(bad) == [2, 4, 5, 6]
    assert _game_literals(ast.parse('if v.game == GAME.name:\n    unit = game_of(v).unit\n')) == []


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


def _thirteen_names(tree: ast.AST) -> dict[str, int]:
    return {word: line for word, line in _code_names(tree).items() if word in THIRTEEN_NAMES}


def test_the_engine_holds_no_13_card_name():
    """The engine names no 13-card type, setter, package or figure: the 13-card game is one wing
    on it, as open face is the other."""
    found = {str(path.relative_to(PACKAGE.parent)): names
             for path in sorted((PACKAGE / "engine").rglob("*.py"))
             if (names := _thirteen_names(ast.parse(path.read_text())))}
    assert not found, found


def test_the_13_card_name_rule_can_fail():
    bad = ast.parse('"""Runs of a Variant."""\nfrom cpstats.thirteen.result import SimulationResult\n'
                    'def run(v, tables=None):\n    return v.bank_mean if setter == "ev" else EvSetter()\n')
    assert _thirteen_names(bad) == {"thirteen": 2, "SimulationResult": 2, "tables": 3, "bank_mean": 4, "ev": 4,
                                    "EvSetter": 4}
    assert _thirteen_names(ast.parse('"""A Variant in words."""\nx = AnyVariant\n')) == {}


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
