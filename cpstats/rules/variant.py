"""Rules as frozen data (rulebook sections 1-6): one :class:`Variant` holds every option.

Every choice is a :class:`~enum.StrEnum` whose values are the rulebook IDs (``"SC-2-4"``,
``"RM-WINNER"``, ``"R-FUTUREBET"``, ``"NS-TW"``); every component is a frozen dataclass that
checks itself in ``__post_init__`` and raises :class:`~cpstats.errors.OptionError` naming the
field, the value and what is allowed. A variant is also a string, a preset name followed by the
options that differ from it, e.g. ``2-4(royalties=R-FUTUREBET,surrender=2)``; see
:func:`load_variant`. The numeric schedules (R-*, NS-*) and the presets live in
:mod:`cpstats.rules.presets`; the string and dict codec in :mod:`cpstats.rules.text`; the section-6
components (surrender, mis-set, aces, bank, rake, stakes) in :mod:`cpstats.rules.house`, and
are re-exported here.

For kernels, :meth:`Variant.kernel_tables` returns every rule as plain numpy arrays.

Decisions (where the rulebook leaves a choice open):

- Decision: ``R-NONE`` and ``NS-NONE`` (not rulebook IDs) name "no royalties" and "no naturals".
- Decision: a royalty amount of 0 means "no royalty for that hand" under both payment kinds; an
  "instead of 1" amount must otherwise be at least 1.
- Decision: under RM-ALWAYS an "instead of 1" royalty's bonus is its amount minus the row's 1
  (:meth:`Royalties.bonuses`); under RM-DEALT a dealt quad or straight flush is paid at the back
  row's amount.
- Decision: NAT-1 lets every declared natural collect from every opponent, so two naturals net
  the difference of their values (the S-BANK rule); NAT-2 (default) lets the higher natural
  collect its full amount from the lower (001).
- Decision: a home run (SC-1-6-HR, SC-TW) needs at least 3 players, SC-MANDARIN's needs 4 (004
  "only in a four-handed game"); ``home_run=False`` turns SC-TW's and SC-MANDARIN's off.
- Decision: the scoop and home-run multipliers of SC-TW and SC-MANDARIN apply to the pair's
  whole row result (rows and royalties, 000 "base points").
- Decision: the bank is seat 0 (the dealer) and plays every other seat; seat 0 also starts the
  clockwise settlement order (S-CHIPS).
"""

from __future__ import annotations

import importlib

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any

import numpy as np

from cpstats.errors import OptionError
from cpstats.rules.check import as_bool, as_enum, as_number, invalid, suggest
from cpstats.rules.house import AcesBet, Bank, BankMode, Misset, Rake, RakeModel, Stakes, Surrender

__all__ = [
    "Scoring", "RoyaltySchedule", "RoyaltyPayment", "RoyaltyMode", "NaturalSchedule",
    "NaturalSettlement", "BankMode", "RakeModel", "HandOrdering", "Deal",
    "ROYALTY_ROWS", "ROYALTY_ROW_INDEX", "ROYALTY_CATEGORY", "NATURAL_NAMES", "CATEGORIES",
    "SCOOP",
    "ScoringParams", "SCORING_PARAMS", "STANDARD_SURRENDER",
    "Royalties", "Naturals", "Surrender", "Misset", "AcesBet", "Bank", "Rake", "Stakes",
    "Variant", "load_variant",
]


class Scoring(StrEnum):
    """Scoring systems (rulebook section 3). SC-STAKES is :class:`Stakes`, not a system."""

    SC_1_1_1 = "SC-1-1-1"
    SC_2_4 = "SC-2-4"
    SC_2_4_TOTAL = "SC-2-4-total"
    SC_1_4 = "SC-1-4"
    SC_1_6 = "SC-1-6"
    SC_1_6_HR = "SC-1-6-HR"
    SC_TW = "SC-TW"
    SC_MANDARIN = "SC-MANDARIN"
    SC_EASTERN = "SC-EASTERN"
    SC_RACE_11 = "SC-RACE-11"


class RoyaltySchedule(StrEnum):
    """Royalty schedules (section 4); amounts in :data:`cpstats.rules.presets.ROYALTY_TABLES`."""

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
    """Natural schedules (section 5); payouts in :data:`cpstats.rules.presets.NATURAL_TABLES`."""

    NONE = "NS-NONE"
    TW = "NS-TW"
    PAGAT_TYPICAL = "NS-PAGAT-TYPICAL"
    PAGAT_LONG = "NS-PAGAT-LONG"
    PAGAT_PRINTABLE = "NS-PAGAT-PRINTABLE"
    PAGAT_RANKINGS = "NS-PAGAT-RANKINGS"
    AUTOWIN = "NS-AUTOWIN"


