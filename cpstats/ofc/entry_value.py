"""The exact-endgame rollouts' value tables (``rollout-exact``, kernel code 5, and the default ``rollout``, code 6, which plays by the same tables): the value of a Fantasyland entry they are told, solved as a fixed point.

In words: a Fantasyland entry's expected gain over a normal hand, in the placement's objective
(royalties, rows and scoop against a typical opponent; :mod:`cpstats.ofc.placement`): the
objective of the Fantasyland hand, set by the exact solver, and of the Fantasyland hands its stays
bring, less the objective of the normal hand it replaces. With ``F(n)`` and ``p(n)`` the mean
objective and stay rate of the solver's boards of ``n`` random cards, ``s`` the cards a stay deals
and ``B`` the mean objective of the player's own normal boards::

    X(s) = (F(s) - B) / (1 - p(s)),    X(n) = F(n) - B + p(n) X(s).

``B`` depends on ``X`` through the play (a player told a larger ``X`` goes for Fantasyland more
and fouls more), so ``X`` is a fixed point: :func:`solve_entry_value` starts from ``B = 0`` (the
value :func:`cpstats.ofc.placement.fantasy_values` gives before any correction), plays ``rollout-exact``
self-play told ``X(B)`` (every seat a normal hand), measures ``B`` on its boards, and repeats:
the value the placement is told then equals the value its own play measures, within the
interval printed. The presets' solutions are shipped (:data:`SHIPPED`, written by
``cpstats train-ofc PRESET --out cpstats/data/ofc/entry_values.json``, seed and seconds recorded);
another variant's is read from cpstats' cache folder (:func:`cache_path`, written by ``cpstats
train-ofc VARIANT``) or solved on its first use (:data:`_FIRST_USE`, a few seconds on one core) and kept
in the cache folder (:func:`first_use_path`), so every process after the first reads it; so are ``F``
and ``p`` (:func:`terms_path`).
The package's value wins for a variant it ships, so shipped runs play by what shipped. A value belongs
to a variant's hand rules (:func:`hand_rules`): the rake and the table rules (button, stakes, match)
aside, since the value is of a hand's objective, which none of them enters. ``F`` and ``p``
are exact solver settings of fixed-seed random deals; the interval holds the standard errors of
``F`` and ``B`` (not of ``p``).

``X`` is the gain of the hand a Fantasyland entry gives, as the placement weighs it. Over a long
session an entry is worth a little less: the normal hand it displaces could itself have entered.
With ``e(n)`` the player's rate of entering with ``n`` cards, the long-run mean objective a hand
(normal, Fantasyland and stay hands in their stationary shares) is::

    g = (B + sum_n e(n) A(n)) / (1 + sum_n e(n) c(n)),
    A(n) = F(n) + p(n) F(s) / (1 - p(s)),    c(n) = 1 + p(n) / (1 - p(s)),

and the long-run value of an entry (:func:`long_run_values`: the relative value of being dealt
Fantasyland instead of a normal hand, as in an average-reward Markov decision process) is ``X``
with ``g`` in place of ``B``. :func:`solve_entry_value` reports both; the shipped play is told
``X`` (its fixed point), and the long-run value is the answer to a designer's "what is an entry
worth?" (heads-up Pineapple: docs/measurements.md#bench_ofc_play).

This is not the simulated ``fl_value`` of :meth:`cpstats.ofc.SimulationResult.figures` (one hand's whole
net at the table, no stays), nor the solver's stay value (:func:`cpstats.ofc.fantasyland.
estimate_stay_value`: the royalty stream alone, no rows, no normal hand subtracted).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
import warnings
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from cpstats._version import __version__
from cpstats._atomic import atomic_path, writable_file
from cpstats._resources import cache_root
from cpstats.errors import OptionError, check_whole
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc.board import board_values
from cpstats.ofc.fantasyland import solve_fantasyland
from cpstats.ofc.placement import (DEFAULT_HINDSIGHT, DEFAULT_SAMPLES, DEFAULT_TOP, OPPONENT_FOUL, PlaceArgs,
                                   _value_tables, place_args, row_win_tables, stacked, strategy_code)
from cpstats.rules.house import Rake
from cpstats.ofc.rules import Variant, resolve_ofc_variant
from cpstats.ofc.table_rules import Button, Match, TableStakes

__all__ = ["EntryValue", "solve_entry_value", "entry_values", "long_run_values", "long_run_mean",
           "default_entry_values", "SHIPPED", "play_args", "cache_path", "values_path", "EntryValueWarning",
           "play_identity", "rollout_args", "MAX_HANDS", "MAX_ROUNDS", "terms_path"]

#: The solved baselines of the presets (written by ``cpstats train-ofc``).
SHIPPED = Path(__file__).resolve().parents[1] / "data" / "ofc" / "entry_values.json"
_FIRST_USE = {"hands": 100, "rounds": 2, "rng": 2026}  # a variant not shipped: solved on first use
#: Self-play hands a round at most: about 2.5 hours a round on one core (the shipped Pineapple solve
#: played 900 hands in 83 s); the interval narrows as 1/sqrt(hands), so more buys little.
MAX_HANDS = 100_000
#: Fixed-point rounds at most: the shipped solves settle within 3; later rounds only repeat the last.
MAX_ROUNDS = 20


class EntryValue(NamedTuple):
    """A solved entry value: ``value`` (of an entry with ``cards`` cards) and its 95% interval;
    the normal boards' mean objective ``baseline`` (SE ``baseline_se``) measured in the last
    round, the solver's ``fl_objective`` and ``stay_rate`` for those cards, the ``baseline`` of
    every round (``rounds``) and the self-play ``hands`` a round; the last round's rate of
    entering Fantasyland a normal board, ``entry_rate``, and the long-run value of an entry
    (``long_run_value``, 95% ``long_run_low..long_run_high``; module docstring)."""

    cards: int
    value: float
    ci_low: float
    ci_high: float
    baseline: float
    baseline_se: float
    fl_objective: float
    stay_rate: float
    rounds: tuple[float, ...]
    hands: int
    entry_rate: float
    long_run_value: float
    long_run_low: float
    long_run_high: float


def _objective(values, vt: np.ndarray, prm: np.ndarray) -> np.ndarray:
    """The placement objective (no entry term) of complete boards, given their
    :func:`~cpstats.ofc.board.board_values` (N boards)."""
    out = np.full(len(values.fouled), prm[_pk.FOUL])
    for i in np.flatnonzero(~values.fouled):
        f, m, b = (int(r) for r in values.ranks[i])
        out[i] = _pk._rows_value(f, m, b, vt, prm)
    return out


def fantasy_terms(variant: Variant, deals: int = 64, rng: int = 1717) -> dict[int, tuple[float, float, float]]:
    """``{n: (F, SE of F, p)}`` for each Fantasyland size the variant deals: the mean objective
    and stay rate of the exact solver's boards of ``deals`` random hands of ``n`` cards."""
    vt, prm = _value_tables(variant, row_win_tables(variant), np.zeros(18), OPPONENT_FOUL)
    tables = variant.kernel_tables()
    sizes = set(tables.fl_entry_cards.tolist()) | {int(tables.fl_stay_cards[0])}
    gen = np.random.default_rng(rng)
    out = {}
    for n in sorted(sizes - {0}):
        solved = [solve_fantasyland(gen.permutation(52)[:n].astype(np.int8), variant) for _ in range(deals)]
        boards = np.array([s.board for s in solved], dtype=np.int8)
        obj = _objective(board_values(variant, boards), vt, prm)
        out[n] = (float(obj.mean()), float(obj.std(ddof=1) / np.sqrt(deals)),
                  float(np.mean([s.stays for s in solved])))
    return out


