"""Open-face setters as named objects (open face's extension of the setter contract,
:class:`cpstats.engine.setter.Setter`, as :mod:`cpstats.thirteen.play.setters` is the 13-card game's): each
carries its own settings, so ``samples`` and ``top`` travel inside the setter.

- :class:`Rollout` ``(samples=32, top=24)``: the default, Monte Carlo rollouts with an exact
  endgame and learned street values (:mod:`cpstats.ofc.placement`: ``samples`` rollouts a
  surviving option, ``top`` options in the successive halving); :data:`STRONG_ROLLOUT`, the
  strong setting;
- :class:`RolloutExact` ``(samples=32, top=24)``: the previous default, the same rollouts without
  the street models; :class:`RolloutV1` ``(samples=32, top=24)``: the first rollout, frozen (the
  yardstick of matches);
- :class:`FastPolicy` ``()`` (``"fast"``): the same street models read without rollouts, for the
  runs that need many hands (:data:`~cpstats.ofc._place_kernel.FAST_TOP` options of best one-step
  value valued by each street's model, the last two streets exact); no settings, so its speed is
  one figure (docs/measurements.md#bench_ofc_play);
- :class:`GreedySetter` ``()`` and :class:`RandomSetter` ``()``: the baselines.

A name selects the default object (:func:`as_ofc_setter`): ``"rollout"``, ``"fast"``, ``"rollout-exact"``,
``"rollout-v1"``, ``"greedy"``, ``"random"``, and ``"ev"`` (each game's strong default's name) for
``Rollout()``. A 13-card setter object
(``EvSetter()``, ``GreedySetter()``, ...) is refused in one line, as a 13-card variant refuses an
open-face one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

from cpstats.errors import OptionError, check_whole
from cpstats.ofc.placement import DEFAULT_SAMPLES, DEFAULT_TOP, PLACEMENT_STRATEGIES
from cpstats.ofc.rules import GAME
from cpstats.engine.setter import Setter

__all__ = ["HandSetter", "Rollout", "RolloutExact", "RolloutV1", "FastPolicy", "STRONG_ROLLOUT",
           "GreedySetter", "RandomSetter", "OFC_SETTERS", "as_ofc_setter", "seat_setters", "seat_budget", "seats_label",
           "seats_params"]


@dataclass(frozen=True)
class HandSetter(Setter):
    """A named, frozen open-face setter: ``name`` is the placement strategy a seat plays
    (:data:`~cpstats.ofc.placement.PLACEMENT_STRATEGIES`, what
    :func:`~cpstats.ofc.play.play_hands` reads)."""

    game: ClassVar[str] = GAME


@dataclass(frozen=True)
class Rollout(HandSetter):
    """The default: Monte Carlo rollouts with an exact endgame, the earlier streets valued by the
    street models conditioned on the rules (:mod:`cpstats.ofc.street_values`; without a readable
    model file it plays as :class:`RolloutExact`); ``samples`` rollouts a surviving option, ``top``
    options enter the halving."""

    samples: int = DEFAULT_SAMPLES
    top: int = DEFAULT_TOP
    name: ClassVar[str] = "rollout"

    def __post_init__(self) -> None:
        check_whole("samples", self.samples, 1)
        check_whole("top", self.top, 1)


@dataclass(frozen=True)
class RolloutV1(Rollout):
    """The first rollout, frozen (no exact endgame; the default until the exact endgame beat it):
    the yardstick of duplicate matches and of how much the figures move with the play."""

    name: ClassVar[str] = "rollout-v1"


@dataclass(frozen=True)
class RolloutExact(Rollout):
    """The previous default: the rollouts and exact endgame of :class:`Rollout` without street
    models (``rollout`` beats it by +1.02 a hand in 2.3 times its time)."""

    name: ClassVar[str] = "rollout-exact"


@dataclass(frozen=True)
class FastPolicy(HandSetter):
    """The fast setting: each street decided by the default's street models without rollouts
    (the option whose board its street's model values best, among the options of best one-step
    value; the street before the last by the exact endgame, the last exactly). Without street
    models it plays as :class:`RolloutExact`, as the default does."""

    name: ClassVar[str] = "fast"


@dataclass(frozen=True)
class GreedySetter(HandSetter):
    """The best one-step evaluation a street (a baseline: a weak field)."""

    name: ClassVar[str] = "greedy"


@dataclass(frozen=True)
class RandomSetter(HandSetter):
    """A uniform draw among each street's legal options (a baseline: no skill)."""

    name: ClassVar[str] = "random"


