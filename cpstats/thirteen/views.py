"""What the apps show of this game (:class:`~cpstats.engine.views.GameViews`)."""

from cpstats.engine.views import GameViews
from cpstats.thirteen.par import build_sheet, default_parameters
from cpstats.thirteen.cli import COMMAND_LINE, simulate_text
from cpstats.thirteen.dashboard import DASHBOARD_TAB

VIEWS = GameViews(
    par_sheet=build_sheet, par_sweeps=default_parameters,
    simulate_text=simulate_text,
    command_line=COMMAND_LINE,
    dashboard_tab=DASHBOARD_TAB,
)