def entry_values(variant: Variant, terms: dict, baseline: float) -> np.ndarray:
    """float64[18]: ``X(n)`` of the module docstring for a normal hand's mean objective ``baseline``."""
    s = int(variant.kernel_tables().fl_stay_cards[0])
    f_s, _, p_s = terms[s]
    stay = (f_s - baseline) / (1.0 - p_s)
    out = np.zeros(18)
    for n, (f, _, p) in terms.items():
        out[n] = f - baseline + p * stay
    return out


def long_run_mean(variant: Variant, terms: dict, baseline: float, entry_rates: dict[int, float]) -> float:
    """``g`` of the module docstring: the long-run mean objective a hand of a player whose normal
    boards average ``baseline`` and enter Fantasyland with ``n`` cards at rate ``entry_rates[n]``."""
    s = int(variant.kernel_tables().fl_stay_cards[0])
    f_s, _, p_s = terms[s]
    total, hands = float(baseline), 1.0
    for n, rate in entry_rates.items():
        f, _, p = terms[n]
        total += rate * (f + p * f_s / (1.0 - p_s))
        hands += rate * (1.0 + p / (1.0 - p_s))
    return total / hands


def long_run_values(variant: Variant, terms: dict, baseline: float, entry_rates: dict[int, float]) -> np.ndarray:
    """float64[18]: the long-run value of an entry by Fantasyland cards (module docstring): the
    entry values with the long-run mean a hand in place of the normal boards' ``baseline``."""
    return entry_values(variant, terms, long_run_mean(variant, terms, baseline, entry_rates))


