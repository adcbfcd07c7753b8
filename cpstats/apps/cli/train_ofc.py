"""``cpstats train-ofc``: solve the open-face tables that ``rollout`` (the default) ships with.

Today that is the value of a Fantasyland entry it is told (:mod:`cpstats.ofc.entry_value`): a
fixed point by self-play, per preset, written to ``cpstats/data/ofc/entry_values.json`` with its
seed, hands, rounds and the seconds it took. The same seed gives the same numbers. With
``--street-values HANDS``: the default ``rollout``'s street models instead
(:mod:`cpstats.ofc.street_values`), ``street_values-<variant>.npz``: beside ``--out`` when
given, else in the package's folder for a variant it ships models for (re-fitted in place) and
in cpstats' cache folder for any other (a designer's rules: an installed package is not
written to), where ``rollout`` finds them.
"""

from __future__ import annotations

import argparse

__all__ = ["add_train_ofc_command", "run_train_ofc", "STREET_ROUNDS"]

STREET_ROUNDS = 1  # rounds of the shipped street models (cpstats/data/ofc/street_values-*.npz): a second gained nothing


def add_train_ofc_command(sub) -> argparse.ArgumentParser:
    """Add ``train-ofc`` to the subparsers ``sub``; its ``run`` default is :func:`run_train_ofc`."""
    from cpstats.ofc import GAME as OPEN_FACE
    from cpstats.ofc.entry_value import SHIPPED

    p = sub.add_parser("train-ofc", help="solve the default rollout's shipped open-face tables (Fantasyland "
                                         "entry value, a fixed point by self-play)",
                       description=f"Writes {SHIPPED.name} in the package's data folder.")
    p.add_argument("presets", nargs="*", default=[OPEN_FACE.default_preset],
                   help=f"open-face presets (default {OPEN_FACE.default_preset})")
    p.add_argument("--hands", type=int, default=300, help="self-play hands a round (default 300)")
    p.add_argument("--rounds", type=int, default=3, help="fixed-point rounds (default 3)")
    p.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    p.add_argument("--out", default=None,
                   help=f"file written (default: the package's {SHIPPED.name}); with --street-values, the models "
                        "go beside it (default: the package's folder for a variant it ships models for, else "
                        "cpstats' cache folder, where the default rollout finds them)")
    p.add_argument("--street-values", type=int, default=0, metavar="HANDS",
                   help="instead: fit the default rollout's street models on HANDS self-play hands (needs scikit-learn), written as "
                        "street_values-<variant>.npz beside --out")
    p.add_argument("--street-rounds", type=int, default=STREET_ROUNDS, metavar="N",
                   help=f"with --street-values: rounds of improvement, each round's bot labelling the next "
                        f"(default {STREET_ROUNDS}, as shipped: a second round measured no gain)")
    p.set_defaults(run=run_train_ofc)
    return p


def run_train_ofc(args: argparse.Namespace) -> str:
    """Solve and write the tables; returns one line a preset."""
    if args.street_values:
        from pathlib import Path

        from cpstats.ofc.street_values import write_shipped as write_street_values

        out = write_street_values(tuple(args.presets), hands=args.street_values, seed=args.seed,
                                  rounds=args.street_rounds,
                                  folder=None if args.out is None else Path(args.out).parent)
        return "\n".join(f"{key}: street models of {r['rounds']} round{'s' * (r['rounds'] != 1)} of {r['hands']} "
                         f"self-play hands, seed {r['seed']}, {r['nodes']} nodes, {r['seconds']} s -> {r['path']}"
                         for key, r in out.items())
    from cpstats.ofc.entry_value import SHIPPED, write_shipped

    out = write_shipped(tuple(args.presets), hands=args.hands, rounds=args.rounds, rng=args.seed,
                        path=SHIPPED if args.out is None else args.out)
    return "\n".join(f"{key}: Fantasyland entry worth {r['value']:.2f} over a normal hand (95% "
                     f"{r['ci_low']:.2f}..{r['ci_high']:.2f}; in the long run {r['long_run_value']:.2f}, "
                     f"{r['long_run_low']:.2f}..{r['long_run_high']:.2f}, at entry {r['entry_rate']:.1%}), "
                     f"normal-board baseline {r['baseline']:.2f}; "
                     f"{r['hands']} hands x {r['rounds_played']} rounds, seed {r['seed']}, {r['seconds']} s"
                     for key, r in out.items())
