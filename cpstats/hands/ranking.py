"""Hand ranking (rulebook H1-H5): integer ranks, higher is stronger, equal is a tie.

Five-card hands rank 0..7461 and three-card hands 0..454 on their own scales. The front and
the middle are compared on the *common scale* of H3 (``scale="common"``): category first,
then deciding ranks, then kickers; a three-card hand whose cards equal the five-card hand's
leading cards is the lower one.

Orderings of five-card hands:

- ``"H1"`` standard (A-2-3-4-5 is the lowest straight),
- ``"H4"`` wheel second (A-2-3-4-5 ranks just below T-J-Q-K-A),
- ``"H5"`` deuce-to-seven low for the middle: higher rank is the better *low* hand
  (straights and flushes count against it, aces are high). H5 ranks have no common scale.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

import numpy as np

from cpstats.cards import _bits
from cpstats.hands import _rank_kernel
from cpstats.hands import tables as _tables
from cpstats.cards.codes import _as_codes, _hand_error, check_hands
from cpstats.errors import OptionError

__all__ = [
    "Ordering",
    "rank5",
    "rank3",
    "category5",
    "category3",
    "CATEGORIES_5",
    "CATEGORIES_3",
    "N_RANKS_5",
    "N_RANKS_3",
    "common_scale5",
    "common_scale3",
]

CATEGORIES_5 = _tables.CATEGORIES_5
CATEGORIES_3 = _tables.CATEGORIES_3
N_RANKS_5 = 7462
N_RANKS_3 = 455


class Ordering(StrEnum):
    """Five-card orderings, valued by rulebook ID."""

    STANDARD = "H1"
    WHEEL_SECOND = "H4"
    DEUCE_TO_SEVEN = "H5"


def _ordering(value: str | Ordering) -> Ordering:
    try:
        return Ordering(value)
    except ValueError:
        names = {o.name.lower(): o for o in Ordering}
        key = str(value).lower().replace("-", "_")
        if key in names:
            return names[key]
        allowed = ", ".join(f"{o.value} ({o.name.lower()})" for o in Ordering)
        raise OptionError(f"ordering={value!r} is invalid: allowed are {allowed}") from None


def _scale(value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise OptionError(f"scale={value!r} is invalid: allowed are {', '.join(map(repr, allowed))}")
    return value


def rank5(codes, *, ordering: str | Ordering = "H1", scale: str = "five", check: bool = True,
          out: np.ndarray | None = None) -> np.ndarray:
    """Rank five-card hands.

    Parameters
    ----------
    codes
        Card codes of shape ``(..., 5)`` (or a string of five cards).
    ordering
        ``"H1"`` standard, ``"H4"`` wheel second, ``"H5"`` deuce-to-seven low.
    scale
        ``"five"``: 0..7461; ``"common"``: position on the front/middle scale of H3.
    check
        Validate shape, codes and duplicates (internal callers with dealt cards skip it). The
        codes and duplicates are checked inside the ranking kernel (a 52-bit mask per hand), so
        the check costs little next to a separate pass (docs/measurements.md#bench_foundation).
    out
        Optional ``uint16`` buffer of ``codes.size // 5`` elements to write the ranks into
        (saves the allocation in loops over chunks; ignored with ``scale="common"``).

    Returns
    -------
    numpy.ndarray
        ``uint16`` ranks of shape ``codes.shape[:-1]``.

    Examples
    --------
    >>> int(rank5("As Ks Qs Js Ts"))
    7461
    >>> int(rank5("5c 4d 3h 2s Ac")) < int(rank5("6c 5d 4h 3s 2c"))
    True
    >>> category5(rank5("Ah Ad Kc Ks 2d"))
    'two_pair'
    """
    order = _ordering(ordering)
    _scale(scale, ("five", "common"))
    if order is Ordering.DEUCE_TO_SEVEN and scale == "common":
        raise OptionError("scale='common' is invalid with ordering='H5': a low middle is never compared with the front")
    arr = _as_codes(codes, 5) if check else np.ascontiguousarray(codes, dtype=np.uint8)
    tables = _tables.five_card_tables(order.value)
    flat = np.ascontiguousarray(arr).reshape(-1)
    out = _out_buffer(out, flat.shape[0] // 5)
    args = (flat, _tables.CARD_KEY, _tables.CARD_BIT, tables.nonflush, tables.flush)
    if not check:
        _rank_kernel.rank5_kernel(*args, out)
    elif (bad := _rank_kernel.rank5_checked_kernel(*args, _bits.CARD_MASK, out)) >= 0:
        raise _hand_error(flat.reshape(-1, 5), bad)
    if scale == "common":
        out = tables.common[out]
    return out.reshape(arr.shape[:-1])


def rank3(codes, *, scale: str = "three", ordering: str | Ordering = "H1", check: bool = True,
          out: np.ndarray | None = None) -> np.ndarray:
    """Rank three-card (front) hands (H2): trips > pair > high card, no straights or flushes.

    ``scale="common"`` places them on the front/middle scale of H3 for ``ordering``; ``out`` is
    an optional ``uint16`` buffer as in :func:`rank5`; ``check`` as there (in the kernel).

    Examples
    --------
    >>> int(rank3("Ac Ad As"))
    454
    >>> bool(rank3("Qc Qd 2s", scale="common") < rank5("Qh Qs 2c 3d 4h", scale="common"))
    True
    """
    _scale(scale, ("three", "common"))
    order = _ordering(ordering)
    arr = _as_codes(codes, 3) if check else np.ascontiguousarray(codes, dtype=np.uint8)
    flat = np.ascontiguousarray(arr).reshape(-1)
    out = _out_buffer(out, flat.shape[0] // 3)
    if not check:
        _rank_kernel.rank3_kernel(flat, _tables.three_card_table(), out)
    elif _rank_kernel.rank3_checked_kernel(flat, _three_table_any_codes(), _bits.CARD_MASK, out):
        check_hands(flat.reshape(-1, 3), 3)  # names the first bad hand
    if scale == "common":
        out = _tables.three_card_common(order.value)[out]
    return out.reshape(arr.shape[:-1])


@lru_cache(maxsize=1)
def _three_table_any_codes() -> np.ndarray:
    """The three-card table padded with zeros so that any uint8 codes index inside it (see
    ``_rank_kernel.rank3_checked_kernel``)."""
    table = _tables.three_card_table()
    padded = np.zeros(_rank_kernel.THREE_TABLE_SIZE, dtype=table.dtype)
    padded[: table.size] = table
    return padded


def _out_buffer(out: np.ndarray | None, size: int) -> np.ndarray:
    if out is None:
        return np.empty(size, dtype=np.uint16)
    if not isinstance(out, np.ndarray) or out.dtype != np.uint16 or out.size != size or not out.flags.c_contiguous:
        raise OptionError(f"out must be a contiguous uint16 array of {size} elements, got "
                          f"{getattr(out, 'dtype', type(out).__name__)} of size {getattr(out, 'size', '?')}")
    return out.reshape(-1)


def common_scale5(ranks: np.ndarray, *, ordering: str | Ordering = "H1") -> np.ndarray:
    """Map five-card ranks (``scale="five"``) onto the common front/middle scale."""
    order = _ordering(ordering)
    if order is Ordering.DEUCE_TO_SEVEN:
        raise OptionError("ordering='H5' has no common scale: a low middle is never compared with the front")
    return _tables.five_card_tables(order.value).common[_check_ranks(ranks, N_RANKS_5)]


def common_scale3(ranks: np.ndarray, *, ordering: str | Ordering = "H1") -> np.ndarray:
    """Map three-card ranks (``scale="three"``) onto the common front/middle scale."""
    return _tables.three_card_common(_ordering(ordering).value)[_check_ranks(ranks, N_RANKS_3)]


def _check_ranks(ranks, size: int) -> np.ndarray:
    arr = np.asarray(ranks)
    if arr.dtype.kind not in "iu" or (arr.size and (arr.min() < 0 or arr.max() >= size)):
        raise OptionError(f"ranks must be integers in 0..{size - 1}, got {arr.dtype} values")
    return arr


def category5(ranks, *, ordering: str | Ordering = "H1"):
    """Category name of five-card ranks: a string for a scalar, an array of strings otherwise."""
    arr = _check_ranks(ranks, N_RANKS_5)
    names = np.array(CATEGORIES_5)[_tables.five_card_tables(_ordering(ordering).value).category[arr]]
    return str(names) if names.ndim == 0 else names


def category3(ranks):
    """Category name of three-card ranks (``scale="three"``)."""
    arr = _check_ranks(ranks, N_RANKS_3)
    cats = np.array([int(k[0]) for k in _tables.three_card_keys()])
    names = np.array(["high_card", "pair", "", "three_of_a_kind"])[cats[arr]]
    return str(names) if names.ndim == 0 else names
