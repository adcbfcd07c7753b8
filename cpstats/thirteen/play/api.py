"""Setting strategies: the protocol, the registry, and setting hands with a strategy.

A *strategy* is any callable ``strategy(hands, variant, *, rng=None)`` taking dealt hands
(``uint8[N, 13]``) and a :class:`~cpstats.thirteen.rules.variant.Variant` and returning a :class:`Decisions`
(or a ``(settings, declare, surrender)`` tuple): a legal setting of each hand laid out
front|middle|back, whether to declare the natural it holds (the highest of the variant's
schedule) and whether to surrender. :func:`set_hands` and :func:`set_hand` call one by name, as
a setter object (:mod:`cpstats.thirteen.play.setters`) or as a callable (``setter=``) and check
what it returns.

Built in (see :func:`strategy_names`), each registered by the module that defines it:

- ``greedy``: the legal setting strongest by (back rank, middle rank, front rank): the best
  five in the back, among backs of that rank the one leaving the strongest middle, the rest in
  front (equal-rank cards go to the lowest suit, back first); declares every natural in the
  schedule, never surrenders (:mod:`cpstats.thirteen.play.baselines`).
- ``random``: a uniform draw among the legal settings (seeded by ``rng``); declares every
  natural, never surrenders (:mod:`cpstats.thirteen.play.baselines`).
- ``ev``: the rule-aware setter. Searches every legal split (pruned exactly) for the highest
  expected result against the field under the variant's scoring, royalties and table size,
  from row tables trained by damped best response (:mod:`cpstats.thirteen.play.training`) for the
  variant's rules: shipped for the presets, trained on the fly and cached for any other
  variant, another variant's only when ``EvSetter(tables=...)`` names it
  (:func:`~cpstats.thirteen.play.row_tables.resolve_tables`); declares a natural when it pays
  more than the hand is expected to, surrenders when playing is expected to cost more than
  surrendering (:mod:`cpstats.thirteen.play.ev_setter`).

Decision (where the issue leaves a choice open): the built-in strategies support the H1, H4 and
H5 orderings; under H5 (a low middle) ``ev`` searches ordered splits with back >= front only
(:mod:`cpstats.thirteen.play._ev_low_kernel`) and needs tables trained under H5.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from cpstats.cards.codes import check_hands, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.thirteen.naturals.detect import NATURALS, natural_mask
from cpstats.hands.setting import format_setting
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.play.row_tables import load_tables

__all__ = ["Decisions", "HandDecision", "Strategy", "register_strategy", "get_strategy",
           "strategy_names", "set_hands", "set_hand", "takes_tables"]


@dataclass(frozen=True)
class Decisions:
    """What a strategy decided for ``N`` hands.

    Attributes
    ----------
    settings
        ``uint8[N, 13]``, each hand laid out front ``[:3]``, middle ``[3:8]``, back ``[8:]``.
    declare
        ``bool[N]``: declare the hand's natural (the highest of the schedule it holds).
    surrender
        ``bool[N]``: give up before the reveal (only where the variant allows it).
    value
        ``float64[N]`` expected result of the chosen play when the strategy estimates one
        (``ev``), else None.
    """

    settings: np.ndarray
    declare: np.ndarray
    surrender: np.ndarray
    value: np.ndarray | None = None

    def natural_bits(self, hands_or_settings: np.ndarray, variant: Variant) -> np.ndarray:
        """``uint32[N]`` declared natural bits for :func:`cpstats.thirteen.settlement.settle_many`."""
        return np.where(self.declare, best_natural_bits(hands_or_settings, variant), 0).astype(np.uint32)


@dataclass(frozen=True)
class HandDecision:
    """One hand's decision: ``setting`` as text, ``natural`` declared (or None), ``surrender``."""

    setting: str
    natural: str | None
    surrender: bool
    value: float | None = None
    codes: np.ndarray | None = None

    def __str__(self) -> str:
        extra = f", declare {self.natural}" if self.natural else ""
        extra += ", surrender" if self.surrender else ""
        return self.setting + extra


