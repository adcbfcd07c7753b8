"""The runs of a game that gives only a block function, a summary type and a result type: a
``simulate`` on the block runner (:func:`block_run`), and a paired ``compare`` of the results'
per-batch figures (:func:`compare_figures`), which the verbs use for any game that registers none
of its own (its sweep is the engine's, :func:`cpstats.engine.sweep.sweep_figures`).

- Decision: a run's identity (what its digest covers, :data:`~cpstats.engine.files.IDENTITY_KEYS`)
  is the variant string, the setter's name, the root seed, the deal and block plan, the game's
  dealer and summary format; so a resume, a shipped run and a repeat work for a new game as for
  the built-in ones.
- Decision: the paired figures are those of
  :meth:`~cpstats.engine.base.Result.figure_batches`: every point or variant plays the same root
  seed, so batch j of each holds the same deals, and a difference's interval is Student's t on the
  per-batch differences, none where too few batches differ
  (:func:`~cpstats.engine.paired.paired_difference`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from cpstats.cards.blocks import BlockPlan, check_executor, root_seed
from cpstats.errors import OptionError, check_whole
from cpstats.engine.base import Result
from cpstats.engine.batches import batch_count
from cpstats.engine.files import prepare_out, run_digest
from cpstats.engine.paired import batch_difference, paired_row
from cpstats.engine.runner import BlockJob, BlockOutput, run_blocks, versions
from cpstats.engine.stats import check_confidence

__all__ = ["RunSpec", "block_run", "compare_figures", "setter_params"]


@dataclass(frozen=True)
class RunSpec:
    """A run as a worker sees it (picklable, no open files): the variant string, the setter, the
    root seed (``entropy``, ``spawn_key``: :meth:`root`), the deal and block plan, the run's
    batches, whether to keep each block's rows, where blocks go and the run's digest."""

    variant: str
    setter: Any
    entropy: Any
    spawn_key: tuple
    block_deals: int
    deals: int
    batches: int
    keep_hands: bool
    out: str | None
    digest: str

    def root(self) -> np.random.SeedSequence:
        """The run's root seed: block i plays from its child i (:func:`~cpstats.cards.blocks.block_seed`)."""
        return np.random.SeedSequence(self.entropy, spawn_key=self.spawn_key)


def setter_params(setter: Any) -> dict[str, Any]:
    """What a run's metadata records of its setter: its ``params()``, else its name."""
    params = getattr(setter, "params", None)
    return params() if callable(params) else {"name": getattr(setter, "name", str(setter))}


def block_run(play: Callable[[RunSpec, int, int], BlockOutput], summary: type, result: Callable[..., Result],
              *, block_deals: int = 10_000, dealer: str = "", summary_format: Any = 1,
              unit: str = "deal") -> Callable[..., Result]:
    """A game's ``simulate`` (:class:`~cpstats.engine.games.GameRuns`) from its block function.

    ``play(spec, block, size)`` plays block ``block`` of ``size`` deals of the run ``spec``
    (:class:`RunSpec`) from the block's own seed and returns its
    :class:`~cpstats.engine.runner.BlockOutput` (the additive summary; with
    ``spec.keep_hands`` what the result keeps); ``summary`` is the summary type and
    ``result(v, summary, metadata, kept=, out=)`` builds the run's result. ``block_deals`` is the
    game's block size, ``dealer`` says how it deals (part of the run's identity), ``unit`` what a
    progress bar counts.
    """
    default_block = check_whole("block_deals", block_deals, 1)

    def simulate(v: Any, deals: int, *, setter: Any, rng=None, executor: Executor | None = None,
                 keep_hands: bool = False, out: str | os.PathLike | None = None, resume: bool = False,
                 progress: bool = False, block_deals: int | None = None) -> Result:
        size = default_block if block_deals is None else check_whole("block_deals", block_deals, 1)
        plan = BlockPlan(deals, size)
        check_executor(executor)
        root = root_seed(rng)
        params = setter_params(setter)
        meta = {"variant": str(v), "strategy": str(params["name"]), "deals": int(deals),
                "entropy": str(root.entropy), "spawn_key": list(root.spawn_key), "block_deals": size,
                "batches": batch_count(deals), "dealer": dealer, "summary_format": summary_format,
                **versions()}
        meta["run_digest"] = run_digest(meta)
        meta["setter"] = params
        out_path = prepare_out(out, meta, resume)
        spec = RunSpec(str(v), setter, root.entropy, tuple(root.spawn_key), size, int(deals),
                       meta["batches"], bool(keep_hands), None if out_path is None else str(out_path),
                       meta["run_digest"])
        job = BlockJob(play, spec, spec.out, spec.digest, summary)
        run = run_blocks(job, plan, executor=executor, out_path=out_path, resume=resume,
                         keys=lambda: frozenset(summary.keys()), keep=bool(keep_hands), progress=progress,
                         desc=f"simulating {v}", unit=unit)
        meta["blocks_redone"] = run.redone
        return result(v, run.summary, meta, kept=run.kept, out=out_path)

    return simulate


def compare_figures(run: Callable[..., Result], vs: Sequence[Any], deals: int, *, setter: Any, rng=None,
                    executor: Executor | None = None, block_deals: int | None = None,
                    confidence: float = 0.95, labels: Sequence[str] | None = None,
                    hands_per_hour: float | None = None, tidy: bool = False) -> pd.DataFrame:
    """The variants ``vs`` played by ``run`` (a game's simulate) on the deals of one seed, each
    figure of :meth:`~cpstats.engine.base.Result.figure_batches` with its paired difference to
    the first: one row per variant and figure, tidy whatever ``tidy`` says (``hands_per_hour`` is
    for games whose figures have a pace, which register their own compare)."""
    level = check_confidence(confidence)
    names = [str(v) for v in vs] if labels is None else [str(x) for x in labels]
    if len(names) != len(vs):
        raise OptionError(f"labels={names!r} is invalid: one label per variant ({len(vs)})")
    root = root_seed(rng)
    results = [run(v, deals, setter=setter, rng=root, executor=executor, block_deals=block_deals) for v in vs]
    base = results[0].figure_batches(level)
    rows = []
    for i, (label, r) in enumerate(zip(names, results)):
        same = str(r.variant) == str(results[0].variant)
        for metric, figure in r.figure_batches(level).items():
            first = base.get(metric)
            difference = None if first is None else batch_difference(figure, first, same, int(deals), level)
            rows.append({"run": i, "label": label, "variant": str(r.variant), "setter": r.metadata["strategy"],
                         "metric": metric, **paired_row(figure, first, difference)})
    frame = pd.DataFrame(rows)
    frame.attrs.update(strategy=results[0].metadata["strategy"], setter=setter_params(setter), deals=int(deals),
                       entropy=str(root.entropy), pairing="common deals", confidence=level)
    return frame
