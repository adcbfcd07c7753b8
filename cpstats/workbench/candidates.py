"""The candidates of a solve (:func:`cpstats.solve`): each played on the same deals by the
:class:`Evaluator`, and the search of an integer or listed parameter over them, grown in stages
until its interval holds a stated number of values (:func:`grow`).

- Decision: the search is of three crossings of a monotone figure (the first value whose band
  holds the target, whose estimate meets it, whose band clears it), each by interpolating the
  figure between a bracket's ends with a bisection after any step that did not halve the bracket:
  on common deals the curve is nearly a line, so a crossing costs two or three evaluations. A
  later stage starts each search from the last stage's crossings (widening the bracket, doubling,
  where they no longer bracket it), so a stage of many deals plays few candidates.
- Decision: the stages grow by the band's ``1/sqrt(deals)`` law, as a sequential run does
  (:mod:`cpstats.engine.sequential`): the band's width in values where the estimate crosses
  the target is its width over the curve's slope a value, and a band ``width - 1`` values wide
  holds at most ``width`` whole values; the next stage plays that prediction 10% over, at least
  1.5x the last, rounded up to two digits, at most the cap. Stopping on the interval's own width
  makes it a little less sure than its level says; the opt-in coverage test measures it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.engine.registry import AnyVariant, game_of
from cpstats.engine.games import runs_of
from cpstats.engine.lookup import figure_table

__all__ = ["Evaluation", "Evaluator", "Crossing", "first_passing", "search", "grow", "unreachable", "unit_of",
           "deals_to_clear"]


def _setter_of(result: Any) -> str:
    return str(getattr(result, "setter", None) or result.metadata.get("strategy", "?"))


class Evaluation(NamedTuple):
    value: Any
    estimate: float
    ci_low: float
    ci_high: float


class Evaluator:
    """Every candidate on the same deals; repeats are read back, never played again; every
    candidate is checked to be played as the first was (the game's ``one_play``)."""

    def __init__(self, v: AnyVariant, parameter: str, metric: str, deals: int, root, setter, executor,
                 confidence: float, on_evaluation: Callable[[dict], None] | None, start: int = 0):
        self.v, self.parameter, self.metric, self.deals = v, parameter, metric, deals
        self.runs = runs_of(v)
        self.run = self.runs.simulate
        self.root, self.setter, self.executor, self.level = root, setter, executor, confidence
        self.on_evaluation, self.rows, self.setters = on_evaluation, [], {}
        self.done: dict[Any, Evaluation] = {}
        self.metas: list[dict] = []
        self.play: str | None = None
        self.start = start  # rows of earlier stages: ``order`` counts on from them

    def variant(self, value: Any) -> AnyVariant:
        return self.v.replace(**{self.parameter: value})

    def __call__(self, value: Any) -> Evaluation:
        if value in self.done:
            return self.done[value]
        start = time.perf_counter()
        # an ev setter plays each candidate with its own tables (trained once, then cached)
        result = self.run(self.variant(value), self.deals, setter=self.setter, rng=self.root, executor=self.executor)
        return self.record(value, result, time.perf_counter() - start)

    def record(self, value: Any, result: Any, seconds: float) -> Evaluation:
        """Read candidate ``value``'s run of the common deals (played here or, the first bound of a
        default-length solve, by the run that chose the deals)."""
        self.metas.append(result.metadata)
        labels = [f"{self.parameter}={r['value']}" for r in self.rows] + [f"{self.parameter}={value}"]
        self.play = self.runs.one_play(self.metas, labels, "this solve")
        figures = figure_table(result, self.level).set_index("metric")
        row = figures.loc[self.metric]
        ev = Evaluation(value, float(row["estimate"]), float(row["ci_low"]), float(row["ci_high"]))
        self.done[value] = ev
        self.setters[value] = _setter_of(result)
        record = {"order": self.start + len(self.rows), "value": value, "estimate": ev.estimate, "ci_low": ev.ci_low,
                  "ci_high": ev.ci_high, "method": str(row.get("method", "")),
                  "variant": str(self.variant(value)), "setter": self.setters[value],
                  "play": self.runs.play_of(result.metadata), "deals": int(self.deals), "seconds": seconds}
        self.rows.append(record)
        if self.on_evaluation is not None:
            self.on_evaluation(record)
        return ev

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows)


def _band(e: Evaluation) -> str:
    return f"{e.ci_low:.6g} to {e.ci_high:.6g}" if np.isfinite(e.ci_high - e.ci_low) else "no interval"


