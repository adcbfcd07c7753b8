"""Sphinx configuration of the cpstats documentation.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (what ``.ci/docs`` runs).
At build time this file writes ``docs/generated/``: the API page from ``cpstats.__all__``, the
glossary from the rule names of :data:`cpstats.rules.rulebook.RULES` and copies of the notebooks, which are rendered from their stored outputs
(``nb_execution_mode = "off"``; ``tests/apps/test_notebooks.py`` checks those outputs are a fresh run).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's cpstats, installed or not

import cpstats  # noqa: E402

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GENERATED = DOCS / "generated"

project = "cpstats"
author = "cpstats contributors"
release = version = cpstats.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "numpydoc", "myst_nb"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build"]
templates_path = ["_templates"]
html_theme = "pydata_sphinx_theme"
html_title = f"cpstats {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
nitpicky = False
autosummary_generate = True
autodoc_typehints = "none"  # numpydoc writes the parameters; signatures stay readable
numpydoc_show_class_members = False
numpydoc_xref_param_type = False
nb_execution_mode = "off"  # stored outputs: the notebooks run in the tests, not here
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3


def _write(path: Path, text: str) -> None:
    """Write only when the text changes, so Sphinx rebuilds only what changed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def api_page() -> str:
    """One autosummary table of every public name, in ``cpstats.__all__`` order."""
    names = "\n".join(f"   {name}" for name in cpstats.__all__)
    return ("API reference\n=============\n\nEverything a user needs imports from ``cpstats`` "
            "(``cpstats.__all__``).\n\n.. currentmodule:: cpstats\n\n.. autosummary::\n"
            f"   :toctree: api\n\n{names}\n")


def glossary_page() -> str:
    """Every rule ID with its name and one-line description, by rulebook section."""
    lines = ["# Glossary of rule IDs", "",
             "Variant strings and results name rules by these IDs (`SC-2-4`, `R-FUTUREBET`, `NS-TW`); "
             "this page is built from the package's own table of names, the one "
             "`cpstats.describe` writes rules in words from.", ""]
    from cpstats.rules.rulebook import RULES, SECTIONS

    for number, title in SECTIONS.items():
        rows = [(rule_id, info) for rule_id, info in RULES.items() if info.section == number]
        if rows:
            lines += [f"## {number}. {title}", "", "| ID | name | chart label | meaning |", "|---|---|---|---|"]
            lines += [f"| `{rule_id}` | {info.name} | {info.short} | {info.description.replace('|', '/')} |"
                      for rule_id, info in rows]
            lines.append("")
    return "\n".join(lines)


def notebook_copies() -> None:
    """The notebooks, copied beside the pages (Sphinx reads sources from this folder only)."""
    target = GENERATED / "notebooks"
    target.mkdir(parents=True, exist_ok=True)
    for nb in sorted((ROOT / "notebooks").glob("0*.ipynb")):
        if not (target / nb.name).exists() or (target / nb.name).read_bytes() != nb.read_bytes():
            shutil.copyfile(nb, target / nb.name)


_write(GENERATED / "api.rst", api_page())
_write(GENERATED / "glossary.md", glossary_page())
notebook_copies()
