"""The 13-card PAR sheet's content (registered as this game's ``par_sheet`` and ``par_sweeps``
views): :mod:`.sheet` (the builder and the sections), :mod:`.figures` (every table from a
result), :mod:`.example` (the rules in words and a worked deal), :mod:`.sweeps` (the default
sensitivity sweeps and their figures). Imports point one way: figures <- example <- sweeps <-
sheet. The apps draw and write it (:mod:`cpstats.apps.par`).
"""

from cpstats.thirteen.par.sheet import DEFAULT_DEALS, SEAT_DEALS, Sheet, build_sheet
from cpstats.thirteen.par.sweeps import SENSITIVITY_DEALS, default_parameters

__all__ = ["Sheet", "build_sheet", "default_parameters", "DEFAULT_DEALS", "SEAT_DEALS",
           "SENSITIVITY_DEALS"]
