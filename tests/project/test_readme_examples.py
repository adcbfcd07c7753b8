"""The README's and the docs' ``>>>`` examples run as doctests, so what a user copies works.

Each fenced code block holding ``>>>`` is one doctest (the fence itself is not output); a page's
blocks share their names, as a reader running them in order would. The pages are the README and
every Markdown page of docs/ (not the generated ones), and an example outside a fenced block,
which this check would not run, is refused."""

import doctest
import re

import pytest

from helpers import ROOT

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md")
                                     if not {"_build", "generated"} & set(p.relative_to(DOCS).parts))]
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", flags=re.S | re.M)
PROMPT = re.compile(r"^\s*>>>", flags=re.M)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run_examples(text: str, name: str) -> doctest.TestResults:
    """(failed, attempted) over the page's fenced ``>>>`` blocks."""
    runner = doctest.DocTestRunner(optionflags=FLAGS, verbose=False)
    parser, globs = doctest.DocTestParser(), {}
    for number, block in enumerate(b for b in FENCE.findall(text) if ">>>" in b):
        test = parser.get_doctest(block, globs, f"{name}[{number}]", name, 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs on a copy
    return runner.summarize(verbose=False)


def unrun_examples(text: str) -> list[str]:
    """Lines of ``text`` that start with ``>>>`` outside the fenced blocks :func:`run_examples` runs."""
    return [line for line in FENCE.sub("", text).splitlines() if PROMPT.match(line)]


@pytest.mark.parametrize("page", [p for p in PAGES if any(">>>" in b for b in FENCE.findall(p.read_text()))],
                         ids=lambda p: p.name)
def test_examples_in_the_page_run(page):
    failed, tried = run_examples(page.read_text(), page.name)
    assert tried > 0 and failed == 0, f"{page.name}: {failed} of {tried} examples failed"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_is_in_a_block_that_runs(page):
    assert unrun_examples(page.read_text()) == [], f"{page.name}: an example outside a fenced block"


def test_the_check_fails_on_a_wrong_example():
    assert run_examples("```python\n>>> 1 + 1\n3\n```\n", "page") == (1, 1)
    assert run_examples("```python\n>>> x = 2\n```\ntext\n```python\n>>> x + 1\n3\n```\n", "page") == (0, 2)
    assert unrun_examples("text\n    >>> 1 + 1\n    2\n```python\n>>> 2\n2\n```\n") == ["    >>> 1 + 1"]
