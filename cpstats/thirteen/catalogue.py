"""The 13-card game's figures in the catalogue (:mod:`cpstats.engine.catalogue`): the shared ones it
reports, by name, and its own, declared here once. ``figures()``, ``compare``, ``sweep``, ``solve``
and the views use these names; a test holds every name they report to this list.
"""

from __future__ import annotations

from cpstats.engine.catalogue import Figure

__all__ = ["FIGURES"]



#: Shared figures (by name) and the game's own.
FIGURES = (
    "mean_seat{seat}", "sd_seat{seat}", "hit_frequency_seat{seat}", "push_rate_seat{seat}", "sd",
    "sd_after_charges", "mean_after_charges", "mean_after_charges_seat{seat}", "sd_after_charges_seat{seat}",
    "hit_frequency", "push_rate", "foul_rate", "scoop_rate", "rake_per_seat_per_hand",
    "rake_per_seat_per_hour", "rake_share", "volatility_index",
    Figure("variance_seat{seat}", "the variance of a seat's result per hand before house charges", "units squared",
           "seat", "before charges", "variance", "batch t (variances)", "decimal", "variance per hand, seat {seat}"),
    Figure("skewness_seat{seat}", "the skewness of a seat's result per hand", "number", "seat", "before charges",
           "moment", "none", "decimal", "skewness, seat {seat}"),
    Figure("kurtosis_seat{seat}", "the excess kurtosis of a seat's result per hand", "number", "seat",
           "before charges", "moment", "none", "decimal", "excess kurtosis, seat {seat}"),
    Figure("volatility_index_seat{seat}", "the volatility index: z (90%) times the SD per hand", "units", "seat",
           "before charges", "index", "batch t (variances)", "units", "volatility index, seat {seat}"),
    Figure("foul_rate_hand{hand}", "the share of a hand's settings that foul", "share", "hand", "before charges",
           "rate", "wilson", "percent", "foul rate, hand {hand}"),
    Figure("surrender_rate_hand{hand}", "the share of a hand's deals it surrenders", "share", "hand",
           "before charges", "rate", "wilson", "percent", "surrender rate, hand {hand}"),
    Figure("declared_rate_hand{hand}", "the share of a hand's deals on which it declares a natural", "share", "hand",
           "before charges", "rate", "wilson", "percent", "natural declared, hand {hand}"),
    Figure("royalty_rate_{royalty}", "the share of hands set with this royalty hand in its row (front trips, "
           "middle full house ...)", "share", "hand", "before charges", "rate", "wilson", "one in n",
           "royalty rate: {royalty}"),
    Figure("natural_rate_{natural}", "the share of hands dealt this natural (a run's count)", "share", "hand",
           "none", "rate", "wilson", "one in n", "natural rate: {natural}"),
    Figure("natural_exact_{natural}", "the exact probability that a 13-card hand is this natural (enumeration)",
           "share", "hand", "none", "probability", "exact", "one in n", "natural, exact probability: {natural}"),
    Figure("scoop_rate_hand{a}_vs_hand{b}", "the share of deals on which the first hand wins all three rows from "
           "the second (both set, neither surrendered)", "share", "pair", "before charges", "rate", "wilson",
           "percent", "scoop rate, hand {a} vs hand {b}"),
    Figure("home_run_rate_hand{hand}", "the share of deals on which a hand scoops every opponent", "share", "hand",
           "before charges", "rate", "none", "percent", "home-run rate, hand {hand}"),
    Figure("mean", "a player's mean result per hand before house charges, the player seats pooled (exactly 0 "
           "where every deal's nets add to 0)", "units", "seat", "before charges", "mean", "exact", "units",
           "mean per hand, all seats pooled"),
    Figure("surrender_rate", "the share of players' hands surrendered (player seats pooled)", "share", "hand",
           "before charges", "rate", "wilson", "percent", "surrender rate"),
    Figure("declared_rate", "the share of players' hands on which a natural is declared (player seats pooled)",
           "share", "hand", "before charges", "rate", "wilson", "one in n", "natural declared"),
    Figure("home_run_rate", "the share of hands that scoop every opponent (all hands pooled)", "share", "hand",
           "before charges", "rate", "batch t", "percent", "home-run rate (per hand set)"),
    Figure("royalty_per_hand", "royalty units changing hands per deal, the whole table", "units", "table",
           "before charges", "mean", "batch t", "units", "royalties paid per hand, the table"),
    Figure("natural_per_hand", "natural units changing hands per deal, the whole table", "units", "table",
           "before charges", "mean", "batch t", "units", "naturals paid per hand, the table"),
    Figure("hands_per_hour", "the table's pace, hands dealt an hour (a rule of the variant)", "hands", "table", "none",
           "parameter", "none", "count", "hands per hour"),
    Figure("rake_per_hand", "the house's take per hand, the whole table (rake, time fee, commission, fees)", "units",
           "table", "house", "mean", "batch t", "units", "rake per hand, the table"),
    Figure("rake_per_hour", "the house's take per hour, the whole table, at its pace", "units an hour", "table",
           "house", "mean", "none", "units", "rake per hour, the table"),
    Figure("break_even_edge", "the edge per hand over the field a player needs to break even after the house's "
           "take", "units", "seat", "house", "mean", "batch t", "units", "break-even skill edge"),
    Figure("house_win_per_hour", "the house's expected win an hour, the whole table: its charges and, where it "
           "banks the game, the bank's edge over the players", "units an hour", "table", "house", "mean", "batch t",
           "units", "theoretical win per hour"),
    Figure("jackpot_drop_per_hand", "the jackpot drop taken per hand, the whole table", "units", "table", "house",
           "mean", "none", "units", "jackpot drop per hand, the table"),
    Figure("jackpot_drop_per_hour", "the jackpot drop taken per hour, the whole table", "units an hour", "table",
           "house", "mean", "none", "units", "jackpot drop per hour, the table"),
    Figure("bank_mean", "the bank's (seat 0's) mean result per hand before commission, banked games", "units",
           "seat", "before charges", "mean", "batch t", "units", "the bank's mean per hand"),
    Figure("initial_wager_units", "the units a player wagers against the bank per hand (three rows)", "units",
           "seat", "none", "parameter", "none", "units", "initial wager"),
    Figure("house_edge", "the house's edge per unit a player wagers against the bank, after commission",
           "share", "seat", "after charges", "ratio", "batch t", "percent", "house edge (per initial wager)"),
    Figure("element_of_risk", "the house's edge per unit at risk (equal to the house edge when every unit is at "
           "risk)", "share", "seat", "after charges", "ratio", "batch t", "percent", "element of risk"),
    Figure("bank_result_per_hand", "the bank's mean result per hand after commission and fees (control variate)",
           "units", "seat", "after charges", "mean", "batch t", "units",
           "the bank's result per hand after house charges"),
)
