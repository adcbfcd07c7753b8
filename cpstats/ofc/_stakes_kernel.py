"""OFC-STAKES' kernel: the pairs of each hand paid in position order within the players' stacks
(:func:`cpstats.ofc.settlement.settle_within_stacks` validates, allocates and documents the rule)."""

from __future__ import annotations

from numba import njit

__all__ = ["stakes_kernel"]


@njit(cache=True, nogil=True)
def stakes_kernel(owed, stacks, first, active, order, paid, net, unpaid):  # pragma: no cover - numba
    """Pay ``owed`` (H, K) within ``stacks`` (H, P) from ``first`` (H,), pairs by ``order`` (K, 2)
    positions; writes ``paid`` (H, K), ``net`` (H, P) and ``unpaid`` (H,), zeroed by the caller."""
    hands, players = stacks.shape
    for h in range(hands):
        for t in range(order.shape[0]):
            a = (first[h] + order[t, 0]) % players
            b = (first[h] + order[t, 1]) % players
            i, j = (a, b) if a < b else (b, a)
            k = i * players - i * (i + 1) // 2 + j - i - 1
            x = owed[h, k]
            if not (active[h, i] and active[h, j]):
                continue
            if x > 0:
                pay = min(x, max(stacks[h, j] + net[h, j], 0))
            else:
                pay = -min(-x, max(stacks[h, i] + net[h, i], 0))
            paid[h, k] = pay
            net[h, i] += pay
            net[h, j] -= pay
            unpaid[h] += abs(x - pay)
