"""The house way (issue 48.4): each printed rule is what the code does, no set fouls, the same
hand always gets the same set, bad input is refused in one line.

The reading below is written from :func:`house_way_words` rule by rule, in plain Python over
lists of card codes (ranks from :func:`cpstats.hands.ranking.rank5`), without the kernel.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pytest

from cpstats.cards.codes import deal
from cpstats.errors import CardError, OptionError
from cpstats.hands import tables as T
from cpstats.hands.ranking import rank5
from cpstats.hands.setting import is_foul
from cpstats.thirteen.play import set_hand, set_hands
from cpstats.thirteen.play.api import best_natural_bits
from cpstats.thirteen.play.house_way import HOUSE_WAY, HouseRule, HouseWaySetter, house_way, house_way_words
from cpstats.thirteen.rules.variant import resolve_variant

CATEGORY = T.five_card_tables("H1").category
STRAIGHT, FLUSH, QUADS, TWO_PAIR = 4, 5, 7, 2
SIZE = {"back": 5, "middle": 5, "front": 3}
BANKED = resolve_variant("banked")


def _strength(cards):
    return int(rank5(np.array(cards, dtype=np.uint8), check=False))


def _category(cards):
    return int(CATEGORY[_strength(cards)])


def _by_rank(cards):
    groups = defaultdict(list)
    for c in sorted(cards):
        groups[c >> 2].append(c)
    return groups


def _front_paired(cards):
    return len({c >> 2 for c in cards}) < len(cards)


def _made(cards):
    """(strength, cards) of every straight or better in ``cards``."""
    return [(_strength(c), list(c)) for c in itertools.combinations(sorted(cards), 5)
            if _category(c) >= STRAIGHT]


def _best(options):
    """The strongest; equal strength: the lowest cards."""
    return max(options, key=lambda sc: (sc[0], [-c for c in sorted(sc[1])]))


def _without(cards, taken):
    return [c for c in cards if c not in taken]


def _groups_and_singles(hand, rows, made):
    """Rules 6, 7 and 8."""
    rest = [c for c in hand if not any(c in r for r in rows.values())]
    empty = [r for r in ("back", "middle", "front") if not rows[r]]
    g = _by_rank(rest)
    trips = sorted((r for r in g if len(g[r]) >= 3), reverse=True)
    pairs = sorted((r for r in g if len(g[r]) == 2), reverse=True)
    left = []
    # 6: groups, highest first, back to front; the four-pair exception.
    if len(empty) == 3 and not trips and len(pairs) == 4:
        a, b, c, d = pairs
        if b >= 6:  # eights or better
            rows.update(middle=g[a], front=g[b], back=g[c] + g[d])
        else:
            rows.update(back=g[a] + g[d], middle=g[b] + g[c])
    else:
        for grp in [g[r][:3] for r in trips] + [g[r] for r in pairs]:
            if empty:
                rows[empty.pop(0)] = list(grp)
            else:
                left.append(grp)
    # 7: a pair left over joins the back, else the middle, if it fits.
    for grp in left:
        for r in ("back", "middle"):
            if not made[r] and len(rows[r]) + len(grp) <= SIZE[r]:
                rows[r] = rows[r] + grp
                break
    # 8: a middle without a pair takes the highest single; then front, middle, back.
    singles = sorted(_without(hand, sum(rows.values(), [])), key=lambda c: (-(c >> 2), c & 3))
    if not made["middle"] and not _front_paired(rows["middle"]) and singles:
        rows["middle"] = rows["middle"] + [singles.pop(0)]
    for r in ("front", "middle", "back"):
        while len(rows[r]) < SIZE[r]:
            rows[r] = rows[r] + [singles.pop(0)]
    return rows


def reading(hand, rules=None):
    """The house way's set of ``hand`` read from its words: {row: cards}; the numbers of the
    rules 2 to 5 that applied are added to ``rules``."""
    rules = set() if rules is None else rules
    empty = lambda: {"back": [], "middle": [], "front": []}  # noqa: E731
    rows, made = empty(), {"back": False, "middle": False}
    made_hands = _made(hand)
    royal = [sc for sc in made_hands if CATEGORY[sc[0]] >= QUADS]
    two = []
    for strength, cards in made_hands:
        left = _made(_without(hand, cards))
        if left and _best(left)[0] <= strength:
            two.append(((strength, _best(left)[0], [-c for c in sorted(cards)]), cards,
                        _best(left)[1]))
    if royal:  # 2
        rules.add(2)
        rows["back"] = _best(royal)[1]
        left = _made(_without(hand, rows["back"]))
        if left:
            rows["middle"] = _best(left)[1]
        made = {"back": True, "middle": bool(left)}
    elif two:  # 3
        rules.add(3)
        _, rows["back"], rows["middle"] = max(two, key=lambda t: t[0])
        made = {"back": True, "middle": True}
    elif made_hands:  # 4
        rules.add(4)
        def kept(sc):
            g = _by_rank(_without(hand, sc[1]))
            return (sum(len(v) for v in g.values() if len(v) >= 2), sc[0],
                    [-c for c in sorted(sc[1])])
        rows["back"] = max(made_hands, key=kept)[1]
        made = {"back": True, "middle": False}
    rows = _groups_and_singles(hand, rows, made)
    if made["back"] and not made["middle"] and _category(rows["back"]) <= FLUSH \
            and not _front_paired(rows["front"]):  # 5
        alone = _groups_and_singles(hand, empty(), {"back": False, "middle": False})
        if _category(alone["back"]) >= TWO_PAIR and _category(alone["middle"]) >= 1 \
                and _front_paired(alone["front"]):
            rows = alone
            rules.add(5)
    return rows


def _rows(setting):
    return {"front": sorted(setting[:3].tolist()), "middle": sorted(setting[3:8].tolist()),
            "back": sorted(setting[8:].tolist())}


@pytest.fixture(scope="module")
def dealt():
    return deal(np.random.default_rng(4848), 400, 1).reshape(-1, 13)


@pytest.fixture(scope="module")
def read(dealt):
    """Each hand's reading and the rules 2 to 5 that applied over all of them."""
    rules: set[int] = set()
    sets = [{k: sorted(v) for k, v in reading(h.tolist(), rules).items()} for h in dealt]
    return sets, rules


