"""Every numeric schedule of the rulebook, as data: the R-* royalty and NS-* natural tables.

:data:`ROYALTY_TABLES` holds the R-* schedules and :data:`NATURAL_TABLES` the NS-* schedules,
exactly as RULEBOOK.md lists them. They sit just above :mod:`cpstats.thirteen.rules.ids` so that the
components (:class:`~cpstats.thirteen.rules.components.Royalties`, :class:`~cpstats.thirteen.rules.components.Naturals`) can fill their
defaults from them and the codec can write a schedule's amounts into a plain dict.

Decisions (where the rulebook leaves a choice open):

- Decision: R-TW's "base points" are extra (a middle full house worth 1 *instead of* 1 would be
  no royalty at all); R-PAGAT-CASINO's "additional payments" are extra.
- Decision: R-MANDARIN's front trips "triple the row" (2 extra, so the row pays 3) and its other
  bonus hands are "added on" (extra) at the only other amounts 004 prints, R-EASTERN's.
- Decision: NS-AUTOWIN ranks from low to high three straights, three flushes, six pairs,
  dragon: the reverse of 004's list, whose first item (dragon) "beats all other".
"""

from __future__ import annotations

from cpstats.thirteen.rules.ids import SCOOP, NaturalSchedule, RoyaltyPayment, RoyaltySchedule

__all__ = ["ROYALTY_TABLES", "NATURAL_TABLES"]

_I, _X = RoyaltyPayment.INSTEAD, RoyaltyPayment.EXTRA
R = RoyaltySchedule

#: R-* schedules: payment kind, then units for front trips, middle full house, middle quads,
#: middle straight flush, back quads, back straight flush (section 4).
ROYALTY_TABLES: dict[RoyaltySchedule, tuple[RoyaltyPayment, tuple[int, ...]]] = {
    #                       FT  MFH MQ  MSF BQ  BSF
    R.NONE:            (_X, (0, 0, 0, 0, 0, 0)),
    R.FUTUREBET:       (_X, (2, 1, 3, 4, 3, 4)),
    R.PAGAT_TYPICAL:   (_I, (3, 2, 4, 5, 4, 5)),
    R.PAGAT_EXTRA_A:   (_X, (2, 1, 3, 4, 3, 4)),
    R.PAGAT_EXTRA_B:   (_X, (2, 2, 6, 8, 4, 6)),
    R.PAGAT_PRINTABLE: (_I, (3, 2, 8, 10, 4, 5)),
    R.PAGAT_RANKINGS:  (_I, (3, 2, 8, 14, 4, 7)),
    R.PAGAT_CASINO:    (_X, (3, 2, 8, 10, 4, 5)),
    R.EASTERN:         (_I, (3, 2, 8, 10, 4, 5)),
    R.MANDARIN:        (_X, (2, 2, 8, 10, 4, 5)),
    R.TW:              (_X, (3, 1, 3, 4, 2, 3)),
    R.FLAT:            (_X, (1, 1, 1, 1, 1, 1)),
}

NS = NaturalSchedule
#: NS-* schedules: (natural, units) low to high; the order is the ranking among naturals.
NATURAL_TABLES: dict[NaturalSchedule, tuple[tuple[str, int | str], ...]] = {
    NS.NONE: (),
    NS.TW: (
        ("no_pictures", 3), ("three_flushes", 3), ("three_straights", 4), ("six_pairs", 6),
        ("four_trips", 8), ("all_one_colour", 10), ("all_low", 12), ("all_high", 12),
        ("three_quads", 20), ("three_straight_flushes", 24), ("all_pictures", 32),
        ("dragon", 36), ("clean_dragon", 108),
    ),
    NS.PAGAT_TYPICAL: (
        ("six_pairs", 3), ("three_straights", 3), ("three_flushes", 3), ("dragon", 13),
    ),
    NS.PAGAT_LONG: (
        ("three_flushes", 3), ("three_straights", 4), ("six_pairs", 4), ("five_pairs_trips", 5),
        ("four_trips", 6), ("all_one_colour", 10), ("all_low", 10), ("all_high", 10),
        ("three_quads", 16), ("three_straight_flushes", 18), ("twelve_pictures", 18),
        ("one_suit", 26),
    ),
    NS.PAGAT_PRINTABLE: (
        ("three_straights", 3), ("three_flushes", 3), ("six_pairs", 3), ("five_pairs_trips", 6),
        ("dragon", 13), ("one_suit", 26),
    ),
    NS.PAGAT_RANKINGS: (
        ("three_straights", 4), ("three_flushes", 4), ("twelve_one_colour", 4),
        ("all_one_colour", 6), ("six_pairs", 4), ("dragon", 13), ("one_suit", 39),
    ),
    NS.AUTOWIN: (
        ("three_straights", SCOOP), ("three_flushes", SCOOP), ("six_pairs", SCOOP),
        ("dragon", SCOOP),
    ),
}