def unreachable(ev: Evaluator, target: float, values: Sequence[Any]) -> OptionError:
    ends = [ev(values[0]), ev(values[-1])]
    shown = " to ".join(f"{e.estimate:.6g} ({_band(e)}) at {ev.parameter}={e.value}" for e in ends)
    near = min(ends, key=lambda e: abs(e.estimate - target))
    told = ""
    if near.ci_low <= target <= near.ci_high:
        told = (f"; its interval at {ev.parameter}={near.value} holds the target, so "
                f"{deals_to_clear(ev, near, target)} an evaluation would tell")
    return OptionError(f"target={target:g} cannot be reached for {ev.metric} with {ev.parameter} in "
                       f"[{values[0]}, {values[-1]}]: it runs from {shown} ({ev.deals:,} {unit_of(ev.v)} "
                       f"an evaluation){told}")


def first_passing(ev: Evaluator, order: list, score: Callable[[Evaluation], float], lo: int = 0,
                  hi: int | None = None) -> int:
    """Index in ``order`` of the first value whose ``score`` is >= 0 (a monotone score: below 0,
    then at or above), ``len(order)`` when none is. The search starts from the guess ``lo..hi``
    (widened, doubling, where it does not bracket the crossing); each step interpolates the score
    between the bracket's ends and plays the guess and its neighbour across the crossing, and a
    step that did not halve the bracket is followed by a bisection: on a near-linear curve a
    crossing costs two evaluations past the bracket's ends."""
    n = len(order)

    def s(i: int) -> float:
        return score(ev(order[i]))

    lo = min(max(lo, 0), n - 1)
    f, h = lo - 1, n - 1 if hi is None else min(max(hi, lo), n - 1)
    step = max(1, h - f)
    while not s(h) >= 0:  # the guess holds no passing value: widen upward
        if h == n - 1:
            return n
        f, h, step = h, min(n - 1, h + step), 2 * step
    step = max(1, h - f)
    while f >= 0 and s(f) >= 0:  # the guess starts past the crossing: widen downward
        h, f, step = f, max(-1, f - step), 2 * step
    if f < 0 < h:
        if s(0) >= 0:
            return 0
        f = 0
    bisect = False
    while h - f > 1:
        before, low, high = h - f, s(f), s(h)
        if bisect or not high > low:
            mid = (f + h) // 2
            f, h = (f, mid) if s(mid) >= 0 else (mid, h)
        else:
            guess = min(max(f + math.ceil((h - f) * -low / (high - low)), f + 1), h - 1)
            if s(guess) >= 0:
                h = guess
                if h - 1 > f:
                    f, h = (h - 1, h) if not s(h - 1) >= 0 else (f, h - 1)
            else:
                f = guess
                if f + 1 < h:
                    f, h = (f, f + 1) if s(f + 1) >= 0 else (f + 1, h)
        bisect = not bisect and 2 * (h - f) > before
    return h


def unit_of(v: AnyVariant) -> str:
    return game_of(v).unit


def deals_to_clear(ev: Evaluator, e: Evaluation, target: float) -> str:
    """About how many deals an evaluation would make ``e``'s interval clear ``target``, in words
    (the half-width falls as one over the root of the deals; the estimate taken as it is)."""
    gap = abs(e.estimate - target)
    half = (e.ci_high - e.ci_low) / 2
    if not np.isfinite(half):
        return f"more {unit_of(ev.v)} (this length gives no interval to scale from)"
    if gap == 0:
        return f"more {unit_of(ev.v)} than can be guessed (its estimate is the target itself)"
    return f"about {int(float(f'{ev.deals * (half / gap) ** 2:.2g}')):,} {unit_of(ev.v)}"


class Crossing(NamedTuple):
    """Where a discrete search found its three crossings, as indices in ``order`` (the values in
    the order the figure meets the target): the first whose band holds the target (``maybe``),
    whose estimate meets it (``point``) and whose band clears it (``sure``, ``len(order)`` when
    none does)."""

    order: list
    maybe: int
    point: int
    sure: int

    def values(self) -> int:
        """How many values the interval holds."""
        return min(self.sure, len(self.order) - 1) - self.maybe + 1


