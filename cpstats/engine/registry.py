"""The games cpstats plays: one registry, each game registering itself when its package is
imported (the OpenSpiel pattern), and the variant of any game loaded by one string.

A game's package ends by calling :func:`register_game` with its :class:`Game`: its rules (the
variant type, the string codec, its presets and keys, its words) and its runs
(:class:`cpstats.engine.games.GameRuns`, what the verbs call). This module names no game;
``import cpstats`` imports every game package, so each is registered before any verb runs.

Every variant of every game shares one small protocol: ``name``, ``game`` (its game's registered
name), ``players``, ``str(v)`` that :func:`load_variant` reads back equal,
``to_dict``/``from_dict``, ``replace``, ``to_file``.

- Decision: the registry sits in the engine. Each game's play, settlement and tables live in its
  own package, above the engine, so the code that takes a variant string or file and refuses
  another game's in one line imports the registry from below it; nothing under the engine loads a
  variant. It needs only the errors, the shared checks and the variant files.

Examples
--------
>>> type(load_variant("ofc-pineapple(players=3)")).__module__, load_variant("2-4").game
('cpstats.ofc.rules', '13-card')
>>> set(presets()["game"]) == set(GAMES) == set(games())
True
"""

from __future__ import annotations

import os
import typing
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from cpstats.errors import OptionError
from cpstats.rules.check import key_summary, suggest, unknown_key
from cpstats.engine.variant_files import SUFFIXES, first_difference, folder_error, read_file, unknown_rule

__all__ = ["Game", "GAMES", "AnyVariant", "register_game", "unregister_game", "games", "game_named", "game_of",
           "load_variant", "as_variant", "get_preset", "presets", "holds_whole_numbers"]


#: A variant of any registered game (each game's own type: the registry holds them).
AnyVariant = Any


def _claims_nothing(name: str) -> bool:
    return False


@dataclass(frozen=True)
class Game:
    """One game as the registry holds it: its rules and words, and its runs.

    ``parse`` reads a variant string; ``presets`` maps each preset's name to one line (``seeds``
    to the rulebook seed text it comes from, where there is one); ``get_preset`` builds a preset
    by name; ``claims`` says whether a preset name the game does not list is still its own (open
    face: ``ofc-*``, so a misspelt one gets that game's suggestions); ``keys`` are the variant
    string's keys, ``key_of`` looks one up by name (an object with the key's ``path``, refusing an
    unknown one in one line) and ``key_name(parameter)`` gives a parameter as the variant's
    ``replace`` takes it (checked); ``describe_rules`` and ``short_label`` put a variant in
    words; ``unit`` is what the game's runs count (``deals``, open face ``hands``), ``label`` the
    game in words and ``default_preset`` the preset a view opens on; ``runs`` is its
    :class:`~cpstats.engine.games.GameRuns`. docs/architecture.md's checklist says what each must
    give, and tests/verbs/test_games_contract.py checks it on every registered game.
    """

    name: str
    variant_type: type
    parse: Callable[[str], Any]
    presets: Mapping[str, str]
    get_preset: Callable[[str], Any]
    keys: Collection[str]
    key_of: Callable[[str], Any]
    key_name: Callable[[str], str]
    describe_rules: Callable[[Any], list[tuple[str, str]]]
    short_label: Callable[..., str]
    runs: Any = None
    claims: Callable[[str], bool] = _claims_nothing
    seeds: Mapping[str, str] = field(default_factory=dict)
    unit: str = "deals"
    label: str = ""
    default_preset: str = ""

    def __repr__(self) -> str:
        return f"Game({self.name!r})"


