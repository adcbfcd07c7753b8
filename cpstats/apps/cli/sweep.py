"""``cpstats sweep VARIANT PARAMETER VALUES``: a rule sweep from the command line.

:func:`add_sweep_command` adds the subcommand to ``cpstats``'s subparsers; its handler
:func:`run_sweep` prints the table (each point's estimate and paired difference to the first
value, with intervals) and, with ``--out``, writes the table as CSV and the charts as PNG, SVG
and PDF (:func:`~cpstats.apps.sweep_chart.save_sweep`).

- Decision: values are split at commas and read as numbers where they are numbers (``0,2.5``),
  as text otherwise (``none,standard,2``), exactly as the variant string would read them.
- Decision: blocks run by default on a pool of ``--workers`` threads (``--scheduler threads``;
  the kernels release the GIL), so the command uses the cores without a Dask install;
  ``--scheduler none|local|tcp://...`` as every long command takes it. This module does not
  import ``cli`` (which imports it): its option helpers come from ``cli_args``.
- Decision: either game: an open-face variant (``ofc-*``) is swept over its own keys
  (``royalties.front.QQ``, ``fantasyland.stay``...), ``--deals`` then counting hands.
"""

from __future__ import annotations

import argparse
import math

import pandas as pd

from cpstats.apps.cli.args import add_scheduler_options, executor_for
from cpstats.apps.cli.args import out_folder as _out
from cpstats.apps.cli.args import pace as _pace
from cpstats.apps.cli.args import positive_int as _whole
from cpstats.apps.cli.args import seed as _seed
from cpstats.apps.cli.args import command_lines, setter_of, setter_option, setter_options
from cpstats.apps.labels import baseline_label
from cpstats.errors import OptionError
from cpstats.rules.codec import parse_number
from cpstats.engine.catalogue import figures_of
from cpstats.engine.figures_text import compare_text
from cpstats.engine.games import runs_of
from cpstats.engine.sequential import until_record

__all__ = ["add_sweep_command", "run_sweep", "parse_values"]

_EXAMPLE = ("cpstats sweep 2-4 royalties.front_trips 0,2,5,10 --deals 100000 --out sweep; open face: "
            "cpstats sweep ofc-pineapple royalties.front.QQ 6,7,8,9")


def parse_values(text: str) -> list:
    """``"0,2,5.5,none"`` -> ``[0, 2, 5.5, "none"]``; refuses an empty list or an empty item."""
    items = [item.strip() for item in str(text).split(",")]
    if not items or any(not item for item in items):
        raise OptionError(f"values={text!r} is invalid: comma-separated values such as 0,2,5,10")
    return [_number(item) for item in items]


def _number(item: str):
    try:
        value = parse_number("values", item)
    except OptionError:
        return item
    # an int of any size stays an int: the rules refuse it in one line (math.isfinite would overflow)
    return value if isinstance(value, int) or math.isfinite(value) else item


def add_sweep_command(sub) -> argparse.ArgumentParser:
    """Add ``sweep`` to the subparsers ``sub`` (from ``parser.add_subparsers``); its ``run``
    default is :func:`run_sweep`. Returns the subparser."""
    metrics = "; ".join(words.metrics_help() for words in command_lines().values() if words.metrics_help)
    p = sub.add_parser("sweep", help="one rule parameter over several values on common deals "
                                     "(estimates and paired differences, 95%% CI)",
                       description=f"Example: {_EXAMPLE}")
    p.add_argument("variant", help="preset name or variant string swept, e.g. 2-4 or ofc-pineapple")
    p.add_argument("parameter", help="a key of the variant string, e.g. royalties.front_trips, "
                                     "scoring.scoop_bonus, rake.percent, surrender, players; open "
                                     "face: royalties.front.QQ, fantasyland.stay, fantasyland.cards")
    p.add_argument("values", help="comma-separated values, each once, the first the baseline, e.g. 0,2,5,10")
    p.add_argument("--deals", type=_whole, default=None,
                   help="deals a point, hands for open face, exactly that many (default 100,000; open "
                        "face: every point's Fantasyland entry and foul rates within +-0.5 points and "
                        "royalties a board within +-0.1, and so each paired difference, at most 30,000 "
                        "hands a point, played by fast)")
    p.add_argument("--metrics", default=None, help=f"comma-separated, {metrics}")
    setter_option(p, bulk=True)
    p.add_argument("--seed", type=_seed, default=2026, help="random seed (default 2026)")
    p.add_argument("--hands-per-hour", type=_pace, default=None,
                   help="pace of a house-take-per-seat-hour column, above 0")
    setter_options(p, "sweep")
    add_scheduler_options(p, default="threads")
    p.add_argument("--out", default=None,
                   help="folder for sweep.csv and the charts (PNG, SVG, PDF), created if missing")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=run_sweep)
    return p

