"""The baselines (cpstats.thirteen.play.baselines): greedy, the legal setting strongest back first, exact
against an exhaustive search, and random, uniform over the legal settings and seeded; both under H5."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpstats.thirteen.play import _kernel_args, api
from cpstats.cards import deal, parse_cards
from cpstats.engine.registry import get_preset
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import format_setting, is_foul, legal_settings
from helpers.checks import same_cards

V24 = get_preset("2-4")


def _best_five(hand: np.ndarray) -> int:
    return int(rank5(np.array(list(itertools.combinations(hand, 5)), dtype=np.uint8),
                     check=False).max())


def test_greedy_h5_is_lexicographic_best_with_a_low_middle(hands):
    """Under H5 greedy is the legal setting strongest by (high back, low middle, front)."""
    v = "2-4(ranking=H5)"
    d = api.set_hands(hands[:12], v, setter="greedy")
    assert not is_foul(d.settings, ordering="H5").any()
    for hand, setting in zip(hands[:12], d.settings):
        legal = legal_settings(hand, ordering="H5")
        key = (rank5(legal[:, 8:], check=False), rank5(legal[:, 3:8], ordering="H5", check=False),
               rank3(legal[:, :3], check=False))
        best = np.lexsort(key[::-1])[-1]
        mine = (rank5(setting[8:]), rank5(setting[3:8], ordering="H5"), rank3(setting[:3]))
        assert mine == tuple(k[best] for k in key)


def test_random_h5_is_uniform_over_legal_settings():
    """The share of draws with a pair or better in front matches the share among the legal
    settings (back >= front only under H5), within 5 standard errors."""
    hand = parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")
    legal = legal_settings(hand, ordering="H5")
    p = (rank3(legal[:, :3], check=False) >= 286).mean()  # 286 high-card fronts rank lowest
    n = 20_000
    d = api.set_hands(np.repeat(hand[None], n, axis=0), "2-4(ranking=H5)", setter="random", rng=3)
    assert not is_foul(d.settings, ordering="H5").any()
    share = (rank3(d.settings[:, :3], check=False) >= 286).mean()
    assert abs(share - p) < 5 * np.sqrt(p * (1 - p) / n)


# -- greedy -----------------------------------------------------------------------------------------

def test_greedy_legal_permutation_best_back(hands):
    d = api.set_hands(hands, V24, setter="greedy")
    assert same_cards(hands, d.settings)
    assert not is_foul(d.settings).any()
    backs = rank5(d.settings[:, 8:], check=False)
    for i in range(0, len(hands), 97):  # the back is the best five of the thirteen
        assert backs[i] == _best_five(hands[i])
    assert not d.surrender.any()


def test_greedy_never_fouls_10000_hands():
    many = deal(np.random.default_rng(7), 2_500, 4).reshape(-1, 13)
    d = api.set_hands(many, V24, setter="greedy")
    assert not is_foul(d.settings).any()
    assert same_cards(many, d.settings)


def test_greedy_middle_is_strongest_legal(hands):
    d = api.set_hands(hands[:40], V24, setter="greedy")
    for hand, setting in zip(hands[:40], d.settings):
        legal = legal_settings(hand)
        back = rank5(setting[8:])
        same_back = legal[rank5(legal[:, 8:], check=False) == back]
        assert rank5(setting[3:8]) == rank5(same_back[:, 3:8], check=False).max()


def test_set_hand_greedy_example():
    d = api.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4", setter="greedy")
    assert d.setting == "5c 4d 2h / Qs Jc Jd 9h 7s / As Ad Kc Kd Qh"
    assert d.natural is None and d.surrender is False


def test_greedy_declares_natural():
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    d = api.set_hand(dragon, "pagat-typical", setter="greedy")
    assert d.natural == "dragon"
    assert api.set_hand(dragon, "2-4", setter="greedy").natural is None  # not in the schedule


# -- greedy: exact against an exhaustive search -----------------------------------------------------

V24_H4 = V24.replace(ranking="H4")


def _row_ranks(settings: np.ndarray, ordering: str) -> np.ndarray:
    """(N, 3) back, middle and front ranks of settings."""
    return np.stack([rank5(settings[:, 8:], ordering=ordering, check=False),
                     rank5(settings[:, 3:8], ordering=ordering, check=False),
                     rank3(settings[:, :3], check=False)], axis=1).astype(np.int64)


def _lexmax(back: np.ndarray, middle: np.ndarray, front: np.ndarray, legal: np.ndarray):
    key = np.where(legal, (back * 8192 + middle) * 512 + front, -1).max(axis=-1)
    return np.stack([key // 512 // 8192, key // 512 % 8192, key % 512], axis=-1)


def _brute_greedy(hand: np.ndarray, ordering: str) -> tuple[int, int, int]:
    """(back, middle, front) ranks of the lexicographically strongest legal setting."""
    legal = legal_settings(hand, ordering=ordering)
    r = _row_ranks(legal, ordering)
    return tuple(_lexmax(r[:, 0], r[:, 1], r[:, 2], np.ones(len(r), bool)).tolist())


def _exhaustive_greedy(hands: np.ndarray, ordering: str) -> np.ndarray:
    """:func:`_brute_greedy` for many hands at once: every ordered split (each back subset with
    each of the 56 middles of the other eight) ranked from the hand's subset ranks, fouls out."""
    five_pos, three_pos, rest_mid, rest_front = _kernel_args._subset_tables()
    backs = np.repeat(np.arange(1287), 56)
    mids = rest_mid.astype(np.int64).ravel()
    fronts = rest_front.astype(np.int64).ravel()
    out = []
    for a in range(0, len(hands), 32):
        h = hands[a:a + 32]
        fives = h[:, five_pos]
        threes = h[:, three_pos]
        r5 = rank5(fives, ordering=ordering, check=False).astype(np.int64)
        c5 = rank5(fives, ordering=ordering, scale="common", check=False).astype(np.int64)
        r3 = rank3(threes, check=False).astype(np.int64)
        c3 = rank3(threes, ordering=ordering, scale="common", check=False).astype(np.int64)
        legal = (r5[:, mids] <= r5[:, backs]) & (c3[:, fronts] <= c5[:, mids])
        out.append(_lexmax(r5[:, backs], r5[:, mids], r3[:, fronts], legal))
    return np.concatenate(out)


