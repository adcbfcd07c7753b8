"""``cpstats simulate``'s text: one layout for both games, read from ``figures()`` and the catalogue."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

from cpstats.apps.cli.entry import main
from cpstats.engine.figures_text import format_interval

RAKED = "2-4(rake=percent,rake.percent=0.05,rake.cap=3)"


def _run(capsys, *argv: str) -> str:
    assert main(["simulate", *argv, "--setter", "greedy", "--seed", "7", "--quiet"]) in (0, None)
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    import contextlib

    texts = {}
    for key, argv in {"13": ("--preset", "2-4", "--deals", "2000"), "raked": ("--preset", RAKED, "--deals", "2000"),
                      "ofc": ("--preset", "ofc-pineapple", "--deals", "100")}.items():
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            main(["simulate", *argv, "--setter", "greedy", "--seed", "7", "--quiet"])
        texts[key] = buf.getvalue()
    return texts


@pytest.mark.parametrize("key", ["13", "raked", "ofc"])
def test_no_scientific_notation_and_headline_first(outputs, key):
    text = outputs[key]
    assert not re.search(r"\d[eE][-+]\d", text)
    assert text.split("\n\n")[1].startswith("headline")


_UNIT = re.compile(r"units|hands|a pure number")
_SELF_SAID = re.compile(r"%|1 in |none seen")


def _figure_sections(text: str) -> list[list[str]]:
    """The figures' sections (the header, the left-out line and the sessions left aside)."""
    blocks = [b.splitlines() for b in text.split("\n\n")[1:]]
    return [b for b in blocks if not b[0].startswith(("left out", "sessions"))]


@pytest.mark.parametrize("key", ["13", "raked", "ofc"])
def test_every_figure_line_has_a_unit_or_percent(outputs, key):
    """A single figure's label names its unit unless its number says it (a percent, 1 in N); a
    table's column heading names the unit unless every cell below says it."""
    checked = 0
    for block in _figure_sections(outputs[key]):
        heading = None
        for line in block[1:]:
            if line.startswith("    "):  # a table's column heading
                heading = line
                continue
            if heading is None:  # one figure: label, two spaces or more, value
                label, value = re.match(r"  (\S.*?)\s{2,}(\S.*)$", line).groups()
                assert _UNIT.search(label) or _SELF_SAID.search(value), line
            else:  # a table row: its cells right-aligned under their headings
                cells = re.split(r"\s{3,}", line.strip())[1:]
                names = re.split(r"\s{3,}", heading.strip())
                assert len(cells) == len(names), (heading, line)
                for name, cell in zip(names, cells):
                    assert _UNIT.search(name) or _SELF_SAID.search(cell), (name, cell)
            checked += 1
    assert checked > 20


def test_no_surrender_row_and_one_line_says_what_was_left_out(outputs):
    text = outputs["13"]
    assert "surrender rate" not in text
    left = [line for line in text.splitlines() if line.startswith("left out")]
    assert len(left) == 1 and "surrender" in left[0] and "house" in left[0]
    assert "rake per" not in text


def test_a_raked_variant_prints_rake_lines_with_a_basis(outputs):
    """The house's take says whose (a seat's, the table's) and its unit; a player's SD says its basis;
    a count of events (fouls) does not claim one."""
    rake = [line for line in outputs["raked"].splitlines() if "rake per" in line]
    assert rake and all("units" in line and ("seat" in line or "the table" in line) for line in rake)
    text = outputs["raked"]
    assert "SD per hand after house charges" in text and "SD per hand, before house charges" in text
    assert not any("foul" in line and "house charges" in line for line in text.splitlines())
    assert "house" not in [line for line in outputs["raked"].splitlines() if line.startswith("left out")][0]


def test_open_face_same_layout(outputs):
    text = outputs["ofc"]
    assert "per seat, before house charges" in text and "left out (not in these rules, their figures all 0): house charges" in text
    assert "rake per" not in text


def test_formats():
    assert format_interval(0.4684, 0.4681, 0.4686, "percent") == "46.84% (46.81%..46.86%)"
    assert format_interval(1 / 9462, 1 / 11200, 1 / 8100, "one in n") == "1 in 9,460 (1 in 8,100..1 in 11,200)"
    assert format_interval(0.0, 0.0, 0.00048, "one in n") == "none seen (at most 1 in 2,080)"
    assert format_interval(6.5, float("nan"), float("nan"), "units", "exact") == "6.5000 (no interval: exact)"


def test_csv_keeps_full_precision(capsys):
    import cpstats

    text = _run(capsys, "--preset", "2-4", "--deals", "2000", "--format", "csv")
    moments = text.split("# moments\n", 1)[1].split("\n\n", 1)[0]
    frame = pd.read_csv(io.StringIO(moments))
    figures = cpstats.simulate("2-4", 2000, setter="greedy", rng=7, progress=False).figures().set_index("metric")
    assert frame.loc[0, "sd"] == figures.loc["sd_seat0", "estimate"]
    ofc = _run(capsys, "--preset", "ofc-pineapple", "--deals", "100", "--format", "csv")
    table = pd.read_csv(io.StringIO(ofc.split("\n\n", 1)[1])).set_index("metric")
    again = cpstats.simulate("ofc-pineapple", 100, setter="greedy", rng=7, progress=False).figures().set_index("metric")
    assert table.loc["sd", "estimate"] == again.loc["sd", "estimate"]


def test_compare_prints_each_figure_with_its_basis_and_the_paired_difference(capsys):
    """Issue 46: the CLI's compare prints the SD before and after house charges, labelled; the rake
    moves the second (an interval below 0) and leaves the first exactly (0 to 0)."""
    assert main(["compare", "--preset", "2-4", "--preset", RAKED, "--deals", "2000", "--setter", "greedy",
                 "--seed", "7", "--quiet"]) in (0, None)
    text = capsys.readouterr().out
    assert not re.search(r"\d[eE][-+]?\d", text)
    blocks = {block.split("\n")[0]: block.split("\n")[1:] for block in re.split(r"\n(?=\S)", text)}
    before, after = blocks["SD per hand, before house charges (units)"], blocks["SD per hand after house charges (units)"]
    assert before[1].rstrip().endswith("diff 0.0000 (0.0000..0.0000)")
    low, high = map(float, re.search(r"diff -[\d.]+ \((-[\d.]+)\.\.(-[\d.]+)\)", after[1]).groups())
    assert low <= high < 0


def test_sweep_prints_a_block_a_figure_and_a_line_a_point(capsys):
    assert main(["sweep", "2-4(rake=percent,rake.percent=0.01)", "rake.percent", "0.01,0.05", "--deals", "1000",
                 "--setter", "greedy", "--quiet"]) in (0, None)
    text = capsys.readouterr().out
    assert not re.search(r"\d[eE][-+]?\d", text)
    blocks = {block.split("\n")[0]: block.split("\n")[1:] for block in re.split(r"\n(?=\S)", text)}
    after = blocks["SD per hand after house charges (units)"]
    assert after[1].split()[0] == "rake.percent=0.05" and "diff -" in after[1]
    assert blocks["SD per hand, before house charges (units)"][1].rstrip().endswith("diff 0.0000 (0.0000..0.0000)")
