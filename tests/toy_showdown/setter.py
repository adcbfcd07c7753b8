"""The toy showdown's one setter: there is no decision to take, the cards play as dealt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from cpstats.engine.setter import Setter
from cpstats.errors import OptionError
from toy_showdown.rules import GAME, ShowdownVariant

__all__ = ["AsDealt", "setter_for"]


@dataclass(frozen=True)
class AsDealt(Setter):
    """Every seat shows the five cards it was dealt."""

    name: ClassVar[str] = "as-dealt"
    game: ClassVar[str] = GAME


def setter_for(setter: Any, v: ShowdownVariant) -> AsDealt:
    """The setter for a name or an object; anything else (another game's setter) in one line."""
    if isinstance(setter, AsDealt):
        return setter
    if isinstance(setter, str) and setter.strip().lower() == AsDealt.name:
        return AsDealt()
    shown = getattr(setter, "label", setter) if not isinstance(setter, str) else setter
    raise OptionError(f"setter={shown!r} is invalid for the {GAME} game: its one setter is "
                      f"{AsDealt.name!r} (the cards play as dealt)")
