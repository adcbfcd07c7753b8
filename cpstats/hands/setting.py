"""Settings of a 13-card hand: splits into front (3) / middle (5) / back (5), legality, fouls.

A setting is a ``uint8`` array of 13 codes laid out front ``[:3]``, middle ``[3:8]``,
back ``[8:]``; as text it is ``"6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"``.
Legality (H3): back >= middle >= front, the front and middle compared on the common scale;
under H5 (a low middle) only back >= front is required.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

import numpy as np

from cpstats.cards import _bits
from cpstats.hands import _rank_kernel
from cpstats.hands import tables as _tables
from cpstats.cards.codes import DECK_SIZE, _as_codes, _hand_error, check_hands, format_cards, parse_cards
from cpstats.errors import CardError
from cpstats.hands.ranking import Ordering, _ordering, rank3, rank5

__all__ = [
    "N_ORDERED_SPLITS",
    "N_SPLITS",
    "split_positions",
    "splits",
    "legal_settings",
    "is_foul",
    "foul_of_ranks",
    "parse_setting",
    "format_setting",
]

N_ORDERED_SPLITS = 72_072
N_SPLITS = 36_036


@lru_cache(maxsize=2)
def split_positions(ordered: bool = False) -> np.ndarray:
    """Positions 0..12 arranged front|middle|back for every split, shape (72072 or 36036, 13).

    Unordered splits (the default) list each pair of five-card groups once, the group holding
    the lowest remaining position first; :func:`splits` then puts the stronger five in the back.
    """
    rows = []
    for front in itertools.combinations(range(13), 3):
        rest = [p for p in range(13) if p not in front]
        for middle in itertools.combinations(rest, 5):
            if not ordered and middle[0] != rest[0]:
                continue
            back = [p for p in rest if p not in middle]
            rows.append((*front, *middle, *back))
    out = np.array(rows, dtype=np.uint8)
    out.setflags(write=False)
    return out


def splits(hand, *, ordered: bool = False, ordering: str | Ordering = "H1") -> np.ndarray:
    """Every split of one 13-card hand as settings, shape (36036, 13) or (72072, 13) if ``ordered``.

    Unordered splits put the stronger five-card group in the back (ties keep their order); some
    of them are still fouls (front above middle): see :func:`legal_settings`.

    Examples
    --------
    >>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2c 2d 3h 4h 5h")
    >>> splits(hand).shape, splits(hand, ordered=True).shape
    ((36036, 13), (72072, 13))
    """
    cards = check_hands(hand, 13)
    if cards.ndim != 1:
        raise CardError(f"splits takes one hand of 13 cards, got shape {cards.shape}")
    settings = cards[split_positions(ordered)]
    if not ordered:
        # Under H5 the back is still a high hand, and the weaker high hand is the better low
        # hand, so the stronger high five goes in the back there too.
        order = _ordering(ordering)
        high = Ordering.STANDARD if order is Ordering.DEUCE_TO_SEVEN else order
        swap = rank5(settings[:, 3:8], ordering=high, check=False) > rank5(
            settings[:, 8:], ordering=high, check=False
        )
        settings[swap, 3:8], settings[swap, 8:] = settings[swap, 8:], settings[swap, 3:8].copy()
    return settings


def is_foul(settings, *, ordering: str | Ordering = "H1", check: bool = True) -> np.ndarray:
    """True where a setting breaks back >= middle >= front (H3); H5 checks back >= front only.

    Parameters
    ----------
    settings
        Codes of shape ``(..., 13)`` laid out front|middle|back, or a setting string.
    check
        Refuse codes out of 0..51 and a card twice in a setting (checked while the rows are
        split, in one kernel pass); ``check=False`` is for settings of dealt cards.

    Examples
    --------
    >>> bool(is_foul("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"))
    False
    >>> bool(is_foul("Td Ts 4h / 6s 6c 9c Qs 8c / 3h 3d 3s 2h 2d"))
    True
    """
    order = _ordering(ordering)
    if not check:
        arr = np.ascontiguousarray(settings, dtype=np.uint8)
    else:
        arr = parse_setting(settings) if isinstance(settings, str) else _as_codes(settings, 13)
    rows = arr.reshape(-1, 13)
    front = np.empty((rows.shape[0], 3), dtype=np.uint8)
    middle = np.empty((rows.shape[0], 5), dtype=np.uint8)
    back = np.empty((rows.shape[0], 5), dtype=np.uint8)
    bad = _rank_kernel.split_settings_kernel(rows, check, _bits.CARD_MASK, front, middle, back)
    if bad >= 0:
        raise _hand_error(rows, bad)
    high = Ordering.STANDARD if order is Ordering.DEUCE_TO_SEVEN else order
    foul = foul_of_ranks(rank3(front, check=False), rank5(middle, ordering=order, check=False),
                         rank5(back, ordering=high, check=False), ordering=order)
    return foul.reshape(arr.shape[:-1])


def foul_of_ranks(front, middle, back, *, ordering: str | Ordering = "H1") -> np.ndarray:
    """:func:`is_foul` from the rows' ranks (``rank3`` of the front; ``rank5`` of the middle under
    ``ordering``, of the back under H1 where ``ordering`` is H5), for callers that rank the rows
    anyway: the one definition of a foul, which :func:`is_foul` uses too."""
    order = _ordering(ordering)
    if order is Ordering.DEUCE_TO_SEVEN:
        back_common = _tables.five_card_tables("H1").common[back]
        return back_common < _tables.three_card_common("H1")[front]
    middle_common = _tables.five_card_tables(order.value).common[middle]
    return (back < middle) | (middle_common < _tables.three_card_common(order.value)[front])


def legal_settings(hand, *, ordering: str | Ordering = "H1") -> np.ndarray:
    """Every legal setting of one hand: the unordered splits that are not fouls.

    Examples
    --------
    >>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2c 2d 3h 4h 5h")
    >>> legal = legal_settings(hand)
    >>> bool(is_foul(legal).any()), len(legal) <= N_SPLITS
    (False, True)
    """
    settings = splits(hand, ordering=ordering)
    return settings[~is_foul(settings, ordering=ordering, check=False)]


def _check_settings_of(hands: np.ndarray, settings, who: str, start: int = 0) -> np.ndarray:
    """``settings`` as ``uint8[N, 13]``, refused unless each row is its row of ``hands`` (valid
    ``uint8[N, 13]``, same shape) rearranged.

    Codes of another integer dtype are range-checked before the cast (nothing wraps); the rows
    are compared in one numba pass (the 52-bit masks of setting and hand are equal). Errors
    name ``who`` and the row (``start`` + its index), e.g. ``strategy 'mine' returned setting 3
    with cards not dealt to that hand (Kd instead of 2c)``.
    """
    raw = np.asarray(settings)
    if raw.dtype.kind not in "iu":
        raise CardError(f"{who} returned settings of dtype {raw.dtype}: card codes must be "
                        "integers 0..51")
    if raw.dtype != np.uint8 and raw.size and (raw.min() < 0 or raw.max() >= DECK_SIZE):
        row, col = np.argwhere((raw < 0) | (raw >= DECK_SIZE))[0]
        raise CardError(f"{who} returned card code {int(raw[row, col])} in setting {start + row}: "
                        "codes are 0..51")
    codes = np.ascontiguousarray(raw, dtype=np.uint8)
    bad = _rank_kernel.first_unlike_row(hands, codes, _bits.CARD_MASK)
    if bad < 0:
        return codes
    row = codes[bad]
    if (row >= DECK_SIZE).any():
        raise CardError(f"{who} returned card code {int(row[row >= DECK_SIZE][0])} in setting "
                        f"{start + bad}: codes are 0..51")
    given, dealt = Counter(row.tolist()), Counter(hands[bad].tolist())
    extra = format_cards(sorted((given - dealt).elements()))
    missing = format_cards(sorted((dealt - given).elements()))
    raise CardError(f"{who} returned setting {start + bad} with cards not dealt to that hand "
                    f"({extra} instead of {missing})")


def _as_settings(settings) -> np.ndarray:
    if isinstance(settings, str):
        return parse_setting(settings)
    return check_hands(settings, 13)


def parse_setting(text: str) -> np.ndarray:
    """Parse ``"front / middle / back"`` (3, 5 and 5 cards) into 13 codes laid out front|middle|back.

    Examples
    --------
    >>> format_setting(parse_setting("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"))
    '6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d'
    """
    if not isinstance(text, str):
        raise CardError(f"setting={text!r} is invalid: write 'front / middle / back' (3, 5 and 5 "
                        "cards), e.g. '6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d'")
    rows = text.split("/")
    if len(rows) != 3:
        raise CardError(
            f"a setting is written 'front / middle / back' with two '/', got {len(rows) - 1}: {text!r}"
        )
    parts = []
    for name, row, size in zip(("front", "middle", "back"), rows, (3, 5, 5)):
        try:
            parts.append(parse_cards(row, count=size))
        except CardError as err:
            raise CardError(f"{name} row: {err}") from None
    return check_hands(np.concatenate(parts), 13)


def format_setting(setting) -> str:
    """Write a setting (13 codes, front|middle|back) as ``"front / middle / back"``."""
    arr = check_hands(setting, 13)
    if arr.ndim != 1:
        raise CardError(f"format_setting takes one setting of 13 codes, got shape {arr.shape}")
    return " / ".join(format_cards(arr[a:b]) for a, b in ((0, 3), (3, 8), (8, 13)))
