"""``cpstats solve`` and ``cpstats design``: rules for a target from the command line.

``cpstats solve banked bank.commission --metric house_edge --target 0.015 --bounds 0,0.1`` prints
a header line (the answer with its interval, the deals and who set the hands) and the evaluations
behind it; ``cpstats design VARIANT --space KEY=LOW:HIGH ... --objective sd --constraint
rake_share=:0.1`` prints the Pareto table with intervals. ``--format csv|json`` gives the tables
alone. Blocks run on ``--workers`` threads by default, as ``sweep`` does. Either game's variant is
taken, with the defaults and refusals of :func:`cpstats.solve` and :func:`cpstats.design` (open face:
``fast`` by default, ``rollout`` under the classic deal; a solve's hands chosen for the designer
precision, a design's 200 a trial; ``ev`` meaning its rollout setter).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import pandas as pd

from cpstats.apps.cli.args import add_scheduler_options, executor_for, half_width, key_values, setter_option
from cpstats.apps.cli.args import positive_int as _whole
from cpstats.apps.cli.args import seed as _seed
from cpstats.apps.cli.sweep import parse_values
from cpstats.errors import OptionError
from cpstats.apps.labels import baseline_label

__all__ = ["add_solve_command", "add_design_command", "run_solve", "run_design", "parse_bounds"]


def parse_bounds(text: str) -> list:
    """``"0,0.1"`` -> ``[0, 0.1]``; ``"0:10"`` reads as ``0,10`` too; more values are a list."""
    return parse_values(str(text).replace(":", ",") if ":" in str(text) and "," not in str(text) else text)


def _budget(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deals", type=_whole, default=None,
                   help="deals an evaluation (open face: hands), every candidate on the same ones, exactly "
                        "that many (default 20,000, and a solve of an integer or listed parameter grows, see --width; open face: solve, the hands that put the first bound's "
                        "Fantasyland entry and foul rates within +-0.5 points and royalties within +-0.1, "
                        "at most 30,000; design, 200)")
    setter_option(p, bulk=True)
    p.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    add_scheduler_options(p, default="threads")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def add_solve_command(sub) -> argparse.ArgumentParser:
    """Add ``solve`` to the subparsers ``sub``."""
    p = sub.add_parser("solve", help="the rule number that gives a figure its target, with an interval",
                       description="Example: cpstats solve banked bank.commission --metric house_edge "
                                   "--target 0.015 --bounds 0,0.1")
    p.add_argument("variant", help="preset name or variant string, e.g. banked or ofc-pineapple")
    p.add_argument("parameter", help="a key of the variant string, e.g. bank.commission, rake.percent")
    p.add_argument("--metric", required=True, help="a figure: house_edge, sd, rake_share, fl_entry_rate...")
    p.add_argument("--target", type=float, required=True, help="the value the figure should take")
    p.add_argument("--bounds", required=True, type=parse_bounds,
                   help="low,high (floats: continuous; ints: every whole value) or a list of values")
    p.add_argument("--direction", choices=("at_least", "at_most"), default="at_least",
                   help="an integer or listed value's figure must be >= (default) or <= the target")
    p.add_argument("--precision", type=half_width, default=None,
                   help="instead of --deals: the figure's half-width the first bound must reach")
    p.add_argument("--width", type=_whole, default=None,
                   help="without --deals or --precision, an integer or listed parameter's deals grow until its "
                        "answer's interval holds at most this many values (default 3: the answer +-1, at least 2)")
    p.add_argument("--max-deals", type=_whole, default=None,
                   help="the most deals that growth plays an evaluation (default 1,000,000; open face 30,000 hands)")
    _budget(p)
    p.set_defaults(run=run_solve)
    return p


def _note(quiet: bool, what: str):
    if quiet:
        return None
    return lambda row: print(f"{what} {row.get('order', row.get('trial'))}: {row.get('variant')}",
                             file=sys.stderr, flush=True)


def run_solve(args: argparse.Namespace) -> str:
    from cpstats.workbench.solve import solve

    executor, close = executor_for(args)
    try:
        s = solve(args.variant, args.parameter, args.metric, args.target, bounds=args.bounds,
                  deals=args.deals, rng=args.seed, setter=args.setter, executor=executor,
                  direction=args.direction, precision=args.precision, width=args.width,
                  max_deals=args.max_deals, on_evaluation=_note(args.quiet, "evaluation"))
    finally:
        close()
    if args.format == "csv":
        return s.to_frame().to_csv(index=False) + "\n" + s.evaluations.to_csv(index=False)
    if args.format == "json":
        return json.dumps({"solution": json.loads(s.to_frame().to_json(orient="records"))[0],
                           "evaluations": json.loads(s.evaluations.to_json(orient="records"))}, indent=2)
    shown = s.evaluations[["order", "value", "estimate", "ci_low", "ci_high", "seconds"]]
    text = shown.to_string(index=False, float_format=lambda x: f"{x:.6g}")
    baseline = baseline_label(args.setter) if isinstance(args.setter, str) else None
    reached = f"\n{s.precision['note']} (the first bound)" if s.precision else ""
    if s.precision and not s.precision["reached"]:
        print(f"cpstats solve: warning: {s.precision['note']}", file=sys.stderr, flush=True)
    return (f"{s.sentence()} (seed {s.entropy})" + (f"; {s.note}" if s.note else "")
            + (f"; set by {baseline}" if baseline else "") + reached + "\n" + text)


def _limits(figure: str, text: str) -> tuple:
    """``--constraint FIGURE=LOW:HIGH``'s ends as (low, high), None for an end left open."""
    low, sep, high = text.partition(":")
    if not sep:
        raise OptionError(f"--constraint {figure}={text} is invalid: LOW:HIGH with an end left empty if open")
    try:
        ends = (float(low) if low.strip() else None, float(high) if high.strip() else None)
    except ValueError:
        raise OptionError(f"--constraint {figure}={text} is invalid: numbers, e.g. 0.014:0.016 or :0.1") from None
    if not all(e is None or math.isfinite(e) for e in ends):
        raise OptionError(f"--constraint {figure}={text} is invalid: finite ends, an end left empty if open "
                          "(e.g. :0.1)")
    return ends


