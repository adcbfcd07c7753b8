"""Command line: ``cpstats naturals | presets | simulate | compare | report``.

Argument parsing is argparse's; every command prints a table, CSV or JSON.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
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


def _executor(args: argparse.Namespace):
    """(executor, closer) for --scheduler: none (serial), local (a dask LocalCluster), tcp://..."""
    scheduler = getattr(args, "scheduler", None)
    if not scheduler or scheduler == "none":
        return None, lambda: None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise CpstatsError("--scheduler needs dask: pip install 'cpstats[dask]'") from None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
        return client.get_executor(), lambda: (client.close(), cluster.close())
    if scheduler.startswith("tcp://"):
        client = Client(scheduler)
        return client.get_executor(), client.close
    raise CpstatsError(f"--scheduler={scheduler!r} is invalid: use none, local or tcp://HOST:PORT")


def _simulate(args: argparse.Namespace) -> str:
    from .simulation import simulate

    executor, close = _executor(args)
    try:
        result = simulate(args.preset, args.deals, players=args.players, strategy=args.strategy,
                          rng=args.seed, executor=executor, out=args.out, resume=args.resume,
                          keep_hands=args.keep_hands, progress=not args.quiet)
    finally:
        close()
    tables = result.tables()
    if args.format == "json":
        import json

        return json.dumps({k: json.loads(v.to_json(orient="records")) for k, v in tables.items()}, indent=2)
    parts = []
    for name in ("moments", "rates", "royalties", "naturals", "house", "sessions"):
        parts.append(f"# {name}\n" + _emit(tables[name], args.format))
    return f"{result.variant}: {result.deals:,} deals, strategy {args.strategy}\n\n" + "\n\n".join(parts)


def _compare(args: argparse.Namespace) -> str:
    from .simulation import compare

    if not args.preset or len(args.preset) < 2:
        raise CpstatsError("compare needs at least two --preset")
    executor, close = _executor(args)
    try:
        df = compare(args.preset, args.deals, strategy=args.strategy, rng=args.seed, executor=executor)
    finally:
        close()
    return _emit(df, args.format)


#: House charges the report compares, as cardrooms charge (CASINO-MATH.md): a fixed drop per
#: table, a drop per player, 5% of the pot capped at 1 unit, and a time charge of 6 units per
#: player per hour (at 30 hands an hour).
_RAKE_MODELS = (
    {"rake": "fixed-table", "rake__amount": 0.5},
    {"rake": "fixed-player", "rake__amount": 0.1},
    {"rake": "percent", "rake__percent": 0.05, "rake__cap": 1.0},
    {"rake": "time", "rake__amount": 6.0},
)


def _report(args: argparse.Namespace) -> str:
    from .report import write_report
    from .settlement import resolve_variant
    from .simulation import simulate

    executor, close = _executor(args)
    try:
        result = simulate(args.preset, args.deals, strategy=args.strategy, rng=args.seed,
                          executor=executor, keep_hands=True, progress=not args.quiet)
        v = result.variant
        systems = []
        for name in args.systems.split(","):
            other = resolve_variant(name.strip())
            if (other.players, other.hands_per_player) == (v.players, v.hands_per_player) and str(other) != str(v):
                systems.append(result.rescore(other))
        rakes = [result.rescore(v.replace(**charge)) for charge in _RAKE_MODELS]
    finally:
        close()
    path = write_report(result, args.out, systems=systems, rakes=rakes,
                        hands_per_hour=args.hands_per_hour)
    return f"report written: {path} and {path.with_suffix('.html')}"


def _reference(args: argparse.Namespace) -> str:
    from .presets import preset_names
    from .simulation import REFERENCE_DIR, save_result, simulate

    names = args.preset or list(preset_names())
    out = Path(args.out) if args.out else REFERENCE_DIR
    executor, close = _executor(args)
    lines = []
    try:
        for name in names:
            result = simulate(name, args.deals, strategy=args.strategy, rng=args.seed,
                              executor=executor, progress=not args.quiet)
            result.metadata["command"] = (f"cpstats reference --preset {name} --deals {args.deals} "
                                          f"--strategy {args.strategy} --seed {args.seed}")
            path = save_result(result, out / name)
            sd = result.moments()["sd"].mean()
            lines.append(f"{name}: {result.deals:,} deals, SD {sd:.3f} -> {path}")
    finally:
        close()
    return "\n".join(lines)


def _dashboard(args: argparse.Namespace) -> str:
    from .dashboard import serve

    code = serve(port=args.port, open_browser=args.open)
    return f"dashboard stopped (exit {code})"


def _train(args: argparse.Namespace) -> str:
    from .training import train_preset

    options = {k: getattr(args, k) for k in ("rounds", "refine") if getattr(args, k) is not None}
    return "tables written: " + str(train_preset(args.preset, deals=args.deals, seed=args.seed,
                                                 verbose=not args.quiet, **options))


