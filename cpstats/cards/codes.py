"""Card vocabulary (rulebook D1, D4): one parser for every notation, ``uint8`` codes below it.

A card is the code ``4 * rank + suit`` with ``rank`` 0..12 for 2..A and ``suit`` 0..3 for
clubs, diamonds, hearts, spades. Suits never rank (D1); the order only fixes the codes.
"""

from __future__ import annotations

import re
from typing import Iterable

import numpy as np

from cpstats.cards import _bits
from cpstats.cards import _deal_kernel
from cpstats.errors import CardError, OptionError

__all__ = [
    "RANKS",
    "SUITS",
    "DECK_SIZE",
    "parse_cards",
    "format_cards",
    "card_rank",
    "card_suit",
    "check_hands",
    "deal",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52

_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": 8}
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {
    "♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3,
}
_TOKEN = re.compile(r"^(10|[2-9tjqka])([cdhs♣♧♦♢♥♡♠♤])$")
_ONE = re.compile(r"^1[cdhs♣♧♦♢♥♡♠♤]$")
_SEPARATORS = re.compile(r"[\s,;]+")


def _parse_token(token: str) -> int:
    match = _TOKEN.match(token.lower())
    if match is None and _ONE.match(token.lower()):
        raise CardError(f"{token} is not a card: ranks are 2-9, T (or 10), J, Q, K, A")
    if match is None:
        raise CardError(
            f"unknown card {token!r}: write a rank (2-9, T or 10, J, Q, K, A) then a suit "
            "(c, d, h, s or ♣ ♦ ♥ ♠), e.g. 'As', '10h', 'K♦'"
        )
    rank, suit = match.groups()
    return 4 * _RANK_ALIASES[rank.upper() if rank != "10" else rank] + _SUIT_ALIASES[suit]


def parse_cards(text: str | Iterable[str], *, count: int | None = None) -> np.ndarray:
    """Parse cards written in any accepted notation into ``uint8`` codes.

    Parameters
    ----------
    text
        Cards separated by spaces or commas (``"As Kd Th"``, ``"10h, a♠"``), or an iterable of tokens.
    count
        When given, exactly this many cards are required.

    Raises
    ------
    CardError
        Naming the unknown or duplicated token, or the wrong count; for anything but a ``str`` or
        an iterable of ``str`` tokens (``bytes`` included: decode them first). A ``1`` is not a
        rank (``1h`` is refused rather than read as an ace).

    Examples
    --------
    >>> parse_cards("As Kd 10h 2c").tolist()
    [51, 45, 34, 0]
    >>> format_cards(parse_cards("a♠, k♦"))
    'As Kd'
    """
    if isinstance(text, str):
        tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    else:
        tokens = [t.strip() for t in _token_list(text)]
    codes = np.array([_parse_token(t) for t in tokens], dtype=np.uint8)
    seen: dict[int, str] = {}
    for token, code in zip(tokens, codes.tolist()):
        if code in seen:
            raise CardError(f"duplicate card {token!r} (already given as {seen[code]!r})")
        seen[code] = token
    if count is not None and len(codes) != count:
        raise CardError(f"expected {count} cards, got {len(codes)}: {' '.join(tokens)!r}")
    return codes


def _token_list(text) -> list[str]:
    """The tokens of a non-string ``text`` argument of :func:`parse_cards`, each a ``str``."""
    if isinstance(text, (bytes, bytearray)):
        raise CardError(f"cards={text!r} is bytes: decode it to a str first (text.decode())")
    try:
        items = list(text)
    except TypeError:
        raise CardError(f"cards={text!r} is invalid: give a string such as 'As Kd 10h' or an "
                        "iterable of card tokens") from None
    for item in items:
        if not isinstance(item, str):
            raise CardError(f"card tokens must be strings such as 'As', got {item!r} "
                            f"({type(item).__name__})")
    return items


def format_cards(codes: Iterable[int] | np.ndarray) -> str:
    """Write card codes as text, e.g. ``'As Kd Th'``; the inverse of :func:`parse_cards`."""
    arr = np.asarray(codes)
    if arr.ndim != 1:
        raise CardError(f"format_cards takes a 1-d array of codes, got shape {arr.shape}")
    _check_codes(arr)
    return " ".join(RANKS[c >> 2] + SUITS[c & 3] for c in arr.tolist())


def card_rank(codes: np.ndarray) -> np.ndarray:
    """Rank index 0..12 (2..A) of each code."""
    return np.asarray(codes) >> 2


def card_suit(codes: np.ndarray) -> np.ndarray:
    """Suit index 0..3 (c, d, h, s) of each code."""
    return np.asarray(codes) & 3


def _check_codes(arr: np.ndarray) -> None:
    if arr.dtype.kind not in "iu":
        raise CardError(f"card codes must be integers, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= DECK_SIZE):
        bad = arr[(arr < 0) | (arr >= DECK_SIZE)].ravel()[0]
        raise CardError(f"card code {int(bad)} is invalid: codes are 0..51 (4 * rank + suit)")


def check_hands(codes: np.ndarray | Iterable, cards: int, *, unique: bool = True) -> np.ndarray:
    """Validate an array of hands of shape ``(..., cards)`` and return it as ``uint8``.

    Checks the last dimension, the dtype, the code range and (when ``unique``) that no hand
    holds a card twice, the last two in one numba pass (a 52-bit mask per hand). A string is
    parsed as one hand; a list of strings is one hand of card tokens (``["As", "Kd", ...]``) or,
    when each string holds several cards, one hand per string.

    Raises
    ------
    CardError
        One line naming the first bad hand and its card (the hand's index in the rows of
        ``codes.reshape(-1, cards)``).
    """
    arr = _as_codes(codes, cards)
    rows = arr.reshape(-1, cards)
    if unique:
        bad = _bits.first_bad_hand(rows, _bits.CARD_MASK)
        if bad >= 0:
            raise _hand_error(rows, bad, named=arr.ndim > 1)
    elif rows.size and rows.max() >= DECK_SIZE:
        raise _hand_error(rows, int(np.flatnonzero((rows >= DECK_SIZE).any(axis=1))[0]),
                          named=arr.ndim > 1)
    return arr


def _as_codes(codes, cards: int) -> np.ndarray:
    """``codes`` as a contiguous ``uint8`` array of shape ``(..., cards)``: text parsed, shape and
    dtype checked, other integer dtypes range-checked before the cast (so nothing wraps).

    ``uint8`` codes are not range-checked here: the checking kernels refuse codes >= 52.
    """
    if isinstance(codes, str):
        codes = parse_cards(codes, count=cards)
    elif isinstance(codes, (list, tuple)) and codes and all(isinstance(c, str) for c in codes):
        if any(_SEPARATORS.search(c.strip()) for c in codes):
            codes = np.stack([parse_cards(c, count=cards) for c in codes])
        else:
            codes = parse_cards(codes, count=cards)
    try:
        arr = np.asarray(codes)
    except (TypeError, ValueError) as err:
        raise CardError(f"hands of {cards} cards must form an array of codes: {err}") from None
    if arr.ndim == 0 or arr.shape[-1] != cards:
        raise CardError(f"expected hands of {cards} cards (shape (..., {cards})), got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise CardError(f"card codes must be integers, got dtype {arr.dtype}")
    if arr.dtype != np.uint8 and arr.size and (arr.min() < 0 or arr.max() >= DECK_SIZE):
        rows = arr.reshape(-1, cards)
        bad = int(np.flatnonzero(((rows < 0) | (rows >= DECK_SIZE)).any(axis=1))[0])
        raise _hand_error(rows, bad, named=arr.ndim > 1)
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _hand_error(hands: np.ndarray, row: int, *, named: bool = True) -> CardError:
    """The error for ``hands[row]`` (one hand a row), which holds a code out of 0..51 or a card
    twice: one line naming the first such card and, when ``named`` (more than one hand was
    given), the hand; a caller that knows the hand by another index adds its own name."""
    hand = hands[row]
    wrong = hand[(hand < 0) | (hand >= DECK_SIZE)]
    if wrong.size:
        return CardError(f"{f'hand {row}: ' if named else ''}card code {int(wrong[0])} is "
                         "invalid: codes are 0..51 (4 * rank + suit)")
    values, counts = np.unique(hand, return_counts=True)
    return CardError(f"{f'hand {row}' if named else 'the hand'} holds "
                     f"{format_cards(values[counts > 1][:1])} twice: a hand cannot repeat a card")


def as_generator(rng: object) -> np.random.Generator:
    """``rng`` as a numpy Generator (a Generator itself, or a seed: an integer >= 0, a
    SeedSequence or None); anything else is one line saying what is allowed."""
    if isinstance(rng, np.random.Generator):
        return rng
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise OptionError(f"rng={rng!r} is invalid: a numpy Generator or a seed (an integer "
                          ">= 0, a SeedSequence or None)") from None


def deal(rng: np.random.Generator | int | None, deals: int, hands: int = 4) -> np.ndarray:
    """Deal ``deals`` decks into ``hands`` hands of 13: shape ``(deals, hands, 13)``.

    Uses the package's exact dealer (``_deal_kernel.deal_kernel``: every deal equally likely), on an
    SFC64 stream seeded from ``rng`` (a Generator, or a seed for ``numpy.random.default_rng``),
    so the result depends only on the generator's state. Simulations deal by blocks instead
    (:mod:`cpstats.cards.blocks`); this is for one-off samples.
    """
    deals = _integer("deals", deals, 0, None, "a number of deals >= 0")
    hands = _integer("hands", hands, 1, 4, "a deck deals 1 to 4 hands of 13")
    rng = as_generator(rng)
    seed = np.random.SeedSequence(int(rng.integers(2**63)))
    state = np.array(np.random.SFC64(seed).state["state"]["state"], dtype=np.uint64)
    out = np.empty((deals, 52), dtype=np.uint8)
    _deal_kernel.deal_kernel(state, np.arange(52, dtype=np.uint8), out)
    return out[:, : 13 * hands].reshape(deals, hands, 13)


def _integer(name: str, value, low: int, high: int | None, allowed: str) -> int:
    """``value`` as an int in ``low..high`` (``high`` None: unbounded), else an OptionError."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if not ok or value < low or (high is not None and value > high):
        raise OptionError(f"{name}={value!r} is invalid: {allowed}")
    return int(value)
