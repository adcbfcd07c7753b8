"""Open face's figures in the catalogue (:mod:`cpstats.engine.catalogue`): the shared ones it reports,
by name, and its own, declared here once. A board is one seat's hand (13 cards in three rows)."""

from __future__ import annotations

from cpstats.engine.catalogue import Figure

__all__ = ["FIGURES"]

_ROWS = ("front", "middle", "back")

#: Shared figures (by name) and the game's own.
FIGURES = (
    "mean_seat{seat}", "sd_seat{seat}", "hit_frequency_seat{seat}", "push_rate_seat{seat}", "sd",
    "sd_after_charges", "mean_after_charges", "hit_frequency", "push_rate", "foul_rate", "scoop_rate",
    "rake_per_seat_per_hand", "rake_per_seat_per_hour", "rake_share", "volatility_index",
    Figure("fl_entry_rate", "the share of normal boards that qualify for Fantasyland", "share", "board",
           "before charges", "ratio", "batch t", "percent", "Fantasyland entry rate"),
    Figure("fl_stay_rate", "the share of Fantasyland boards that qualify to stay", "share", "board",
           "before charges", "ratio", "batch t", "percent", "Fantasyland stay rate"),
    Figure("fl_share", "the share of boards played in Fantasyland", "share", "board", "before charges", "ratio",
           "batch t", "percent", "Fantasyland share"),
    Figure("fl_entry_rate_cards{cards}", "the share of normal boards that enter Fantasyland with this many cards "
           "(a progressive Fantasyland deals more for a better front)", "share", "board", "before charges", "ratio",
           "batch t", "percent", "Fantasyland entry with {cards} cards"),
    Figure("fl_value", "a Fantasyland board's mean result less a normal board's", "units", "board",
           "before charges", "mean", "batch t", "units", "Fantasyland value"),
    Figure("royalty", "royalty units a board is paid, all rows", "units", "board", "before charges", "mean",
           "batch t", "units", "royalties per board"),
    *(Figure(f"royalty_{row}", f"royalty units a board is paid in its {row} row", "units", "row",
             "before charges", "mean", "batch t", "units", f"{row} royalties per board") for row in _ROWS),
    *(Figure(f"royalty_rate_{row}", f"the share of boards paid a royalty in their {row} row", "share", "row",
             "before charges", "ratio", "batch t", "percent", f"boards paid a {row} royalty") for row in _ROWS),
    Figure("hands_seat{seat}", "the hands a seat plays for its mean result to be known within +-1 unit "
           "((z SD / 1)^2)", "hands", "seat", "before charges", "count", "batch t", "count",
           "hands for seat {seat}'s mean within ±1 unit"),
)
