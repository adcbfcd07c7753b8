"""Exception types. Every error cpstats raises on bad input is a ``ValueError``."""

from __future__ import annotations

import numbers

__all__ = ["CpstatsError", "CardError", "OptionError", "check_whole", "shown"]

_SHOWN = 60


class CpstatsError(ValueError):
    """Base class of every input error raised by cpstats."""


class CardError(CpstatsError):
    """A card, a hand or a setting is malformed (unknown token, duplicate, wrong count)."""


class OptionError(CpstatsError):
    """An option, a name or a numeric argument is not one of the allowed values."""


def shown(value: object, *, quote: bool = True) -> str:
    """``value`` as an error message shows it (strings quoted, unless ``quote`` is False), a long
    one cut to its ends and its length, so that a 400-digit number still gives a readable
    one-line message."""
    text = repr(value) if isinstance(value, str) and quote else str(value)
    if len(text) > _SHOWN:
        return f"{text[:12]}...{text[-6:]} ({len(text)} characters)"
    return text


def check_whole(name: str, value: object, minimum: int, why: str = "") -> int:
    """``value`` as an int when it is a whole number (numpy's too, never a bool) >= ``minimum``;
    else one OptionError line naming ``name``, what is allowed and, if given, ``why``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        detail = f" ({why})" if why else ""
        raise OptionError(f"{name}={shown(value)} is invalid: a whole number >= {minimum}{detail}")
    return int(value)
