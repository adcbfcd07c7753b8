"""The README's and the docs' ``>>>`` examples run as doctests, so what a user copies works.

Each fenced code block holding ``>>>`` is one doctest (the fence itself is not output); a page's
blocks share their names, as a reader running them in order would."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", flags=re.S | re.M)
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


@pytest.mark.parametrize("page", [p for p in PAGES if ">>>" in p.read_text()], ids=lambda p: p.name)
def test_examples_in_the_page_run(page):
    failed, tried = run_examples(page.read_text(), page.name)
    assert tried > 0 and failed == 0, f"{page.name}: {failed} of {tried} examples failed"


def test_the_check_fails_on_a_wrong_example():
    assert run_examples("```python\n>>> 1 + 1\n3\n```\n", "page") == (1, 1)
    assert run_examples("```python\n>>> x = 2\n```\ntext\n```python\n>>> x + 1\n3\n```\n", "page") == (0, 2)
