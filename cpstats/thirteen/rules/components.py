"""The scoring systems' numbers and the components :class:`ScoringRules`, :class:`Royalties` and
:class:`Naturals`.

Each component is a frozen dataclass that checks itself in ``__post_init__`` (raising
:class:`~cpstats.errors.OptionError` naming the field, the value and what is allowed) and fills
what it is not given from its rulebook ID: a scoring system's numbers from
:data:`SCORING_PARAMS`, a schedule's amounts from :mod:`cpstats.thirteen.rules.schedules`. The section-6
components are in :mod:`cpstats.rules.house`; :class:`~cpstats.thirteen.rules.variant.Variant` holds them all.

Choice: the scoring is a component like the royalties, holding its ID *and* every
number, filled from the ID where not given. So the variant string needs no new grammar: the ID
key (``scoring=SC-TW``) sets all the numbers, a number key refines one
(``2-4(scoring.scoop_bonus=5)``, ``1-6(scoring.middle=2,scoring.back=3)``), and a variant
prints as its preset plus the numbers that differ, exactly as ``royalties=R-TW`` and
``royalties.front_trips=10`` do.

Decisions (where the rulebook leaves a choice open):

- Decision: a royalty amount of 0 means "no royalty for that hand" under both payment kinds; an
  "instead of 1" amount must otherwise be at least 1.
- Decision: under RM-ALWAYS an "instead of 1" royalty's bonus is its amount minus the row's 1
  (:meth:`Royalties.bonuses`); under RM-DEALT a dealt quad or straight flush is paid at the back
  row's amount.
- Decision: NAT-1 lets every declared natural collect from every opponent, so two naturals net
  the difference of their values (the S-BANK rule); NAT-2 (default) lets the higher natural
  collect its full amount from the lower (001).
- Decision: the scoop and home-run multipliers of SC-TW and SC-MANDARIN apply to the pair's
  whole row result (rows and royalties, 000 "base points").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np

from cpstats.rules.check import as_bool, as_enum, as_number, invalid, suggest
from cpstats.thirteen.rules.ids import (CATEGORIES, NATURAL_NAMES, ROYALTY_CATEGORY, ROYALTY_ROW_INDEX, ROYALTY_ROWS, SCOOP, NaturalSchedule, NaturalSettlement, RoyaltyMode, RoyaltyPayment, RoyaltySchedule, Scoring)
from cpstats.thirteen.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES

__all__ = ["ScoringParams", "SCORING_PARAMS", "SCORING_NUMBERS", "SCORING_ARRAY",
           "STANDARD_SURRENDER", "HOME_RUN_PLAYERS", "ScoringRules", "Royalties", "Naturals"]


# -- scoring ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoringParams:
    """The numbers of a scoring system, as a settlement kernel reads them.

    Between two players, before royalties, each row won pays its points (``front``, ``middle``,
    ``back``) and each row lost costs them; ``majority`` goes to whoever wins two or three rows,
    ``scoop_bonus`` to whoever wins all three, and a scoop's total (royalties included) is
    multiplied by ``scoop_multiplier``. A player who scoops every opponent, at a table of at
    least ``home_run_players``, collects ``home_run_bonus`` more from each and the multiplier
    becomes ``home_run_multiplier`` (no home run when the bonus is 0 and the multiplier 1).
    ``totals_first`` (SC-2-4-total) gives the majority unit to the higher total after royalties.
    ``race_target > 0`` (SC-RACE-11) is a match to that many points, in which a player scores
    the points they win (rows, plus ``scoop_bonus``), not a net amount.
    """

    front: float = 1.0
    middle: float = 1.0
    back: float = 1.0
    majority: float = 0.0
    scoop_bonus: float = 0.0
    scoop_multiplier: float = 1.0
    home_run_bonus: float = 0.0
    home_run_multiplier: float = 1.0
    home_run_players: int = 3
    totals_first: bool = False
    race_target: int = 0

    @property
    def rows(self) -> tuple[float, float, float]:
        """Points of the front, middle and back rows."""
        return (self.front, self.middle, self.back)

    @property
    def scoop_value(self) -> float:
        """Units a scoop moves between two players, without royalties."""
        return (self.front + self.middle + self.back + self.majority
                + self.scoop_bonus) * self.scoop_multiplier

    @property
    def has_home_run(self) -> bool:
        """Whether a home run pays anything beyond a scoop."""
        return self.home_run_bonus != 0 or self.home_run_multiplier != 1

    def to_array(self) -> np.ndarray:
        """``float64[11]`` of the fields in :data:`SCORING_ARRAY` order (``totals_first`` 0/1)."""
        return np.array([float(getattr(self, name)) for name in SCORING_ARRAY], dtype=np.float64)


#: The order of :meth:`ScoringParams.to_array`. Slots 0-7 keep their meaning from before rows
#: could pay differently (slot 0 was the one row unit, now the front's points; kernels index
#: slots 1-5), the middle's and back's points and the home run's table size follow.
SCORING_ARRAY = ("front", "majority", "scoop_bonus", "scoop_multiplier", "home_run_bonus",
                 "home_run_multiplier", "totals_first", "race_target", "middle", "back",
                 "home_run_players")


SCORING_PARAMS: dict[Scoring, ScoringParams] = {
    Scoring.BASIC: ScoringParams(),
    Scoring.TWO_FOUR: ScoringParams(majority=1),
    Scoring.TWO_FOUR_TOTAL: ScoringParams(majority=1, totals_first=True),
    Scoring.ONE_FOUR: ScoringParams(scoop_bonus=1),
    Scoring.ONE_SIX: ScoringParams(scoop_bonus=3),
    Scoring.ONE_SIX_HOME_RUN: ScoringParams(scoop_bonus=3, home_run_bonus=3),
    Scoring.TAIWANESE: ScoringParams(scoop_multiplier=2, home_run_multiplier=4),
    Scoring.MANDARIN: ScoringParams(scoop_multiplier=2, home_run_multiplier=3,
                                       home_run_players=4),
    Scoring.EASTERN: ScoringParams(),
    Scoring.RACE_TO_11: ScoringParams(scoop_bonus=1, race_target=11),
}
#: Surrender amount per opponent when none is given (002, 001).
STANDARD_SURRENDER: dict[Scoring, int] = {
    Scoring.TWO_FOUR: 2, Scoring.TWO_FOUR_TOTAL: 2, Scoring.ONE_FOUR: 2,
    Scoring.ONE_SIX: 3, Scoring.ONE_SIX_HOME_RUN: 3,
}
#: Fewest players each preset system's home run can happen with (systems with a home run only).
HOME_RUN_PLAYERS: dict[Scoring, int] = {
    system: params.home_run_players for system, params in SCORING_PARAMS.items()
    if params.has_home_run
}
#: The names of the scoring numbers, as :class:`ScoringParams` and :class:`ScoringRules` hold them.
SCORING_NUMBERS = tuple(f.name for f in fields(ScoringParams))


@dataclass(frozen=True)
class ScoringRules:
    """A scoring system (section 3): its rulebook ID and its numbers (:class:`ScoringParams`).

    The ID names a set of numbers (:data:`SCORING_PARAMS`); a number left as ``None`` is the
    ID's, a number given overrides it (a custom scoring). ``v.scoring.scoop_bonus`` is the
    variant string's ``scoring.scoop_bonus``, as ``v.royalties.front_trips`` is
    ``royalties.front_trips``. The ID still decides what is not a number: the standard
    surrender amount and SC-1-6-HR's refusal to lose its home run.

    Limits (checked here, one line each): points per row ``> 0``; the majority unit, the scoop
    and home-run bonuses ``>= 0``; multipliers ``>= 1``; a home run in play pays at least a
    scoop (its multiplier replaces the scoop's, so it must be ``>= scoop_multiplier``); the home
    run needs 3 or 4 players (heads-up it would be a scoop); the race target is a whole number
    of points, 0 for no race.

    Decisions: an "instead of 1" royalty replaces the row's first point, so in a game whose rows
    pay more than 1 the royalty's amount less 1 is added to the row's points; in a race
    (``race_target > 0``) the scoop bonus is 000's fourth point, earned four-handed only.
    """

    system: Scoring = Scoring.BASIC
    front: float | None = None
    middle: float | None = None
    back: float | None = None
    majority: float | None = None
    scoop_bonus: float | None = None
    scoop_multiplier: float | None = None
    home_run_bonus: float | None = None
    home_run_multiplier: float | None = None
    home_run_players: int | None = None
    totals_first: bool | None = None
    race_target: int | None = None

    def __post_init__(self) -> None:
        system = as_enum("scoring", Scoring, self.system)
        object.__setattr__(self, "system", system)
        table = SCORING_PARAMS[system]
        for name in SCORING_NUMBERS:
            value = getattr(self, name)
            object.__setattr__(self, name, _scoring_number(
                name, getattr(table, name) if value is None else value))
        self._check_home_run()

    def _check_home_run(self) -> None:
        params = self.params()
        if params.has_home_run and params.home_run_multiplier < params.scoop_multiplier:
            raise invalid("scoring.home_run_multiplier", self.home_run_multiplier,
                          "a home run pays at least a scoop: its multiplier replaces the scoop's "
                          f"and must be >= scoring.scoop_multiplier={self.scoop_multiplier}")

    def params(self) -> ScoringParams:
        """The numbers as :class:`ScoringParams` (before the table resolves them)."""
        return ScoringParams(**{name: getattr(self, name) for name in SCORING_NUMBERS})

    @property
    def fewest_players(self) -> int:
        """The smallest table the system allows: its home run's minimum, or 2."""
        return self.home_run_players if self.params().has_home_run else 2


def _scoring_number(name: str, value: object) -> int | float | bool:
    path = f"scoring.{name}"
    if name == "totals_first":
        return as_bool(path, value)
    if name in ("front", "middle", "back"):
        return as_number(path, value, strict=True, noun="points")
    if name.endswith("multiplier"):
        return as_number(path, value, minimum=1, noun="multipliers")
    if name == "race_target":
        return as_number(path, value, integer=True, noun="points")
    if name == "home_run_players":
        players = as_number(path, value, integer=True, minimum=-math.inf)
        if players not in (3, 4):
            raise invalid(path, value, "3 or 4 players (heads-up, a home run is a scoop)")
        return players
    return as_number(path, value)


# -- components -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Royalties:
    """A royalty schedule (R-*) and how it is settled (RM-*).

    Parameters
    ----------
    schedule
        The schedule the amounts come from. Amounts and ``payment`` left as ``None`` are taken
        from it; any given amount overrides it (custom amounts).
    front_trips, middle_full_house, middle_quads, middle_straight_flush
        Units for winning the front or middle with that hand (0: no royalty).
    back_quads, back_straight_flush
        Units for winning that row with that hand (0: no royalty).
    payment
        ``instead`` (the amount replaces the row's 1) or ``extra`` (paid on top of it).
    mode
        RM-WINNER (default), RM-CANCEL, RM-ALWAYS, RM-ONE or RM-DEALT.
    """

    schedule: RoyaltySchedule = RoyaltySchedule.NONE
    front_trips: float | None = None
    middle_full_house: float | None = None
    middle_quads: float | None = None
    middle_straight_flush: float | None = None
    back_quads: float | None = None
    back_straight_flush: float | None = None
    payment: RoyaltyPayment | None = None
    mode: RoyaltyMode = RoyaltyMode.WINNER

    def __post_init__(self) -> None:
        schedule = as_enum("royalties.schedule", RoyaltySchedule, self.schedule)
        table_payment, table_amounts = ROYALTY_TABLES[schedule]
        object.__setattr__(self, "schedule", schedule)
        payment = table_payment if self.payment is None else self.payment
        object.__setattr__(self, "payment", as_enum("royalties.payment", RoyaltyPayment, payment))
        object.__setattr__(self, "mode", as_enum("royalties.mode", RoyaltyMode, self.mode))
        for row, default in zip(ROYALTY_ROWS, table_amounts):
            value = getattr(self, row)
            amount = default if value is None else as_number(f"royalties.{row}", value)
            if self.payment is RoyaltyPayment.INSTEAD and 0 < amount < 1:
                raise invalid(f"royalties.{row}", amount,
                              "an 'instead of 1' amount must be 0 (no royalty) or >= 1")
            object.__setattr__(self, row, amount)

    @classmethod
    def flat(cls, unit: float = 1, *, mode: RoyaltyMode | str = RoyaltyMode.WINNER) -> Royalties:
        """R-FLAT: every royalty worth ``unit`` extra units."""
        amounts = {row: unit for row in ROYALTY_ROWS}
        return cls(schedule=RoyaltySchedule.FLAT, mode=mode, **amounts)  # type: ignore[arg-type]

    def amounts(self) -> np.ndarray:
        """``float64[6]`` amounts in :data:`ROYALTY_ROWS` order."""
        return np.array([getattr(self, row) for row in ROYALTY_ROWS], dtype=np.float64)

    def row_values(self) -> np.ndarray:
        """``float64[6]``: units a row pays when won with that hand (1 when it has no royalty)."""
        amounts = self.amounts()
        if self.payment is RoyaltyPayment.INSTEAD:
            return np.where(amounts > 0, amounts, 1.0)
        return 1.0 + amounts

    def bonuses(self) -> np.ndarray:
        """``float64[6]``: units beyond the row's 1 (what RM-CANCEL cancels, RM-ALWAYS pays)."""
        return self.row_values() - 1.0

    def by_category(self) -> np.ndarray:
        """``float64[3, 9]`` bonus by row (front, middle, back) and :data:`CATEGORIES` code."""
        table = np.zeros((3, len(CATEGORIES)), dtype=np.float64)
        for bonus, row, category in zip(self.bonuses(), ROYALTY_ROW_INDEX, ROYALTY_CATEGORY):
            table[row, category] = bonus
        return table


def _payout_pairs(value: object) -> list[tuple[object, object]]:
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, Iterable) and not isinstance(value, str):
        pairs = [tuple(p) if isinstance(p, Sequence) and not isinstance(p, str) else (p,)
                 for p in value]
        for pair in pairs:
            if len(pair) != 2:
                raise invalid("naturals.payouts", pair, "expected (name, units) pairs")
        return pairs  # type: ignore[return-value]
    raise invalid("naturals.payouts", value, "expected (name, units) pairs, low to high")


