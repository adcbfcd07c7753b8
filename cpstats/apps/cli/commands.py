"""The handlers of ``cpstats``'s simulation, listing and tool commands: ``naturals``, ``presets``,
``simulate``, ``compare``, ``presets-table``, ``report``, ``reference``, ``dashboard``, ``train``,
``match``, ``skill`` and ``review`` (their parsers are :mod:`cpstats.apps.cli.entry`'s). Each takes
the parsed arguments and returns the text to print: a table, CSV or JSON, a baseline setter's
figures named as such in the header.

The commands that play any game (``simulate``, ``compare``, and ``sweep``, ``par``, ``skill``,
``solve``, ``design`` in their own modules) reach the variant's game through the registry: its
words (:attr:`cpstats.engine.registry.Game.unit`), its setter and, for ``simulate``, the text of its
result (:data:`SIMULATE_TEXT`, keyed by the registered game's name; a game without one prints its
tidy figures).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NamedTuple

import pandas as pd

from cpstats.apps._warmup import compile_notice, simulation_kernels
from cpstats.apps.cli.args import KERNELS
from cpstats.apps.cli.args import executor_for as _executor
from cpstats.apps.cli.args import out_folder as _out_folder
from cpstats.apps.cli.args import setter_of
from cpstats.apps.cli.open_face import default_hands, range_warnings
from cpstats.apps.labels import baseline_label
from cpstats.errors import CpstatsError, OptionError
from cpstats.ofc import GAME as OPEN_FACE
from cpstats.rules.house import Rake
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.registry import game_of
from cpstats.thirteen.rules.ids import HandOrdering
from cpstats.thirteen import GAME as THIRTEEN

__all__ = ["report_plan", "split_systems", "ReportPlan", "SIMULATE_TEXT", "SIMULATE_DEALS", "other_game"]

#: ``simulate``'s deals without ``--deals`` (an open-face run sizes its own hands:
#: :func:`cpstats.apps.cli.open_face.default_hands`).
SIMULATE_DEALS = 100_000


def other_game(text: object, game) -> str | None:
    """The name of the game ``text`` (a preset name or variant string) is a variant of, when it is
    not ``game``; None for ``game``'s and for an unknown preset (left to the command, which names
    it in its own refusal)."""
    try:
        found = game_of(text).name if isinstance(text, str) else None
    except CpstatsError:
        return None
    return found if found is not None and found != game.name else None


def _strategy_words(strategy: str) -> str:
    """``strategy X`` for a header, a baseline named as one."""
    return f"strategy {baseline_label(strategy) or strategy}"


def _notice_for(game, strategy: str) -> None:
    """:func:`_notice_compiling` for the kernels ``game``'s runs use with ``strategy``."""
    kernels = KERNELS.get(game.name)
    if kernels is not None:
        _notice_compiling(*kernels(strategy))


def _notice_compiling(*modules: str) -> None:
    """Say on stderr, before the first kernel runs, that numba still has to compile the kernel
    ``modules`` the command uses (the first call after install pauses for a few minutes).
    Commands call it once their options are checked, so an option's refusal is not preceded
    by it. The line names why they compile (a numba upgrade, a changed kernel, a first run)."""
    notice = compile_notice(*modules)
    if notice is not None:
        print(notice, file=sys.stderr, flush=True)


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


def _figures(args: argparse.Namespace) -> str:
    """Every figure name a variant's runs give (the names ``--metric``, ``--objective``,
    ``--constraint`` and ``--until`` take), the headline ones first: a few deals of the game's
    probe setter name them."""
    from cpstats.engine.registry import load_variant
    from cpstats.engine.lookup import figure_names, headline_names

    v = load_variant(args.variant)
    names = figure_names(v)
    head = headline_names(names)
    rest = [n for n in names if n not in head]
    return (f"figures of {v} ({game_of(v).name}), {len(names)}: the headline {len(head)}, then each seat's, "
            f"hand's...\n" + "\n".join(head) + "\n\n" + "\n".join(rest))


def _presets(args: argparse.Namespace) -> str:
    """Every game's presets, the 13-card game's first, with a ``game`` column telling them apart;
    another game's say how to play them (the 13-card commands refuse them)."""
    from cpstats.engine.registry import presets

    df = presets()
    other = df["game"] != THIRTEEN.name
    df.loc[other, "description"] += " (play: cpstats simulate --preset " + df.loc[other, "name"] + ")"
    if args.format == "table":
        df = df[["name", "game", "seed", "description"]]
    return _emit(df, args.format)


