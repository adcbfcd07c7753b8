"""The PAR sheet's first two sections: the rules in words and a worked example deal.

The rules come from ``cpstats.rules.describe.describe`` where the package has it, else from the
short sentences here (one per rule the variant sets). The example deals one hand with a fixed
seed, sets every seat with the sheet's strategy (:func:`cpstats.strategies.set_hands`) and
settles it (:func:`cpstats.settlement.settle`), so a reader can follow every payment.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cpstats.apps.par_figures import ROYALTY_LABELS, natural_label
from cpstats.cards.codes import format_cards
from cpstats.hands.naturals import NATURALS
from cpstats.rules import ROYALTY_ROWS, Variant
from cpstats.settlement import settle
from cpstats.settlement.engine import Declare, Surrender
from cpstats.strategies import set_hands
from cpstats.strategies.api import best_natural_bits

__all__ = ["rules_in_words", "worked_example", "SCORING_WORDS"]

#: One sentence per scoring system (RULEBOOK.md section 3).
SCORING_WORDS = {
    "SC-1-1-1": "each pair of players settles row by row: 1 unit per row won, 1 paid per row lost.",
    "SC-2-4": "1 unit per row won, plus 1 more to the player who wins two or three rows: a pair "
              "settles 0, 2 (two rows of three) or 4 units (a scoop of all three).",
    "SC-2-4-total": "as 2-4, but bonuses are added to each player's total first and the overall "
                    "unit goes to the higher total.",
    "SC-1-4": "1 unit per row won; no extra unit for two rows of three, but a scoop pays 4.",
    "SC-1-6": "1 unit per row won, plus 3 bonus units for a scoop (a scoop pays 6).",
    "SC-1-6-HR": "as 1-6, and a player who scoops every other player (a home run) is paid 9 "
                 "instead of 6 by each.",
    "SC-TW": "Taiwanese: 1 unit per row; a scooped player pays double, a home run doubles again.",
    "SC-MANDARIN": "Mandarin: 1 unit per row; trips in front triple that row; a scoop of one "
                   "opponent doubles each row, a four-handed home run triples it.",
    "SC-EASTERN": "Eastern: 1 unit per row with the Eastern bonus table; a winning bonus hand "
                  "earns only its bonus; winning two rows of three nets 1.",
    "SC-RACE-11": "one point per row (a fourth for a scoop with four players); a match is a "
                  "race to 11 points over several deals.",
}


_PLAY = ("Each player sets a 3-card front, a 5-card middle and a 5-card back; the back must beat "
         "the middle and the middle the front, or the hand is fouled (mis-set). Each pair of "
         "opponents compares front with front, middle with middle, back with back.")


def rules_in_words(v: Variant) -> list[tuple[str, str]]:
    """The variant's rules as (rule, words) pairs a cardroom manager reads: how a hand is played,
    then ``cpstats.rules.describe.describe_rules`` where the package has it, else a short
    sentence per rule written here."""
    try:
        from cpstats.rules.describe import describe_rules
    except ImportError:
        return [("play", _PLAY), *_fallback_rules(v)]
    return [("play", _PLAY), *describe_rules(v)]


def _amount(x: float) -> str:
    return f"{x:,.2f}".rstrip("0").rstrip(".")


def _fallback_rules(v: Variant) -> list[tuple[str, str]]:
    seats = f"{v.players} players, one 13-card hand each" if v.hands_per_player == 1 else \
        "two players, two 13-card hands each (criss-cross: each hand plays both of the opponent's)"
    out = [("players", seats),
           ("scoring", f"{v.scoring.system.value}: {SCORING_WORDS.get(v.scoring.system.value, '')}")]
    bonus = v.kernel_tables()["royalty_bonus"]
    if bonus.any():
        paid = ", ".join(f"{ROYALTY_LABELS[r].lower()} {_amount(b)}" for r, b in zip(ROYALTY_ROWS, bonus) if b)
        out.append(("royalties", f"{v.royalties.schedule.value}, collected {_royalty_mode(v)}, units "
                                 f"per opponent on top of the row: {paid}"))
    payout, rank = v.kernel_tables()["natural_payout"], v.kernel_tables()["natural_rank"]
    if (rank >= 0).any():
        paid = ", ".join(f"{natural_label(n).lower()} {_amount(p)}"
                         for n, p, r in zip(NATURALS, payout, rank) if r >= 0)
        out.append(("naturals", f"{v.naturals.schedule.value}: a hand holding one may declare it and "
                                f"is paid by every opponent: {paid}"))
    return out + _house_words(v)


def _royalty_mode(v: Variant) -> str:
    return {"RM-WINNER": "by the winner of the row", "RM-CANCEL": "net of the opponent's royalty",
            "RM-ALWAYS": "win or lose", "RM-ONE": "the largest one per pair",
            "RM-DEALT": "once for the hand dealt"}.get(v.royalties.mode.value, v.royalties.mode.value)


def _house_words(v: Variant) -> list[tuple[str, str]]:
    out = [("mis-set", f"a fouled hand pays {_amount(v.misset_points())} units to each opponent")]
    surrender = v.surrender_amount()
    if surrender is not None:
        out.append(("surrender", f"before the reveal, paying {_amount(surrender)} units to each opponent"))
    if v.bank.banked:
        ties = "wins tied rows" if v.bank.wins_ties else "pushes tied rows"
        charge = (f"; winners pay a {v.bank.commission:.0%} commission" if v.bank.commission else
                  f"; winners pay a fee of {_amount(v.bank.fee)} units" if v.bank.fee else "")
        out.append(("banking", f"seat 0 is the bank and plays every other seat; the bank {ties}{charge}"))
    rake = v.rake
    words = {"none": "The house takes no rake.",
             "fixed-table": f"The house takes {_amount(rake.amount)} units a hand from the table.",
             "fixed-player": f"The house takes {_amount(rake.amount)} units a hand from each player.",
             "percent": f"The house takes {rake.percent:.0%} of the pot"
                        + (f", at most {_amount(rake.cap)} units" if rake.cap else "") + ".",
             "time": f"The house charges {_amount(rake.amount)} units per player per hour."}
    out.append(("house charge", words[rake.model.value]))
    if rake.jackpot_drop:
        out.append(("jackpot", f"a drop of {_amount(rake.jackpot_drop)} units a hand funds a jackpot"))
    return out


def _deal(seed: int, deals: int, hands: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(52)[: 13 * hands] for _ in range(deals)]).astype(np.uint8)


def _sorted_rows(setting: np.ndarray) -> str:
    """A setting as "front / middle / back", each row high card first."""
    rows = (setting[:3], setting[3:8], setting[8:])
    return " / ".join(format_cards(np.sort(r)[::-1]) for r in rows)


def worked_example(v: Variant, *, strategy="ev", tables=None, seed: int = 2026,
                   tries: int = 40) -> dict:
    """One deal set and settled: ``hands`` (seat, cards, setting, decision), ``pairs`` (each
    pair's rows, points, royalties, bonuses, total) and ``net`` (each seat's result), with
    ``seed`` and ``deal`` (which of the seeded deals was shown).

    Of the first ``tries`` deals from ``seed``, the first in which some pair is scooped is
    shown (a scoop shows the bonus rules at work), else the first deal.
    """
    h = v.players * v.hands_per_player
    dealt = _deal(seed, tries, h).reshape(tries * h, 13)
    d = set_hands(dealt, v, strategy=strategy, rng=seed, tables=tables)
    chosen = None
    for i in range(tries):
        settlement = _settle(v, d, dealt, i, h)
        if chosen is None:
            chosen = (i, settlement)
        if ((settlement.pairs[["front", "middle", "back"]].abs().sum(axis=1) == 3)
                & (settlement.pairs["front"] == settlement.pairs["middle"])
                & (settlement.pairs["middle"] == settlement.pairs["back"])).any():
            chosen = (i, settlement)
            break
    i, settlement = chosen
    return {"seed": seed, "deal": i, "hands": _hands_frame(v, d, dealt, i, h),
            "pairs": _pairs_frame(settlement), "net": _net_frame(v, settlement)}


def _entry(d, dealt: np.ndarray, j: int, v: Variant):
    if d.surrender[j]:
        return Surrender(dealt[j])
    if d.declare[j]:
        return Declare(_best_natural(dealt[j], v), d.settings[j])
    return d.settings[j]


def _best_natural(cards: np.ndarray, v: Variant) -> str:
    bits = int(best_natural_bits(cards[None], v)[0])
    return NATURALS[bits.bit_length() - 1]


def _settle(v: Variant, d, dealt: np.ndarray, i: int, h: int):
    return settle(v, [_entry(d, dealt, j, v) for j in range(i * h, (i + 1) * h)], check_deck=False)


def _hands_frame(v: Variant, d, dealt: np.ndarray, i: int, h: int) -> pd.DataFrame:
    rows = []
    for j in range(i * h, (i + 1) * h):
        seat = (j - i * h) // v.hands_per_player
        decision = ("surrenders" if d.surrender[j] else
                    f"declares {natural_label(_best_natural(dealt[j], v)).lower()}" if d.declare[j]
                    else "plays its rows")
        rows.append({"seat": seat, "cards": format_cards(np.sort(dealt[j])[::-1]),
                     "setting (front / middle / back)": _sorted_rows(d.settings[j]),
                     "decision": decision})
    return pd.DataFrame(rows)


_RESULT = {1: "won", 0: "tie", -1: "lost"}


def _pairs_frame(settlement) -> pd.DataFrame:
    p = settlement.pairs
    frame = pd.DataFrame({"pair": [f"seat {a} v seat {b}" for a, b in zip(p["seat_a"], p["seat_b"])],
                          "how settled": p["kind"].map({"rows": "rows", "natural": "natural",
                                                        "surrender": "surrender",
                                                        "misset": "foul"}).fillna(p["kind"])})
    for row in ("front", "middle", "back"):
        frame[row] = p[row].map(lambda x: _RESULT.get(int(np.sign(x)), str(x)))
    for col in ("points", "royalties", "bonuses", "total"):
        frame[col] = p[col].astype(float)
    return frame


def _net_frame(v: Variant, settlement) -> pd.DataFrame:
    seats = np.arange(v.players)
    who = [("the bank" if v.bank.banked and s == 0 else f"seat {s}") for s in seats]
    return pd.DataFrame({"seat": who, "net": settlement.net.astype(float)})
