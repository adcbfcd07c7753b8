"""The engine's sweep: one rule key over several values, every point played on the deals of one
seed, each figure's estimate and its paired difference to the first point a row
(:func:`~cpstats.engine.paired.paired_row`). Every game's sweep is this one: a game that registers
none plays :class:`Sweep` as it is (its results' :meth:`~cpstats.engine.base.Result.figure_batches`),
and a game with figures of its own words subclasses it and overrides the hooks below.

- Decision: the loop, the row and the pairing are the engine's; a game says only what differs:
  which figures before anything runs (:meth:`Sweep.choose`), how a point is played
  (:meth:`Sweep.play`), its figures (:meth:`Sweep.figures`), the rule of a difference's interval
  (:meth:`Sweep.difference`), a figure's words (:meth:`Sweep.label`), the table's ``attrs``
  (:meth:`Sweep.attrs`) and where ``method`` stands among the columns (:attr:`Sweep.columns`).
- Decision: a sweep takes resolved objects (the verb :func:`cpstats.sweep` checked the points, the
  values and the setter once): the points are played as given, the setter is not resolved again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from cpstats.cards.blocks import root_seed
from cpstats.errors import check_whole
from cpstats.engine.base import Result
from cpstats.engine.defaults import setter_params
from cpstats.engine.paired import DIFFERENCE_COLUMNS, batch_difference, paired_row
from cpstats.engine.points import metric_names, sweep_variants
from cpstats.engine.registry import game_of
from cpstats.engine.stats import check_confidence

__all__ = ["Sweep", "SWEEP_COLUMNS", "sweep_figures"]

#: A sweep table's columns: the point, the figure, its estimate and interval, its paired difference.
SWEEP_COLUMNS = ("parameter", "value", "variant", "metric", "label", "estimate", "ci_low", "ci_high", "method",
                 *DIFFERENCE_COLUMNS)


@dataclass(frozen=True, kw_only=True)
class Sweep:
    """One sweep, resolved: ``key`` (the parameter as the table names it) set to each of ``values``
    in ``points`` (the variant ``v`` with the key at each value), ``deals`` a point from one root
    (``rng``), played by ``setter``; ``metrics`` the figures asked for (None: the game's choice),
    ``level`` the confidence of every interval. :meth:`table` plays it; the other methods are the
    hooks a game's sweep overrides (module docstring)."""

    v: Any
    key: str
    values: Sequence[Any]
    points: Sequence[Any]
    deals: int
    setter: Any
    level: float
    rng: Any = None
    metrics: Sequence[str] | None = None
    executor: Executor | None = None
    hands_per_hour: float | None = None
    block_deals: int | None = None
    on_point: Callable[[int, Any], None] | None = None
    simulate: Callable[..., Result] | None = None

    #: The table's columns in order (a game whose table has no ``method``, or another order, says so).
    columns: ClassVar[tuple[str, ...]] = SWEEP_COLUMNS

    def table(self) -> pd.DataFrame:
        """Every point played on the same deals: one row per point and figure, ``attrs`` from
        :meth:`attrs`. The figures are chosen before anything runs, or (:meth:`choose` None) from
        the first point's."""
        chosen = self.choose()
        root = root_seed(self.rng)
        rows: list[dict] = []
        results: list[Result] = []
        first: Mapping[str, Any] | None = None
        for i, (value, point) in enumerate(zip(self.values, self.points)):
            if self.on_point is not None:
                self.on_point(i, point)
            results.append(self.play(i, point, root, results))
            figures = self.figures(results[-1], chosen)
            first = figures if first is None else first
            chosen = self.names(figures) if chosen is None else chosen
            for m in chosen:
                base = first.get(m)
                same = i == 0 or self.unchanged(m, point, self.points[0])
                difference = None if base is None else self.difference(figures[m], base, same)
                rows.append({"parameter": self.key, "value": value, "variant": str(point), "metric": m,
                             "label": self.label(m, point), **paired_row(figures[m], base, difference)})
        frame = pd.DataFrame(rows, columns=list(self.columns))
        frame.attrs.update(self.attrs(root, results))
        return frame

    # -- the hooks ---------------------------------------------------------------------------------

    def choose(self) -> list[str] | None:
        """The figures of the table, checked before anything runs; None: :meth:`names` of the
        first point's figures."""
        return None

    def names(self, figures: Mapping[str, Any]) -> list[str]:
        """The figures of the table from the first point's: every one, or those asked for."""
        return list(figures) if self.metrics is None else metric_names(self.metrics, list(figures))

    def play(self, i: int, point: Any, root: np.random.SeedSequence, played: Sequence[Result]) -> Result:
        """Point ``i`` played on the sweep's deals (``played``: the points before it)."""
        return self.simulate(point, self.deals, setter=self.setter, rng=root, executor=self.executor,
                             block_deals=self.block_deals)

    def figures(self, result: Result, chosen: Sequence[str] | None) -> Mapping[str, Any]:
        """A point's figures by name, each with ``estimate``, ``ci_low``, ``ci_high``, ``method``
        and what :meth:`difference` reads."""
        return result.figure_batches(self.level)

    def difference(self, mine: Any, first: Any, same: bool) -> tuple[float, float, str, float]:
        """(half-width, batches holding a difference, note, deals an interval needs) of a figure's
        difference to the first point's (``same``: the first point itself)."""
        return batch_difference(mine, first, same, int(self.deals), self.level)

    def unchanged(self, metric: str, point: Any, first: Any) -> bool:
        """Whether ``metric`` is the same at ``point`` as at the first point on every deal (its
        difference then exactly 0, interval 0 to 0): a figure of the play alone when the points
        differ only in what the house charges. By default no figure is known to be."""
        return False

    def label(self, metric: str, point: Any) -> str:
        """A figure's words in the table."""
        return metric

    def attrs(self, root: np.random.SeedSequence, results: Sequence[Result]) -> dict[str, Any]:
        """The table's ``attrs``: how it was made."""
        game = game_of(self.v)
        setters = [r.metadata["strategy"] for r in results]
        return dict(parameter=self.key, parameter_label=self.key, base=str(self.v), unit=game.unit,
                    game=game.name, deals=int(self.deals), entropy=str(root.entropy), strategy=setters[0],
                    setter=setter_params(self.setter), setters=setters, confidence=self.level,
                    pairing="common deals")


def sweep_figures(run: Callable[..., Result], v: Any, parameter: str, values: Sequence[Any], *, deals: int,
                  metrics: Sequence[str] | None = None, setter: Any, rng=None,
                  executor: Executor | None = None, hands_per_hour: float | None = None,
                  confidence: float = 0.95, block_deals: int | None = None,
                  on_point: Callable[[int, Any], None] | None = None,
                  points: Sequence[Any] | None = None) -> pd.DataFrame:
    """The sweep of a game that registers none: ``parameter`` over ``values``, each point played
    by ``run`` (the game's simulate) on the deals of one seed, every figure of
    :meth:`~cpstats.engine.base.Result.figure_batches` (or ``metrics``) with its paired difference
    to the first point. ``points`` are the verb's checked points (None: built and checked here);
    ``hands_per_hour`` is for games whose figures have a pace, which register their own sweep."""
    level = check_confidence(confidence)
    check_whole("deals", deals, 2, "an interval needs two")
    key = game_of(v).key_name(parameter)
    points = sweep_variants(v, parameter, values) if points is None else points
    return Sweep(v=v, key=key, values=values, points=points, deals=deals, setter=setter, level=level, rng=rng,
                 metrics=metrics, executor=executor, block_deals=block_deals, on_point=on_point,
                 simulate=run).table()
