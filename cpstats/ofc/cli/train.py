"""``cpstats train-ofc``: solve the open-face tables that ``rollout`` (the default) and ``fast`` play by.

Without ``--street-values``: the value of a Fantasyland entry the play is told
(:mod:`cpstats.ofc.entry_value`), a fixed point by self-play per variant, with its seed, hands,
rounds and seconds. A designer's variant goes to cpstats' cache folder, which the play reads; a
variant the package ships is solved again only into a named ``--out`` (the play reads the
package's value; the maintainers regenerate it with ``--out cpstats/data/ofc/entry_values.json``).
With ``--street-values HANDS``: the street models, conditioned on the rules
(:mod:`cpstats.ofc.street_training`), one file for every variant, written to ``--out`` (required:
``cpstats/data/ofc/street_models.npz`` regenerates the shipped file): HANDS self-play hands for
each of ``--draws`` rule draws, ``--anchor-hands`` for each shipped run's variant, on
``--workers`` processes (the file is the same whatever their number).

Nothing is written into the installed package unless ``--out`` names it. An option of the other
mode, a count past its cap or more workers than cores is one line before any work; every output
is checked writable before the work starts. Ctrl-C ends every worker at once (one line,
"interrupted", from the command line's entry). Registered as one of the game's commands
(:class:`cpstats.engine.views.CommandLine`): the parser's whole-number type comes from the command
line's kit, so nothing here imports an app.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_train_ofc_command", "run_train_ofc"]

_ENTRY_ONLY = {"hands": "--hands", "rounds": "--rounds"}
_STREET_ONLY = {"draws": "--draws", "anchor_hands": "--anchor-hands", "workers": "--workers"}


def _default_preset() -> str:
    """The preset open face's views open on, as the game registered it."""
    from cpstats.engine.registry import game_named
    from cpstats.ofc.rules import GAME

    return game_named(GAME).default_preset


def _whole(kit: Any, least: int, most: int, why: str):
    """An argparse type: a whole number in ``least..most`` (``why`` says where ``most`` comes from)."""

    def parse(text: str) -> int:
        value = kit.whole_number(text, least)
        if value > most:
            raise argparse.ArgumentTypeError(f"{value:,} is invalid: at most {most:,} ({why})")
        return value

    return parse


def add_train_ofc_command(sub: Any, kit: Any) -> argparse.ArgumentParser:
    """Add ``train-ofc`` to the subparsers ``sub``; its ``run`` default is :func:`run_train_ofc`."""
    from cpstats.ofc import entry_value as ev
    from cpstats.ofc import street_training as st

    cores = st.max_workers()
    total = f"draws x hands + anchors' hands at most {st.MAX_TRAINING_HANDS:,}"
    in_all = "the self-play hands of a training in all"
    p = sub.add_parser("train-ofc", help="solve the open-face play's tables (Fantasyland entry values; with "
                                         "--street-values, the street models)",
                       description="Writes a designer's entry values to cpstats' cache folder (the play reads "
                                   "them), or the file --out names; with --street-values the street-model file "
                                   "--out names. Nothing goes into the installed package unless --out names it "
                                   "(the maintainers: --out cpstats/data/ofc/entry_values.json or "
                                   "street_models.npz).")
    p.add_argument("presets", nargs="*", default=None,
                   help=f"open-face variants whose entry values to solve (default {_default_preset()})")
    p.add_argument("--hands", type=_whole(kit, 1, ev.MAX_HANDS, "about 2.5 hours a round on one core"), default=None,
                   help=f"self-play hands a round (default 300, at most {ev.MAX_HANDS:,}; not with --street-values)")
    p.add_argument("--rounds", type=_whole(kit, 1, ev.MAX_ROUNDS, "the fixed point settles within 3"), default=None,
                   help=f"fixed-point rounds (default 3, at most {ev.MAX_ROUNDS}; not with --street-values)")
    p.add_argument("--seed", type=lambda t: kit.whole_number(t, 0), default=2026, help="random seed (default 2026)")
    p.add_argument("--out", default=None,
                   help="file written (default: cpstats' cache folder for a designer's variant; required for a "
                        "variant the package ships and with --street-values)")
    p.add_argument("--street-values", type=_whole(kit, 1, st.MAX_TRAINING_HANDS, in_all), default=None, metavar="HANDS",
                   help="instead: fit the street models of every variant (needs scikit-learn), HANDS self-play "
                        f"hands a rule draw (shipped: {st.HANDS}; {total})")
    p.add_argument("--draws", type=_whole(kit, 0, st.MAX_TRAINING_HANDS, in_all), default=None,
                   help=f"with --street-values: rule draws around the presets (default {st.DRAWS})")
    p.add_argument("--anchor-hands", type=_whole(kit, 1, st.MAX_TRAINING_HANDS, in_all), default=None,
                   help=f"with --street-values: hands of each shipped run's variant (default {st.ANCHOR_HANDS})")
    p.add_argument("--workers", type=_whole(kit, 1, cores, "this machine's cores"), default=None,
                   help=f"with --street-values: processes, at most this machine's cores ({cores}; the default; "
                        "the file does not depend on it)")
    p.set_defaults(run=run_train_ofc)
    return p


