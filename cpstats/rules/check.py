"""Checking helpers shared by the rules modules: every bad option becomes one
:class:`~cpstats.errors.OptionError` of the form ``path=value is invalid: reason``.

The rules check numbers after a variant string's text is converted (``1e999`` is ``inf`` by
then, ``-0.5e1`` is ``-5.0``, ``scoring.row`` has become three rows): :func:`as_written` rewords
such a refusal to begin with the override as the user wrote it.

A reason says what is allowed in words a user reads: a rulebook ID appears only as a value the
user writes, in ``key=value`` form (``deal=D3``, ``scoring=SC-1-6``), never alone in brackets;
a value that may also be a word names the word (``a number of units, or none``); an unknown key
is quoted with its close matches (:func:`unknown_key`)."""

from __future__ import annotations

import difflib
import math
import numbers
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import fields
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

import numpy as np

from cpstats.errors import OptionError, shown

E = TypeVar("E", bound=StrEnum)

#: The largest number any rule takes (amounts, stakes, payouts, paces): 10^9. With it a deal's
#: nets stay far inside float64 even raised to the fourth power (the summaries' power sums).
MAX_NUMBER = 1e9


class InvalidOption(OptionError):
    """``path=value is invalid: reason``, its parts kept (``path``, ``value``, ``reason``) so a
    variant string's parser can reword it as the user wrote the override (:func:`as_written`)."""

    def __init__(self, path: str, value: object, reason: str):
        super().__init__(f"{path}={shown(value)} is invalid: {reason}")
        self.path, self.value, self.reason = path, value, reason

    def __reduce__(self):  # pickled with its parts (a process pool sends errors back)
        return type(self), (self.path, self.value, self.reason)


def invalid(path: str, value: object, reason: str) -> OptionError:
    """The error for an invalid option: ``path=value is invalid: reason``."""
    return InvalidOption(path, value, reason)


class Written(NamedTuple):
    """One override as the user wrote it (``name=text``), the key it set and the paths it sets
    beyond the key's own name (``scoring.row`` sets ``scoring.front``, ...)."""

    name: str
    text: str
    key: str
    covers: tuple[str, ...] = ()