@runtime_checkable
class Strategy(Protocol):
    """``strategy(hands uint8[N, 13], variant, *, rng=None) -> Decisions``."""

    def __call__(self, hands: np.ndarray, variant: Variant, *,
                 rng: np.random.Generator | None = None) -> Decisions | tuple: ...


# -- registry ---------------------------------------------------------------------------------

_REGISTRY: dict[str, Callable[..., Any]] = {}


def register_strategy(name: str, strategy: Callable[..., Any], *, replace: bool = False) -> None:
    """Make ``strategy`` available by ``name`` to :func:`set_hands` and :func:`set_hand`."""
    key = str(name).strip().lower()
    if not callable(strategy):
        raise OptionError(f"strategy {name!r} is not callable")
    if key in _REGISTRY and not replace:
        raise OptionError(f"strategy {name!r} is already registered (pass replace=True)")
    _REGISTRY[key] = strategy


def strategy_names() -> tuple[str, ...]:
    """Names of the registered strategies."""
    return tuple(_REGISTRY)


def get_strategy(strategy: str | Callable[..., Any]) -> Callable[..., Any]:
    """The strategy called ``strategy``, or ``strategy`` itself when it is callable.

    Raises
    ------
    OptionError
        For an unknown name, listing the available ones.
    """
    if callable(strategy):
        return strategy
    key = str(strategy).strip().lower()
    if key not in _REGISTRY:
        raise OptionError(f"unknown strategy {strategy!r}: available strategies are "
                          f"{', '.join(_REGISTRY)} (or pass a callable)")
    return _REGISTRY[key]


def takes_tables(strategy: Callable[..., Any]) -> bool:
    """Whether a strategy callable takes a ``tables`` keyword (``ev`` does)."""
    try:
        return "tables" in inspect.signature(strategy).parameters
    except (TypeError, ValueError):  # a callable without a signature
        return False


def _bound(fn: Callable[..., Any], v: Variant) -> tuple[Callable[..., Any], dict]:
    """(strategy, keywords) that set ``v``'s hands: a setter object's own (:meth:`bind`, which
    resolves its settings once, ev's tables trained if need be); the registered ``ev`` callable
    gets its variant's own tables, resolved here once rather than in every worker."""
    bind = getattr(fn, "bind", None)
    if callable(bind):
        return bind(v)
    if fn is _REGISTRY.get("ev"):
        return fn, {"tables": load_tables(v)}
    return fn, {}


def _variant(variant: Variant | str) -> Variant:
    """The 13-card variant hands are set under (an open-face one is refused in one line)."""
    from cpstats.thirteen.rules.variant import resolve_variant

    return resolve_variant(variant)


def _as_decisions(result: Any, hands: np.ndarray | int, name: str = "strategy",
                  start: int = 0) -> Decisions:
    """A strategy's ``result`` as :class:`Decisions`, checked against the ``hands`` it was given.

    Every strategy's output passes here, since a user's strategy may return anything: the shapes,
    then the settings, refused unless each is its hand rearranged (codes that are not integers 0..51
    are refused before any cast, so nothing wraps; see ``setting._check_settings_of``). Errors name
    the strategy ``name`` and the setting (``start`` + its row). Given only the count of hands (an
    int), the settings are checked as hands (codes 0..51, no card twice), not against the deal.
    """
    from cpstats.hands.setting import _check_settings_of

    n = hands if isinstance(hands, int) else hands.shape[0]
    if isinstance(result, Decisions):
        out = result
    elif isinstance(result, tuple) and len(result) == 3:
        out = Decisions(*result)
    else:
        out = Decisions(result, np.zeros(n, bool), np.zeros(n, bool))
    try:
        raw = np.asarray(out.settings)
        declare = np.asarray(out.declare, dtype=bool).reshape(-1)
        surrender = np.asarray(out.surrender, dtype=bool).reshape(-1)
    except (TypeError, ValueError) as err:
        raise OptionError(f"a strategy must return settings ({n}, 13), declare ({n},) and "
                          f"surrender ({n},): strategy {name!r} returned arrays numpy cannot "
                          f"read ({err})") from None
    if raw.shape != (n, 13) or declare.shape != (n,) or surrender.shape != (n,):
        raise OptionError(f"a strategy must return settings ({n}, 13), declare ({n},) and "
                          f"surrender ({n},); got {raw.shape}, {declare.shape}, "
                          f"{surrender.shape}")
    if not isinstance(hands, int):
        settings = _check_settings_of(hands, raw, f"strategy {name!r}", start)
    else:
        try:
            settings = check_hands(raw, 13)
        except CardError as err:
            raise CardError(f"strategy {name!r} returned an invalid setting: {err}") from None
    return Decisions(settings, declare, surrender, out.value)