def _refuse_other_mode(args: argparse.Namespace) -> None:
    """One line for an option given that the chosen mode does not read."""
    from cpstats.errors import OptionError

    street = args.street_values is not None
    for key, flag in (_ENTRY_ONLY if street else _STREET_ONLY).items():
        if getattr(args, key) is not None:
            raise OptionError(f"{flag} does not apply with --street-values (it is the entry values' option)"
                              if street else f"{flag} applies only with --street-values (the street models' "
                                             "option; the entry values are solved on one process)")


def run_train_ofc(args: argparse.Namespace) -> str:
    """Solve and write the tables; returns one line a variant (or the street-model file)."""
    from cpstats._atomic import writable_file
    from cpstats.errors import OptionError

    _refuse_other_mode(args)
    if args.out is not None:  # before minutes to hours of solving, not after
        writable_file("--out", args.out)
    if args.street_values is not None:
        from cpstats.ofc import street_training as st

        if args.presets:
            raise OptionError(f"train-ofc --street-values fits one file for every variant: leave out "
                              f"{' '.join(args.presets)!r} (every variant plays by the conditioned street models)")
        if args.out is None:
            raise OptionError("train-ofc --street-values needs --out FILE, the street-model file to write (the "
                              "play reads the package's; --out cpstats/data/ofc/street_models.npz regenerates it)")
        draws = st.DRAWS if args.draws is None else args.draws
        anchor_hands = st.ANCHOR_HANDS if args.anchor_hands is None else args.anchor_hands
        st.check_training_size(draws, args.street_values, anchor_hands,
                               names=("--draws", "--street-values", "--anchor-hands"))
        r = st.write_models(args.out, draws=draws, hands=args.street_values, anchor_hands=anchor_hands,
                            seed=args.seed, workers=args.workers or st.max_workers(),
                            progress=lambda line: print(line, file=sys.stderr, flush=True))
        return (f"street models of {r['variants']} variants ({r['draws']} rule draws x {r['hands']} hands, "
                f"{len(r['anchors'])} shipped variants x {r['anchor_hands']}), seed {r['seed']}, nodes "
                f"{r['nodes']}, {r['seconds']} s on {r['workers']} workers -> {r['path']}")
    from cpstats.ofc.entry_value import write_shipped

    out = write_shipped(tuple(args.presets or [_default_preset()]), hands=args.hands or 300,
                        rounds=args.rounds or 3, rng=args.seed, path=args.out)
    return "\n".join(f"{key}: Fantasyland entry worth {r['value']:.2f} over a normal hand (95% "
                     f"{r['ci_low']:.2f}..{r['ci_high']:.2f}; in the long run {r['long_run_value']:.2f}, "
                     f"{r['long_run_low']:.2f}..{r['long_run_high']:.2f}, at entry {r['entry_rate']:.1%}), "
                     f"normal-board baseline {r['baseline']:.2f}; "
                     f"{r['hands']} hands x {r['rounds_played']} rounds, seed {r['seed']}, {r['seconds']} s -> {r['path']}"
                     for key, r in out.items())
