"""What a game shows in the apps: the slots a game fills so that the PAR sheet, the command line
and the dashboard render it without naming it (:attr:`cpstats.engine.games.GameRuns.views`).

Each slot is None for a game that fills none; the apps then show the game's tidy figures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["GameViews"]


@dataclass(frozen=True)
class GameViews:
    """``par_sheet``: builds the game's PAR sheet content; ``par_sweeps``: the rule parameters its
    sheet sweeps by default; ``simulate_text``: the text ``cpstats simulate`` prints of a run;
    ``dashboard_tab``: the dashboard tab's content."""

    par_sheet: Callable[..., Any] | None = None
    par_sweeps: Callable[..., Any] | None = None
    simulate_text: Callable[..., Any] | None = None
    dashboard_tab: Callable[..., Any] | None = None
