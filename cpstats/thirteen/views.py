"""What the apps show of this game (:class:`~cpstats.engine.views.GameViews`)."""

from cpstats.engine.views import GameViews
from cpstats.thirteen.cli import COMMAND_LINE, simulate_text

VIEWS = GameViews(
    simulate_text=simulate_text,
    command_line=COMMAND_LINE,
)
