"""Views name their figures from the catalogue (issue 46.2): the tables both PAR sheets build, the
``data/`` reference tables, the CLI's figures and the notebooks' code use catalogue names and
labels only; a name with no entry, or an old name the catalogue replaced, fails here. (The
verbs are walked in ``test_figure_catalogue.py``, the widgets in ``tests/apps/test_views_read_figures.py``,
the report in ``tests/apps/test_report_html.py``.)"""

from __future__ import annotations

import json

import pandas as pd
import pytest
from helpers import ROOT

import cpstats
from cpstats.engine.catalogue import figures_of, find_figure
from cpstats.engine.figures_text import figure_words
from cpstats.engine.registry import GAMES

#: Names the catalogue replaced (the package was never released: they are simply gone).
OLD_NAMES = ("house_take_per_seat_hour", "house_per_seat_hour", "house_take_per_hand", "house_per_hand",
             "cost_per_player", "rake_share_of_gross")


def _catalogue(game: str):
    return figures_of(GAMES[game].runs)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Small greedy runs; open face's keep their boards (its sheet's tables read them)."""
    out = tmp_path_factory.mktemp("boards")
    return {"13-card": [cpstats.simulate(v, 600, setter="greedy", rng=3)
                        for v in ("2-4(rake=percent,rake.percent=0.05,rake.cap=3)", "banked", "pagat-casino")],
            "open-face": [cpstats.simulate(v, 120, setter="greedy", rng=3, out=out / str(i), keep_hands=True)
                          for i, v in enumerate(("ofc-pineapple(rake=percent,rake.percent=0.05)",
                                                 "ofc-pineapple-progressive"))]}


def _sheet_tables(game: str, result) -> list[pd.DataFrame]:
    """Every table of figures a game's PAR sheet builds from a result."""
    if game == "13-card":
        from cpstats.thirteen.par import figures

        return [figures.headline(result), figures.economics(result, 30.0)]
    from cpstats.ofc.par import tables

    boards = tables.boards_of(result)
    return [tables.headline(result), tables.house_table(result, 30.0), tables.fantasyland_table(result, boards)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_par_sheet_tables_carry_catalogue_names_and_labels(game, runs):
    catalogue = _catalogue(game)
    for result in runs[game]:
        for table in _sheet_tables(game, result):
            assert list(table.columns[:2]) == ["name", "figure"]
            for name, label in zip(table["name"], table["figure"]):
                figure = find_figure(name, catalogue)
                assert figure is not None, (str(result.variant), name)
                words = figure_words(figure, name)
                assert label.lower().startswith(words.lower()), (label, words)


@pytest.mark.parametrize("path", sorted((ROOT / "data" / "reference").glob("*.csv")), ids=lambda p: p.stem)
def test_the_data_tables_name_catalogue_figures(path):
    table = pd.read_csv(path)
    game = table["game"].iloc[0]
    catalogue = _catalogue(game)
    missing = sorted({m for m in table["metric"] if find_figure(m, catalogue) is None})
    assert not missing, missing


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_cli_prints_no_figure_outside_the_catalogue(game, runs, capsys):
    from cpstats.apps.cli import main

    preset = {"13-card": "pagat-casino", "open-face": "ofc-pineapple"}[game]
    assert main(["simulate", "--preset", preset, "--deals", "120", "--setter", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "not in the catalogue" not in out and "headline (95% intervals)" in out


def test_notebooks_readme_and_docs_use_no_old_name():
    """The notebooks' code and the documents a user reads hold none of the replaced names."""
    texts = {p.name: "".join("".join(c["source"]) for c in json.loads(p.read_text())["cells"]
                             if c["cell_type"] == "code") for p in sorted((ROOT / "notebooks").glob("*.ipynb"))}
    texts |= {p.name: p.read_text() for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}
    found = {name: [old for old in OLD_NAMES if old in text] for name, text in texts.items()}
    assert not {k: v for k, v in found.items() if v}
