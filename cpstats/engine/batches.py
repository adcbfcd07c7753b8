"""Batches and sparse distributions, shared by every game's block summaries.

A run's deals are cut into :data:`BATCHES` batches of consecutive deals (the observations of every
batch-means interval, Student's t with ``BATCHES - 1`` degrees of freedom); :func:`batch_of` gives
each deal its batch whatever block it is in, so a block's per-batch sums add to the run's. Nets are
counted sparsely by value (:func:`net_distribution`), so memory follows the distinct values.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BATCHES", "batch_count", "batch_of", "by_batch", "net_distribution", "charged_distribution"]

#: Batch means per run: intervals of means use Student's t with BATCHES - 1 degrees of freedom
#: (20-30 batches, CASINO-MATH); a run of fewer deals has one batch a deal.
BATCHES = 30


def batch_count(deals: int) -> int:
    """Batches of a run of ``deals`` deals: :data:`BATCHES`, or one a deal below that."""
    return int(min(BATCHES, deals))


def batch_of(first: int, size: int, deals: int, batches: int) -> np.ndarray:
    """Batch index of deals ``first .. first + size - 1``: batch j holds deals
    ``floor(j D / B) .. floor((j + 1) D / B) - 1``, so sizes differ by one deal at most."""
    return (np.arange(first, first + size, dtype=np.int64) * batches) // deals


def by_batch(values: np.ndarray, batch: np.ndarray, batches: int) -> np.ndarray:
    """Sums of ``values`` (N,) or (N, k) per batch: (B,) or (B, k)."""
    if values.ndim == 1:
        return np.bincount(batch, weights=values, minlength=batches)
    return np.stack([np.bincount(batch, weights=values[:, j], minlength=batches)
                     for j in range(values.shape[1])], axis=1)


def net_distribution(net: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values, counts per seat) of the nets: sparse, so memory follows the distinct values.

    Nets in eighths of a unit over a range no wider than the block are counted without sorting;
    anything else (huge stakes, odd fractions) goes through ``np.unique``.
    """
    return charged_distribution(net, np.zeros(net.shape))[:2]


def charged_distribution(net: np.ndarray, charge: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`net_distribution` with, per value and seat, the sum of the seat's share of the
    house charge over the deals in which it netted that value (for the result after charges)."""
    scaled = np.round(net * 8)
    if scaled.size and np.array_equal(scaled / 8, net):
        low, high = float(scaled.min()), float(scaled.max())
        if high - low <= 4 * net.size:
            codes = (scaled - low).astype(np.int64)
            width = int(high - low) + 1
            counts = np.stack([np.bincount(codes[:, s], minlength=width)
                               for s in range(net.shape[1])], axis=1)
            charges = np.stack([np.bincount(codes[:, s], weights=charge[:, s], minlength=width)
                                for s in range(net.shape[1])], axis=1)
            keep = counts.any(axis=1)
            return (np.arange(width)[keep] + low) / 8, counts[keep], charges[keep]
    values, inverse = np.unique(np.round(net, 9), return_inverse=True)
    counts = np.zeros((len(values), net.shape[1]), dtype=np.int64)
    charges = np.zeros((len(values), net.shape[1]))
    where = (inverse.reshape(net.shape), np.arange(net.shape[1]))
    np.add.at(counts, where, 1)
    np.add.at(charges, where, charge)
    return values, counts, charges
