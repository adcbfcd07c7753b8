"""Naturals (rulebook section 5): detectors against a plain reference, exact values against simulation."""

import functools
import itertools
from collections import Counter

import numpy as np
import pytest

from cpstats import OptionError, parse_cards
from cpstats.thirteen.naturals.detect import NATURALS, detect_naturals, natural_mask, natural_names

HAND = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h"
FIVES = [[12, 0, 1, 2, 3]] + [list(range(lo, lo + 5)) for lo in range(9)]
THREES = [[12, 0, 1]] + [list(range(lo, lo + 3)) for lo in range(10)]  # A-2-3 .. J-Q-K


@functools.lru_cache(maxsize=2)
def three_straight_multisets(qka):
    threes = THREES + ([[10, 11, 12]] if qka else [])
    return {tuple(sorted(a + b + c)) for a, b in itertools.combinations_with_replacement(FIVES, 2) for c in threes}


def reference_naturals(hand, qka=True):
    """Plain per-hand definitions, written from the rulebook without the kernel's tricks."""
    ranks = [c >> 2 for c in hand]
    suits = [c & 3 for c in hand]
    rc = Counter(ranks)
    sc = Counter(suits)
    threes = THREES + ([[10, 11, 12]] if qka else [])
    found = set()
    if len(rc) == 13:
        found.add("dragon")
    if max(sc.values()) == 13:
        found |= {"one_suit", "clean_dragon"}
    if sum(c // 2 for c in rc.values()) == 6:
        found.add("six_pairs")
    if sorted(c for c in rc.values() if c % 2 == 1) == [3]:
        found.add("five_pairs_trips")
    if sum(c // 3 for c in rc.values()) == 4:
        found.add("four_trips")
    if sum(c == 4 for c in rc.values()) == 3:
        found.add("three_quads")
    if tuple(sorted(ranks)) in three_straight_multisets(qka):
        found.add("three_straights")
    if sorted(sc.values()) in ([3, 5, 5], [5, 8], [3, 10], [13]):
        found.add("three_flushes")
    cards = set(hand)
    rows5 = [{4 * r + s for r in f} for f in FIVES for s in range(4)]
    rows3 = [{4 * r + s for r in t} for t in threes for s in range(4)]
    for a, b in itertools.combinations(rows5, 2) if "three_flushes" in found else ():
        if a <= cards and b <= cards and not a & b and (cards - a - b) in rows3:
            found.add("three_straight_flushes")
    black = sc[0] + sc[3]
    if black in (0, 13):
        found.add("all_one_colour")
    if black <= 1 or black >= 12:
        found.add("twelve_one_colour")
    if max(ranks) <= 6:
        found.add("all_low")
    if min(ranks) >= 6:
        found.add("all_high")
    if not {9, 10, 11} & set(ranks):
        found.add("no_pictures")
    if min(ranks) >= 9:
        found.add("all_pictures")
    if all(rc[r] == 4 for r in (9, 10, 11)):
        found.add("twelve_pictures")
    if min(ranks) >= 4:
        found.add("six_and_above")
    return found


def crafted_hands(rng, count):
    """Hands built to sit on or near the rare naturals: random straights, flush splits, pairs."""
    hands = []
    while len(hands) < count:
        kind = rng.integers(4)
        if kind == 0:  # three straights, random suits, maybe one card moved
            ranks = FIVES[rng.integers(10)] + FIVES[rng.integers(10)] + THREES[rng.integers(11)]
        elif kind == 1:  # pairs and trips heavy
            ranks = list(rng.choice(13, 7, replace=False).repeat(2))[:13]
        elif kind == 2:  # straight flush rows
            suits = rng.integers(4, size=3)
            hand = set()
            for row, s in zip((FIVES[rng.integers(10)], FIVES[rng.integers(10)], THREES[rng.integers(11)]), suits):
                hand |= {4 * r + int(s) for r in row}
            if len(hand) == 13:
                hands.append(sorted(hand))
            continue
        else:  # few suits or few ranks
            pool = [c for c in range(52) if (c & 3) in (0, 3) or (c >> 2) >= 8]
            hands.append(sorted(rng.choice(pool, 13, replace=False).tolist()))
            continue
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        hand = [4 * r + int(s) for r, n in counts.items() for s in rng.choice(4, n, replace=False)]
        if rng.random() < 0.3:
            hand[rng.integers(13)] = int(rng.integers(52))
        if len(set(hand)) == 13:
            hands.append(sorted(hand))
    return np.array(hands, dtype=np.uint8)


@pytest.mark.parametrize("qka", [True, False])
def test_detectors_match_the_reference(qka):
    rng = np.random.default_rng(20261129)
    random_hands = np.array([rng.permutation(52)[:13] for _ in range(2000)], dtype=np.uint8)
    hands = np.concatenate([random_hands, crafted_hands(rng, 2000)])
    bits = natural_mask(hands, qka_front_straight=qka)
    seen = Counter()
    for hand, b in zip(hands.tolist(), bits.tolist()):
        expected = reference_naturals(hand, qka)
        assert set(natural_names(b)) == expected, hand
        seen.update(expected)
    # the sample exercises the rare naturals too, not only "no natural"
    assert {"dragon", "six_pairs", "five_pairs_trips", "three_straights", "three_flushes",
            "three_straight_flushes", "twelve_one_colour", "no_pictures", "six_and_above"} <= set(seen)


@pytest.mark.parametrize("text, name", [
    ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", "dragon"),
    ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac", "clean_dragon"),
    ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac", "one_suit"),
    ("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s Ac", "six_pairs"),
    ("2c 2d 2h 2s 4c 4d 5h 5s 6c 6d 7h 7s Ac", "six_pairs"),  # quads count as two pairs
    ("2c 2d 2h 3s 3c 4d 4h 5s 5c 6d 6h 7s 7c", "five_pairs_trips"),
    ("2c 2d 2h 3s 3c 3d 4h 4s 4c 5d 5h 5s 7c", "four_trips"),
    ("2c 2d 2h 2s 3c 3d 3h 4s 4c 4d 5h 5s 5c", "four_trips"),  # quads count as trips plus a card
    ("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 7c", "three_quads"),
    ("Ac 2d 3h 4s 5c 9d Th Js Qc Kd Jh Qs Ks", "three_straights"),
    ("Qc Kd Ah 2s 3c 4d 5h 6s 9c Td Jh Qs Kc", "three_straights"),  # Q-K-A in front
    ("2c 5c 9c 3d 4d 7d 8d Jd 2h 6h 9h Qh Ah", "three_flushes"),
    ("2c 5c 9c 3c 4c 7c 8c Jc 2h 6h 9h Qh Ah", "three_flushes"),  # eight of a suit: two flushes
    ("Ac 2c 3c 4d 5d 6d 7d 8d 9h Th Jh Qh Kh", "three_straight_flushes"),
    ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc As", "all_one_colour"),
    ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ah", "twelve_one_colour"),
    ("2c 3d 4h 5s 6c 7d 8h 8s 2d 3h 4s 5c 6d", "all_low"),
    ("8c 9d Th Js Qc Kd Ah As Kc Qd Jh Ts 9c", "all_high"),
    ("2c 3d 4h 5s 6c 7d 8h 9s Tc Td Ah As Ac", "no_pictures"),
    ("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ac Ad", "all_pictures"),
    ("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2d", "twelve_pictures"),
    ("6c 7d 8h 9s Tc Jd Qh Ks Ac 6d 7h 8s 9c", "six_and_above"),
])
def test_n_examples(text, name):
    assert name in natural_names(natural_mask(text))


def test_n_three_straights_excludes_k_a_2_and_optionally_q_k_a():
    qka = "Qc Kd Ah 2s 3c 4d 5h 6s 9c Td Jh Qs Kc"
    assert "three_straights" not in natural_names(natural_mask(qka, qka_front_straight=False))
    ka2 = "Kc Ad 2h 3s 4c 5d 6h 7s 9c Td Jh Qs Kd"
    assert "three_straights" not in natural_names(natural_mask(ka2))


def test_straight_flush_rows_option():
    """With straight_flush_counts=False a hand needs a setting with no straight-flush row."""
    one_suit = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"  # every straight row is a straight flush
    assert "three_straights" in natural_names(natural_mask(one_suit))
    strict = natural_names(natural_mask(one_suit, straight_flush_counts=False))
    assert "three_straights" not in strict
    assert "three_flushes" in strict and "three_straight_flushes" in strict
    mixed = "Ac 2c 3c 4d 5d 6d 7d 8d 9h Th Jh Qh Kh"  # can be re-set with mixed-suit straights
    assert "three_straights" in natural_names(natural_mask(mixed, straight_flush_counts=False))


def test_detect_naturals_frame_and_bad_options():
    df = detect_naturals(np.array([parse_cards("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s Ac")] * 2))
    assert list(df.columns) == list(NATURALS) and len(df) == 2 and df["six_pairs"].all()
    with pytest.raises(OptionError, match="qka_front_straight='yes' is invalid: use True or False"):
        natural_mask("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", qka_front_straight="yes")


@pytest.mark.parametrize("bits", [-1, 1 << 18, 2.5, None, "3", np.array([1, 2])])
def test_natural_names_refuses_what_is_not_one_mask(bits):
    """natural_names(-1) listed all 18 naturals, 2.5 was truncated."""
    with pytest.raises(OptionError, match=r"bits=.* is invalid: one natural bit mask, an integer "
                                          r"in 0\.\.262143"):
        natural_names(bits)


def test_natural_names_takes_numpy_scalars():
    assert natural_names(np.uint32(3)) == ["dragon", "clean_dragon"]
    assert natural_names(natural_mask(HAND)) == natural_names(int(natural_mask(HAND)))