#: The strong setting: four times the default's samples (3.5 times its time a hand), for the
#: studies that can wait; against the new default its gain is not shown (+0.10, -0.03..+0.22 a
#: hand over 10,000 deals; docs/measurements.md#bench_ofc_play).
STRONG_ROLLOUT = Rollout(samples=4 * DEFAULT_SAMPLES)

#: The open-face setters by name; ``ev`` is the strong one, as in the 13-card game.
OFC_SETTERS: dict[str, type[HandSetter]] = {"ev": Rollout, "rollout": Rollout,
                                           "fast": FastPolicy,
                                           "rollout-exact": RolloutExact, "rollout-v1": RolloutV1,
                                           "greedy": GreedySetter, "random": RandomSetter}


def as_ofc_setter(setter: Any, where: str = "setter") -> HandSetter:
    """The open-face setter for a name or an open-face setter object; a 13-card setter object or
    anything else is one line naming what is allowed."""
    if isinstance(setter, HandSetter):
        return setter
    if isinstance(setter, Setter) and getattr(setter, "tables", None) is not None:
        raise OptionError("tables= does not apply to open-face variants: their strategies need no "
                          "trained tables")
    if isinstance(setter, Setter):
        raise OptionError(f"{where}={setter!r} is a {setter.game} setter: open-face setters are "
                          f"{', '.join(OFC_SETTERS)}, Rollout(...), FastPolicy(), RolloutExact(...), RolloutV1(...), "
                          "GreedySetter(), RandomSetter()")
    key = setter.strip().lower() if isinstance(setter, str) else None
    if key not in OFC_SETTERS:
        given = f"{where} {setter!r} is invalid for an open-face preset" if where.startswith("--") \
            else f"{where}={setter!r} is invalid for an open-face variant"
        raise OptionError(f"{given}: allowed are ev "
                          f"(the same as rollout), {', '.join(PLACEMENT_STRATEGIES)}, or Rollout(...), "
                          "FastPolicy(), GreedySetter(), RandomSetter()")
    return OFC_SETTERS[key]()


def seat_setters(setter: Any, players: int) -> tuple[HandSetter, ...]:
    """One setter per seat: ``setter`` for every seat, or a sequence of one per seat."""
    if isinstance(setter, (str, Setter)):
        return (as_ofc_setter(setter),) * players
    seats = tuple(setter) if isinstance(setter, Sequence) else ()
    if len(seats) != players:
        raise OptionError(f"setter={setter!r} is invalid: one setter, or one per seat ({players} seats)")
    return tuple(as_ofc_setter(s, f"setter[{i}]") for i, s in enumerate(seats))


def seats_label(seats: Sequence[HandSetter]) -> str:
    """The run's strategy label: the seats' names, and a rollout budget other than the default
    (``rollout/rollout(samples=128,top=24)``); the label is part of the run's identity."""
    label = "/".join(s.name for s in seats)
    rollouts = [s for s in seats if isinstance(s, Rollout)]
    if any((s.samples, s.top) != (DEFAULT_SAMPLES, DEFAULT_TOP) for s in rollouts):
        samples = {s.samples for s in rollouts}
        shown = str(samples.pop()) if len(samples) == 1 else "/".join(str(s.samples) for s in rollouts)
        label += f"(samples={shown},top={rollouts[0].top})"
    return label


def seat_budget(seats: Sequence[HandSetter]) -> tuple[tuple[int, ...], int]:
    """(samples per seat, top) for :func:`~cpstats.ofc.play.play_hands`: the rollout seats'
    budgets (the baselines ignore theirs); the rollout seats share one ``top``."""
    tops = {s.top for s in seats if isinstance(s, Rollout)}
    if len(tops) > 1:
        raise OptionError(f"setter={tuple(seats)!r} is invalid: the rollout seats play one top "
                          f"(got {sorted(tops)})")
    samples = tuple(s.samples if isinstance(s, Rollout) else DEFAULT_SAMPLES for s in seats)
    return samples, tops.pop() if tops else DEFAULT_TOP


def seats_params(seats: Sequence[HandSetter]) -> dict[str, Any]:
    """What the metadata records: the setter's :meth:`~Setter.params` when every seat plays the
    same one, else the label and each seat's."""
    if len(set(seats)) == 1:
        return seats[0].params()
    return {"name": "/".join(s.name for s in seats), "seats": [s.params() for s in seats]}
