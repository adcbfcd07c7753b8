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
    Figure("mean_acting_{position}", "the mean result per hand of the player in this position (first to act, middle at "
           "three players, last: the button) before house charges, over every seat that sat there", "units", "position",
           "before charges", "mean", "batch t", "units", "mean per hand acting {position}"),
    Figure("sd_acting_{position}", "the SD of the result per hand of the player in this position before house charges",
           "units", "position", "before charges", "sd", "batch t (variances)", "units", "SD per hand acting {position}"),
    Figure("value_of_acting_last", "the mean result per hand of acting last less that of acting first, before house "
           "charges (what the position is worth; paired on the same decks with the seats swapped by "
           "cpstats.ofc.simulation.acting_last, on a run's own hands otherwise)", "units", "position", "before charges",
           "mean", "batch t", "units", "value of acting last"),
    Figure("stakes_bind_rate", "the share of hands in which the table stakes cut a payment (a player owed more "
           "than they had left)", "share", "hand", "before charges", "rate", "batch t", "percent",
           "hands cut by the stakes limit"),
    Figure("unpaid_share", "the share of the points owed between players that the table stakes left unpaid",
           "share", "hand", "before charges", "ratio", "batch t", "percent", "points the stakes leave unpaid"),
    Figure("sd_per_match", "the SD of a player's result over a whole match before house charges", "units", "match",
           "before charges", "sd", "batch t", "units", "SD per match"),
    Figure("mean_per_match_after_charges", "a player's mean result over a whole match after house charges (its "
           "share of the house's take, with a minus sign: matches are zero-sum before it)", "units", "match",
           "after charges", "mean", "batch t", "units", "mean per match"),
    Figure("match_out_rate", "the share of matches that end with a player out of points", "share", "match", "none",
           "rate", "batch t", "percent", "matches ending with a player out"),
    Figure("hands_per_match", "the hands a match lasts (one a player, one more a Fantasyland hand, fewer when "
           "players go out)", "hands", "match", "none", "mean", "batch t", "units", "hands per match"),
    Figure("rake_per_match", "the house's take per match, the whole table's", "units", "match", "house", "mean",
           "batch t", "units", "rake per match"),
    Figure("hands_seat{seat}", "the hands a seat plays for its mean result to be known within +-1 unit "
           "((z SD / 1)^2)", "hands", "seat", "before charges", "count", "batch t", "count",
           "hands for seat {seat}'s mean within ±1 unit"),
)