def search(ev: Evaluator, values: list, target: float, direction: str,
           guide: Crossing | None = None) -> tuple[dict, Crossing]:
    """The boundary value of the region meeting the target on a monotone figure: the run's own
    crossing (the first value whose estimate meets it) and, as its interval, the values from the
    first whose band holds the target to the first whose band clears it (three searches, from
    an earlier stage's crossings where ``guide`` gives them)."""
    at_least = direction == "at_least"
    if guide is None:
        first, last = ev(values[0]), ev(values[-1])
        rising = last.estimate >= first.estimate
        order = values if rising == at_least else values[::-1]  # the meeting region is at the end
    else:
        order = guide.order
    n, sign = len(order), 1 if at_least else -1
    near, far = (0, n - 1) if guide is None else (guide.maybe, min(guide.sure, n - 1))
    point = first_passing(ev, order, lambda e: sign * (e.estimate - target), near, far)
    if point == n:
        raise unreachable(ev, target, values)
    sure = first_passing(ev, order, lambda e: sign * ((e.ci_low if at_least else e.ci_high) - target),
                         point, max(point, far))
    maybe = first_passing(ev, order[: point + 1],
                          lambda e: sign * ((e.ci_high if at_least else e.ci_low) - target), min(near, point), point)
    certified = sure < n
    span = sorted(order[maybe: min(sure, n - 1) + 1], key=values.index)
    which = "smallest" if order is values else "largest"
    value = order[point]
    if certified:
        note = (f"{value} is the {which} value whose estimate meets the target; the long-run boundary "
                f"lies in {span[0]}..{span[-1]} ({ev.level:.0%}), {order[sure]} the {which} whose interval "
                f"clears it")
    else:
        note = (f"not certified: the estimate meets the target at {value}, but no value up to {order[-1]} "
                f"has an interval clearing it at this budget; {deals_to_clear(ev, ev(order[-1]), target)} "
                f"an evaluation would clear it at {order[-1]}")
    return ({"value": value, "ci_low": span[0], "ci_high": span[-1],
             "method": f"search on a monotone figure ({which} value whose estimate meets the target; "
                       f"interval from the bands)",
             "ties": tuple(x for x in span if x != value), "note": note, "certified": certified},
            Crossing(order, maybe, point, sure))


def _band_values(ev: Evaluator, crossing: Crossing) -> float:
    """The band's width in values where the estimate crosses the target: its width there over
    the curve's slope a value (a line through the evaluations from ``maybe - 1`` to ``sure``, or
    all of them); NaN where the curve is flat."""
    order, done = crossing.order, ev.done
    near = range(max(crossing.maybe - 1, 0), min(crossing.sure, len(order) - 1) + 1)
    at = [i for i in near if order[i] in done]
    if len(at) < 2:
        at = [i for i, x in enumerate(order) if x in done]
    y = [done[order[i]].estimate for i in at]
    slope = abs(float(np.polyfit(at, y, 1)[0])) if len(at) > 1 else 0.0
    e = done[order[crossing.point]]
    return (e.ci_high - e.ci_low) / slope if slope > 0 and np.isfinite(slope) else float("nan")


def _two_digits_up(x: float) -> int:
    """``x`` rounded up to two significant digits (487,312 -> 490,000): stage lengths read easily."""
    unit = 10 ** max(0, int(math.log10(max(x, 1))) - 1)
    return int(math.ceil(x / unit) * unit)


def grow(stage: Callable[[int, int], Evaluator], ev: Evaluator, values: list, target: float,
         direction: str, width: int, cap: int) -> tuple[dict, Evaluator, dict]:
    """A discrete solve grown in stages: each stage plays every candidate it needs on ``n``
    common deals (``stage(n, rows so far)`` its evaluator, the same root seed), until the
    interval holds at most ``width`` values and is certified, or ``n`` is ``cap``. The next
    stage's ``n`` follows the band's ``1/sqrt(deals)`` law to a band ``width - 1`` values wide
    (which holds at most ``width`` whole values), 10% over and at least 1.5x the last; its
    searches start from the last stage's crossings. Returns (the answer, its evaluator, the
    record :attr:`Solution.growth` keeps)."""
    found, crossing = search(ev, values, target, direction)
    stages, played = [], 0
    while True:
        count, band = crossing.values(), _band_values(ev, crossing)
        played += len(ev.rows)
        stages.append({"deals": ev.deals, "ci_low": found["ci_low"], "ci_high": found["ci_high"],
                       "values": count, "certified": found["certified"], "evaluations": len(ev.rows)})
        reached = found["certified"] and count <= width
        factor = (band / (width - 1)) ** 2 if np.isfinite(band) else 4.0
        if reached or ev.deals >= cap:
            break
        ev = stage(int(min(cap, _two_digits_up(max(1.1 * ev.deals * factor, 1.5 * ev.deals)))), played)
        found, crossing = search(ev, values, target, direction, crossing)
    unit, n = unit_of(ev.v), ev.deals
    span = f"{count} value{'' if count == 1 else 's'} ({found['ci_low']}..{found['ci_high']})"
    if reached and len(stages) == 1:
        note = f"the interval holds {span} at {n:,} {unit} an evaluation, within width={width}"
    elif reached:
        note = (f"grown from {stages[0]['deals']:,} to {n:,} {unit} an evaluation in {len(stages)} stages, "
                f"until the interval held at most width={width} values: {span}")
    else:
        guess = (f"about {_two_digits_up(n * factor):,} {unit} would narrow it to {width}"
                 if np.isfinite(band) else "too few values evaluated to guess how many would narrow it")
        bound = "" if found["certified"] else ", reaching a bound"
        note = (f"width={width} not reached: the cap of {cap:,} {unit} an evaluation (max_deals) came "
                f"first, the interval holding {span}{bound}; {guess}")
    return found, ev, {"width": width, "max_deals": cap, "reached": bool(reached), "deals": n, "values": count,
                       "stages": stages, "note": note}