def _long_run_interval(variant: Variant, terms: dict, baseline: float, baseline_se: float,
                       rates: dict[int, tuple[float, float]], n: int) -> tuple[float, float]:
    """The long-run value of an ``n``-card entry and its 95% half-width: the errors of ``F`` (each
    size), ``B`` and the entry rates (``rates[n] = (rate, SE)``) taken as independent, each
    propagated by a one-SE difference (``p``'s error left out, as in ``value``'s interval)."""
    point = {k: r for k, (r, _) in rates.items()}

    def value(t=terms, b=baseline, e=point):
        return long_run_values(variant, t, b, e)[n]

    centre = value()
    shifts = [value(b=baseline + baseline_se) - centre]
    for k, (f, f_se, p) in terms.items():
        shifts.append(value(t={**terms, k: (f + f_se, f_se, p)}) - centre)
    for k, (r, r_se) in rates.items():
        shifts.append(value(e={**point, k: r + r_se}) - centre)
    return float(centre), float(1.96 * np.sqrt(np.sum(np.square(shifts))))


def _baseline(variant: Variant, entry: np.ndarray, hands: int, seed: int,
              model=None) -> tuple[float, float, dict[int, tuple[float, float]]]:
    """Mean objective (and SE) of the boards of ``hands`` hands of self-play told the entry values
    ``entry``, every seat a normal hand (a normal board's objective does not depend on whether
    another seat is in Fantasyland, only which cards it sees): ``rollout-exact``, or the default
    ``rollout`` by the street ``model`` given; and the rate (and SE) of entering with each number
    of Fantasyland cards a board."""
    args = stacked(rollout_args(variant, entry))  # both rollouts play by the first tables
    vt, prm = _value_tables(variant, row_win_tables(variant), np.zeros(18), OPPONENT_FOUL)
    gen = np.random.default_rng(seed)
    codes = np.full(variant.players, _pk.ROLLOUT_EXACT if model is None else _pk.ROLLOUT_LEARNED, np.int64)
    deal = np.array(variant.cards_dealt, dtype=np.int64)
    keep = np.array(variant.cards_kept, dtype=np.int64)
    samples = np.full(variant.players, DEFAULT_SAMPLES, np.int64)
    boards = np.empty((hands, variant.players, 13), dtype=np.int8)
    discards = np.empty((variant.players, deal.size), dtype=np.int8)
    for h in range(hands):
        deck = gen.permutation(52).astype(np.int8)
        hand_seed = np.uint64(gen.integers(0, 2**63))
        _vk.play_streets(deck, codes, deal, keep, samples, DEFAULT_TOP, DEFAULT_HINDSIGHT, hand_seed, args,
                         boards[h], discards, model=model)
    values = board_values(variant, boards.reshape(-1, 13))
    obj = _objective(values, vt, prm)
    cards = values.fl_cards
    rates = {}
    for n in np.unique(cards[cards > 0]).tolist():
        rate = float(np.mean(cards == n))
        rates[int(n)] = (rate, float(np.sqrt(rate * (1 - rate) / cards.size)))
    return float(obj.mean()), float(obj.std(ddof=1) / np.sqrt(obj.size)), rates


