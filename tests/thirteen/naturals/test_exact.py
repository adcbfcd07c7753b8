"""Exact natural counts (rulebook section 5) against closed forms and brute-force checkers.

The closed forms below are derived by hand, pattern by pattern, and share no code with the
enumeration in ``cpstats.thirteen.naturals.exact``.
"""

from __future__ import annotations

import functools
import json
from math import comb

import numpy as np
import pandas as pd
import pytest

from cpstats.thirteen.naturals import exact
from cpstats.errors import OptionError
from cpstats.thirteen.naturals.exact import exact_naturals

TOTAL = comb(52, 13)
RANKS = "23456789TJQKA"


@pytest.fixture(scope="module")
def counts() -> dict[str, int]:
    table = exact_naturals()
    return {name: int(c) for name, c in zip(table["natural"], table["count"])}


# --- the enumerations themselves ------------------------------------------------------------


def test_rank_count_vectors_cover_every_hand_once():
    vectors, weights = exact._rank_count_vectors()
    assert vectors.dtype == np.int8 and vectors.shape == (3_598_180, 13)
    assert (vectors.sum(axis=1) == 13).all()
    assert vectors.min() == 0 and vectors.max() == 4
    codes = np.sort(exact._encode(vectors))
    assert (np.diff(codes) > 0).all()  # no vector twice
    # M * max weight < 2**63, so the int64 sum cannot have wrapped round.
    assert int(weights.max()) == 4**13 and len(weights) * 4**13 < 2**63
    assert int(weights.sum()) == TOTAL


def test_suit_count_vectors_cover_every_hand_once():
    vectors, weights = exact._suit_count_vectors()
    assert vectors.shape == (comb(16, 3), 4)
    assert (vectors.sum(axis=1) == 13).all()
    assert len({tuple(v) for v in vectors.tolist()}) == len(vectors)
    assert sum(int(w) for w in weights) == TOTAL


def test_cached_vectors_are_read_only():
    vectors, weights = exact._rank_count_vectors()
    with pytest.raises(ValueError):
        vectors[0, 0] = 1
    with pytest.raises(ValueError):
        weights[0] = 1


# --- the table --------------------------------------------------------------------------------


def test_table_shape_order_and_probabilities():
    table = exact_naturals()
    assert list(table.columns) == ["natural", "count", "probability"]
    assert table["natural"].tolist() == [
        "dragon", "clean_dragon", "one_suit", "six_pairs", "five_pairs_trips", "four_trips",
        "three_quads", "three_straights", "three_flushes", "three_straight_flushes",
        "all_one_colour", "twelve_one_colour", "all_low", "all_high", "no_pictures",
        "all_pictures", "twelve_pictures", "six_and_above",
    ]
    assert table["count"].dtype == np.int64
    assert (table["count"] > 0).all()
    expected = np.array([int(c) / TOTAL for c in table["count"]])
    np.testing.assert_array_equal(table["probability"].to_numpy(), expected)


def test_returned_table_is_a_copy_of_the_cache():
    first = exact_naturals()
    first.loc[0, "count"] = -1
    assert int(exact_naturals().loc[0, "count"]) == 4**13


@pytest.mark.parametrize("bad", [1, 0, "yes", None, 1.0])
def test_non_bool_option_raises(bad):
    message = r"qka_front_straight=.* is invalid: must be True or False"
    with pytest.raises(OptionError, match=message):
        exact_naturals(qka_front_straight=bad)


def test_numpy_bool_option_is_accepted():
    pd.testing.assert_frame_equal(
        exact_naturals(qka_front_straight=np.bool_(False)),
        exact_naturals(qka_front_straight=False),
    )


# --- closed forms -------------------------------------------------------------------------------


def test_dragon_and_one_suit(counts):
    assert counts["dragon"] == 4**13
    assert counts["one_suit"] == 4
    assert counts["clean_dragon"] == 4


def test_colours(counts):
    assert counts["all_one_colour"] == 2 * comb(26, 13)
    # 12 of a colour: 12 of its 26 cards plus one of the other colour's 26.
    assert counts["twelve_one_colour"] == 2 * (comb(26, 13) + comb(26, 12) * 26)


def test_rank_ranges(counts):
    assert counts["all_low"] == comb(28, 13)  # 2..8: 7 ranks
    assert counts["all_high"] == comb(28, 13)  # 8..A: 7 ranks
    assert counts["no_pictures"] == comb(40, 13)
    assert counts["all_pictures"] == comb(16, 13)
    assert counts["six_and_above"] == comb(36, 13)  # 6..A: 9 ranks
    assert counts["twelve_pictures"] == 40


def test_three_quads(counts):
    assert counts["three_quads"] == comb(13, 3) * 40


