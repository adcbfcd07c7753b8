"""What every game's sweep shares: a parameter's points checked before anything runs, the
metrics asked for, and the sweep of a game that registers none of its own (its results' per-batch
figures, paired on common deals).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cpstats.errors import OptionError
from cpstats.rules.check import suggest
from cpstats.engine.registry import game_of, load_variant

__all__ = ["sweep_variants", "sweep_points", "sweep_values", "refuse_repeats", "metric_list", "metric_names"]


def sweep_variants(variant: Any, parameter: str, values: Sequence[Any]) -> list[Any]:
    """The variant with ``parameter`` set to each value, checked before anything runs (any game:
    the parameter is a key of the game's own variant string, checked by the game).

    Raises
    ------
    OptionError
        One line for an unknown parameter (with close matches), no values, a value the rules
        refuse (naming the value and what is allowed), or a value given twice (two values that
        give the same rules, ``3,3`` or ``3,3.0``: a repeat would play the same game again).
    """
    v = load_variant(variant)
    return sweep_points(v, game_of(v).key_name(parameter), sweep_values(values, parameter))


def sweep_points(v: Any, key: str, values: list) -> list[Any]:
    """:func:`sweep_variants` of a loaded variant, its game's ``key`` and the values as
    :func:`sweep_values` gives them: a verb that resolved them once builds the points here."""
    points = [v.replace(**{key: value}) for value in values]
    refuse_repeats(key, values, points)
    return points


def refuse_repeats(key: str, values: Sequence[Any], points: Sequence[Any]) -> None:
    """One line for two values that give the same rules (the second would replay the first)."""
    first: dict[str, int] = {}
    for i, (value, point) in enumerate(zip(values, points)):
        if first.setdefault(str(point), i) == i:
            continue
        seen = values[first[str(point)]]
        same = (f"{key}={value!r} is given twice" if repr(seen) == repr(value)
                else f"{key}={seen!r} and {key}={value!r} are the same rules")
        raise OptionError(f"{same}: give each value once (a repeat would play the same game again)")


def sweep_values(values: Any, parameter: str) -> list:
    """``values`` as a list (numpy arrays and scalars become Python numbers), refused when empty."""
    if isinstance(values, np.ndarray):
        values = values.tolist()
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not len(values):
        raise OptionError(f"values={values!r} is invalid: a non-empty list of values of {parameter}")
    return [x.item() if isinstance(x, np.generic) else x for x in values]


def metric_list(metrics: Sequence[str] | str | None) -> list[str] | None:
    """``metrics`` as a list of names (one comma-separated text is split; None stays None), so no
    later step iterates a text letter by letter."""
    if metrics is None:
        return None
    if isinstance(metrics, str):
        return [m.strip() for m in metrics.split(",") if m.strip()]
    if isinstance(metrics, np.ndarray):
        metrics = metrics.tolist()
    if not isinstance(metrics, Sequence):
        raise OptionError(f"metrics={metrics!r} is invalid: a list of figure names, or one comma-separated text")
    return list(metrics)


def metric_names(metrics: Sequence[str] | str, allowed: Sequence[str], *,
                 aliases: dict[str, str] | None = None, where: str = "") -> list[str]:
    """The metric names asked for (a list, or one comma-separated text), each checked against
    ``allowed`` (after ``aliases``); the one-line refusal names the unknown one and its close
    matches first, then what is allowed; ``where`` names the sweep in it (``" for an open-face
    sweep"``)."""
    metrics = metric_list(metrics) or []
    out = []
    for m in metrics:
        name = str(m).strip().lower()
        name = (aliases or {}).get(name, name)
        if name not in allowed:
            raise OptionError(f"metrics={m!r} is invalid{where}{suggest(name, allowed)}: choose from "
                              f"{', '.join(allowed)}")
        out.append(name)
    if not out:
        raise OptionError(f"metrics={list(metrics)!r} is invalid: choose from {', '.join(allowed)}")
    return out
