"""Setting strategies (issue 4): a protocol, a registry and three built-in setters.

A *strategy* is any callable ``strategy(hands, variant, *, rng=None)`` taking dealt hands
(``uint8[N, 13]``) and a :class:`~cpstats.rules.Variant` and returning a :class:`Decisions`
(or a ``(settings, declare, surrender)`` tuple): a legal setting of each hand laid out
front|middle|back, whether to declare the natural it holds (the highest of the variant's
schedule) and whether to surrender.

Built in (see :func:`strategy_names`):

- ``greedy``: the legal setting strongest by (back rank, middle rank, front rank): the best
  five in the back, among backs of that rank the one leaving the strongest middle, the rest in
  front (equal-rank cards go to the lowest suit, back first); declares every natural in the
  schedule, never surrenders.
- ``random``: a uniform draw among the legal settings (seeded by ``rng``); declares every
  natural, never surrenders.
- ``ev``: the rule-aware setter. Searches every legal split (pruned exactly) for the highest
  expected result against the field under the variant's scoring, royalties and table size,
  from row tables trained by damped best response (:mod:`cpstats.strategies.training`); declares a natural when
  it pays more than the hand is expected to, surrenders when playing is expected to cost more
  than surrendering.

Decisions (where the issue leaves a choice open):

- Decision: the ``ev`` row model treats the three rows and the opponents as independent; card
  removal (what the hand holds changes what the opponents can hold) enters to first order,
  per rank class of each row (:class:`CardRemoval`); RM-CANCEL, RM-ONE and RM-DEALT
  are valued as RM-WINNER, SC-2-4-total as SC-2-4, and a banked game as a ring game. Those
  are approximations of the objective only: every setting returned is legal.
- Decision: the built-in strategies support the H1 and H4 orderings; H5 (a low middle) raises
  :class:`~cpstats.errors.OptionError`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from cpstats.strategies import _greedy_kernel as _gk
from cpstats.strategies import _ev_kernel as _sk
from cpstats.hands import tables as _tables
from cpstats.cards.codes import check_hands, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.hands.naturals import NATURALS, natural_mask
from cpstats.rules.variant import Variant, load_variant
from cpstats.hands.setting import format_setting, split_positions

__all__ = [
    "Decisions",
    "HandDecision",
    "Strategy",
    "TablesWarning",
    "RowTables",
    "CardRemoval",
    "register_strategy",
    "get_strategy",
    "strategy_names",
    "set_hands",
    "set_hand",
    "greedy",
    "random_setter",
    "ev",
    "load_tables",
    "TABLES_DIR",
]

from cpstats._resources import STRATEGIES_DIR as TABLES_DIR  # cpstats/data/strategies


class TablesWarning(UserWarning):
    """Row tables trained for another variant are in use."""


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
        """``uint32[N]`` declared natural bits for :func:`cpstats.settlement.settle_many`."""
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


def _variant(variant: Variant | str) -> Variant:
    if isinstance(variant, Variant):
        return variant
    from cpstats.rules.presets import get_preset, preset_names

    if str(variant).strip().lower() in preset_names():
        return get_preset(variant)
    return load_variant(str(variant))


def _as_decisions(result: Any, hands: np.ndarray | int, name: str = "strategy",
                  start: int = 0) -> Decisions:
    """A strategy's ``result`` as :class:`Decisions`, checked against the ``hands`` it was given.

    Every strategy's output passes here (audit 13.14): the shapes, then the settings, refused
    unless each is its hand rearranged (codes that are not integers 0..51 are refused before
    any cast, so nothing wraps; see ``setting._check_settings_of``). Errors name the strategy
    ``name`` and the setting (``start`` + its row). Given only the count of hands (an int),
    the settings are checked as hands (codes 0..51, no card twice), not against the deal.
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