def _simulate(args: argparse.Namespace) -> str:
    """A run of any game, printed as its game's text (:data:`SIMULATE_TEXT`)."""
    from cpstats.engine.registry import load_variant

    return SIMULATE_TEXT.get(game_of(load_variant(args.preset)).name, _simulate_figures)(args)


def _simulate_figures(args: argparse.Namespace) -> str:
    """A run of a game without a text of its own: a header and its tidy figures."""
    from cpstats import workbench

    executor, close = _executor(args)
    try:
        result = workbench.simulate(args.preset, args.deals or SIMULATE_DEALS, players=args.players,
                                    setter=setter_of(args),
                                    rng=args.seed, executor=executor, out=_out_folder(args.out),
                                    resume=args.resume, keep_hands=args.keep_hands,
                                    progress=not args.quiet, until=args.until)
    finally:
        close()
    head = f"{result.variant}: {result.deals:,} {game_of(result.variant).unit}, strategy {result.setter}"
    return head + "\n\n" + _emit(result.figures(), args.format)


def _simulate_thirteen(args: argparse.Namespace) -> str:
    """A 13-card run: its tables (moments, rates, royalties, naturals, house, sessions)."""
    from cpstats import workbench
    from cpstats.thirteen.rules.variant import resolve_variant
    from cpstats.engine.sequential import until_record

    if args.keep_hands and args.out is None:
        raise OptionError("--keep-hands needs --out: the rows are written there (the printed "
                          "tables do not show them)")
    low_middle = resolve_variant(args.preset).ranking is HandOrdering.DEUCE_TO_SEVEN
    out = _out_folder(args.out)
    executor, close = _executor(args)
    try:
        _notice_compiling(*simulation_kernels(args.setter, low_middle=low_middle))
        result = workbench.simulate(args.preset, args.deals or SIMULATE_DEALS, players=args.players,
                                     setter=setter_of(args), rng=args.seed, executor=executor,
                                     out=out, resume=args.resume, keep_hands=args.keep_hands,
                                     progress=not args.quiet, until=args.until)
    finally:
        close()
    tables = result.tables()
    strategy = str(result.metadata.get("strategy", args.setter))
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
    """An open-face preset or variant: hands played street by street (:mod:`cpstats.apps.cli.open_face`)."""
    from cpstats.apps.cli.open_face import simulate_text

    executor, close = _executor(args)
    try:
        return simulate_text(args, executor)
    finally:
        close()


