"""The handlers of ``cpstats``'s commands that play or list any game: ``figures``, ``presets``,
``simulate``, ``compare`` and ``dashboard`` (their parsers are :mod:`cpstats.apps.cli.entry`'s;
``skill``'s is :mod:`cpstats.apps.cli.skill`). Each takes the parsed arguments and returns the text to print: a
table, CSV or JSON, a baseline setter's figures named as such in the header.

These commands (and ``sweep``, ``par``, ``solve``, ``design`` in their own modules) reach the
variant's game through the registry: its words (:attr:`cpstats.engine.registry.Game.unit`), its
setter and, for ``simulate``, the text of its run (the game's
:attr:`~cpstats.engine.views.GameViews.simulate_text`, given the command line's kit; a game without
one prints its tidy figures). A game's own commands are its package's
(:attr:`cpstats.engine.views.CommandLine.commands`).
"""

from __future__ import annotations

import argparse
import sys

from cpstats.apps.cli.args import executor_for as _executor
from cpstats.apps.cli.args import kernels_of, setter_of
from cpstats.apps.cli.args import out_folder as _out_folder
from cpstats.apps._warmup import compile_notice
from cpstats.apps.cli.kit import SIMULATE_DEALS, Kit, emit
from cpstats.apps.labels import baseline_label
from cpstats.engine.catalogue import figures_of
from cpstats.engine.figures_text import compare_text
from cpstats.engine.games import runs_of
from cpstats.engine.registry import game_of, load_variant
from cpstats.errors import CpstatsError

__all__ = ["SIMULATE_DEALS", "KIT", "other_game", "notice"]


def other_game(text: object, game) -> str | None:
    """The name of the game ``text`` (a preset name or variant string) is a variant of, when it is
    not ``game``; None for ``game``'s and for an unknown preset (left to the command, which names
    it in its own refusal)."""
    try:
        found = game_of(text).name if isinstance(text, str) else None
    except CpstatsError:
        return None
    return found if found is not None and found != game.name else None


def notice(*modules: str) -> None:
    """Say on stderr, before the first kernel runs, that numba still has to compile the kernel
    ``modules`` the command uses (the first call after install pauses for a few minutes).
    Commands call it once their options are checked, so an option's refusal is not preceded
    by it. The line names why they compile (a numba upgrade, a changed kernel, a first run). No
    module named (a game that names none): no line."""
    if not modules:
        return
    line = compile_notice(*modules)
    if line is not None:
        print(line, file=sys.stderr, flush=True)


#: The kit every game's command-line hook is given (:class:`~cpstats.apps.cli.kit.Kit`).
KIT = Kit(notice)


def _strategy_words(strategy: str) -> str:
    """``strategy X`` for a header, a baseline named as one."""
    return f"strategy {baseline_label(strategy) or strategy}"


def _figures(args: argparse.Namespace) -> str:
    """Every figure name a variant's runs give (the names ``--metric``, ``--objective``,
    ``--constraint`` and ``--until`` take), the headline ones first: a few deals of the game's
    probe setter name them."""
    from cpstats.engine.lookup import figure_names, headline_names

    v = load_variant(args.variant)
    names = figure_names(v)
    head = headline_names(names)
    rest = [n for n in names if n not in head]
    return (f"figures of {v} ({game_of(v).name}), {len(names)}: the headline {len(head)}, then each seat's, "
            f"hand's...\n" + "\n".join(head) + "\n\n" + "\n".join(rest))


def _presets(args: argparse.Namespace) -> str:
    """Every game's presets, in the order the games registered, with a ``game`` column telling
    them apart; a game's presets carry its note (how to play them, where some commands are
    another game's)."""
    from cpstats.engine.registry import games, presets

    df = presets()
    for name, game in games().items():
        note = game.runs.views.command_line.preset_note if game.runs is not None else ""
        if note:
            mine = df["game"] == name
            df.loc[mine, "description"] += df.loc[mine, "name"].map(lambda preset: note.format(name=preset))
    if args.format == "table":
        df = df[["name", "game", "seed", "description"]]
    return emit(df, args.format)


def _simulate(args: argparse.Namespace) -> str:
    """A run of any game, printed as its game's text (its ``simulate_text``, given the kit)."""
    text = runs_of(load_variant(args.preset)).views.simulate_text
    return _simulate_figures(args) if text is None else text(args, KIT)


def _simulate_figures(args: argparse.Namespace) -> str:
    """A run of a game without a text of its own: a header and its tidy figures."""
    from cpstats import workbench

    v = load_variant(args.preset)
    executor, close = _executor(args)
    try:
        result = workbench.simulate(args.preset, args.deals or SIMULATE_DEALS, players=args.players,
                                    setter=setter_of(args, v),
                                    rng=args.seed, executor=executor, out=_out_folder(args.out),
                                    resume=args.resume, keep_hands=args.keep_hands,
                                    progress=not args.quiet, until=args.until)
    finally:
        close()
    head = f"{result.variant}: {result.deals:,} {game_of(result.variant).unit}, strategy {result.setter}"
    return head + "\n\n" + emit(result.figures(), args.format)


def _compare(args: argparse.Namespace) -> str:
    from cpstats.workbench import compare

    if not args.preset or len(args.preset) < 2:
        raise CpstatsError("compare needs at least two --preset")
    v = load_variant(args.preset[0])
    game = game_of(v)
    words = game.runs.views.command_line
    strategy = getattr(game.runs.resolve_setter(args.setter, v), "name", args.setter)
    deals = args.deals or (SIMULATE_DEALS if words.run_length is None else words.run_length(strategy))
    executor, close = _executor(args)
    try:
        notice(*kernels_of(v, strategy, by_rules=False))
        df = compare(args.preset, deals, players=args.players, setter=setter_of(args, v), rng=args.seed,
                     executor=executor, tidy=True)
    finally:
        close()
    outside = words.warnings(df.attrs)
    for line in outside:
        print(f"cpstats compare: warning: {line}", file=sys.stderr, flush=True)
    shown = ["label", "metric", "estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]
    if args.format != "table":  # a file handed on says who set the hands, row by row
        return emit(df[["label", "setter", *shown[1:]]], args.format)
    table = compare_text(df, figures_of(game.runs))
    seats = f" at {args.players} players" if args.players is not None else ""
    head = (f"{', '.join(args.preset)}{seats} on {deals:,} common {game.unit}, {_strategy_words(strategy)}; "
            "diff paired against the first preset, 95% CI") + "".join(f"\n{line}" for line in outside)
    return f"{head}\n{table}"


def _dashboard(args: argparse.Namespace) -> str:
    from cpstats.apps.dashboard import serve

    code = serve(port=args.port, open_browser=args.open)
    return f"dashboard stopped (exit {code})"
