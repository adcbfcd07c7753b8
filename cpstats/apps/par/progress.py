"""The progress lines of a PAR sheet being built: each stage (the run, the sensitivity sweeps, the
strength table, the bank's edge by seats, the tables and charts, the files), the hands played so
far and an estimate of the time left, one line each, handed to a callback (``cpstats par`` prints
them on stderr; ``--quiet`` hides them).

- Decision: the estimate is the pace so far (seconds a hand over the hands played, work that
  plays none left out) times the hands still planned: this stage's and the later stages' the
  sheet knows (a run grown to a precision counts its current stage as its last). It is rough
  where stages play at different paces (a strength match's fields, a 13-card point that first
  trains its tables) and unknown before a first stage has played; the line then gives none
  rather than guess.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["SheetProgress", "as_progress", "time_words"]


def time_words(seconds: float) -> str:
    """A duration for a progress line: ``40 s``, ``3 min``, ``1 h 5 min``.

    Examples
    --------
    >>> time_words(0.2), time_words(40.4), time_words(200), time_words(3900)
    ('1 s', '40 s', '3 min', '1 h 5 min')
    """
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


class SheetProgress:
    """Progress of one sheet's build, told line by line to ``say`` (None: silent); ``unit``
    names what a game's runs count (``deals``, ``hands``).

    :meth:`plan` names the hands a later stage will play; :meth:`playing` starts a stage or a
    point of one that plays ``hands`` (its line says the hands so far and the time left);
    :meth:`step` starts work that plays no hands (reading a run, drawing, writing a file);
    :meth:`on_point` is a sweep's callback, a line a point. A game's sheet builder is handed one
    (the protocol :class:`cpstats.engine.sheet.SheetProgress`)."""

    def __init__(self, say: Callable[[str], Any] | None, unit: str = "hands"):
        self.say, self.unit = say, unit
        self.played, self.seconds = 0, 0.0
        self.planned: dict[str, int] = {}
        self._open: tuple[int, float] | None = None

    def plan(self, stage: str, hands: int) -> None:
        """The hands ``stage`` will play (counted in the estimates until it plays them)."""
        self.planned[stage] = int(hands)

    def playing(self, stage: str, what: str, hands: int) -> None:
        """``what`` (a stage, or a point of ``stage``) starts playing ``hands``."""
        self._close()
        left = self.planned.get(stage)
        if left is not None:
            self.planned[stage] = max(left - int(hands), 0)
        if self.say is not None:
            line = f"{what}: {hands:,} {self.unit}"
            if self.played:
                left = self.seconds / self.played * (hands + sum(self.planned.values()))
                line += (f" ({self.played:,} played so far in {time_words(self.seconds)}; about "
                         f"{time_words(left)} left)")
            self.say(line)
        self._open = (int(hands), time.monotonic())

    def step(self, what: str) -> None:
        """``what`` starts, playing no hands (its time is left out of the pace)."""
        self._close()
        if self.say is not None:
            self.say(what)

    def on_point(self, key: str, values: Sequence, deals: int,
                 known: Mapping[str, Any] | None = None) -> Callable[[int, Any], None]:
        """The ``on_point`` of a sweep of ``key`` over ``values``, ``deals`` a point: a line a
        point (a point read from ``known``, by its variant string, is not played and says so)."""
        def on_point(i: int, point: Any) -> None:
            what = f"the sensitivity sweeps: {key}={values[i]}, point {i + 1} of {len(values)}"
            if known is not None and str(point) in known:
                self.step(f"{what}: the sheet's own {self.unit}" + (", charged again" if i else ""))
            else:
                self.playing("sweeps", what, deals)
        return on_point

    def _close(self) -> None:
        if self._open is not None:
            hands, start = self._open
            self.played += hands
            self.seconds += time.monotonic() - start
            self._open = None


def as_progress(progress: Any, unit: str) -> SheetProgress:
    """``progress`` as a :class:`SheetProgress`: one already (a sheet's builder handed it on), a
    callable taking a line, or None (silent)."""
    return progress if isinstance(progress, SheetProgress) else SheetProgress(progress, unit)
