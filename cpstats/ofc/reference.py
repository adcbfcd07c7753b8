"""A plain-Python open-face scorer, written from the rulebook's section 7 text alone.

It reads the variant's options (never :meth:`Variant.kernel_tables` or the board kernel) and
ranks rows one at a time with :mod:`cpstats.hands.ranking`, so that the tests can hold the
vectorised :mod:`cpstats.ofc.settlement` to it. Slow by design: one hand at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpstats.hands.ranking import category3, category5, rank3, rank5
from cpstats.ofc.rules import FIVE_ROW_CATEGORIES, Variant, StayRule, resolve_ofc_variant

__all__ = ["RefBoard", "reference_board", "reference_settle"]


@dataclass(frozen=True)
class RefBoard:
    """One board as the rulebook values it."""

    ranks: tuple[int, int, int]  # front rank3, middle rank5, back rank5
    fouled: bool
    royalty: tuple[int, int, int]
    fl_cards: int
    stays: bool


def _five_name(rank: int) -> str:
    name = category5(rank)
    return "royal_flush" if name == "straight_flush" and rank == 7461 else name


def _front_top(cards: np.ndarray) -> tuple[str, int]:
    """The front's category and the rank (0 = deuce .. 12 = ace) of its pair or trips."""
    ranks = sorted((int(c) >> 2 for c in cards), reverse=True)
    name = category3(rank3(cards))
    if name == "pair":
        return name, ranks[1]  # the middle card of three sorted ranks is always in the pair
    return name, ranks[0]


def reference_board(variant: Variant | str, board) -> RefBoard:
    """OFC-FOUL, OFC-R-*, OFC-FL-ENTRY/PROGRESSIVE and OFC-FL-STAY-A/B for one board of 13 codes."""
    v = resolve_ofc_variant(variant)
    cards = np.asarray(board, dtype=np.uint8)
    front, middle, back = cards[:3], cards[3:8], cards[8:]
    f, m, b = int(rank3(front)), int(rank5(middle)), int(rank5(back))
    fouled = b < m or int(rank5(middle, scale="common")) < int(rank3(front, scale="common"))
    if fouled:
        return RefBoard((f, m, b), True, (0, 0, 0), 0, False)
    r = v.royalties
    kind, top = _front_top(front)
    front_royalty = {"pair": r.front_pairs[top], "three_of_a_kind": r.front_trips[top]}.get(kind, 0)
    royalty = (front_royalty, r.middle[FIVE_ROW_CATEGORIES.index(_five_name(m))],
               r.back[FIVE_ROW_CATEGORIES.index(_five_name(b))])
    fl = v.fantasyland
    if kind == "three_of_a_kind":
        fl_cards = fl.cards[3]
    elif kind == "pair" and top >= 10:  # QQ, KK, AA
        fl_cards = fl.cards[top - 10]
    else:
        fl_cards = 0
    stays = False
    if fl.stay is not StayRule.NONE and any(fl.cards):
        strong_back = _five_name(b) in ("four_of_a_kind", "straight_flush", "royal_flush")
        full_middle = _five_name(m) in ("full_house", "four_of_a_kind", "straight_flush",
                                        "royal_flush")
        stays = kind == "three_of_a_kind" or strong_back or (fl.stay is StayRule.A and full_middle)
    return RefBoard((f, m, b), False, royalty, fl_cards, stays)


def reference_settle(variant: Variant | str, boards) -> tuple[list[int], list[RefBoard]]:
    """Each seat's net units for one hand's boards (``players`` x 13 codes), settled pair by
    pair under OFC-SCORE-1-6 and OFC-FOUL, and each board's :class:`RefBoard`."""
    v = resolve_ofc_variant(variant)
    refs = [reference_board(v, b) for b in boards]
    net = [0] * len(refs)
    for i in range(len(refs)):
        for j in range(i + 1, len(refs)):
            a, b = refs[i], refs[j]
            if a.fouled and b.fouled:
                continue
            if a.fouled or b.fouled:
                rows_i = 0 if a.fouled else 3
                rows_j = 3 - rows_i
            else:
                rows_i = sum(x > y for x, y in zip(a.ranks, b.ranks))
                rows_j = sum(x < y for x, y in zip(a.ranks, b.ranks))
            points = v.scoring.row * (rows_i - rows_j)
            if rows_i == 3:
                points += v.scoring.scoop
            if rows_j == 3:
                points -= v.scoring.scoop
            points += sum(a.royalty) - sum(b.royalty)
            net[i] += points
            net[j] -= points
    return net, refs
