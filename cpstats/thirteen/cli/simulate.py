"""What ``cpstats simulate`` prints of a 13-card run: a header naming the variant, the deals and
who set the hands (a baseline named as one), then its figures in the layout every game prints
(:func:`cpstats.engine.figures_text.figures_text`: headline first, rules not in play left out and
said so) and its session bands; CSV is the run's tables (moments, rates, royalties, naturals,
house, sessions) at full precision; JSON is ``{"run": {...}, "moments": [...], ...}``.
The run is played through the command line's kit (:class:`cpstats.engine.views.CommandLine`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cpstats.errors import OptionError
from cpstats.thirteen.cli.options import kernels, setter_of

__all__ = ["simulate_text", "TABLES"]

#: The tables printed, in order.
TABLES = ("moments", "rates", "royalties", "naturals", "house", "sessions")


def simulate_text(args: argparse.Namespace, kit: Any) -> str:
    """Play the run ``args`` describe and return its text (module docstring); ``--keep-hands``
    without ``--out`` is refused first, and a run stopped by ``--deals`` before ``--until`` was
    reached says so on stderr too."""
    from cpstats.engine.sequential import until_record
    from cpstats.thirteen.rules.variant import resolve_variant

    if args.keep_hands and args.out is None:
        raise OptionError("--keep-hands needs --out: the rows are written there (the printed "
                          "tables do not show them)")
    v = resolve_variant(args.preset)
    out = kit.out_folder(args.out)
    executor, close = kit.executor(args)
    try:
        kit.notice(*kernels(v, args.setter))
        result = kit.simulate(args.preset, args.deals or kit.simulate_deals, players=args.players,
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
               "setter": result.metadata.get("setter"), "strategy_note": kit.baseline_label(strategy) or "good play"}
        run.update({"until": until} if until else {})
        frames = {k: json.loads(v.to_json(orient="records")) for k, v in tables.items()}
        return json.dumps({"run": run, **frames}, indent=2)
    setter = kit.baseline_label(strategy) or result.setter
    head = f"{result.variant}: {result.deals:,} deals, strategy {setter}" + (f"\n{until['note']}" if until else "")
    if args.format == "csv":
        parts = [f"# {name}\n" + kit.emit(tables[name], args.format) for name in TABLES]
        return head + "\n\n" + "\n\n".join(parts)
    return head + "\n\n" + _figures_text(result, tables["sessions"])


def _absent(v: Any, catalogue: tuple) -> dict[str, list[str]]:
    """The rules of ``v`` not in play and the catalogue names of their figures."""
    from cpstats.thirteen.rules.ids import NaturalSchedule, RoyaltySchedule

    out: dict[str, list[str]] = {}
    if not v.surrender.enabled:
        out["surrender"] = ["surrender_rate_hand{hand}", "surrender_rate"]
    if v.royalties.schedule == RoyaltySchedule.NONE:
        out["royalties paid"] = ["royalty_per_hand"]
    if v.naturals.schedule == NaturalSchedule.NONE:
        out["declared naturals"] = ["declared_rate_hand{hand}", "declared_rate", "natural_per_hand"]
    out["house charges"] = [f.name for f in catalogue if f.basis == "house"] + ["hands_per_hour"]
    return out


def _figures_text(result: Any, sessions: Any) -> str:
    """The run's figures in the layout every game prints, then its session bands."""
    from cpstats.engine.figures_text import HEADLINE, figures_text, format_value
    from cpstats.engine.catalogue import figures_of
    from cpstats.engine.games import runs_of

    catalogue = figures_of(runs_of(result.variant))
    lines = ["sessions: a seat's result over n hands in units, expected and 90% range",
             f"  {sessions.attrs.get('sd', 'SD per hand')}"]
    head = f"  {'hands':>7} {'seat':>5} {'expected':>12} {'SD per hand':>12}   range"
    lines.append(head)
    for _, r in sessions.iterrows():
        lines.append(f"  {int(r['hands']):>7,} {int(r['seat']):>5} {format_value(r['expected'] + 0.0, 'units'):>12} "
                     f"{format_value(r['sd'], 'units'):>12}   {format_value(r['low'], 'units')}.."
                     f"{format_value(r['high'], 'units')}")
    return figures_text(result.figures(), catalogue, absent=_absent(result.variant, catalogue), extra=lines,
                        headline=(*HEADLINE, "home_run_rate", "royalty_per_hand", "house_edge"))
