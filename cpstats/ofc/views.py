"""What the apps show of this game (:class:`~cpstats.engine.views.GameViews`)."""

from cpstats.engine.views import GameViews

VIEWS = GameViews()
