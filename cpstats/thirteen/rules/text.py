"""The variant string and dict codec behind :class:`cpstats.thirteen.rules.variant.Variant` (OpenSpiel style).

A variant string is ``preset(key=value,...)``. Each key reads and writes one place of the plain
dict form (:func:`plain`), so overrides are applied to a dict and validated once, by the
constructors, at the end: intermediate states (players=2 before home_run=false) never raise.
The codec works on plain dicts only and never builds a variant: :mod:`cpstats.thirteen.rules.variant`
turns a variant and its preset into dicts, calls the codec, and builds the result.
Writing the shortest string walks the keys in :data:`KEYS` order from the preset, emitting a
key whenever its text differs and applying it, so that schedule keys (``royalties=R-TW``) come
before the amounts that refine them. The scoring works the same way: ``scoring=SC-1-6`` sets
the system and all its numbers, then ``scoring.row`` (all three rows at once), ``scoring.front``,
``scoring.scoop_bonus``, ... change one number each.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from functools import lru_cache
from typing import Any

from cpstats.errors import OptionError
from cpstats.rules.check import Written, as_enum, as_written, invalid, unknown_key
from cpstats.rules.codec import (ESCAPES, FALSE_WORDS, TRUE_WORDS, Dict, Key, escape, fmt_number, parse_bool,
                                 parse_number, plain, to_text, unescape)
from cpstats.thirteen.rules.components import SCORING_NUMBERS, Naturals, Royalties, ScoringRules
from cpstats.rules.house import AcesBet, Bank, BankMode, BankSetter, Misset, Rake, RakeModel, Stakes, Surrender
from cpstats.thirteen.rules.ids import (NATURAL_NAMES, ROYALTY_ROWS, SCOOP, Deal, HandOrdering, NaturalSchedule, NaturalSettlement, RoyaltyMode, RoyaltyPayment, RoyaltySchedule, Scoring)
from cpstats.thirteen.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES

_COMPONENTS = (ScoringRules, Royalties, Naturals, Surrender, Misset, AcesBet, Bank, Rake, Stakes)


# -- keys -------------------------------------------------------------------------------------

def _at(path: str) -> tuple[Callable[[Dict], Any], Callable[[Dict, Any], None]]:
    *parents, last = path.split(".")

    def get(d: Dict) -> Any:
        for part in parents:
            d = d[part]
        return d[last]

    def put(d: Dict, value: Any) -> None:
        for part in parents:
            d = d[part]
        d[last] = value

    return get, put


def _simple(name: str, path: str, kind: Any) -> Key:
    get, put = _at(path)
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return Key(name, lambda d: get(d),
                   lambda d, t: put(d, as_enum(name, kind, t).value))
    if kind is bool:
        return Key(name, lambda d: to_text(get(d)), lambda d, t: put(d, parse_bool(name, t)))
    if kind == "number":
        return Key(name, lambda d: fmt_number(get(d)), lambda d, t: put(d, parse_number(name, t)),
                   path=tuple(path.split(".")))
    if kind == "number?":
        return Key(name, lambda d: to_text(get(d)),
                   lambda d, t: put(d, None if t.lower() == "none" else parse_number(name, t, "none")),
                   path=tuple(path.split(".")))
    return Key(name, lambda d: get(d), lambda d, t: put(d, t))


def _set_scoring_system(d: Dict, text: str) -> None:
    system = as_enum("scoring", Scoring, text)
    d["scoring"] = plain(ScoringRules(system=system))


def _read_row_points(d: Dict) -> str | None:
    points = {d["scoring"][row] for row in ("front", "middle", "back")}
    return fmt_number(points.pop()) if len(points) == 1 else None


def _write_row_points(d: Dict, text: str) -> None:
    points = parse_number("scoring.row", text)
    d["scoring"].update(front=points, middle=points, back=points)


def _scoring_keys() -> tuple[Key, ...]:
    """``scoring`` (the system, with all its numbers), ``scoring.row`` (every row's points),
    then one key per number of :class:`~cpstats.thirteen.rules.components.ScoringParams`."""
    numbers = [_simple(f"scoring.{n}", f"scoring.{n}", bool if n == "totals_first" else "number")
               for n in SCORING_NUMBERS]
    return (Key("scoring", lambda d: d["scoring"]["system"], _set_scoring_system),
            Key("scoring.row", _read_row_points, _write_row_points,
                covers=("scoring.front", "scoring.middle", "scoring.back")), *numbers)


def _set_royalty_schedule(d: Dict, text: str) -> None:
    schedule = as_enum("royalties", RoyaltySchedule, text)
    payment, amounts = ROYALTY_TABLES[schedule]
    d["royalties"].update(schedule=schedule.value, payment=payment.value,
                          **dict(zip(ROYALTY_ROWS, amounts)))


def _read_unit(d: Dict) -> str | None:
    r = d["royalties"]
    amounts = {r[row] for row in ROYALTY_ROWS}
    flat = r["schedule"] == RoyaltySchedule.FLAT.value and r["payment"] == "extra"
    if flat and len(amounts) == 1:
        return fmt_number(amounts.pop())
    return None


def _write_unit(d: Dict, text: str) -> None:
    unit = parse_number("royalties.unit", text)
    d["royalties"].update(schedule=RoyaltySchedule.FLAT.value, payment="extra",
                          **{row: unit for row in ROYALTY_ROWS})


def _set_natural_schedule(d: Dict, text: str) -> None:
    schedule = as_enum("naturals", NaturalSchedule, text)
    d["naturals"].update(schedule=schedule.value,
                         payouts=[list(pair) for pair in NATURAL_TABLES[schedule]])


def _units_text(units: Any) -> str:
    return SCOOP if units == SCOOP else fmt_number(units)


def _parse_units(key: str, text: str) -> int | float | str:
    return SCOOP if text.strip().lower() == SCOOP else parse_number(key, text, SCOOP)


def _read_payouts(d: Dict) -> str | None:
    """The whole list, or None when shorter ``naturals.<name>`` keys write it
    (:func:`_natural_edits`): a variant prints as its schedule plus the payouts it changes."""
    pairs = d["naturals"]["payouts"]
    whole = "/".join(f"{name}:{_units_text(units)}" for name, units in pairs) or "none"
    edits = _natural_edits(d)
    if edits is None:
        return whole
    by_name = "".join(f"naturals.{name}={text}," for name, text in edits)
    return None if len(by_name) <= len(f"naturals.payouts={whole},") else whole


def _write_payouts(d: Dict, text: str) -> None:
    pairs = []
    if text.strip().lower() != "none":
        for item in text.split("/"):
            name, sep, units = item.partition(":")
            if not sep:
                raise invalid("naturals.payouts", item, "expected name:units items joined by /")
            pairs.append([name.strip().lower(), _parse_units(f"naturals.{name.strip()}", units)])
    d["naturals"]["payouts"] = pairs


def _natural_edits(d: Dict) -> tuple[tuple[str, str], ...] | None:
    """The ``naturals.<name>`` edits, in key order, that turn the schedule's payouts into
    ``d``'s, or None when no such edits can (a ranking of the user's own)."""
    pairs = tuple((name, units) for name, units in d["naturals"]["payouts"])
    return _edits_from_schedule(d["naturals"]["schedule"], pairs)


@lru_cache(maxsize=256)
def _edits_from_schedule(schedule: str, pairs: tuple[tuple[str, Any], ...]
                         ) -> tuple[tuple[str, str], ...] | None:
    table = NATURAL_TABLES[as_enum("naturals", NaturalSchedule, schedule)]
    work: Dict = {"naturals": {"payouts": [list(p) for p in table]}}
    want = dict(pairs)
    edits = []
    for name in NATURAL_NAMES:
        text = _units_text(want.get(name, 0))
        if text != _payout_text(work, name):
            edits.append((name, text))
            _write_natural(name, work, text)
    return tuple(edits) if work["naturals"]["payouts"] == [list(p) for p in pairs] else None


def _payout_text(d: Dict, name: str) -> str:
    """The payout of natural ``name`` in ``d`` as text, ``0`` when it is not in play."""
    return _units_text(dict(map(tuple, d["naturals"]["payouts"])).get(name, 0))


def _natural_key(name: str) -> Key:
    """``naturals.<name>=units``: change a payout in place, add it (ranked after every natural
    paying no more), or remove it with 0; printed whenever the payouts differ from the
    schedule's by such edits only."""

    def read(d: Dict) -> str | None:
        return None if _natural_edits(d) is None else _payout_text(d, name)

    return Key(f"naturals.{name}", read, lambda d, t: _write_natural(name, d, t))


