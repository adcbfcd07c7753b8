"""Command line: ``cpstats naturals | presets | simulate | compare | presets-table | report | ...``.

Argument parsing is argparse's; every command prints a table, CSV or JSON. Bad input (argparse's
usage errors included), an unreachable scheduler and operating-system errors (an unwritable
folder, a full disk) end the command with one line on stderr, ``cpstats CMD: error: ...``, and
exit status 2. Open-face presets (``ofc-*``) are played by ``simulate``, ``compare``, ``sweep``,
``par``, ``skill``, ``solve`` and ``design``; every other command refuses them in one line saying
so. Figures of a baseline setter (greedy, random) are named as such in the output's header.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import sys
from pathlib import Path
from typing import NamedTuple, Sequence

import pandas as pd

from cpstats.rules.ids import HandOrdering
from cpstats.apps._warmup import COMPILE_MESSAGE, needs_compiling, simulation_kernels
from cpstats.apps.cli_args import OneLineErrorParser, add_scheduler_options
from cpstats.apps.cli_args import executor_for as _executor
from cpstats.apps.labels import baseline_label
from cpstats.apps.cli_args import count as _count
from cpstats.apps.cli_args import out_folder as _out_folder
from cpstats.apps.cli_args import pace as _pace
from cpstats.apps.cli_args import positive_int as _positive_int
from cpstats.apps.cli_args import seed as _seed
from cpstats.apps.cli_args import setter_of
from cpstats.apps.data_files import add_data_command
from cpstats.apps.par import add_par_command
from cpstats.apps.sweep_cli import add_sweep_command
from cpstats.apps.solve_cli import add_design_command, add_solve_command
from cpstats.apps.train_ofc import add_train_ofc_command
from cpstats.errors import CpstatsError, OptionError
from cpstats.rules import Rake, Variant

__all__ = ["main", "build_parser", "report_plan", "split_systems", "ReportPlan"]

def _strategy_words(strategy: str) -> str:
    """``strategy X`` for a header, a baseline named as one."""
    return f"strategy {baseline_label(strategy) or strategy}"


def _notice_compiling(*modules: str) -> None:
    """Say on stderr, before the first kernel runs, that numba still has to compile the kernel
    ``modules`` the command uses (the first call after install pauses for a few minutes).
    Commands call it once their options are checked, so an option's refusal is not preceded
    by it."""
    if needs_compiling(*modules):
        print(COMPILE_MESSAGE, file=sys.stderr, flush=True)


def _emit(df: pd.DataFrame, fmt: str, floatfmt: str = "{:.6g}") -> str:
    if fmt == "csv":
        return df.to_csv(index=False)
    if fmt == "json":
        return df.to_json(orient="records", indent=2)
    return df.to_string(index=False, float_format=lambda x: floatfmt.format(x))


def _naturals(args: argparse.Namespace) -> str:
    from cpstats.thirteen.frequencies import natural_frequencies

    _notice_compiling("_natural_kernel")
    df = natural_frequencies(args.deals, players=args.players, rng=args.seed,
                             qka_front_straight=not args.no_qka, progress=not args.quiet)
    if args.format == "table":
        df = df[["natural", "hits", "frequency", "ci_low", "ci_high", "exact_probability", "z",
                 "one_in", "per_table"]]
    return _emit(df, args.format)


def _presets(args: argparse.Namespace) -> str:
    """The 13-card presets, then the open-face ones (played by ``cpstats simulate`` only), with a
    ``game`` column telling them apart."""
    from cpstats.rules import presets

    df = presets()
    open_face = df["game"] == "open-face"
    df.loc[open_face, "description"] += " (play: cpstats simulate --preset " + df.loc[open_face, "name"] + ")"
    if args.format == "table":
        df = df[["name", "game", "seed", "description"]]
    return _emit(df, args.format)


def _simulate(args: argparse.Namespace) -> str:
    from cpstats import workbench
    from cpstats.ofc import is_ofc_variant
    from cpstats.rules import resolve_variant
    from cpstats.simulation.sequential import until_record

    if is_ofc_variant(args.preset):
        return _simulate_ofc(args)
    if args.keep_hands and args.out is None:
        raise OptionError("--keep-hands needs --out: the rows are written there (the printed "
                          "tables do not show them)")
    low_middle = resolve_variant(args.preset).ranking is HandOrdering.DEUCE_TO_SEVEN
    out = _out_folder(args.out)
    executor, close = _executor(args)
    try:
        _notice_compiling(*simulation_kernels(args.strategy, low_middle=low_middle))
        result = workbench.simulate(args.preset, args.deals, players=args.players,
                                     setter=setter_of(args), rng=args.seed, executor=executor,
                                     out=out, resume=args.resume, keep_hands=args.keep_hands,
                                     progress=not args.quiet, until=args.until)
    finally:
        close()
    tables = result.tables()
    strategy = str(result.metadata.get("strategy", args.strategy))
    until = until_record(result.metadata, "deals")
    if until is not None and not until["reached"]:
        print(f"cpstats simulate: warning: {until['note']}", file=sys.stderr, flush=True)
    if args.format == "json":
        import json

        run = {"variant": str(result.variant), "deals": result.deals, "strategy": strategy,
               "setter": result.metadata.get("setter"), "strategy_note": baseline_label(strategy) or "good play"}
        run.update({"until": until} if until else {})
        frames = {k: json.loads(v.to_json(orient="records")) for k, v in tables.items()}
        return json.dumps({"run": run, **frames}, indent=2)
    parts = []
    for name in ("moments", "rates", "royalties", "naturals", "house", "sessions"):
        parts.append(f"# {name}\n" + _emit(tables[name], args.format))
    setter = baseline_label(strategy) or result.setter
    head = f"{result.variant}: {result.deals:,} deals, strategy {setter}" + (f"\n{until['note']}" if until else "")
    return head + "\n\n" + "\n\n".join(parts)


def _simulate_ofc(args: argparse.Namespace) -> str:
    """An open-face preset or variant: hands played street by street (``--strategy ev`` means rollout)."""
    from cpstats.ofc.simulation import simulate_ofc_text

    executor, close = _executor(args)
    try:
        return simulate_ofc_text(args, executor)
    finally:
        close()


def _compare(args: argparse.Namespace) -> str:
    from cpstats.workbench import compare

    if not args.preset or len(args.preset) < 2:
        raise CpstatsError("compare needs at least two --preset")
    from cpstats.rules import game_of

    open_face = game_of(args.preset[0]).name == "open-face"
    strategy = "rollout" if open_face and args.strategy == "ev" else args.strategy
    executor, close = _executor(args)
    try:
        if not open_face:
            _notice_compiling(*simulation_kernels(args.strategy))
        df = compare(args.preset, args.deals, setter=setter_of(args), rng=args.seed, executor=executor,
                     tidy=True)
    finally:
        close()
    shown = ["label", "metric", "estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]
    if args.format != "table":  # a file handed on says who set the hands, row by row
        return _emit(df[["label", "setter", *shown[1:]]], args.format)
    table = _emit(df[shown], args.format)
    unit = "hands (decks)" if open_face else "deals"
    head = (f"{', '.join(args.preset)} on {args.deals:,} common {unit}, {_strategy_words(strategy)}; "
            "diff paired against the first preset, 95% CI")
    return f"{head}\n{table}"


def _presets_table(args: argparse.Namespace) -> str:
    from cpstats.thirteen.presets_table import compare_presets

    if args.deals is not None:
        _notice_compiling(*simulation_kernels(args.strategy))
    df = compare_presets(args.deals, setter=args.strategy, rng=args.seed)
    if args.format != "table":
        return _emit(df, args.format)
    head = ("every preset from the shipped reference results (strategy ev)" if args.deals is None
            else f"every preset, {args.deals:,} deals each, {_strategy_words(args.strategy)}")
    return f"{head}\n{_emit(df.drop(columns='description'), args.format)}"


#: House charges the report compares, as cardrooms charge (CASINO-MATH.md): a fixed drop per
#: table, a drop per player, 5% of the pot capped at 1 unit, and a time charge of 6 units per
#: player per hour (at 30 hands an hour).
_RAKE_MODELS = (
    {"model": "fixed-table", "amount": 0.5},
    {"model": "fixed-player", "amount": 0.1},
    {"model": "percent", "percent": 0.05, "cap": 1.0},
    {"model": "time", "amount": 6.0},
)


class ReportPlan(NamedTuple):
    """Every variant a report settles: the game, its rescored ``systems`` and ``rakes``, and
    the ``skipped`` systems (with why)."""

    variant: Variant
    systems: tuple[Variant, ...]
    rakes: tuple[Variant, ...]
    skipped: tuple[str, ...]


def split_systems(text: str) -> list[str]:
    """``--systems`` items: split on commas outside parentheses, so a variant string with
    overrides (``1-6(royalties=R-FUTUREBET,rake=percent)``) stays whole; empty items dropped."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth <= 0:
            items.append(text[start:i])
            start, depth = i + 1, 0
    items.append(text[start:])
    return [item.strip() for item in items if item.strip()]