def solve_entry_value(variant: Variant | str = "ofc-pineapple", *, hands: int = 300, rounds: int = 3,
                      rng: int = 2026, model=None, start: float = 0.0) -> EntryValue:
    """Solve the entry value of the module docstring: ``rounds`` rounds of ``hands`` hands of
    self-play each (round ``i`` on seed ``rng + i``), starting from ``B = start``.

    Whose self-play measures ``B``: ``rollout-exact``'s (``model`` None), whose fixed point the
    shipped values are (both rollouts are told it, and the street models learned their values
    under it), or the default ``rollout``'s by the street ``model`` given
    (:func:`cpstats.ofc.street_values.street_model`): its own fixed point, the models held fixed.

    Examples
    --------
    The self-play is of the variant's hand rules (:func:`hand_rules`) with seat 0 first on every
    hand (``button=fixed``), as every shipped value was solved: ``B`` is a mean over the seats, so
    the order of acting moves it only by chance, and a value solved again is the shipped one.

    >>> ev = solve_entry_value("ofc-pineapple", hands=4, rounds=1)  # doctest: +SKIP
    """
    v = dataclasses.replace(hand_rules(resolve_ofc_variant(variant)), button=Button(moves="fixed"))
    hands, rounds = _check_counts(hands, rounds)
    if not _has_fantasyland(v):
        raise OptionError(f"{v} has no Fantasyland (fantasyland.cards are all 0): there is no entry value to solve")
    terms = _terms(v)
    history = []
    baseline, se = float(start), 0.0
    rates = {}
    for i in range(rounds):
        baseline, se, rates = _baseline(v, entry_values(v, terms, baseline), hands, rng + i, model)
        history.append(baseline)
    n = int(max(v.kernel_tables().fl_entry_cards))
    value = entry_values(v, terms, baseline)[n]
    s = int(v.kernel_tables().fl_stay_cards[0])
    f_se, p_s = terms[n][1], terms[s][2]
    half = 1.96 * np.hypot(f_se / (1 - p_s), se * (1 + terms[n][2] / (1 - p_s)))
    long_run, long_half = _long_run_interval(v, terms, baseline, se, rates, n)
    return EntryValue(n, float(value), float(value - half), float(value + half), baseline, se,
                      terms[n][0], terms[n][2], tuple(history), hands,
                      sum(r for r, _ in rates.values()), long_run, long_run - long_half, long_run + long_half)


def _check_counts(hands: object, rounds: object) -> tuple[int, int]:
    """``hands`` (2..:data:`MAX_HANDS`) and ``rounds`` (1..:data:`MAX_ROUNDS`), or one OptionError line."""
    hands = check_whole("hands", hands, 2)
    rounds = check_whole("rounds", rounds, 1)
    if hands > MAX_HANDS:
        raise OptionError(f"hands={hands:,} is invalid: at most {MAX_HANDS:,} a round (about 2.5 hours a round "
                          "on one core; the interval narrows only as 1/sqrt(hands))")
    if rounds > MAX_ROUNDS:
        raise OptionError(f"rounds={rounds:,} is invalid: at most {MAX_ROUNDS} (the fixed point settles within 3)")
    return hands, rounds


def cache_path() -> Path:
    """Where the entry values solved for a designer's rules go (``cpstats train-ofc VARIANT``):
    ``ofc/entry_values.json`` in cpstats' cache folder, never the installed package. The play reads
    it for a variant the package does not ship (:data:`SHIPPED` wins for one it does)."""
    return cache_root() / "ofc" / "entry_values.json"


def _read_values(path: Path) -> dict:
    """The solved entry values in ``path`` by variant string ({} when it does not exist). A cache
    file that does not read (truncated, empty, not an object of entries each with a baseline that
    is a finite number) is set aside with one :class:`EntryValueWarning` naming it: its variants
    are solved again on first use."""
    if not path.exists():
        return {}
    try:
        values = json.loads(path.read_text())
        if not isinstance(values, dict) or not all(isinstance(e, dict) and _is_finite(e.get("baseline"))
                                                   for e in values.values()):
            raise ValueError("not an object of entries, each with a baseline that is a finite number")
        return values
    except (OSError, ValueError) as err:
        _set_aside(path, str(err))
        return {}


