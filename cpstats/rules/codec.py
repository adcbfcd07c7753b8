"""What both games' variant string codecs share: a rule component as plain JSON-ready data, one
value as override text and back, the ``preset(key=value,...)`` shape, and the :class:`Key` that
reads and writes one place of a variant's plain dict.

Each game's codec (:mod:`cpstats.thirteen.rules.text`, :mod:`cpstats.ofc.rules`) declares its
own keys with these.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cpstats.errors import OptionError
from cpstats.rules.check import expected_number, invalid
from cpstats.rules.house import Stakes

__all__ = ["Dict", "ESCAPES", "Key", "plain", "fmt_number", "parse_number", "parse_bool", "to_text",
           "escape", "unescape", "split_variant", "TRUE_WORDS", "FALSE_WORDS"]

Dict = dict[str, Any]

TRUE_WORDS, FALSE_WORDS = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}
#: The string's own syntax, escaped inside a value.
ESCAPES = {"%": "%25", ",": "%2C", "(": "%28", ")": "%29", "=": "%3D"}


def plain(value: Any) -> Any:
    """JSON-ready form: enums as IDs, dataclasses as dicts, tuples as lists."""
    if isinstance(value, Stakes):
        return plain(value.matrix)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


# -- value text -------------------------------------------------------------------------------

def fmt_number(value: float | int) -> str:
    return str(value) if isinstance(value, int) else repr(float(value))


def parse_number(key: str, text: str, word: str | None = None) -> int | float:
    """``text`` as an int or a float; ``word`` is what the key takes besides a number (``none``),
    named in the refusal of a text that is neither."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise invalid(key, text, expected_number(word)) from None


def parse_bool(key: str, text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE_WORDS | FALSE_WORDS:
        return word in TRUE_WORDS
    raise invalid(key, text, "expected true or false")


def to_text(value: Any) -> str:
    """Python value -> override text (for :meth:`Variant.replace`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, StrEnum):
        return value.value
    if value is None:
        return "none"
    if isinstance(value, (int, float)):
        return fmt_number(value)
    if isinstance(value, Mapping):
        value = list(value.items())
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "/".join(":".join(to_text(v) for v in item)
                        if isinstance(item, Sequence) and not isinstance(item, str)
                        else to_text(item) for item in value)
    return str(value)


def escape(text: str) -> str:
    return "".join(ESCAPES.get(c, c) for c in text)


def unescape(text: str) -> str:
    for char, code in ESCAPES.items():
        text = text.replace(code, char).replace(code.lower(), char)
    return text


@dataclass(frozen=True)
class Key:
    """One override key: read its text from a plain dict, or write parsed text into one;
    ``covers`` names the options it writes beyond its own name, so a refusal of one of them
    names this key as the user wrote it (:func:`~cpstats.rules.check.as_written`); ``path`` is
    where a key of one number lives in the variant (attribute names, an int indexing a tuple), so
    its type can be read from the dataclasses (:func:`cpstats.engine.registry.holds_whole_numbers`)."""

    name: str
    read: Callable[[Dict], str | None]
    write: Callable[[Dict, str], None]
    emit: bool = True
    covers: tuple[str, ...] = ()
    path: tuple[str | int, ...] = ()


def split_variant(text: str) -> tuple[str, str]:
    """``(preset name, overrides)`` of a variant string; the overrides are the text between the
    brackets, ``""`` without them. Only the shape is checked here, not the name or the keys."""
    if not isinstance(text, str):
        raise OptionError(f"a variant string is expected, got {text!r}")
    match = re.fullmatch(r"\s*([^(),=]+?)\s*(?:\((.*)\))?\s*", text, flags=re.S)
    if match is None:
        raise OptionError(f"malformed variant string {text!r}: "
                          "write preset or preset(key=value,...)")
    name, body = match.groups()
    return name, body or ""