def _match(args: argparse.Namespace) -> str:
    from .training import match

    result = match(args.preset, args.a, args.b, deals=args.deals, seed=args.seed)
    lo, hi = result.ci95
    return (f"{result.a} vs {result.b} under {result.variant}, {result.deals:,} duplicate deals: "
            f"{result.mean:+.4f} units per hand (95% CI {lo:+.4f} .. {hi:+.4f})")


def _review(args: argparse.Namespace) -> str:
    from .review import review

    return str(review(args.cards, args.setting, args.preset, top=args.top))


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

    def common(p: argparse.ArgumentParser, deals: int) -> None:
        p.add_argument("--deals", type=_positive_int, default=deals, help=f"deals (default {deals:,})")
        p.add_argument("--strategy", default="ev", help="setting strategy (default ev)")
        p.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
        p.add_argument("--scheduler", default="none",
                       help="none (serial), local (a dask LocalCluster) or tcp://HOST:8786")
        p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="LocalCluster workers")
        p.add_argument("--quiet", action="store_true", help="no progress bar")

    sim = sub.add_parser("simulate", help="simulate deals under a preset and print its summaries")
    sim.add_argument("--preset", required=True, help="preset name or variant string")
    common(sim, 100_000)
    sim.add_argument("--players", type=int, choices=(2, 3, 4), default=None)
    sim.add_argument("--out", default=None, help="folder for finished blocks (and rows)")
    sim.add_argument("--resume", action="store_true", help="reuse the finished blocks in --out")
    sim.add_argument("--keep-hands", action="store_true", help="write one row per deal and seat to --out")
    sim.add_argument("--format", choices=("table", "csv", "json"), default="table")
    sim.set_defaults(run=_simulate)
    cmp_ = sub.add_parser("compare", help="compare presets side by side on common deals")
    cmp_.add_argument("--preset", action="append", help="a preset (give two or more)")
    common(cmp_, 100_000)
    cmp_.add_argument("--format", choices=("table", "csv", "json"), default="table")
    cmp_.set_defaults(run=_compare)
    rep = sub.add_parser("report", help="write a math report (Markdown, HTML, PNG charts)")
    rep.add_argument("--preset", default="2-4", help="preset name or variant string (default 2-4)")
    common(rep, 200_000)
    rep.add_argument("--out", default="report", help="output folder (default ./report)")
    rep.add_argument("--systems", default="2-4,1-4,1-6,basic,2-4-total",
                     help="scoring systems rescored on the same settings for the SD chart")
    rep.add_argument("--hands-per-hour", type=float, default=30.0)
    rep.set_defaults(run=_report)
    ref = sub.add_parser("reference", help="regenerate the reference results shipped in data/reference")
    ref.add_argument("--preset", action="append", help="a preset (default: every preset)")
    common(ref, 1_000_000)
    ref.add_argument("--out", default=None, help="folder (default: the package's data/reference)")
    ref.set_defaults(run=_reference)
    dash = sub.add_parser("dashboard", help="serve the rule designer with Voila on localhost")
    dash.add_argument("--port", type=int, default=8866)
    dash.add_argument("--open", action="store_true", help="open a browser")
    dash.set_defaults(run=_dashboard)
    tr = sub.add_parser("train", help="train the ev setter's row tables for a preset (data/strategies)")
    tr.add_argument("--preset", required=True)
    tr.add_argument("--deals", type=_positive_int, default=200_000, help="deals per round")
    tr.add_argument("--rounds", type=_positive_int, default=None,
                    help="most damped best-response rounds (default 30; stops when the gap stops falling)")
    tr.add_argument("--refine", type=int, default=None,
                    help="refinement rounds on twice the deals (default 6)")
    tr.add_argument("--seed", type=int, default=20261129)
    tr.add_argument("--quiet", action="store_true")
    tr.set_defaults(run=_train)
    ma = sub.add_parser("match", help="duplicate match of two strategies (mean difference per hand, 95% CI)")
    ma.add_argument("--preset", required=True)
    ma.add_argument("--a", default="ev")
    ma.add_argument("--b", default="greedy")
    ma.add_argument("--deals", type=_positive_int, default=20_000)
    ma.add_argument("--seed", type=int, default=2026)
    ma.set_defaults(run=_match)
    rv = sub.add_parser("review", help="expected result of a setting, the best one and the loss")
    rv.add_argument("cards", help="the 13 cards")
    rv.add_argument("setting", help='the setting, "front / middle / back"')
    rv.add_argument("--preset", default="2-4")
    rv.add_argument("--top", type=int, default=5)
    rv.set_defaults(run=_review)
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