def _write_natural(name: str, d: Dict, text: str) -> None:
    """:func:`_natural_key`'s write."""
    units = _parse_units(f"naturals.{name}", text)
    pairs = [p for p in d["naturals"]["payouts"] if p[0] != name]
    if units == 0:
        d["naturals"]["payouts"] = pairs
        return
    current = [p[0] for p in d["naturals"]["payouts"]]
    if name in current:
        d["naturals"]["payouts"][current.index(name)][1] = units
        return
    value = float("inf") if units == SCOOP else units
    worth = [float("inf") if u == SCOOP else u for _, u in pairs]
    position = max((i + 1 for i, w in enumerate(worth) if w <= value), default=0)
    d["naturals"]["payouts"] = pairs[:position] + [[name, units]] + pairs[position:]


def _read_surrender(d: Dict) -> str:
    s = d["surrender"]
    if not s["enabled"]:
        return "none"
    return "standard" if s["amount"] is None else fmt_number(s["amount"])


def _write_surrender(d: Dict, text: str) -> None:
    """``none``/``false`` turn surrender off, ``standard``/``true`` take the scoring system's
    amount, and a number is always the amount itself (``1`` and ``0`` are units,
    not the booleans they also spell)."""
    word = text.strip().lower()
    try:
        amount = parse_number("surrender", word)
    except OptionError:
        amount = None
    if amount is not None:
        if amount <= 0:
            raise invalid("surrender", amount, "units must be > 0; surrender=none turns it off")
        d["surrender"] = {"enabled": True, "amount": amount}
    elif word in ("none", *FALSE_WORDS):
        d["surrender"] = {"enabled": False, "amount": None}
    elif word in ("standard", *TRUE_WORDS):
        d["surrender"] = {"enabled": True, "amount": None}
    else:
        raise invalid("surrender", text, "expected none, standard or units per opponent")