def run_sweep(args: argparse.Namespace) -> str:
    """Run the sweep the arguments name; returns the text to print (one-line OptionError on bad
    input, before anything is simulated)."""
    import sys

    from cpstats.engine.points import sweep_variants
    from cpstats.workbench import sweep

    values = parse_values(args.values)
    sweep_variants(args.variant, args.parameter, values)  # refuse bad input before any work
    out = _out(args.out)
    note = (lambda i, v: None) if args.quiet else _Progress(len(values))
    executor, close = executor_for(args)
    try:
        table = sweep(args.variant, args.parameter, values, deals=args.deals, metrics=args.metrics,
                      setter=setter_of(args, args.variant), rng=args.seed, executor=executor,
                      hands_per_hour=args.hands_per_hour, on_point=note)
    finally:
        close()
    written = ""
    stop = until_record(table.attrs, f"{table.attrs.get('unit', 'deals')} a point")
    warnings = ([stop["note"]] if stop is not None and not stop["reached"] else []) + _outside(table)
    for line in warnings:
        print(f"cpstats sweep: warning: {line}", file=sys.stderr, flush=True)
    if out is not None:
        from cpstats.apps.sweep_chart import save_sweep

        paths = save_sweep(table, out)
        written = f"\nwrote {', '.join(p.name for p in paths)} to {out}"
    return _format(table, args.format) + written


class _Progress:
    """The progress lines on stderr: each point, and each stage of a sweep grown to a precision."""

    def __init__(self, points: int):
        self.points, self.stage = points, 0

    def __call__(self, i: int, v) -> None:
        import sys

        if i == 0:
            self.stage += 1
            if self.stage > 1:
                print(f"more hands for the precision asked: stage {self.stage}", file=sys.stderr, flush=True)
        print(f"point {i + 1} of {self.points}: {v}", file=sys.stderr, flush=True)


def _format(table: pd.DataFrame, fmt: str) -> str:
    if fmt == "csv":
        return table.to_csv(index=False)
    if fmt == "json":
        return table.to_json(orient="records", indent=2)
    a = table.attrs
    setters = ", ".join(baseline_label(x) or x for x in dict.fromkeys(a["setters"]))
    unit = a.get("unit", "deals")
    head = (f"{a['parameter_label']} ({a['parameter']}) swept on {a['base']}: {a['deals']:,} {unit} a "
            f"point on {a['pairing']}, seed {a['entropy']}, set by {setters}; "
            f"{a['confidence']:.0%} CI, differences paired against the first value, the baseline "
            f"{a['parameter']}={table['value'].iloc[0]}")
    points = table.assign(label=[f"{a['parameter']}={value}" for value in table["value"]])
    stop = until_record(a, f"{unit} a point")
    if stop is not None:
        head += f"\n{stop['note']}; one play: {a['play']}" if a.get("play") else f"\n{stop['note']}"
    head += "".join(f"\n{line}" for line in _outside(table))
    text = head + "\n" + compare_text(points, figures_of(runs_of(a["base"])))
    return text + runs_of(a["base"]).views.command_line.table_notes(table) + _few_events(table)


def _outside(table: pd.DataFrame) -> list[str]:
    """A line for each point whose play the sweep's game cannot vouch for (open face: rules
    outside its street models' trained ranges), led by the point."""
    a = table.attrs
    points = [f"{a['parameter']}={value}" for value in dict.fromkeys(table["value"])]
    return runs_of(a["base"]).views.command_line.warnings(a, points)


def _few_events(table: pd.DataFrame) -> str:
    """The differences printed without an interval (NaN ends), each with why and the deals a
    point would need for one."""
    if "diff_note" not in table:
        return ""
    few = table[table["diff_note"].fillna("") != ""]
    lines = [f"  {r['parameter']}={r['value']}, {r['metric']}: {r['diff_note']}" for _, r in few.iterrows()]
    return "" if not lines else "\ndifferences without an interval (NaN):\n" + "\n".join(lines)