def test_four_trips(counts):
    # Four ranks with 3 or 4 cards use 12 + q cards (q quads), leaving 1 - q: q is 0 or 1.
    no_quad = comb(13, 4) * 4**4 * (9 * 4)  # four trips, odd card of a fifth rank
    one_quad = comb(13, 4) * 4 * 4**3  # which of the four ranks is the quad
    assert counts["four_trips"] == no_quad + one_quad


def _pattern_count(q: int, t: int, p: int, s: int) -> int:
    """Hands with q quads, t trips, p pairs, s singles (4q + 3t + 2p + s = 13)."""
    assert 4 * q + 3 * t + 2 * p + s == 13
    ranks = comb(13, q) * comb(13 - q, t) * comb(13 - q - t, p) * comb(13 - q - t - p, s)
    return ranks * 1**q * 4**t * 6**p * 4**s


def test_six_pairs(counts):
    # 2q + t + p = 6 and 4q + 3t + 2p + s = 13 give s = 1 - t: t is 0 (one single) or 1.
    expected = sum(_pattern_count(q, 0, 6 - 2 * q, 1) for q in range(4))
    expected += sum(_pattern_count(q, 1, 5 - 2 * q, 0) for q in range(3))
    assert counts["six_pairs"] == expected


def test_five_pairs_trips(counts):
    # One trip; the other 10 cards are p pairs and q quads with p + 2q = 5.
    expected = sum(_pattern_count(q, 1, 5 - 2 * q, 0) for q in range(3))
    assert counts["five_pairs_trips"] == expected
    # Written out for q = 0, 1, 2 as a second check of the helper.
    assert expected == 13 * 4 * (
        comb(12, 5) * 6**5 + 12 * comb(11, 3) * 6**3 + comb(12, 2) * 10 * 6
    )


def test_three_flushes(counts):
    # Suit patterns 5-5-3, 8-5, 10-3 and 13; each of the first three has 4!/2! = 12
    # assignments of counts to suits.
    expected = (
        12 * comb(13, 5) ** 2 * comb(13, 3)
        + 12 * comb(13, 8) * comb(13, 5)
        + 12 * comb(13, 10) * comb(13, 3)
        + 4
    )
    assert counts["three_flushes"] == expected


# --- straights: independent slow checkers ---------------------------------------------------------


def _straight_counts(words: list[str]) -> list[tuple[int, ...]]:
    out = []
    for word in words:
        c = [0] * 13
        for ch in word:
            c[RANKS.index(ch)] += 1
        out.append(tuple(c))
    return out


FIVES = _straight_counts(["A2345"] + ["".join(RANKS[i : i + 5]) for i in range(9)])
THREES_NO_QKA = _straight_counts(["A23"] + ["".join(RANKS[i : i + 3]) for i in range(10)])
THREES = THREES_NO_QKA + _straight_counts(["QKA"])


def _minus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    d = tuple(x - y for x, y in zip(a, b))
    return None if min(d) < 0 else d


def _slow_three_straights(counts: tuple[int, ...], threes: list[tuple[int, ...]]) -> bool:
    """Recursively peel off a three-card straight, then two five-card straights."""

    def fives_left(rest: tuple[int, ...], n: int) -> bool:
        if n == 0:
            return not any(rest)
        return any(
            (r := _minus(rest, f)) is not None and fives_left(r, n - 1) for f in FIVES
        )

    return any((r := _minus(counts, t)) is not None and fives_left(r, 2) for t in threes)


def test_dragon_is_three_straights_without_qka():
    dragon = np.ones((1, 13), dtype=np.int8)
    assert exact._three_straights_mask(dragon, qka_front_straight=False)[0]
    assert _slow_three_straights((1,) * 13, THREES_NO_QKA)


def _hand(*words: str) -> np.ndarray:
    return np.array([np.sum(_straight_counts(list(words)), axis=0)], dtype=np.int8)


def test_qka_only_hand_depends_on_option():
    # No jack, so Q and K can only sit in a Q-K-A front.
    hand = _hand("23456", "6789T", "QKA")
    assert exact._three_straights_mask(hand, qka_front_straight=True)[0]
    assert not exact._three_straights_mask(hand, qka_front_straight=False)[0]
    assert _slow_three_straights(tuple(hand[0].tolist()), THREES)
    assert not _slow_three_straights(tuple(hand[0].tolist()), THREES_NO_QKA)


def test_k_a_2_never_counts():
    hand = _hand("34567", "34567", "KA2")  # no other split: K has no partner
    for option in (True, False):
        assert not exact._three_straights_mask(hand, qka_front_straight=option)[0]


