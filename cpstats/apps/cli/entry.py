"""The ``cpstats`` command's parser and entry point: one subcommand per job, each with its own
``--help``; the handlers are :mod:`cpstats.apps.cli.commands`' and the command families' own modules.

Bad input (argparse's usage errors included), an unreachable scheduler and operating-system errors
(an unwritable folder, a full disk) end the command with one line on stderr, ``cpstats CMD: error:
...``, and exit status 2. Every game's presets are played by ``simulate``, ``compare``, ``sweep``,
``par``, ``skill``, ``solve`` and ``design`` (:data:`ANY_GAME`); every other command is the 13-card
game's and refuses another game's preset in one line saying where it is played.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import sys
from pathlib import Path
from typing import Sequence

from cpstats.apps.cli.args import OneLineErrorParser, add_scheduler_options, setter_option, until_pairs
from cpstats.apps.cli.args import count as _count
from cpstats.apps.cli.args import pace as _pace
from cpstats.apps.cli.args import positive_int as _positive_int
from cpstats.apps.cli.args import seed as _seed
from cpstats.apps.cli.commands import (_compare, _dashboard, _figures, _match, _naturals, _presets, _presets_table,
                                       _reference, _report, _review, _simulate, _skill, _train,
                                       SIMULATE_DEALS, other_game)
from cpstats.apps.cli.par import add_par_command
from cpstats.apps.cli.solve import add_design_command, add_solve_command
from cpstats.apps.cli.sweep import add_sweep_command
from cpstats.apps.cli.train_ofc import add_train_ofc_command
from cpstats.apps.data_files import add_data_command
from cpstats.errors import CpstatsError, OptionError
from cpstats.thirteen import GAME as THIRTEEN

__all__ = ["main", "build_parser", "ANY_GAME"]

def build_parser() -> argparse.ArgumentParser:
    """The ``cpstats`` parser: one subcommand per job, each with its own ``--help``."""
    parser = OneLineErrorParser(prog="cpstats", description="Statistics of Chinese poker rule variants.")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_listing_commands(sub)
    _add_simulation_commands(sub)
    _add_tool_commands(sub)
    add_par_command(sub)
    add_sweep_command(sub)
    add_solve_command(sub), add_design_command(sub)
    add_data_command(sub)
    add_train_ofc_command(sub)
    return parser


def _common(p: argparse.ArgumentParser, deals: int | None, shown: str = "") -> None:
    """Options of every command that simulates: deals (None: the handler sizes the run, ``shown``
    says how), setter, seed, executor, progress."""
    p.add_argument("--deals", type=_positive_int, default=deals, help=f"deals (default {shown or f'{deals:,}'})")
    setter_option(p)
    p.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    add_scheduler_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _tables_option(p: argparse.ArgumentParser) -> None:
    """``--tables``: borrow another variant's ev tables (default: the variant's own, trained now
    and cached when it has none)."""
    p.add_argument("--tables", default=None, metavar="VARIANT",
                   help="set hands with the ev tables of this preset or variant string (default: "
                        "the variant's own, trained on the fly and cached if it has none)")


def _add_listing_commands(sub) -> None:
    nat = sub.add_parser("naturals", help="simulate natural frequencies beside their exact values")
    nat.add_argument("--deals", type=_positive_int, default=1_000_000,
                     help="deals to simulate (default 1,000,000)")
    nat.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    nat.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="seated players (default 4)")
    nat.add_argument("--no-qka", action="store_true", help="Q-K-A does not count as a front straight")
    nat.add_argument("--format", choices=("table", "csv", "json"), default="table")
    nat.add_argument("--quiet", action="store_true", help="no progress bar")
    nat.set_defaults(run=_naturals)
    fig = sub.add_parser("figures", help="every figure name a variant's runs give (for --metric, --objective, "
                                         "--constraint, --until, --metrics), the headline ones first")
    fig.add_argument("variant", help="preset name or variant string (either game)")
    fig.set_defaults(run=_figures)
    pre = sub.add_parser("presets", help="list the rule presets")
    pre.add_argument("--format", choices=("table", "csv", "json"), default="table")
    pre.set_defaults(run=_presets)


def _add_simulation_commands(sub) -> None:
    sim = sub.add_parser("simulate", help="simulate deals under a preset and print its summaries "
                                          "(open-face presets ofc-*: hands played street by street)")
    sim.add_argument("--preset", required=True, help="preset name or variant string (13-card or ofc-*)")
    _common(sim, None, f"{SIMULATE_DEALS:,}; open face, hands: about a minute on one core, 1,500 with a "
                       "rollout setter, ev's among them, 20,000 with fast, greedy or random")
    sim.add_argument("--players", type=int, choices=(2, 3, 4), default=None)
    sim.add_argument("--out", default=None, help="folder for finished blocks (and rows), created if missing")
    sim.add_argument("--resume", action="store_true", help="reuse the finished blocks in --out")
    sim.add_argument("--keep-hands", action="store_true",
                     help="write one row per deal and seat to --out (needs --out: the printed tables "
                          "do not show rows)")
    sim.add_argument("--format", choices=("table", "csv", "json"), default="table")
    sim.add_argument("--until", type=until_pairs, default=None, metavar="FIGURE=HALF_WIDTH",
                     help="play until the figure's 95%% half-width is at most this (e.g. house_edge=0.0005), "
                          "--deals then the most played (the output says whether it was reached; a run "
                          "stopped by --deals first says so on stderr too)")
    _tables_option(sim)
    sim.set_defaults(run=_simulate)
    cmp_ = sub.add_parser("compare", help="compare presets side by side on common deals")
    cmp_.add_argument("--preset", action="append", help="a preset (give two or more)")
    _common(cmp_, None, f"{SIMULATE_DEALS:,}; open face, hands: 1,500 with a rollout setter, ev's among them, "
                        "20,000 with fast, greedy or random, as simulate")
    cmp_.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                      help="seats of every preset (default: each preset's own)")
    cmp_.add_argument("--format", choices=("table", "csv", "json"), default="table")
    _tables_option(cmp_)
    cmp_.set_defaults(run=_compare)
    tab = sub.add_parser("presets-table", help="one table of every preset, with intervals (default: "
                                               "the shipped ev reference results, instant)")
    tab.add_argument("--deals", type=_positive_int, default=None,
                     help="run every preset live for this many deals (default: read the references)")
    tab.add_argument("--setter", default="ev", help="who sets the hands of a live run (default ev)")
    tab.add_argument("--seed", type=_seed, default=2026, help="random seed of a live run (default 2026)")
    tab.add_argument("--format", choices=("table", "csv", "json"), default="table")
    tab.set_defaults(run=_presets_table)
    rep = sub.add_parser("report", help="write a math report (Markdown, HTML, PNG charts)")
    rep.add_argument("--preset", default="2-4", help="preset name or variant string (default 2-4)")
    _common(rep, 200_000)
    rep.add_argument("--out", default="report", help="output folder (default ./report)")
    rep.add_argument("--systems", default="2-4,1-4,1-6,basic,2-4-total",
                     help="scoring systems rescored on the same settings for the SD chart, comma-separated "
                          "(commas inside a variant's parentheses do not split it)")
    rep.add_argument("--hands-per-hour", type=_pace, default=30.0,
                     help="pace for the hourly house figures, above 0 (default 30)")
    _tables_option(rep)
    rep.set_defaults(run=_report)
    ref = sub.add_parser("reference", help="regenerate the shipped reference results (cpstats/data/reference)")
    ref.add_argument("--preset", action="append", help="a preset (default: every preset)")
    _common(ref, 1_000_000)
    ref.add_argument("--out", default=None,
                     help="folder (default: the package data folder cpstats/data/reference)")
    ref.set_defaults(run=_reference)


def _add_tool_commands(sub) -> None:
    dash = sub.add_parser("dashboard", help="serve the rule designer with Voila on localhost")
    dash.add_argument("--port", type=int, default=8866)
    dash.add_argument("--open", action="store_true", help="open a browser")
    dash.set_defaults(run=_dashboard)
    tr = sub.add_parser("train", help="train the ev setter's tables for a preset (cpstats/data/strategies)")
    tr.add_argument("--preset", required=True)
    tr.add_argument("--deals", type=_positive_int, default=200_000, help="deals per round")
    tr.add_argument("--rounds", type=_positive_int, default=None,
                    help="most damped best-response rounds (default 30; stops when the gap stops falling)")
    tr.add_argument("--refine", type=_count, default=None,
                    help="refinement rounds on twice the deals, 0 or more (default 6)")
    tr.add_argument("--seed", type=_seed, default=20261129)
    tr.add_argument("--quiet", action="store_true")
    tr.set_defaults(run=_train)
    ma = sub.add_parser("match", help="duplicate match of two strategies (mean difference per hand, 95%% CI)")
    ma.add_argument("--preset", required=True)
    ma.add_argument("--a", default="ev")
    ma.add_argument("--b", default="greedy")
    ma.add_argument("--deals", type=_positive_int, default=20_000)
    ma.add_argument("--seed", type=_seed, default=2026)
    _tables_option(ma)
    ma.set_defaults(run=_match)
    sk = sub.add_parser("skill", help="ev (open face: rollout) against a greedy, a random and an ev "
                                      "field on common deals: how much the variant rewards skill (95%% CI)")
    sk.add_argument("--preset", required=True, help="preset name or variant string (either game)")
    sk.add_argument("--deals", type=_positive_int, default=None,
                    help="deals per field (default 20,000; open face 200 hands a seat)")
    sk.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    add_scheduler_options(sk)
    _tables_option(sk)
    sk.set_defaults(run=_skill)
    rv = sub.add_parser("review", help="expected result of a setting, the best one and the loss")
    rv.add_argument("cards", help="the 13 cards")
    rv.add_argument("setting", help='the setting, "front / middle / back"')
    rv.add_argument("--preset", default="2-4")
    rv.add_argument("--top", type=_count, default=5, help="best alternatives to list, 0 or more (default 5)")
    _tables_option(rv)
    rv.set_defaults(run=_review)


#: The arguments that name a 13-card preset or variant string, by dest, as the user writes them.
_PRESET_ARGUMENTS = {"preset": "--preset", "variant": "VARIANT", "tables": "--tables"}
#: (command, dest) pairs whose preset or variant may be of any game (the verbs play it through
#: the registry); every other command is the 13-card game's.
ANY_GAME = frozenset({("simulate", "preset"), ("compare", "preset"), ("sweep", "variant"),
                      ("par", "variant"), ("skill", "preset"), ("solve", "variant"),
                      ("design", "variant"), ("figures", "variant")})


def _refuse_other_games(args: argparse.Namespace) -> None:
    """Refuse another game's preset (an open-face ``ofc-*``) where a command takes a 13-card one,
    saying where it is played: the 13-card rules alone would call it an unknown preset. The
    commands of :data:`ANY_GAME` play every game, so they are let through."""
    for dest, option in _PRESET_ARGUMENTS.items():
        if (args.command, dest) in ANY_GAME:
            continue
        given = getattr(args, dest, None)
        for text in given if isinstance(given, list) else [given]:
            other = other_game(text, THIRTEEN)
            if other is None:
                continue
            named = f"{text!r}" if option == "VARIANT" else f"{option}={text!r}"
            if dest == "tables":
                raise OptionError(f"{named} is an {other} preset: --tables takes the ev tables of a "
                                  f"{THIRTEEN.name} preset or variant string (its strategies need none)")
            raise OptionError(f"{named} is an {other} preset; cpstats {args.command} is for "
                              f"{THIRTEEN.label} ({other}: cpstats simulate --preset {shlex.quote(text)} "
                              f"or cpstats compare, cpstats.simulate or cpstats.compare in Python)")


def _os_reason(err: OSError, out: object = None) -> str:
    """``path: reason`` of an operating-system error (the path when the error names one), led by
    ``--out=...`` when the path is in the command's ``out`` folder, so the option is named."""
    reason = err.strerror or str(err)
    paths = [str(p) for p in (err.filename, err.filename2) if p is not None]
    text = f"{' -> '.join(paths)}: {reason}" if paths else reason
    if out is None or not str(out).strip() or not paths:
        return text
    folder, path = Path(out).absolute(), Path(paths[0]).absolute()
    inside = path == folder or folder in path.parents
    return f"--out={str(out)!r} cannot be written: {text}" if inside else text


def _quiet_training():
    """--quiet hides the progress bar of ev tables trained on the fly too (imported only then:
    the tables' module loads numba)."""
    from cpstats.thirteen.play.row_tables import training_progress

    return training_progress(False)


def _discard_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush raises nothing more."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cpstats`` console script.

    Refusals (bad input, an unreachable scheduler, an operating-system error such as an
    unwritable folder or a full disk) print one line ``cpstats CMD: error: ...`` on stderr and
    return 2.
    """
    args = build_parser().parse_args(argv)
    try:
        _refuse_other_games(args)
        with _quiet_training() if getattr(args, "quiet", False) else contextlib.nullcontext():
            print(args.run(args))
    except CpstatsError as err:
        print(f"cpstats {args.command}: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (head, less) stopped reading: stop quietly, as Unix tools do
        _discard_stdout()
        return 1
    except OSError as err:
        reason = _os_reason(err, getattr(args, "out", None))
        print(f"cpstats {args.command}: error: {reason}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cpstats {args.command}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())

