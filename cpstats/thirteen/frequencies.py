"""Natural frequencies by simulation, beside their exact values.

Deals are dealt block by block (see :mod:`cpstats.cards.blocks`), so a seed gives the same counts
whatever the executor or the number of workers; only counts are kept, so memory stays flat.
"""

from __future__ import annotations

from concurrent.futures import Executor

import numpy as np
import pandas as pd
from cpstats.thirteen.naturals import _natural_kernel
from cpstats.cards.blocks import BlockPlan, block_state, fresh_deck, root_seed
from cpstats.errors import OptionError
from cpstats.thirteen.naturals.detect import NATURALS, kernel_tables
from cpstats.engine.stats import wilson_interval

__all__ = ["natural_frequencies", "wilson_interval"]


def _natural_block(entropy, spawn_key, block: int, deals: int, players: int, qka: bool) -> np.ndarray:
    """Counts (2, n_naturals) for one block: hands holding each natural, deals where any seat does."""
    root = np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key))
    counts = np.zeros((2, len(NATURALS)), dtype=np.int64)
    _natural_kernel.deal_naturals_kernel(block_state(root, block), fresh_deck(), np.zeros(4, np.int64),
                                  deals, players, *kernel_tables(qka), counts[0], counts[1])
    return counts


def natural_frequencies(deals: int, players: int = 4, rng=None, *, qka_front_straight: bool = True,
                        executor: Executor | None = None, progress: bool = False,
                        block_deals: int | None = None) -> pd.DataFrame:
    """Simulated frequency of every natural, with Wilson 95% intervals and the exact value.

    Parameters
    ----------
    deals
        Number of deals; each deal shuffles a full deck and seats ``players`` hands of 13.
    players
        2, 3 or 4 seated players (the per-table rate is "at least one seated player holds it").
    rng
        Seed (int), SeedSequence, Generator or None (fresh entropy).
    executor
        Any ``concurrent.futures``-style executor to spread blocks over; None runs serially.

    Returns
    -------
    pandas.DataFrame
        One row per natural: ``natural, hands, hits, frequency, ci_low, ci_high,
        exact_probability, z, one_in, table_hits, per_table, per_table_ci_low, per_table_ci_high``.
        ``z`` is (frequency - exact) / SE under the exact probability; ``one_in`` is 1/frequency.

    Examples
    --------
    >>> df = natural_frequencies(20_000, rng=1)
    >>> int(df.set_index("natural").loc["dragon", "hands"])
    80000
    """
    if not isinstance(players, (int, np.integer)) or not 2 <= players <= 4:
        raise OptionError(f"players={players!r} is invalid: Chinese poker seats 2, 3 or 4 players")
    plan = BlockPlan(deals) if block_deals is None else BlockPlan(deals, block_deals)
    root = root_seed(rng)
    qka = bool(qka_front_straight)
    args = [(root.entropy, root.spawn_key, b, plan.size(b), int(players), qka) for b in range(plan.blocks)]
    totals = np.zeros((2, len(NATURALS)), dtype=np.int64)
    bar = _progress(plan, progress)
    if executor is None:
        for a in args:
            totals += _natural_block(*a)
            bar.update(a[3])
    else:
        futures = [executor.submit(_natural_block, *a) for a in args]
        for a, future in zip(args, futures):
            totals += future.result()
            bar.update(a[3])
    bar.close()
    return _frequency_table(totals, int(deals), int(players), qka)


def _progress(plan: BlockPlan, enabled: bool):
    from tqdm.auto import tqdm

    return tqdm(total=int(plan.deals), unit="deal", unit_scale=True, disable=not enabled,
                desc="dealing")


def _frequency_table(totals: np.ndarray, deals: int, players: int, qka: bool) -> pd.DataFrame:
    from cpstats.thirteen.naturals.exact import exact_naturals

    hands = deals * players
    hits = totals[0]
    table_hits = totals[1]
    exact = exact_naturals(qka_front_straight=qka).set_index("natural")["probability"]
    p_exact = exact.reindex(list(NATURALS)).to_numpy(dtype=float)
    freq = hits / hands
    low, high = wilson_interval(hits, hands)
    t_low, t_high = wilson_interval(table_hits, deals)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (freq - p_exact) / np.sqrt(p_exact * (1 - p_exact) / hands)
        one_in = np.where(hits > 0, 1 / freq, np.inf)
    return pd.DataFrame({
        "natural": list(NATURALS),
        "hands": hands,
        "hits": hits,
        "frequency": freq,
        "ci_low": low,
        "ci_high": high,
        "exact_probability": p_exact,
        "z": z,
        "one_in": one_in,
        "table_hits": table_hits,
        "per_table": table_hits / deals,
        "per_table_ci_low": t_low,
        "per_table_ci_high": t_high,
    })
