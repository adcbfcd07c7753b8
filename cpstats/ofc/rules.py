"""Open-face Chinese poker rules as frozen data (rulebook section 7), with variant strings.

An :class:`Variant` holds the deal (OFC-DEAL-CLASSIC or OFC-DEAL-PINEAPPLE), the players,
the royalty table (:class:`Royalties`, OFC-R-STANDARD by default), the Fantasyland rules
(:class:`FantasylandRules`: OFC-FL-ENTRY, OFC-FL-PROGRESSIVE, OFC-FL-STAY-A/B), the scoring
(:class:`Scoring`, OFC-SCORE-1-6), the house's rake (the 13-card
:class:`~cpstats.rules.house.Rake`), the dealer button (:class:`Button`, OFC-BUTTON), the table stakes
(:class:`TableStakes`, OFC-STAKES) and the match (:class:`Match`, OFC-MATCH). A variant is also a string, a preset and the options that differ
from it, e.g. ``ofc-pineapple(players=3,fantasyland.stay=A)``, read by
:func:`parse_ofc_variant` with the codec helpers both games share (:mod:`cpstats.rules.codec`).
:meth:`Variant.kernel_tables` turns every royalty, entry and stay rule into lookup arrays,
so that no kernel ever branches on the variant.

Decisions (where the rulebook leaves a choice open):

- Decision: every preset is heads-up (``players=2``), the game the issue's figures describe;
  ``players=3`` (or 4 in classic) is an override. Ranking is always H1 (no wheel-second option).
- Decision: the Fantasyland deal is the number of cards for QQ / KK / AA / trips in front
  (``fantasyland.cards``, 0 = no entry), never decreasing with the front; a Fantasyland board
  that does not stay never re-enters on its front (the stay rule replaces the entry rule).
- Decision: rake follows CASINO-MATH: a per-point rake is ``rake=percent`` whose pot is the
  points won in the hand (the sum of the winning seats' nets): ``rake.percent=0.05`` takes 0.05
  units a point won, up to ``rake.cap`` a hand; a time rake is ``rake=time``, ``rake.amount``
  per seat-hour at ``rake.hands_per_hour``. OFC has no jackpot drop.
- OFC-JOKER (a 54-card deck with jokers) is not supported: ``jokers=`` is refused.
- Decision: the table rules (button, stakes, match) and their defaults: :mod:`cpstats.ofc.table_rules`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, ClassVar, NamedTuple

import numpy as np

from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.engine.variant_files import write_file
from cpstats.rules.check import (Written, as_component, as_enum, as_number, as_written, invalid, suggest,
                                  unknown_key)
from cpstats.rules.house import Rake, RakeModel
from cpstats.rules.codec import Key, parse_number, plain, split_variant, to_text
from cpstats.ofc.table_rules import Button, Match, RakeBasis, TableStakes

__all__ = ["GAME", "COMPARED", "Deal", "StayRule", "Royalties", "FantasylandRules", "Scoring", "Variant",
           "RuleArrays", "PRESETS", "get_preset", "parse_ofc_variant", "resolve_ofc_variant",
           "FIVE_ROW_CATEGORIES", "RANK_LETTERS", "is_ofc_variant", "ofc_key_name"]

#: The game these rules are of, as the registry names it (:mod:`cpstats.engine.registry`).
GAME = "open-face"

RANK_LETTERS = "23456789TJQKA"
#: The royalty categories of the middle and the back: H1's nine, the royal flush apart.
FIVE_ROW_CATEGORIES = (*_tables.CATEGORIES_5, "royal_flush")
_CATEGORY_ALIASES = {"trips": "three_of_a_kind", "quads": "four_of_a_kind", "royal": "royal_flush"}
_NO_JOKERS = "OFC-JOKER (a 54-card deck with jokers) is not supported: cpstats deals 52 cards"
_MAX_FL_CARDS = 17


class Deal(StrEnum):
    """How the 13 cards of a normal hand arrive: OFC-DEAL-CLASSIC or OFC-DEAL-PINEAPPLE."""

    CLASSIC = "classic"
    PINEAPPLE = "pineapple"


class StayRule(StrEnum):
    """What keeps a Fantasyland player there: OFC-FL-STAY-A (trips front, full house+ middle or
    quads+ back), OFC-FL-STAY-B (trips front or quads+ back) or none (nobody stays)."""

    A = "A"
    B = "B"
    NONE = "none"


def _whole(path: str, value: object, *, minimum: float = 0) -> int:
    return int(as_number(path, value, minimum=minimum, integer=True))


def _amounts(path: str, values: object, names: tuple[str, ...], minimum: float = 0) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise invalid(path, values, f"expected {len(names)} amounts ({names[0]} ... {names[-1]})")
    items = tuple(values)  # type: ignore[call-overload]
    if len(items) != len(names):
        raise invalid(path, "/".join(map(str, items)),
                      f"expected {len(names)} amounts ({names[0]} ... {names[-1]})")
    return tuple(_whole(f"{path}.{n}", v, minimum=minimum) for n, v in zip(names, items))


PAIR_NAMES = tuple(r * 2 for r in RANK_LETTERS)
TRIPS_NAMES = tuple(r * 3 for r in RANK_LETTERS)


@dataclass(frozen=True)
class Royalties:
    """A royalty table in whole units (OFC-R-STANDARD by default).

    ``front_pairs`` and ``front_trips`` hold 13 amounts, 22..AA and 222..AAA; ``middle`` and
    ``back`` hold one amount per :data:`FIVE_ROW_CATEGORIES` entry (high card ... royal flush).
    A fouled board earns none of them (OFC-FOUL).
    """

    front_pairs: tuple[int, ...] = (0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    front_trips: tuple[int, ...] = tuple(range(10, 23))
    middle: tuple[int, ...] = (0, 0, 0, 2, 4, 8, 12, 20, 30, 50)
    back: tuple[int, ...] = (0, 0, 0, 0, 2, 4, 6, 10, 15, 25)

    def __post_init__(self) -> None:
        put = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        put("front_pairs", _amounts("royalties.front", self.front_pairs, PAIR_NAMES))
        put("front_trips", _amounts("royalties.front", self.front_trips, TRIPS_NAMES))
        put("middle", _amounts("royalties.middle", self.middle, FIVE_ROW_CATEGORIES))
        put("back", _amounts("royalties.back", self.back, FIVE_ROW_CATEGORIES))


@dataclass(frozen=True)
class FantasylandRules:
    """Fantasyland entry and stay (OFC-FL-ENTRY, OFC-FL-PROGRESSIVE, OFC-FL-STAY-A/B).

    ``cards`` is the number of cards dealt at once after a non-fouled board with QQ, KK, AA or
    trips in front (0 = no entry), never fewer for a better front, each 13..17;
    ``stay`` the stay rule and ``stay_cards`` the cards dealt on a stay (13..17). The default is
    common Pineapple: QQ+ enters with 14 cards, stay B dealing 14.
    """

    cards: tuple[int, int, int, int] = (14, 14, 14, 14)
    stay: StayRule = StayRule.B
    stay_cards: int = 14

    def __post_init__(self) -> None:
        cards = _amounts("fantasyland.cards", self.cards, ("QQ", "KK", "AA", "trips"), minimum=-np.inf)
        for name, n in zip(("QQ", "KK", "AA", "trips"), cards):
            if n and not 13 <= n <= _MAX_FL_CARDS:
                raise invalid(f"fantasyland.cards.{name}", n, "0 (no entry) or 13..17 cards")
        if any(b < a for a, b in zip(cards, cards[1:])):
            raise invalid("fantasyland.cards", "/".join(map(str, cards)),
                          "a better front (QQ/KK/AA/trips) never gets fewer cards")
        stay = str(self.stay).strip()
        stay = stay[len("OFC-FL-STAY-"):] if stay.upper().startswith("OFC-FL-STAY-") else stay
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "stay", as_enum("fantasyland.stay", StayRule, stay))
        stay_cards = _whole("fantasyland.stay_cards", self.stay_cards, minimum=-np.inf)
        if not 13 <= stay_cards <= _MAX_FL_CARDS:
            raise invalid("fantasyland.stay_cards", stay_cards, "13..17 cards")
        object.__setattr__(self, "stay_cards", stay_cards)

    @property
    def most_cards(self) -> int:
        """The largest Fantasyland deal (entry or stay), 0 when nobody can enter."""
        return max(*self.cards, self.stay_cards) if any(self.cards) else 0


@dataclass(frozen=True)
class Scoring:
    """OFC-SCORE-1-6: ``row`` units a row won and ``scoop`` more for all three rows, whole units;
    the royalty difference is paid on top."""

    row: int = 1
    scoop: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "row", _whole("scoring.row", self.row))
        object.__setattr__(self, "scoop", _whole("scoring.scoop", self.scoop))


class RuleArrays(NamedTuple):
    """Every royalty, entry and stay rule of a variant as contiguous arrays (kernel arguments,
    in this order; :func:`cpstats.ofc.board.table_args`). Shared and cached: never write them."""

    front_royalty: np.ndarray  # int64[455] by rank3
    middle_royalty: np.ndarray  # int64[7462] by rank5
    back_royalty: np.ndarray  # int64[7462] by rank5
    front_common: np.ndarray  # int64[455]: common scale (H3) of the front
    middle_common: np.ndarray  # int64[7462]: common scale of the middle
    fl_entry_cards: np.ndarray  # int64[455]: Fantasyland cards after a clean board, 0 = none
    fl_stay_front: np.ndarray  # bool[455]
    fl_stay_middle: np.ndarray  # bool[7462]
    fl_stay_back: np.ndarray  # bool[7462]
    fl_stay_cards: np.ndarray  # int64[1]: cards dealt on a stay
    row_points: np.ndarray  # int64[2]: (per row, scoop bonus)


_DEALT = {Deal.CLASSIC: (5, 1, 1, 1, 1, 1, 1, 1, 1), Deal.PINEAPPLE: (5, 3, 3, 3, 3)}
_KEPT = {Deal.CLASSIC: (5, 1, 1, 1, 1, 1, 1, 1, 1), Deal.PINEAPPLE: (5, 2, 2, 2, 2)}
_PLAYERS = {Deal.CLASSIC: (2, 3, 4), Deal.PINEAPPLE: (2, 3)}


def _counts(allowed: tuple[int, ...]) -> str:
    return f"{', '.join(map(str, allowed[:-1]))} or {allowed[-1]}"


def _players_allowed(deal: Deal) -> str:
    """The seats ``deal`` allows in words, and another deal's where it seats more."""
    more = [f"{_counts(_PLAYERS[d])} with deal={d.value}" for d in Deal
            if len(_PLAYERS[d]) > len(_PLAYERS[deal])]
    if not more:
        return f"{_counts(_PLAYERS[deal])} players"
    return f"{_counts(_PLAYERS[deal])} players with the {deal.value} deal ({'; '.join(more)})"




