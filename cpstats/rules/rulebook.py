"""The rulebook's glossary: every rule ID the package implements (both games), with a human name,
a short label for charts, a one-line description and its section.

Plain data: :func:`cpstats.describe` writes a variant's rules in words from it and the docs'
glossary page is built from it.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["RuleInfo", "RULES", "SECTIONS", "rule_info"]


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
    ("S-HOUSE-WAY", "House way", "house way",
     "The bank sets its hand by the house way, the dealer's fixed printed rules, not by choice."),
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
    ("OFC-BUTTON", "Moving button", "button moves",
     "The button moves a seat a hand, the player left of it acting first; a Fantasyland hand may hold it."),
    ("OFC-STAKES", "Table stakes", "table stakes",
     "Each player brings points; nobody wins from a player more than that player has; none left: out."),
    ("OFC-MATCH", "Match of a round", "match",
     "One hand per player (the button goes round once) plus one per Fantasyland hand; ends if one is left."),
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


def rule_info(rule: str) -> RuleInfo:
    """The :class:`RuleInfo` of a rule ID or natural name (``"SC-2-4"``, ``"dragon"``); a
    ``KeyError`` naming it for an ID the package does not implement."""
    key = str(rule)
    if key not in RULES and f"N-{key.upper().replace('_', '-')}" in RULES:
        key = f"N-{key.upper().replace('_', '-')}"
    try:
        return RULES[key]
    except KeyError:
        raise KeyError(f"{rule!r} is not a rule ID the package implements") from None