#: Every registered game by name, in the order they registered.
GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Make ``game`` playable by every verb (its package calls this once, on import); a game of
    the same name registered again replaces the first. Returns ``game``."""
    if not isinstance(game, Game):
        raise OptionError(f"game={game!r} is invalid: a cpstats.engine.registry.Game")
    GAMES[game.name] = game
    return game


def unregister_game(name: str) -> None:
    """Forget the game ``name`` (a game a test registered for itself)."""
    GAMES.pop(name, None)


def games() -> dict[str, Game]:
    """Every registered game by name."""
    return dict(GAMES)


def game_named(name: str) -> Game:
    """The registered game called ``name``; another name is one line listing the games."""
    if name not in GAMES:
        raise OptionError(f"game={name!r} is invalid: the games are {', '.join(GAMES)}")
    return GAMES[name]


def _preset_part(text: str) -> str:
    return text.split("(", 1)[0].strip().lower()


def _every_preset() -> list[str]:
    return [p for game in GAMES.values() for p in game.presets]


def game_of(variant: object) -> Game:
    """The game of a variant object or of a variant string (by its preset, or the game that
    claims the preset's name); an unknown preset is one line listing every game's presets with
    close matches."""
    for game in GAMES.values():
        if isinstance(variant, game.variant_type):
            return game
    if isinstance(variant, str):
        name = _preset_part(variant)
        for game in GAMES.values():
            if name in game.presets:
                return game
        for game in GAMES.values():
            if game.claims(name):
                return game
        _check_preset(name, variant)
    raise OptionError(f"variant={variant!r} is invalid: a variant, a preset name, a variant string "
                      f"or a variant file (.toml, .json)")


def _is_folder(source: object) -> bool:
    """A folder named where a variant is expected (a preset's name wins over a folder of that name)."""
    if isinstance(source, str):
        if "(" in source or not source.strip() or _preset_part(source) in _every_preset():
            return False
        source = source.strip()
    return isinstance(source, (str, os.PathLike)) and os.path.isdir(source)


def _is_file(source: object) -> bool:
    return isinstance(source, os.PathLike) or (
        isinstance(source, str) and "(" not in source and source.strip().lower().endswith(SUFFIXES))


def load_variant(source: Any) -> Any:
    """The variant of any game from a variant, a preset name, a variant string (a preset and
    ``(key=value,...)`` overrides) or a variant file saved by ``to_file``.

    A file's rules must agree with its variant string. Unknown preset names list every preset of
    every game with close matches.

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
    if any(isinstance(source, game.variant_type) for game in GAMES.values()):
        return source
    if _is_folder(source):
        raise folder_error(source.strip() if isinstance(source, str) else source)
    if _is_file(source):
        return _load_file(source.strip() if isinstance(source, str) else source)
    if not isinstance(source, str):
        raise OptionError(f"a variant string is expected, got {source!r} (or a variant, a preset name "
                          "or a variant file)")
    game = game_of(source)
    try:
        return game.parse(source)
    except OptionError:
        _check_other_game_keys(game, source)
        raise


def as_variant(variant: Any, kind: type) -> Any:
    """A variant of type ``kind`` (one game's) from itself, a preset name, a variant string or a
    variant file; another game's variant is refused in one line naming both games (the caller
    plays ``kind``'s game only)."""
    if isinstance(variant, kind):
        return variant
    mine = next((g for g in GAMES.values() if g.variant_type is kind), None)
    if isinstance(variant, (str, os.PathLike)) or getattr(variant, "game", None) is not None:
        v = load_variant(variant)
        if isinstance(v, kind):
            return v
        listed = f" ({mine.name} presets: {', '.join(mine.presets)})" if mine else ""
        raise OptionError(f"{str(v)!r} is {_a(game_of(v).name)} variant: this plays "
                          f"{mine.name if mine else kind.__name__}{listed}")
    raise OptionError(f"variant={variant!r} is invalid: expected a {kind.__name__}, a preset name "
                      "or a variant string")


def _keys_of(game: Game) -> dict[str, str]:
    return {key.lower(): key for key in game.keys}


def _check_other_game_keys(game: Game, source: str) -> None:
    """Refuse, in one line naming both games, an override key that only another game has."""
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
                                  f"{key_summary(mine.values())}")


def _a(name: str) -> str:
    """``name`` with its article, as it is read aloud (an open-face, a 13-card)."""
    return f"{'an' if name[:1].lower() in 'aeiou8' or name.startswith(('11', '18')) else 'a'} {name}"


def _check_preset(name: str, text: str) -> None:
    every = _every_preset()
    if name and name not in every and not any(g.claims(name) for g in GAMES.values()):
        raise OptionError(f"unknown preset {text.split('(', 1)[0].strip()!r}{suggest(name, every)}; "
                          f"presets: {', '.join(every)}")


def _load_file(path: str | os.PathLike) -> Any:
    """The variant of a file, refused when its rules differ from its variant string."""
    saved = read_file(path)
    where = repr(str(os.fspath(path)))
    try:
        v = load_variant(saved.variant)
    except OptionError as err:
        raise OptionError(f"{where}: {err}") from None
    if saved.rules is None:
        return v
    extra = unknown_rule(v.to_dict(), saved.rules)
    if extra is not None:
        raise OptionError(f"{where}: {_unknown_rule_line(v, saved.variant, extra)}")
    differ = first_difference(v.to_dict(), saved.rules)
    if differ is not None:
        key, found, expected = differ
        fix = "edit the variant string, not the rules, or leave the rules table out"
        if found is None and not _holds(saved.rules, key):
            raise OptionError(f"{where}: rules.{key} is missing (variant={saved.variant!r} gives "
                              f"{expected!r}): {fix}")
        said = "none" if expected is None else repr(expected)
        raise OptionError(f"{where}: rules.{key}={found!r} disagrees with variant={saved.variant!r} "
                          f"(which gives {said}): {fix}")
    return v


def _holds(rules: Mapping[str, Any], key: str) -> bool:
    """Whether the dotted ``key`` is written in ``rules`` (a JSON null included)."""
    for part in key.split("."):
        if not isinstance(rules, Mapping) or part not in rules:
            return False
        rules = rules[part]
    return True


def _unknown_rule_line(v: Any, text: str, key: str) -> str:
    """A rules key that is no option of ``v``: another game's rule (by its rules table or its
    variant string's keys) named with both games, else an unknown key with close matches."""
    mine = game_of(v)
    for other in GAMES.values():
        if other is mine or not other.presets:
            continue
        sample = other.get_preset(other.default_preset or next(iter(other.presets)))
        theirs = {k.lower() for k in (*_option_paths(sample.to_dict()), *other.keys)}
        if key.lower() in theirs:
            return f"rules.{key} is {_a(other.name)} rule; this file's variant is {mine.name} ({text})"
    return str(unknown_key(f"rules.{key}", [f"rules.{k}" for k in _option_paths(v.to_dict())]))


def _option_paths(rules: Mapping[str, Any], prefix: str = "") -> list[str]:
    out: list[str] = []
    for key, value in rules.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        out.extend(_option_paths(value, path) if isinstance(value, Mapping) else [path])
    return out


def get_preset(name: str) -> Any:
    """The preset called ``name`` (case-insensitive) of any game.

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
    rulebook's seed text, where the preset has one) and ``variant`` (its string).

    Examples
    --------
    >>> presets().set_index("name").loc["futurebet-1-6", "seed"]
    '002'
    """
    rows = [(name, game.name, text, game.seeds.get(name, ""), str(game.get_preset(name)))
            for game in GAMES.values() for name, text in game.presets.items()]
    return pd.DataFrame(rows, columns=["name", "game", "description", "seed", "variant"])


def holds_whole_numbers(variant: Any, key: str) -> bool:
    """Whether the rule ``key`` of ``variant``'s string holds whole numbers (its dataclass field
    is typed ``int``: ``players``, open-face royalty amounts), so a search over it steps by one;
    an unknown key is the parser's one line.

    >>> holds_whole_numbers(load_variant("banked"), "players"), holds_whole_numbers(load_variant("banked"), "bank.commission")
    (True, False)
    """
    return path_holds_whole_numbers(variant, game_of(variant).key_of(key).path)


def path_holds_whole_numbers(variant: Any, path: tuple[str | int, ...]) -> bool:
    """Whether the number at ``path`` of ``variant`` (a :attr:`Key.path`) is typed ``int`` in
    its dataclass (``players``, ``scoring.race_target``; open face every royalty amount); an
    empty path (a key of no single number) is not."""
    if not path:
        return False
    obj, hint = variant, None
    for part in path:
        if isinstance(part, int):  # an entry of a tuple[int, ...] field
            args = [a for a in typing.get_args(hint) if a is not Ellipsis]
            hint, obj = (args[0] if args else None), None
            continue
        hint = typing.get_type_hints(type(obj))[part]
        obj = getattr(obj, part)
    kinds = {a for a in typing.get_args(hint) if a is not type(None)} if typing.get_args(hint) else {hint}
    return kinds == {int}
