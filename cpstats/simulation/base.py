"""What both games' results share: one table API over a typed, additive summary.

A result holds its ``variant``, its merged block ``summary`` (a
:class:`~cpstats.simulation.additive.Additive`) and its ``metadata``; views read it through its
methods, never through the summary. Every result gives:

- ``deals``: how many deals (open face: hands) were played;
- ``figures()``: every figure, tidy, one row each with :data:`FIGURE_COLUMNS`;
- ``rows()``: one row per deal and seat (when the run kept or wrote them);
- ``distribution()``: the net per deal, value by value and seat by seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import pandas as pd

__all__ = ["FIGURE_COLUMNS", "Result"]

#: The columns every result's ``figures()`` starts with.
FIGURE_COLUMNS = ("metric", "estimate", "ci_low", "ci_high", "method")


class Result(ABC):
    """Base of :class:`~cpstats.simulation.SimulationResult` and :class:`~cpstats.ofc.OfcResult`."""

    variant: object
    summary: object
    metadata: dict

    @property
    def deals(self) -> int:
        """Deals played (open face: hands, burn-in hands apart)."""
        return int(self.summary.deals)  # type: ignore[attr-defined]

    @property
    def batches(self) -> int:
        """Batches of consecutive deals the intervals are made on."""
        return len(self.summary.batch_sizes)  # type: ignore[attr-defined]

    @abstractmethod
    def figures(self, confidence: float = 0.95) -> pd.DataFrame:
        """Every figure with its interval: :data:`FIGURE_COLUMNS`, one row a figure."""

    @abstractmethod
    def rows(self) -> pd.DataFrame:
        """One row per deal and seat."""

    @abstractmethod
    def distribution(self) -> pd.DataFrame:
        """The net per deal: ``net`` and a count per seat."""