def _set_aside(path: Path, why: str) -> None:
    """Warn that the cache file ``path`` does not read (``why``); the package's own file raises."""
    if path == SHIPPED:
        raise ValueError(f"the package's entry values {str(path)!r} do not read ({why}): reinstall cpstats")
    warnings.warn(f"the cached entry values {str(path)!r} do not read ({why}): their variants are solved "
                  "again on first use (cpstats train-ofc VARIANT writes them again)", EntryValueWarning,
                  stacklevel=6)


def _is_finite(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and bool(np.isfinite(x))


@lru_cache(maxsize=16)
def _objective_range(variant: Variant) -> tuple[float, float]:
    """The least and greatest objective a board of ``variant`` can have (a foul; every row's least
    or greatest value and the scoop term), between which a baseline, a mean of them, must lie."""
    vt, prm = _value_tables(variant, row_win_tables(variant), np.zeros(18), OPPONENT_FOUL)
    scoop = abs(float(prm[_pk.SCOOP]))
    low = min(float(prm[_pk.FOUL]), float(sum(vt[r].min() for r in range(3))) - scoop)
    return low, float(sum(vt[r].max() for r in range(3))) + scoop


def hand_rules(variant: Variant) -> Variant:
    """``variant`` with the default rake and table rules (button, stakes, match): the rules an entry
    value belongs to. The placement's objective is a hand's points, which neither the house's
    charge nor the order of acting, the stacks or the match enter, so one value serves them all (and
    ``button=fixed`` plays by the value its runs played by before the button moved by default)."""
    return dataclasses.replace(variant, rake=Rake(), button=Button(), stakes=TableStakes(), match=Match())


def _stored_baseline(variant: Variant, path: Path) -> float | None:
    """The baseline ``path`` holds for the variant's hand rules (:func:`hand_rules`, its name aside),
    None if none; a baseline outside what its boards' objective can be is set aside
    (:func:`_set_aside`)."""
    target = hand_rules(variant)
    for text, entry in _read_values(path).items():
        try:
            solved = hand_rules(resolve_ofc_variant(text))
        except OptionError:  # a stored variant string the rules no longer read
            continue
        if solved == dataclasses.replace(target, name=solved.name):
            low, high = (-np.inf, np.inf) if path == SHIPPED else _objective_range(target)  # the package's: its tests
            if not low <= entry["baseline"] <= high:
                _set_aside(path, f"{text!r} has the baseline {entry['baseline']:.6g}, outside {low:.6g}.."
                                 f"{high:.6g}, the objective its boards can have")
                return None
            return float(entry["baseline"])
    return None


class EntryValueWarning(UserWarning):
    """A cache file of solved entry values could not be read; its variants are solved again."""


def _shipped_baseline(variant: Variant) -> float | None:
    """The solved baseline of the variant's play, its rake and name aside (a rake never moves the
    play): the package's (:data:`SHIPPED`: it wins, so shipped runs play by what shipped), else
    the cache's (:func:`cache_path`); None if neither holds it."""
    for path in (SHIPPED, cache_path()):
        baseline = _stored_baseline(variant, path)
        if baseline is not None:
            return baseline
    return None


def _has_fantasyland(variant: Variant) -> bool:
    return bool(variant.kernel_tables().fl_entry_cards.max() > 0)


@lru_cache(maxsize=16)
def _terms(variant: Variant) -> dict:
    """:func:`fantasy_terms` at its defaults, once a process, kept in the cache folder
    (:func:`terms_path`) so that later processes (xdist workers, notebook kernels, CLI runs) read
    them instead of solving ``deals`` Fantasyland hands a size again: read back exactly (JSON keeps
    a float's every bit); a file that does not read, or holds other terms, is computed again and
    replaced; a cache folder that cannot be written only costs the next process the computation."""
    path = terms_path(variant)
    try:
        entry = json.loads(path.read_text())
        if isinstance(entry, dict) and entry.get("variant") == str(variant) and entry.get("code") == _terms_code():
            terms = {int(n): tuple(float(x) for x in t) for n, t in entry["terms"].items()}
            if all(len(t) == 3 and all(np.isfinite(t)) for t in terms.values()):
                return terms
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass
    terms = fantasy_terms(variant)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as part:
            part.write_text(json.dumps({"variant": str(variant), "code": _terms_code(),
                                        "terms": {str(n): list(t) for n, t in terms.items()}}))
    except OSError:
        pass
    return terms


def terms_path(variant: Variant) -> Path:
    """Where :func:`fantasy_terms` of a rule set are kept: ``ofc/terms/KEY.json`` in the cache
    folder, KEY a digest of the variant string and of the code that computes them
    (:func:`_terms_code`), so terms computed by other code are never read."""
    key = hashlib.sha256(f"{variant}\n{_terms_code()}".encode()).hexdigest()[:20]
    return cache_root() / "ofc" / "terms" / f"{key}.json"


@lru_cache(maxsize=1)
def _terms_code() -> str:
    """A digest of what :func:`fantasy_terms` depends on besides the rules: the source of the
    open-face modules (the solver, board values, value tables), of the cards, hands and rules
    packages they read, cpstats' and numpy's versions (the deals are numpy's random streams)."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"{__version__} numpy {np.__version__}".encode())
    for source in sorted([*package.glob("ofc/*.py"), *package.glob("cards/*.py"), *package.glob("hands/*.py"),
                          *package.glob("rules/*.py")]):
        digest.update(source.relative_to(package).as_posix().encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def default_entry_values(variant: Variant) -> np.ndarray:
    """float64[18] (read-only): the entry values ``rollout-exact`` is told: :func:`entry_values`
    at the variant's shipped baseline (:data:`SHIPPED`; its rake and name aside), else at one
    solved now (:data:`_FIRST_USE`), once a process for each variant (its play's tables and its
    rule features both read it); zeros for a variant without Fantasyland. One value serves every
    variant of the same hand rules (:func:`hand_rules`)."""
    return _default_entry_values(hand_rules(variant))


@lru_cache(maxsize=64)
def _default_entry_values(variant: Variant) -> np.ndarray:
    if not _has_fantasyland(variant):
        values = np.zeros(18)
    else:
        shipped = _shipped_baseline(variant)
        baseline = shipped if shipped is not None else _first_use_baseline(variant)
        values = entry_values(variant, _terms(variant), baseline)
    values.setflags(write=False)
    return values


def first_use_path(variant: Variant) -> Path:
    """Where a baseline solved on first use is kept: one file a rule set in the cache folder
    (``ofc/first_use/KEY.json``, KEY a digest of the variant string), apart from the designer's
    trained values (:func:`cache_path`)."""
    key = hashlib.sha256(str(variant).encode()).hexdigest()[:20]
    return cache_root() / "ofc" / "first_use" / f"{key}.json"


def _first_use_baseline(variant: Variant) -> float:
    """The baseline solved on first use (:data:`_FIRST_USE`, a fixed seed): read back where an
    earlier process solved it, else solved now and written there whole (:func:`atomic_path`), so
    xdist workers, notebook kernels and later sessions share one solve and get the same number a
    solve gives. A file that does not read, or holds another variant or other settings, is solved
    again and replaced; a cache folder that cannot be written only costs the next process a solve."""
    path = first_use_path(variant)
    try:
        entry = json.loads(path.read_text())
        if (isinstance(entry, dict) and entry.get("variant") == str(variant) and entry.get("settings") == _FIRST_USE
                and _is_finite(entry.get("baseline"))):
            return float(entry["baseline"])
    except (OSError, ValueError):
        pass
    baseline = float(solve_entry_value(variant, **_FIRST_USE).baseline)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as part:
            part.write_text(json.dumps({"variant": str(variant), "settings": _FIRST_USE, "baseline": baseline}))
    except OSError:
        pass
    return baseline


def values_path(variant: Variant) -> Path:
    """The file the play reads ``variant``'s entry value from: the package's (:data:`SHIPPED`) when
    it ships that variant (it wins), else the cache's (:func:`cache_path`), where ``cpstats
    train-ofc VARIANT`` writes a designer's: nothing is written into the package unless named."""
    return SHIPPED if _stored_baseline(variant, SHIPPED) is not None else cache_path()


def write_shipped(presets: tuple[str, ...] = ("ofc-pineapple",), *, hands: int = 300, rounds: int = 3,
                  rng: int = 2026, path: Path | str | None = None) -> dict:
    """Solve the variants' entry values and write each to ``path`` (seed, hands, rounds and the
    seconds each took recorded with them), every file checked writable before any solving; a
    file's other variants are kept. Without ``path`` a designer's variant goes to the cache
    (:func:`cache_path`, which the play reads) and a variant the package ships is refused: the
    play reads the package's value, and the package's file is written only when named (the
    maintainers: ``path="cpstats/data/ofc/entry_values.json"``)."""
    variants = [resolve_ofc_variant(name) for name in presets]
    hands, rounds = _check_counts(hands, rounds)
    for v in variants:  # before the first variant's solve, not after
        if not _has_fantasyland(v):
            raise OptionError(f"{v} has no Fantasyland (fantasyland.cards are all 0): there is no entry value to solve")
    if path is None:
        shipped = [str(v) for v in variants if values_path(v) == SHIPPED]
        if shipped:
            raise OptionError(f"the package ships the entry value of {', '.join(shipped)} and the play reads the "
                              "package's: to solve it again, name the file to write (--out FILE; the package's "
                              "own: --out cpstats/data/ofc/entry_values.json)")
    target = cache_path() if path is None else Path(path)
    writable_file("--out" if path is not None else "the entry-value file", target)
    out: dict[str, dict] = {}
    for v in variants:
        t = time.time()
        ev = solve_entry_value(v, hands=hands, rounds=rounds, rng=rng)
        key = str(hand_rules(v))
        entry = {**{k: (list(x) if isinstance(x, tuple) else x) for k, x in ev._asdict().items()},
                 "rounds_played": rounds, "seed": rng, "seconds": round(time.time() - t, 1)}
        out[key] = {**entry, "path": str(target)}
        kept = _read_values(target) if target.exists() else {}
        with atomic_path(target) as tmp:
            tmp.write_text(json.dumps({**kept, key: entry}, indent=1) + "\n")
    return out


def play_identity(variant: Variant, names: tuple[str, ...]) -> str | None:
    """What the strategies ``names`` play by, for a run's identity: each name's kernel code, and the
    Fantasyland entry value the exact-endgame rollouts and ``fast`` are told (its normal-board
    baseline); None when no seat plays a rollout or ``fast``. A resumed run whose strategy changed under its name is another run."""
    codes = {n: strategy_code(n) for n in dict.fromkeys(names) if n.startswith("rollout") or n == "fast"}
    if not codes:
        return None
    parts = [f"{n}: kernel {c}" for n, c in codes.items()]
    if {_pk.ROLLOUT_EXACT, _pk.ROLLOUT_LEARNED, _pk.FAST} & set(codes.values()) and _has_fantasyland(variant):
        baseline = _shipped_baseline(variant)
        parts.append(f"entry baseline {'solved on first use' if baseline is None else format(baseline, '.6g')}")
    return ", ".join(parts)


def play_args(variant: Variant, *, with_values: bool = True) -> PlaceArgs:
    """:func:`~cpstats.ofc.placement.stacked` tables of a hand: ``rollout-exact``'s
    (:func:`rollout_args`), then those of ``rollout``, ``rollout-v1``, ``greedy`` and the former
    policy (:func:`~cpstats.ofc.placement.place_args`)."""
    if not with_values:
        return stacked(place_args(variant, with_values=False))
    return _play_args(variant)


@lru_cache(maxsize=16)
def _play_args(variant: Variant) -> PlaceArgs:
    return stacked(rollout_args(variant), place_args(variant))


def rollout_args(variant: Variant, entry: np.ndarray | None = None) -> PlaceArgs:
    """``rollout-exact``'s tables: :func:`~cpstats.ofc.placement.place_args` with ``entry``
    (float64[18], by Fantasyland cards) as the value of a Fantasyland entry; default
    :func:`default_entry_values`."""
    if entry is None:
        return _rollout_args(variant)
    vt, prm = _value_tables(variant, row_win_tables(variant), np.asarray(entry, dtype=float), OPPONENT_FOUL)
    return place_args(variant)._replace(vt=vt, prm=prm)


@lru_cache(maxsize=16)
def _rollout_args(variant: Variant) -> PlaceArgs:
    return rollout_args(variant, default_entry_values(variant))

