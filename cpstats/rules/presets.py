"""Named presets and every numeric schedule of the rulebook, as data.

:data:`ROYALTY_TABLES` holds the R-* schedules and :data:`NATURAL_TABLES` the NS-* schedules,
exactly as RULEBOOK.md lists them; :func:`presets` lists the named variants and
:func:`get_preset` returns one. Any schedule or mode not used by a preset is reached by an
override, e.g. ``load_variant("2-4(royalties=R-PAGAT-EXTRA-B,royalty_mode=RM-ONE)")``.

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
  difference rule (NAT-1), the bank winning tied rows, no commission.
- Decision: R-TW's "base points" are extra (a middle full house worth 1 *instead of* 1 would be
  no royalty at all); R-PAGAT-CASINO's "additional payments" are extra.
- Decision: R-MANDARIN's front trips "triple the row" (2 extra, so the row pays 3) and its other
  bonus hands are "added on" (extra) at the only other amounts 004 prints, R-EASTERN's.
- Decision: NS-AUTOWIN ranks from low to high three straights, three flushes, six pairs,
  dragon: the reverse of 004's list, whose first item (dragon) "beats all other".
- Decision: ``thirteen-card`` and ``western`` are the same rules (004's 13 Card Poker already
  pays the majority point that "Western" names); ``race-to-11`` and ``criss-cross`` carry no
  royalties; criss-cross scores 2-4, the most common system (000).
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from cpstats.rules.check import suggest
from cpstats.errors import OptionError
from cpstats.rules.variant import (
    SCOOP, AcesBet, Bank, BankMode, Deal, Misset, NaturalSchedule, NaturalSettlement, Naturals,
    Rake, RakeModel, RoyaltyMode, RoyaltyPayment, Royalties, RoyaltySchedule, Scoring,
    Surrender, Variant,
)

__all__ = ["ROYALTY_TABLES", "NATURAL_TABLES", "BAD_BEAT_001", "presets", "preset_names",
           "get_preset"]

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

#: 001's example jackpot trigger.
BAD_BEAT_001 = ("a player holding a straight flush, three of a kind and a pair loses all "
                "three rows to one opponent")

_FUTUREBET_FEE = Rake(model=RakeModel.FIXED_PLAYER, amount=0.05)


def _build() -> list[tuple[str, str, str, Variant]]:
    """(name, description, seed, variant) for every preset, in listing order."""
    _004 = {"naturals": Naturals(schedule=NS.AUTOWIN), "misset": Misset(points=4)}
    rows: list[tuple[str, str, str, dict]] = [
        ("basic", "1 unit per row won, nothing else", "001", {"scoring": Scoring.SC_1_1_1}),
        ("2-4", "1 per row plus the overall unit for two or three rows", "000",
         {"scoring": Scoring.SC_2_4}),
        ("2-4-total", "2-4 with bonuses added to the totals before the overall unit", "002",
         {"scoring": Scoring.SC_2_4_TOTAL}),
        ("1-4", "1 per row, no overall unit, a scoop pays 4", "002", {"scoring": Scoring.SC_1_4}),
        ("1-6", "1 per row plus 3 for a scoop", "000", {"scoring": Scoring.SC_1_6}),
        ("futurebet-2-4", "FutureBet 2-4: bonuses, surrender 2, per-hand fee", "002",
         {"scoring": Scoring.SC_2_4_TOTAL, "royalties": Royalties(schedule=R.FUTUREBET),
          "surrender": Surrender(enabled=True, amount=2), "rake": _FUTUREBET_FEE}),
        ("futurebet-1-6", "FutureBet 1-6: bonuses, surrender 3, per-hand fee", "002",
         {"scoring": Scoring.SC_1_6, "royalties": Royalties(schedule=R.FUTUREBET),
          "surrender": Surrender(enabled=True, amount=3), "rake": _FUTUREBET_FEE}),
        ("pagat-typical", "pagat's typical game: rows, typical royalties and special hands",
         "001", {"scoring": Scoring.SC_1_1_1, "royalties": Royalties(schedule=R.PAGAT_TYPICAL),
                 "naturals": Naturals(schedule=NS.PAGAT_TYPICAL)}),
        ("pagat-casino", "pagat's casino 1-6 game: home run 9, surrender 3, chips, aces, rake",
         "001", {"scoring": Scoring.SC_1_6_HR, "royalties": Royalties(schedule=R.PAGAT_CASINO),
                 "naturals": Naturals(schedule=NS.PAGAT_TYPICAL),
                 "surrender": Surrender(enabled=True, amount=3), "chips_limit": True,
                 "aces": AcesBet(enabled=True),
                 "rake": Rake(model=RakeModel.FIXED_TABLE, amount=0.5, jackpot_drop=0.1,
                              jackpot_trigger=BAD_BEAT_001)}),
        ("taiwanese", "Taiwanese: scoops double, home runs double again, TW naturals", "000",
         {"scoring": Scoring.SC_TW, "royalties": Royalties(schedule=R.TW),
          "naturals": Naturals(schedule=NS.TW)}),
        ("eastern", "004 Eastern: bonus hands replace the row's point; automatic wins", "004",
         {"scoring": Scoring.SC_EASTERN, "royalties": Royalties(schedule=R.EASTERN), **_004}),
        ("western", "004 Western: 2-4 majority point; automatic wins; mis-set pays 4", "004",
         {"scoring": Scoring.SC_2_4, **_004}),
        ("mandarin", "004 Mandarin: front trips triple, shot doubles, home run triples", "004",
         {"scoring": Scoring.SC_MANDARIN, "royalties": Royalties(schedule=R.MANDARIN), **_004}),
        ("thirteen-card", "004 13 Card Poker: 2-4, automatic wins worth a scoop, mis-set pays 4",
         "004", {"scoring": Scoring.SC_2_4, **_004}),
        ("banked", "each player against the bank, which wins ties; royalties win or lose",
         "001", {"scoring": Scoring.SC_1_1_1,
                 "royalties": Royalties(schedule=R.PAGAT_EXTRA_B, mode=RoyaltyMode.ALWAYS),
                 "naturals": Naturals(schedule=NS.PAGAT_LONG,
                                      settlement=NaturalSettlement.NAT_1),
                 "bank": Bank(mode=BankMode.BANKED)}),
        ("criss-cross", "heads-up, two hands each, each against both of the other's (2-4)",
         "000", {"scoring": Scoring.SC_2_4, "players": 2, "deal": Deal.D3}),
        ("race-to-11", "1 point per row, first to 11; a four-handed scoop earns a 4th", "000",
         {"scoring": Scoring.SC_RACE_11}),
    ]
    return [(name, text, seed, Variant(name=name, **options)) for name, text, seed, options in rows]


@lru_cache(maxsize=1)
def _registry() -> dict[str, tuple[str, str, Variant]]:
    # Built on first use: constructing a Variant looks the tables above up in this module.
    return {name: (text, seed, variant) for name, text, seed, variant in _build()}


def preset_names() -> tuple[str, ...]:
    """Names of the presets, in listing order."""
    return tuple(_registry())


def get_preset(name: str) -> Variant:
    """The preset called ``name`` (case-insensitive).

    Raises
    ------
    OptionError
        For an unknown name, listing close matches and every preset.

    Examples
    --------
    >>> get_preset("taiwanese").naturals.payouts[-1]
    ('clean_dragon', 108)
    """
    key = str(name).strip().lower()
    registry = _registry()
    if key not in registry:
        raise OptionError(f"unknown preset {name!r}{suggest(key, registry)}; "
                          f"presets: {', '.join(registry)}")
    return registry[key][2]


def presets() -> pd.DataFrame:
    """Every preset: ``name``, ``description`` (one line), ``seed`` and ``variant`` (its string).

    Examples
    --------
    >>> presets().set_index("name").loc["futurebet-1-6", "seed"]
    '002'
    """
    return pd.DataFrame(
        [(name, text, seed, str(variant)) for name, (text, seed, variant) in _registry().items()],
        columns=["name", "description", "seed", "variant"],
    )
