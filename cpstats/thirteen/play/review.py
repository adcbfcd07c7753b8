"""Review a setting: its expected result under the ``ev`` model, the best setting, the loss, and
the best alternatives, so a player sees what a setting costs and why.

Values are the ``ev`` setter's model (row win/tie tables trained for the variant, rows and
opponents independent, see :mod:`cpstats.thirteen.play`), in units against every opponent.
A fouled setting is valued at the mis-set penalty it pays to each opponent. Under H5 (a low
middle) the middle is valued on the low scale, as ``ev`` values it, and the settings compared
are every ordered split whose back beats its front (the stronger high five is not always the
better back there: a wheel is the weakest straight but an ace-high low).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from cpstats.thirteen.play import _ev_kernel as _sk
from cpstats.cards._bits import pack_hand
from cpstats.cards.codes import CardError, check_hands, parse_cards
from cpstats.errors import OptionError
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import format_setting, is_foul, legal_settings, parse_setting, splits
from cpstats.thirteen.play._kernel_args import _low_middle
from cpstats.thirteen.play.api import _variant
from cpstats.thirteen.play.ev_setter import _low_model, _model, _opponents, _refuse_low_middle
from cpstats.thirteen.play.row_tables import RowTables, load_tables
from cpstats.thirteen.rules.variant import Variant

__all__ = ["Review", "review", "setting_values"]


@njit(cache=True, nogil=True)
def _values_kernel(settings, rf, rm, rb, tf, tm, tb, cst, params, removal, classes, out):
    per_class = np.empty((3, removal.shape[2], 4))
    work = np.empty(14 + removal.shape[2])
    sizes = _sk.class_counts(classes, tf, tm, tb)
    for i in range(out.shape[0]):
        _sk.row_state(settings[i], pack_hand(settings[i]), removal, sizes, per_class, work)
        out[i] = _sk._value(tf, tm, tb, cst, rf[i], rm[i], rb[i], params, (per_class, classes))


def setting_values(settings: np.ndarray, variant: Variant | str, *,
                   tables: RowTables | str | None = None) -> np.ndarray:
    """Expected result of each legal setting (N, 13) under the ``ev`` model of ``variant``
    with ``tables`` (as :func:`~cpstats.thirteen.play.set_hands` takes them: None for the
    variant's own), card removal from the setting's own 13 cards included; under H5 the
    middle is ranked as a low hand and the back as a high one."""
    v = _variant(variant)
    tables = load_tables(v, tables=tables)
    _refuse_low_middle(v, tables)
    arr = np.ascontiguousarray(settings, dtype=np.uint8).reshape(-1, 13)
    order = v.ranking.value
    if _low_middle(v):
        tf, tm, tb, cst, _, _, _, _, params, removal, classes = _low_model(v, tables)
        back_order = "H1"
    else:
        tf, tm, tb, cst, _, _, _, _, _, params, removal, classes = _model(v, tables)
        back_order = order
    rf = rank3(arr[:, :3], check=False).astype(np.int64)
    rm = rank5(arr[:, 3:8], ordering=order, check=False).astype(np.int64)
    rb = rank5(arr[:, 8:], ordering=back_order, check=False).astype(np.int64)
    out = np.empty(len(arr), dtype=np.float64)
    _values_kernel(arr, rf, rm, rb, tf, tm, tb, cst, params, removal, classes, out)
    return out


def _candidates(hand: np.ndarray, v: Variant) -> np.ndarray:
    """The settings review compares: the legal ones; under H5 every ordered split whose back
    beats its front (as ``ev`` searches them)."""
    if not _low_middle(v):
        return legal_settings(hand, ordering=v.ranking.value)
    ordered = splits(hand, ordered=True)
    return ordered[~is_foul(ordered, ordering="H5", check=False)]


def _is_text_list(value) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(x, str) for x in value)


def _as_hand(cards) -> np.ndarray:
    """13 codes from text, a list of card tokens or a list/array of codes."""
    if isinstance(cards, str) or _is_text_list(cards):
        return parse_cards(cards, count=13)
    try:
        shape = np.shape(cards)
    except ValueError:
        shape = None
    if shape is None or len(shape) != 1:
        raise CardError(f"expected one hand of 13 cards, got {str(cards)[:60]!r}")
    return check_hands(cards, 13)


def _as_setting(setting) -> np.ndarray:
    """13 codes front|middle|back from ``"front / middle / back"``, its three rows (text or
    token lists), 13 card tokens in that order, or 13 codes."""
    if isinstance(setting, str):
        return parse_setting(setting)
    if not isinstance(setting, (list, tuple)):
        return _as_hand(setting)
    items = list(setting)
    if len(items) == 3 and all(isinstance(r, str) or _is_text_list(r) for r in items):
        return parse_setting(" / ".join(r if isinstance(r, str) else " ".join(r) for r in items))
    if _is_text_list(items):
        if len(items) != 13:
            raise CardError(f"a setting is 'front / middle / back' or 13 cards, got {len(items)} items")
        return parse_cards(items, count=13)
    return _as_hand(setting)


def _check_top(top) -> int:
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 0:
        raise OptionError(f"top={top!r} is invalid: expected a whole number >= 0 "
                          "(the alternatives to list)")
    return int(top)


@dataclass(frozen=True)
class Review:
    """A setting's review: ``value`` of the given setting, ``best`` setting and its value,
    ``loss`` (best - given, >= 0) and ``alternatives`` (the top settings by value)."""

    setting: str
    value: float
    foul: bool
    best: str
    best_value: float
    loss: float
    alternatives: pd.DataFrame

    def __str__(self) -> str:
        lines = [f"your setting   {self.setting}   EV {self.value:+.3f}" + ("  (foul)" if self.foul else ""),
                 f"best setting   {self.best}   EV {self.best_value:+.3f}",
                 f"loss           {self.loss:.3f} units", "", "top alternatives:",
                 self.alternatives.to_string(index=False, float_format=lambda x: f"{x:+.3f}")]
        return "\n".join(lines)


def review(cards, setting, variant: Variant | str = "2-4", *, top: int = 5,
           tables: RowTables | str | None = None) -> Review:
    """Review ``setting`` of the 13 ``cards`` under ``variant``.

    Parameters
    ----------
    cards
        Text in any card notation, a list of card tokens, or 13 codes.
    setting
        ``"front / middle / back"``, its three rows (text or token lists), 13 tokens or codes
        laid out front, middle, back.
    variant
        A Variant, preset name or variant string; under ``ranking=H5`` (a low middle) its
        tables must be trained under H5, as ``ev``'s must.
    top
        How many of the best settings to list (0 or more).
    tables
        The ``ev`` model's row tables, as :func:`~cpstats.thirteen.play.set_hands` takes them
        (None: the variant's own; a preset name or variant string borrows that one's).

    Examples
    --------
    >>> r = review("As Ks Qs Js Ts 9h 9d 9c 2c 2d 3h 4h 5h",
    ...            "2c 2d 3h / 9h 9d 9c 4h 5h / As Ks Qs Js Ts")
    >>> r.loss >= 0, r.foul
    (True, False)
    """
    v = _variant(variant)
    top = _check_top(top)
    tables = load_tables(v, tables=tables)  # once, not per call of setting_values
    hand, given = _as_hand(cards), _as_setting(setting)
    if sorted(hand.tolist()) != sorted(given.tolist()):
        raise CardError(f"the setting {format_setting(given)!r} does not hold the same 13 cards as the hand")
    legal = _candidates(hand, v)
    values = setting_values(legal, v, tables=tables)
    foul = bool(is_foul(given, ordering=v.ranking.value))
    if foul:
        value = -float(v.kernel_tables()["misset"]) * _opponents(v)
    else:
        value = float(setting_values(given, v, tables=tables)[0])
    order = np.argsort(-values, kind="stable")
    best = int(order[0])
    alternatives = pd.DataFrame({
        "setting": [format_setting(legal[i]) for i in order[:top]],
        "ev": values[order[:top]],
        "loss": values[best] - values[order[:top]],
    })
    return Review(format_setting(given), value, foul, format_setting(legal[best]), float(values[best]),
                  max(float(values[best]) - value, 0.0), alternatives)
