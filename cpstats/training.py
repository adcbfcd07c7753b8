"""Training the ``ev`` setter's row tables by fictitious play, and duplicate matches.

:func:`train_tables` starts from the field playing ``greedy``: it deals random hands, sets them
with the field, and counts the rank of each row (front on the 455 three-card ranks, middle and
back on the 7,462 five-card ranks). Each round then sets fresh deals with the best response to
the current tables (``ev``) and blends the new counts into the field with weight
``1 / (round + 1)`` (fictitious play: the field is the average of every best response). The
convergence record is the largest absolute change of any row's win-probability table (its
cumulative distribution) per round; ``response_gap`` is the same distance between the
round's best response and the field it answered (it shrinks only as the field approaches a
fixed point, whereas the change also shrinks with the blend weight).

:func:`match` plays two strategies on the same deals with the seats swapped (duplicate);
:func:`exploitability` measures how much a best response gains over a strategy's own choice
under heads-up ``2-4``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .cards import deal
from .errors import OptionError
from .ranking import rank3, rank5
from .rules import Variant
from .strategies import (TABLES_DIR, Decisions, RowTables, _opponents, _variant, ev_decisions,
                         get_strategy, greedy)

__all__ = ["train_tables", "train_preset", "save_tables", "match", "MatchResult", "exploitability", "Exploitability"]


def _histograms(settings: np.ndarray, variant: Variant) -> tuple[np.ndarray, ...]:
    order = variant.ranking.value
    f = rank3(settings[:, :3], check=False)
    m = rank5(settings[:, 3:8], ordering=order, check=False)
    b = rank5(settings[:, 8:], ordering=order, check=False)
    return (np.bincount(f, minlength=455).astype(np.float64),
            np.bincount(m, minlength=7462).astype(np.float64),
            np.bincount(b, minlength=7462).astype(np.float64))


def _cdf_change(old: tuple[np.ndarray, ...], new: tuple[np.ndarray, ...]) -> float:
    return max(float(np.abs(np.cumsum(a / a.sum()) - np.cumsum(b / b.sum())).max())
               for a, b in zip(old, new))


def train_tables(variant: Variant | str, *, deals: int = 200_000, rounds: int = 6,
                 seed: int | None = None, verbose: bool = False) -> RowTables:
    """Train row tables for ``variant`` by fictitious play.

    Parameters
    ----------
    variant
        A variant, preset name or variant string.
    deals
        Hands set per round (each round deals fresh hands from its own seed stream).
    rounds
        Best-response rounds after the greedy start.
    seed
        Root entropy; round ``r`` uses ``SeedSequence(seed).spawn`` child ``r``.

    Returns
    -------
    RowTables
        With ``meta``: seed, deals, rounds, ``convergence`` (max abs change of the win tables
        per round), seconds.
    """
    v = _variant(variant)
    if deals < 1000 or rounds < 0:
        raise OptionError(f"deals={deals}, rounds={rounds} are invalid: need deals >= 1000, "
                          "rounds >= 0")
    root = np.random.SeedSequence(seed)
    streams = root.spawn(rounds + 1)
    start = time.perf_counter()

    def dealt(r: int) -> np.ndarray:
        rng = np.random.default_rng(streams[r])
        return deal(rng, (deals + 3) // 4, 4).reshape(-1, 13)[:deals]

    hands = dealt(0)
    field = _histograms(greedy(hands, v).settings, v)
    convergence: list[float] = []
    gaps: list[float] = []
    for r in range(1, rounds + 1):
        current = RowTables(*field, variant=str(v), meta={})
        hands = dealt(r)
        response = _histograms(ev_decisions(hands, v, current).settings, v)
        weight = 1.0 / (r + 1)
        new = tuple((1 - weight) * a + weight * b for a, b in zip(field, response))
        change = _cdf_change(field, new)
        gap = _cdf_change(field, response)
        convergence.append(change)
        gaps.append(gap)
        if verbose:
            print(f"round {r}: max abs change of the win tables {change:.5f}, "
                  f"best response vs field {gap:.5f}")
        field = new
    meta: dict[str, Any] = {
        "variant": str(v), "seed": int(root.entropy), "deals": deals, "rounds": rounds,
        "start": "greedy", "blend": "1/(round+1)", "convergence": convergence,
        "response_gap": gaps,
        "seconds": round(time.perf_counter() - start, 1),
    }
    total = [a / a.sum() for a in field]
    return RowTables(total[0], total[1], total[2], str(v), meta)


def save_tables(tables: RowTables, name: str) -> str:
    """Write ``tables`` to ``data/strategies/<name>.npz``; returns the path."""
    TABLES_DIR.mkdir(parents=True, exist_ok=True)
    path = TABLES_DIR / f"{name}.npz"
    tables.save(path)
    return str(path)


def train_preset(name: str, *, deals: int = 200_000, rounds: int = 12, seed: int = 20261129,
                 verbose: bool = True) -> str:
    """Train the tables of preset ``name`` and write them to ``data/strategies/<name>.npz``
    (what ``cpstats train --preset NAME`` should call); returns the path."""
    from .presets import get_preset

    get_preset(name)  # unknown names raise OptionError listing the presets
    tables = train_tables(name, deals=deals, rounds=rounds, seed=seed, verbose=verbose)
    return save_tables(tables, name.strip().lower())


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
            rng: np.random.Generator) -> Decisions:
    from .strategies import _as_decisions

    return _as_decisions(strategy(hands, v, rng=rng), hands.shape[0])


def match(variant: Variant | str, a: str | Callable[..., Any] = "ev",
          b: str | Callable[..., Any] = "greedy", *, deals: int = 20_000,
          seed: int | None = None) -> MatchResult:
    """Duplicate match: on each deal, ``a`` plays each seat in turn against ``b`` in the others.

    The per-deal score is ``a``'s net averaged over its seats, so luck of the cards cancels; the
    mean over deals is ``a``'s edge per hand over ``b`` and the CI is mean +- 1.96 standard
    errors (deals are independent).
    """
    from .settlement import settle_many

    v = _variant(variant)
    fa, fb = get_strategy(a), get_strategy(b)
    if v.hands_per_player != 1:
        raise OptionError(f"match supports one hand per player; {v.name} deals "
                          f"{v.hands_per_player}")
    players = v.players
    root = np.random.SeedSequence(seed)
    rng = np.random.default_rng(root)
    cards = deal(rng, deals, players)
    flat = cards.reshape(-1, 13)
    da = _decide(fa, flat, v, rng)
    db = _decide(fb, flat, v, rng)
    nat_a = da.natural_bits(flat, v).reshape(deals, players)
    nat_b = db.natural_bits(flat, v).reshape(deals, players)
    sa = da.settings.reshape(deals, players, 13)
    sb = db.settings.reshape(deals, players, 13)
    ua = da.surrender.reshape(deals, players)
    ub = db.surrender.reshape(deals, players)
    score = np.zeros(deals)
    for seat in range(players):
        pick = np.zeros(players, dtype=bool)
        pick[seat] = True
        settings = np.where(pick[None, :, None], sa, sb)
        nat = np.where(pick[None, :], nat_a, nat_b)
        sur = np.where(pick[None, :], ua, ub)
        net, _ = settle_many(v, settings, naturals=nat, surrender=sur if sur.any() else None)
        score += net[:, seat]
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
                   opponents: int = 1_000, seed: int | None = None) -> Exploitability:
    """Exploitability of ``strategy`` under heads-up ``2-4`` (issue 4, item 5c).

    For each sample hand, ``opponents`` opponent hands are dealt from the other 39 cards and
    set by the strategy itself; every legal setting of the sample hand is scored against them
    (1 per row, 1 more for two or three rows) and the best is compared with the strategy's own
    choice. The out-of-sample figure scores the chosen best response against a second,
    independent sample of opponents.
    """
    from . import _strategy_kernels as _sk
    from .setting import legal_settings

    v = _variant("2-4(players=2)")
    fn = get_strategy(strategy)
    root = np.random.SeedSequence(seed)
    rng = np.random.default_rng(root)
    samples = deal(rng, hands, 1)[:, 0]
    own = _decide(fn, samples, v, rng).settings
    gains_in = np.empty(hands)
    gains_out = np.empty(hands)

    def ranks(settings: np.ndarray) -> np.ndarray:
        return np.stack([rank3(settings[:, :3], check=False).astype(np.int32),
                         rank5(settings[:, 3:8], check=False).astype(np.int32),
                         rank5(settings[:, 8:], check=False).astype(np.int32)], axis=1)

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
