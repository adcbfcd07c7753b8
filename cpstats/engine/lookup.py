"""Where a figure is read: the one lookup of a result's tidy figures (any game) and the checks of a
figure's name and target, shared by :func:`cpstats.solve`, :func:`cpstats.design` and sequential
runs (:mod:`cpstats.engine.sequential`).

A game's figure names (its result type's ``figure_names(v)``, declared from the rules: no run is
played to learn them), their other names (``aliases``), which may be negative (``signed``) and
which are shares (``shares``, beside every ``*_rate``) are the game's
(:class:`~cpstats.engine.games.GameRuns`); this module names none.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.rules.check import suggest
from cpstats.engine.registry import game_of
from cpstats.engine.games import runs_of

__all__ = ["figure_table", "figure_name", "figure_names", "headline_names", "check_metric", "check_target"]


def figure_table(result: Any, confidence: float = 0.95) -> pd.DataFrame:
    """A result's tidy figures, ``metric, estimate, ci_low, ci_high, method``, for any game: the
    table its game registered to look figures up in
    (:attr:`~cpstats.engine.games.GameRuns.figure_table`), else the result's own
    :meth:`~cpstats.engine.base.Result.figures`."""
    table = runs_of(result.variant).figure_table
    return result.figures(confidence) if table is None else table(result, confidence)


def figure_name(v: Any, metric: str) -> str:
    """``metric`` lower case with the game's other name for it resolved (not yet checked)."""
    if not isinstance(metric, str) or not metric.strip():
        raise OptionError(f"metric={metric!r} is invalid: a figure's name such as sd or rake_share")
    name = metric.strip().lower()
    return runs_of(v).aliases.get(name, name)


def figure_names(v: Any) -> list[str]:
    """Every figure name a run of ``v`` gives, in the order of the table figures are looked up in
    (:func:`figure_table`), as the game's result type declares them
    (:meth:`~cpstats.engine.base.Result.figure_names`)."""
    return list(runs_of(v).result.figure_names(v))


def headline_names(names: Sequence[str]) -> list[str]:
    """The headline figures among a table's ``names``: those it lists first, before its first
    figure of one seat or one hand (a name holding a seat's or a hand's number, ``mean_seat0``)."""
    first = next((i for i, name in enumerate(names) if any(c.isdigit() for c in name)), len(names))
    return list(names[:first])


def check_metric(v: Any, metric: str) -> str:
    """``metric`` as the game's figures name it (:func:`figure_names`), or a one-line refusal (an
    unknown name with close matches, or a figure another kind of variant of the game has).

    The refusal of an unknown name says first what it may have meant, then the headline figures
    (:func:`headline_names`) and where every figure is listed, not the hundred-odd names of every
    seat, hand and natural."""
    name = figure_name(v, metric)
    names = figure_names(v)
    if name in names:
        return name
    note = runs_of(v).metric_note(v, name)
    if note:
        raise OptionError(f"metric={metric!r} is not defined for {v}: {note}")
    raise OptionError(f"metric={metric!r} is not a figure of the {game_of(v).name} game{suggest(name, names)}: "
                      f"the headline figures are {', '.join(headline_names(names))}; all {len(names)} "
                      f"(each seat's, hand's...): cpstats figures {shlex.quote(str(v))}")


def check_target(v: Any, metric: str, target: Any) -> float:
    """``target`` as a float, refused in one line when it is not finite, negative for a figure
    that cannot be (the game's ``signed`` ones can), or above 1 for a rate or share."""
    ok = isinstance(target, (int, float, np.number)) and not isinstance(target, bool)
    if not ok or not math.isfinite(target):
        raise OptionError(f"target={target!r} is invalid: a finite number")
    if target < 0 and not runs_of(v).signed(metric):
        raise OptionError(f"target={target!r} is impossible: {metric} cannot be negative")
    if target > 1 and (metric.endswith("_rate") or metric in runs_of(v).shares):
        raise OptionError(f"target={target!r} is impossible: {metric} is a share, at most 1")
    return float(target)