def _check_greedy(hands: np.ndarray, ordering: str, expected: np.ndarray) -> None:
    variant = V24 if ordering == "H1" else V24_H4
    d = api.set_hands(hands, variant, setter="greedy")
    assert same_cards(hands, d.settings)
    assert not is_foul(d.settings, ordering=ordering).any()
    got = _row_ranks(d.settings, ordering)
    bad = np.flatnonzero((got != expected).any(axis=1))
    assert bad.size == 0, [(format_setting(d.settings[i]), got[i].tolist(),
                            expected[i].tolist()) for i in bad[:5]]


GREEDY_HANDS = [
    "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h",  # two pair, the kicker Q held twice
    "Ac 2d 3h 4s 5c 9d Td Jh Qs Kc 7h 7d 8s",  # wheel and K-high straight: H1 and H4 differ
    "Ac 2d 3h 4s 5c Tc Jd Qh Ks Ad 7h 8s 9c",  # broadway back, wheel middle
    "9s Ts Js Qs Ks 9h Th Jh Qh Kh 2c 3d 4c",  # the same straight flush in two suits
    "As Ks Qs 9s 7s Ah Kh Qh 9h 7h 2c 3d 4c",  # the same flush in two suits
    "As Ks Qs 9s 7s Ah Kh Qh 9h 6h 2c 3d 4c",  # two flushes, one stronger
    "Ac Ad Ah As Kc Kd Kh 2c 3d 4h 6s 8c 9d",  # quads and trips
    "Ac Ad Ah As Kh 2h 5h 7h 9h Kc Tc 3d 4s",  # quads: the K kicker must leave the heart flush
    "Ac Ad Ah Ks Kd Kc 2s 5s 8s 9s Jc 3d 4h",  # full house: the K pair must leave the Ks
    "Ac Ad Ah Kc Kd Kh Qc Qd Qh 2s 3s 4s 5s",  # three trips
    "Ac Ad Ah As Kc Kd Kh Ks 2c 3c 4c 5c 7c",  # two quads, a wheel straight flush
    "Ah 2h 3h 4h 5h 6s 7s 8s 9s Ts Kc Kd Qc",  # wheel and 6-T straight flushes
    "5s 6s 7s 8s 9s Ks 2c 2d 3h 3c 4d 4h Jc",  # straight flush inside a six-card flush
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Ac Kd Qh",  # ten of a suit: straight flushes back and middle
    "As Ks Qs Js 9s 8s 7s 2c 2d 3c 3d 4h 5h",  # seven of a suit
    "5c 5d 6c 6d 7c 7d 8h 8s 9h 9s 2c 3h Jd",  # 32 equal straights, the same straight again
    "Ac Ad 2c 2d 3h 3s 4c 4h 5d 5s Kc Qd Jh",  # doubled wheel
    "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",  # dragon
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c",  # three quads
    "Ac Kd Qh Js 9c 8d 7h 6s 4c 3d 2h 2s 5d",  # straights everywhere, one pair
    "Ac Kc Qc Jc Tc Ad Kd Qd Jd Td Ah Kh Qh",  # two royal flushes
]


