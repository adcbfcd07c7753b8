"""The open-face PAR sheet's content (registered as this game's ``par_sheet`` and ``par_sweeps``
views): :mod:`.sheet` (the builder and the sections), :mod:`.tables` (every table from a run's
boards), :mod:`.example` (a worked hand), :mod:`.sweeps` (the default sensitivity sweeps, played
on the sheet's own hands). Imports point one way: tables <- example <- sweeps <- sheet. The apps
draw and write it (:mod:`cpstats.apps.par`).
"""

from cpstats.ofc.par.sheet import STRENGTH_DEALS, Sheet, build_sheet
from cpstats.ofc.par.sweeps import default_parameters

__all__ = ["Sheet", "build_sheet", "default_parameters", "STRENGTH_DEALS"]
