"""The toy showdown's rules: a frozen dataclass, its variant string and its presets.

Two to eight seats each take five cards from one shuffled deck and ante one unit; the best
five-card hand takes the antes (equal best hands split them), and a seat dealt three of a kind or
better collects ``bonus`` units from every other seat, win or lose. A variant is
``showdown-4(bonus=2.0)``: a preset's name and overrides of the two keys, ``players`` and ``bonus``.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cpstats.engine.variant_files import write_file
from cpstats.errors import OptionError
from cpstats.rules.check import as_number, invalid, unknown_key
from cpstats.rules.codec import Dict, Key, parse_number, split_variant, to_text

__all__ = ["GAME", "PRESETS", "KEYS", "ShowdownVariant", "parse_variant", "get_preset", "key_of", "key_name"]

#: The game's registered name.
GAME = "toy-showdown"
#: Each preset's name and one line; the rules of each in :data:`_PRESET_RULES`.
PRESETS = {"showdown": "two seats, five cards each; the best hand takes the antes, trips or better a bonus of 1",
           "showdown-4": "four seats, five cards each; the best hand takes the antes, trips or better a bonus of 1"}
_PRESET_RULES = {"showdown": {"players": 2}, "showdown-4": {"players": 4}}
#: Seats a deck deals five cards to, with cards to spare.
MOST_PLAYERS = 8
#: The largest bonus, in antes.
MOST_BONUS = 10.0


def _key(name: str) -> Key:
    def read(d: Dict) -> str:
        return to_text(d[name])

    def write(d: Dict, text: str) -> None:
        d[name] = parse_number(name, text)

    return Key(name, read, write, path=(name,))


#: The variant string's keys: each reads and writes one number of the plain dict.
KEYS = (_key("players"), _key("bonus"))


@dataclass(frozen=True)
class ShowdownVariant:
    """One set of the toy showdown's rules (the module docstring says what each means)."""

    game: ClassVar[str] = GAME
    name: str = "showdown"
    players: int = 2
    bonus: float = 1.0

    def __post_init__(self) -> None:
        if self.name not in PRESETS:
            raise invalid("name", self.name, f"a preset of the toy showdown ({', '.join(PRESETS)})")
        players = as_number("players", self.players, minimum=2, integer=True, noun="seats")
        if players > MOST_PLAYERS:
            raise invalid("players", self.players, f"2 to {MOST_PLAYERS} seats of five cards")
        bonus = float(as_number("bonus", self.bonus, noun="antes"))
        if bonus > MOST_BONUS:
            raise invalid("bonus", self.bonus, f"antes must be at most {MOST_BONUS:g}")
        object.__setattr__(self, "players", int(players))
        object.__setattr__(self, "bonus", bonus)

    def __str__(self) -> str:
        preset, mine = get_preset(self.name).to_dict(), self.to_dict()
        changed = [f"{key.name}={key.read(mine)}" for key in KEYS if mine[key.name] != preset[key.name]]
        return f"{self.name}({','.join(changed)})" if changed else self.name

    def to_dict(self) -> Dict:
        """Every rule as plain data (what a variant file's rules table holds)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Dict) -> ShowdownVariant:
        """The variant of :meth:`to_dict`'s data; an unknown key is refused with close matches."""
        for key in data:
            if key not in ("name", *(k.name for k in KEYS)):
                raise unknown_key(key, [k.name for k in KEYS])
        return cls(**data)

    def replace(self, **changes: Any) -> ShowdownVariant:
        """A validated copy with rules changed (``v.replace(players=3)``)."""
        for key in changes:
            key_of(key)
        return dataclasses.replace(self, **changes)

    def to_file(self, path: str | os.PathLike, *, label: str | None = None,
                description: str | None = None) -> Path:
        """Save the variant as TOML or JSON (by the suffix of ``path``); ``load_variant`` reads
        it back equal. Returns the path written."""
        return write_file(path, str(self), self.to_dict(), label=label, description=description)


def get_preset(name: str) -> ShowdownVariant:
    """The preset ``name`` (its rules in :data:`_PRESET_RULES`)."""
    key = str(name).strip().lower()
    if key not in PRESETS:
        raise invalid("name", name, f"a preset of the toy showdown ({', '.join(PRESETS)})")
    return ShowdownVariant(key, **_PRESET_RULES[key])


def key_of(name: str) -> Key:
    """The key called ``name``; an unknown one is refused with close matches."""
    for key in KEYS:
        if key.name == str(name).strip().lower():
            return key
    raise unknown_key(name, [k.name for k in KEYS])


def key_name(parameter: str) -> str:
    """``parameter`` as :meth:`ShowdownVariant.replace` takes it (a key of the string)."""
    return key_of(parameter).name


def parse_variant(text: str) -> ShowdownVariant:
    """The variant of a string ``preset(key=value,...)``; ``str`` of the result gives it back."""
    name, body = split_variant(text)
    data = get_preset(name).to_dict()
    for item in filter(None, (part.strip() for part in body.split(","))):
        key, equals, value = item.partition("=")
        if not equals:
            raise OptionError(f"{item!r} in {text!r} is invalid: write key=value")
        key_of(key).write(data, value.strip())
    return ShowdownVariant.from_dict(data)
