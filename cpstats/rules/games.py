"""The games cpstats plays, registered once and loaded by one string (the OpenSpiel pattern).

Every variant of every game shares one small protocol: ``name``, ``game``, ``players``,
``str(v)`` that :func:`load_variant` reads back equal, ``to_dict``/``from_dict``, ``replace``,
``to_file``; :func:`cpstats.describe` and :func:`cpstats.short_label` put any of them in words.
A variant string names its game by its preset: ``ofc-*`` presets are open face, every other
preset is the 13-card game.

Examples
--------
>>> type(load_variant("ofc-pineapple(players=3)")).__name__, load_variant("2-4").game
('OfcVariant', '13-card')
>>> sorted(set(presets()["game"]))
['13-card', 'open-face']
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple, Union

import pandas as pd

from cpstats.errors import OptionError
from cpstats.rules.check import suggest
from cpstats.rules.files import SUFFIXES, first_difference, folder_error, read_file
from cpstats.rules import open_face
from cpstats.rules.open_face import OfcVariant, parse_ofc_variant
from cpstats.rules.presets import PRESETS
from cpstats.rules.text import Key, path_holds_whole_numbers
from cpstats.rules.text import key_of as card_key_of
from cpstats.rules.variant import Variant, parse_variant, preset_names
from cpstats.rules.variant import get_preset as get_card_preset

__all__ = ["Game", "GAMES", "AnyVariant", "load_variant", "resolve_variant", "get_preset", "presets",
           "game_of", "holds_whole_numbers"]

#: A variant of any game cpstats plays.
AnyVariant = Union[Variant, OfcVariant]


class Game(NamedTuple):
    """One game: its name, variant type, string parser, presets (name: one line), preset getter
    and the lookup of its variant string's keys by name."""

    name: str
    variant_type: type
    parse: Callable[[str], AnyVariant]
    presets: dict[str, str]
    get_preset: Callable[[str], AnyVariant]
    key_of: Callable[[str], Key]


#: Every game, by name.
GAMES: dict[str, Game] = {
    "13-card": Game("13-card", Variant, parse_variant,
                    {name: preset.description for name, preset in PRESETS.items()}, get_card_preset,
                    card_key_of),
    "open-face": Game("open-face", OfcVariant, parse_ofc_variant, open_face.PRESETS, open_face.get_preset,
                      open_face.key_of),
}


def _preset_part(text: str) -> str:
    return text.split("(", 1)[0].strip().lower()


def game_of(variant: object) -> Game:
    """The game of a variant object or variant string (by its preset; ``ofc-*`` is open face)."""
    for game in GAMES.values():
        if isinstance(variant, game.variant_type):
            return game
    if isinstance(variant, str):
        name = _preset_part(variant)
        for game in GAMES.values():
            if name in game.presets:
                return game
        return GAMES["open-face"] if name.startswith("ofc-") else GAMES["13-card"]
    raise OptionError(f"variant={variant!r} is invalid: a variant, a preset name, a variant string "
                      f"or a variant file (.toml, .json)")


def _is_folder(source: object) -> bool:
    """A folder named where a variant is expected (a preset's name wins over a folder of that name)."""
    if isinstance(source, str):
        every = {p for game in GAMES.values() for p in game.presets}
        if "(" in source or not source.strip() or _preset_part(source) in every:
            return False
        source = source.strip()
    return isinstance(source, (str, os.PathLike)) and os.path.isdir(source)


def _is_file(source: object) -> bool:
    return isinstance(source, os.PathLike) or (
        isinstance(source, str) and "(" not in source and source.strip().lower().endswith(SUFFIXES))


def load_variant(source: AnyVariant | str | os.PathLike) -> AnyVariant:
    """The variant of any game from a variant, a preset name, a variant string (a preset and
    ``(key=value,...)`` overrides) or a variant file saved by ``to_file``.

    A file's rules must agree with its variant string. Unknown preset names list every preset of
    both games with close matches.

    Raises
    ------
    OptionError
        For an unknown preset, key or value, a contradiction, a folder (naming the variant files
        in it), or a variant file that is missing, does not parse or whose rules differ from its
        string.

    Examples
    --------
    >>> str(load_variant("2-4(royalties=R-FUTUREBET)"))
    '2-4(royalties=R-FUTUREBET)'
    >>> load_variant("ofc-pineapple(fantasyland.stay=A)").fantasyland.stay.value
    'A'
    """
    if isinstance(source, (Variant, OfcVariant)):
        return source
    if _is_folder(source):
        raise folder_error(source.strip() if isinstance(source, str) else source)
    if _is_file(source):
        return _load_file(source.strip() if isinstance(source, str) else source)
    if not isinstance(source, str):
        raise OptionError(f"a variant string is expected, got {source!r} (or a variant, a preset name "
                          "or a variant file)")
    _check_preset(_preset_part(source), source)
    game = game_of(source)
    try:
        return game.parse(source)
    except OptionError:
        _check_other_game_keys(game, source)
        raise


