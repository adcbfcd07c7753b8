"""The rulebook's names: one :class:`~enum.StrEnum` per choice and the names tables are indexed by.

Each enum's values are the rulebook IDs (``"SC-2-4"``, ``"RM-WINNER"``, ``"R-FUTUREBET"``,
``"NS-TW"``); the tuples name the royalty rows, the five-card categories and the naturals in the
order the kernels' arrays use. The bottom of :mod:`cpstats.rules`: every other rules module reads
these names, and this module reads none of them.

- Decision: ``R-NONE`` and ``NS-NONE`` (not rulebook IDs) name "no royalties" and "no naturals".

:data:`RULES` gives every ID the package implements a human name, a short label for charts and
a one-line description, as plain data: :func:`cpstats.describe` writes a variant's
rules in words from it and the docs' glossary page is built from it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from cpstats.hands.ranking import Ordering

__all__ = [
    "Scoring", "RoyaltySchedule", "RoyaltyPayment", "RoyaltyMode", "NaturalSchedule",
    "NaturalSettlement", "HandOrdering", "Deal",
    "ROYALTY_ROWS", "ROYALTY_ROW_INDEX", "CATEGORIES", "ROYALTY_CATEGORY", "NATURAL_NAMES", "SCOOP",
    "RuleInfo", "RULES", "SECTIONS", "ROYALTY_ROW_NAMES", "natural_id", "rule_info",
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
    """Royalty schedules (section 4); amounts in :data:`cpstats.rules.schedules.ROYALTY_TABLES`."""

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
    """Natural schedules (section 5); payouts in :data:`cpstats.rules.schedules.NATURAL_TABLES`."""

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
#: Natural names; index i is bit i of ``cpstats.hands.naturals.natural_mask``.
NATURAL_NAMES = (
    "dragon", "clean_dragon", "one_suit", "six_pairs", "five_pairs_trips", "four_trips",
    "three_quads", "three_straights", "three_flushes", "three_straight_flushes",
    "all_one_colour", "twelve_one_colour", "all_low", "all_high", "no_pictures",
    "all_pictures", "twelve_pictures", "six_and_above",
)
#: A natural payout worth a scoop of the scoring system in play (NS-AUTOWIN).
SCOOP = "scoop"


# -- the glossary -----------------------------------------------------------------------------

class RuleInfo(NamedTuple):
    """What a rule ID means: ``name`` (human), ``short`` (a chart label), ``description`` (one
    line) and ``section``, the rulebook section it belongs to (a key of :data:`SECTIONS`)."""

    name: str
    short: str
    description: str
    section: int


#: The rulebook's sections, by number.
SECTIONS = {1: "Cards and deal", 2: "Hand ranking", 3: "Scoring systems", 4: "Royalties",
            5: "Naturals", 6: "Surrender, mis-set, settlement extras, house",
            7: "Open-face Chinese poker"}

_GLOSSARY: tuple[tuple[str, str, str, str], ...] = (
    # (ID, name, short, description); the section is the ID's place below
    ("D1", "Standard deck", "52 cards",
     "One 52-card deck, ranks 2 to A, four suits that never rank."),
    ("D2", "One hand each", "one hand each",
     "2, 3 or 4 players, 13 cards each; empty seats' hands are dead."),
    ("D3", "Criss-cross", "criss-cross",
     "Heads-up, two 13-card hands each, each played against both of the opponent's."),
    ("H1", "Standard ranking", "standard ranking",
     "Five-card hands rank as in poker; A-2-3-4-5 is the lowest straight."),
    ("H2", "Three-card front", "3-card front",
     "The front ranks trips, pair, high card; no straights or flushes."),
    ("H3", "Rows in order", "rows in order",
     "A hand must be set back >= middle >= front, or it is mis-set (fouled)."),
    ("H4", "Wheel second", "wheel second", "A-2-3-4-5 is the second-highest straight, below T-J-Q-K-A."),
    ("H5", "Low in the middle", "low middle",
     "The middle is played deuce-to-seven low; only back >= front must hold."),
    ("SC-1-1-1", "Basic 1-1-1", "1-1-1", "1 unit per row won, 1 paid per row lost."),
    ("SC-2-4", "2-4", "2-4", "1 per row plus 1 to whoever wins two or three rows: 2 or 4 net."),
    ("SC-2-4-total", "2-4 on totals", "2-4 totals",
     "2-4 with royalties added to each total first; the higher total takes the overall unit."),
    ("SC-1-4", "1-4", "1-4", "1 per row, no overall unit; a scoop pays 4."),
    ("SC-1-6", "1-6", "1-6", "1 per row plus 3 for a scoop: a scoop pays 6."),
    ("SC-1-6-HR", "1-6 with home run", "1-6 home run",
     "1-6, and a player who scoops every opponent is paid 9 by each."),
    ("SC-TW", "Taiwanese", "Taiwanese", "A scoop pays double; scooping all three others pays double again."),
    ("SC-MANDARIN", "Mandarin", "Mandarin",
     "1 per row; a shot (scoop) doubles the rows, a four-handed home run triples them."),
    ("SC-EASTERN", "Eastern", "Eastern", "1 per row; a winning bonus hand earns only its bonus points."),
    ("SC-RACE-11", "Race to 11", "race to 11",
     "1 point per row won, first to 11; a four-handed scoop earns a 4th point."),
    ("SC-STAKES", "Stakes matrix", "stakes matrix", "Each pair of players plays for its own unit value."),
    ("R-NONE", "No royalties", "no royalties", "No bonus for strong rows."),
    ("R-FUTUREBET", "FutureBet royalties", "FutureBet royalties",
     "FutureBet's bonuses on top of the row: trips front 2, full house 1, quads 3, straight flush 4."),
    ("R-PAGAT-TYPICAL", "pagat typical royalties", "pagat royalties",
     "pagat's typical table, in place of the row's unit: trips front 3 ... straight flush 5."),
    ("R-PAGAT-EXTRA-A", "pagat extra royalties A", "pagat extra A royalties",
     "pagat's variation paid on top of the row: trips front 2 ... straight flush 4."),
    ("R-PAGAT-EXTRA-B", "pagat extra royalties B", "pagat extra B royalties",
     "pagat's larger table on top of the row: middle quads 6, middle straight flush 8."),
    ("R-PAGAT-PRINTABLE", "pagat printable royalties", "pagat printable royalties",
     "pagat's printable table, in place of the row's unit: middle quads 8, middle straight flush 10."),
    ("R-PAGAT-RANKINGS", "pagat rankings royalties", "pagat rankings royalties",
     "pagat's rankings table, in place of the row's unit: middle straight flush 14."),
    ("R-PAGAT-CASINO", "pagat casino royalties", "casino royalties",
     "The 1-6 casino game's additional payments: trips front 3 ... middle straight flush 10."),
    ("R-EASTERN", "Eastern royalties", "Eastern royalties",
     "The Eastern bonus table, replacing the row's point: middle straight flush 10, quads 8."),
    ("R-MANDARIN", "Mandarin royalties", "Mandarin royalties",
     "Front trips triple the row; other bonus hands added on at Eastern's amounts."),
    ("R-TW", "Taiwanese royalties", "TW royalties",
     "Taiwanese base points: trips front 3, middle quads 3, middle straight flush 4, back quads 2."),
    ("R-FLAT", "Flat royalties", "flat royalties", "Every royalty hand worth the same amount (1 unit)."),
    ("RM-WINNER", "Winner collects", "winner collects",
     "Only the player who wins the row collects its royalty."),
    ("RM-CANCEL", "Royalties cancel", "royalties cancel",
     "Royalties held by both players in the same row cancel; only the row point moves."),
    ("RM-ALWAYS", "Paid win or lose", "royalties win or lose",
     "Royalties are declared before the reveal and every opponent pays them, win or lose."),
    ("RM-ONE", "One royalty a hand", "one royalty",
     "A player collects only the largest of their royalties in a hand."),
    ("RM-DEALT", "Royalties as dealt", "royalties as dealt",
     "Quads or a straight flush in the 13 cards are paid even if broken up when setting."),
    ("N-DRAGON", "Dragon", "dragon", "13 different ranks, 2 to A, any suits."),
    ("N-CLEAN-DRAGON", "Clean dragon", "clean dragon", "A dragon all in one suit."),
    ("N-ONE-SUIT", "One suit", "one suit", "All thirteen cards of one suit."),
    ("N-SIX-PAIRS", "Six pairs", "six pairs", "Six pairs and an odd card (quads count as two pairs)."),
    ("N-FIVE-PAIRS-TRIPS", "Five pairs and trips", "five pairs + trips",
     "Five pairs and one three of a kind."),
    ("N-FOUR-TRIPS", "Four trips", "four trips", "Four three-of-a-kinds and an odd card."),
    ("N-THREE-QUADS", "Three quads", "three quads", "Three fours of a kind and an odd card."),
    ("N-THREE-STRAIGHTS", "Three straights", "three straights",
     "The cards set as two five-card straights and a three-card straight."),
    ("N-THREE-FLUSHES", "Three flushes", "three flushes", "The cards set as three flushes."),
    ("N-THREE-STRAIGHT-FLUSHES", "Three straight flushes", "three straight flushes",
     "The cards set as three straight flushes."),
    ("N-ALL-ONE-COLOUR", "All one colour", "one colour", "All thirteen cards red, or all black."),
    ("N-TWELVE-ONE-COLOUR", "Twelve of one colour", "twelve one colour",
     "At least twelve cards of one colour."),
    ("N-ALL-LOW", "All low", "all low", "Every card 2 to 8."),
    ("N-ALL-HIGH", "All high", "all high", "Every card 8 to A."),
    ("N-NO-PICTURES", "No pictures", "no pictures", "No jack, queen or king (an ace is not a picture)."),
    ("N-ALL-PICTURES", "All pictures", "all pictures", "Every card J to A."),
    ("N-TWELVE-PICTURES", "Twelve pictures", "twelve pictures", "All twelve jacks, queens and kings."),
    ("N-SIX-AND-ABOVE", "Six and above", "six and above", "Every card 6 to A."),
    ("NS-NONE", "No naturals", "no naturals", "No special 13-card hands."),
    ("NS-TW", "Taiwanese naturals", "TW naturals",
     "Thirteen naturals from no pictures (3) to the clean dragon (108)."),
    ("NS-PAGAT-TYPICAL", "pagat typical naturals", "pagat naturals",
     "Six pairs, three straights, three flushes 3 each; dragon 13."),
    ("NS-PAGAT-LONG", "pagat long naturals", "pagat long naturals",
     "Twelve naturals from three flushes (3) to one suit (26)."),
    ("NS-PAGAT-PRINTABLE", "pagat printable naturals", "pagat printable naturals",
     "Three straights, flushes, six pairs 3; five pairs and trips 6; dragon 13; one suit 26."),
    ("NS-PAGAT-RANKINGS", "pagat rankings naturals", "pagat rankings naturals",
     "Seven naturals from three straights (4) to one suit (39)."),
    ("NS-AUTOWIN", "Automatic wins", "automatic wins",
     "Dragon, six pairs, three flushes, three straights: each wins automatically, worth a scoop."),
    ("NAT-1", "Each natural collects", "naturals net",
     "A natural collects from every opponent; two naturals net the difference."),
    ("NAT-2", "Higher natural collects", "higher natural collects",
     "Natural against natural: the higher collects its full amount from the lower."),
    ("NAT-3", "Declaring optional", "declaring optional",
     "A player may set a natural as an ordinary hand instead of declaring it."),
    ("NAT-4", "Naturals first", "naturals first",
     "Naturals are paid before anyone surrenders and are exempt from scooping."),
    ("S-SURRENDER", "Surrender", "surrender",
     "Give up before the reveal and pay a fixed amount to each opponent."),
    ("S-MISSET", "Mis-set penalty", "mis-set",
     "A hand set out of order pays each opponent a scoop, or a fixed number of points."),
    ("S-CHIPS", "Chip limit", "chip limit",
     "Nobody wins or loses more than they had at the start of the deal."),
    ("S-ACES", "Aces side bet", "aces bet",
     "Side bet on aces held: 1, 2, 6, 8 for one to four; fewer aces pay the difference."),
    ("S-BANK", "Banked game", "banked", "Each player plays against the bank (seat 0)."),
    ("S-RAKE", "House charge", "rake",
     "The house takes a fee per hand, a share of the pot or a time charge; a jackpot drop on top."),
    # open-face Chinese poker (cpstats.ofc), rulebook section 7
    ("OFC-DEAL-CLASSIC", "Classic open face", "OFC classic",
     "2-4 players; 5 cards placed face up, then 1 card a street for 8 streets; cards never move."),
    ("OFC-DEAL-PINEAPPLE", "Pineapple", "Pineapple",
     "2-3 players; 5 cards placed, then 3 cards four times: keep 2, discard 1 face down."),
    ("OFC-FOUL", "Open-face foul", "OFC foul",
     "A board not ending back >= middle >= front loses every row and earns no royalty; two fouls score 0."),
    ("OFC-SCORE-1-6", "Open-face 1-6 scoring", "OFC 1-6",
     "Between two players 1 a row and 3 more for a scoop, plus the difference of their royalties."),
    ("OFC-R-STANDARD", "Standard open-face royalties", "OFC royalties",
     "Back straight 2 .. royal 25; middle trips 2 .. royal 50; front 66 = 1 .. AA = 9, 222 = 10 .. 22."),
    ("OFC-FL-ENTRY", "Fantasyland entry", "Fantasyland QQ+",
     "QQ or better in front on a board that does not foul deals the next hand at once, face down."),
    ("OFC-FL-PROGRESSIVE", "Progressive Fantasyland", "progressive FL",
     "Entry with QQ / KK / AA / trips in front deals 14 / 15 / 16 / 17 cards (Pineapple)."),
    ("OFC-FL-STAY-A", "Fantasyland stay, rule A", "stay A",
     "A Fantasyland board stays with trips in front, a full house+ in the middle or quads+ in the back."),
    ("OFC-FL-STAY-B", "Fantasyland stay, rule B", "stay B",
     "A Fantasyland board stays with trips in front or quads or better in the back only."),
)
_SECTION_OF = {"D": 1, "H": 2, "SC": 3, "R": 4, "RM": 4, "N": 5, "NS": 5, "NAT": 5, "S": 6, "OFC": 7}

#: Every rule ID the package implements, keyed by ID: name, short label, one-line description
#: and rulebook section (:class:`RuleInfo`). Plain data for :func:`cpstats.describe` and the
#: docs' glossary.
RULES: dict[str, RuleInfo] = {
    rule: RuleInfo(name, short, text,
                   _SECTION_OF[rule.split("-")[0] if "-" in rule else rule.rstrip("0123456789")])
    for rule, name, short, text in _GLOSSARY
}

#: Each royalty row (:data:`ROYALTY_ROWS`) in words.
ROYALTY_ROW_NAMES = {
    "front_trips": "trips in front", "middle_full_house": "full house in the middle",
    "middle_quads": "quads in the middle", "middle_straight_flush": "straight flush in the middle",
    "back_quads": "quads in the back", "back_straight_flush": "straight flush in the back",
}


def natural_id(name: str) -> str:
    """The rulebook ID of a natural named as in :data:`NATURAL_NAMES`: ``six_pairs`` -> ``N-SIX-PAIRS``."""
    return "N-" + name.upper().replace("_", "-")


def rule_info(rule: str) -> RuleInfo:
    """The :class:`RuleInfo` of a rule ID or natural name (``"SC-2-4"``, ``"dragon"``); a
    ``KeyError`` naming it for an ID the package does not implement."""
    key = natural_id(rule) if rule in NATURAL_NAMES else str(rule)
    try:
        return RULES[key]
    except KeyError:
        raise KeyError(f"{rule!r} is not a rule ID the package implements") from None