def as_written(error: OptionError, written: Sequence[Written], keys: Container[str]) -> OptionError:
    """``error`` reworded to begin with the override it is about, as written: ``name=text is
    invalid: reason``, ``(at path)`` added where a text of several items was refused at one.

    An override is about the refused ``path`` when it is its key (best), the key sets it
    (``covers``), or the path lies under the key and is no key of its own (``surrender`` for
    ``surrender.amount``, ``stakes`` for ``stakes[0][1]``); the last one applied wins a tie. The
    error is kept as it is when it already names the override as written (or, in a text of
    several items, the item as written at its place), or none is about it.
    """
    path = getattr(error, "path", None)
    if not isinstance(path, str):
        return error

    def rank(w: Written) -> int:
        if path == w.key:
            return 3
        if path in w.covers:
            return 2
        return int(path.startswith((f"{w.key}.", f"{w.key}[")) and path not in keys)

    best = max(((rank(w), len(w.key), i) for i, w in enumerate(written)), default=(0, 0, 0))
    if best[0] == 0:
        return error
    w, value = written[best[2]], getattr(error, "value", None)
    as_shown = {str(value).lower(), shown(value).lower()}
    items = re.split("[/:]", w.text)
    if best[0] == 3 and w.name.lower() == path.lower() and w.text.lower() in as_shown:
        return error
    at = f" (at {path})" if path != w.key and len(items) > 1 else ""
    if at and as_shown & {item.strip().lower() for item in items}:
        return error  # the item refused is shown as written, at its place (stakes[0][1]=-1)
    text = shown(w.text, quote=isinstance(value, str))
    return OptionError(f"{w.name}={text} is invalid: {getattr(error, 'reason', error)}{at}")


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for close matches of ``word`` among ``choices``, or ``""``: up to
    three, and only those nearly as close as the best (a misspelt key gets its one key)."""
    close = difflib.get_close_matches(str(word), list(choices), n=3, cutoff=0.5)
    if close:
        best = difflib.SequenceMatcher(None, str(word), close[0]).ratio()
        close = [c for c in close if difflib.SequenceMatcher(None, str(word), c).ratio() >= best - 0.1]
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def key_summary(names: Iterable[str]) -> str:
    """Keys listed for a reader: a family of more than four keys under one prefix as ``prefix.*``."""
    families: dict[str, list[str]] = {}
    for name in sorted(set(names)):
        families.setdefault(name.rsplit(".", 1)[0] if "." in name else name, []).append(name)
    return ", ".join(f"{head}.*" if len(group) > 4 else ", ".join(group) for head, group in families.items())


def unknown_key(name: str, keys: Iterable[str], shown_keys: Iterable[str] | None = None) -> OptionError:
    """``'name' is an unknown key (did you mean 'x'?)``, or with no close match among ``keys``
    (in any case) ``...; the keys: ...`` (:func:`key_summary` of ``shown_keys``, default ``keys``)."""
    keys = list(keys)
    close = suggest(str(name).strip().lower(), [k.lower() for k in keys])
    for key in keys:  # the close matches as the keys are written (royalties.front.QQ)
        close = close.replace(repr(key.lower()), repr(key))
    listed = close or f"; the keys: {key_summary(keys if shown_keys is None else shown_keys)}"
    return OptionError(f"{shown(str(name).strip())} is an unknown key{listed}")


def as_enum(path: str, cls: type[E], value: object) -> E:
    """``value`` as a member of ``cls``: its ID in any case, or the ID without its prefix."""
    if isinstance(value, cls):
        return value
    text = str(value).strip().upper()
    by_value = {m.value.upper(): m for m in cls}
    if text in by_value:
        return by_value[text]
    tail = [m for m in cls if m.value.upper().endswith("-" + text)]
    if len(tail) == 1:
        return tail[0]
    allowed = ", ".join(m.value for m in cls)
    close = suggest(str(value), [m.value for m in cls])
    raise invalid(path, value, f"expected one of {allowed}{close}")


def expected_number(word: str | None = None, noun: str = "units") -> str:
    """The reason for a value that is no number: ``expected a number``, or for an option that
    may also be a word, ``expected a number of units, or none``."""
    return f"expected a number of {noun}, or {word}" if word else "expected a number"


def as_number(path: str, value: object, *, minimum: float = 0.0, strict: bool = False,
              integer: bool = False, noun: str = "units", word: str | None = None) -> int | float:
    """A finite number ``>= minimum`` (``> minimum`` if ``strict``) and ``<= MAX_NUMBER``;
    integral values become int. Every numeric rule of both games is read through here, so a
    number of any size (an int of 400 digits) gets this one-line refusal. ``word`` is what the
    option takes besides a number (``none``), named when the value is neither."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise invalid(path, value, expected_number(word, noun))
    try:
        number = float(value)
    except OverflowError:  # an int (or fraction) beyond float64: out of range on its side
        number = math.inf if value > 0 else -math.inf
    else:
        if not math.isfinite(number):
            raise invalid(path, value, "expected a finite number")
    if integer and math.isfinite(number) and not number.is_integer():
        raise invalid(path, value, "expected a whole number")
    if number < minimum or (strict and number == minimum):
        raise invalid(path, value, f"{noun} must be {'>' if strict else '>='} {minimum:g}")
    if number > MAX_NUMBER:
        raise invalid(path, value, f"{noun} must be at most {MAX_NUMBER:g}")
    return int(number) if number.is_integer() else number


def as_fraction(path: str, value: object, *, of: str, below: bool = False) -> int | float:
    """A number from 0 to 1 (``below`` 1 when 1 is not allowed), ``of`` what it is a fraction
    (``the pot``). Every fraction-valued rule is read through here, so a percentage written for
    a fraction (5 for 5%) gets the fraction it likely means: ``(did you mean 0.05, 5%?)``."""
    number = as_number(path, value, noun="fractions")
    if number > 1 or (below and number == 1):
        guess = number / 100
        likely = 1 < number <= 100 and not (below and guess == 1)
        hint = f" (did you mean {guess:g}, {number:g}%?)" if likely else ""
        raise invalid(path, value, f"a fraction of {of}, {'below' if below else 'at most'} 1{hint}")
    return number


def as_bool(path: str, value: object) -> bool:
    """A real ``bool`` (``numpy.bool_`` accepted)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise invalid(path, value, "expected True or False")



def as_component(path: str, cls: type, value: object, from_id: Any = None) -> Any:
    """``value`` as a rule component ``cls``: itself, a mapping of its fields (unknown keys
    refused with close matches) or, with ``from_id``, a rulebook ID that names one."""
    if isinstance(value, cls):
        return value
    if isinstance(value, Mapping):
        known = [f.name for f in fields(cls)]
        for key in value:
            if key not in known:
                raise unknown_key(f"{path}.{key}", [f"{path}.{k}" for k in known])
        return cls(**value)
    if from_id is not None and isinstance(value, (str, StrEnum)):
        return from_id(value)
    raise invalid(path, value, f"expected a {cls.__name__} or a mapping of its options")