def _write_misset(d: Dict, text: str) -> None:
    word = text.strip().lower()
    d["misset"]["points"] = None if word == SCOOP else parse_number("misset", text, SCOOP)


def _read_list(d: Dict) -> str:
    return "/".join(fmt_number(v) for v in d["aces"]["payouts"])


def _write_list(d: Dict, text: str) -> None:
    d["aces"]["payouts"] = [parse_number("aces.payouts", v) for v in text.split("/")]


def _read_stakes(d: Dict) -> str:
    matrix = d["stakes"]
    if matrix is None:
        return "none"
    return "/".join(":".join(fmt_number(v) for v in row) for row in matrix)


def _write_stakes(d: Dict, text: str) -> None:
    if text.strip().lower() == "none":
        d["stakes"] = None
    else:
        rows = text.split("/")
        try:
            d["stakes"] = [[parse_number("stakes", v) for v in row.split(":")] for row in rows]
        except OptionError:
            raise invalid("stakes", text, "expected rows of units joined by / (0:1/1:0 for two "
                          "players), or none") from None


KEYS: tuple[Key, ...] = (
    _simple("name", "name", str),
    *_scoring_keys(),
    _simple("players", "players", "number"),
    _simple("deal", "deal", Deal),
    _simple("ranking", "ranking", HandOrdering),
    _simple("home_run", "home_run", bool),
    Key("royalties", lambda d: d["royalties"]["schedule"], _set_royalty_schedule),
    Key("royalties.unit", _read_unit, _write_unit, covers=tuple(f"royalties.{row}" for row in ROYALTY_ROWS)),
    *(_simple(f"royalties.{row}", f"royalties.{row}", "number") for row in ROYALTY_ROWS),
    _simple("royalties.payment", "royalties.payment", RoyaltyPayment),
    _simple("royalty_mode", "royalties.mode", RoyaltyMode),
    Key("naturals", lambda d: d["naturals"]["schedule"], _set_natural_schedule),
    Key("naturals.payouts", _read_payouts, _write_payouts,
        covers=tuple(f"naturals.{name}" for name in NATURAL_NAMES)),
    *(_natural_key(name) for name in NATURAL_NAMES),
    _simple("naturals.settlement", "naturals.settlement", NaturalSettlement),
    _simple("naturals.declare_optional", "naturals.declare_optional", bool),
    _simple("naturals.qka_front_straight", "naturals.qka_front_straight", bool),
    _simple("naturals.straight_flush_counts", "naturals.straight_flush_counts", bool),
    Key("surrender", _read_surrender, _write_surrender),
    Key("misset", lambda d: _units_text(d["misset"]["points"] or SCOOP), _write_misset),
    _simple("chips_limit", "chips_limit", bool),
    _simple("aces", "aces.enabled", bool),
    Key("aces.payouts", _read_list, _write_list),
    _simple("bank", "bank.mode", BankMode),
    _simple("bank.wins_ties", "bank.wins_ties", bool),
    _simple("bank.commission", "bank.commission", "number"),
    _simple("bank.fee", "bank.fee", "number"),
    _simple("bank.setter", "bank.setter", BankSetter),
    _simple("rake", "rake.model", RakeModel),
    *(_simple(f"rake.{n}", f"rake.{n}", "number")
      for n in ("amount", "percent", "threshold", "hands_per_hour", "jackpot_drop")),
    _simple("rake.cap", "rake.cap", "number?"),
    _simple("rake.jackpot_trigger", "rake.jackpot_trigger", str),
    Key("stakes", _read_stakes, _write_stakes),
)
KEY_INDEX = {key.name: i for i, key in enumerate(KEYS)}
ALIASES = {
    "scoring.system": "scoring", "race_target": "scoring.race_target",
    "royalties.schedule": "royalties", "royalties.mode": "royalty_mode",
    "naturals.schedule": "naturals", "misset.points": "misset", "aces.enabled": "aces",
    "bank.mode": "bank", "rake.model": "rake",
}


