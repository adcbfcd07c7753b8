"""Exact counts of the naturals (rulebook section 5) among all C(52, 13) thirteen-card hands.

Every count is found by enumeration, never by simulation:

* tests on ranks alone run over every *rank-count vector* (how many cards of each of the
  13 ranks, summing to 13), each weighted by the number of hands with those counts,
  ``prod(C(4, c_r))``;
* tests on suits alone run over every *suit-count vector*, weighted by ``prod(C(13, s))``;
* tests on ranks and suits together (clean dragon, three straight flushes) run over explicit
  card sets, with cards coded ``4 * rank + suit`` as in :mod:`cpstats.cards`.

Ranks are indexed 0..12 for 2..A and suits 0..3 for clubs, diamonds, hearts, spades.
"""

from __future__ import annotations

import functools
import itertools
import json
import math

import numpy as np
import pandas as pd

from cpstats._resources import DATA_DIR
from cpstats.errors import OptionError

__all__ = ["NATURALS", "TOTAL_HANDS", "exact_naturals"]

TOTAL_HANDS: int = math.comb(52, 13)

NATURALS: tuple[str, ...] = (
    "dragon",
    "clean_dragon",
    "one_suit",
    "six_pairs",
    "five_pairs_trips",
    "four_trips",
    "three_quads",
    "three_straights",
    "three_flushes",
    "three_straight_flushes",
    "all_one_colour",
    "twelve_one_colour",
    "all_low",
    "all_high",
    "no_pictures",
    "all_pictures",
    "twelve_pictures",
    "six_and_above",
)

_N_RANKS = 13
_N_SUITS = 4
_HAND = 13
_ACE = 12
_EIGHT, _JACK, _KING, _SIX = 6, 9, 11, 4
_BLACK, _RED = (0, 3), (1, 2)
_THREE_FLUSH_PATTERNS = {(5, 5, 3, 0), (8, 5, 0, 0), (10, 3, 0, 0), (13, 0, 0, 0)}
#: Rank-count vectors tested at a time (memory, not speed: docs/measurements.md#memory-of-a-cli-run).
_BLOCK = 1 << 18


def _straights(length: int, *, qka_front_straight: bool = True) -> list[tuple[int, ...]]:
    """Rank tuples of the straights of ``length`` cards: ace low first, no wrap-around.

    Five-card straights run A-2-3-4-5 .. T-J-Q-K-A. Three-card straights run A-2-3 .. J-Q-K,
    plus Q-K-A when ``qka_front_straight``; K-A-2 never counts (rulebook N-THREE-STRAIGHTS).
    """
    out = [(_ACE, *range(length - 1))]
    out += [tuple(range(low, low + length)) for low in range(_N_RANKS - length + 1)]
    if length == 3 and not qka_front_straight:
        out.remove((10, 11, 12))
    return out


def _rank_count_vectors() -> tuple[np.ndarray, np.ndarray]:
    """Every rank-count vector of a 13-card hand and how many hands have it.

    Returns
    -------
    vectors : numpy.ndarray
        ``int8`` array of shape ``(M, 13)``: cards of each rank 2..A, each 0..4, rows summing
        to 13 (M = 3,598,180). Not cached: 72 MB with its weights, needed only
        while :func:`_exact_counts` counts (which is cached).
    weights : numpy.ndarray
        ``int64`` array of shape ``(M,)``: ``prod(C(4, c_r))``; they sum to C(52, 13).
    """
    vectors = np.zeros((1, 0), dtype=np.int8)
    totals = np.zeros(1, dtype=np.int16)
    for rank in range(_N_RANKS):
        ranks_left = _N_RANKS - rank - 1
        # Prune prefixes that overshoot 13 or can no longer reach it.
        keeps = [(totals + c <= _HAND) & (totals + c + 4 * ranks_left >= _HAND) for c in range(5)]
        grown = np.empty((sum(int(k.sum()) for k in keeps), rank + 1), dtype=np.int8)
        grown_totals = np.empty(len(grown), dtype=np.int16)
        start = 0
        for c, keep in enumerate(keeps):
            rows = slice(start, start + int(keep.sum()))
            for column in range(rank):  # a column at a time: no copy of the whole prefix rows
                grown[rows, column] = vectors[keep, column]
            grown[rows, rank] = c
            grown_totals[rows] = totals[keep] + c
            start = rows.stop
        vectors, totals = grown, grown_totals
    ways = np.array([math.comb(4, c) for c in range(5)], dtype=np.int64)
    # The largest weight is 4**13 (thirteen singletons): int64 products are exact.
    weights = _column_product(ways, vectors)
    vectors.setflags(write=False)
    weights.setflags(write=False)
    return vectors, weights


