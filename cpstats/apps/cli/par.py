"""``cpstats par VARIANT --out DIR``: the PAR sheet of a variant of any game with one, written as
HTML and PDF (:func:`cpstats.par_sheet`). The command knows no game: its help states each game's
defaults in words, as :func:`cpstats.par_sheet`'s docstring does (a test holds them to the games'
own numbers)."""

from __future__ import annotations

import argparse
import sys

from cpstats.apps.cli.args import add_scheduler_options, executor_for, setter_option
from cpstats.apps.cli.args import out_folder as _out_folder
from cpstats.apps.cli.args import pace as _pace
from cpstats.apps.cli.args import positive_int as _positive_int
from cpstats.apps.cli.args import seed as _seed
from cpstats.apps.par import par_sheet

__all__ = ["add_par_command", "run_par_command"]


def add_par_command(sub) -> argparse.ArgumentParser:
    """Add ``cpstats par VARIANT --out DIR`` to the subparsers ``sub``; returns the parser."""
    p = sub.add_parser("par", help="write a variant's PAR sheet (HTML and PDF)")
    p.add_argument("variant", help="preset name or variant string (either game)")
    p.add_argument("--out", default="par", help="output folder, created if missing (default ./par)")
    p.add_argument("--deals", type=_positive_int, default=None,
                   help="deals to simulate, exactly that many (default: the shipped ev reference of a "
                        "preset, else 200,000; open face: until Fantasyland entry and foul "
                        "rates are within +-0.5 points and royalties a board within +-0.1, at most "
                        "30,000 hands, played by fast)")
    p.add_argument("--precision", choices=["designer", "submission"], default=None,
                   help="grow the run until a precision level's targets (default designer; submission: a "
                        "regulator's, 13-card: house edge +-0.05 points or each seat's mean +-0.015, hit "
                        "frequency +-0.1 points, SD +-0.01, at most 2,000,000 deals; open face: foul and "
                        "Fantasyland entry +-0.2 points, royalties +-0.04, Fantasyland value +-0.2, SD "
                        "+-0.08, at most 150,000 hands, about 40 min on 2 cores); the cover states what "
                        "was reached and says DRAFT below submission; not with --deals")
    p.add_argument("--hands-per-hour", type=_pace, default=None,
                   help="pace of the hourly figures (default: the variant's, 30)")
    p.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    setter_option(p, bulk=True)
    add_scheduler_options(p, default="threads")
    p.add_argument("--sensitivity-deals", type=_positive_int, default=None,
                   help="deals a point of the sensitivity sweeps (default 20,000; open "
                        "face: the sheet's own hands)")
    p.add_argument("--no-sensitivity", dest="sensitivity", action="store_false",
                   help="leave the sensitivity sweeps out (13-card: each point of a rule that moves ev's "
                        "choices trains its tables on first use, about a minute each)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress lines on stderr (by default each stage says what it plays, the "
                        "hands so far and about how long is left)")
    p.set_defaults(run=run_par_command)
    return p


def run_par_command(args: argparse.Namespace) -> str:
    """Handler of ``cpstats par``: writes ``par.html`` and ``par.pdf``, returns what it wrote."""
    out = _out_folder(args.out)  # refused before the simulation, naming --out
    executor, close = executor_for(args)
    try:
        sheet = par_sheet(args.variant, deals=args.deals, rng=args.seed, setter=args.setter,
                          hands_per_hour=args.hands_per_hour, out=out, executor=executor,
                          sensitivity=getattr(args, "sensitivity", True),
                          sensitivity_deals=getattr(args, "sensitivity_deals", None),
                          progress=None if getattr(args, "quiet", False) else _say,
                          precision=getattr(args, "precision", None))
    finally:
        close()
    stop = sheet.precision
    if stop is not None and not stop["reached"]:
        print(f"cpstats par: warning: {stop['note']}", file=sys.stderr, flush=True)
    cover = sheet.cover
    status = f"\n{cover.status_words} Results digest {cover.digest}." if cover is not None else ""
    return (f"PAR sheet of {sheet.label} ({sheet.result.deals:,} {sheet.unit}, {sheet.setter_words}) "
            f"written: {out / 'par.html'} and {out / 'par.pdf'}" + (f"\n{stop['note']}" if stop else "") + status)


def _say(line: str) -> None:
    """A progress line of the sheet's build, on stderr."""
    print(line, file=sys.stderr, flush=True)
