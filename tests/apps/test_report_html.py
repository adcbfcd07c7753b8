"""The math report's HTML as a designer reads it (issue 46.5), for a game with no house charge, a
raked one and a banked one: numbers in their catalogue display (no exponent, no run of zeros: a
rare probability is "1 in N"), a caption on every table, no table wider than a figure a row or a
seat a column, no table or chart of a rule the variant does not have without a line saying so,
and every SD labelled with its basis."""

import re
from html.parser import HTMLParser

import pandas as pd
import pytest

from cpstats.apps.report import write_report
from cpstats.engine.report import ReportContent, ReportTable
from cpstats.errors import OptionError
from cpstats.thirteen.report import report_content
from cpstats.workbench import simulate

RAKED = "2-4(rake=percent,rake.percent=0.05,rake.cap=3)"


class _Tables(HTMLParser):
    """Each <table> of a page: its caption, header cells and body cells (text)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self._cell: list[str] | None = None
        self._where = ""

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"caption": None, "first": None, "head": [], "cells": []})
        elif self.tables and tag in ("caption", "th", "td"):
            if self.tables[-1]["first"] is None:
                self.tables[-1]["first"] = tag
            self._cell, self._where = [], tag

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if self._cell is None or tag != self._where:
            return
        text = "".join(self._cell).strip()
        table = self.tables[-1]
        if tag == "caption":
            table["caption"] = text
        else:
            table["head" if tag == "th" else "cells"].append(text)
        self._cell = None


def _page(html: str) -> tuple[str, list[dict]]:
    """The page's words (no style sheet, no inlined images) and its tables."""
    words = re.sub(r"<style>.*?</style>|<img [^>]*>", "", html, flags=re.S)
    parser = _Tables()
    parser.feed(html)
    return words, parser.tables


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The three reports' HTML by name: the plain game beside one other house charge, the raked
    game and the banked game (greedy, 1,000 deals: a layout test, not an estimate)."""
    out = {}
    plain = simulate("2-4", 1_000, setter="greedy", rng=3, keep_hands=True, block_deals=500)
    other = plain.rescore(plain.variant.replace(rake="fixed-table", rake__amount=0.5))
    for name, result, options in (
            ("plain", plain, {"rakes": [other]}),
            ("raked", simulate(RAKED, 1_000, setter="greedy", rng=3, block_deals=500), {}),
            ("banked", simulate("banked", 1_000, setter="greedy", rng=3, block_deals=500), {})):
        folder = tmp_path_factory.mktemp(name)
        write_report(report_content(result, **options), folder)
        out[name] = (folder / "report.html").read_text()
    return out


@pytest.mark.parametrize("name", ["plain", "raked", "banked"])
def test_numbers_read_without_exponents_or_runs_of_zeros(pages, name):
    words, _ = _page(pages[name])
    assert not re.search(r"\d[eE][+-]?\d", words), "a number in exponent form"
    assert not re.search(r"\.0{7,}", words), "a run of more than 6 zeros after the point"
    assert "nan" not in words.lower().split()


@pytest.mark.parametrize("name", ["plain", "raked", "banked"])
def test_every_table_has_a_caption_and_fits_the_text(pages, name):
    """A caption first in every table; at most 8 columns (a figure a row, a seat a column); each
    table in a box that scrolls rather than widen the page past the text column."""
    html = pages[name]
    _, tables = _page(html)
    assert len(tables) >= 5
    for table in tables:
        assert table["first"] == "caption" and table["caption"], table["head"]
        assert len(table["head"]) <= 8, (table["caption"], table["head"])
    assert html.count('<div class="table-wrap"><table') == len(tables)
    assert ".table-wrap{max-width:100%;overflow-x:auto" in html and "max-width:60rem" in html


@pytest.mark.parametrize("name", ["plain", "raked", "banked"])
def test_every_sd_says_its_basis(pages, name):
    """Every SD in a table (a row's label or a column's head) says before or after house charges."""
    _, tables = _page(pages[name])
    labels = [text for t in tables for text in t["head"] + t["cells"] if re.search(r"\bSD\b", text)]
    assert labels
    for text in labels:
        assert "before house charges" in text or "after house charges" in text, text


def test_sd_before_and_after_charges_both_shown_where_the_house_charges(pages):
    _, tables = _page(pages["raked"])
    cells = {text for t in tables for text in t["cells"]}
    assert any(re.match(r"SD\b.*before house charges", c) for c in cells)
    assert any(re.match(r"SD\b.*after house charges", c) for c in cells)
    assert any(t["caption"] == "Each seat, after house charges" for t in tables)


def test_no_house_table_of_zeros_where_the_house_charges_nothing(pages):
    """The plain game: no house money table, one line saying why; the rake chart beside another
    charge says this game has none. The raked game has the table, its take above 0."""
    words, tables = _page(pages["plain"])
    assert not any(t["caption"].startswith("House money") for t in tables)
    assert "This game charges nothing (no rake, time fee, commission or jackpot drop)" in words
    assert "(this game takes no rake, fee or commission)" in words
    assert not any(t["caption"] == "Each seat, after house charges" for t in tables)
    _, raked = _page(pages["raked"])
    house = next(t for t in raked if t["caption"].startswith("House money"))
    rake = house["cells"][house["cells"].index(next(c for c in house["cells"]
                                                    if c.startswith("rake per hand"))) + 1]
    assert float(rake.split()[0]) > 0


def test_no_chart_or_table_of_a_rule_not_in_play(pages):
    """2-4 has neither naturals nor royalties: neither chart nor table, one line says so; the
    banked game has both, and its rarest naturals read "1 in N" (no 0.000000000006299)."""
    plain, tables = _page(pages["plain"])
    assert 'alt="naturals.png"' not in pages["plain"] and 'alt="royalties.png"' not in pages["plain"]
    assert not any("Naturals" in t["caption"] for t in tables)
    assert "Not in these rules, so neither charted nor tabled: royalties and naturals." in plain
    banked, tables = _page(pages["banked"])
    assert 'alt="naturals.png"' in pages["banked"] and 'alt="royalties.png"' in pages["banked"]
    naturals = next(t for t in tables if t["caption"].startswith("Naturals"))
    assert "1 in 159,000,000,000" in naturals["cells"]  # clean dragon, exact
    assert "1 in 222 (0.450%)" in naturals["cells"]  # six pairs: a "1 in N" with its percent


def test_a_table_needs_a_caption():
    with pytest.raises(OptionError, match="a report table needs a caption"):
        ReportTable(" ", pd.DataFrame({"a": [1]}))
    with pytest.raises(OptionError, match="section 'x': its tables must be ReportTable objects"):
        ReportContent("game", [("x", "", [pd.DataFrame({"a": [1]})])])
