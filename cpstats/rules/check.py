"""Checking helpers shared by the rules modules: every bad option becomes one
:class:`~cpstats.errors.OptionError` of the form ``path=value is invalid: reason``."""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import fields
from enum import StrEnum
from typing import Any, TypeVar

import numpy as np

from cpstats.errors import OptionError, shown

E = TypeVar("E", bound=StrEnum)

#: The largest number any rule takes (amounts, stakes, payouts, paces): 10^9. With it a deal's
#: nets stay far inside float64 even raised to the fourth power (the summaries' power sums).
MAX_NUMBER = 1e9


def invalid(path: str, value: object, reason: str) -> OptionError:
    """The error for an invalid option: ``path=value is invalid: reason``."""
    return OptionError(f"{path}={shown(value)} is invalid: {reason}")


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for close matches of ``word`` among ``choices``, or ``""``."""
    close = difflib.get_close_matches(str(word), list(choices), n=3, cutoff=0.5)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


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


def as_number(path: str, value: object, *, minimum: float = 0.0, strict: bool = False,
              integer: bool = False, noun: str = "units") -> int | float:
    """A finite number ``>= minimum`` (``> minimum`` if ``strict``) and ``<= MAX_NUMBER``;
    integral values become int. Every numeric rule of both games is read through here, so a
    number of any size (an int of 400 digits) gets this one-line refusal."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise invalid(path, value, "expected a number")
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
        raise invalid(path, value, f"{noun} must be at most {MAX_NUMBER:g} (MAX_NUMBER)")
    return int(number) if number.is_integer() else number


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
                raise invalid(f"{path}.{key}", value[key], f"unknown option{suggest(key, known)}")
        return cls(**value)
    if from_id is not None and isinstance(value, (str, StrEnum)):
        return from_id(value)
    raise invalid(path, value, f"expected a {cls.__name__} or a mapping of its options")
