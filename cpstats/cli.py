"""Command line: ``cpstats naturals``, ``cpstats presets``.

Argument parsing is argparse's; every command prints a table, CSV or JSON.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

import pandas as pd

from .errors import CpstatsError

__all__ = ["main"]


def _positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is invalid: must be >= 1")
    return value


def _emit(df: pd.DataFrame, fmt: str, floatfmt: str = "{:.6g}") -> str:
    if fmt == "csv":
        return df.to_csv(index=False)
    if fmt == "json":
        return df.to_json(orient="records", indent=2)
    return df.to_string(index=False, float_format=lambda x: floatfmt.format(x))


def _naturals(args: argparse.Namespace) -> str:
    from .frequencies import natural_frequencies

    df = natural_frequencies(args.deals, players=args.players, rng=args.seed,
                             qka_front_straight=not args.no_qka, progress=not args.quiet)
    if args.format == "table":
        df = df[["natural", "hits", "frequency", "ci_low", "ci_high", "exact_probability", "z",
                 "one_in", "per_table"]]
    return _emit(df, args.format)


def _presets(args: argparse.Namespace) -> str:
    from .presets import presets

    df = presets()
    if args.format == "table":
        df = df[["name", "seed", "description"]]
    return _emit(df, args.format)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cpstats", description="Statistics of Chinese poker rule variants.")
    sub = parser.add_subparsers(dest="command", required=True)
    nat = sub.add_parser("naturals", help="simulate natural frequencies beside their exact values")
    nat.add_argument("--deals", type=_positive_int, default=1_000_000, help="deals to simulate (default 1,000,000)")
    nat.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    nat.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="seated players (default 4)")
    nat.add_argument("--no-qka", action="store_true", help="Q-K-A does not count as a front straight")
    nat.add_argument("--format", choices=("table", "csv", "json"), default="table")
    nat.add_argument("--quiet", action="store_true", help="no progress bar")
    nat.set_defaults(run=_naturals)
    pre = sub.add_parser("presets", help="list the rule presets")
    pre.add_argument("--format", choices=("table", "csv", "json"), default="table")
    pre.set_defaults(run=_presets)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cpstats`` console script."""
    args = build_parser().parse_args(argv)
    try:
        print(args.run(args))
    except CpstatsError as err:
        print(f"cpstats {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cpstats {args.command}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
