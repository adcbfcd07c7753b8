"""The named presets, as data: each one's description, seed and the options it sets.

:data:`PRESETS` holds component objects and field values, not :class:`~cpstats.thirteen.rules.variant.Variant`
objects, so that this module sits below the variant and its codec; :func:`cpstats.engine.registry.get_preset`
builds the variant and :func:`cpstats.engine.registry.presets` lists them. Any schedule or mode not used by
a preset is reached by an override, e.g.
``load_variant("2-4(royalties=R-PAGAT-EXTRA-B,royalty_mode=RM-ONE)")``.

Decisions (where the rulebook or the seeds leave a choice open):

- Decision: ``2-4``, ``2-4-total``, ``1-4`` and ``1-6`` are the bare scoring systems (no
  royalties, naturals or surrender): the name promises the scoring and nothing else.
- Decision: every preset seats 4 players (000, 001, 002 describe four-handed play) except
  ``criss-cross``, which is heads-up (D3); every preset pays a mis-set a scoop (000) except the
  004 games, which pay 4 points.
- Decision: ``futurebet-2-4`` scores SC-2-4-total, the form FutureBet itself derives 2-4 from
  (002: "bonuses ... are added to each player's total"), since its royalties are in play.
- Decision: FutureBet gives no fee amounts; its per-hand fee is modelled as 0.05 units per
  player per hand (``fixed-player``), so it grows with the stake and the table size.
- Decision: ``pagat-casino`` takes a fixed 0.5 units per table per hand plus a 0.1-unit jackpot
  drop (001 gives no amounts), and its naturals are 001's typical schedule (NS-PAGAT-TYPICAL):
  001 says special hands are settled first but prints no table for the casino game.
- Decision: ``banked`` is 001's banked variation: 1 unit per row (SC-1-1-1), the extra royalties
  printed beside it (R-PAGAT-EXTRA-B) paid win or lose (RM-ALWAYS), NS-PAGAT-LONG with the
  difference rule (NAT-1), the bank winning tied rows, no commission; the bank sets by the house
  way (S-HOUSE-WAY, ``bank.setter=house-way``), as a house-banked table game's dealer does.
- Decision: ``thirteen-card`` and ``western`` are the same rules (004's 13 Card Poker already
  pays the majority point that "Western" names); ``race-to-11`` and ``criss-cross`` carry no
  royalties; criss-cross scores 2-4, the most common system (000).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cpstats.thirteen.rules.components import Naturals, Royalties
from cpstats.rules.house import AcesBet, Bank, BankMode, BankSetter, Misset, Rake, RakeModel, Surrender
from cpstats.thirteen.rules.ids import (Deal, NaturalSchedule, NaturalSettlement, RoyaltyMode, RoyaltySchedule, Scoring)

__all__ = ["Preset", "PRESETS", "BAD_BEAT_001", "preset_names"]

R, NS = RoyaltySchedule, NaturalSchedule

#: 001's example jackpot trigger.
BAD_BEAT_001 = ("a player holding a straight flush, three of a kind and a pair loses all "
                "three rows to one opponent")

_FUTUREBET_FEE = Rake(model=RakeModel.FIXED_PLAYER, amount=0.05)


class Preset(NamedTuple):
    """One named preset: a one-line description, the seed text it follows and the options it sets
    (keyword arguments of :class:`~cpstats.thirteen.rules.variant.Variant` besides ``name``)."""

    description: str
    seed: str
    options: dict[str, Any]


_004 = {"naturals": Naturals(schedule=NS.AUTOWIN), "misset": Misset(points=4)}
_ROWS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("basic", "1 unit per row won, nothing else", "001", {"scoring": Scoring.BASIC}),
    ("2-4", "1 per row plus the overall unit for two or three rows", "000",
     {"scoring": Scoring.TWO_FOUR}),
    ("2-4-total", "2-4 with bonuses added to the totals before the overall unit", "002",
     {"scoring": Scoring.TWO_FOUR_TOTAL}),
    ("1-4", "1 per row, no overall unit, a scoop pays 4", "002", {"scoring": Scoring.ONE_FOUR}),
    ("1-6", "1 per row plus 3 for a scoop", "000", {"scoring": Scoring.ONE_SIX}),
    ("futurebet-2-4", "FutureBet 2-4: bonuses, surrender 2, per-hand fee", "002",
     {"scoring": Scoring.TWO_FOUR_TOTAL, "royalties": Royalties(schedule=R.FUTUREBET),
      "surrender": Surrender(enabled=True, amount=2), "rake": _FUTUREBET_FEE}),
    ("futurebet-1-6", "FutureBet 1-6: bonuses, surrender 3, per-hand fee", "002",
     {"scoring": Scoring.ONE_SIX, "royalties": Royalties(schedule=R.FUTUREBET),
      "surrender": Surrender(enabled=True, amount=3), "rake": _FUTUREBET_FEE}),
    ("pagat-typical", "pagat's typical game: rows, typical royalties and special hands",
     "001", {"scoring": Scoring.BASIC, "royalties": Royalties(schedule=R.PAGAT_TYPICAL),
             "naturals": Naturals(schedule=NS.PAGAT_TYPICAL)}),
    ("pagat-casino", "pagat's casino 1-6 game: home run 9, surrender 3, chips, aces, rake",
     "001", {"scoring": Scoring.ONE_SIX_HOME_RUN, "royalties": Royalties(schedule=R.PAGAT_CASINO),
             "naturals": Naturals(schedule=NS.PAGAT_TYPICAL),
             "surrender": Surrender(enabled=True, amount=3), "chips_limit": True,
             "aces": AcesBet(enabled=True),
             "rake": Rake(model=RakeModel.FIXED_TABLE, amount=0.5, jackpot_drop=0.1,
                          jackpot_trigger=BAD_BEAT_001)}),
    ("taiwanese", "Taiwanese: scoops double, home runs double again, TW naturals", "000",
     {"scoring": Scoring.TAIWANESE, "royalties": Royalties(schedule=R.TW),
      "naturals": Naturals(schedule=NS.TW)}),
    ("eastern", "004 Eastern: bonus hands replace the row's point; automatic wins", "004",
     {"scoring": Scoring.EASTERN, "royalties": Royalties(schedule=R.EASTERN), **_004}),
    ("western", "004 Western: 2-4 majority point; automatic wins; mis-set pays 4", "004",
     {"scoring": Scoring.TWO_FOUR, **_004}),
    ("mandarin", "004 Mandarin: front trips triple, shot doubles, home run triples", "004",
     {"scoring": Scoring.MANDARIN, "royalties": Royalties(schedule=R.MANDARIN), **_004}),
    ("thirteen-card", "004 13 Card Poker: 2-4, automatic wins worth a scoop, mis-set pays 4",
     "004", {"scoring": Scoring.TWO_FOUR, **_004}),
    ("banked", "each player against the bank, which wins ties; royalties win or lose",
     "001", {"scoring": Scoring.BASIC,
             "royalties": Royalties(schedule=R.PAGAT_EXTRA_B, mode=RoyaltyMode.ALWAYS),
             "naturals": Naturals(schedule=NS.PAGAT_LONG,
                                  settlement=NaturalSettlement.EACH_COLLECTS),
             "bank": Bank(mode=BankMode.BANKED, setter=BankSetter.HOUSE_WAY)}),
    ("criss-cross", "heads-up, two hands each, each against both of the other's (2-4)",
     "000", {"scoring": Scoring.TWO_FOUR, "players": 2, "deal": Deal.CRISS_CROSS}),
    ("race-to-11", "1 point per row, first to 11; a four-handed scoop earns a 4th", "000",
     {"scoring": Scoring.RACE_TO_11}),
]

#: Every preset by name, in listing order: ``Variant(name=name, **PRESETS[name].options)``.
PRESETS: dict[str, Preset] = {name: Preset(text, seed, options) for name, text, seed, options in _ROWS}


def preset_names() -> tuple[str, ...]:
    """Names of the presets, in listing order."""
    return tuple(PRESETS)