def _seated(other: Variant, v: Variant) -> Variant:
    """``other`` at the report's table: its players become the game's, the deal format must match."""
    if other.deal is not v.deal:
        raise OptionError(f"deal={other.deal.value}, the report's game deals {v.deal.value}")
    return other if other.players == v.players else other.replace(players=v.players)


def report_plan(preset: str | Variant, systems: str) -> ReportPlan:
    """Build and validate every variant a report settles, before anything is simulated.

    ``systems`` (the ``--systems`` text) are scoring systems rescored on the game's settings:
    each is seated at the game's table (its ``players`` set to the game's); one that cannot be
    (another deal format, a home run that needs more players) is skipped and named, one that does
    not load is refused. Each alternative rake is a fresh :class:`~cpstats.rules.Rake` of its
    model, replacing the game's whole rake but keeping its jackpot drop (taken on top of any
    rake); a model equal to the game's own rake is left out.
    """
    from cpstats.ofc import is_ofc_variant
    from cpstats.rules import resolve_variant

    v = resolve_variant(preset)
    chosen, skipped = [], []
    for item in split_systems(systems):
        if is_ofc_variant(item):
            raise OptionError(f"--systems item {item!r} is an open-face preset: the report rescores "
                              "13-card scoring systems")
        try:
            other = resolve_variant(item)
        except CpstatsError as err:
            raise OptionError(f"--systems item {item!r} does not load: {err}") from None
        try:
            other = _seated(other, v)
        except CpstatsError as err:
            skipped.append(f"{item} ({err})")
            continue
        if other != v and other not in chosen:
            chosen.append(other)
    drop = {"jackpot_drop": v.rake.jackpot_drop, "jackpot_trigger": v.rake.jackpot_trigger}
    rakes = [v.replace(rake=Rake(**model, **drop)) for model in _RAKE_MODELS]
    return ReportPlan(v, tuple(chosen), tuple(r for r in rakes if r != v), tuple(skipped))