def set_hands(hands, variant: Variant | str = "2-4", *, strategy: str | Callable[..., Any] = "ev",
              rng: np.random.Generator | int | None = None, executor: Any = None) -> Decisions:
    """Set many hands with a strategy.

    Parameters
    ----------
    hands
        ``(N, 13)`` card codes (or one hand of 13).
    variant
        A :class:`~cpstats.rules.Variant`, a preset name or a variant string.
    strategy
        A registered name (:func:`strategy_names`) or a callable following :class:`Strategy`.
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
        integers): strategy output is checked, never trusted (audit 13.14).
    OptionError
        For an unknown strategy name, or a strategy's output of the wrong shapes.
    """
    arr = check_hands(hands, 13)
    fn = get_strategy(strategy)
    name = strategy if isinstance(strategy, str) else getattr(fn, "__name__", type(fn).__name__)
    v = _variant(variant)
    flat = arr.reshape(-1, 13)
    dealt = flat.copy()  # what the strategy's settings are checked against, whatever it writes
    if executor is None:
        return _as_decisions(fn(flat, v, rng=np.random.default_rng(rng)), dealt, name)
    if isinstance(rng, np.random.Generator):
        seq = rng.bit_generator.seed_seq
    else:
        seq = np.random.SeedSequence(rng)
    starts = range(0, flat.shape[0], _BLOCK)
    children = seq.spawn(len(starts))
    futures = [executor.submit(fn, flat[a:a + _BLOCK], v, rng=np.random.default_rng(child))
               for a, child in zip(starts, children)]
    parts = [_as_decisions(f.result(), dealt[a:a + _BLOCK], name, a)
             for f, a in zip(futures, starts)]
    values = None if any(p.value is None for p in parts) else np.concatenate(
        [p.value for p in parts])
    return Decisions(np.concatenate([p.settings for p in parts]),
                     np.concatenate([p.declare for p in parts]),
                     np.concatenate([p.surrender for p in parts]), values)