_BLOCK = 4096


def set_hands(hands, variant: Variant | str = "2-4", *, setter: Any = "ev",
              rng: np.random.Generator | int | None = None, executor: Any = None) -> Decisions:
    """Set many hands with a setter.

    Parameters
    ----------
    hands
        ``(N, 13)`` card codes (or one hand of 13).
    variant
        A :class:`~cpstats.thirteen.rules.variant.Variant`, a preset name or a variant string.
    setter
        A registered name (:func:`strategy_names`), a setter object carrying its settings
        (:class:`~cpstats.thirteen.play.EvSetter`, ``EvSetter(tables="2-4")`` to borrow 2-4's row
        tables, and the others) or a callable following :class:`Strategy`. ``ev`` plays its
        variant's own row tables (shipped for a preset's rules, else read from the cache or
        trained now, about half a minute, and cached).
    rng
        Seed or ``numpy.random.Generator`` for randomized strategies.
    executor
        A ``concurrent.futures``-style executor: hands are set in blocks of 4,096, block ``i``
        with ``SeedSequence`` child ``i`` of ``rng``, so the result does not depend on the
        executor. The built-in kernels release the GIL, so a ``ThreadPoolExecutor`` uses every
        core. None: serial, one block.

    Raises
    ------
    CardError
        For hands that are not 13 distinct valid cards, and for a strategy returning a setting
        that is not its hand rearranged (other cards, a card twice, codes out of 0..51 or not
        integers): strategy output is checked, never trusted.
    OptionError
        For an unknown setter name, a strategy's output of the wrong shapes, or an
        ``EvSetter(tables=...)`` naming no variant.
    """
    arr = check_hands(hands, 13)
    _check_rng(rng)
    fn = get_strategy(setter)
    v = _variant(variant)
    flat = arr.reshape(-1, 13)
    if executor is None:
        return _set_dealt(setter, flat, v, np.random.default_rng(rng))
    name = _name(setter, fn)
    fn, extra = _bound(fn, v)
    dealt = flat.copy()  # what the strategy's settings are checked against, whatever it writes
    if isinstance(rng, np.random.Generator):
        seq = rng.bit_generator.seed_seq
    else:
        seq = np.random.SeedSequence(rng)
    starts = range(0, flat.shape[0], _BLOCK)
    children = seq.spawn(len(starts))
    futures = [executor.submit(fn, flat[a:a + _BLOCK], v, rng=np.random.default_rng(child), **extra)
               for a, child in zip(starts, children)]
    parts = [_as_decisions(f.result(), dealt[a:a + _BLOCK], name, a)
             for f, a in zip(futures, starts)]
    values = None if any(p.value is None for p in parts) else np.concatenate(
        [p.value for p in parts])
    return Decisions(np.concatenate([p.settings for p in parts]),
                     np.concatenate([p.declare for p in parts]),
                     np.concatenate([p.surrender for p in parts]), values)


def _name(setter: Any, fn: Callable[..., Any]) -> str:
    """How an error names a setter: the name given, else the callable's."""
    return setter if isinstance(setter, str) else getattr(fn, "__name__", type(fn).__name__)


