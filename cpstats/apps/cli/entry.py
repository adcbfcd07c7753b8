"""The ``cpstats`` command's parser and entry point: one subcommand per job, each with its own
``--help``; the handlers are :mod:`cpstats.apps.cli.commands`' and the command families' own modules.

Bad input (argparse's usage errors included), an unreachable scheduler and operating-system errors
(an unwritable folder, a full disk) end the command with one line on stderr, ``cpstats CMD: error:
...``, and exit status 2. Every game's presets are played by the command line's own commands
(``simulate``, ``compare``, ``sweep``, ``par``, ``skill``, ``solve``, ``design``, ``figures``); a
game's own commands (:attr:`cpstats.engine.views.CommandLine.commands`, added after these) are that
game's and refuse another game's preset in one line saying where it is played.
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

from cpstats.apps.cli.args import (OneLineErrorParser, add_scheduler_options, command_lines, setter_options,
                                   until_pairs)
from cpstats.apps.cli.args import positive_int as _positive_int
from cpstats.apps.cli.args import seed as _seed
from cpstats.apps.cli.commands import KIT, _compare, _dashboard, _figures, _presets, _simulate, other_game
from cpstats.apps.cli.kit import SIMULATE_DEALS, common_options
from cpstats.apps.cli.par import add_par_command
from cpstats.apps.cli.skill import skill_text
from cpstats.apps.cli.solve import add_design_command, add_solve_command
from cpstats.apps.cli.sweep import add_sweep_command
from cpstats.apps.data_files import add_data_command
from cpstats.engine.registry import game_named
from cpstats.errors import CpstatsError, OptionError

__all__ = ["main", "build_parser"]


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
    for name, words in command_lines().items():
        for add in words.commands:
            add(sub, KIT).set_defaults(command_game=name)
    return parser


def _add_listing_commands(sub) -> None:
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
    common_options(sim, None, f"{SIMULATE_DEALS:,}; open face, hands: about a minute on one core, 1,500 with a "
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
    setter_options(sim, "simulate")
    sim.set_defaults(run=_simulate)
    cmp_ = sub.add_parser("compare", help="compare presets side by side on common deals")
    cmp_.add_argument("--preset", action="append", help="a preset (give two or more)")
    common_options(cmp_, None, f"{SIMULATE_DEALS:,}; open face, hands: 1,500 with a rollout setter, ev's among them, "
                        "20,000 with fast, greedy or random, as simulate")
    cmp_.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                      help="seats of every preset (default: each preset's own)")
    cmp_.add_argument("--format", choices=("table", "csv", "json"), default="table")
    setter_options(cmp_, "compare")
    cmp_.set_defaults(run=_compare)


def _add_tool_commands(sub) -> None:
    dash = sub.add_parser("dashboard", help="serve the rule designer with Voila on localhost")
    dash.add_argument("--port", type=int, default=8866)
    dash.add_argument("--open", action="store_true", help="open a browser")
    dash.set_defaults(run=_dashboard)
    sk = sub.add_parser("skill", help="ev (open face: rollout) against a greedy, a random and an ev "
                                      "field on common deals: how much the variant rewards skill (95%% CI)")
    sk.add_argument("--preset", required=True, help="preset name or variant string (either game)")
    sk.add_argument("--deals", type=_positive_int, default=None,
                    help="deals per field (default 20,000; open face 200 hands a seat)")
    sk.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    add_scheduler_options(sk)
    setter_options(sk, "skill")
    sk.set_defaults(run=skill_text)


#: The arguments that name a preset or variant string, by dest, as the user writes them.
_PRESET_ARGUMENTS = {"preset": "--preset", "variant": "VARIANT"}


def _refuse_other_games(args: argparse.Namespace) -> None:
    """Refuse another game's preset where a game's own command takes one of its own, saying where
    it is played: the game's rules alone would call it an unknown preset (the command line's own
    commands play every game through the verbs). Then each game refuses a value its own options
    cannot take (the 13-card ``--tables`` naming another game's preset)."""
    name = getattr(args, "command_game", None)
    game = None if name is None else game_named(name)
    for dest, option in _PRESET_ARGUMENTS.items() if game is not None else ():
        given = getattr(args, dest, None)
        for text in given if isinstance(given, list) else [given]:
            other = other_game(text, game)
            if other is None:
                continue
            named = f"{text!r}" if option == "VARIANT" else f"{option}={text!r}"
            raise OptionError(f"{named} is an {other} preset; cpstats {args.command} is for "
                              f"{game.label} ({other}: cpstats simulate --preset {shlex.quote(text)} "
                              f"or cpstats compare, cpstats.simulate or cpstats.compare in Python)")
    for words in command_lines().values():
        if words.check is not None:
            words.check(args)


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


def _quiet_games() -> contextlib.ExitStack:
    """--quiet silences the games' own progress output too (the 13-card ev tables trained on the
    fly), each game's ``quiet`` context entered."""
    stack = contextlib.ExitStack()
    for words in command_lines().values():
        if words.quiet is not None:
            stack.enter_context(words.quiet())
    return stack


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
        with _quiet_games() if getattr(args, "quiet", False) else contextlib.nullcontext():
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

