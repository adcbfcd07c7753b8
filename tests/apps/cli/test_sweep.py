"""``cpstats sweep`` (cpstats.apps.cli.sweep): the table with its header in words, the chart and CSV
written, and bad input refused in one line before anything runs."""

import numpy as np
import pytest

from cpstats import OptionError
from cpstats.workbench import sweep


def _parser():
    import argparse

    from cpstats.apps.cli.sweep import add_sweep_command

    parser = argparse.ArgumentParser(prog="cpstats")
    add_sweep_command(parser.add_subparsers(dest="command"))
    return parser


def test_cli_prints_the_table_and_writes_chart_and_csv(tmp_path):
    """``cpstats sweep 2-4 scoring.scoop_bonus 0,3 --out DIR`` prints the table with a
    header naming the parameter in words, the deals and the pairing, and writes CSV and charts."""
    args = _parser().parse_args(["sweep", "2-4", "scoring.scoop_bonus", "0,3", "--deals", "900",
                                 "--setter", "greedy", "--seed", "4", "--quiet", "--metrics",
                                 "sd,scoop_rate", "--out", str(tmp_path / "o")])
    text = args.run(args)
    assert text.startswith("Scoop bonus (units) (scoring.scoop_bonus) swept on 2-4: 900 deals a point")
    assert "common deals" in text and "scoop_rate" in text and "royalty_per_hand" not in text
    assert (tmp_path / "o" / "sweep.csv").exists() and (tmp_path / "o" / "sweep.png").exists()
    direct = sweep("2-4", "scoring.scoop_bonus", [0, 3], deals=900, setter="greedy", rng=4,
                   metrics=["sd", "scoop_rate"])
    import pandas as pd

    written = pd.read_csv(tmp_path / "o" / "sweep.csv")
    assert np.allclose(written["estimate"], direct["estimate"], rtol=1e-12)


def test_cli_refuses_bad_input_in_one_line_before_simulating(tmp_path):
    """A bad parameter, value list or value is one OptionError line, and no --out
    folder is made for a refused sweep."""
    from cpstats.apps.cli.sweep import parse_values

    for argv, match in ((["2-4", "royalties.front_trip", "1,2"], r"^parameter='royalties.front_trip'"),
                        (["2-4", "royalties.front_trips", "1,,2"], r"^values='1,,2' is invalid"),
                        (["2-4", "royalties.front_trips", "1,-2"], r"^royalties.front_trips=-2 is invalid")):
        args = _parser().parse_args(["sweep", *argv, "--out", str(tmp_path / "never")])
        with pytest.raises(OptionError, match=match) as err:
            args.run(args)
        assert "\n" not in str(err.value)
    assert not (tmp_path / "never").exists()
    assert parse_values("0, 2.5,none") == [0, 2.5, "none"]
    with pytest.raises(SystemExit):
        _parser().parse_args(["sweep", "2-4", "players", "2,3", "--deals", "0"])


def test_a_sweep_table_says_why_a_rake_column_is_zero():
    """Open face's rake figures of rules that charge nothing are exactly 0 by their method; the
    printed table says so in one line instead of leaving a column of zeros unexplained."""
    import cpstats
    from cpstats.apps.cli.sweep import _format

    table = cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [7, 9], deals=40, setter="random", rng=1,
                          metrics=["rake_per_seat_per_hand", "foul_rate"])
    text = _format(table, "table")
    assert "\nrake_per_seat_per_hand: 0, no house charge in these rules" in text
    raked = cpstats.sweep("ofc-pineapple(rake=percent,rake.percent=0.05)", "royalties.front.QQ", [7, 9], deals=40,
                          setter="random", rng=1, metrics=["rake_per_seat_per_hand"])
    assert "no house charge" not in _format(raked, "table")
