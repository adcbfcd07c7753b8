"""The skill table of a variant (issue 15, item 5): ev against a greedy, a random and an ev field
on common deals, from the API and the command line."""

from __future__ import annotations

import numpy as np
import pytest

import cpstats
from cpstats.apps.cli import main
from cpstats.errors import OptionError
from cpstats.thirteen.play.training import match

DEALS = 1_000


@pytest.fixture(scope="module")
def table():
    return cpstats.skill("2-4", deals=DEALS, rng=7)


def test_ev_beats_both_weak_fields_and_the_control_is_zero(table):
    """On 2-4, ev's edge over a greedy and over a random field has its 95% CI above
    zero at 1,000 deals (the edges are about 3.7 and 11 units a hand, SEs about 0.06 and 0.03);
    the ev-against-ev control's CI contains 0 (it is exactly 0: the seats' nets sum to 0)."""
    assert list(table.index) == ["greedy", "random", "ev"]
    assert table.loc["greedy", "ci_low"] > 0 and table.loc["random", "ci_low"] > 0
    assert table.loc["random", "mean"] > table.loc["greedy", "mean"]  # a weaker field pays more
    assert table.loc["ev", "ci_low"] <= 0 <= table.loc["ev", "ci_high"]
    for _, row in table.iterrows():
        assert row["ci_low"] == pytest.approx(row["mean"] - 1.96 * row["se"])
        assert row["deals"] == DEALS


def test_the_fields_are_labelled_and_the_tables_named(table):
    """issue 15.4/15.5: a baseline is named as one; the table says which tables set ev's hands."""
    assert table.loc["greedy", "label"] == "greedy (baseline: a weak field)"
    assert table.loc["random", "label"].startswith("random (baseline")
    assert "control" in table.loc["ev", "label"]
    assert table.attrs["variant"] == "2-4" and table.attrs["player"] == "ev"
    assert table.attrs["tables"]["trained_for"] == "2-4"


def test_every_field_plays_the_same_deals_and_a_seed_repeats(table):
    """The rows are duplicate matches on one seed's deals (each equals the match of
    that seed), and the same seed, or a Generator made from it, gives the same table again."""
    seed = table.attrs["seed"]
    assert seed == 7
    assert table.loc["greedy", "mean"] == match("2-4", "ev", "greedy", deals=DEALS, rng=seed).mean
    again = cpstats.skill("2-4", deals=DEALS, rng=7)
    assert again.equals(table)
    first = cpstats.skill("2-4", deals=200, rng=np.random.default_rng(3))
    second = cpstats.skill("2-4", deals=200, rng=np.random.default_rng(3))
    assert first.attrs["seed"] == second.attrs["seed"] and first.equals(second)
    assert cpstats.skill("2-4", deals=200, rng=first.attrs["seed"]).equals(first)


@pytest.mark.parametrize("deals", [1, 0, 2.5, True, "100"])
def test_bad_deal_counts_are_one_readable_line(deals):
    """A deal count that cannot give an interval is refused by name."""
    with pytest.raises(OptionError, match=rf"deals={deals!r} is invalid: .* >= 2"):
        cpstats.skill("2-4", deals=deals)


def test_skill_is_public():
    """``cpstats.skill`` is the verbs floor's function, in the curated API."""
    from cpstats.workbench import skill

    assert "skill" in cpstats.__all__ and cpstats.skill is skill
    assert skill.__module__ == "cpstats.workbench.skill"


def test_cli_skill_prints_the_table_with_its_run(capsys):
    """``cpstats skill --preset 2-4 --deals N --seed S`` prints the three rows under
    a line naming the tables, the deals and the seed."""
    assert main(["skill", "--preset", "2-4", "--deals", "500", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    head, *rows = out.strip().splitlines()
    assert "tables trained for 2-4" in head and "500 duplicate deals, seed 11" in head
    assert "greedy (baseline: a weak field)" in rows[1] and "control" in rows[3]
    expected = cpstats.skill("2-4", deals=500, rng=11)
    assert f"{expected.loc['greedy', 'mean']:.4f}" in rows[1]


def test_cli_skill_borrows_tables_when_asked(capsys):
    """issue 15.2/15.5: ``--tables`` sets ev's hands with another variant's tables, and the
    header says they are borrowed."""
    assert main(["skill", "--preset", "2-4", "--deals", "300", "--tables", "1-6"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith("ev (tables trained for 1-6, borrowed) against each field under 2-4")
