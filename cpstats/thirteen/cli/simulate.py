"""What ``cpstats simulate`` prints of a 13-card run: a header naming the variant, the deals and
who set the hands (a baseline named as one), then the run's tables (moments, rates, royalties,
naturals, house, sessions) as text or CSV; JSON is ``{"run": {...}, "moments": [...], ...}``.
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
    parts = [f"# {name}\n" + kit.emit(tables[name], args.format) for name in TABLES]
    setter = kit.baseline_label(strategy) or result.setter
    head = f"{result.variant}: {result.deals:,} deals, strategy {setter}" + (f"\n{until['note']}" if until else "")
    return head + "\n\n" + "\n\n".join(parts)