def test_each_printed_rule_is_what_the_code_does(dealt, read):
    settings = house_way(dealt, BANKED).settings
    for hand, setting, expected in zip(dealt, settings, read[0]):
        assert _rows(setting) == expected, f"hand {hand.tolist()}"


def test_the_deals_reach_every_rule(read):
    """The comparison above exercises every rule that chooses the back: the royalty back, two
    made hands, one made hand and the pairs over it (the groups and singles fill every hand)."""
    assert read[1] == {2, 3, 4, 5}


def test_no_set_fouls_and_naturals_are_declared():
    hands = deal(np.random.default_rng(7), 20_000, 1).reshape(-1, 13)
    d = house_way(hands, BANKED)
    assert not is_foul(d.settings).any()
    assert (d.declare == (best_natural_bits(hands, BANKED) != 0)).all()
    assert not d.surrender.any()
    assert (np.sort(d.settings, axis=1) == np.sort(hands, axis=1)).all()


def test_deterministic_whatever_the_order_or_rng(dealt):
    a = set_hands(dealt, BANKED, setter="house-way", rng=1).settings
    b = set_hands(dealt[::-1], BANKED, setter=HouseWaySetter(), rng=2).settings[::-1]
    assert (np.sort(a, axis=1) == np.sort(b, axis=1)).all()
    assert (a == house_way(dealt, BANKED).settings).all()


def test_words_are_numbered_in_rule_order():
    words = house_way_words()
    assert len(words) == len(HOUSE_WAY) == 8
    assert all(w.startswith(f"{n}. ") for n, w in enumerate(words, start=1))
    assert words[0].startswith("1. If the thirteen cards hold a natural")


def test_worked_example_four_pairs():
    """Rule 6: four pairs, the second kings: aces in the middle, kings in front, nines and fours
    in the back; rule 8: the highest single (the queen) in front."""
    d = set_hand("Ac Ad Kc Kd 9h 9s 4c 4d Qs Jh 7c 5d 2h", BANKED, setter=HouseWaySetter())
    front, middle, back = (set(row.split()) for row in d.setting.split(" / "))
    assert front == {"Kc", "Kd", "Qs"}
    assert {"Ac", "Ad"} <= middle and back >= {"9h", "9s", "4c", "4d"}


def test_bad_input_is_one_clear_line():
    with pytest.raises(CardError, match="13"):
        set_hands(np.arange(12, dtype=np.uint8)[None], BANKED, setter="house-way")
    with pytest.raises(CardError, match="twice|duplicate"):
        set_hand("As As Kc Kd 9h 9s 4c 4d Qs Jh 7c 5d 2h", BANKED, setter="house-way")
    with pytest.raises(OptionError, match="house way sets high-hand rows"):
        house_way(np.arange(13, dtype=np.uint8)[None], resolve_variant("2-4(ranking=H5)"))
    with pytest.raises(OptionError, match="needs words and code"):
        HouseRule("empty", " ", print)