def _report(args: argparse.Namespace) -> str:
    from cpstats import workbench
    from cpstats.apps.report import write_report

    plan = report_plan(args.preset, args.systems)
    out = _out_folder(args.out)
    executor, close = _executor(args)
    try:
        _notice_compiling(*simulation_kernels(args.strategy,
                                              low_middle=plan.variant.ranking is HandOrdering.DEUCE_TO_SEVEN))
        result = workbench.simulate(plan.variant, args.deals, setter=setter_of(args),
                                     rng=args.seed, executor=executor, keep_hands=True,
                                     progress=not args.quiet)
        systems = [result.rescore(other) for other in plan.systems]
        rakes = [result.rescore(other) for other in plan.rakes]
    finally:
        close()
    path = write_report(result, out, systems=systems, rakes=rakes,
                        hands_per_hour=args.hands_per_hour)
    lines = [f"report written: {path} and {path.with_suffix('.html')}"]
    lines += [f"--systems skipped: {item}" for item in plan.skipped]
    return "\n".join(lines)


def _reference(args: argparse.Namespace) -> str:
    from cpstats import workbench
    from cpstats.rules.presets import preset_names
    from cpstats.simulation import REFERENCE_DIR, save_result

    names = args.preset or list(preset_names())
    if args.strategy != "ev" and args.out is None:
        raise OptionError(f"--strategy {args.strategy} needs --out: the shipped references are ev's "
                          "figures, and a baseline's run must not replace them")
    out = _out_folder(args.out) or REFERENCE_DIR
    executor, close = _executor(args)
    baseline = baseline_label(args.strategy)
    lines = [f"strategy {baseline}"] if baseline else []
    try:
        _notice_compiling(*simulation_kernels(args.strategy))
        for name in names:
            result = workbench.simulate(name, args.deals, setter=args.strategy, rng=args.seed,
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
    from cpstats.apps.dashboard import serve

    code = serve(port=args.port, open_browser=args.open)
    return f"dashboard stopped (exit {code})"


def _train(args: argparse.Namespace) -> str:
    from cpstats.strategies.training import train_preset

    _notice_compiling(*simulation_kernels("greedy", "ev"))
    options = {k: getattr(args, k) for k in ("rounds", "refine") if getattr(args, k) is not None}
    return "tables written: " + str(train_preset(args.preset, deals=args.deals, seed=args.seed,
                                                 verbose=not args.quiet, **options))


def _match(args: argparse.Namespace) -> str:
    from cpstats.strategies.training import match

    _notice_compiling(*simulation_kernels(args.a, args.b))
    result = match(args.preset, args.a, args.b, deals=args.deals, rng=args.seed, tables=args.tables)
    lo, hi = result.ci95
    return (f"{result.a} vs {result.b} under {result.variant}, {result.deals:,} duplicate deals: "
            f"{result.mean:+.4f} units per hand (95% CI {lo:+.4f} .. {hi:+.4f})")


def _skill(args: argparse.Namespace) -> str:
    """The skill table of either game (:mod:`cpstats.apps.skill_cli`)."""
    from cpstats.apps.skill_cli import skill_text

    return skill_text(args)


def _review(args: argparse.Namespace) -> str:
    from cpstats.strategies.review import review

    _notice_compiling("_bits", "_rank_kernel", "review")
    return str(review(args.cards, args.setting, args.preset, top=args.top, tables=args.tables))


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


def _common(p: argparse.ArgumentParser, deals: int) -> None:
    """Options of every command that simulates: deals, strategy, seed, executor, progress."""
    p.add_argument("--deals", type=_positive_int, default=deals, help=f"deals (default {deals:,})")
    p.add_argument("--strategy", default="ev", help="setting strategy (default ev)")
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
    pre = sub.add_parser("presets", help="list the rule presets")
    pre.add_argument("--format", choices=("table", "csv", "json"), default="table")
    pre.set_defaults(run=_presets)


def _add_simulation_commands(sub) -> None:
    sim = sub.add_parser("simulate", help="simulate deals under a preset and print its summaries "
                                          "(open-face presets ofc-*: hands played street by street)")
    sim.add_argument("--preset", required=True, help="preset name or variant string (13-card or ofc-*)")
    _common(sim, 100_000)
    sim.add_argument("--players", type=int, choices=(2, 3, 4), default=None)
    sim.add_argument("--out", default=None, help="folder for finished blocks (and rows), created if missing")
    sim.add_argument("--resume", action="store_true", help="reuse the finished blocks in --out")
    sim.add_argument("--keep-hands", action="store_true",
                     help="write one row per deal and seat to --out (needs --out: the printed tables "
                          "do not show rows)")
    sim.add_argument("--format", choices=("table", "csv", "json"), default="table")
    sim.add_argument("--until", default=None, metavar="FIGURE=HALF_WIDTH",
                     help="play until the figure's 95%% half-width is at most this (e.g. house_edge=0.0005), "
                          "--deals then the most played (the output says whether it was reached; a run "
                          "stopped by --deals first says so on stderr too)")
    _tables_option(sim)
    sim.set_defaults(run=_simulate)
    cmp_ = sub.add_parser("compare", help="compare presets side by side on common deals")
    cmp_.add_argument("--preset", action="append", help="a preset (give two or more)")
    _common(cmp_, 100_000)
    cmp_.add_argument("--format", choices=("table", "csv", "json"), default="table")
    _tables_option(cmp_)
    cmp_.set_defaults(run=_compare)
    tab = sub.add_parser("presets-table", help="one table of every preset, with intervals (default: "
                                               "the shipped ev reference results, instant)")
    tab.add_argument("--deals", type=_positive_int, default=None,
                     help="run every preset live for this many deals (default: read the references)")
    tab.add_argument("--strategy", default="ev", help="setter of a live run (default ev)")
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
#: (command, dest) pairs whose preset or variant may be of either game (the shared verbs play it).
_BOTH_GAMES = frozenset({("simulate", "preset"), ("compare", "preset"), ("sweep", "variant"),
                         ("par", "variant"), ("skill", "preset"), ("solve", "variant"),
                         ("design", "variant")})


def _refuse_open_face(args: argparse.Namespace) -> None:
    """Refuse an open-face preset (``ofc-*``) where a command takes a 13-card one, saying where
    open face is played: the 13-card rules alone would call it an unknown preset. The commands of
    :data:`_BOTH_GAMES` play both games, so they are let through."""
    from cpstats.ofc import is_ofc_variant

    for dest, option in _PRESET_ARGUMENTS.items():
        if (args.command, dest) in _BOTH_GAMES:
            continue
        given = getattr(args, dest, None)
        for text in given if isinstance(given, list) else [given]:
            if not is_ofc_variant(text):
                continue
            named = f"{text!r}" if option == "VARIANT" else f"{option}={text!r}"
            if dest == "tables":
                raise OptionError(f"{named} is an open-face preset: --tables takes the ev tables of a "
                                  "13-card preset or variant string (open-face strategies need none)")
            raise OptionError(f"{named} is an open-face preset; cpstats {args.command} is for 13-card "
                              f"Chinese poker (open face: cpstats simulate --preset {shlex.quote(text)} "
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
    from cpstats.strategies.row_tables import training_progress

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
        _refuse_open_face(args)
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