def _key(name: str) -> Key:
    canonical = ALIASES.get(name.strip().lower(), name.strip().lower())
    if canonical not in KEY_INDEX:
        raise unknown_key(name, [*KEY_INDEX, *ALIASES], KEY_INDEX)
    return KEYS[KEY_INDEX[canonical]]


def key_of(name: str) -> Key:
    """The 13-card key called ``name`` (an alias too); an unknown one is the parser's one line."""
    return _key(name)


def _apply(d: Dict, overrides: Sequence[tuple[str, str]], make: Callable[[Dict], Any] | None = None) -> Any:
    """``d`` with the overrides written in :data:`KEYS` order, or ``make(d)``; a refusal of a
    converted value, as it is written or as ``make`` checks it, names the override as written."""
    seen: set[str] = set()
    keyed = []
    for name, text in overrides:
        key = _key(name)
        if key.name in seen:
            raise invalid(name, text, f"{key.name} is given twice")
        seen.add(key.name)
        keyed.append(Written(name.strip(), text, key.name, key.covers))
    written = sorted(keyed, key=lambda w: KEY_INDEX[w.key])
    for w in written:
        try:
            KEYS[KEY_INDEX[w.key]].write(d, w.text)
        except OptionError as err:
            raise as_written(err, [w], KEY_INDEX) from None
    if make is None:
        return d
    try:
        return make(d)
    except OptionError as err:
        raise as_written(err, written, KEY_INDEX) from None


# -- entry points (used by cpstats.thirteen.rules.variant) ---------------------------------------------

def apply_text(d: Dict, body: str, text: str, make: Callable[[Dict], Any] | None = None) -> Any:
    """``d``, a preset's plain dict, with the overrides ``body`` of the variant string ``text``
    (named in errors) applied in :data:`KEYS` order; ``make`` (the variant's ``from_dict``)
    validates the result, its refusals naming the overrides as written."""
    overrides = []
    for item in body.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep:
            raise OptionError(f"malformed override {item.strip()!r} in {text!r}: write key=value")
        raw = sorted(set(value) & set("()="))
        if raw:  # the string's own syntax: inside a value it is escaped (as str(variant) writes it)
            raise OptionError(f"malformed override {item.strip()!r} in {text!r}: a value cannot "
                              f"hold a raw {' or '.join(map(repr, raw))}; write "
                              f"{', '.join(ESCAPES[c] for c in raw)} for it")
        overrides.append((key.strip(), unescape(value.strip())))
    return _apply(d, overrides, make)


def format_variant(base: str, want: Dict, have: Dict) -> str:
    """The shortest string for the plain dict ``want`` from the preset ``base``, whose plain dict
    ``have`` is changed as each emitted key is applied to it."""
    parts = []
    for key in KEYS:
        text = key.read(want) if key.emit else None
        if text is not None and text != key.read(have):
            parts.append(f"{key.name}={escape(text)}")
            key.write(have, text)
    return f"{base}({','.join(parts)})" if parts else base


def apply_overrides(d: Dict, overrides: Mapping[str, Any], make: Callable[[Dict], Any] | None = None) -> Any:
    """A copy of ``d``, a variant's plain dict, with :meth:`~cpstats.thirteen.rules.variant.Variant.replace`'s
    overrides: a field given a component, a mapping or a stakes matrix takes it whole; anything
    else is written as text under its key; then ``make`` of it, as :func:`apply_text`."""
    d = copy.deepcopy(d)
    textual = []
    for name, value in overrides.items():
        if name in d and (isinstance(value, (*_COMPONENTS, Mapping))
                          or (name == "stakes" and isinstance(value, (list, tuple)))):
            d[name] = plain(value)
        else:
            textual.append((name, to_text(value)))
    return _apply(d, textual, make)