def add_design_command(sub) -> argparse.ArgumentParser:
    """Add ``design`` to the subparsers ``sub``."""
    p = sub.add_parser("design", help="several rule numbers at once: best objective within constraints",
                       description="Example: cpstats design banked --space bank.commission=0:0.08 "
                                   "--space scoring.scoop_bonus=0:6 --objective sd "
                                   "--constraint house_edge=0.014:0.016 --trials 30")
    p.add_argument("variant", help="preset name or variant string of either game, e.g. banked or "
                                   "ofc-pineapple(rake=percent)")
    p.add_argument("--space", action="append", required=True,
                   help="KEY=LOW:HIGH (floats or ints) or KEY=a,b,c; give one per parameter")
    p.add_argument("--objective", required=True, help="the figure to maximise")
    p.add_argument("--minimize", action="store_true", help="minimise the objective instead")
    p.add_argument("--constraint", action="append", default=[],
                   help="FIGURE=LOW:HIGH, an end left empty if open (rake_share=:0.1)")
    p.add_argument("--trials", type=_whole, default=20, help="trials of the search (default 20)")
    p.add_argument("--finalists", type=_whole, default=3, help="best trials re-run on fresh deals")
    _budget(p)
    p.set_defaults(run=run_design)
    return p


def run_design(args: argparse.Namespace) -> str:
    from cpstats.engine.registry import game_of
    from cpstats.workbench.design import design

    space = {k: parse_bounds(v) for k, v in key_values(args.space, "--space", "KEY=LOW:HIGH (or KEY=a,b,c)").items()}
    limits = {k: _limits(k, v) for k, v in key_values(args.constraint, "--constraint", "FIGURE=LOW:HIGH").items()}
    executor, close = executor_for(args)
    try:
        d = design(args.variant, space, args.objective, limits, trials=args.trials, deals=args.deals,
                   rng=args.seed, setter=args.setter, executor=executor, maximize=not args.minimize,
                   finalists=args.finalists, on_trial=_note(args.quiet, "trial"))
    finally:
        close()
    table = d.to_frame()
    if args.format == "csv":
        return table.to_csv(index=False)
    if args.format == "json":
        return json.dumps({"best": d.best, "variant": d.variant, "note": d.note,
                           "pareto": json.loads(table.to_json(orient="records")),
                           "finalists": json.loads(d.finalists.to_json(orient="records"))}, indent=2)
    goal = "maximise" if d.maximize else "minimise"
    unit = game_of(d.variant).unit
    head = (f"design on {args.variant}: {goal} {d.objective} subject to "
            f"{', '.join(_bound_words(m, lo, hi) for m, (lo, hi) in d.constraints.items()) or 'nothing'}; "
            f"{len(d.trials)} trials on {d.deals:,} common {unit}, seed {d.entropy}, set by "
            f"{baseline_label(d.setter) or d.setter}" + (f" (one play: {d.play})" if d.play else "") + "; "
            f"winner {d.best} (best of {len(d.finalists)} finalists re-run on fresh deals)"
            + (f"; {d.note}" if d.note else ""))
    return head + "\nPareto table (trial deals, 95% CI):\n" + _show(table)


def _bound_words(metric: str, low: float | None, high: float | None) -> str:
    """A design constraint as a reader says it: ``m in 0..0.1``, ``m <= 0.1`` or ``m >= 0``."""
    if low is None:
        return f"{metric} <= {high}"
    return f"{metric} >= {low}" if high is None else f"{metric} in {low}..{high}"


def _show(table: pd.DataFrame) -> str:
    return table.drop(columns=["variant", "play"], errors="ignore").to_string(
        index=False, float_format=lambda x: f"{x:.6g}")
