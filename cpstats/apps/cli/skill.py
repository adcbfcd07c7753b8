"""``cpstats skill --preset VARIANT``: the skill table of a variant of either game under a header
naming the run (:func:`cpstats.skill`; a 13-card variant's ev against greedy, random and ev
fields, an open-face variant's rollout against greedy, random and rollout fields)."""

from __future__ import annotations

import argparse

import pandas as pd

from cpstats.apps.cli.args import executor_for, kernels_of, setter_of
from cpstats.apps.cli.commands import notice

__all__ = ["skill_text", "skill_header"]


def skill_header(table: pd.DataFrame) -> str:
    """The line above a skill table: who plays, under which rules, how many deals, which seed."""
    deals = int(table["deals"].iloc[0])
    attrs = table.attrs
    if attrs["player"] == "ev":
        tables = attrs["tables"]
        source = f", {tables['source']}" if tables.get("source") else ""
        who, how, ci = f"ev (tables trained for {tables['trained_for']}{source})", "duplicate deals", ""
    else:
        who, how = f"{attrs['player']} (open face's strong strategy)", "hands a seat, seat-swapped"
        ci = f", {attrs['interval']}"
    return (f"{who} against each field under {attrs['variant']}, {deals:,} {how}, seed "
            f"{attrs['seed']}: {attrs['player']}'s mean net per hand, units, before house charges "
            f"(95% CI{ci})")


def skill_text(args: argparse.Namespace) -> str:
    """Handler of ``cpstats skill``: the table with its header, numbers to four decimals."""
    from cpstats.engine.registry import load_variant
    from cpstats.workbench import skill

    v = load_variant(args.preset)
    notice(*kernels_of(v, "ev", "greedy", "random", by_rules=False))
    executor, close = executor_for(args)
    try:
        table = skill(v, deals=args.deals, rng=args.seed, setter=setter_of(args, v), executor=executor)
    finally:
        close()
    frame = table.reset_index()[["field", "label", "mean", "se", "ci_low", "ci_high"]]
    body = frame.to_string(index=False, float_format=lambda x: f"{x:.4f}")
    return f"{skill_header(table)}\n{body}"
