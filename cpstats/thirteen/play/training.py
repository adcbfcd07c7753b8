"""Training the ``ev`` setter's row tables, and duplicate matches.

The ``ev`` setter (:mod:`cpstats.thirteen.play`) answers a *field*: the distributions of the rank
of each row (front on the 455 three-card ranks, middle and back on the 7,462 five-card ranks)
in the settings the other players make. The tables it should use are a fixed point: the field's
distributions equal the distributions of ``ev``'s own best response to them.
:func:`train_tables` looks for that fixed point by iterated best response:

1. Start: fresh random hands set by ``greedy``; their row histograms are the first field.
2. Damped best response (``method="damped"``, the default): each round deals fresh hands, sets
   them with ``ev`` against the current field (the best response) and moves the field towards
   the response, ``field <- (1 - damping) * field + damping * response`` with
   ``damping = 0.5``. (The undamped iteration, ``field <- response``, oscillates; fictitious
   play, whose blend ``1 / (round + 1)`` keeps the greedy start in the average, converges only
   like ``1 / round``: for 2-4 its gap was still 0.077 after 12 rounds, where damping reaches
   about 0.01 in 10.) The phase ends when the gap (below) has not set a new minimum for
   ``patience`` rounds, or after ``rounds`` rounds.
3. Refinement: ``refine`` more rounds on ``2 * deals`` hands each with the smaller blend
   ``refine_damping = 0.2``: the field becomes an average over many more hands (less sampling
   noise) and a residual oscillation of the damped phase is averaged out.
4. Check: one more best response to the final tables on ``check_deals`` fresh hands, which is
   not blended in; its gap is the convergence figure of the tables returned.
5. Card removal: :func:`fit_card_removal` relates the cards a player holds to the rank
   classes its opponents set in each row, on ``removal_deals`` fresh four-handed deals set with
   the final tables (three fits, each on hands set with the previous one). On heads-up 2-4 it
   lowers the best response's gain over ``ev`` (:func:`exploitability`, 2,000 hands x 1,000
   opponents) from 0.0110 to 0.0066 (seed 99) and from 0.0117 to 0.0078 (seed 2026); a single
   direction of feature space per row, the earlier model, reached 0.0094 and 0.0099.

Every round records, in ``meta``: ``response_gap``, the largest absolute difference between
the cumulative distribution of any row in the round's best response and in the field it
answered (0 at a fixed point, up to sampling noise); ``noise``, the sampling noise of that
figure (half the same distance between the even and the odd hands of the response, an
estimate of the distance between the response and its own expectation); ``convergence``, the
largest change of any row's cumulative distribution in the blend (the win tables ``ev``
uses); the blend weight, the phase and the hands dealt. ``final_gap`` and ``final_noise`` are
the check's. Round ``r`` deals its hands from child ``r`` of ``SeedSequence(seed)`` (the
check from the second last child, the card-removal fit from the last), so a fixed seed
reproduces the tables exactly.
``method="fictitious"`` is the earlier procedure (fictitious play, ``rounds`` rounds, no
early stop and no refinement), kept for comparison.

With the defaults (200,000 hands a round, :func:`train_preset`) a preset trains in a few minutes
on one core and its check's gap stays near the sampling noise: more rounds do not shrink what is
left, since the best response is steep around a middle pair of aces and amplifies the field's
own noise (rounds, gaps and times of each preset: docs/measurements.md#training_presets).

Any other variant is trained at its first use, on fewer hands (``row_tables.QUICK_TRAINING``),
on threads (``executor``), and cached, so a variant without shipped tables costs its training
once (:func:`~cpstats.thirteen.play.load_tables`).

:func:`match` plays two strategies on the same deals, seats swapped (duplicate); :func:`exploitability`
measures how much a best response gains over a strategy's own choice under heads-up ``2-4``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from cpstats.cards.blocks import root_seed
from cpstats.cards.codes import deal
from cpstats.errors import OptionError, check_whole
from cpstats.hands.ranking import rank3, rank5
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.play import _ev_kernel as _sk
from cpstats.thirteen.play.api import Decisions, _as_decisions, _variant, get_strategy, takes_tables
from cpstats.thirteen.play.baselines import greedy
from cpstats.thirteen.play.ev_setter import _search_model, ev_decisions
from cpstats.thirteen.play.row_tables import (FRONT_CLASSES, MAX_CLASSES, REMOVAL_RATIO_LIMITS,
                                           SUIT_SQUARES_MEAN, TABLES_DIR, CardRemoval, RowTables,
                                           load_tables, rank_classes, set_trainer)

__all__ = ["train_tables", "train_preset", "fit_card_removal", "removal_features", "save_tables",
           "match", "MatchResult", "exploitability", "Exploitability"]

METHODS = ("damped", "fictitious")


def _row_ranks(settings: np.ndarray, order: str) -> tuple[np.ndarray, ...]:
    """int64 ranks of the front, middle and back of each setting (N, 13); under H5 the middle
    on the low scale and the back, a high hand, on H1's (as the settlement ranks them)."""
    back = "H1" if order == "H5" else order
    return (np.asarray(rank3(settings[:, :3], check=False), dtype=np.int64),
            np.asarray(rank5(settings[:, 3:8], ordering=order, check=False), dtype=np.int64),
            np.asarray(rank5(settings[:, 8:], ordering=back, check=False), dtype=np.int64))


