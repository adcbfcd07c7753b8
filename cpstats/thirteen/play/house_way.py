"""The house way: the fixed rules a dealer follows to set a banked game's bank hand.

In house-banked table games the bank does not choose: it sets by a printed house way (pai gow
poker's are the model), and the edge a regulator approves is the players' expectation against
it. :data:`HOUSE_WAY` holds the rules as data, in the order they are applied, each with the
sentence a dealer reads and the code that applies it; :func:`house_way_words` numbers them for
a PAR sheet. :class:`HouseWaySetter` (name ``"house-way"``) sets hands by them wherever a
13-card setter is taken.

The rules work on groups (three of a kinds, pairs) and on *made hands* (a straight or better):
a straight flush or four of a kind first, then two made hands (full houses among them), then a
straight or flush unless the groups play better, then the groups, the middle and front from what
is left, then the single cards. They were chosen against the ``ev`` setter: each hand's regret
(``ev``'s net less the house way's against ``ev`` players) grouped by what the cards hold, the
rules changed where it was largest (``benchmarks/house_way_cost.py``; the cost is in
``docs/house_way.md``). Equal choices (suits) go to the lowest cards, so a hand has one setting.
No set fouls: every middle is checked against its back, a front pair is never above the
middle's groups, and a middle without a pair takes the highest single.

- Decision: a natural the variant pays is always declared (as the baselines do); a dealer does
  not weigh it against the hand.
- Decision: the rules read H1 and H4 hands (straights through the ordering's tables); under H5
  (a low middle) there is no house way and the setter says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

import numpy as np

from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.thirteen.play._house_way_kernel import (_groups, _groups_instead, _one_made, _royal_back,
                                                   _singles, _two_made, _two_rows, house_way_kernel)
from cpstats.thirteen.play._kernel_args import _low_middle, _rank_args, _subset_tables
from cpstats.thirteen.play.api import Decisions, best_natural_bits, register_strategy
from cpstats.thirteen.play.setters import HandSetter
from cpstats.thirteen.rules.variant import Variant

__all__ = ["HouseRule", "HOUSE_WAY", "HOUSE_WAY_WORDS", "house_way_words", "house_way",
           "HouseWaySetter"]

# -- the rules as data -------------------------------------------------------------------------

def _declare(hands: np.ndarray, variant: Variant) -> np.ndarray:
    """Rule 1's code: declare every natural the variant's schedule pays."""
    return best_natural_bits(hands, variant) != 0


@dataclass(frozen=True)
class HouseRule:
    """One rule of the house way: a short ``title``, the sentence a dealer reads (``words``) and
    the ``code`` that applies it (a step of :func:`house_way_kernel`, or the natural's test)."""

    title: str
    words: str
    code: Callable[..., Any]

    def __post_init__(self) -> None:
        if not self.words.strip() or not callable(self.code):
            raise OptionError(f"house rule {self.title!r} is invalid: it needs words and code")


#: The house way, in the order the rules apply.
HOUSE_WAY: tuple[HouseRule, ...] = (
    HouseRule("natural",
              "If the thirteen cards hold a natural the rules pay, declare it (the cards are "
              "still set by the rules below).", _declare),
    HouseRule("royalty back",
              "If the cards hold a straight flush, put the best in the back; else with four of "
              "a kind put the highest in the back with the lowest card of a rank held once "
              "(else the lowest other card). Set the other eight cards by rule 7.", _royal_back),
    HouseRule("two made hands",
              "Otherwise, if the cards make two hands of a straight or better from different "
              "cards (a full house being the lowest three cards of a rank and the lowest two "
              "of another), the stronger goes in the back, the other in the middle: choose the "
              "two that leave the highest pair or three of a kind for the front, then the "
              "strongest middle, then the strongest back; the front takes that group.",
              _two_made),
    HouseRule("one straight or flush",
              "Otherwise, if the cards make a straight or a flush, put in the back the one that "
              "uses the fewest cards of pairs and three of a kinds, and of those the "
              "strongest; set the other eight cards by rule 7.", _one_made),
    HouseRule("groups instead",
              "But set the hand by rule 6 instead if the eight cards left hold a three of a "
              "kind and two pairs; or, when rule 7 put no straight or better in the middle, if "
              "rule 6 makes a full house in the back and rule 4's middle is weaker than three "
              "of a kind, or if rule 6 makes two pair or better in the back and a pair or "
              "better in the middle and the front where rule 4 leaves the front without a "
              "pair.", _groups_instead),
    HouseRule("groups",
              "Otherwise (or when rule 5 says so) the groups set the back: the highest three "
              "of a kind with the lowest pair, else with the two lowest cards of the lowest "
              "other three of a kind, else alone, and the other eight cards by rule 7. With "
              "pairs only: one or two pairs go to the back, then the middle, highest first; "
              "three pairs one to a row, highest in the back; four pairs: the two lowest in "
              "the back, the highest in the middle and the second in front if it is tens or "
              "better, else the highest and lowest in the back and the other two in the "
              "middle; five or more: the second and fifth in the back, the third and fourth in "
              "the middle, the highest in front.", _groups),
    HouseRule("middle and front",
              "The eight cards beside a back: the middle takes the full house of the highest "
              "three of a kind and the lowest pair (else two cards of the lowest other three "
              "of a kind) if it is no stronger than the back, else the straight or flush no "
              "stronger than the back using the fewest cards of pairs, then the strongest (a "
              "back of three cards takes neither); "
              "the front then takes the highest three of a kind, else the highest pair left. "
              "Without such a middle: the highest three of a kind to the middle and the "
              "highest pair to the front; one pair to the middle; two pairs: the higher to "
              "the middle, the lower to the front if sevens or better, else to the middle; "
              "three or more: the second and third to the middle, the highest to the front.",
              _two_rows),
    HouseRule("singles",
              "A middle with no pair and no straight or better takes the highest card left "
              "first; then the cards left fill the front, the middle, then the back, highest "
              "first; a middle holding three of a kind skips a card of a rank it holds while "
              "another card is left.", _singles),
)


def house_way_words() -> tuple[str, ...]:
    """The house way as numbered sentences, in order (for a PAR sheet or a dealer's card)."""
    return tuple(f"{n}. {rule.words}" for n, rule in enumerate(HOUSE_WAY, start=1))


# -- the setter --------------------------------------------------------------------------------

def house_way(hands: np.ndarray, variant: Variant, *,
              rng: np.random.Generator | None = None) -> Decisions:
    """Set ``hands`` (``uint8[N, 13]``, dealt codes) by the house way; declares every natural
    the variant pays, never surrenders. ``rng`` is unused (the house way is fixed)."""
    if _low_middle(variant):
        raise OptionError(f"setter='house-way' is invalid for {variant}: the house way sets "
                          "high-hand rows (H1, H4), not a low middle (H5)")
    arr = np.ascontiguousarray(hands, dtype=np.uint8).reshape(-1, 13)
    key, bit, nonflush, flush, _, _, _ = _rank_args(variant)
    category = _tables.five_card_tables(variant.ranking.value).category
    five_pos, _, rest_mid, _ = _subset_tables()
    out = np.empty_like(arr)
    house_way_kernel(arr, key, bit, nonflush, flush, category, five_pos,
                     np.ascontiguousarray(rest_mid), out)
    return Decisions(out, _declare(arr, variant), np.zeros(arr.shape[0], dtype=bool))


#: The house way in words wherever a setter is named: neither good play nor a weak baseline.
HOUSE_WAY_WORDS = "house way: the dealer's fixed rules"


@dataclass(frozen=True)
class HouseWaySetter(HandSetter):
    """The house way (:data:`HOUSE_WAY`) as a 13-card setter: fixed rules, no settings. Its
    figures are the house way's (:data:`HOUSE_WAY_WORDS`), not good play's nor a baseline's."""

    name: ClassVar[str] = "house-way"
    words: ClassVar[str] = HOUSE_WAY_WORDS

    def bind(self, variant: Variant) -> tuple[Callable[..., Any], dict[str, Any]]:
        return house_way, {}


register_strategy("house-way", house_way)
