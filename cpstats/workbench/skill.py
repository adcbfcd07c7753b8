"""The verb :func:`skill`: how much a variant rewards skill, the strong setter against weak fields
on common deals, as the variant's game measures it (its registered ``skill``)."""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

import pandas as pd

from cpstats.errors import OptionError
from cpstats.engine.registry import AnyVariant, game_of, load_variant
from cpstats.engine.games import runs_of

__all__ = ["skill"]


def skill(variant: AnyVariant | str, *, deals: int | None = None, rng=None, setter: Any = None,
          executor: Executor | None = None) -> pd.DataFrame:
    """The skill table of ``variant``: the strong setter's mean result per hand against each field.

    Parameters
    ----------
    variant
        A variant, preset name or variant string of any game with a skill table: 13-card
        (:func:`cpstats.thirteen.skill.skill`: ev against a greedy, a random and an ev field,
        duplicate deals) or open face (:func:`cpstats.ofc.skill.skill_table`: rollout against
        greedy, random and rollout fields, seat-swapped on common decks).
    deals
        Duplicate deals per field (at least 2; None: the game's default, 20,000 deals, open face
        200 hands); every field plays the same deals.
    rng
        Seed, SeedSequence, Generator or None (fresh entropy); ``attrs["seed"]`` repeats it.
    setter
        The player: None for the game's default (its strong setter: 13-card ``ev``, open face
        ``rollout``), or the game's strong setter object (``EvSetter(tables="2-4")`` borrows
        2-4's tables; open face ``Rollout(samples=...)``).
    executor
        Any ``concurrent.futures``-style executor (a Dask client's ``get_executor()`` too); the
        table is the same with or without one.

    Returns
    -------
    DataFrame
        One row per field (index ``field``), columns ``label``, ``mean`` (the player's net per
        hand, units, before house charges), ``se``, ``ci_low`` and ``ci_high`` (95%) and ``deals``;
        ``attrs`` holds the variant string, the seed, the player, its settings (``setter``) and, in
        the 13-card game, the row tables that set its hands.

    Examples
    --------
    >>> table = skill("2-4", deals=500, rng=1)
    >>> list(table.index)
    ['greedy', 'random', 'ev']
    >>> bool(table.loc["greedy", "ci_low"] > 0), float(table.loc["ev", "mean"])
    (True, 0.0)
    """
    v = load_variant(variant)
    runs = runs_of(v)
    if runs.skill is None:
        raise OptionError(f"the {game_of(v).name} game has no skill table")
    return runs.skill(v, deals=deals, rng=rng, setter=runs.resolve_setter(setter, v), executor=executor)
