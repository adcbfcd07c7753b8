"""Rule components of rulebook section 6 (surrender, mis-set, side bets, bank, rake) and the
SC-STAKES matrix. Re-exported by :mod:`cpstats.rules`, where they are documented as a whole."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from cpstats.rules.check import as_bool, as_enum, as_fraction, as_number, invalid

__all__ = ["BankMode", "BankSetter", "RakeModel", "Surrender", "Misset", "AcesBet", "Bank", "Rake", "Stakes",
           "HANDS_PER_HOUR"]

#: The pace of every hourly figure (rake per seat-hour, win per hour) of both games when the
#: variant sets none: only a time rake carries its own ``rake.hands_per_hour``; any other
#: variant's ``rake.hands_per_hour`` is this. The CLI, the dashboard, the notebooks and the PAR
#: sheets all read the variant's, so one run gives one hourly figure everywhere.
HANDS_PER_HOUR = 30.0


class BankMode(StrEnum):
    """Player-against-player (``none``) or a banked game (S-BANK)."""

    NONE = "none"
    BANKED = "S-BANK"


class BankSetter(StrEnum):
    """Who sets the bank's hand in a banked game (S-HOUSE-WAY): the house way, the dealer's fixed
    printed rules (``house-way``), or the run's own setter, as the players set (``ev``)."""

    HOUSE_WAY = "house-way"
    EV = "ev"


class RakeModel(StrEnum):
    """How the house charges (S-RAKE and CASINO-MATH)."""

    NONE = "none"
    FIXED_TABLE = "fixed-table"
    FIXED_PLAYER = "fixed-player"
    PERCENT = "percent"
    TIME = "time"



@dataclass(frozen=True)
class Surrender:
    """S-SURRENDER: give up before the reveal and pay ``amount`` to each opponent.

    ``amount=None`` with ``enabled`` means the scoring system's standard amount
    (:data:`STANDARD_SURRENDER`: 2 in the 2-4 family, 3 in the 1-6 family).
    """

    enabled: bool = False
    amount: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "enabled", as_bool("surrender.enabled", self.enabled))
        if self.amount is not None:
            if not self.enabled:
                raise invalid("surrender.amount", self.amount, "surrender is not enabled")
            amount = as_number("surrender.amount", self.amount, strict=True)
            object.__setattr__(self, "amount", amount)


@dataclass(frozen=True)
class Misset:
    """S-MISSET: a fouled hand pays each opponent still in the hand a scoop (``points=None``,
    000) or ``points`` to every other player (004 pays 4)."""

    points: float | None = None

    def __post_init__(self) -> None:
        if self.points is not None:
            object.__setattr__(self, "points", as_number("misset.points", self.points, strict=True))


@dataclass(frozen=True)
class AcesBet:
    """S-ACES side bet: ``payouts[k-1]`` for holding k aces; fewer aces pay the difference."""

    enabled: bool = False
    payouts: tuple[float, float, float, float] = (1, 2, 6, 8)

    def __post_init__(self) -> None:
        object.__setattr__(self, "enabled", as_bool("aces.enabled", self.enabled))
        values = tuple(self.payouts) if isinstance(self.payouts, Iterable) else (self.payouts,)
        if len(values) != 4:
            raise invalid("aces.payouts", self.payouts, "expected 4 values, for 1 to 4 aces")
        values = tuple(as_number(f"aces.payouts[{i}]", v) for i, v in enumerate(values))
        if any(b < a for a, b in zip(values, values[1:])):
            raise invalid("aces.payouts", values, "more aces must never be worth less")
        object.__setattr__(self, "payouts", values)

    def values(self) -> np.ndarray:
        """``float64[5]``: the worth of holding 0..4 aces."""
        return np.array((0.0, *self.payouts), dtype=np.float64)


@dataclass(frozen=True)
class Bank:
    """S-BANK: each player against the bank (seat 0), which wins tied rows when ``wins_ties``.

    A banked game pays royalties win or lose when its royalty mode is RM-ALWAYS (the ``banked``
    preset). Winners pay a ``commission`` (fraction of the win) or a flat ``fee`` per hand
    (CASINO-MATH), not both. The bank sets its hand by ``setter`` (S-HOUSE-WAY): the house way
    by default, as a house-banked table game's dealer does, or ``ev``, as the players set.
    """

    mode: BankMode = BankMode.NONE
    wins_ties: bool = True
    commission: float = 0.0
    fee: float = 0.0
    setter: BankSetter = BankSetter.HOUSE_WAY

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", as_enum("bank.mode", BankMode, self.mode))
        object.__setattr__(self, "wins_ties", as_bool("bank.wins_ties", self.wins_ties))
        commission = as_fraction("bank.commission", self.commission, of="the win", below=True)
        fee = as_number("bank.fee", self.fee)
        if commission and fee:
            raise invalid("bank.fee", fee, "a banked game takes a commission or a fee, not both")
        if self.mode is BankMode.NONE and (commission or fee):
            raise invalid("bank.commission" if commission else "bank.fee", commission or fee,
                          "only a banked game (bank=S-BANK) charges the winners")
        object.__setattr__(self, "commission", commission)
        object.__setattr__(self, "fee", fee)
        setter = as_enum("bank.setter", BankSetter, self.setter)
        if self.mode is BankMode.NONE and setter is not BankSetter.HOUSE_WAY:
            raise invalid("bank.setter", setter.value, "only a banked game (bank=S-BANK) has a "
                          "bank to set")
        object.__setattr__(self, "setter", setter)

    @property
    def banked(self) -> bool:
        return self.mode is BankMode.BANKED