def _keys_of(game: Game) -> dict[str, str]:
    from cpstats.rules import text

    keys = text.KEYS if game.name == "13-card" else open_face.KEYS
    return {key.name.lower(): key.name for key in keys}


def _check_other_game_keys(game: Game, source: str) -> None:
    """Refuse, in one line naming both games, an override key that only the other game has."""
    body = source.split("(", 1)[1] if "(" in source else ""
    mine = _keys_of(game)
    for item in body.rstrip(") ").split(","):
        key = item.partition("=")[0].strip().lower()
        if not key or key in mine or key == "name":
            continue
        for other in GAMES.values():
            if other.name != game.name and key in _keys_of(other):
                raise OptionError(f"{item.strip()} is an option of {other.name} variants, not of "
                                  f"{game.name} ones ({_preset_part(source)}): {game.name} keys are "
                                  f"{_key_summary(mine.values())}")


def _key_summary(names) -> str:
    """Keys listed for a reader: a family of more than four keys under one prefix as ``prefix.*``."""
    families: dict[str, list[str]] = {}
    for name in sorted(set(names)):
        families.setdefault(name.rsplit(".", 1)[0] if "." in name else name, []).append(name)
    parts = [f"{head}.*" if len(group) > 4 else ", ".join(group) for head, group in families.items()]
    return ", ".join(parts)


def _check_preset(name: str, text: str) -> None:
    every = [p for game in GAMES.values() for p in game.presets]
    if name and name not in every and not name.startswith("ofc-"):
        raise OptionError(f"unknown preset {text.split('(', 1)[0].strip()!r}{suggest(name, every)}; "
                          f"presets: {', '.join(every)}")


def _load_file(path: str | os.PathLike) -> AnyVariant:
    """The variant of a file, refused when its rules differ from its variant string."""
    saved = read_file(path)
    where = repr(str(os.fspath(path)))
    try:
        v = load_variant(saved.variant)
    except OptionError as err:
        raise OptionError(f"{where}: {err}") from None
    differ = None if saved.rules is None else first_difference(v.to_dict(), saved.rules)
    if differ is not None:
        key, found, expected = differ
        raise OptionError(f"{where}: rules.{key}={found!r} disagrees with variant={saved.variant!r} "
                          f"(which gives {expected!r}): edit the variant string, not the rules")
    return v

def resolve_variant(variant: Variant | str) -> Variant:
    """A 13-card :class:`Variant` from itself, a preset name, a variant string or a variant file;
    an open-face variant is refused in one line (this caller plays the 13-card game)."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, (str, os.PathLike)) or getattr(variant, "game", None) is not None:
        v = load_variant(variant)
        if isinstance(v, Variant):
            return v
        raise OptionError(f"{str(v)!r} is an open-face variant: this plays 13-card Chinese poker "
                          f"(13-card presets: {', '.join(preset_names())})")
    raise OptionError(f"variant={variant!r} is invalid: expected a Variant, a preset name or a "
                      "variant string")


def get_preset(name: str) -> AnyVariant:
    """The preset called ``name`` (case-insensitive) of either game.

    Examples
    --------
    >>> get_preset("ofc-pineapple-progressive").fantasyland.cards
    (14, 15, 16, 17)
    """
    key = str(name).strip().lower()
    _check_preset(key, str(name))
    return game_of(key).get_preset(key)


def presets() -> pd.DataFrame:
    """Every preset of every game: ``name``, ``game``, ``description`` (one line), ``seed`` (the
    rulebook's seed text, 13-card presets) and ``variant`` (its string).

    Examples
    --------
    >>> presets().set_index("name").loc["futurebet-1-6", "seed"]
    '002'
    """
    rows = [(name, "13-card", preset.description, preset.seed, str(get_card_preset(name)))
            for name, preset in PRESETS.items()]
    rows += [(name, "open-face", text, "", str(open_face.get_preset(name)))
             for name, text in open_face.PRESETS.items()]
    return pd.DataFrame(rows, columns=["name", "game", "description", "seed", "variant"])


def holds_whole_numbers(variant: AnyVariant, key: str) -> bool:
    """Whether the rule ``key`` of ``variant``'s string holds whole numbers (its dataclass field
    is typed ``int``: ``players``, open-face royalty amounts), so a search over it steps by one;
    an unknown key is the parser's one line.

    >>> holds_whole_numbers(load_variant("banked"), "players"), holds_whole_numbers(load_variant("banked"), "bank.commission")
    (True, False)
    """
    return path_holds_whole_numbers(variant, GAMES[variant.game].key_of(key).path)
