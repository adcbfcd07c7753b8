"""Reproducible random blocks: deals are cut into fixed blocks and block i uses SeedSequence child i.

The numbers a seed gives therefore do not depend on how the blocks are grouped into chunks or
spread over workers, and the first ``n`` deals of a ``2n`` run are the ``n`` run. Each block's
stream comes from numpy's SFC64 bit generator seeded by its child: a well-tested generator
whose recurrence is simple enough to run inside the numba kernels (``_deal_kernel.sfc64_next``,
checked against numpy's stream), so no random stream is stored. A deal is a partial Fisher-Yates
shuffle of 39 exact draws taken in batches from four 64-bit words, plus a rare rejection (see
``_deal_kernel._deal_packed``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpstats.cards import _deal_kernel
from cpstats.errors import OptionError, check_whole, shown

__all__ = ["BLOCK_DEALS", "MAX_DEALS", "BlockPlan", "check_executor", "match_seed", "block_seed", "block_state", "shuffled_decks",
           "root_seed"]

BLOCK_DEALS = 1 << 16
#: The most deals one run takes: 10^11 (over a year of one core at the ev setter's pace); blocks are
#: planned lazily, so memory does not depend on the count.
MAX_DEALS = 10**11


def root_seed(rng=None, name: str = "rng") -> np.random.SeedSequence:
    """Normalise ``rng`` (None, an int, a SeedSequence or a Generator) to a root SeedSequence.

    None draws fresh entropy; the returned sequence's ``entropy`` repeats the run. A Generator
    is a stream: each call takes its next child (``Generator.spawn``), so passing the same
    Generator twice gives two different runs, and a Generator made from the same seed gives the
    same two runs again. ``name`` is the argument's name in the messages that refuse it.
    """
    if rng is None or isinstance(rng, (int, np.integer)):
        if rng is not None and int(rng) < 0:
            raise OptionError(f"{name}={rng} is invalid: seeds are integers >= 0")
        return np.random.SeedSequence(None if rng is None else int(rng))
    if isinstance(rng, np.random.SeedSequence):
        return rng
    if isinstance(rng, np.random.Generator):
        if isinstance(rng.bit_generator.seed_seq, np.random.SeedSequence):
            return rng.spawn(1)[0].bit_generator.seed_seq
        return np.random.SeedSequence(int(rng.integers(2**63)))
    raise OptionError(f"{name}={rng!r} is invalid: pass None, an int seed, a SeedSequence or a Generator")


def match_seed(rng) -> int:
    """One integer seed for every match of a table (the same deals for all of them, as a skill
    table's fields play): the root's entropy, or for a spawned root (a Generator's child) an
    integer drawn from it."""
    root = root_seed(rng)
    if not root.spawn_key:
        return int(root.entropy)
    return int(root.generate_state(2, np.uint64).astype(object).dot([1, 2**64]))


def check_executor(executor: object) -> None:
    """Refuse an ``executor`` that cannot run blocks: None (serial) or anything with ``submit``
    (a ``concurrent.futures`` pool, a Dask client's ``get_executor()``)."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise OptionError(f"executor={executor!r} is invalid: None (serial) or a concurrent.futures-style "
                          f"executor with .submit (a ThreadPoolExecutor, a Dask client.get_executor())")


@dataclass(frozen=True)
class BlockPlan:
    """How ``deals`` deals are cut into blocks of ``block_deals`` (the last one may be short)."""

    deals: int
    block_deals: int = BLOCK_DEALS

    def __post_init__(self) -> None:
        if (isinstance(self.deals, bool) or not isinstance(self.deals, (int, np.integer))
                or not 1 <= self.deals <= MAX_DEALS):
            raise OptionError(f"deals={shown(self.deals)} is invalid: deals must be an integer from 1 to "
                              f"{MAX_DEALS:,} (MAX_DEALS)")
        check_whole("block_deals", self.block_deals, 1)

    @property
    def blocks(self) -> int:
        return -(-int(self.deals) // self.block_deals)

    def size(self, block: int) -> int:
        """Deals in block ``block``."""
        return min(self.block_deals, int(self.deals) - block * self.block_deals)


#: The dealing algorithm's name, recorded with every simulation: a change of dealer changes the
#: deals a seed gives, so results made with another dealer are not reproducible with this one.
DEALER = "fisher-yates-39/sfc64-lemire-batches"


def block_seed(root: np.random.SeedSequence, block: int) -> np.random.SeedSequence:
    """Child ``block`` of ``root``, as ``root.spawn`` would make it (without spawning)."""
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (block,),
                                  pool_size=root.pool_size)


def block_state(root: np.random.SeedSequence, block: int) -> np.ndarray:
    """The SFC64 state (uint64[4]) of block ``block``: numpy's SFC64 seeded by child ``block``.

    The kernels draw from this state with the same recurrence as numpy, so the block's stream
    is ``numpy.random.SFC64(block_seed(root, block)).random_raw()``.
    """
    state = np.random.SFC64(block_seed(root, block)).state["state"]["state"]
    return np.array(state, dtype=np.uint64)


def fresh_deck() -> np.ndarray:
    """The deck order a block's dealer starts from (each deal leaves it permuted)."""
    return np.arange(52, dtype=np.uint8)


def shuffled_decks(root: np.random.SeedSequence, block: int, deals: int) -> np.ndarray:
    """The first ``deals`` deals (deals, 52) of block ``block``: hand h is columns 13h..13h+12,
    each hand's cards by suit then rank."""
    out = np.empty((deals, 52), dtype=np.uint8)
    _deal_kernel.deal_kernel(block_state(root, block), fresh_deck(), out)
    return out