def _histograms(settings: np.ndarray, variant: Variant) -> tuple[np.ndarray, ...]:
    f, m, b = _row_ranks(settings, variant.ranking.value)
    return (np.bincount(f, minlength=455).astype(np.float64),
            np.bincount(m, minlength=7462).astype(np.float64),
            np.bincount(b, minlength=7462).astype(np.float64))


def _cdf_change(old: tuple[np.ndarray, ...], new: tuple[np.ndarray, ...]) -> float:
    return max(float(np.abs(np.cumsum(a / a.sum()) - np.cumsum(b / b.sum())).max())
               for a, b in zip(old, new))


def _normalized(hist: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    return tuple(a / a.sum() for a in hist)


def train_tables(variant: Variant | str, *, deals: int = 200_000, rounds: int = 30,
                 rng=None, verbose: bool = False, method: str = "damped",
                 damping: float = 0.5, patience: int = 2, refine: int = 6,
                 refine_damping: float = 0.2, refine_deals: int | None = None,
                 check_deals: int | None = None, removal_deals: int | None = None,
                 executor: Any = None, progress: Callable[[int], Any] | None = None) -> RowTables:
    """Train row tables for ``variant`` by damped best response (see the module docstring).

    Parameters
    ----------
    variant
        A variant, preset name or variant string.
    deals
        Hands set per round of the start and of the damped phase (each round deals fresh hands
        from its own seed stream, four hands to a deck).
    rounds
        Most best-response rounds of the damped phase (of fictitious play for
        ``method="fictitious"``), after the greedy start.
    rng
        Root seed (int, SeedSequence, Generator; None: fresh entropy); round ``r`` uses its child ``r``
        (round 0 is the greedy start), the final check the last child.
    verbose
        Print one line per round.
    method
        ``"damped"`` (default) or ``"fictitious"`` (the earlier procedure: blend
        ``1 / (round + 1)`` for ``rounds`` rounds, no early stop, no refinement).
    damping
        Blend weight of each best response in the damped phase.
    patience
        The damped phase stops when the gap has not set a new minimum for this many rounds.
    refine, refine_damping, refine_deals
        Rounds, blend weight and hands per round (default ``2 * deals``) of the refinement;
        ``refine=0`` skips it. Ignored by ``method="fictitious"``.
    check_deals
        Hands of the final check (default ``2 * deals``; 0 skips it).
    removal_deals
        Four-handed deals of the card-removal fit on the final tables
        (:func:`fit_card_removal`, its own seed stream; default ``max(deals // 2, 1000)``,
        as many hands as the check); 0 skips it.
    executor
        A ``concurrent.futures``-style executor the ``ev`` search runs on, in chunks of hands
        (its kernel releases the GIL, so a ``ThreadPoolExecutor`` uses every core); the tables
        do not depend on it. None: serial.
    progress
        Called with the number of steps done after each round, the check and each pass of the
        card-removal fit (``rounds + refine + 1 + 3`` steps in all; skipped rounds count when
        the damped phase stops early): a progress bar's ``update``.

    Returns
    -------
    RowTables
        Normalized distributions with ``meta``: variant, seed, method, deals, rounds (rounds
        played), per-round ``convergence``, ``response_gap``, ``noise``, ``weights``,
        ``phases`` and ``round_deals``; ``stopped`` (why the damped phase ended),
        ``final_gap``, ``final_noise``, ``check_deals`` and seconds.
    """
    v = _variant(variant)
    refine, refine_deals, check_deals, removal_deals = _training_options(
        method=method, deals=deals, rounds=rounds, refine=refine, patience=patience,
        damping=damping, refine_damping=refine_damping, refine_deals=refine_deals,
        check_deals=check_deals, removal_deals=removal_deals)
    root = root_seed(rng)
    tick = progress or (lambda n: None)
    run = _Training(v, root.spawn(rounds + refine + 3), verbose, executor, tick)
    run.field = _normalized(_histograms(greedy(run.dealt(0, deals), v).settings, v))
    stopped, damped_rounds = _damped_phase(run, method=method, rounds=rounds, deals=deals,
                                           damping=damping, patience=patience)
    tick(rounds - damped_rounds)
    for k in range(refine):
        run.blend(damped_rounds + 1 + k, refine_deals, refine_damping, "refine")
    final_gap, final_noise = run.check(check_deals)
    tick(1)
    meta: dict[str, Any] = {
        "variant": str(v), "seed": int(root.entropy), "method": method, "deals": deals,
        "rounds": len(run.record["response_gap"]), "max_rounds": rounds, "start": "greedy",
        "blend": ("1/(round+1)" if method == "fictitious" else
                  f"damped {damping} (patience {patience}), then {refine} rounds at "
                  f"{refine_damping} on {refine_deals} hands"),
        **run.record, "stopped": stopped,
        "final_gap": final_gap, "final_noise": final_noise, "check_deals": check_deals,
        "seconds": run.seconds(),
    }
    total = _normalized(run.field)
    tables = RowTables(total[0], total[1], total[2], str(v), meta)
    if removal_deals:
        tables = fit_card_removal(v, tables, deals=removal_deals, seed=run.streams[-1],
                                  executor=executor, progress=progress)
        meta["seconds"] = run.seconds()
    else:
        tick(3)
    return tables


def _training_options(*, method: str, deals: int, rounds: int, refine: int, patience: int,
                      damping: float, refine_damping: float, refine_deals: int | None,
                      check_deals: int | None, removal_deals: int | None) -> tuple[int, int, int, int]:
    """(refine, refine_deals, check_deals, removal_deals) of :func:`train_tables`, defaults
    filled in (no refinement for fictitious play), after checking every option."""
    if method not in METHODS:
        raise OptionError(f"method={method!r} is invalid: use one of {', '.join(METHODS)}")
    refine_deals = 2 * deals if refine_deals is None else refine_deals
    check_deals = 2 * deals if check_deals is None else check_deals
    removal_deals = max(deals // 2, 1000) if removal_deals is None else removal_deals
    if method == "fictitious":
        refine = 0
    bad = [f"{name}={value!r} is invalid: must be {allowed}" for name, value, ok, allowed in (
        ("deals", deals, deals >= 1000, ">= 1000"), ("rounds", rounds, rounds >= 0, ">= 0"),
        ("refine", refine, refine >= 0, ">= 0"), ("patience", patience, patience >= 1, ">= 1"),
        ("refine_deals", refine_deals, deals < 1000 or not refine or refine_deals >= 1000, ">= 1000"),
        ("check_deals", check_deals, deals < 1000 or check_deals == 0 or check_deals >= 1000, "0 or >= 1000"),
        ("removal_deals", removal_deals, removal_deals == 0 or removal_deals >= 1000, "0 or >= 1000"),
        ("damping", damping, 0 < damping <= 1, "in (0, 1]"),
        ("refine_damping", refine_damping, 0 < refine_damping <= 1, "in (0, 1]")) if not ok]
    if bad:  # (the defaults 2 x deals are not named when deals itself is wrong: they would repeat it)
        raise OptionError("; ".join(bad))
    return refine, refine_deals, check_deals, removal_deals


class _Training:
    """One run of :func:`train_tables`: the variant, the seed streams (one per round), the field
    (row histograms, each summing to one) and the record of every round, in ``meta``'s keys."""

    def __init__(self, v: Variant, streams: list[np.random.SeedSequence], verbose: bool,
                 executor: Any, tick: Callable[[int], Any]) -> None:
        self.v = v
        self.streams = streams
        self.verbose = verbose
        self.executor = executor
        self.tick = tick
        self.start = time.perf_counter()
        self.field: tuple[np.ndarray, ...] = ()
        self.record: dict[str, list] = {key: [] for key in (
            "convergence", "response_gap", "noise", "weights", "phases", "round_deals")}

    def seconds(self) -> float:
        return round(time.perf_counter() - self.start, 1)

    def dealt(self, r: int, n: int) -> np.ndarray:
        """``n`` hands of round ``r``, four to a deck."""
        rng = np.random.default_rng(self.streams[r])
        return deal(rng, (n + 3) // 4, 4).reshape(-1, 13)[:n]

    def respond(self, r: int, n: int) -> tuple[tuple, float, float]:
        """(response histograms, gap to the field, sampling noise of the gap) of round r."""
        v = self.v
        current = RowTables(*_normalized(self.field), variant=str(v), meta={})
        settings = _ev_settings(self.dealt(r, n), v, current, self.executor)
        response = _histograms(settings, v)
        noise = _cdf_change(_histograms(settings[0::2], v), _histograms(settings[1::2], v)) / 2
        return response, _cdf_change(self.field, response), noise

    def blend(self, r: int, n: int, weight: float, phase: str) -> None:
        """Round ``r`` on ``n`` hands: move the field towards its best response by ``weight``."""
        response, gap, noise = self.respond(r, n)
        new = tuple((1 - weight) * a + weight * b
                    for a, b in zip(self.field, _normalized(response)))
        change = _cdf_change(self.field, new)
        for key, x in (("convergence", change), ("response_gap", gap), ("noise", noise),
                       ("weights", weight), ("phases", phase), ("round_deals", n)):
            self.record[key].append(x)
        if self.verbose:
            print(f"round {r} ({phase}, {n:,} hands, blend {weight:.3f}): best response vs "
                  f"field {gap:.5f} (noise {noise:.5f}), max abs change of the win tables "
                  f"{change:.5f}  [{time.perf_counter() - self.start:.0f} s]", flush=True)
        self.field = new
        self.tick(1)

    def check(self, n: int) -> tuple[float | None, float | None]:
        """(gap, noise) of a best response to the field on ``n`` hands of the second last stream,
        not blended in; (None, None) for ``n=0``."""
        if not n:
            return None, None
        _, gap, noise = self.respond(len(self.streams) - 2, n)
        if self.verbose:
            print(f"check ({n:,} hands): best response to the final tables vs the "
                  f"tables {gap:.5f} (noise {noise:.5f})", flush=True)
        return gap, noise


def _ev_settings(hands: np.ndarray, v: Variant, tables: RowTables, executor: Any,
                 chunk: int = 8192) -> np.ndarray:
    """``ev``'s settings of ``hands``, in chunks on ``executor`` when one is given."""
    if executor is None:
        return ev_decisions(hands, v, tables).settings
    _search_model(v, tables)  # built once here, not raced for by the threads
    parts = [executor.submit(ev_decisions, hands[a:a + chunk], v, tables)
             for a in range(0, len(hands), chunk)]
    return np.concatenate([part.result().settings for part in parts])


def _damped_phase(run: _Training, *, method: str, rounds: int, deals: int, damping: float,
                  patience: int) -> tuple[str, int]:
    """Rounds 1 to ``rounds`` blending by ``damping`` (by ``1 / (round + 1)`` for fictitious
    play), stopped once the gap sets no new minimum for ``patience`` rounds; returns why the
    phase ended and its last round (0 for none)."""
    stopped = f"{rounds} rounds played"
    best, stall, r = np.inf, 0, 0
    for r in range(1, rounds + 1):
        if method == "fictitious":
            run.blend(r, deals, 1.0 / (r + 1), "fictitious")
            continue
        run.blend(r, deals, damping, "damped")
        gap = run.record["response_gap"][-1]
        if gap < best:
            best, stall = gap, 0
        else:
            stall += 1
            if stall >= patience:
                stopped = (f"the gap stopped falling: no new minimum ({best:.5f}) in "
                           f"{patience} rounds, after round {r}")
                break
    return stopped, r


# -- card removal ------------------------------------------------------------------------------

def removal_features(hands: np.ndarray) -> np.ndarray:
    """float64[N, 14]: the cards held of each rank minus one, and the sum of the squared suit
    lengths minus its mean (the features of :class:`~cpstats.thirteen.play.CardRemoval`)."""
    hands = np.asarray(hands).reshape(-1, 13)
    rows = np.arange(len(hands))[:, None]
    counts = np.zeros((len(hands), 13))
    np.add.at(counts, (rows, hands >> 2), 1.0)
    suits = np.zeros((len(hands), 4))
    np.add.at(suits, (rows, hands & 3), 1.0)
    return np.column_stack([counts - 1.0, (suits ** 2).sum(axis=1) - SUIT_SQUARES_MEAN])


def fit_card_removal(variant: Variant | str, tables: RowTables, *, deals: int = 100_000,
                     seed: int | np.random.SeedSequence | None = None, block: int = 50_000,
                     iterations: int = 3, executor: Any = None,
                     progress: Callable[[int], Any] | None = None) -> RowTables:
    """``tables`` with a card-removal correction fitted for ``variant`` (returns a new object).

    Deals ``deals`` four-handed decks, sets every hand with ``ev`` on ``tables`` and, for every
    ordered pair of hands in a deck, relates the first hand's features ``x``
    (:func:`removal_features`) to the rank class (:func:`~cpstats.thirteen.play.rank_classes`) of
    each of the second's rows: the covariance of ``x`` with the indicator of class ``c``, times
    the inverse covariance of ``x``, is the least-squares slope of the probability of ``c`` on
    ``x`` (see :class:`~cpstats.thirteen.play.CardRemoval` for how ``ev`` uses it). The
    indicators of a row sum to one, so each feature's slopes sum to zero over the classes.

    The opponents' settings depend on their own cards, which depend on the player's: the first
    fit sets the hands without a correction, each of the next ``iterations - 1`` with the
    previous fit (fresh deals each time), so the correction answers a field that uses it too.
    ``executor`` and ``progress`` (once per fit) as :func:`train_tables`'.
    """
    v = _variant(variant)
    if deals < 1000 or block < 1 or iterations < 1:
        raise OptionError(f"deals={deals}, block={block}, iterations={iterations} are invalid: "
                          "need deals >= 1000, block >= 1 and iterations >= 1")
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    rng = np.random.default_rng(root)
    start = time.perf_counter()
    field = RowTables(tables.front, tables.middle, tables.back, tables.variant, tables.meta)
    for _ in range(iterations):
        removal = _fit_removal_once(v, field, deals, rng, block, executor)
        field = RowTables(tables.front, tables.middle, tables.back, tables.variant, tables.meta,
                          removal)
        if progress is not None:
            progress(1)
    removal.meta.update({"deals": deals, "iterations": iterations, "seed": int(root.entropy),
                         "spawn_key": list(root.spawn_key),
                         "seconds": round(time.perf_counter() - start, 1)})
    return field


def _fit_removal_once(v: Variant, field: RowTables, deals: int, rng: np.random.Generator,
                      block: int, executor: Any) -> CardRemoval:
    """One fit of :func:`fit_card_removal` on ``deals`` fresh deals set with ``field``."""
    order = v.ranking.value
    classes3, classes5 = rank_classes(order)
    classes = (classes3, classes5, rank_classes("H1" if order == "H5" else order)[1])
    sizes = (FRONT_CLASSES, MAX_CLASSES, MAX_CLASSES)
    sums = [np.zeros((n, 14)) for n in sizes]
    counts = [np.zeros(n) for n in sizes]
    xx = np.zeros((14, 14))
    x_sum = np.zeros(14)
    for first in range(0, deals, block):
        n = min(block, deals - first)
        hands = deal(rng, n, 4).reshape(-1, 13)
        settings = _ev_settings(hands, v, field, executor)
        x = removal_features(hands)
        xx += x.T @ x
        x_sum += x.sum(axis=0)
        xd = x.reshape(n, 4, 14)
        total = xd.sum(axis=1)
        for row, r in enumerate(_row_ranks(settings, order)):
            cd = classes[row][r].reshape(n, 4)
            counts[row] += np.bincount(cd.ravel(), minlength=sizes[row])
            for me in range(4):
                others = total - xd[:, me]  # the features of the other three hands
                for f in range(14):
                    sums[row][:, f] += np.bincount(cd[:, me], weights=others[:, f],
                                                   minlength=sizes[row])
    hands = 4 * deals
    mean = x_sum / hands  # each hand is the player of three pairs and the opponent of three
    inverse = np.linalg.pinv(xx / hands - np.outer(mean, mean))
    slopes = [(sums[row] / (3 * hands) - np.outer(counts[row] / hands, mean)) @ inverse
              for row in range(3)]
    meta = {"variant": str(v),
            "features": f"rank counts - 1, sum of squared suit lengths - {SUIT_SQUARES_MEAN:.6f}",
            "classes": "category and first deciding rank (cpstats.thirteen.play.rank_classes)",
            "ratio_limits": list(REMOVAL_RATIO_LIMITS)}
    return CardRemoval(slopes[0], slopes[1], slopes[2], meta)


def save_tables(tables: RowTables, name: str) -> str:
    """Write ``tables`` to ``<name>.npz`` in the package data folder (:data:`TABLES_DIR`,
    ``cpstats/data/strategies``); returns the path."""
    TABLES_DIR.mkdir(parents=True, exist_ok=True)
    path = TABLES_DIR / f"{name}.npz"
    tables.save(path)
    return str(path)


def train_preset(name: str, *, deals: int = 200_000, rounds: int = 30, seed: int = 20261129,
                 verbose: bool = True, **options: Any) -> str:
    """Train the tables of preset ``name`` and write them to ``cpstats/data/strategies/<name>.npz``
    (what ``cpstats train --preset NAME`` calls); returns the path.

    ``options`` go to :func:`train_tables` (``refine``, ``patience``, ``damping``, ...).
    """
    from cpstats.engine.registry import get_preset

    get_preset(name)  # unknown names raise OptionError listing the presets
    tables = train_tables(name, deals=deals, rounds=rounds, rng=seed, verbose=verbose, **options)
    return save_tables(tables, name.strip().lower())


set_trainer(train_tables)  # what ev calls on for a variant without tables


# -- duplicate matches ------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchResult:
    """Mean result per hand of strategy ``a`` against a field of ``b`` and its 95% CI."""

    a: str
    b: str
    variant: str
    deals: int
    mean: float
    ci95: tuple[float, float]
    stderr: float
    seed: int

    def __str__(self) -> str:
        return (f"{self.a} vs {self.b} under {self.variant}: {self.mean:+.4f} per hand "
                f"(95% CI {self.ci95[0]:+.4f} .. {self.ci95[1]:+.4f}, {self.deals} deals)")


def _decide(strategy: Callable[..., Any], hands: np.ndarray, v: Variant,
            rng: np.random.Generator, tables: RowTables | None = None) -> Decisions:
    dealt = hands.copy()  # a strategy that rewrites its input cannot hide a swap
    extra = {"tables": tables} if tables is not None and takes_tables(strategy) else {}
    return _as_decisions(strategy(hands, v, rng=rng, **extra), dealt,
                         getattr(strategy, "__name__", "strategy"))


def match(variant: Variant | str, a: str | Callable[..., Any] = "ev",
          b: str | Callable[..., Any] = "greedy", *, deals: int = 20_000,
          rng=None, tables: Any = None) -> MatchResult:
    """Duplicate match: on each deal, ``a`` plays each seat in turn against ``b`` in the others.

    The per-deal score is ``a``'s net averaged over its seats, so luck of the cards cancels; the
    mean over deals is ``a``'s edge per hand over ``b`` and the CI is mean +- 1.96 standard
    errors (deals are independent). In criss-cross (D3) a seat holds two hands, both set by the
    seat's strategy, and its net is divided by two (an edge per hand, as elsewhere).
    ``tables`` (as :func:`~cpstats.thirteen.play.set_hands`') go to every strategy that takes them;
    ``rng`` is the deal's seed (int, SeedSequence, Generator or None).
    """
    from cpstats.thirteen.settlement.engine import settle_many

    v = _variant(variant)
    fa, fb = get_strategy(a), get_strategy(b)
    check_whole("deals", deals, 2, "the interval needs two deals")
    players = v.players
    per_seat = v.hands_per_player
    n_hands = players * per_seat
    root = root_seed(rng, "rng")
    rng = np.random.default_rng(root)
    cards = deal(rng, deals, n_hands)
    flat = cards.reshape(-1, 13)
    found = None if tables is None else load_tables(v, tables=tables)
    da = _decide(fa, flat, v, rng, found)
    db = _decide(fb, flat, v, rng, found)
    nat_a = da.natural_bits(flat, v).reshape(deals, n_hands)
    nat_b = db.natural_bits(flat, v).reshape(deals, n_hands)
    sa = da.settings.reshape(deals, n_hands, 13)
    sb = db.settings.reshape(deals, n_hands, 13)
    ua = da.surrender.reshape(deals, n_hands)
    ub = db.surrender.reshape(deals, n_hands)
    seat_of = np.arange(n_hands) // per_seat
    score = np.zeros(deals)
    for seat in range(players):
        pick = seat_of == seat
        settings = np.where(pick[None, :, None], sa, sb)
        nat = np.where(pick[None, :], nat_a, nat_b)
        sur = np.where(pick[None, :], ua, ub)
        net, _ = settle_many(v, settings, naturals=nat, surrender=sur if sur.any() else None)
        score += net[:, seat] / per_seat
    score /= players
    mean = float(score.mean())
    se = float(score.std(ddof=1) / np.sqrt(deals))
    name = lambda s: s if isinstance(s, str) else getattr(s, "__name__", repr(s))  # noqa: E731
    return MatchResult(name(a), name(b), str(v), deals, mean, (mean - 1.96 * se, mean + 1.96 * se),
                       se, int(root.entropy))


# -- exploitability ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Exploitability:
    """Best-response gain over a strategy's own choice, heads-up SC-2-4 (points per hand).

    ``in_sample``: the best legal setting chosen and scored against the same sampled opponent
    settings (biased upwards: the maximum of noisy estimates). ``out_of_sample``: chosen
    against one sample, scored against a fresh one (unbiased for the chosen setting, so a lower
    bound on the true gain of the best response).
    """

    hands: int
    opponents: int
    in_sample: float
    in_sample_ci95: tuple[float, float]
    out_of_sample: float
    out_of_sample_ci95: tuple[float, float]
    seed: int

    def __str__(self) -> str:
        return (f"best response gain over {self.hands} hands x {self.opponents} opponents: "
                f"in-sample {self.in_sample:+.4f} (CI {self.in_sample_ci95[0]:+.4f} .. "
                f"{self.in_sample_ci95[1]:+.4f}), out-of-sample {self.out_of_sample:+.4f} (CI "
                f"{self.out_of_sample_ci95[0]:+.4f} .. {self.out_of_sample_ci95[1]:+.4f})")


def exploitability(strategy: str | Callable[..., Any] = "ev", *, hands: int = 2_000,
                   opponents: int = 1_000, rng=None) -> Exploitability:
    """Exploitability of ``strategy`` under heads-up ``2-4``: how far it is from a fixed point.

    For each sample hand, ``opponents`` opponent hands are dealt from the other 39 cards and
    set by the strategy itself; every legal setting of the sample hand is scored against them
    (1 per row, 1 more for two or three rows) and the best is compared with the strategy's own
    choice. The out-of-sample figure scores the chosen best response against a second,
    independent sample of opponents. ``rng`` seeds it.
    """
    from cpstats.hands.setting import legal_settings

    v = _variant("2-4(players=2)")
    fn = get_strategy(strategy)
    root = root_seed(rng)
    rng = np.random.default_rng(root)
    samples = deal(rng, hands, 1)[:, 0]
    own = _decide(fn, samples, v, rng).settings
    gains_in = np.empty(hands)
    gains_out = np.empty(hands)

    def ranks(settings: np.ndarray) -> np.ndarray:
        return np.stack(_row_ranks(settings, "H1"), axis=1).astype(np.int32)

    for i, hand in enumerate(samples):
        rest = np.setdiff1d(np.arange(52, dtype=np.uint8), hand)
        picks = np.argsort(rng.random((2 * opponents, 39)), axis=1)[:, :13]
        opp = rest[picks]
        opp_set = _decide(fn, opp, v, rng).settings
        legal = ranks(legal_settings(hand))
        mine = ranks(own[i][None])
        a, b = ranks(opp_set[:opponents]), ranks(opp_set[opponents:])
        score_a = np.empty(len(legal))
        _sk.heads_up_24_kernel(legal, a, score_a)
        best = int(np.argmax(score_a))
        own_a = np.empty(1)
        _sk.heads_up_24_kernel(mine, a, own_a)
        gains_in[i] = score_a[best] - own_a[0]
        pair = np.empty(2)
        _sk.heads_up_24_kernel(np.stack([legal[best], mine[0]]), b, pair)
        gains_out[i] = pair[0] - pair[1]

    def ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
        m = float(x.mean())
        se = float(x.std(ddof=1) / np.sqrt(len(x)))
        return m, (m - 1.96 * se, m + 1.96 * se)

    (mi, ci_in), (mo, ci_out) = ci(gains_in), ci(gains_out)
    return Exploitability(hands, opponents, mi, ci_in, mo, ci_out, int(root.entropy))