def _set_dealt(setter: Any, hands: np.ndarray, v: Variant, rng: np.random.Generator) -> Decisions:
    """:func:`set_hands` in one serial pass without checking its input, for a caller whose hands
    are dealt codes, whose variant is parsed and whose setter was resolved (a run's blocks: the
    verb checked them once): ``setter`` a setter object, a registered name or a callable,
    ``hands`` ``uint8[N, 13]``. The strategy's output is still checked (a user's strategy may
    return anything)."""
    fn = get_strategy(setter)
    name = _name(setter, fn)
    flat = np.ascontiguousarray(hands, dtype=np.uint8).reshape(-1, 13)
    dealt = flat.copy()  # what the strategy's settings are checked against, whatever it writes
    fn, extra = _bound(fn, v)
    return _as_decisions(fn(flat, v, rng=rng, **extra), dealt, name)


def set_hand(cards, variant: Variant | str = "2-4", *, setter: Any = "ev",
             rng: np.random.Generator | int | None = None) -> HandDecision:
    """Set one 13-card hand.

    Parameters
    ----------
    cards
        13 cards as text (any notation :func:`~cpstats.cards.parse_cards` accepts), a list of 13
        card tokens (``["As", "Ad", ...]``) or 13 codes.
    variant, setter, rng
        As :func:`set_hands`.

    Returns
    -------
    HandDecision
        ``setting`` (``"front / middle / back"``), ``natural`` declared or None, ``surrender``.

    Examples
    --------
    >>> d = set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4", setter="greedy")
    >>> d.setting
    '5c 4d 2h / Qs Jc Jd 9h 7s / As Ad Kc Kd Qh'
    >>> d.natural, d.surrender
    (None, False)
    >>> set_hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", "pagat-typical").natural
    'dragon'
    """
    codes = parse_cards(cards, count=13) if isinstance(cards, str) else check_hands(cards, 13)
    if codes.ndim != 1:
        raise CardError(f"set_hand takes one hand of 13 cards, got shape {codes.shape}")
    v = _variant(variant)
    d = set_hands(codes[None], v, setter=setter, rng=rng)
    natural = None
    if d.declare[0]:
        bits = int(best_natural_bits(codes[None], v)[0])
        natural = NATURALS[bits.bit_length() - 1] if bits else None
    value = None if d.value is None else float(d.value[0])
    return HandDecision(format_setting(d.settings[0]), natural, bool(d.surrender[0]), value,
                        d.settings[0].copy())


# -- naturals -------------------------------------------------------------------------------

def best_natural_bits(hands: np.ndarray, variant: Variant) -> np.ndarray:
    """``uint32[N]``: the single bit of the highest natural of the schedule each hand holds."""
    n = variant.naturals
    bits = natural_mask(hands, qka_front_straight=n.qka_front_straight,
                        straight_flush_counts=n.straight_flush_counts, check=False)
    rank = variant.kernel_tables()["natural_rank"].astype(np.int64)
    out = np.zeros(bits.shape, dtype=np.uint32)
    best = np.full(bits.shape, -1, dtype=np.int64)
    for i, r in enumerate(rank):
        if r < 0:
            continue
        has = (bits >> np.uint32(i)) & 1 == 1
        better = has & (r > best)
        best = np.where(better, r, best)
        out = np.where(better, np.uint32(1 << i), out)
    return out


def natural_payout(hands: np.ndarray, variant: Variant) -> np.ndarray:
    """``float64[N]`` payout per opponent of each hand's best natural (0 when none)."""
    bits = best_natural_bits(hands, variant)
    payout = variant.kernel_tables()["natural_payout"]
    out = np.zeros(bits.shape, dtype=np.float64)
    nz = bits != 0
    if nz.any():
        index = np.log2(bits[nz].astype(np.float64)).astype(np.int64)
        out[nz] = payout[index]
    return out


def _check_rng(rng: object) -> None:
    """Refuse in one line an ``rng`` numpy would refuse with its own TypeError or ValueError."""
    seeds = (np.random.SeedSequence, np.random.BitGenerator, np.random.Generator)
    if isinstance(rng, bool) or not (rng is None or isinstance(rng, (int, np.integer, *seeds))) \
            or (isinstance(rng, (int, np.integer)) and rng < 0):
        raise OptionError(f"rng={rng!r} is invalid: pass None, an int seed >= 0, a SeedSequence "
                          "or a Generator")