@pytest.mark.parametrize("qka", [True, False])
def test_three_straights_against_slow_checker(qka):
    threes = THREES if qka else THREES_NO_QKA
    vectors, _ = exact._rank_count_vectors()
    mask = exact._three_straights_mask(vectors, qka_front_straight=qka)
    rng = np.random.default_rng(20240513)

    # Every distinct qualifying vector (a few hundred) passes the slow checker.
    yes = vectors[mask]
    assert 0 < len(yes) < 2000
    assert all(_slow_three_straights(tuple(v), threes) for v in yes.tolist())

    # 2000 random non-qualifying vectors fail it.
    no = vectors[rng.choice(np.flatnonzero(~mask), size=2000, replace=False)]
    assert not any(_slow_three_straights(tuple(v), threes) for v in no.tolist())

    # Near misses: move one card of a qualifying vector to another rank.
    picks = yes[rng.integers(len(yes), size=2000)].copy()
    rows = np.arange(len(picks))
    src = np.array([rng.choice(np.flatnonzero(p > 0)) for p in picks])
    dst = np.array([rng.choice(np.flatnonzero(p < 4)) for p in picks])
    picks[rows, src] -= 1
    picks[rows, dst] += 1
    got = exact._three_straights_mask(picks, qka_front_straight=qka)
    slow = np.array([_slow_three_straights(tuple(v), threes) for v in picks.tolist()])
    np.testing.assert_array_equal(got, slow)
    assert 0 < (~slow).sum()  # the sample does contain near misses


def test_qka_option_shrinks_straight_counts(counts):
    without = exact_naturals(qka_front_straight=False).set_index("natural")["count"]
    assert int(without["three_straights"]) < counts["three_straights"]
    assert int(without["three_straight_flushes"]) < counts["three_straight_flushes"]
    # Nothing else depends on the option.
    others = [n for n in counts if n not in ("three_straights", "three_straight_flushes")]
    assert all(int(without[n]) == counts[n] for n in others)


@functools.cache
def _decompositions(mask: int, pieces: tuple[int, ...], threes_key: bool) -> bool:
    """Can this set of ranks (bits 0..12) be split into straights of the given lengths?"""
    if not pieces:
        return mask == 0
    length, rest = pieces[0], pieces[1:]
    table = FIVES if length == 5 else (THREES if threes_key else THREES_NO_QKA)
    for s in table:
        bits = sum(1 << r for r, c in enumerate(s) if c)
        if mask & bits == bits and _decompositions(mask & ~bits, rest, threes_key):
            return True
    return False


@pytest.mark.parametrize("qka", [True, False])
def test_three_straight_flushes_by_suit_decomposition(qka):
    # Per suit, count the rank sets that split into each kind of piece group; sizes 3, 5, 8,
    # 10, 13 identify the group. Then assign the groups {5}, {5}, {3} to the four suits.
    d = {size: 0 for size in (3, 5, 8, 10, 13)}
    groups = {3: (3,), 5: (5,), 8: (5, 3), 10: (5, 5), 13: (5, 5, 3)}
    for mask in range(1 << 13):
        size = bin(mask).count("1")
        if size in groups and _decompositions(mask, groups[size], qka):
            d[size] += 1
    assert d[5] == 10 and d[3] == (12 if qka else 11) and d[13] == 1
    expected = (
        12 * d[5] ** 2 * d[3]  # 5, 5, 3 in three different suits
        + 12 * d[10] * d[3]  # 5+5 in one suit, 3 in another
        + 12 * d[8] * d[5]  # 5+3 in one suit, 5 in another
        + 4 * d[13]  # all in one suit
    )
    table = exact_naturals(qka_front_straight=qka).set_index("natural")["count"]
    assert int(table["three_straight_flushes"]) == expected


def test_implications_between_naturals(counts):
    straight_flushes = counts["three_straight_flushes"]
    assert straight_flushes <= min(counts["three_straights"], counts["three_flushes"])
    assert counts["all_one_colour"] <= counts["twelve_one_colour"]
    assert counts["clean_dragon"] <= counts["dragon"]


def test_counting_the_naturals_takes_little_memory():
    """The count ran at the peak of a CLI run (issue 50: ``cpstats simulate`` at 836 MB): an int64
    copy of the 3.6M x 13 rank vectors (374 MB) and every mask's temporaries at once. Now the
    vectors are built, weighed and tested a column or a block at a time: the vectors and their
    weights (72 MB) and a block's temporaries, well under 200 MB traced."""
    import tracemalloc

    tracemalloc.start()
    try:
        exact._exact_counts.__wrapped__(True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"{peak / 2**20:.0f} MB"


@pytest.mark.parametrize("qka", [True, False])
def test_the_shipped_counts_are_the_enumeration(qka):
    """The counts every result reads ship with the package; enumerating again gives them exactly."""
    from cpstats.thirteen.naturals.exact import EXACT_COUNTS_PATH, _option_key, enumerate_counts

    shipped = json.loads(EXACT_COUNTS_PATH.read_text())[_option_key(qka)]
    assert dict(enumerate_counts(qka)) == shipped
