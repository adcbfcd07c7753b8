"""The 13-card game's own options on the command line: ``--tables`` (whose ev tables set the
hands) with the setter it names, the numba kernels its runs compile, and ``--quiet`` for the
tables trained on the fly. Plain data and argparse: no app is imported.

- Decision: the kernels a command is about to compile are named by file stem, without importing
  numba: a simulation compiles dealing, ranking, naturals and settlement (:data:`SIMULATION_KERNELS`)
  and its setters' own kernels (an ``ev`` run compiles no ``greedy`` kernel, measured), and a
  deuce-to-seven middle (H5) ev's low-middle search.
"""

from __future__ import annotations

import argparse
from typing import Any

from cpstats.errors import CpstatsError, OptionError
from cpstats.thirteen.rules.variant import GAME

__all__ = ["SIMULATION_KERNELS", "simulation_kernels", "kernels", "tables_option", "setter_options", "setter_of",
           "check", "quiet", "metrics_help"]

#: Kernel modules (file stems) every simulation compiles: dealing, ranking, naturals
#: (``naturals/_natural_kernel.py``), settlement.
SIMULATION_KERNELS = ("_bits", "_deal_kernel", "_rank_kernel", "_natural_kernel", "_settle_kernel")
_SETTER_KERNELS = {"greedy": ("_greedy_kernel",), "random": ("_greedy_kernel",), "ev": ("_ev_kernel",)}

#: The commands whose hands the ev tables of another variant may set, and what ``--tables`` says there.
_TABLES_HELP = ("set hands with the ev tables of this preset or variant string (default: the variant's own, "
                "trained on the fly and cached if it has none)")
_SWEEP_TABLES_HELP = ("set every point's hands with the ev tables of this preset or variant string (default: "
                      "each point's own, trained on the fly and cached)")


def simulation_kernels(*strategies: object, low_middle: bool = False) -> tuple[str, ...]:
    """Kernel modules a simulation with these setting strategies compiles (a callable or an
    unknown name adds none; None is the game's default, ev); ``low_middle`` (an H5 variant) adds ev's
    low-middle search."""
    strategies = tuple("ev" if s is None else s for s in strategies)
    extra = [m for s in strategies if isinstance(s, str) for m in _SETTER_KERNELS.get(s, ())]
    if low_middle and "ev" in strategies:
        extra.append("_ev_low_kernel")
    return SIMULATION_KERNELS + tuple(dict.fromkeys(extra))


def kernels(v: Any, *strategies: object) -> tuple[str, ...]:
    """:func:`simulation_kernels` of a run of ``v`` (None: any variant, no low-middle search)."""
    from cpstats.thirteen.rules.ids import HandOrdering

    return simulation_kernels(*strategies, low_middle=v is not None and v.ranking is HandOrdering.DEUCE_TO_SEVEN)


def tables_option(p: argparse.ArgumentParser, command: str = "") -> None:
    """``--tables``: borrow another variant's ev tables (default: the variant's own, trained now
    and cached when it has none)."""
    p.add_argument("--tables", default=None, metavar="VARIANT",
                   help=_SWEEP_TABLES_HELP if command == "sweep" else _TABLES_HELP)


def setter_options(p: argparse.ArgumentParser, command: str) -> None:
    """The game's options of who sets the hands, added to ``command``'s parser: ``--tables``."""
    tables_option(p, command)


def setter_of(options: argparse.Namespace) -> Any:
    """The setter that ``--setter`` and ``--tables`` name: ``EvSetter(tables=T)`` for ev with
    ``--tables T``, else the setter's name (None, no ``--setter``, leaves the game's default).
    ``--tables`` with another setter is one line."""
    setter, tables = getattr(options, "setter", None), getattr(options, "tables", None)
    if tables is None:
        return setter
    if setter not in ("ev", None):
        raise OptionError(f"--tables {tables} is invalid with --setter {setter}: only ev plays row "
                          "tables")
    from cpstats.thirteen.play.setters import EvSetter

    return EvSetter(tables=tables)


def _other_game(text: object) -> str | None:
    """The game ``text`` (a preset name or variant string) is a variant of, when not this one;
    None for this game's and for an unknown preset (left to the command's own refusal)."""
    from cpstats.engine.registry import game_of

    try:
        found = game_of(text).name if isinstance(text, str) else None
    except CpstatsError:
        return None
    return found if found is not None and found != GAME else None


def check(options: argparse.Namespace) -> None:
    """Refuse ``--tables`` naming another game's preset before anything runs: only this game's
    variants have ev tables."""
    text = getattr(options, "tables", None)
    other = _other_game(text)
    if other is not None:
        raise OptionError(f"--tables={text!r} is an {other} preset: --tables takes the ev tables of a "
                          f"{GAME} preset or variant string (its strategies need none)")


def quiet():
    """A context hiding the progress bar of ev tables trained on the fly (``--quiet``); the
    tables' module, which loads numba, is imported only then."""
    from cpstats.thirteen.play.row_tables import training_progress

    return training_progress(False)


def metrics_help() -> str:
    """This game's part of ``sweep --metrics``' help: its figure names and the default."""
    from cpstats.thirteen.sweep import METRICS

    return (f"from {', '.join(METRICS)} (default: SD, scoop rate, royalties and house take per hand, foul "
            "rate; seat 0's mean in a banked game)")
