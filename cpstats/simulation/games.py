"""The verbs of each game, registered by the game's own package (the OpenSpiel pattern).

:func:`cpstats.simulate`, :func:`cpstats.compare` and :func:`cpstats.sweep` play the 13-card
game here and hand any other game's variant to the functions that game registered: open face registers its runs when
:mod:`cpstats.ofc` is imported (``import cpstats`` always does), so the results layer never
imports a game above it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from cpstats.errors import OptionError

__all__ = ["GameRuns", "register_game_runs", "game_runs", "reference_runs"]


class GameRuns(NamedTuple):
    """A game's ``simulate(v, deals, **options)``, ``compare(variants, deals, **options)``,
    ``sweep(v, parameter, values, **options)`` and ``skill(v, **options)``, taking the shared
    verbs' keywords (see :func:`cpstats.simulate`, :func:`cpstats.sweep` and
    :func:`cpstats.skill`); a game without a sweep or a skill table leaves it None.
    ``reference(name, rake=None)`` opens the game's shipped run ``name``, one of ``references``
    (for :func:`cpstats.load_reference`)."""

    simulate: Callable
    compare: Callable
    sweep: Callable | None = None
    skill: Callable | None = None
    reference: Callable | None = None
    references: Mapping[str, str] | None = None


_RUNS: dict[str, GameRuns] = {}


def register_game_runs(game: str, runs: GameRuns) -> None:
    """Make ``game``'s variants playable by the shared verbs."""
    _RUNS[game] = runs


def game_runs(game: str) -> GameRuns:
    """The registered runs of ``game``; a game that registered none is one line."""
    if game not in _RUNS:
        raise OptionError(f"the {game} game has no registered runs: import its package "
                          f"(cpstats.ofc for open face)")
    return _RUNS[game]


def reference_runs() -> dict[str, Callable]:
    """Every registered game's shipped runs: run name -> the function that opens it."""
    return {name: runs.reference for runs in _RUNS.values() if runs.reference is not None
            for name in runs.references or ()}
