"""Variant files: a variant saved as TOML or JSON and read back, to share or edit by hand.

A file holds the variant string ``variant = "2-4(royalties=R-TW)"`` (the one identity: it is what
:func:`~cpstats.engine.registry.load_variant` builds the variant from), an optional ``label`` and
``description``, and a ``rules`` table with every option in full (:meth:`Variant.to_dict`) for
a reader. On reading, the rules must agree with the string field by field, so a hand edit of
the rules alone is refused instead of being silently ignored. TOML has no null: an option that
is ``None`` (no cap, no stakes matrix) is left out of the TOML rules table, and a missing key
reads as ``None``. TOML is read with the standard library's :mod:`tomllib` and written with
``tomli-w`` (strings escaped, floats, nested tables and arrays written to the TOML 1.0 grammar).
Both formats are read as UTF-8 with or without a byte order mark (Windows editors write one).

This module works on plain dicts; :mod:`cpstats.thirteen.rules.variant` turns them into variants.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from cpstats._atomic import atomic_path, writable_file
from cpstats.errors import OptionError
from cpstats.rules.check import unknown_key

__all__ = ["SUFFIXES", "VariantFile", "variant_path", "write_file", "read_file", "first_difference",
           "unknown_rule", "folder_error"]

#: The file formats a variant is saved in, by suffix.
SUFFIXES = (".toml", ".json")
_KEYS = ("variant", "label", "description", "rules")


class VariantFile(NamedTuple):
    """A variant file as read: the variant string, its label and description, its rules."""

    variant: str
    label: str | None
    description: str | None
    rules: dict[str, Any] | None


def variant_path(path: object) -> Path:
    """``path`` as a :class:`~pathlib.Path` ending in ``.toml`` or ``.json`` (any case)."""
    if not isinstance(path, (str, os.PathLike)) or not str(os.fspath(path)).strip():
        raise OptionError(f"path={path!r} is invalid: name a .toml or .json file")
    out = Path(os.fspath(path))
    if out.suffix.lower() not in SUFFIXES:
        raise OptionError(f"path={str(out)!r} is invalid: a variant file ends in .toml or .json")
    return out


def folder_error(path: str | os.PathLike) -> OptionError:
    """The one line for a folder given where a variant is expected, naming the variant files in
    it (the first few) or what one is."""
    folder = Path(os.fspath(path))
    try:
        files = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file())
    except OSError:
        files = []
    inside = (f"variant files there: {', '.join(files[:5])}{', ...' if len(files) > 5 else ''}" if files
              else "it holds no .toml or .json file")
    return OptionError(f"{str(os.fspath(path))!r} is a folder, not a variant: give a variant file (.toml or "
                       f".json, as a variant's to_file writes; {inside}), a preset name or a variant string")


def _drop_none(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_drop_none(v) for v in value]
    return value


def write_file(path: str | os.PathLike, text: str, rules: Mapping[str, Any], *,
               label: str | None = None, description: str | None = None) -> Path:
    """Write the variant string ``text`` and its ``rules`` to ``path`` (format by suffix).

    Missing parent folders are created; an existing file is replaced.
    """
    out = variant_path(path)
    doc: dict[str, Any] = {"variant": text}
    for key, value in (("label", label), ("description", description)):
        if value is not None and not isinstance(value, str):
            raise OptionError(f"{key}={value!r} is invalid: a string, or None for none")
        if value is not None:
            doc[key] = value
    if out.suffix.lower() == ".toml":
        import tomli_w

        body = tomli_w.dumps({**doc, "rules": _drop_none(rules)})
    else:
        body = json.dumps({**doc, "rules": rules}, indent=2) + "\n"
    with atomic_path(writable_file("path", out)) as tmp:
        tmp.write_text(body, encoding="utf-8")
    return out


def _parse(path: Path) -> Any:
    kind = path.suffix.lower()[1:].upper()
    try:
        text = path.read_text(encoding="utf-8-sig")
        if kind == "TOML":
            import tomllib

            return tomllib.loads(text)
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:  # tomllib's and json's decode errors included
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise OptionError(f"{str(path)!r} does not read as {kind}: {reason}") from None


def read_file(path: str | os.PathLike) -> VariantFile:
    """Read a variant file written by :func:`write_file` (or by hand) without building the variant.

    Raises
    ------
    OptionError
        For a wrong suffix, a missing file, a file that does not parse, an unknown key or a key
        of the wrong type.
    """
    where = variant_path(path)
    if where.is_dir():
        raise folder_error(where)
    if not where.is_file():
        raise OptionError(f"path={str(where)!r} is invalid: no such variant file")
    data = _parse(where)
    if not isinstance(data, dict):
        raise OptionError(f"{str(where)!r} is invalid: expected a table with variant = \"...\"")
    for key in data:
        if key not in _KEYS:
            raise OptionError(f"{str(where)!r}: {unknown_key(key, _KEYS)}")
    if not isinstance(data.get("variant"), str):
        raise OptionError(f"{str(where)!r}: variant={data.get('variant')!r} is invalid: the variant "
                          "string, e.g. variant = \"preset(key=value,...)\"")
    for key, kind in (("label", str), ("description", str), ("rules", dict)):
        if key in data and not isinstance(data[key], kind):
            raise OptionError(f"{str(where)!r}: {key}={data[key]!r} is invalid: expected a "
                              f"{'table' if kind is dict else 'string'}")
    return VariantFile(data["variant"], data.get("label"), data.get("description"), data.get("rules"))


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(value, Mapping):
        return {prefix: value}
    out: dict[str, Any] = {}
    for key, item in value.items():
        out.update(_flat(item, f"{prefix}.{key}" if prefix else str(key)))
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def unknown_rule(expected: Mapping[str, Any], found: Mapping[str, Any]) -> str | None:
    """The first dotted key of ``found`` that is no option of ``expected`` (an option that is
    None, such as no cap, is one), or None."""
    options = _flat(expected)
    return next((key for key in _flat(found) if key not in options), None)


def first_difference(expected: Mapping[str, Any], found: Mapping[str, Any]) -> tuple | None:
    """``(key, found, expected)`` of the first option where ``found`` differs, or None.

    Keys are dotted (``royalties.front_trips``), in :meth:`Variant.to_dict` order, then any key
    of ``found`` that is not an option (``expected`` None). A missing key reads as None (check
    :func:`unknown_rule` first to tell a key that is no option from one that differs).
    """
    want, have = _flat(_drop_none(expected)), _flat(_drop_none(found))
    for key, value in want.items():
        if not _same(have.get(key), value):
            return key, have.get(key), value
    for key, value in have.items():
        if key not in want:
            return key, value, None
    return None
