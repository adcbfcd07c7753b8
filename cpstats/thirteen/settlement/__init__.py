"""Play, part two: settlement of deals under a variant: :func:`settle` for one deal with every
pair's detail, :func:`settle_many` (a numba engine) for millions, and the plainly written
reference both follow; :func:`seat_charges`, each seat's share of the house charge.

Layer 4 of 6 (play): imports cards, hands and rules.
"""

from cpstats.thirteen.settlement.charges import charges_seats, rake_limits, seat_charges
from cpstats.thirteen.settlement.engine import Declare, Settlement, Surrender, settle, settle_many

__all__ = ["Declare", "Surrender", "Settlement", "settle", "settle_many", "seat_charges", "charges_seats", "rake_limits"]