def set_hand(cards, variant: Variant | str = "2-4", *, strategy: str | Callable[..., Any] = "ev",
             rng: np.random.Generator | int | None = None) -> HandDecision:
    """Set one 13-card hand.

    Parameters
    ----------
    cards
        13 cards as text (any notation :func:`~cpstats.cards.parse_cards` accepts), a list of 13
        card tokens (``["As", "Ad", ...]``) or 13 codes.
    variant, strategy, rng
        As :func:`set_hands`.

    Returns
    -------
    HandDecision
        ``setting`` (``"front / middle / back"``), ``natural`` declared or None, ``surrender``.

    Examples
    --------
    >>> d = set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4", strategy="greedy")
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
    d = set_hands(codes[None], v, strategy=strategy, rng=rng)
    natural = None
    if d.declare[0]:
        bits = int(best_natural_bits(codes[None], v)[0])
        natural = NATURALS[bits.bit_length() - 1] if bits else None
    value = None if d.value is None else float(d.value[0])
    return HandDecision(format_setting(d.settings[0]), natural, bool(d.surrender[0]), value,
                        d.settings[0].copy())


# -- shared helpers ---------------------------------------------------------------------------

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


@lru_cache(maxsize=1)
def _subset_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """five_pos (1287, 5), three_pos (286, 3), rest_mid and rest_front (1287, 56)."""
    import itertools


    fives = list(itertools.combinations(range(13), 5))
    threes = list(itertools.combinations(range(13), 3))
    five_index = {c: i for i, c in enumerate(fives)}
    three_index = {c: i for i, c in enumerate(threes)}
    # Interleaved (middle, front) pairs: a back's 56 splits sit in 224 contiguous bytes.
    rest = np.empty((1287, 56, 2), dtype=np.uint16)
    rest_mid = rest[:, :, 0]
    rest_front = rest[:, :, 1]
    for b, back in enumerate(fives):
        rest = [p for p in range(13) if p not in back]
        for j, mid in enumerate(itertools.combinations(rest, 5)):
            rest_mid[b, j] = five_index[mid]
            rest_front[b, j] = three_index[tuple(p for p in rest if p not in mid)]
    return (np.array(fives, dtype=np.uint8), np.array(threes, dtype=np.uint8), rest_mid,
            rest_front)


def _rank_args(variant: Variant) -> tuple[np.ndarray, ...]:
    """Card keys, five-card tables, three-card table and common scales of the variant's high
    hands (under H5 the back and front are H1 hands; the low middle has its own tables)."""
    order = "H1" if variant.ranking.value == "H5" else variant.ranking.value
    t = _tables.five_card_tables(order)
    return (_tables.CARD_KEY, _tables.CARD_BIT, t.nonflush, t.flush, _tables.three_card_table(),
            t.common, _tables.three_card_common(order))


def _low_middle(variant: Variant) -> bool:
    return variant.ranking.value == "H5"


def _declare_all(hands: np.ndarray, variant: Variant) -> np.ndarray:
    return best_natural_bits(hands, variant) != 0


# -- greedy and random ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _flush_best(order: str) -> np.ndarray:
    return _gk.flush_best_table(_tables.five_card_tables(order).flush)


def greedy(hands: np.ndarray, variant: Variant, *, rng: np.random.Generator | None = None) -> Decisions:
    """The legal setting strongest by (back rank, middle rank, front rank); declares naturals.

    That is the best five of the thirteen in the back; among the backs of that rank, the one
    leaving the strongest legal middle; the rest in front. Equal-rank cards (suits) go to the
    lowest suit, back first (see :mod:`cpstats.strategies._greedy_kernel`). Under H5 (a low middle) the
    middle is the best deuce-to-seven low of the eight cards the best back leaves (over every
    back of that rank), then the strongest front (a slower search over the subsets).
    """
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    key, bit, nonflush, flush, t3, _, _ = _rank_args(variant)
    out = np.empty_like(arr)
    if _low_middle(variant):
        low = _tables.five_card_tables("H5")
        five_pos, three_pos, rest_mid, rest_front = _subset_tables()
        _sk.greedy_low_middle_kernel(arr, key, bit, nonflush, flush, low.nonflush, low.flush, t3,
                                     rest_mid, rest_front, five_pos, three_pos,
                                     np.empty(1287, dtype=np.uint16), out)
    else:
        _gk.greedy_kernel(arr, key, nonflush, flush, _flush_best(variant.ranking.value), out)
    n = arr.shape[0]
    return Decisions(out, _declare_all(arr, variant), np.zeros(n, dtype=bool))


_RANDOM_TRIES = 24


def random_setter(hands: np.ndarray, variant: Variant, *,
                  rng: np.random.Generator | None = None) -> Decisions:
    """A uniform draw among each hand's legal settings; declares naturals.

    Legal settings are those of :func:`cpstats.hands.setting.legal_settings`: the stronger high five
    in the back, back >= middle >= front (H3), or back >= front under H5.
    """
    gen = np.random.default_rng(rng)
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    key, bit, nonflush, flush, t3, c5, c3 = _rank_args(variant)
    positions = np.ascontiguousarray(split_positions())
    n = arr.shape[0]
    draws = gen.integers(0, positions.shape[0], size=(n, _RANDOM_TRIES), dtype=np.int32)
    out = np.empty_like(arr)
    found = np.empty(n, dtype=np.bool_)
    _sk.random_kernel(arr, draws, positions, key, bit, nonflush, flush, t3, c5, c3,
                      _low_middle(variant), out, found)
    if not found.all():
        from cpstats.hands.setting import legal_settings

        for i in np.flatnonzero(~found):
            legal = legal_settings(arr[i], ordering=variant.ranking.value)
            out[i] = legal[gen.integers(len(legal))]
    return Decisions(out, _declare_all(arr, variant), np.zeros(n, dtype=bool))


# -- ev ---------------------------------------------------------------------------------------

#: Mean of the sum of squared suit lengths of a random 13-card hand (a card-removal feature).
SUIT_SQUARES_MEAN = _sk.SUIT_SQUARES_MEAN


#: How far card removal may move a rank class's probability, as a ratio of the field's (before
#: the probabilities are renormalised to sum to one).
REMOVAL_RATIO_LIMITS = (_sk.RATIO_LO, _sk.RATIO_HI)

#: Rank classes of a three-card row, and of a five-card row (the most a row has).
FRONT_CLASSES, MAX_CLASSES = 37, 100


@lru_cache(maxsize=4)
def rank_classes(ordering: str = "H1") -> tuple[np.ndarray, np.ndarray]:
    """(int64[455], int64[7462]): the class of every three-card and five-card rank, the
    category and the rank that decides it first (the pair's, the trips', the top pair's, the
    straight's or flush's top card, the high card), kickers dropped. The ranks of a class are
    one contiguous run; classes are numbered weakest first."""
    def ids(keys):
        seen: dict[tuple, int] = {}
        return np.array([seen.setdefault(tuple(k[:2]), len(seen)) for k in keys], dtype=np.int64)

    return ids(_tables.three_card_keys()), ids(_tables.five_card_tables(ordering).keys)


@dataclass(frozen=True)
class CardRemoval:
    """How the field's row distributions move with the cards a player holds.

    The player's hand is summarised by 14 features ``x``: the cards held of each rank minus
    one, and the sum of the squared suit lengths minus its mean (:data:`SUIT_SQUARES_MEAN`).
    ``front`` (FRONT_CLASSES, 14), ``middle`` and ``back`` (MAX_CLASSES, 14) hold, per rank
    class of the row (:func:`rank_classes`), the change of the class's probability in the
    opponents' row per unit of each feature (least squares,
    :func:`cpstats.strategies.training.fit_card_removal`). Given a hand, class ``c`` of field probability
    ``P[c]`` gets ``P[c] * (1 + ratio[c])`` with ``ratio[c] = slope[c] @ x / P[c]`` clipped to
    :data:`REMOVAL_RATIO_LIMITS`, then renormalised so the probabilities sum to one (unless the
    sum is outside [0.5, 2], which is clipped); the ranks within a class keep their field
    proportions. A first-order model: holding two aces makes the opponents' pairs of aces rarer,
    whatever their kickers.
    ``meta`` records the fit.
    """

    front: np.ndarray
    middle: np.ndarray
    back: np.ndarray
    meta: dict

    def __post_init__(self) -> None:
        for name, classes in (("front", FRONT_CLASSES), ("middle", MAX_CLASSES),
                              ("back", MAX_CLASSES)):
            shape = np.shape(getattr(self, name))
            if shape != (classes, 14):
                raise OptionError(f"CardRemoval.{name} has shape {shape}; expected ({classes}, 14)"
                                  " (rank classes x features): tables fitted by an older cpstats "
                                  "must be refitted with cpstats.strategies.training.fit_card_removal")

    def slopes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.front, self.middle, self.back


@dataclass(frozen=True)
class RowTables:
    """The field's row-rank distributions the ``ev`` setter plays against.

    ``front`` (455,), ``middle`` and ``back`` (7462,) are probabilities of each rank in the
    field's rows; ``variant`` is the variant string they were trained for; ``meta`` the
    training record (seed, deals, iterations, convergence); ``removal`` the card-removal
    correction (:class:`CardRemoval`), or None to ignore card removal.
    """

    front: np.ndarray
    middle: np.ndarray
    back: np.ndarray
    variant: str
    meta: dict
    removal: CardRemoval | None = None

    def save(self, path: str | Path) -> None:
        """Write an ``.npz`` with the three distributions, the card-removal correction and the
        metadata."""
        import json

        extra = {}
        if self.removal is not None:
            r = self.removal
            extra = {"removal_front": r.front, "removal_middle": r.middle,
                     "removal_back": r.back, "removal_meta": np.array(json.dumps(r.meta))}
        np.savez_compressed(path, front=self.front, middle=self.middle, back=self.back,
                            variant=np.array(self.variant), meta=np.array(json.dumps(self.meta)),
                            **extra)

    @classmethod
    def load(cls, path: str | Path) -> RowTables:
        import json

        with np.load(path) as data:
            removal = None
            if "removal_front" in data:
                removal = CardRemoval(data["removal_front"], data["removal_middle"],
                                      data["removal_back"],
                                      json.loads(str(data["removal_meta"])))
            return cls(data["front"], data["middle"], data["back"], str(data["variant"]),
                       json.loads(str(data["meta"])), removal)


def _table_file(name: str) -> Path:
    return TABLES_DIR / f"{name}.npz"


@lru_cache(maxsize=32)
def _load_file(path: str) -> RowTables:
    return RowTables.load(path)


def load_tables(variant: Variant | str, *, fallback: str = "2-4") -> RowTables:
    """The shipped row tables for ``variant``.

    Looks for tables trained for exactly this variant (``cpstats/data/strategies/<name>.npz`` whose
    stored variant string matches); otherwise uses the ``fallback`` preset's tables and warns
    (:class:`TablesWarning`) naming both variants.
    """
    v = _variant(variant)
    path = _table_file(v.name)
    if path.exists():
        tables = _load_file(str(path))
        if tables.variant == str(v):
            return tables
    path = _table_file(fallback)
    if not path.exists():
        raise OptionError(f"no trained row tables for {str(v)!r} nor for {fallback!r} in "
                          f"{TABLES_DIR}: run cpstats.strategies.training.train_tables")
    tables = _load_file(str(path))
    warnings.warn(f"ev: no row tables trained for variant {str(v)!r}; using the tables trained "
                  f"for {tables.variant!r}", TablesWarning, stacklevel=3)
    return tables


def tables_record(variant: Variant | str) -> dict:
    """What identifies the row tables ``ev`` plays ``variant`` with: the variant they were
    trained for, their training seed, deals and rounds, and the first 16 hex digits of the
    SHA-256 of their arrays, card-removal correction included (simulation metadata records it,
    so a result names its setter)."""
    import hashlib

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TablesWarning)
        t = load_tables(variant)
    digest = hashlib.sha256()
    arrays = [t.front, t.middle, t.back]
    if t.removal is not None:
        arrays += list(t.removal.slopes())
    for arr in arrays:
        digest.update(np.ascontiguousarray(arr, dtype=np.float64).tobytes())
    return {"trained_for": t.variant, "seed": t.meta.get("seed"), "deals": t.meta.get("deals"),
            "rounds": t.meta.get("rounds"), "sha256": digest.hexdigest()[:16]}


def _opponents(variant: Variant) -> float:
    return 2.0 if variant.hands_per_player == 2 else float(max(variant.players - 1, 1))


def _mass_below(x: np.ndarray) -> np.ndarray:
    """At each rank, the sum of ``x`` over the lower ranks."""
    return np.concatenate([[0.0], np.cumsum(x)[:-1]])


def _mass_above(x: np.ndarray) -> np.ndarray:
    """At each rank, the sum of ``x`` over the higher ranks."""
    return np.concatenate([np.cumsum(x[::-1])[::-1][1:], [0.0]])


def _row_arrays(dist: np.ndarray, bonus: np.ndarray, always: bool,
                classes: np.ndarray) -> tuple[np.ndarray, ...]:
    """(exact, envelope) float32[R, 8] for one row, then (exact, envelope) float32[R] units
    collected win or lose (RM-ALWAYS), then float64[MAX_CLASSES, 2]: each rank class's field
    probability and expected units paid when it beats the player.

    Table columns: win probability, loss probability, units collected when the row wins,
    expected units paid when it loses; then, for card removal (``_ev_kernel._row``),
    the field probability of the lower and of the higher ranks of the same class and the
    expected units paid by those higher ranks, then padding. The envelope holds, at rank r,
    the best of the units collected over ranks <= r; win, loss and payment columns are
    monotone in the rank as they stand, and stay so under the card-removal correction (it
    keeps every probability non-negative), which makes the bound exact.
    """
    p = np.asarray(dist, dtype=np.float64)
    p = p / p.sum()
    below = _mass_below(p)
    win = np.minimum(below, 1.0)
    lose = np.clip(1.0 - below - p, 0.0, 1.0)
    if always:
        value = np.ones_like(p)
        collect = np.ones_like(p)
        constant = bonus.copy()
    else:
        value = 1.0 + bonus
        collect = value
        constant = np.zeros_like(p)
    lv = _mass_above(p * value)
    first = np.searchsorted(classes, classes, side="left")
    last = np.searchsorted(classes, classes, side="right") - 1
    cum, cum_v = np.cumsum(p), np.cumsum(p * value)
    class_below = below - below[first]
    class_above = cum[last] - cum
    class_above_v = cum_v[last] - cum_v
    exact = np.stack([win, lose, collect, lv, class_below, class_above, class_above_v,
                      np.zeros_like(p)], axis=1).astype(np.float32)
    # float32 keeps the tables in cache; rounding is monotone, so the envelope stays a bound.
    env = exact.copy()
    env[:, 2] = np.maximum.accumulate(exact[:, 2])
    if np.array_equal(env, exact):
        env = exact  # monotone schedules: one table in cache instead of two
    c = constant.astype(np.float32)
    mass = np.zeros((MAX_CLASSES, 2))
    mass[:, 0] = np.bincount(classes, weights=p, minlength=MAX_CLASSES)
    mass[:, 1] = np.bincount(classes, weights=p * value, minlength=MAX_CLASSES)
    return (np.ascontiguousarray(exact), np.ascontiguousarray(env), c,
            np.maximum.accumulate(c), mass)


def _removal_array(slopes: tuple[np.ndarray | None, ...],
                   masses: tuple[np.ndarray, ...]) -> np.ndarray:
    """float64[3, 16, MAX_CLASSES] for ``_ev_kernel.row_state``: per row, the slope of
    each class's ``ratio`` per feature (the probability's slope over the class's probability),
    then each class's probability and expected payment; zero slopes (no correction) without
    ``slopes``."""
    out = np.zeros((3, 16, MAX_CLASSES))
    for row, (slope, mass) in enumerate(zip(slopes, masses)):
        out[row, 14:16] = mass.T
        if slope is None:
            continue
        p = mass[:len(slope), 0]
        gamma = np.divide(slope, p[:, None], out=np.zeros_like(slope), where=p[:, None] > 0)
        out[row, :14, :len(slope)] = gamma.T
    return out


def _rounding_margin(params: np.ndarray, royalty: float) -> float:
    """How much float32 rounding can lift a split's value above its envelope bound.

    A corrected column is ``a[r] + b + ratio * c[r]`` with ``a`` and ``c`` stored in float32
    (relative error 2**-24), ``|ratio| <= 7`` and ``a``, ``c`` at most ``1 + royalty``; it is
    monotone in exact arithmetic, so rounding can break that by at most twice the error. That,
    for each of the nine inputs, times a generous bound on the value's slope in it.
    """
    top = 1.0 + royalty
    ratio = max(1.0 - (1.0 + _sk.RATIO_LO) / _sk.TOTAL_HI,
                (1.0 + _sk.RATIO_HI) / _sk.TOTAL_LO - 1.0)
    dip = 2.0 * 2.0 ** -24 * top * (1.0 + ratio)
    maj, sb, sm, k, hrb, hrm = (abs(float(x)) for x in params[:6])
    won = 3 * top + maj + sb
    slope = 1.0 + top + maj + sb + abs(sm - 1) * 2 * won + k * (hrb + abs(hrm - sm) * won)
    return dip * 9 * k * slope + 1e-12


_MODEL_CACHE: dict[tuple[Variant, int], tuple[RowTables, tuple[np.ndarray, ...]]] = {}


def _model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    """Kernel arrays of the row model, cached per (variant, tables object)."""
    key = (variant, id(tables))
    hit = _MODEL_CACHE.get(key)
    if hit is not None and hit[0] is tables:  # ``is``: an id can be reused after collection
        return hit[1]
    arrays = _build_model(variant, tables)
    if len(_MODEL_CACHE) >= 32:
        _MODEL_CACHE.pop(next(iter(_MODEL_CACHE)))
    _MODEL_CACHE[key] = (tables, arrays)
    return arrays


def _build_model(variant: Variant, tables: RowTables) -> tuple[np.ndarray, ...]:
    kt = variant.kernel_tables()
    order = variant.ranking.value
    by_cat = kt["royalty_by_category"]
    always = variant.royalties.mode.value == "RM-ALWAYS"
    cat3 = np.array([int(k[0]) for k in _tables.three_card_keys()], dtype=np.int64)
    cat5 = _tables.five_card_tables(order).category.astype(np.int64)
    slopes = (None, None, None) if tables.removal is None else tables.removal.slopes()
    classes3, classes5 = rank_classes(order)
    tf, ef, cf, ecf, mf = _row_arrays(tables.front, by_cat[0][cat3], always, classes3)
    tm, em, cm, ecm, mm = _row_arrays(tables.middle, by_cat[1][cat5], always, classes5)
    tb, eb, cb, ecb, mb = _row_arrays(tables.back, by_cat[2][cat5], always, classes5)
    cst = np.zeros((3, 7462), dtype=np.float32)
    ecst = np.zeros((3, 7462), dtype=np.float32)
    for row, (c, e) in enumerate(((cf, ecf), (cm, ecm), (cb, ecb))):
        cst[row, :len(c)] = c
        ecst[row, :len(e)] = e
    removal = _removal_array(slopes, (mf, mm, mb))
    classes = np.zeros((3, 7462), dtype=np.uint8)
    classes[0, :455] = classes3
    classes[1:] = classes5
    # cap3[r]: the strongest front a middle of five-card rank r allows (H3, common scale).
    common5 = _tables.five_card_tables(order).common.astype(np.int64)
    common3 = _tables.three_card_common(order).astype(np.int64)
    best_under = np.maximum.accumulate(np.arange(455)[np.argsort(common3, kind="stable")])
    sorted3 = np.sort(common3)
    cap3 = best_under[np.searchsorted(sorted3, common5, side="right") - 1].astype(np.uint16)
    s = kt["scoring"]
    params = np.array([s[1], s[2], s[3], _opponents(variant), s[4], s[5], float(always), 0.0],
                      dtype=np.float64)
    royalty = max(float(np.max(by_cat)), 0.0)
    params[7] = _rounding_margin(params, royalty)
    return tf, tm, tb, cst, ef, em, eb, ecst, cap3, params, removal, classes


def _refuse_low_middle(variant: Variant) -> None:
    if _low_middle(variant):
        raise OptionError("strategy 'ev' does not support ranking=H5 (a low middle): its row "
                          "model and pruning assume back >= middle >= front; use 'greedy' or "
                          "'random', or pass your own strategy callable")


def ev_search(hands: np.ndarray, variant: Variant, tables: RowTables, *,
              prune: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(settings, expected value over all opponents, splits evaluated) of the ``ev`` search."""
    _refuse_low_middle(variant)
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    key, bit, nonflush, flush, t3, c5, c3 = _rank_args(variant)
    five_pos, three_pos, rest_mid, rest_front = _subset_tables()
    model = _model(variant, tables)
    n = arr.shape[0]
    out = np.empty_like(arr)
    value = np.empty(n, dtype=np.float64)
    visited = np.empty((n, 2), dtype=np.int64)
    scratch = (np.empty(1287, dtype=np.uint16), np.empty(286, dtype=np.uint16),
               np.empty(1287, dtype=np.int32), np.empty(_sk._N_BUCKETS + 1, dtype=np.int32),
               np.empty(1287, dtype=np.int64), np.empty((3, MAX_CLASSES, 4)),
               np.empty(14 + MAX_CLASSES))
    _sk.ev_kernel(arr, key, bit, nonflush, flush, _flush_best(variant.ranking.value), t3, c5, c3,
                  rest_mid, rest_front, five_pos, three_pos, *model, prune, out, value, visited,
                  *scratch)
    return out, value, visited


def ev_decisions(hands: np.ndarray, variant: Variant, tables: RowTables) -> Decisions:
    """``ev`` with explicit tables (used by training and by :func:`ev`)."""
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    settings, value, _ = ev_search(arr, variant, tables)
    k = _opponents(variant)
    payout = natural_payout(arr, variant) * k
    declare = (payout > 0) & (payout > value)
    cost = float(variant.kernel_tables()["surrender"])
    surrender = np.zeros(arr.shape[0], dtype=bool)
    if cost >= 0:
        surrender = ~declare & (value < -cost * k)
    chosen = np.where(declare, payout, np.where(surrender, -cost * k, value))
    return Decisions(settings, declare, surrender, chosen)


def ev(hands: np.ndarray, variant: Variant, *, rng: np.random.Generator | None = None,
       tables: RowTables | None = None) -> Decisions:
    """The rule-aware setter: the legal setting with the highest expected result (see module)."""
    _refuse_low_middle(variant)
    return ev_decisions(hands, variant, load_tables(variant) if tables is None else tables)


register_strategy("ev", ev)
register_strategy("greedy", greedy)
register_strategy("random", random_setter)
