"""The PAR sheet's first two sections: the rules in words and a worked example deal.

The rules come from ``cpstats.engine.describe.describe`` where the package has it, else from the
short sentences here (one per rule the variant sets). The example deals one hand with a fixed
seed, sets every seat with the sheet's strategy (:func:`cpstats.thirteen.play.set_hands`) and
settles it (:func:`cpstats.thirteen.settlement.settle`), so a reader can follow every payment.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cpstats.thirteen.par.figures import natural_label
from cpstats.engine.describe import describe_rules
from cpstats.cards.codes import deal, format_cards
from cpstats.thirteen.naturals.detect import NATURALS
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.settlement import charges_seats, seat_charges, settle
from cpstats.thirteen.settlement.engine import Declare, Surrender
from cpstats.thirteen.play import set_hands
from cpstats.thirteen.play.api import best_natural_bits

__all__ = ["rules_in_words", "worked_example"]

#: One sentence per scoring system (RULEBOOK.md section 3).

_PLAY = ("Each player sets a 3-card front, a 5-card middle and a 5-card back; the back must beat "
         "the middle and the middle the front, or the hand is fouled (mis-set). Each pair of "
         "opponents compares front with front, middle with middle, back with back.")


def rules_in_words(v: Variant) -> list[tuple[str, str]]:
    """The variant's rules as (rule, words) pairs a cardroom manager reads: how a hand is played,
    then one line per rule from :func:`cpstats.engine.describe.describe_rules`."""
    return [("play", _PLAY), *describe_rules(v)]


def _sorted_rows(setting: np.ndarray) -> str:
    """A setting as "front / middle / back", each row high card first."""
    rows = (setting[:3], setting[3:8], setting[8:])
    return " / ".join(format_cards(np.sort(r)[::-1]) for r in rows)


def worked_example(v: Variant, *, setter="ev", seed: int = 2026,
                   tries: int = 40) -> dict:
    """One deal set and settled: ``hands`` (seat, cards, setting, decision), ``pairs`` (each
    pair's rows, points, royalties, bonuses, total), ``net`` (each seat's result, and where the
    house charges its share of the charge and its result after it), ``rake`` (the house's take
    on the deal: rake, commission or fee; the jackpot drop is apart) and ``jackpot`` (the drop),
    with ``seed`` and ``deal`` (which of the seeded deals was shown).

    Of the first ``tries`` deals from ``seed``, the first in which some pair is scooped is
    shown (a scoop shows the bonus rules at work), else the first deal.
    """
    h = v.players * v.hands_per_player
    dealt = deal(seed, tries, h).reshape(tries * h, 13)
    d = set_hands(dealt, v, setter=setter, rng=seed)
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
            "pairs": _pairs_frame(settlement), "net": _net_frame(v, settlement),
            "rake": float(settlement.rake), "jackpot": float(settlement.jackpot)}


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
    """Each seat's net; where the house charges, its share of the charge
    (:func:`cpstats.thirteen.settlement.seat_charges`) and its result after it."""
    seats = np.arange(v.players)
    who = [("the bank" if v.bank.banked and s == 0 else f"seat {s}") for s in seats]
    frame = pd.DataFrame({"seat": who, "net": settlement.net.astype(float)})
    if charges_seats(v):
        share = seat_charges(v, settlement.net[None, :], np.array([settlement.rake]))[0]
        frame["house_charge"] = share
        frame["net_after_charges"] = settlement.net - share
    return frame