@functools.lru_cache(maxsize=1)
def _suit_count_vectors() -> tuple[np.ndarray, np.ndarray]:
    """Every suit-count vector (clubs, diamonds, hearts, spades) of a 13-card hand.

    Returns
    -------
    vectors : numpy.ndarray
        ``int8`` array of shape ``(560, 4)``, rows summing to 13. Read-only.
    weights : numpy.ndarray
        ``int64`` array: ``prod(C(13, s))``; they sum to C(52, 13).
    """
    rows = [v for v in itertools.product(range(_HAND + 1), repeat=3) if sum(v) <= _HAND]
    vectors = np.array([(*v, _HAND - sum(v)) for v in rows], dtype=np.int8)
    ways = np.array([math.comb(_HAND, s) for s in range(_HAND + 1)], dtype=np.int64)
    weights = _column_product(ways, vectors)
    vectors.setflags(write=False)
    weights.setflags(write=False)
    return vectors, weights


def _column_product(ways: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """``prod(ways[v])`` of each row ``v`` of ``vectors`` (int64), a column at a time: the
    whole ``ways[vectors]`` would be an int64 copy of the 3.6M x 13 vectors, 374 MB, the
    peak of a CLI run (docs/measurements.md#memory-of-a-cli-run)."""
    out = np.ones(len(vectors), dtype=np.int64)
    for column in vectors.T:
        out *= ways[column]
    return out


def _encode(vectors: np.ndarray) -> np.ndarray:
    """Base-5 code of each rank-count vector (fits in int64: 5**13 < 2**31), a column at a
    time for the reason :func:`_column_product` gives."""
    out = np.zeros(len(vectors), dtype=np.int64)
    for rank in range(vectors.shape[1]):
        out += vectors[:, rank].astype(np.int64) * 5**rank
    return out


def _three_straight_vectors(*, qka_front_straight: bool) -> np.ndarray:
    """Distinct rank-count vectors that split into two 5-card straights and a 3-card straight."""
    fives = _straights(5)
    threes = _straights(3, qka_front_straight=qka_front_straight)
    rows = set()
    for a, b in itertools.combinations_with_replacement(fives, 2):
        for c in threes:
            counts = [0] * _N_RANKS
            for r in (*a, *b, *c):
                counts[r] += 1
            rows.add(tuple(counts))
    # Any rank appears at most three times, so every row is a possible hand.
    return np.array(sorted(rows), dtype=np.int8)


def _three_straights_mask(vectors: np.ndarray, *, qka_front_straight: bool) -> np.ndarray:
    """Boolean mask: which rank-count vectors can be set as three straights."""
    targets = _encode(_three_straight_vectors(qka_front_straight=qka_front_straight))
    return np.isin(_encode(vectors), targets)


def _rank_masks(vectors: np.ndarray, *, qka_front_straight: bool) -> dict[str, np.ndarray]:
    """The naturals decided by rank counts alone, as masks over ``vectors``."""
    v = vectors
    return {
        "dragon": (v == 1).all(axis=1),
        "six_pairs": (v // 2).sum(axis=1) == 6,
        # One rank of three; every other rank 0, 2 or 4 (quads are two pairs).
        "five_pairs_trips": ((v == 3).sum(axis=1) == 1) & ~(v == 1).any(axis=1),
        "four_trips": (v // 3).sum(axis=1) == 4,
        "three_quads": (v == 4).sum(axis=1) == 3,
        "three_straights": _three_straights_mask(v, qka_front_straight=qka_front_straight),
        "all_low": v[:, _EIGHT + 1 :].sum(axis=1) == 0,
        "all_high": v[:, :_EIGHT].sum(axis=1) == 0,
        "no_pictures": v[:, _JACK : _KING + 1].sum(axis=1) == 0,
        "all_pictures": v[:, :_JACK].sum(axis=1) == 0,
        "twelve_pictures": (v[:, _JACK : _KING + 1] == 4).all(axis=1),
        "six_and_above": v[:, :_SIX].sum(axis=1) == 0,
    }


def _suit_masks(vectors: np.ndarray) -> dict[str, np.ndarray]:
    """The naturals decided by suit counts alone, as masks over ``vectors``."""
    pattern = -np.sort(-vectors, axis=1)
    black = vectors[:, list(_BLACK)].sum(axis=1)
    red = vectors[:, list(_RED)].sum(axis=1)
    return {
        "one_suit": vectors.max(axis=1) == _HAND,
        "three_flushes": np.array([tuple(p) in _THREE_FLUSH_PATTERNS for p in pattern.tolist()]),
        "all_one_colour": (black == _HAND) | (red == _HAND),
        "twelve_one_colour": (black >= _HAND - 1) | (red >= _HAND - 1),
    }


def _card_mask(ranks: tuple[int, ...], suit: int) -> int:
    """Bit set of the cards ``4 * rank + suit``."""
    return sum(1 << (4 * r + suit) for r in ranks)


def _count_clean_dragons() -> int:
    """Hands that are one suit and 13 different ranks, by checking each one-suit card set."""
    count = 0
    for suit in range(_N_SUITS):
        cards = [4 * r + suit for r in range(_N_RANKS)]
        if len({c // 4 for c in cards}) == _N_RANKS:
            count += 1
    return count


def _count_three_straight_flushes(*, qka_front_straight: bool) -> int:
    """Distinct 13-card sets that are a disjoint union of SF5, SF5 and SF3 card sets."""
    sf5 = [_card_mask(s, suit) for s in _straights(5) for suit in range(_N_SUITS)]
    sf3 = [
        _card_mask(s, suit)
        for s in _straights(3, qka_front_straight=qka_front_straight)
        for suit in range(_N_SUITS)
    ]
    hands = set()
    for a, b in itertools.combinations(sf5, 2):
        if a & b:
            continue
        back_middle = a | b
        for c in sf3:
            if not back_middle & c:
                hands.add(back_middle | c)
    return len(hands)


#: The counts, enumerated once and shipped (:func:`write_exact_counts`): every 13-card result's
#: naturals table and PAR sheet reads them, and the enumeration takes 5-10 s a process. A test
#: enumerates again and holds the file to it.
EXACT_COUNTS_PATH = DATA_DIR / "naturals" / "exact_counts.json"


def _option_key(qka_front_straight: bool) -> str:
    return "qka_front_straight" if qka_front_straight else "no_qka_front_straight"


@functools.lru_cache(maxsize=2)
def _exact_counts(qka_front_straight: bool) -> tuple[tuple[str, int], ...]:
    """The shipped counts of the option; enumerated here when the file lacks them."""
    try:
        shipped = json.loads(EXACT_COUNTS_PATH.read_text())[_option_key(qka_front_straight)]
        return tuple((name, int(shipped[name])) for name in NATURALS)
    except (OSError, ValueError, KeyError):
        return enumerate_counts(qka_front_straight)


def write_exact_counts(path=EXACT_COUNTS_PATH) -> None:
    """Enumerate both options' counts and write them where :func:`_exact_counts` reads them."""
    counts = {_option_key(q): dict(enumerate_counts(q)) for q in (True, False)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(counts, indent=1) + "\n")


def enumerate_counts(qka_front_straight: bool) -> tuple[tuple[str, int], ...]:
    """Each natural's exact number of 13-card hands, by enumeration of rank and suit counts."""
    rank_vectors, rank_weights = _rank_count_vectors()
    suit_vectors, suit_weights = _suit_count_vectors()
    counts: dict[str, int] = {}
    # The masks a block of rows at a time: all at once, their temporaries over the 3.6M vectors
    # peaked at 200 MB (the counts are sums of integers, the same either way).
    for start in range(0, len(rank_vectors), _BLOCK):
        rows = slice(start, start + _BLOCK)
        masks = _rank_masks(rank_vectors[rows], qka_front_straight=qka_front_straight)
        for name, mask in masks.items():
            counts[name] = counts.get(name, 0) + int(rank_weights[rows][mask].sum())
    for name, mask in _suit_masks(suit_vectors).items():
        counts[name] = int(suit_weights[mask].sum())
    counts["clean_dragon"] = _count_clean_dragons()
    counts["three_straight_flushes"] = _count_three_straight_flushes(
        qka_front_straight=qka_front_straight
    )
    return tuple((name, counts[name]) for name in NATURALS)


def exact_naturals(*, qka_front_straight: bool = True) -> pd.DataFrame:
    """Exact number and probability of each natural among all 13-card hands.

    Each natural is tested on its own: a hand that is, say, both a dragon and three straights
    is counted in both rows. The counts ship with the package (enumerated once: :func:`enumerate_counts`).

    Parameters
    ----------
    qka_front_straight
        Whether Q-K-A counts as a three-card straight in front (rulebook N-THREE-STRAIGHTS;
        allowed by default). K-A-2 and wrap-arounds never count.

    Returns
    -------
    pandas.DataFrame
        One row per natural, in the order of :data:`NATURALS`, with columns ``natural``
        (str), ``count`` (int64, exact number of hands) and ``probability``
        (``count / C(52, 13)``).

    Raises
    ------
    OptionError
        If ``qka_front_straight`` is not a bool.

    Examples
    --------
    >>> table = exact_naturals().set_index("natural")
    >>> int(table.loc["dragon", "count"]) == 4**13
    True
    >>> int(table.loc["one_suit", "count"])
    4
    >>> bool(exact_naturals(qka_front_straight=False).set_index("natural").loc[
    ...     "three_straights", "count"] < table.loc["three_straights", "count"])
    True
    """
    if not isinstance(qka_front_straight, (bool, np.bool_)):
        raise OptionError(
            f"qka_front_straight={qka_front_straight!r} is invalid: must be True or False"
        )
    rows = _exact_counts(bool(qka_front_straight))
    table = pd.DataFrame(rows, columns=["natural", "count"])
    table["count"] = table["count"].astype(np.int64)
    table["probability"] = table["count"] / TOTAL_HANDS
    return table
