"""What the command line hands a game's own command-line words (:class:`Kit`): the option types,
the options every simulating command shares, the executor of ``--scheduler``, the compile notice,
tables as text, and the verbs and renderers the game's commands call.

A game's words (its ``simulate`` text, its own commands: :class:`cpstats.engine.views.CommandLine`)
sit in its package, below the apps, so they import none of them: each hook is given the kit
(:data:`cpstats.apps.cli.commands.KIT`).

- Decision: the kit reaches the verbs and the report writer when called, not when built, so the
  command line's start imports neither, and a test that replaces ``cpstats.workbench.simulate``
  replaces it for a game's commands too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import pandas as pd

from cpstats.apps.cli import args as _args
from cpstats.apps.labels import baseline_label

__all__ = ["Kit", "SIMULATE_DEALS", "emit", "common_options"]

#: ``simulate``'s deals without ``--deals`` (a game may size its own runs:
#: :attr:`cpstats.engine.views.CommandLine.run_length`).
SIMULATE_DEALS = 100_000


def emit(df: pd.DataFrame, fmt: str, floatfmt: str = "{:.6g}") -> str:
    """``df`` as the text ``--format`` names: a table, CSV or JSON records."""
    if fmt == "csv":
        return df.to_csv(index=False)
    if fmt == "json":
        return df.to_json(orient="records", indent=2)
    return df.to_string(index=False, float_format=lambda x: floatfmt.format(x))


def common_options(p: argparse.ArgumentParser, deals: int | None, shown: str = "") -> None:
    """Options of every command that simulates: deals (None: the handler sizes the run, ``shown``
    says how), setter, seed, executor, progress."""
    p.add_argument("--deals", type=_args.positive_int, default=deals,
                   help=f"deals (default {shown or f'{deals:,}'})")
    _args.setter_option(p)
    p.add_argument("--seed", type=_args.seed, default=2026, help="random seed (default 2026)")
    _args.add_scheduler_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")


class Kit:
    """The command line's helpers, as a game's command-line hooks receive them (``kit``).

    Option types: ``positive_int``, ``count``, ``seed``, ``pace``, ``whole_number``; options:
    ``common_options(parser, deals, shown)``, ``setter_option``, ``add_scheduler_options``;
    running: ``executor(options)`` (the executor of ``--scheduler`` and its closer),
    ``out_folder(text)``, ``notice(*kernel_modules)``, ``simulate_deals`` (a run's deals without
    ``--deals``); text: ``emit(frame, format)``,
    ``baseline_label(setter)``; the verbs and renderers: ``simulate(...)``
    (:func:`cpstats.simulate`), ``write_report(...)`` (:func:`cpstats.apps.report.write_report`).
    """

    simulate_deals = SIMULATE_DEALS
    positive_int = staticmethod(_args.positive_int)
    count = staticmethod(_args.count)
    seed = staticmethod(_args.seed)
    pace = staticmethod(_args.pace)
    whole_number = staticmethod(_args.whole_number)
    common_options = staticmethod(common_options)
    setter_option = staticmethod(_args.setter_option)
    add_scheduler_options = staticmethod(_args.add_scheduler_options)
    executor = staticmethod(_args.executor_for)
    out_folder = staticmethod(_args.out_folder)
    emit = staticmethod(emit)
    baseline_label = staticmethod(baseline_label)

    def __init__(self, notice: Callable[..., None]) -> None:
        #: Prints the compile notice of the kernel modules named (:func:`cpstats.apps.cli.commands.notice`).
        self.notice = notice

    @staticmethod
    def simulate(*args: Any, **kwargs: Any) -> Any:
        """:func:`cpstats.simulate` (the verb)."""
        from cpstats import workbench

        return workbench.simulate(*args, **kwargs)

    @staticmethod
    def write_report(*args: Any, **kwargs: Any) -> Any:
        """:func:`cpstats.apps.report.write_report`: a run's report, Markdown and HTML."""
        from cpstats.apps.report import write_report

        return write_report(*args, **kwargs)