class NaturalSettlement(StrEnum):
    """Natural against natural: NAT-1 each collects (net difference), NAT-2 the higher collects."""

    NAT_1 = "NAT-1"
    NAT_2 = "NAT-2"


class HandOrdering(StrEnum):
    """Five-card ordering: H1 standard, H4 wheel second, H5 deuce-to-seven low in the middle."""

    H1 = "H1"
    H4 = "H4"
    H5 = "H5"


class Deal(StrEnum):
    """D2 one 13-card hand per player; D3 criss-cross, heads-up with two hands each."""

    D2 = "D2"
    D3 = "D3"


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


def _schedules() -> Any:
    # presets imports this module, so the tables are looked up when first needed; by module
    # path, since the package re-exports a function under the name ``presets``.
    return importlib.import_module(".presets", __package__)


# -- scoring ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoringParams:
    """The numbers of a scoring system, as a settlement kernel reads them.

    Between two players, with ``w`` rows won and ``l`` lost (``w + l <= 3``), before royalties:
    ``row * (w - l)``, plus ``majority`` to whoever wins two or three rows, plus ``scoop_bonus``
    for winning all three; a scoop's total is multiplied by ``scoop_multiplier``. A player who
    scoops every opponent collects ``home_run_bonus`` more from each and the multiplier becomes
    ``home_run_multiplier``. ``totals_first`` (SC-2-4-total) gives the majority unit to the higher
    total after royalties. ``race_target > 0`` (SC-RACE-11) is a match to that many points, in
    which a player scores the points they win (rows, plus ``scoop_bonus``), not a net amount.
    """

    row: float = 1.0
    majority: float = 0.0
    scoop_bonus: float = 0.0
    scoop_multiplier: float = 1.0
    home_run_bonus: float = 0.0
    home_run_multiplier: float = 1.0
    totals_first: bool = False
    race_target: int = 0

    @property
    def scoop_value(self) -> float:
        """Units a scoop moves between two players, without royalties."""
        return (3 * self.row + self.majority + self.scoop_bonus) * self.scoop_multiplier

    def to_array(self) -> np.ndarray:
        """``float64[8]`` of the fields in declaration order (``totals_first`` as 0/1)."""
        return np.array([float(getattr(self, f.name)) for f in fields(self)], dtype=np.float64)


