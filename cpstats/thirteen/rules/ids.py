"""The rulebook's names: one :class:`~enum.StrEnum` per choice and the names tables are indexed by.

Each enum's values are the rulebook IDs (``"SC-2-4"``, ``"RM-WINNER"``, ``"R-FUTUREBET"``,
``"NS-TW"``); the tuples name the royalty rows, the five-card categories and the naturals in the
order the kernels' arrays use. The bottom of :mod:`cpstats.thirteen.rules`: every other rules module reads
these names, and this module reads none of them.

- Decision: ``R-NONE`` and ``NS-NONE`` (not rulebook IDs) name "no royalties" and "no naturals".

The glossary of every rule ID (both games) is :mod:`cpstats.rules.rulebook`.
"""

from __future__ import annotations

from enum import StrEnum

from cpstats.hands.ranking import Ordering

__all__ = [
    "Scoring", "RoyaltySchedule", "RoyaltyPayment", "RoyaltyMode", "NaturalSchedule",
    "NaturalSettlement", "HandOrdering", "Deal",
    "ROYALTY_ROWS", "ROYALTY_ROW_INDEX", "CATEGORIES", "ROYALTY_CATEGORY", "NATURAL_NAMES", "SCOOP",
    "ROYALTY_ROW_NAMES", "natural_id",
]


class Scoring(StrEnum):
    """Scoring systems (rulebook section 3). SC-STAKES is :class:`Stakes`, not a system."""

    BASIC = "SC-1-1-1"
    TWO_FOUR = "SC-2-4"
    TWO_FOUR_TOTAL = "SC-2-4-total"
    ONE_FOUR = "SC-1-4"
    ONE_SIX = "SC-1-6"
    ONE_SIX_HOME_RUN = "SC-1-6-HR"
    TAIWANESE = "SC-TW"
    MANDARIN = "SC-MANDARIN"
    EASTERN = "SC-EASTERN"
    RACE_TO_11 = "SC-RACE-11"


class RoyaltySchedule(StrEnum):
    """Royalty schedules (section 4); amounts in :data:`cpstats.thirteen.rules.schedules.ROYALTY_TABLES`."""

    NONE = "R-NONE"
    FUTUREBET = "R-FUTUREBET"
    PAGAT_TYPICAL = "R-PAGAT-TYPICAL"
    PAGAT_EXTRA_A = "R-PAGAT-EXTRA-A"
    PAGAT_EXTRA_B = "R-PAGAT-EXTRA-B"
    PAGAT_PRINTABLE = "R-PAGAT-PRINTABLE"
    PAGAT_RANKINGS = "R-PAGAT-RANKINGS"
    PAGAT_CASINO = "R-PAGAT-CASINO"
    EASTERN = "R-EASTERN"
    MANDARIN = "R-MANDARIN"
    TW = "R-TW"
    FLAT = "R-FLAT"


class RoyaltyPayment(StrEnum):
    """Whether a royalty amount replaces the row's 1 unit or is paid on top of it."""

    INSTEAD = "instead"
    EXTRA = "extra"


class RoyaltyMode(StrEnum):
    """Who collects royalties (section 4, settlement modes)."""

    WINNER = "RM-WINNER"
    CANCEL = "RM-CANCEL"
    ALWAYS = "RM-ALWAYS"
    ONE = "RM-ONE"
    DEALT = "RM-DEALT"


class NaturalSchedule(StrEnum):
    """Natural schedules (section 5); payouts in :data:`cpstats.thirteen.rules.schedules.NATURAL_TABLES`."""

    NONE = "NS-NONE"
    TW = "NS-TW"
    PAGAT_TYPICAL = "NS-PAGAT-TYPICAL"
    PAGAT_LONG = "NS-PAGAT-LONG"
    PAGAT_PRINTABLE = "NS-PAGAT-PRINTABLE"
    PAGAT_RANKINGS = "NS-PAGAT-RANKINGS"
    AUTOWIN = "NS-AUTOWIN"


class NaturalSettlement(StrEnum):
    """Natural against natural: NAT-1 each collects (net difference), NAT-2 the higher collects."""

    EACH_COLLECTS = "NAT-1"
    HIGHER_COLLECTS = "NAT-2"


#: Five-card ordering: H1 standard, H4 wheel second, H5 deuce-to-seven low in the middle (the
#: hands layer's enum, so that rules and ranking name orderings alike).
HandOrdering = Ordering


class Deal(StrEnum):
    """D2 one 13-card hand per player; D3 criss-cross, heads-up with two hands each."""

    STANDARD = "D2"
    CRISS_CROSS = "D3"


ROYALTY_ROWS = (
    "front_trips", "middle_full_house", "middle_quads", "middle_straight_flush",
    "back_quads", "back_straight_flush",
)
#: Row (0 front, 1 middle, 2 back) and five-card category code of each royalty.
ROYALTY_ROW_INDEX = (0, 1, 1, 1, 2, 2)
#: Category codes as in ``cpstats.hands.tables.CATEGORIES_5`` (front trips share code 3).
CATEGORIES = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
)
ROYALTY_CATEGORY = (3, 6, 7, 8, 7, 8)
#: Natural names; index i is bit i of ``cpstats.thirteen.naturals.detect.natural_mask``.
NATURAL_NAMES = (
    "dragon", "clean_dragon", "one_suit", "six_pairs", "five_pairs_trips", "four_trips",
    "three_quads", "three_straights", "three_flushes", "three_straight_flushes",
    "all_one_colour", "twelve_one_colour", "all_low", "all_high", "no_pictures",
    "all_pictures", "twelve_pictures", "six_and_above",
)
#: A natural payout worth a scoop of the scoring system in play (NS-AUTOWIN).
SCOOP = "scoop"


#: Each royalty row (:data:`ROYALTY_ROWS`) in words.
ROYALTY_ROW_NAMES = {
    "front_trips": "trips in front", "middle_full_house": "full house in the middle",
    "middle_quads": "quads in the middle", "middle_straight_flush": "straight flush in the middle",
    "back_quads": "quads in the back", "back_straight_flush": "straight flush in the back",
}


def natural_id(name: str) -> str:
    """The rulebook ID of a natural named as in :data:`NATURAL_NAMES`: ``six_pairs`` -> ``N-SIX-PAIRS``."""
    return "N-" + name.upper().replace("_", "-")
