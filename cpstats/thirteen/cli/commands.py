"""The 13-card game's own commands: ``naturals``, ``presets-table``, ``reference``, ``train``,
``match`` and ``review`` (``report``: :mod:`cpstats.thirteen.cli.report`). Each ``add_*`` adds its
subcommand to the ``cpstats`` subparsers with the command line's kit
(:class:`cpstats.engine.views.CommandLine`); each handler returns the text to print: a table, CSV
or JSON, a baseline setter's figures named as such in the header."""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any

from cpstats.errors import OptionError
from cpstats.thirteen.cli.options import simulation_kernels, tables_option
from cpstats.thirteen.rules.variant import Variant

__all__ = ["add_naturals_command", "add_presets_table_command", "add_reference_command", "add_train_command",
           "add_match_command", "add_review_command", "review_words"]


def _strategy_words(strategy: str, kit: Any) -> str:
    """``strategy X`` for a header, a baseline named as one."""
    return f"strategy {kit.baseline_label(strategy) or strategy}"


def _naturals(args: argparse.Namespace, kit: Any) -> str:
    from cpstats.thirteen.frequencies import natural_frequencies

    kit.notice("_natural_kernel")
    df = natural_frequencies(args.deals, players=args.players, rng=args.seed,
                             qka_front_straight=not args.no_qka, progress=not args.quiet)
    if args.format == "table":
        df = df[["natural", "hits", "frequency", "ci_low", "ci_high", "exact_probability", "z",
                 "one_in", "per_table"]]
    return kit.emit(df, args.format)


def add_naturals_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``naturals``: natural frequencies simulated beside their exact values."""
    nat = sub.add_parser("naturals", help="simulate natural frequencies beside their exact values")
    nat.add_argument("--deals", type=kit.positive_int, default=1_000_000,
                     help="deals to simulate (default 1,000,000)")
    nat.add_argument("--seed", type=kit.seed, default=2026, help="random seed (default 2026)")
    nat.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="seated players (default 4)")
    nat.add_argument("--no-qka", action="store_true", help="Q-K-A does not count as a front straight")
    nat.add_argument("--format", choices=("table", "csv", "json"), default="table")
    nat.add_argument("--quiet", action="store_true", help="no progress bar")
    nat.set_defaults(run=partial(_naturals, kit=kit))
    return nat


def _presets_table(args: argparse.Namespace, kit: Any) -> str:
    from cpstats.thirteen.presets_table import compare_presets

    if args.deals is not None:
        kit.notice(*simulation_kernels(args.setter))
    df = compare_presets(args.deals, setter=args.setter, rng=args.seed)
    if args.format != "table":
        return kit.emit(df, args.format)
    head = ("every preset from the shipped reference results (strategy ev)" if args.deals is None
            else f"every preset, {args.deals:,} deals each, {_strategy_words(args.setter, kit)}")
    return f"{head}\n{kit.emit(df.drop(columns='description'), args.format)}"


def add_presets_table_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``presets-table``: one table of every preset, with intervals."""
    tab = sub.add_parser("presets-table", help="one table of every preset, with intervals (default: "
                                               "the shipped ev reference results, instant)")
    tab.add_argument("--deals", type=kit.positive_int, default=None,
                     help="run every preset live for this many deals (default: read the references)")
    tab.add_argument("--setter", default="ev", help="who sets the hands of a live run (default ev)")
    tab.add_argument("--seed", type=kit.seed, default=2026, help="random seed of a live run (default 2026)")
    tab.add_argument("--format", choices=("table", "csv", "json"), default="table")
    tab.set_defaults(run=partial(_presets_table, kit=kit))
    return tab