_RAKE_USES = {
    RakeModel.NONE: (),
    RakeModel.FIXED_TABLE: ("amount",),
    RakeModel.FIXED_PLAYER: ("amount",),
    RakeModel.PERCENT: ("percent", "cap", "threshold"),
    RakeModel.TIME: ("amount", "hands_per_hour"),
}


@dataclass(frozen=True)
class Rake:
    """S-RAKE: the house's charge per hand, in units (CASINO-MATH, "How cardrooms charge").

    ``fixed-table``: ``amount`` per hand; ``fixed-player``: ``amount`` per player per hand;
    ``percent``: 0 if the pot is below ``threshold`` else ``min(percent * pot, cap)``; ``time``:
    ``amount`` per player per hour over ``hands_per_hour``. ``jackpot_drop`` per hand is taken on
    top, for a jackpot paid on ``jackpot_trigger`` (a description), and is not house revenue.
    """

    model: RakeModel = RakeModel.NONE
    amount: float = 0.0
    percent: float = 0.0
    cap: float | None = None
    threshold: float = 0.0
    hands_per_hour: float = HANDS_PER_HOUR
    jackpot_drop: float = 0.0
    jackpot_trigger: str = ""

    def __post_init__(self) -> None:
        model = as_enum("rake.model", RakeModel, self.model)
        object.__setattr__(self, "model", model)
        for name in ("amount", "threshold", "jackpot_drop"):
            object.__setattr__(self, name, as_number(f"rake.{name}", getattr(self, name)))
        object.__setattr__(self, "percent", as_fraction("rake.percent", self.percent, of="the pot"))
        object.__setattr__(self, "hands_per_hour",
                           as_number("rake.hands_per_hour", self.hands_per_hour, strict=True,
                                     noun="hands per hour"))
        if self.cap is not None:
            object.__setattr__(self, "cap", as_number("rake.cap", self.cap, word="none"))
        if not isinstance(self.jackpot_trigger, str):
            raise invalid("rake.jackpot_trigger", self.jackpot_trigger, "expected a description")
        defaults = Rake.__dataclass_fields__
        for name in ("amount", "percent", "cap", "threshold", "hands_per_hour"):
            if name not in _RAKE_USES[model] and getattr(self, name) != defaults[name].default:
                users = [m.value for m in RakeModel if name in _RAKE_USES[m]]
                raise invalid(f"rake.{name}", getattr(self, name), f"the {model.value} rake model does "
                              f"not use it (set rake={' or rake='.join(users)})")

    def per_hand(self, pot: float, players: int) -> float:
        """House rake on one hand with ``pot`` units won in total by ``players`` seats."""
        if self.model is RakeModel.FIXED_TABLE:
            return float(self.amount)
        if self.model is RakeModel.FIXED_PLAYER:
            return float(self.amount * players)
        if self.model is RakeModel.TIME:
            return float(self.amount * players / self.hands_per_hour)
        if self.model is RakeModel.PERCENT and pot >= self.threshold:
            return float(min(self.percent * pot, math.inf if self.cap is None else self.cap))
        return 0.0

    def to_array(self) -> np.ndarray:
        """``float64[7]``: model index (in :class:`RakeModel` order), amount, percent, cap
        (``inf`` if none), threshold, hands per hour, jackpot drop."""
        cap = math.inf if self.cap is None else self.cap
        return np.array([list(RakeModel).index(self.model), self.amount, self.percent, cap,
                         self.threshold, self.hands_per_hour, self.jackpot_drop], dtype=np.float64)


@dataclass(frozen=True)
class Stakes:
    """SC-STAKES: ``matrix[i][j]`` is the unit value between seats i and j (symmetric, >= 0)."""

    matrix: tuple[tuple[float, ...], ...]

    def __post_init__(self) -> None:
        rows = self.matrix
        if not isinstance(rows, Iterable) or not all(isinstance(r, Iterable) for r in rows):
            raise invalid("stakes", rows, "expected a square matrix of unit values")
        matrix = tuple(tuple(as_number(f"stakes[{i}][{j}]", v) for j, v in enumerate(row))
                       for i, row in enumerate(rows))
        if any(len(row) != len(matrix) for row in matrix):
            shape = f"{len(matrix)}x{'/'.join(str(len(r)) for r in matrix)}"
            raise invalid("stakes", shape, "the stakes matrix must be square (players x players)")
        for i, row in enumerate(matrix):
            for j, value in enumerate(row):
                if value != matrix[j][i]:
                    raise invalid(f"stakes[{i}][{j}]", value,
                                  f"the matrix must be symmetric (stakes[{j}][{i}]={matrix[j][i]})")
        object.__setattr__(self, "matrix", matrix)

    @property
    def size(self) -> int:
        return len(self.matrix)

    def array(self) -> np.ndarray:
        return np.array(self.matrix, dtype=np.float64).reshape(self.size, self.size)

