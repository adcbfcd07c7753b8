"""Each seat's share of the house charge, and when a percent rake's cap or threshold acted.

The engine reports the table's charge per deal (``rake``: the rake plus, in a banked game, the
commission or fee); here that charge is split over the seats, in one place, so every view of a
seat's result after house charges uses the same split:

- a percent rake is taken from the winning seats in proportion to their winnings (its pot is the
  sum of the winning seats' nets, :mod:`cpstats.thirteen.settlement.engine`), capped and thresholded as
  the table's rake is;
- a per-table drop splits evenly over the seats; a per-player drop and a time charge are each
  seat's own (the same amount for every seat);
- a banked game's commission (a fraction of the win) or fee is paid by each player seat that
  wins against the bank, as the engine charges it; the bank pays none.

The shares of a deal add up to the engine's ``rake`` for that deal. The jackpot drop is not a
house charge (it returns to players as jackpots) and is never in a share.
"""

from __future__ import annotations

import numpy as np

from cpstats.rules.house import RakeModel
from cpstats.thirteen.rules.variant import Variant

__all__ = ["charges_seats", "seat_charges", "rake_limits"]


def charges_seats(v: Variant) -> bool:
    """Whether the house takes anything from the seats: a rake, drop or time fee, or a banked
    game's commission or fee (the jackpot drop is not a house charge)."""
    return v.rake.model is not RakeModel.NONE or bool(v.bank.commission or v.bank.fee)


def _bank_part(v: Variant, net: np.ndarray) -> np.ndarray:
    """(D, players) the commission or fee each winning player seat pays the bank."""
    part = np.zeros_like(net)
    if v.bank.banked and (v.bank.commission or v.bank.fee):
        won = net[:, 1:] > 0
        part[:, 1:] = np.where(won, v.bank.commission * net[:, 1:] + v.bank.fee, 0.0)
    return part


def seat_charges(v: Variant, net: np.ndarray, rake: np.ndarray) -> np.ndarray:
    """``float64[D, players]``: each seat's share of the house charge of each deal.

    ``net`` (D, players) and ``rake`` (D,) are :func:`~cpstats.thirteen.settlement.settle_many`'s; the
    shares of a deal add up to its ``rake`` (see the module's docstring for the split).

    Examples
    --------
    >>> v = "2-4(rake=percent,rake.percent=0.05)"
    >>> from cpstats import load_variant
    >>> np.round(seat_charges(load_variant(v), np.array([[6.0, 2.0, -4.0, -4.0]]), np.array([0.4])), 9).tolist()
    [[0.3, 0.1, 0.0, 0.0]]
    """
    net = np.asarray(net, dtype=np.float64)
    rake = np.asarray(rake, dtype=np.float64)
    bank = _bank_part(v, net)
    table = rake - bank.sum(axis=1)  # the rake proper, apart from a bank's commission or fee
    if v.rake.model is RakeModel.PERCENT:
        won = np.where(net > 0, net, 0.0)
        pot = won.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            weight = np.where(pot > 0, won / pot, 0.0)
    else:
        weight = np.full(net.shape, 1.0 / net.shape[1])
    return bank + table[:, None] * weight


def rake_limits(v: Variant, net: np.ndarray) -> dict[str, np.ndarray]:
    """Whether a percent rake's cap and threshold acted on each deal, and each deal's pot.

    ``capped`` (D,): the percent of the pot was above the cap, so the cap was taken;
    ``below_threshold`` (D,): someone won, but the pot was below the threshold, so no rake;
    ``pot`` (D,): the sum of the winning seats' nets. Both flags are False under any other
    rake model (and the cap's without a cap, the threshold's at threshold 0).
    """
    net = np.asarray(net, dtype=np.float64)
    pot = np.where(net > 0, net, 0.0).sum(axis=1)
    rake = v.rake
    percent = rake.model is RakeModel.PERCENT
    raked = percent & (pot >= rake.threshold)
    capped = raked & (rake.cap is not None) & (rake.percent * pot > (rake.cap or 0.0))
    below = percent & (pot > 0) & (pot < rake.threshold)
    return {"capped": np.asarray(capped), "below_threshold": np.asarray(below), "pot": pot}