def _reference(args: argparse.Namespace, kit: Any) -> str:
    from cpstats.engine import REFERENCE_DIR, save_result
    from cpstats.thirteen.rules.presets import preset_names

    names = args.preset or list(preset_names())
    if args.setter != "ev" and args.out is None:
        raise OptionError(f"--setter {args.setter} needs --out: the shipped references are ev's "
                          "figures, and a baseline's run must not replace them")
    out = kit.out_folder(args.out) or REFERENCE_DIR
    executor, close = kit.executor(args)
    baseline = kit.baseline_label(args.setter)
    lines = [f"strategy {baseline}"] if baseline else []
    try:
        kit.notice(*simulation_kernels(args.setter))
        for name in names:
            result = kit.simulate(name, args.deals, setter=args.setter, rng=args.seed,
                                  executor=executor, progress=not args.quiet)
            result.metadata["command"] = (f"cpstats reference --preset {name} --deals {args.deals} "
                                          f"--setter {args.setter} --seed {args.seed}")
            path = save_result(result, out / name)
            sd = result.moments()["sd"].mean()
            lines.append(f"{name}: {result.deals:,} deals, SD {sd:.3f} -> {path}")
    finally:
        close()
    return "\n".join(lines)


def add_reference_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``reference``: regenerate the shipped reference results."""
    ref = sub.add_parser("reference", help="regenerate the shipped reference results (cpstats/data/reference)")
    ref.add_argument("--preset", action="append", help="a preset (default: every preset)")
    kit.common_options(ref, 1_000_000)
    ref.add_argument("--out", default=None,
                     help="folder (default: the package data folder cpstats/data/reference)")
    ref.set_defaults(run=partial(_reference, kit=kit))
    return ref


def _train(args: argparse.Namespace, kit: Any) -> str:
    from cpstats.thirteen.play.training import train_preset

    kit.notice(*simulation_kernels("greedy", "ev"))
    options = {k: getattr(args, k) for k in ("rounds", "refine") if getattr(args, k) is not None}
    return "tables written: " + str(train_preset(args.preset, deals=args.deals, seed=args.seed,
                                                 verbose=not args.quiet, **options))


def add_train_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``train``: the ev setter's tables of a preset."""
    tr = sub.add_parser("train", help="train the ev setter's tables for a preset (cpstats/data/strategies)")
    tr.add_argument("--preset", required=True)
    tr.add_argument("--deals", type=kit.positive_int, default=200_000, help="deals per round")
    tr.add_argument("--rounds", type=kit.positive_int, default=None,
                    help="most damped best-response rounds (default 30; stops when the gap stops falling)")
    tr.add_argument("--refine", type=kit.count, default=None,
                    help="refinement rounds on twice the deals, 0 or more (default 6)")
    tr.add_argument("--seed", type=kit.seed, default=20261129)
    tr.add_argument("--quiet", action="store_true")
    tr.set_defaults(run=partial(_train, kit=kit))
    return tr


def _match(args: argparse.Namespace, kit: Any) -> str:
    from cpstats.thirteen.play.training import match

    kit.notice(*simulation_kernels(args.a, args.b))
    result = match(args.preset, args.a, args.b, deals=args.deals, rng=args.seed, tables=args.tables)
    lo, hi = result.ci95
    return (f"{result.a} vs {result.b} under {result.variant}, {result.deals:,} duplicate deals: "
            f"{result.mean:+.4f} units per hand (95% CI {lo:+.4f} .. {hi:+.4f})")


def add_match_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``match``: a duplicate match of two setters."""
    ma = sub.add_parser("match", help="duplicate match of two strategies (mean difference per hand, 95%% CI)")
    ma.add_argument("--preset", required=True)
    ma.add_argument("--a", default="ev")
    ma.add_argument("--b", default="greedy")
    ma.add_argument("--deals", type=kit.positive_int, default=20_000)
    ma.add_argument("--seed", type=kit.seed, default=2026)
    tables_option(ma)
    ma.set_defaults(run=partial(_match, kit=kit))
    return ma


def _review(args: argparse.Namespace, kit: Any) -> str:
    from cpstats.thirteen.play.review import review
    from cpstats.thirteen.rules.variant import resolve_variant

    kit.notice("_bits", "_rank_kernel", "review")
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


def add_review_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``review``: a setting's expected result, the best ones and the loss."""
    rv = sub.add_parser("review", help="expected result of a setting, the best one and the loss")
    rv.add_argument("cards", help="the 13 cards")
    rv.add_argument("setting", help='the setting, "front / middle / back"')
    rv.add_argument("--preset", default="2-4")
    rv.add_argument("--top", type=kit.count, default=5, help="best alternatives to list, 0 or more (default 5)")
    tables_option(rv)
    rv.set_defaults(run=partial(_review, kit=kit))
    return rv
