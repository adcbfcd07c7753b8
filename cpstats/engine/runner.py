"""The block runner every game's runs go through: plan, seeds, executor, resume, files, progress.

A game supplies only its block function, ``play(spec, block, size) -> BlockOutput``: deal (or
play) block ``block`` of ``size`` deals from the block's own seed, settle it, and reduce it to an
additive summary; optionally the block's rows (a DataFrame written as Parquet) and anything the
caller keeps in memory. The runner does the rest once for every game:

- blocks are planned lazily (:class:`~cpstats.cards.blocks.BlockPlan`), so memory does not grow
  with the deal count, and merged in block order, so any executor gives identical numbers;
- with an executor at most a window of blocks is in flight; each block is written where it ran
  (rows first, then the block file, whose presence marks the block done);
- a resume reads the finished blocks of this same run (its digest) and plays again any block of
  another run, a damaged one, or one the game says it cannot reuse (``reusable``).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from cpstats._atomic import atomic_path
from cpstats.cards.blocks import BlockPlan
from cpstats.engine.additive import Additive
from cpstats.engine.files import read_block, write_block

__all__ = ["BlockOutput", "BlockJob", "RunTotals", "run_blocks", "versions"]


class BlockOutput(NamedTuple):
    """What a game's block function returns: the block's additive summary, the rows to write
    with ``out`` (or None) and what the caller keeps in memory (or None)."""

    summary: Additive
    rows: pd.DataFrame | None = None
    kept: Any = None


@dataclass(frozen=True)
class BlockJob:
    """A run's blocks as a worker sees them: picklable, no open files.

    ``play`` is a module-level function ``(spec, block, size) -> BlockOutput`` and ``spec`` the
    game's own picklable description of the run; ``out`` and ``digest`` say where finished blocks
    go and whose they are; ``summary`` is the game's summary type, which reads stored blocks back.
    """

    play: Callable[[Any, int, int], BlockOutput]
    spec: Any
    out: str | None
    digest: str
    summary: type[Additive]


class RunTotals(NamedTuple):
    """A whole run: the merged summary, what each block kept (None unless asked), blocks redone."""

    summary: Additive
    kept: list | None
    redone: int


def run_block(job: BlockJob, block: int, size: int) -> tuple[Additive, Any]:
    """Play one block and, with ``job.out``, write its rows and then its block file."""
    output = job.play(job.spec, block, size)
    if job.out is not None:
        out = Path(job.out)
        if output.rows is not None:
            with atomic_path(out / f"hands-{block:06d}.parquet") as tmp:
                output.rows.to_parquet(tmp, index=False)
        write_block(out, block, output.summary, job.digest)
    return output.summary, output.kept


def run_blocks(job: BlockJob, plan: BlockPlan, *, executor: Executor | None = None,
               out_path: Path | None = None, resume: bool = False,
               keys: Callable[[], frozenset[str]] | None = None,
               reusable: Callable[[int], bool] = lambda block: True, keep: bool = False,
               progress: bool = False, desc: str = "", unit: str = "deal") -> RunTotals:
    """Run every block of ``plan`` and merge the summaries in block order.

    ``keys`` gives the summary keys a stored block of this run holds (a block holding others is
    of another layout and played again); ``reusable(block)`` can refuse a stored block the run
    needs more of (rows it did not write); ``keep`` collects each block's ``kept``, which is
    never on disk, so it also turns stored blocks off.
    """
    from tqdm.auto import tqdm

    total, kept, redone = None, ([] if keep else None), 0
    with tqdm(total=int(plan.deals), unit=unit, unit_scale=True, disable=not progress, desc=desc) as bar:
        for block, (summary, block_kept), was_redone in blocks_in_order(
                job, plan, executor, None if keep or not resume else out_path, keys, reusable):
            total = summary if total is None else total + summary
            if keep:
                kept.append(block_kept)
            redone += was_redone
            bar.update(plan.size(block))
    return RunTotals(total, kept, redone)


def blocks_in_order(job: BlockJob, plan: BlockPlan, executor: Executor | None, stored_in: Path | None,
                    keys: Callable[[], frozenset[str]] | None = None,
                    reusable: Callable[[int], bool] = lambda block: True) -> Iterator[tuple[int, tuple, bool]]:
    """Yield ``(block, (summary, kept), redone)`` in block order, planning blocks lazily.

    Finished blocks of this run in ``stored_in`` are read instead of played; with an executor at
    most ``window`` blocks are in flight.
    """
    wanted: frozenset[str] | None = None

    def stored(b: int) -> tuple[Additive | None, bool]:
        nonlocal wanted
        if stored_in is None or keys is None or not reusable(b):
            return None, False
        if wanted is None:
            wanted = frozenset(keys())
        arrays, redo = read_block(stored_in, b, job.digest, wanted)
        return (None if arrays is None else job.summary.from_arrays(arrays)), redo

    def work(b: int):
        done, redo = stored(b)
        if done is not None:
            return (done, None), redo
        if executor is None:
            return run_block(job, b, plan.size(b)), redo
        return executor.submit(run_block, job, b, plan.size(b)), redo

    window = 4 * (os.cpu_count() or 1) + 8
    pending: deque = deque()
    for b in range(plan.blocks):
        pending.append((b, *work(b)))
        while len(pending) >= window or (pending and not hasattr(pending[0][1], "result")):
            yield _finished(pending.popleft())
    while pending:
        yield _finished(pending.popleft())


def _finished(item: tuple) -> tuple[int, tuple, bool]:
    block, job, redo = item
    return block, (job.result() if hasattr(job, "result") else job), redo


def versions() -> dict[str, str]:
    """The package versions a run's metadata records beside its identity."""
    import numba
    import scipy

    from cpstats._version import __version__

    return {"cpstats": __version__, "numpy": np.__version__, "pandas": pd.__version__,
            "numba": numba.__version__, "scipy": scipy.__version__}
