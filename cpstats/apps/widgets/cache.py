"""Running and caching the apps' simulations: :class:`ResultCache` and its serial executor.

One cache can serve several apps; a result is found again by its variant string, deal count and
strategy, so an app redraws without simulating again.

- Decision: apps simulate with seed :data:`SEED` in blocks of :data:`WIDGET_BLOCK_DEALS` deals,
  so every variant they run plays the same deals (paired differences) and the progress bar moves
  once per block. The reference results use the package's block size, so they are paired with
  each other but not with app runs; the comparer's differences (the verb's,
  :func:`~cpstats.apps.widgets.comparer.figures_table`) fall back to independent runs (and the
  comparer says so) when results do not share their deals.
- Decision: the reference results were set by ``ev`` (1,000,000 deals); :meth:`ResultCache.reference`
  offers one only to an app showing that same strategy, so an app never opens on ev figures
  while its controls say greedy, and a live run after opening is of the same setter.
- Decision: a setter may have to train for a variant before it plays (the 13-card ev trains row
  tables no shipped or cached ones fit, under a minute, once); the game says when
  (:func:`trains_first`, its ``trains`` content), and :meth:`ResultCache.will_train` tells the
  apps beforehand, so the status line says so instead of stalling silently.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from numbers import Integral
from typing import Any

from cpstats.apps.widgets._common import game_content
from cpstats.engine import load_reference
from cpstats.engine.base import Result
from cpstats.engine.games import reference_runs
from cpstats.engine.registry import AnyVariant, load_variant
from cpstats.workbench import simulate

__all__ = ["ResultCache", "SEED", "WIDGET_BLOCK_DEALS", "trains_first"]

SEED = 2026  # the CLI's default seed, so app runs and ``cpstats simulate`` agree
WIDGET_BLOCK_DEALS = 2048


class _InlineExecutor:
    """A serial ``concurrent.futures``-style executor that reports each finished block (by its
    size, a runner block's last argument); other work handed to it (a skill match) reports nothing."""

    def __init__(self, on_block: Callable[[int], None]) -> None:
        self._on_block = on_block

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # handed back through the future, as a pool would
            future.set_exception(err)
        else:
            if args and isinstance(args[-1], Integral) and not isinstance(args[-1], bool):
                self._on_block(int(args[-1]))  # run_block(job, block, size)
        return future


def trains_first(variant: AnyVariant, setter: str | None = None) -> bool:
    """Whether ``setter`` (a name; None: the game's default) must train before it sets
    ``variant``'s hands, as its game says (its ``trains(v, setter)`` content); False where the
    game says nothing."""
    v = load_variant(variant)
    trains = game_content(v.game, "trains")
    return trains is not None and bool(trains(v, setter))


class ResultCache:
    """Simulation results keyed by (variant string, deals, strategy), plus reference results.

    Parameters
    ----------
    seed
        Root seed of every run (the same deals for every variant).
    block_deals
        Deals per block; the progress bar moves once per block.

    Attributes
    ----------
    runs
        Number of simulations actually run (cache misses).
    """

    def __init__(self, *, seed: int = SEED, block_deals: int = WIDGET_BLOCK_DEALS) -> None:
        self.seed = seed
        self.block_deals = block_deals
        self.runs = 0
        self._results: dict[tuple[str, int, str], Result] = {}
        self._references: dict[str, Result | None] = {}

    def get(self, variant: AnyVariant | str, deals: int, strategy: str) -> Result | None:
        """The cached result, or None."""
        return self._results.get((str(variant), int(deals), str(strategy)))

    def reference(self, variant: AnyVariant | str, strategy: str | None = None) -> Result | None:
        """The shipped reference result of a plain preset (its game's registered references,
        :func:`cpstats.engine.load_reference`), or None; None too when ``strategy`` is given and
        the reference was set by another one."""
        text = str(variant)
        if text not in reference_runs():
            return None
        if text not in self._references:
            try:
                self._references[text] = load_reference(text)
            except Exception:  # missing or unreadable file: the app offers Simulate instead
                self._references[text] = None
        found = self._references[text]
        if found is not None and strategy is not None and found.metadata.get("strategy") != strategy:
            return None
        return found

    def will_train(self, variant: AnyVariant, deals: int, strategy: str) -> bool:
        """Whether running ``variant`` must first train its setter: not cached here, and
        :func:`trains_first`."""
        return self.get(variant, deals, strategy) is None and trains_first(variant, strategy)

    def run(self, variant: AnyVariant, deals: int, strategy: str,
            on_block: Callable[[int], None] | None = None) -> Result:
        """The cached result, or a new simulation (reporting each block to ``on_block``)."""
        found = self.get(variant, deals, strategy)
        if found is not None:
            if on_block is not None:
                on_block(int(deals))
            return found
        executor = _InlineExecutor(on_block or (lambda n: None))
        result = simulate(variant, int(deals), setter=strategy, rng=self.seed, executor=executor,
                          block_deals=self.block_deals)
        self.runs += 1
        self._results[(str(variant), int(deals), str(strategy))] = result
        return result

