"""Card vocabulary (rulebook D1, D4): one parser for every notation, ``uint8`` codes below it.

A card is the code ``4 * rank + suit`` with ``rank`` 0..12 for 2..A and ``suit`` 0..3 for
clubs, diamonds, hearts, spades. Suits never rank (D1); the order only fixes the codes.
"""

from __future__ import annotations

import re
from typing import Iterable

import numpy as np

from .errors import CardError, OptionError

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

_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": 8, "1": 12}
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {
    "♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3,
}
_TOKEN = re.compile(r"^(10|[2-9tjqka1])([cdhs♣♧♦♢♥♡♠♤])$")
_SEPARATORS = re.compile(r"[\s,;]+")


def _parse_token(token: str) -> int:
    match = _TOKEN.match(token.lower())
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
        Naming the unknown or duplicated token, or the wrong count.

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
        tokens = [str(t).strip() for t in text]
    codes = np.array([_parse_token(t) for t in tokens], dtype=np.uint8)
    seen: dict[int, str] = {}
    for token, code in zip(tokens, codes.tolist()):
        if code in seen:
            raise CardError(f"duplicate card {token!r} (already given as {seen[code]!r})")
        seen[code] = token
    if count is not None and len(codes) != count:
        raise CardError(f"expected {count} cards, got {len(codes)}: {' '.join(tokens)!r}")
    return codes


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
    holds a card twice. Strings are parsed as one hand.
    """
    if isinstance(codes, str):
        codes = parse_cards(codes, count=cards)
    arr = np.asarray(codes)
    if arr.ndim == 0 or arr.shape[-1] != cards:
        raise CardError(f"expected hands of {cards} cards (shape (..., {cards})), got shape {arr.shape}")
    _check_codes(arr)
    arr = arr.astype(np.uint8, copy=False)
    if unique and arr.size:
        flat = np.sort(arr.reshape(-1, cards), axis=1)
        dup = np.flatnonzero((flat[:, 1:] == flat[:, :-1]).any(axis=1))
        if dup.size:
            row = flat[dup[0]]
            card = row[1:][row[1:] == row[:-1]][0]
            raise CardError(
                f"hand {int(dup[0])} holds {format_cards([card])} twice: a hand cannot repeat a card"
            )
    return np.ascontiguousarray(arr)


def deal(rng: np.random.Generator, deals: int, hands: int = 4) -> np.ndarray:
    """Deal ``deals`` decks into ``hands`` hands of 13: shape ``(deals, hands, 13)``.

    Uses the package's exact dealer (``_kernels.deal_kernel``: every deal equally likely), on an
    SFC64 stream seeded from ``rng``, so the result depends only on the generator's state.
    Simulations deal by blocks instead (:mod:`cpstats.blocks`); this is for one-off samples.
    """
    from . import _kernels

    if not 1 <= hands <= 4:
        raise OptionError(f"hands={hands} is invalid: a deck deals 1 to 4 hands of 13")
    seed = np.random.SeedSequence(int(rng.integers(2**63)))
    state = np.array(np.random.SFC64(seed).state["state"]["state"], dtype=np.uint64)
    out = np.empty((deals, 52), dtype=np.uint8)
    _kernels.deal_kernel(state, np.arange(52, dtype=np.uint8), out)
    return out[:, : 13 * hands].reshape(deals, hands, 13)
