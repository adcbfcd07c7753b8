"""Additive block summaries: frozen dataclasses of arrays that add block by block (``a + b``).

A game's summary type declares each array as a field with :func:`summed`, :func:`largest` or
:func:`by_value`; its key set, its arrays on disk (under the keys block files and shipped
results have always used, so they read unchanged), reading them back and the sum of two
summaries all derive from those fields, so no list of keys is written twice.

- Decision: fields default to None so a result saved before an array was recorded still loads;
  a field without ``optional`` is required (a summary missing it does not construct), and an
  ``optional`` field says which results lack it (``"summary format 4"``, ``"banked games"``).
- Decision: addition keeps the operand order and arithmetic of the old dict merge, so a run
  merged in block order is bit-identical to one merged before summaries were typed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np

from cpstats.errors import OptionError

__all__ = ["Additive", "summed", "largest", "by_value"]

T = TypeVar("T", bound="Additive")


def _field(key: str, merge: str, optional: str | None, values: str | None = None) -> Any:
    return dataclasses.field(default=None, metadata={"key": key, "merge": merge,
                                                     "optional": optional, "values": values})


def summed(key: str, *, optional: str | None = None) -> Any:
    """A field of counts or sums: adds element by element. ``key`` is its name on disk."""
    return _field(key, "sum", optional)


def largest(key: str, *, optional: str | None = None) -> Any:
    """A field of maxima (the largest pot): merged by the larger value."""
    return _field(key, "max", optional)


def by_value(key: str, values: str, *, optional: str | None = None) -> Any:
    """A field kept by value, one row per entry of field ``values`` (sorted): merged on the union
    of the two summaries' values (the net distribution). ``values`` itself is a
    :func:`by_value` field naming itself."""
    return _field(key, "value", optional, values)


class Additive:
    """Base of the games' block summaries (subclasses are ``@dataclass(frozen=True)``)."""

    def __post_init__(self) -> None:
        missing = [f.metadata["key"] for f in dataclasses.fields(self)
                   if f.metadata["optional"] is None and getattr(self, f.name) is None]
        if missing:
            raise OptionError(f"{type(self).__name__} is incomplete: no {', '.join(missing)} arrays")

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """Every array's key on disk, in field order."""
        return tuple(f.metadata["key"] for f in dataclasses.fields(cls))

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The arrays under their keys on disk (fields that are None left out)."""
        return {f.metadata["key"]: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) is not None}

    @classmethod
    def from_arrays(cls: type[T], arrays: Mapping[str, Any]) -> T:
        """The summary of arrays under their keys on disk (a block file, a saved result)."""
        names = {f.metadata["key"]: f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(arrays) - set(names))
        if unknown:
            raise OptionError(f"arrays {', '.join(unknown)} are not in a {cls.__name__}: "
                              f"a summary of another game or layout")
        return cls(**{names[k]: np.asarray(x) for k, x in arrays.items()})

    def __add__(self: T, other: T) -> T:
        if type(other) is not type(self):
            return NotImplemented
        merged: dict[str, Any] = {}
        places: dict[str, tuple] = {}  # value field -> (union, rows of self, rows of other)
        for f in dataclasses.fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if a is None or b is None:
                if a is not None or b is not None:
                    raise OptionError(f"summaries of two layouts do not add: only one holds "
                                      f"{f.metadata['key']}")
                merged[f.name] = None
            elif f.metadata["merge"] == "sum":
                merged[f.name] = a + b
            elif f.metadata["merge"] == "max":
                merged[f.name] = np.maximum(a, b)
            else:
                where = f.metadata["values"]
                if where not in places:
                    mine, theirs = getattr(self, where), getattr(other, where)
                    union = np.union1d(mine, theirs)
                    places[where] = union, np.searchsorted(union, mine), np.searchsorted(union, theirs)
                union, old, new = places[where]
                if where == f.name:
                    merged[f.name] = union
                    continue
                out = np.zeros((len(union), a.shape[1]), dtype=a.dtype)
                out[old] += a
                out[new] += b
                merged[f.name] = out
        return type(self)(**merged)