def _compare(args: argparse.Namespace) -> str:
    from cpstats.engine.registry import load_variant
    from cpstats.workbench import compare

    if not args.preset or len(args.preset) < 2:
        raise CpstatsError("compare needs at least two --preset")
    v = load_variant(args.preset[0])
    game = game_of(v)
    strategy = getattr(game.runs.setter(args.setter, v), "name", args.setter)  # ev: the game's strong one
    deals = args.deals or RUN_LENGTHS.get(game.name, lambda setter: SIMULATE_DEALS)(strategy)
    executor, close = _executor(args)
    try:
        _notice_for(game, args.setter)
        df = compare(args.preset, deals, players=args.players, setter=setter_of(args), rng=args.seed,
                     executor=executor, tidy=True)
    finally:
        close()
    outside = range_warnings(df.attrs.get("street_models"))
    for line in outside:
        print(f"cpstats compare: warning: {line}", file=sys.stderr, flush=True)
    shown = ["label", "metric", "estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]
    if args.format != "table":  # a file handed on says who set the hands, row by row
        return _emit(df[["label", "setter", *shown[1:]]], args.format)
    table = _emit(df[shown], args.format)
    seats = f" at {args.players} players" if args.players is not None else ""
    head = (f"{', '.join(args.preset)}{seats} on {deals:,} common {game.unit}, {_strategy_words(strategy)}; "
            "diff paired against the first preset, 95% CI") + "".join(f"\n{line}" for line in outside)
    return f"{head}\n{table}"


def _presets_table(args: argparse.Namespace) -> str:
    from cpstats.thirteen.presets_table import compare_presets

    if args.deals is not None:
        _notice_compiling(*simulation_kernels(args.setter))
    df = compare_presets(args.deals, setter=args.setter, rng=args.seed)
    if args.format != "table":
        return _emit(df, args.format)
    head = ("every preset from the shipped reference results (strategy ev)" if args.deals is None
            else f"every preset, {args.deals:,} deals each, {_strategy_words(args.setter)}")
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
    not load is refused. Each alternative rake is a fresh :class:`~cpstats.rules.house.Rake` of its
    model, replacing the game's whole rake but keeping its jackpot drop (taken on top of any
    rake); a model equal to the game's own rake is left out.
    """
    from cpstats.thirteen.rules.variant import resolve_variant

    v = resolve_variant(preset)
    chosen, skipped = [], []
    for item in split_systems(systems):
        other = other_game(item, THIRTEEN)
        if other is not None:
            raise OptionError(f"--systems item {item!r} is an {other} preset: the report rescores "
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
        _notice_compiling(*simulation_kernels(args.setter,
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
    from cpstats.thirteen.rules.presets import preset_names
    from cpstats.engine import REFERENCE_DIR, save_result

    names = args.preset or list(preset_names())
    if args.setter != "ev" and args.out is None:
        raise OptionError(f"--setter {args.setter} needs --out: the shipped references are ev's "
                          "figures, and a baseline's run must not replace them")
    out = _out_folder(args.out) or REFERENCE_DIR
    executor, close = _executor(args)
    baseline = baseline_label(args.setter)
    lines = [f"strategy {baseline}"] if baseline else []
    try:
        _notice_compiling(*simulation_kernels(args.setter))
        for name in names:
            result = workbench.simulate(name, args.deals, setter=args.setter, rng=args.seed,
                                         executor=executor, progress=not args.quiet)
            result.metadata["command"] = (f"cpstats reference --preset {name} --deals {args.deals} "
                                          f"--setter {args.setter} --seed {args.seed}")
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
    from cpstats.thirteen.play.training import train_preset

    _notice_compiling(*simulation_kernels("greedy", "ev"))
    options = {k: getattr(args, k) for k in ("rounds", "refine") if getattr(args, k) is not None}
    return "tables written: " + str(train_preset(args.preset, deals=args.deals, seed=args.seed,
                                                 verbose=not args.quiet, **options))


def _match(args: argparse.Namespace) -> str:
    from cpstats.thirteen.play.training import match

    _notice_compiling(*simulation_kernels(args.a, args.b))
    result = match(args.preset, args.a, args.b, deals=args.deals, rng=args.seed, tables=args.tables)
    lo, hi = result.ci95
    return (f"{result.a} vs {result.b} under {result.variant}, {result.deals:,} duplicate deals: "
            f"{result.mean:+.4f} units per hand (95% CI {lo:+.4f} .. {hi:+.4f})")


def _skill(args: argparse.Namespace) -> str:
    """The skill table of either game (:mod:`cpstats.apps.cli.skill`)."""
    from cpstats.apps.cli.skill import skill_text

    return skill_text(args)


def _review(args: argparse.Namespace) -> str:
    from cpstats.thirteen.rules.variant import resolve_variant
    from cpstats.thirteen.play.review import review

    _notice_compiling("_bits", "_rank_kernel", "review")
    result = review(args.cards, args.setting, args.preset, top=args.top, tables=args.tables)
    return review_words(resolve_variant(args.preset), args.tables) + "\n" + str(result)


def review_words(v: Variant, tables: str | None = None) -> str:
    """What ``review``'s EV is, in a line above it: the ev model's expected points of a hand (the
    setting's three rows against each opponent's, summed over the opponents), in the variant's
    units with its royalties and bonuses, before house charges; opponents set as the ev tables
    (the variant's own, or ``tables``) describe, rows and opponents taken as independent; a foul
    pays the mis-set penalty to each opponent."""
    from cpstats.thirteen.play.ev_setter import _opponents  # the opponents the ev model sums over

    scoring = v.scoring.system.value.removeprefix("SC-")
    against = _opponents(v)
    return (f"EV: expected points a hand under {v} ({scoring} scoring, {v.players} players), summed over "
            f"{against:g} opponents, in units, royalties and bonuses included, before house charges: the "
            f"ev model's estimate, each opponent's rows as the ev tables trained for {tables or v} set "
            "them, rows and opponents taken as independent (a foul pays the mis-set penalty to each)")


#: A run's length without ``--deals`` (``simulate``, ``compare``), by the registered game's name, a
#: function of the setter's name: open face's rollout plays about 24 hands a second
#: (:func:`cpstats.apps.cli.open_face.default_hands`); another game plays :data:`SIMULATE_DEALS`.
RUN_LENGTHS: dict[str, Callable[[str], int]] = {OPEN_FACE.name: default_hands}

#: How ``cpstats simulate`` prints a run, by the registered game's name (another game's run prints
#: its tidy figures).
SIMULATE_TEXT: dict[str, Callable[[argparse.Namespace], str]] = {THIRTEEN.name: _simulate_thirteen,
                                                                 OPEN_FACE.name: _simulate_ofc}