SCORING_PARAMS: dict[Scoring, ScoringParams] = {
    Scoring.SC_1_1_1: ScoringParams(),
    Scoring.SC_2_4: ScoringParams(majority=1),
    Scoring.SC_2_4_TOTAL: ScoringParams(majority=1, totals_first=True),
    Scoring.SC_1_4: ScoringParams(scoop_bonus=1),
    Scoring.SC_1_6: ScoringParams(scoop_bonus=3),
    Scoring.SC_1_6_HR: ScoringParams(scoop_bonus=3, home_run_bonus=3),
    Scoring.SC_TW: ScoringParams(scoop_multiplier=2, home_run_multiplier=4),
    Scoring.SC_MANDARIN: ScoringParams(scoop_multiplier=2, home_run_multiplier=3),
    Scoring.SC_EASTERN: ScoringParams(),
    Scoring.SC_RACE_11: ScoringParams(scoop_bonus=1, race_target=11),
}
#: Surrender amount per opponent when none is given (002, 001).
STANDARD_SURRENDER: dict[Scoring, int] = {
    Scoring.SC_2_4: 2, Scoring.SC_2_4_TOTAL: 2, Scoring.SC_1_4: 2,
    Scoring.SC_1_6: 3, Scoring.SC_1_6_HR: 3,
}
#: Fewest players a system's home run can happen with.
HOME_RUN_PLAYERS: dict[Scoring, int] = {
    Scoring.SC_1_6_HR: 3, Scoring.SC_TW: 3, Scoring.SC_MANDARIN: 4,
}


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
        table_payment, table_amounts = _schedules().ROYALTY_TABLES[schedule]
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
        Options of the detectors in :mod:`cpstats.hands.naturals`.
    """

    schedule: NaturalSchedule = NaturalSchedule.NONE
    payouts: tuple[tuple[str, float | str], ...] | None = None
    settlement: NaturalSettlement = NaturalSettlement.NAT_2
    declare_optional: bool = True
    qka_front_straight: bool = True
    straight_flush_counts: bool = True

    def __post_init__(self) -> None:
        schedule = as_enum("naturals.schedule", NaturalSchedule, self.schedule)
        object.__setattr__(self, "schedule", schedule)
        raw = _schedules().NATURAL_TABLES[schedule] if self.payouts is None else self.payouts
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


# -- the variant ------------------------------------------------------------------------------

_FORBIDDEN_NAME = set("(),=%")


def _component(path: str, cls: type, value: object, from_id: Any = None) -> Any:
    if isinstance(value, cls):
        return value
    if isinstance(value, Mapping):
        known = [f.name for f in fields(cls)]
        for key in value:
            if key not in known:
                raise invalid(f"{path}.{key}", value[key], f"unknown option{suggest(key, known)}")
        return cls(**value)
    if from_id is not None and isinstance(value, (str, StrEnum)):
        return from_id(value)
    raise invalid(path, value, f"expected a {cls.__name__}")


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A complete rule set: every option of rulebook sections 1-6, plus the preset ``name``.

    ``Variant()`` is the ``basic`` preset. Components may be given loosely: a schedule ID for
    ``royalties``/``naturals``, a mapping for any component, a nested list for ``stakes``.
    ``str(v)`` is ``name(overrides)`` and :func:`load_variant` reads it back.

    Parameters
    ----------
    name
        The preset the variant derives from (or any label without ``(),=%``).
    scoring
        The scoring system (section 3).
    players
        2, 3 or 4 (D2).
    home_run
        Whether SC-TW's or SC-MANDARIN's home-run bonus is in play (SC-1-6-HR always has it).
    race_target
        Points to win a match of SC-RACE-11 (11).
    royalties, naturals, surrender, misset, aces, bank, rake, stakes
        The components; ``stakes=None`` plays every pair for 1 unit.
    chips_limit
        S-CHIPS: nobody wins or loses more than their stack; settle in :meth:`pair_order`.
    ranking, deal
        Five-card ordering (H1, H4, H5) and deal format (D2, D3).
    """

    name: str = "basic"
    scoring: Scoring = Scoring.SC_1_1_1
    players: int = 4
    home_run: bool = True
    race_target: int = 11
    royalties: Royalties = field(default_factory=Royalties)
    naturals: Naturals = field(default_factory=Naturals)
    surrender: Surrender = field(default_factory=Surrender)
    misset: Misset = field(default_factory=Misset)
    chips_limit: bool = False
    aces: AcesBet = field(default_factory=AcesBet)
    bank: Bank = field(default_factory=Bank)
    rake: Rake = field(default_factory=Rake)
    stakes: Stakes | None = None
    ranking: HandOrdering = HandOrdering.H1
    deal: Deal = Deal.D2

    def __post_init__(self) -> None:
        put = lambda key, value: object.__setattr__(self, key, value)  # noqa: E731
        name = self.name
        if not isinstance(name, str) or not name.strip() or _FORBIDDEN_NAME & set(name):
            raise invalid("name", self.name, "a non-empty label without ( ) , = %")
        put("name", self.name.strip())
        put("scoring", as_enum("scoring", Scoring, self.scoring))
        players = as_number("players", self.players, integer=True, minimum=-math.inf)
        if players not in (2, 3, 4):
            raise invalid("players", self.players, "2, 3 or 4 players (D2)")
        put("players", players)
        put("home_run", as_bool("home_run", self.home_run))
        put("race_target", as_number("race_target", self.race_target, minimum=1, integer=True,
                                     noun="points"))
        put("royalties", _component("royalties", Royalties, self.royalties,
                                    lambda s: Royalties(schedule=s)))
        put("naturals", _component("naturals", Naturals, self.naturals,
                                   lambda s: Naturals(schedule=s)))
        for key, cls in (("surrender", Surrender), ("misset", Misset), ("aces", AcesBet),
                         ("bank", Bank), ("rake", Rake)):
            put(key, _component(key, cls, getattr(self, key)))
        put("chips_limit", as_bool("chips_limit", self.chips_limit))
        if self.stakes is not None and not isinstance(self.stakes, Stakes):
            put("stakes", Stakes(self.stakes))
        put("ranking", as_enum("ranking", HandOrdering, self.ranking))
        put("deal", as_enum("deal", Deal, self.deal))
        self._check_contradictions()

    def _check_contradictions(self) -> None:
        scoring, players = self.scoring, self.players
        if scoring is Scoring.SC_1_6_HR and not self.home_run:
            raise invalid("home_run", False,
                          "SC-1-6-HR is the 1-6 game with a home run; use SC-1-6")
        need = HOME_RUN_PLAYERS.get(scoring, 0)
        if self.home_run and players < need:
            raise invalid("players", players, f"the home run of scoring={scoring.value} needs at "
                          f"least {need} players; set home_run=false or choose another system")
        if scoring is not Scoring.SC_RACE_11 and self.race_target != 11:
            raise invalid("race_target", self.race_target, "only scoring=SC-RACE-11 has a target")
        surrender = self.surrender
        if surrender.enabled and surrender.amount is None and scoring not in STANDARD_SURRENDER:
            raise invalid("surrender", "standard", f"scoring={scoring.value} has no standard "
                          "surrender amount (2 in the 2-4 family, 3 in 1-6); give the amount")
        if self.stakes is not None and self.stakes.size != players:
            raise invalid("stakes", f"{self.stakes.size}x{self.stakes.size}",
                          f"the stakes matrix must be {players}x{players} for players={players}")
        if self.deal is Deal.D3 and players != 2:
            raise invalid("players", players, "criss-cross (deal=D3) is heads-up: players=2")

    # -- numbers for kernels ------------------------------------------------------------------

    def scoring_params(self) -> ScoringParams:
        """The scoring system's numbers for this table (home run and race scoop resolved)."""
        params = SCORING_PARAMS[self.scoring]
        changes: dict[str, Any] = {}
        if not self.home_run:
            changes.update(home_run_bonus=0.0, home_run_multiplier=1.0)
        if params.race_target:
            # 000: "if a player wins all 3 hands and there are 4 players, ... a 4th point".
            changes.update(race_target=self.race_target,
                           scoop_bonus=params.scoop_bonus if self.players == 4 else 0.0)
        return ScoringParams(**{**asdict(params), **changes})

    @property
    def hands_per_player(self) -> int:
        """1, or 2 in criss-cross (D3)."""
        return 2 if self.deal is Deal.D3 else 1

    def pair_order(self) -> np.ndarray:
        """``uint8[k, 2]`` hand pairs in settlement order, clockwise from the dealer (seat 0).

        Hand ``h`` belongs to seat ``h // hands_per_player``. Banked: seat 0 against each other
        seat. Criss-cross: each of seat 0's hands against each of seat 1's.
        """
        if self.deal is Deal.D3:
            pairs = [(0, 2), (0, 3), (1, 2), (1, 3)]
        elif self.bank.banked:
            pairs = [(0, j) for j in range(1, self.players)]
        else:
            pairs = [(i, j) for i in range(self.players) for j in range(i + 1, self.players)]
        return np.array(pairs, dtype=np.uint8).reshape(-1, 2)

    def stakes_array(self) -> np.ndarray:
        """``float64[players, players]`` unit values (all 1 without a stakes matrix)."""
        if self.stakes is None:
            return np.ones((self.players, self.players), dtype=np.float64)
        return self.stakes.array()

    def surrender_amount(self) -> float | None:
        """Units a surrendering player pays each opponent, or None if surrender is not allowed."""
        if not self.surrender.enabled:
            return None
        if self.surrender.amount is not None:
            return self.surrender.amount
        return STANDARD_SURRENDER[self.scoring]

    def misset_points(self) -> float:
        """Units a mis-set hand pays each opponent (a scoop unless a fixed amount is set)."""
        if self.misset.points is not None:
            return self.misset.points
        return self.scoring_params().scoop_value

    def kernel_tables(self) -> dict[str, np.ndarray]:
        """Every rule as plain arrays for a numba kernel (no strings, no Python objects).

        Keys: ``scoring`` (:meth:`ScoringParams.to_array`), ``royalty_row_value`` and
        ``royalty_bonus`` (``float64[6]``, :data:`ROYALTY_ROWS` order), ``royalty_by_category``
        (``float64[3, 9]``), ``royalty_mode`` (index in :class:`RoyaltyMode`), ``natural_payout``
        and ``natural_rank`` (:data:`NATURAL_NAMES` order), ``natural_settlement`` (0 NAT-1,
        1 NAT-2), ``surrender`` (amount, or -1 if not allowed), ``misset``, ``aces``
        (``float64[5]``, 0 if the bet is off), ``bank`` (banked, wins_ties, commission, fee),
        ``rake`` (:meth:`Rake.to_array`), ``stakes`` and ``pairs`` (:meth:`pair_order`).
        """
        params = self.scoring_params()
        payout, rank = self.naturals.arrays(params.scoop_value)
        surrender = self.surrender_amount()
        return {
            "scoring": params.to_array(),
            "royalty_row_value": self.royalties.row_values(),
            "royalty_bonus": self.royalties.bonuses(),
            "royalty_by_category": self.royalties.by_category(),
            "royalty_mode": np.array(list(RoyaltyMode).index(self.royalties.mode), dtype=np.uint8),
            "natural_payout": payout,
            "natural_rank": rank,
            "natural_settlement": np.array(
                list(NaturalSettlement).index(self.naturals.settlement), dtype=np.uint8),
            "surrender": np.array(-1.0 if surrender is None else surrender, dtype=np.float64),
            "misset": np.array(self.misset_points(), dtype=np.float64),
            "aces": self.aces.values() if self.aces.enabled else np.zeros(5, dtype=np.float64),
            "bank": np.array([self.bank.banked, self.bank.wins_ties, self.bank.commission,
                              self.bank.fee], dtype=np.float64),
            "rake": self.rake.to_array(),
            "stakes": self.stakes_array(),
            "pairs": self.pair_order(),
        }

    # -- conversions --------------------------------------------------------------------------

    def __str__(self) -> str:
        from cpstats.rules.text import format_variant

        return format_variant(self)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of every option (enums as their IDs)."""
        from cpstats.rules.text import variant_to_dict

        return variant_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """Inverse of :meth:`to_dict`; missing keys take their defaults, unknown keys are errors."""
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise invalid(key, data[key], f"unknown option{suggest(key, known)}")
        return cls(**data)

    def to_json(self, **kwargs: Any) -> str:
        """:meth:`to_dict` as JSON (``kwargs`` go to :func:`json.dumps`)."""
        import json

        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Variant:
        """Inverse of :meth:`to_json`."""
        import json

        return cls.from_dict(json.loads(text))

    def replace(self, **overrides: Any) -> Variant:
        """A validated copy with options changed.

        Keys are field names (given a component, an enum or a value) or any key of the variant
        string, with ``__`` for ``.``: ``v.replace(players=3, royalties__middle_quads=8)``,
        ``v.replace(**{"royalties": "R-TW", "royalty_mode": "RM-CANCEL"})``.
        """
        from cpstats.rules.text import apply_overrides

        return apply_overrides(self, {k.replace("__", "."): v for k, v in overrides.items()})


def load_variant(text: str) -> Variant:
    """Read a variant string: a preset name, optionally with ``(key=value,...)`` overrides.

    Keys are those ``str(variant)`` writes (``scoring``, ``players``, ``royalties``,
    ``royalties.middle_quads``, ``royalty_mode``, ``naturals``, ``naturals.dragon``, ``surrender``,
    ``misset``, ``stakes``, ...); IDs are case-insensitive and may drop their prefix. Overrides
    apply in a fixed order (a schedule before its amounts), whatever order they are written in.

    Raises
    ------
    OptionError
        For an unknown preset, key or value (with close matches), or a contradiction.

    Examples
    --------
    >>> v = load_variant("2-4(royalties=R-PAGAT-TYPICAL,royalty_mode=RM-CANCEL)")
    >>> v.royalties.middle_full_house, v.royalties.payment.value, v.royalties.mode.value
    (2, 'instead', 'RM-CANCEL')
    >>> str(v)
    '2-4(royalties=R-PAGAT-TYPICAL,royalty_mode=RM-CANCEL)'
    >>> load_variant(str(v)) == v
    True
    >>> load_variant("futurebet-1-6").surrender_amount()
    3
    """
    from cpstats.rules.text import parse_variant

    return parse_variant(text)


def resolve_variant(variant: Variant | str) -> Variant:
    """A :class:`Variant` from itself, a preset name or a variant string."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return load_variant(variant)
    raise OptionError(f"variant={variant!r} is invalid: expected a Variant, a preset name or a "
                      "variant string")
