"""The benchmark scripts: they call the package's current keywords, and what they record in
docs/measurements.md states the load it was measured under, a busy machine's run refused or
marked (benchmarks/_record.py, tested on a copy of a section with a faked load)."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys

import pytest

from helpers import ROOT

BENCHMARKS = ROOT / "benchmarks"
#: A keyword kept for a release beside the one that replaced it (``renamed`` in cpstats.errors).
RENAMED = {"strategy": "setter", "tables": "setter", "seed": "rng", "samples": "setter", "top": "setter"}


def _cpstats_names(tree: ast.AST) -> dict[str, object]:
    """What the script's ``import cpstats...`` and ``from cpstats... import`` statements bind."""
    names: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "cpstats":
            module = importlib.import_module(node.module)
            for alias in node.names:
                names[alias.asname or alias.name] = getattr(module, alias.name, None)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "cpstats":
                    names[alias.asname or alias.name.split(".")[0]] = importlib.import_module(
                        alias.name if alias.asname else "cpstats")
    return names


def _target(func: ast.expr, names: dict[str, object]) -> object:
    if isinstance(func, ast.Name):
        return names.get(func.id)
    if isinstance(func, ast.Attribute):
        owner = _target(func.value, names)
        return getattr(owner, func.attr, None) if owner is not None else None
    return None


def _sources() -> list[tuple[str, ast.AST]]:
    """Each script, and each snippet of code it keeps in a string (bench_versions' cases)."""
    out = []
    for path in sorted(BENCHMARKS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out.append((path.name, tree))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "import cpstats" in node.value:
                try:
                    out.append((f"{path.name} (a snippet at line {node.lineno})", ast.parse(node.value)))
                except SyntaxError:
                    continue  # a fragment joined to another one before it runs
    return out


def test_the_benchmarks_call_the_current_keywords():
    """bench_simulation, bench_sweep and bench_training passed strategy= (and seed= to match),
    which warn that they go in the next release."""
    old = []
    for name, tree in _sources():
        names = _cpstats_names(tree)
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            target = _target(call.func, names)
            try:
                parameters = inspect.signature(target).parameters if callable(target) else {}
            except (TypeError, ValueError):
                continue
            for keyword in call.keywords:
                new = RENAMED.get(keyword.arg or "")
                if new is not None and keyword.arg in parameters and new in parameters:
                    old.append(f"{name}:{call.lineno}: {ast.unparse(call.func)}({keyword.arg}=) -> {new}=")
    assert not old, old


# -- recording under a load ------------------------------------------------------------------

@pytest.fixture
def recorder(monkeypatch, tmp_path):
    """benchmarks/_record.py, a copy of a section to write, and a load to fake."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    sys.modules.pop("_record", None)
    module = importlib.import_module("_record")
    page = tmp_path / "measurements.md"
    page.write_text("# m\n\n<!-- begin bench_x -->\nold\n<!-- end bench_x -->\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["benchmarks/bench_x.py", "--record"])

    def load(average: float, cores: int = 2) -> None:
        monkeypatch.setattr(module.os, "getloadavg", lambda: (average, average, average))
        monkeypatch.setattr(module.os, "cpu_count", lambda: cores)

    yield module, page, load
    sys.modules.pop("_record", None)


def test_a_quiet_run_states_its_load(recorder):
    module, page, load = recorder
    load(0.4)
    module.record("bench_x", ["figures"], page)
    text = page.read_text(encoding="utf-8")
    assert "2 cores, load average 0.4 at the start, 0.4 at the end" in text and "figures" in text
    assert "old" not in text and "under load" not in text


@pytest.mark.parametrize("average, cores", [(2.1, 2), (9.5, 2), (4.5, 4)])
def test_a_busy_machine_is_refused_before_anything_is_measured(recorder, average, cores):
    """Sections were recorded at load averages of 9-10 on 2 cores, unmarked."""
    module, page, load = recorder
    load(average, cores)
    ran = []
    with pytest.raises(SystemExit, match=rf"^not recorded: load average {average:.1f} on {cores} cores is "
                                         rf"above {cores:g} \(1 a core\).*add --under-load"):
        with module.recording("bench_x", path=page):
            ran.append(True)
    assert not ran and "old" in page.read_text(encoding="utf-8")
    with pytest.raises(SystemExit, match="^not recorded"):
        module.record("bench_x", ["figures"], page)


def test_under_load_records_marked(recorder, monkeypatch):
    module, page, load = recorder
    load(3.4)
    monkeypatch.setattr(sys, "argv", ["benchmarks/bench_x.py", "--record", "--under-load", "7"])
    assert module.arguments() == ["7"]
    with module.recording("bench_x", path=page):
        print("figures")
    text = page.read_text(encoding="utf-8")
    assert "load average 3.4 at the start" in text and "**measured under load** (above 2" in text
    assert "```text\nfigures\n```" in text


def test_the_limit_is_a_load_a_core(recorder):
    module, page, load = recorder
    load(2.0)  # at the limit on 2 cores: recorded
    module.record("bench_x", ["a"], page)
    load(3.5, cores=4)
    module.record("bench_x", ["b"], page)
    assert "4 cores, load average 3.5" in page.read_text(encoding="utf-8")