@dataclass(frozen=True)
class Naturals:
    """A natural schedule (NS-*): which naturals are in play, their payouts and their ranking.

    Parameters
    ----------
    schedule
        The schedule the payouts come from when ``payouts`` is ``None``.
    payouts
        ``(name, units)`` pairs ordered low to high: the order *is* the ranking among naturals.
        Names are from :data:`NATURAL_NAMES`; units are ``> 0`` or :data:`SCOOP` (worth a scoop,
        NS-AUTOWIN).
    settlement
        NAT-2 (default): against another natural the higher collects its full amount and the
        lower pays it. NAT-1: every natural collects from every opponent, naturals included, so
        two naturals net the difference (S-BANK).
    declare_optional
        NAT-3: a player may set a natural normally instead of declaring it.
    qka_front_straight, straight_flush_counts
        Options of the detectors in :mod:`cpstats.thirteen.naturals.detect`.
    """

    schedule: NaturalSchedule = NaturalSchedule.NONE
    payouts: tuple[tuple[str, float | str], ...] | None = None
    settlement: NaturalSettlement = NaturalSettlement.HIGHER_COLLECTS
    declare_optional: bool = True
    qka_front_straight: bool = True
    straight_flush_counts: bool = True

    def __post_init__(self) -> None:
        schedule = as_enum("naturals.schedule", NaturalSchedule, self.schedule)
        object.__setattr__(self, "schedule", schedule)
        raw = NATURAL_TABLES[schedule] if self.payouts is None else self.payouts
        payouts: list[tuple[str, float | str]] = []
        for name, units in _payout_pairs(raw):
            if name not in NATURAL_NAMES:
                raise invalid("naturals.payouts", name,
                              f"unknown natural{suggest(str(name), NATURAL_NAMES)}")
            if any(name == seen for seen, _ in payouts):
                raise invalid("naturals.payouts", name, "a natural is listed twice")
            if isinstance(units, str) and units.strip().lower() == SCOOP:
                units = SCOOP
            else:
                units = as_number(f"naturals.{name}", units, strict=True)
            payouts.append((str(name), units))
        object.__setattr__(self, "payouts", tuple(payouts))
        object.__setattr__(self, "settlement",
                           as_enum("naturals.settlement", NaturalSettlement, self.settlement))
        for flag in ("declare_optional", "qka_front_straight", "straight_flush_counts"):
            object.__setattr__(self, flag, as_bool(f"naturals.{flag}", getattr(self, flag)))

    def arrays(self, scoop_value: float) -> tuple[np.ndarray, np.ndarray]:
        """``(payout float64[18], rank int8[18])`` indexed like :data:`NATURAL_NAMES`.

        ``rank`` is the position in the schedule (0 lowest), -1 for a natural not in play, whose
        payout is 0. A payout of :data:`SCOOP` becomes ``scoop_value``.
        """
        payout = np.zeros(len(NATURAL_NAMES), dtype=np.float64)
        rank = np.full(len(NATURAL_NAMES), -1, dtype=np.int8)
        for position, (name, units) in enumerate(self.payouts or ()):
            index = NATURAL_NAMES.index(name)
            payout[index] = scoop_value if units == SCOOP else units
            rank[index] = position
        return payout, rank
