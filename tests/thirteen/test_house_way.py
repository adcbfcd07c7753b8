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
TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, STRAIGHT_FLUSH = 2, 3, 4, 5, 6, 8
SEVEN, TEN = 5, 8
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


def _groups(cards):
    """(cards by rank, three of a kinds (four count as three), pairs), ranks highest first."""
    g = _by_rank(cards)
    return (g, sorted((r for r in g if len(g[r]) >= 3), reverse=True),
            sorted((r for r in g if len(g[r]) == 2), reverse=True))


def _paired(cards):
    return len({c >> 2 for c in cards}) < len(cards)


def _without(cards, taken):
    return [c for c in cards if c not in taken]


def _low(cards):
    """A key part that sends ties to the lowest cards."""
    return [-c for c in sorted(cards)]


def _fives(cards, categories):
    return [list(c) for c in itertools.combinations(sorted(cards), 5)
            if _category(c) in categories]


def _full_houses(cards):
    """The lowest three cards of a rank held three times or more with the lowest two of
    another rank held twice or more."""
    g, trips, _ = _groups(cards)
    return [g[t][:3] + g[p][:2] for t in trips for p in g if p != t and len(g[p]) >= 2]


def _grouped(cards, among):
    g = _by_rank(among)
    return sum(len(g[c >> 2]) >= 2 for c in cards)


def _empty():
    return {"back": [], "middle": [], "front": [], "made middle": False}


def _front_group(rows, left):
    g, trips, pairs = _groups(left)
    if trips or pairs:
        rows["front"] = g[(trips or pairs)[0]][:3] if trips else g[pairs[0]]


def rule7(rows, hand):
    """The middle and the front from the eight cards beside the back."""
    rest = _without(hand, rows["back"])
    g, trips, pairs = _groups(rest)
    back = _strength(rows["back"]) if len(rows["back"]) == 5 else -1
    if trips and (pairs or len(trips) > 1):
        full = g[trips[0]][:3] + (g[pairs[-1]] if pairs else g[trips[-1]][:2])
        if _strength(full) <= back:
            rows.update(middle=full, **{"made middle": True})
            return _front_group(rows, _without(rest, full))
    made = [c for c in _fives(rest, {STRAIGHT, FLUSH, STRAIGHT_FLUSH}) if _strength(c) <= back]
    if made:
        middle = max(made, key=lambda c: (-_grouped(c, rest), _strength(c), _low(c)))
        rows.update(middle=middle, **{"made middle": True})
        return _front_group(rows, _without(rest, middle))
    if trips:
        rows["middle"] = g[trips[0]][:3]
        if pairs:
            rows["front"] = g[pairs[0]]
    elif len(pairs) == 1:
        rows["middle"] = g[pairs[0]]
    elif len(pairs) == 2:
        if pairs[1] >= SEVEN:
            rows.update(middle=g[pairs[0]], front=g[pairs[1]])
        else:
            rows["middle"] = g[pairs[0]] + g[pairs[1]]
    elif len(pairs) >= 3:
        rows.update(middle=g[pairs[1]] + g[pairs[2]], front=g[pairs[0]])


def rule8(rows, hand):
    left = sorted(_without(hand, rows["back"] + rows["middle"] + rows["front"]),
                  key=lambda c: (-(c >> 2), c & 3))
    if not rows["made middle"] and not _paired(rows["middle"]) and left:
        rows["middle"] = rows["middle"] + [left.pop(0)]
    for name in ("front", "middle", "back"):
        while len(rows[name]) < SIZE[name]:
            ranks = [c >> 2 for c in rows[name]]
            pick = left[0]
            if name == "middle" and any(ranks.count(r) == 3 for r in ranks):
                pick = next((c for c in left if c >> 2 not in ranks), left[0])
            left.remove(pick)
            rows[name] = rows[name] + [pick]
    return rows


