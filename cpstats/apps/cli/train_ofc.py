"""``cpstats train-ofc``: solve the open-face tables that ``rollout`` (the default) and ``fast`` play by.

Without ``--street-values``: the value of a Fantasyland entry the play is told
(:mod:`cpstats.ofc.entry_value`), a fixed point by self-play per variant, with its seed, hands,
rounds and seconds; a variant the package ships a value for is re-solved in the package's
``entry_values.json`` (the maintainers' command), any other goes to cpstats' cache folder (a
designer's results never go into the package). With ``--street-values HANDS``: the street models,
conditioned on the rules (:mod:`cpstats.ofc.street_training`), one file for every variant,
``cpstats/data/ofc/street_models.npz`` (or ``--out``): HANDS self-play hands for each of
``--draws`` rule draws, ``--anchor-hands`` for each shipped run's variant, on ``--workers``
processes (the file is the same whatever their number). Every output is checked writable before
the work starts.
"""

from __future__ import annotations

import argparse
import os
import sys

from cpstats.apps.cli.args import positive_int, whole_number

__all__ = ["add_train_ofc_command", "run_train_ofc"]


def add_train_ofc_command(sub) -> argparse.ArgumentParser:
    """Add ``train-ofc`` to the subparsers ``sub``; its ``run`` default is :func:`run_train_ofc`."""
    from cpstats.ofc import GAME as OPEN_FACE
    from cpstats.ofc import street_training as st
    from cpstats.ofc.entry_value import SHIPPED

    p = sub.add_parser("train-ofc", help="solve the open-face play's tables (Fantasyland entry values; with "
                                         "--street-values, the street models)",
                       description=f"Writes {SHIPPED.name} (a shipped variant's) or the cache folder's (a "
                                   "designer's variant); with --street-values the street-model file.")
    p.add_argument("presets", nargs="*", default=None,
                   help=f"open-face variants whose entry values to solve (default {OPEN_FACE.default_preset})")
    p.add_argument("--hands", type=positive_int, default=300, help="self-play hands a round (default 300)")
    p.add_argument("--rounds", type=positive_int, default=3, help="fixed-point rounds (default 3)")
    p.add_argument("--seed", type=lambda t: whole_number(t, 0), default=2026, help="random seed (default 2026)")
    p.add_argument("--out", default=None,
                   help="file written (default: the package's file for a variant it ships, else cpstats' cache "
                        "folder; with --street-values, the package's street_models.npz)")
    p.add_argument("--street-values", type=positive_int, default=None, metavar="HANDS",
                   help="instead: fit the street models of every variant (needs scikit-learn), HANDS self-play "
                        f"hands a rule draw (shipped: {st.HANDS})")
    p.add_argument("--draws", type=lambda t: whole_number(t, 0), default=st.DRAWS,
                   help=f"with --street-values: rule draws around the presets (default {st.DRAWS})")
    p.add_argument("--anchor-hands", type=positive_int, default=st.ANCHOR_HANDS,
                   help=f"with --street-values: hands of each shipped run's variant (default {st.ANCHOR_HANDS})")
    p.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                   help="with --street-values: processes (default: every core; the file does not depend on it)")
    p.set_defaults(run=run_train_ofc)
    return p


def run_train_ofc(args: argparse.Namespace) -> str:
    """Solve and write the tables; returns one line a variant (or the street-model file)."""
    from cpstats._atomic import writable_file
    from cpstats.errors import OptionError

    if args.out is not None:  # before minutes to hours of solving, not after
        writable_file("--out", args.out)
    if args.street_values is not None:
        from cpstats.ofc import street_training as st

        if args.presets:
            raise OptionError(f"train-ofc --street-values fits one file for every variant: leave out "
                              f"{' '.join(args.presets)!r} (every variant plays by the conditioned street models)")
        r = st.write_models(st.SHIPPED_PATH if args.out is None else args.out, draws=args.draws,
                            hands=args.street_values, anchor_hands=args.anchor_hands, seed=args.seed,
                            workers=args.workers, progress=lambda line: print(line, file=sys.stderr, flush=True))
        return (f"street models of {r['variants']} variants ({r['draws']} rule draws x {r['hands']} hands, "
                f"{len(r['anchors'])} shipped variants x {r['anchor_hands']}), seed {r['seed']}, nodes "
                f"{r['nodes']}, {r['seconds']} s on {r['workers']} workers -> {r['path']}")
    from cpstats.ofc import GAME as OPEN_FACE
    from cpstats.ofc.entry_value import write_shipped

    out = write_shipped(tuple(args.presets or [OPEN_FACE.default_preset]), hands=args.hands, rounds=args.rounds,
                        rng=args.seed, path=args.out)
    return "\n".join(f"{key}: Fantasyland entry worth {r['value']:.2f} over a normal hand (95% "
                     f"{r['ci_low']:.2f}..{r['ci_high']:.2f}; in the long run {r['long_run_value']:.2f}, "
                     f"{r['long_run_low']:.2f}..{r['long_run_high']:.2f}, at entry {r['entry_rate']:.1%}), "
                     f"normal-board baseline {r['baseline']:.2f}; "
                     f"{r['hands']} hands x {r['rounds_played']} rounds, seed {r['seed']}, {r['seconds']} s -> {r['path']}"
                     for key, r in out.items())
