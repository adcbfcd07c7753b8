"""The setter contract every game's setters share: a named, frozen object that carries its own
settings (as a scikit-learn estimator keeps its parameters), so nothing above the play layers
threads a setter's options through its keywords.

:class:`Setter` gives every setter its ``name`` (the name that selects its default object),
``game`` (its game's registered name: a verb refuses another game's setter in one line),
``params()`` (its name and settings as plain values: what a run's ``metadata["setter"]`` records)
and ``label`` (how a message or a caption names it). Each game extends it with what its play reads
(:class:`cpstats.thirteen.play.setters.HandSetter`: ``bind``, the strategy that sets a 13-card hand;
:class:`cpstats.ofc.setters.HandSetter`: the placement strategy a seat plays), and every subclass
implements every method of its base: none refuses one.

- Decision: the base sits at the bottom of the package, beside :mod:`cpstats.errors`, because the
  13-card setters live on the play layer (:mod:`cpstats.thirteen.play`) and open face's in its own
  package: the one place both can import without importing each other is below them all.
"""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass, fields
from typing import Any, ClassVar

__all__ = ["Setter"]


@dataclass(frozen=True)
class Setter(ABC):
    """A named, frozen setter of one game; subclasses set ``name`` and ``game``."""

    name: ClassVar[str] = ""
    game: ClassVar[str] = ""

    def params(self) -> dict[str, Any]:
        """The setter's name and settings, as plain values (what the metadata records)."""
        return {"name": self.name, **{f.name: self.plain(getattr(self, f.name)) for f in fields(self)}}

    def plain(self, value: Any) -> Any:
        """A setting as :meth:`params` records it (a game's setter may show its objects as words:
        row tables by the variant they were trained for)."""
        return value

    @property
    def label(self) -> str:
        """How a message names the setter: its name at its defaults, else its repr."""
        try:
            default = type(self)()
        except (TypeError, ValueError):  # a setter with settings that have no defaults
            return repr(self)
        return self.name if self == default else repr(self)