@dataclass(frozen=True, kw_only=True)
class Variant:
    """A complete open-face rule set (rulebook section 7), plus its preset ``name``.

    ``Variant()`` is the ``ofc-pineapple`` preset. ``str(v)`` is ``name(overrides)`` and
    :func:`parse_ofc_variant` reads it back equal.

    Examples
    --------
    >>> v = parse_ofc_variant("ofc-pineapple(players=3,fantasyland.stay=A)")
    >>> v.players, v.fantasyland.stay.value, v.cards_dealt
    (3, 'A', (5, 3, 3, 3, 3))
    >>> str(v)
    'ofc-pineapple(players=3,fantasyland.stay=A)'
    >>> parse_ofc_variant(str(v)) == v
    True
    """

    #: The game this variant plays (:data:`cpstats.engine.registry.GAMES`).
    game: ClassVar[str] = GAME
    name: str = "ofc-pineapple"
    deal: Deal = Deal.PINEAPPLE
    players: int = 2
    royalties: Royalties = field(default_factory=Royalties)
    fantasyland: FantasylandRules = field(default_factory=FantasylandRules)
    scoring: Scoring = field(default_factory=Scoring)
    rake: Rake = field(default_factory=Rake)
    button: Button = field(default_factory=Button)
    stakes: TableStakes = field(default_factory=TableStakes)
    match: Match = field(default_factory=Match)

    def __post_init__(self) -> None:
        put = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        if not isinstance(self.name, str) or not self.name.strip() or set("(),=%") & set(self.name):
            raise invalid("name", self.name, "a non-empty label without ( ) , = %")
        put("name", self.name.strip())
        put("deal", as_enum("deal", Deal, self.deal))
        for key, cls in (("royalties", Royalties), ("fantasyland", FantasylandRules),
                         ("scoring", Scoring), ("rake", Rake), ("button", Button),
                         ("stakes", TableStakes), ("match", Match)):
            put(key, as_component(key, cls, getattr(self, key)))
        players = _whole("players", self.players, minimum=-np.inf)
        allowed = _PLAYERS[self.deal]
        if players not in allowed:
            raise invalid("players", self.players, _players_allowed(self.deal))
        put("players", players)
        most = max(self.cards_per_hand, self.fantasyland.most_cards)
        if players * most > 52:
            raise invalid("players", players, f"{players} hands of up to {most} cards need more "
                          "than 52 cards; seat fewer players or deal fewer Fantasyland cards")
        if self.rake.jackpot_drop or self.rake.jackpot_trigger:
            raise invalid("rake.jackpot_drop", self.rake.jackpot_drop, "OFC has no jackpot")
        if self.match.rake is RakeBasis.MATCH and self.rake.model is RakeModel.TIME:
            raise invalid("match.rake", "match", "a time rake is charged by the hour, not by the match")

    @property
    def cards_dealt(self) -> tuple[int, ...]:
        """Cards dealt to a normal hand per street: classic (5, 1 x 8), Pineapple (5, 3 x 4)."""
        return _DEALT[self.deal]

    @property
    def cards_kept(self) -> tuple[int, ...]:
        """Cards placed per street: classic all, Pineapple 2 of 3 after the first street."""
        return _KEPT[self.deal]

    @property
    def cards_per_hand(self) -> int:
        """Cards a normal hand takes from the deck: 13 (classic) or 17 (Pineapple)."""
        return sum(self.cards_dealt)

    def kernel_tables(self) -> RuleArrays:
        """:class:`RuleArrays` of this variant (built once per variant, then cached)."""
        return _kernel_tables(self)

    def __str__(self) -> str:
        base = self.name if self.name in PRESETS else "ofc-pineapple"
        return _format(base, self.to_dict(), get_preset(base).to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of every option (enums as their values)."""
        return plain(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """Inverse of :meth:`to_dict`; missing keys take their defaults, unknown keys are errors."""
        known = [f.name for f in fields(cls)]
        for key in data:
            if key == "jokers":
                raise invalid("jokers", data[key], _NO_JOKERS)
            if key not in known:
                raise unknown_key(key, known)
        return cls(**data)

    def to_file(self, path: str | os.PathLike, *, label: str | None = None,
                description: str | None = None) -> Path:
        """Save the variant as TOML or JSON (by the suffix of ``path``), as 13-card variants are
        saved (:meth:`cpstats.thirteen.rules.variant.Variant.to_file`); :func:`cpstats.engine.registry.load_variant` reads it
        back equal. Returns the path written."""
        return write_file(path, str(self), self.to_dict(), label=label, description=description)

    def replace(self, **overrides: Any) -> Variant:
        """A validated copy with options changed: any key of the variant string, ``__`` for
        ``.`` (``v.replace(players=3, fantasyland__stay="A", royalties__front__QQ=10)``), or a
        field given a component (``v.replace(rake=Rake(model="percent", percent=0.05))``)."""
        names = {f.name for f in fields(self)}
        data = self.to_dict()
        pairs = []
        for k, v in overrides.items():
            if k in names and is_dataclass(v):
                data[k] = asdict(v)
            else:
                pairs.append((k.replace("__", "."), to_text(v)))
        return _apply(data, pairs, Variant.from_dict)


# -- tables -----------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _kernel_tables(v: Variant) -> RuleArrays:
    keys3 = _tables.three_card_keys()
    cat3 = np.array([int(k[0]) for k in keys3])
    top3 = np.array([int(k[1]) for k in keys3])
    five = _tables.five_card_tables("H1")
    cat5 = five.category.astype(np.int64)
    royal = (cat5 == 8) & (np.array([k[1] for k in five.keys]) == 12)
    row5 = np.where(royal, 9, cat5)
    r = v.royalties
    front = np.where(cat3 == 1, np.array(r.front_pairs)[top3],
                     np.where(cat3 == 3, np.array(r.front_trips)[top3], 0))
    fl = v.fantasyland
    entry = np.where(cat3 == 3, fl.cards[3], np.where(
        (cat3 == 1) & (top3 >= 10), np.array((0,) * 10 + fl.cards[:3])[np.minimum(top3, 12)], 0))
    stays = fl.stay is not StayRule.NONE and any(fl.cards)
    arrays = RuleArrays(
        front_royalty=front, middle_royalty=np.array(r.middle)[row5],
        back_royalty=np.array(r.back)[row5],
        front_common=_tables.three_card_common("H1"), middle_common=five.common,
        fl_entry_cards=entry, fl_stay_front=stays & (cat3 == 3),
        fl_stay_middle=(stays and fl.stay is StayRule.A) & (cat5 >= 6),
        fl_stay_back=stays & (cat5 >= 7), fl_stay_cards=np.array([fl.stay_cards]),
        row_points=np.array([v.scoring.row, v.scoring.scoop]))
    return RuleArrays(*(np.ascontiguousarray(a, dtype=bool if a.dtype == bool else np.int64)
                       for a in arrays))


# -- presets ----------------------------------------------------------------------------------

_PRESET_ROWS: dict[str, tuple[str, dict[str, Any]]] = {
    "ofc-classic": ("classic OFC: 1 card a street, QQ+ enters a 13-card Fantasyland, stay A",
                    {"deal": Deal.CLASSIC,
                     "fantasyland": FantasylandRules(cards=(13, 13, 13, 13), stay=StayRule.A,
                                                     stay_cards=13)}),
    "ofc-pineapple": ("Pineapple: keep 2 of 3, QQ+ enters with 14 cards, stay B", {}),
    "ofc-pineapple-progressive": (
        "progressive Pineapple: QQ/KK/AA/trips enter with 14/15/16/17 cards, stay B dealing 14",
        {"fantasyland": FantasylandRules(cards=(14, 15, 16, 17))}),
}


@lru_cache(maxsize=1)
def _registry() -> dict[str, Variant]:
    return {name: Variant(name=name, **options) for name, (_, options) in _PRESET_ROWS.items()}


#: One-line description of every OFC preset, by name.
PRESETS: dict[str, str] = {name: text for name, (text, _) in _PRESET_ROWS.items()}
#: The preset a view opens on: the game as most rooms deal it.
DEFAULT_PRESET = "ofc-pineapple"


#: The presets a view of several open-face variants opens on, in its columns' order.
COMPARED = ("ofc-pineapple", "ofc-pineapple-progressive", "ofc-classic")


def get_preset(name: str) -> Variant:
    """The OFC preset called ``name`` (case-insensitive): ``ofc-classic``, ``ofc-pineapple`` or
    ``ofc-pineapple-progressive``; the open-face half of :func:`cpstats.get_preset`, which
    users call.

    Examples
    --------
    >>> get_preset("ofc-pineapple-progressive").fantasyland.cards
    (14, 15, 16, 17)
    """
    key = str(name).strip().lower()
    if key not in PRESETS:
        raise OptionError(f"unknown OFC preset {name!r}{suggest(key, PRESETS)}; "
                          f"presets: {', '.join(PRESETS)}")
    return _registry()[key]



# -- the string codec (keys read and write the plain dict of :meth:`Variant.to_dict`) ------

def _field(name: str, path: tuple[Any, ...], parse: Callable[[str, str], Any] | None = None) -> Key:
    *parents, last = path

    def at(d: dict) -> Any:
        for part in parents:
            d = d[part]
        return d

    def read(d: dict) -> str:
        return to_text(at(d)[last])

    def write(d: dict, text: str) -> None:
        at(d)[last] = parse(name, text) if parse else text.strip()

    return Key(name, read, write, path=path if parse is parse_number else ())


def _cards_list(name: str, text: str) -> list[int | float]:
    return [parse_number(name, t) for t in text.split("/")]


def _keys() -> tuple[Key, ...]:
    amount = parse_number
    front = [_field(f"royalties.front.{n}", ("royalties", "front_pairs", i), amount)
             for i, n in enumerate(PAIR_NAMES)]
    front += [_field(f"royalties.front.{n}", ("royalties", "front_trips", i), amount)
              for i, n in enumerate(TRIPS_NAMES)]
    rows = [_field(f"royalties.{row}.{c}", ("royalties", row, i), amount)
            for row in ("middle", "back") for i, c in enumerate(FIVE_ROW_CATEGORIES)]
    rake = [_field(f"rake.{n}", ("rake", n), amount)
            for n in ("amount", "percent", "threshold", "hands_per_hour")]
    cap = _field("rake.cap", ("rake", "cap"),
                 lambda k, t: None if t.strip().lower() == "none" else parse_number(k, t, "none"))
    return (_field("name", ("name",)), _field("deal", ("deal",)),
            _field("players", ("players",), amount),
            _field("scoring.row", ("scoring", "row"), amount),
            _field("scoring.scoop", ("scoring", "scoop"), amount), *front, *rows,
            _field("fantasyland.cards", ("fantasyland", "cards"), _cards_list),
            _field("fantasyland.stay", ("fantasyland", "stay")),
            _field("fantasyland.stay_cards", ("fantasyland", "stay_cards"), amount),
            _field("rake", ("rake", "model")), *rake, cap,
            _field("button", ("button", "moves")), _field("button.fantasyland", ("button", "fantasyland")),
            _field("stakes.buy_in", ("stakes", "buy_in"),
                   lambda k, t: None if t.strip().lower() == "none" else parse_number(k, t, "none")),
            _field("match", ("match", "format")), _field("match.rake", ("match", "rake")))


KEYS: tuple[Key, ...] = _keys()
_INDEX = {key.name.lower(): i for i, key in enumerate(KEYS)}
_NAMES = frozenset(key.name for key in KEYS)


def _key(name: str, text: str) -> Key:
    word = name.strip().lower()
    *head, last = word.split(".")
    word = ".".join([*head, _CATEGORY_ALIASES.get(last, last)])
    word = {"rake.model": "rake", "fantasyland.stay_rule": "fantasyland.stay", "button.moves": "button",
            "match.format": "match", "stakes": "stakes.buy_in"}.get(word, word)
    if word == "jokers":
        raise invalid("jokers", text, _NO_JOKERS)
    if word == "royalties":
        raise invalid("royalties", text, "an open-face royalty table is set entry by entry, e.g. "
                      "royalties.front.QQ=7 or royalties.back.straight=2 (13-card R-* schedules do not apply)")
    if word not in _INDEX:
        raise unknown_key(name, _NAMES)
    return KEYS[_INDEX[word]]


def key_of(name: str) -> Key:
    """The open-face key called ``name`` (its aliases too); an unknown one is the parser's line."""
    return _key(str(name), "")


def ofc_key_name(name: str, value: object = "") -> str:
    """The key ``name`` as the variant string writes it (``royalties.back.trips`` ->
    ``royalties.back.three_of_a_kind``); an unknown key is the parser's one line, showing
    ``value`` as the override would."""
    return _key(str(name), to_text(value)).name


def _apply(d: dict[str, Any], overrides: list[tuple[str, str]], make: Callable[[dict], Any]) -> Any:
    """``make`` of ``d`` with the overrides written in order; a refusal of a converted value, as
    it is written or as ``make`` checks it, names the override as the user wrote it."""
    seen: set[str] = set()
    written = []
    for name, text in overrides:
        key = _key(name, text)
        if key.name in seen:
            raise invalid(name, text, f"{key.name} is given twice")
        seen.add(key.name)
        w = Written(name.strip(), text, key.name, key.covers)
        try:
            key.write(d, text)
        except OptionError as err:
            raise as_written(err, [w], _NAMES) from None
        written.append(w)
    try:
        return make(d)
    except OptionError as err:
        raise as_written(err, written, _NAMES) from None


def _format(base: str, want: dict[str, Any], have: dict[str, Any]) -> str:
    parts = []
    for key in KEYS:
        text = key.read(want)
        if text != key.read(have):
            parts.append(f"{key.name}={text}")
            key.write(have, text)
    return f"{base}({','.join(parts)})" if parts else base


def parse_ofc_variant(text: str) -> Variant:
    """Read an OFC variant string: a preset name, optionally with ``(key=value,...)`` overrides.

    Keys: ``players``, ``deal`` (classic, pineapple), ``scoring.row``, ``scoring.scoop``,
    ``royalties.front.<22..AA, 222..AAA>``, ``royalties.middle.<category>`` and
    ``royalties.back.<category>`` (:data:`FIVE_ROW_CATEGORIES`; ``trips``, ``quads``, ``royal``
    also accepted), ``fantasyland.cards`` (``14/15/16/17`` for QQ/KK/AA/trips),
    ``fantasyland.stay`` (A, B, none), ``fantasyland.stay_cards``, ``rake`` (none, percent,
    time, fixed-table, fixed-player), ``rake.amount``, ``rake.percent``, ``rake.cap``,
    ``rake.threshold``, ``rake.hands_per_hour``; ``button`` (rotate, fixed) and
    ``button.fantasyland`` (move, hold), OFC-BUTTON; ``stakes.buy_in`` (points, none), OFC-STAKES;
    ``match`` (none, round) and ``match.rake`` (hand, match), OFC-MATCH; ``name`` for a label.

    Examples
    --------
    >>> v = parse_ofc_variant("ofc-classic(players=4,royalties.back.quads=12)")
    >>> v.royalties.back[7], str(v)
    (12, 'ofc-classic(players=4,royalties.back.four_of_a_kind=12)')
    """
    name, body = split_variant(text)
    d = get_preset(name).to_dict()
    overrides = []
    for item in body.split(","):
        if item.strip():
            key, sep, value = item.partition("=")
            if not sep:
                raise OptionError(f"malformed override {item.strip()!r} in {text!r}: write key=value")
            overrides.append((key, value.strip()))
    return _apply(d, overrides, Variant.from_dict)


def resolve_ofc_variant(variant: Variant | str) -> Variant:
    """An :class:`Variant` from itself, a preset name or a variant string."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return parse_ofc_variant(variant)
    raise OptionError(f"variant={variant!r} is invalid: expected an Variant, an OFC preset "
                      "name or an OFC variant string")


def is_ofc_variant(text: object) -> bool:
    """Whether ``text`` names an OFC variant (an :class:`Variant`, or a string whose preset
    starts with ``ofc-``), so that a caller can send it here rather than to the 13-card rules.

    Examples
    --------
    >>> is_ofc_variant("ofc-pineapple(players=3)"), is_ofc_variant("2-4")
    (True, False)
    """
    if isinstance(text, Variant):
        return True
    return isinstance(text, str) and text.strip().lower().startswith("ofc-")