def rule6(hand):
    rows = _empty()
    g, trips, pairs = _groups(hand)
    if trips:
        extra = g[pairs[-1]] if pairs else g[trips[-1]][:2] if len(trips) > 1 else []
        rows["back"] = g[trips[0]][:3] + extra
        rule7(rows, hand)
    elif len(pairs) in (1, 2, 3):
        for name, r in zip(("back", "middle", "front"), pairs):
            rows[name] = g[r]
    elif len(pairs) == 4:
        a, b, c, d = pairs
        if b >= TEN:
            rows.update(back=g[c] + g[d], middle=g[a], front=g[b])
        else:
            rows.update(back=g[a] + g[d], middle=g[b] + g[c])
    elif len(pairs) >= 5:
        rows.update(back=g[pairs[1]] + g[pairs[4]], middle=g[pairs[2]] + g[pairs[3]],
                    front=g[pairs[0]])
    return rule8(rows, hand)


def reading(hand, rules=None):
    """The house way's set of ``hand`` read from its words: {row: cards}; the numbers of the
    rules 2 to 6 that chose the back are added to ``rules``."""
    rules = set() if rules is None else rules
    hand = sorted(hand)
    g, _, _ = _groups(hand)
    rows = _empty()
    flushes = _fives(hand, {STRAIGHT_FLUSH})
    quads = sorted((r for r in g if len(g[r]) == 4), reverse=True)
    if flushes or quads:  # 2
        rules.add(2)
        if flushes:
            rows["back"] = max(flushes, key=lambda c: (_strength(c), _low(c)))
        else:
            once = [c for c in hand if len(g[c >> 2]) == 1]
            rows["back"] = g[quads[0]] + [(once or _without(hand, g[quads[0]]))[0]]
        rule7(rows, hand)
        return rule8(rows, hand)
    made = _fives(hand, {STRAIGHT, FLUSH})
    pairs_of_hands = []
    for back in made + _full_houses(hand):
        rest = _without(hand, back)
        for middle in _fives(rest, {STRAIGHT, FLUSH, STRAIGHT_FLUSH}) + _full_houses(rest):
            if _strength(middle) <= _strength(back):
                _, t, p = _groups(_without(rest, middle))
                pairs_of_hands.append(((max(t + p, default=-1), _strength(middle),
                                        _strength(back), _low(back + middle)),
                                       back, middle))
    if pairs_of_hands:  # 3
        rules.add(3)
        _, back, middle = max(pairs_of_hands, key=lambda t: t[0])
        rows.update(back=back, middle=middle, **{"made middle": True})
        _front_group(rows, _without(hand, back + middle))
        return rule8(rows, hand)
    if made:  # 4
        rules.add(4)
        rows["back"] = max(made, key=lambda c: (-_grouped(c, hand), _strength(c),
                                                _low(c)))
        _, t, p = _groups(_without(hand, rows["back"]))
        if t and len(p) >= 2:  # 5
            rules.add(5)
            return rule6(hand)
        rule7(rows, hand)
        rule8(rows, hand)
        groups = rule6(hand)
        if not rows["made middle"]:
            if _category(groups["back"]) == FULL_HOUSE:
                instead = _category(rows["middle"]) < TRIPS
            else:
                instead = (not _paired(rows["front"]) and _category(groups["back"]) >= TWO_PAIR
                           and _paired(groups["middle"]) and _paired(groups["front"]))
            if instead:
                rules.add(5)
                return groups
        return rows
    rules.add(6)
    return rule6(hand)


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
    sets = [{k: sorted(v) for k, v in reading(h.tolist(), rules).items() if k in SIZE}
            for h in dealt]
    return sets, rules


def test_each_printed_rule_is_what_the_code_does(dealt, read):
    settings = house_way(dealt, BANKED).settings
    for hand, setting, expected in zip(dealt, settings, read[0]):
        assert _rows(setting) == expected, f"hand {hand.tolist()}"


def test_the_deals_reach_every_rule(read):
    """The comparison above exercises every rule that chooses the back: the royalty back, two
    made hands, one straight or flush, the groups instead of it and the groups alone (rules 7
    and 8 fill every hand)."""
    assert read[1] == {2, 3, 4, 5, 6}


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