@pytest.mark.parametrize("ordering", ["H1", "H4"])
def test_greedy_crafted_hands_match_brute_force(ordering):
    hands = np.stack([parse_cards(h, count=13) for h in GREEDY_HANDS])
    expected = np.array([_brute_greedy(h, ordering) for h in hands])
    assert (_exhaustive_greedy(hands, ordering) == expected).all()  # the fast reference agrees
    _check_greedy(hands, ordering, expected)


@pytest.mark.parametrize("ordering, n", [("H1", 3000), ("H4", 1000)])
def test_greedy_random_hands_match_exhaustive(ordering, n):
    hands = deal(np.random.default_rng(2027), (n + 3) // 4, 4).reshape(-1, 13)[:n]
    _check_greedy(hands, ordering, _exhaustive_greedy(hands, ordering))


def test_greedy_ties_fixed_choice():
    """Equal-rank cards go to the lowest suit, back first; rows keep the hand's order."""
    d = api.set_hand("Ac Ad Ah As Kh 2h 5h 7h 9h Kc Tc 3d 4s", V24, setter="greedy")
    assert d.setting == "Tc 3d 4s / Kh 2h 5h 7h 9h / Ac Ad Ah As Kc"
    d = api.set_hand("5c 5d 6c 6d 7c 7d 8h 8s 9h 9s 2c 3h Jd", V24, setter="greedy")
    assert d.setting == "2c 3h Jd / 5d 6d 7d 8s 9s / 5c 6c 7c 8h 9h"


@st.composite
def _crowded_hands(draw):
    """13 cards from a deck cut to a few ranks and suits: many ties, flushes, straights."""
    suits = draw(st.sets(st.integers(0, 3), min_size=2, max_size=4))
    ranks = draw(st.sets(st.integers(0, 12), min_size=-(-13 // len(suits)), max_size=13))
    deck = [4 * r + s for r in sorted(ranks) for s in sorted(suits)]
    return np.array(draw(st.permutations(deck))[:13], dtype=np.uint8)


@settings(max_examples=150, deadline=None)
@given(hand=_crowded_hands(), ordering=st.sampled_from(["H1", "H4"]))
def test_greedy_crowded_hands_match_exhaustive(hand, ordering):
    _check_greedy(hand[None], ordering, _exhaustive_greedy(hand[None], ordering))


# -- random -----------------------------------------------------------------------------------------

def test_random_legal_and_seeded(hands):
    a = api.set_hands(hands[:2000], V24, setter="random", rng=5)
    b = api.set_hands(hands[:2000], V24, setter="random", rng=5)
    c = api.set_hands(hands[:2000], V24, setter="random", rng=6)
    assert (a.settings == b.settings).all() and not (a.settings == c.settings).all()
    assert not is_foul(a.settings).any()
    assert same_cards(hands[:2000], a.settings)


def test_random_covers_many_settings():
    hand = parse_cards("As Kd Qh Jc 9s 8d 7h 6c 5s 4d 3h 2c Td")
    reps = np.repeat(hand[None], 3000, axis=0)
    d = api.set_hands(reps, V24, setter="random", rng=1)
    assert not is_foul(d.settings).any()
    # Canonical form: sort within each row; count distinct settings drawn.
    canon = np.concatenate([np.sort(d.settings[:, :3]), np.sort(d.settings[:, 3:8]),
                            np.sort(d.settings[:, 8:])], axis=1)
    distinct = len({row.tobytes() for row in canon})
    n_legal = len(legal_settings(hand))
    # 3000 uniform draws from n_legal settings: expected distinct n(1 - exp(-3000/n)).
    expected = n_legal * (1 - np.exp(-3000 / n_legal))
    assert distinct > 0.95 * expected


def test_random_handles_hands_with_few_legal_settings():
    quads = parse_cards("Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs 2c")
    d = api.set_hands(np.repeat(quads[None], 50, axis=0), V24, setter="random", rng=3)
    assert not is_foul(d.settings).any()
