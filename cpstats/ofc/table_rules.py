"""Open face's table rules (rulebook section 7), part of every :class:`~cpstats.ofc.rules.Variant`:
the dealer button (:class:`Button`, OFC-BUTTON), the table stakes (:class:`TableStakes`, OFC-STAKES)
and the match (:class:`Match`, OFC-MATCH); frozen, validated on construction with one-line refusals.

- Decision: ``button=rotate`` is the default of every preset and variant, as rooms deal (OFC-BUTTON);
  ``button=fixed`` (seat 0 first on every street, the order of every run before 2026-12-05) is one
  option away and gives those runs' numbers again. Its ``button.fantasyland=hold`` default is the common room practice:
  the button stays for the hand a Fantasyland entry adds (pokerninja.net's, blitzpoker.net's and
  pokermatch.com's published OFC Pineapple rules, and Tonybet's as pokerbonus.com describes it);
  ``move`` is the other practice, the button moving on every hand.
- Decision: ``stakes.buy_in`` points (OFC-STAKES) are a player's stack for a match
  (``match=round``), or for every hand when there is no match (each hand then starts at the buy-in).
- Decision: a rake is charged per hand (``match.rake=hand``) unless ``match.rake=match``, which
  charges the rake model once on each player's net over the whole match (the percent rake's pot
  the points won in the match, its cap once a match; a fixed charge once a match); a time rake has
  no match basis.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cpstats.rules.check import as_enum, as_number, invalid

__all__ = ["ButtonMove", "FantasylandButton", "Button", "TableStakes", "MatchFormat", "RakeBasis", "Match"]


def _whole(path: str, value: object, *, minimum: float = 0) -> int:
    return int(as_number(path, value, minimum=minimum, integer=True))


class ButtonMove(StrEnum):
    """OFC-BUTTON: whether the dealer button moves one seat after every hand (``rotate``: the
    player left of the button acts first on every street, so the first to act moves round), or
    stays (``fixed``: seat 0 acts first on every hand)."""

    ROTATE = "rotate"
    FIXED = "fixed"


class FantasylandButton(StrEnum):
    """OFC-BUTTON on a hand dealt while a player is in Fantasyland: the button ``move``s as on any
    hand, or ``hold``s for that extra hand (the common room practice; module docstring)."""

    MOVE = "move"
    HOLD = "hold"


@dataclass(frozen=True)
class Button:
    """OFC-BUTTON: ``moves`` (``button=rotate|fixed``) and, when it rotates, what a Fantasyland
    hand does to it (``button.fantasyland=move|hold``)."""

    moves: ButtonMove = ButtonMove.ROTATE
    fantasyland: FantasylandButton = FantasylandButton.HOLD

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", as_enum("button", ButtonMove, self.moves))
        object.__setattr__(self, "fantasyland", as_enum("button.fantasyland", FantasylandButton, self.fantasyland))
        if self.moves is ButtonMove.FIXED and self.fantasyland is FantasylandButton.MOVE:
            raise invalid("button.fantasyland", self.fantasyland.value,
                          "a fixed button never moves (set button=rotate)")

    @property
    def rotates(self) -> bool:
        """Whether the first to act moves round the table."""
        return self.moves is ButtonMove.ROTATE


@dataclass(frozen=True)
class TableStakes:
    """OFC-STAKES: ``buy_in`` points each player brings (None: no limit, the points simply owed).
    No player wins from another more than that player has left, nor loses more than they have
    (:func:`cpstats.ofc.settlement.settle_within_stacks`); a player with none left is out."""

    buy_in: int | None = None

    def __post_init__(self) -> None:
        if self.buy_in is not None:
            object.__setattr__(self, "buy_in", _whole("stakes.buy_in", self.buy_in, minimum=1))

    @property
    def limited(self) -> bool:
        """Whether the stacks limit what is paid."""
        return self.buy_in is not None


class MatchFormat(StrEnum):
    """OFC-MATCH: ``none`` (hands one after another, today's game) or ``round`` (a match of one
    hand per player, the button going round once, plus one for each Fantasyland hand; it ends
    early when every player but one is out)."""

    NONE = "none"
    ROUND = "round"


class RakeBasis(StrEnum):
    """What a rake is charged on: each ``hand``, or each ``match`` (the module's decision)."""

    HAND = "hand"
    MATCH = "match"


@dataclass(frozen=True)
class Match:
    """OFC-MATCH: the match ``format`` (``match=none|round``) and the rake's basis
    (``match.rake=hand|match``)."""

    format: MatchFormat = MatchFormat.NONE
    rake: RakeBasis = RakeBasis.HAND

    def __post_init__(self) -> None:
        object.__setattr__(self, "format", as_enum("match", MatchFormat, self.format))
        object.__setattr__(self, "rake", as_enum("match.rake", RakeBasis, self.rake))
        if self.rake is RakeBasis.MATCH and self.format is MatchFormat.NONE:
            raise invalid("match.rake", self.rake.value, "a rake per match needs matches (set match=round)")

    @property
    def rounds(self) -> bool:
        """Whether hands are played in matches."""
        return self.format is MatchFormat.ROUND
