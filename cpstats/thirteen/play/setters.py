"""Setters as named objects: a setter carries its own settings (as a scikit-learn estimator keeps
its parameters), so nothing above the play layer threads ``tables`` through its keywords.

- :class:`EvSetter` ``(tables=None)``: the rule-aware ``ev`` setter; ``tables`` None plays the
  variant's own row tables, a preset name or variant string borrows that variant's, or
  :class:`~cpstats.thirteen.play.RowTables` are used as given.
- :class:`GreedySetter` ``()`` and :class:`RandomSetter` ``()``: the weak baselines.
- :class:`~cpstats.thirteen.play.house_way.HouseWaySetter` ``()`` (``"house-way"``): the banked
  game's house way, the dealer's fixed rules; neither good play nor a baseline. It is defined
  beside its rules and joins :data:`SETTERS` when :mod:`cpstats.thirteen.play` is imported.

Each is a :class:`HandSetter`, the 13-card game's extension of the setter contract every game's
setters share (:class:`cpstats.engine.setter.Setter`): frozen, named (``name``), recording its settings
(:meth:`~cpstats.engine.setter.Setter.params`, what a result's ``metadata["setter"]`` holds), with a
readable repr. A name selects the default object (:func:`as_setter`: ``"ev"`` is ``EvSetter()``).
A hand setter is a strategy too (call it with hands and a variant), and :meth:`HandSetter.bind`
resolves what it needs for a variant once (ev's tables, trained if need be) before the blocks run.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

import numpy as np

from cpstats.errors import OptionError
from cpstats.thirteen.rules.variant import GAME, Variant
from cpstats.engine.setter import Setter
from cpstats.thirteen.play.api import Decisions, get_strategy
from cpstats.thirteen.play.baselines import greedy, random_setter
from cpstats.thirteen.play.ev_setter import ev
from cpstats.thirteen.play.row_tables import RowTables, load_tables

__all__ = ["Setter", "HandSetter", "EvSetter", "GreedySetter", "RandomSetter", "SETTERS", "BASELINES", "as_setter",
           "setter_label", "setter_params", "result_setter"]


@dataclass(frozen=True)
class HandSetter(Setter):
    """A 13-card setter: a named, frozen :class:`~cpstats.engine.setter.Setter` whose :meth:`bind` gives
    the strategy that sets a variant's hands; subclasses set ``name`` and :meth:`bind`."""

    game: ClassVar[str] = GAME

    def plain(self, value: Any) -> Any:
        """Row tables by the variant they were trained for, a variant as its string."""
        return _plain(value)

    @abstractmethod
    def bind(self, variant: Variant) -> tuple[Callable[..., Any], dict[str, Any]]:
        """(strategy, keywords) that set ``variant``'s hands, resolved once for many blocks."""

    def __call__(self, hands: np.ndarray, variant: Variant, *,
                 rng: np.random.Generator | None = None) -> Decisions:
        fn, keywords = self.bind(variant)
        return fn(hands, variant, rng=rng, **keywords)


def _plain(value: Any) -> Any:
    """A setting as the metadata shows it: a variant as its string, row tables by what they were
    trained for."""
    if isinstance(value, RowTables):
        return f"RowTables({value.variant})"
    if isinstance(value, Variant):
        return str(value)
    return value


@dataclass(frozen=True)
class EvSetter(HandSetter):
    """The rule-aware ``ev`` setter with the row tables it plays against (see the module)."""

    tables: str | Variant | RowTables | None = None
    name: ClassVar[str] = "ev"

    def __post_init__(self) -> None:
        if self.tables is not None and not isinstance(self.tables, (str, Variant, RowTables)):
            raise OptionError(f"tables={self.tables!r} is invalid: None, a preset name or variant "
                              "string whose tables to borrow, or RowTables")

    def bind(self, variant: Variant) -> tuple[Callable[..., Any], dict[str, Any]]:
        return ev, {"tables": load_tables(variant, tables=self.tables)}


@dataclass(frozen=True)
class GreedySetter(HandSetter):
    """The ``greedy`` baseline: the strongest back, then middle (a weak setter)."""

    name: ClassVar[str] = "greedy"

    def bind(self, variant: Variant) -> tuple[Callable[..., Any], dict[str, Any]]:
        return greedy, {}


@dataclass(frozen=True)
class RandomSetter(HandSetter):
    """The ``random`` baseline: a uniform draw among the legal settings (no skill)."""

    name: ClassVar[str] = "random"

    def bind(self, variant: Variant) -> tuple[Callable[..., Any], dict[str, Any]]:
        return random_setter, {}


#: The weak setters (they never surrender): their figures are named as a baseline's. The house
#: way is not one: it is the dealer's fixed rules, named as such.
BASELINES = (GreedySetter, RandomSetter)

#: The built-in setters by name; a name selects the class's default object (``"house-way"`` is
#: added by :mod:`cpstats.thirteen.play`, since its module imports this one).
SETTERS: dict[str, type[HandSetter]] = {"ev": EvSetter, "greedy": GreedySetter, "random": RandomSetter}


def as_setter(setter: Any) -> HandSetter | str | Callable[..., Any]:
    """A 13-card setter object for a built-in name or a setter object; another registered
    strategy's name or a callable is returned as it is (after checking the name exists)."""
    if isinstance(setter, Setter):
        if not isinstance(setter, HandSetter):
            raise OptionError(f"setter={setter!r} is an {setter.game} setter: 13-card setters are "
                              f"{', '.join(SETTERS)}, EvSetter(...), GreedySetter(), RandomSetter(), "
                              "HouseWaySetter()")
        return setter
    if isinstance(setter, str) and setter.strip().lower() in SETTERS:
        return SETTERS[setter.strip().lower()]()
    if not callable(setter):
        get_strategy(setter)  # an unknown name is one line listing the known ones
    return setter


def setter_label(setter: Any) -> Any:
    """A setter as a message names it: the name of a built-in at its defaults, else as given."""
    return setter.name if isinstance(setter, Setter) and setter == type(setter)() else setter


def setter_params(setter: Any) -> dict[str, Any]:
    """What the metadata records of a setter: its :meth:`~Setter.params`, or the name of a
    registered strategy or a callable."""
    if isinstance(setter, Setter):
        return setter.params()
    if isinstance(setter, str):
        return {"name": setter}
    return {"name": getattr(setter, "__name__", repr(setter))}


def result_setter(metadata: dict) -> Any:
    """The setter that a run's ``metadata`` records, to play more deals the same way: ev with
    the row tables it used (borrowed by the variant they were trained for), or the name."""
    name = metadata.get("strategy", "ev")
    tables = (metadata.get("tables") or {}).get("trained_for")
    if name == "ev":
        return EvSetter(tables=tables)
    return as_setter(name) if isinstance(name, str) and name in SETTERS else name
