"""Exception types. Every error cpstats raises on bad input is a ``ValueError``."""

from __future__ import annotations

import functools
import numbers
import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["CpstatsError", "CardError", "OptionError", "check_whole", "shown", "renamed",
           "deprecated_alias", "deprecated_constants"]

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


def renamed(old: str, new: str, old_value: object, value: object, default: object = None,
            *, note: str = "", stacklevel: int = 3) -> object:
    """``value``, or ``old_value`` given under a keyword's former name ``old`` (None when not
    given): then a DeprecationWarning says to use ``new=`` (``note`` tells how), and both given
    (``value`` not its ``default``) is one OptionError line. Old names stay one release."""
    if old_value is None:
        return value
    if value is not default and value != default:
        raise OptionError(f"{old}= and {new}= are the same option: give {new}= only ({old}= is deprecated)")
    warnings.warn(f"{old}= is deprecated and goes in the next release: use {new}={note or repr(old_value)}",
                  DeprecationWarning, stacklevel=stacklevel)
    return old_value


def _warn_old(old: str, new: str, stacklevel: int) -> None:
    warnings.warn(f"{old} is deprecated and goes in the next release: use {new}",
                  DeprecationWarning, stacklevel=stacklevel + 1)


def deprecated_alias(old: str, new: str, target: Callable) -> Callable:
    """``target`` under a former public name ``old``: each call warns (a DeprecationWarning naming
    ``new``, the replacement) and does exactly what ``target`` does, so an old name never has an
    implementation of its own. Old names stay one release; nothing in cpstats calls them."""
    @functools.wraps(target)
    def alias(*args: Any, **kwargs: Any) -> Any:
        _warn_old(old, new, 2)
        return target(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated (goes in the next release): use {new}, which this calls."
    return alias


def deprecated_constants(module: str, names: dict[str, tuple[str, Callable[[], object]]]
                         ) -> Callable[[str], object]:
    """A ``__getattr__`` for ``module`` serving former constants: ``names`` maps an old name to its
    replacement's words and a function giving its value; reading one warns as
    :func:`deprecated_alias` does, and any other missing name is the usual AttributeError."""
    def __getattr__(name: str) -> object:
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new, value = names[name]
        _warn_old(name, new, 2)
        return value()

    return __getattr__
