"""``cpstats report``: a 13-card math report (Markdown, HTML, PNG charts) of one run, with other
scoring systems rescored on its settings and other house charges (:func:`report_plan`): its
content is :func:`cpstats.thirteen.report.report_content`, written by the command line's report
writer (``kit.write_report``)."""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any, NamedTuple

from cpstats.errors import CpstatsError, OptionError
from cpstats.rules.house import Rake
from cpstats.thirteen.cli.options import _other_game, kernels, setter_of, tables_option
from cpstats.thirteen.report import report_content
from cpstats.thirteen.rules.variant import Variant

__all__ = ["add_report_command", "report_plan", "split_systems", "ReportPlan"]

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
        other = _other_game(item)
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


def _report(args: argparse.Namespace, kit: Any) -> str:
    plan = report_plan(args.preset, args.systems)
    out = kit.out_folder(args.out)
    executor, close = kit.executor(args)
    try:
        kit.notice(*kernels(plan.variant, args.setter))
        result = kit.simulate(plan.variant, args.deals, setter=setter_of(args), rng=args.seed,
                              executor=executor, keep_hands=True, progress=not args.quiet)
        systems = [result.rescore(other) for other in plan.systems]
        rakes = [result.rescore(other) for other in plan.rakes]
    finally:
        close()
    content = report_content(result, systems=systems, rakes=rakes, hands_per_hour=args.hands_per_hour)
    path = kit.write_report(content, out)
    lines = [f"report written: {path} and {path.with_suffix('.html')}"]
    lines += [f"--systems skipped: {item}" for item in plan.skipped]
    return "\n".join(lines)


def add_report_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``report`` to the ``cpstats`` subparsers ``sub``."""
    rep = sub.add_parser("report", help="write a math report (Markdown, HTML, PNG charts)")
    rep.add_argument("--preset", default="2-4", help="preset name or variant string (default 2-4)")
    kit.common_options(rep, 200_000)
    rep.add_argument("--out", default="report", help="output folder (default ./report)")
    rep.add_argument("--systems", default="2-4,1-4,1-6,basic,2-4-total",
                     help="scoring systems rescored on the same settings for the SD chart, comma-separated "
                          "(commas inside a variant's parentheses do not split it)")
    rep.add_argument("--hands-per-hour", type=kit.pace, default=30.0,
                     help="pace for the hourly house figures, above 0 (default 30)")
    tables_option(rep)
    rep.set_defaults(run=partial(_report, kit=kit))
    return rep
