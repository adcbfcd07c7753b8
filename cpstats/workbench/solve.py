"""Rules for a target: the rule number that gives a figure its target, with an interval on the answer.

:func:`solve` answers the designer's inverse question ("what commission gives a 1.5% house edge?")
through the game's registered run, so any game's variant works: every candidate value is simulated
on the same deals (one root seed: common random numbers) by the run its game registered
(:class:`~cpstats.simulation.games.GameRuns`), and its figure is read from the result's tidy figures
(:func:`~cpstats.simulation.lookup.figure_table`, the one place a figure is looked up).

- Decision: a continuous parameter (two float bounds) is solved by root finding on the response
  curve of the common deals (Brent's method from the bounds). On common deals that curve
  is a fixed function of the parameter, so the root finder converges to the run's own root; the
  answer's interval comes from the figure's sampling error, by inverting the pointwise band of the
  curve where it crosses the target (the values whose band holds the target), the band evaluated
  at the interval's two predicted ends so its interpolation is close. To first order this is the
  delta method, ``root +- half-width / slope``.
- Decision: structure is used where it exists: a house charge (commission, fee, rake) does not move
  how hands are set (:func:`cpstats.strategies.row_tables.strategy_rules`), so every candidate is
  set alike, and a commission or an uncapped percent moves the figure linearly on common deals: the
  two bounds then solve it, the third evaluation (at the root) confirms it exactly, and the method
  says so. Otherwise (a capped rake, a strategy-relevant number) the root finder continues until the
  curve is within 10% of the band's half-width of the target (a root error that small widens
  the answer's error by half a percent, in quadrature).
- Decision: an integer parameter (two int bounds, or float bounds on a rule that holds whole
  numbers, such as ``players``) or a listed one (more than two values, or words) assumes the
  figure is monotone in it and answers with the boundary value of the region that meets the
  target (the smallest value, the largest when the region lies below): the run's own crossing,
  the first value whose *estimate* meets the target, which estimates the long-run boundary
  without the bias of the conservative end. Its interval runs from the first value whose band
  holds the target to the first whose band clears it (``direction="at_least"``: ``ci_low >=
  target``; ``"at_most"``: ``ci_high <= target``); three bisections find them. On common deals
  neighbouring values are told apart (their paired difference's interval, about a tenth as wide
  as a level's, excludes 0), which fixes the run's own crossing; what the interval carries is
  the error of the curve's common level, which pairing does not remove: about ``1.96 se /
  slope`` values either side, shrinking as one over the root of the deals
  (docs/measurements.md#coverage_solve measures its coverage and exact hits).
- Decision: when the estimate meets the target inside the bounds but no value's interval clears
  it, the crossing is returned marked ``certified=False``, its note saying about how many deals
  an evaluation would clear it at the far bound; when the estimate never meets it, the target
  is refused as unreachable in the bounds.
- Decision: a strategy-relevant parameter is played with the setter's own choice at every
  candidate: with ``ev`` each candidate's tables are trained for its rules (cached, so a repeat is
  free) and :attr:`Solution.setter` says which tables set the hands at the answer.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from cpstats.cards.blocks import root_seed
from cpstats.errors import OptionError, check_whole
from cpstats.rules.games import AnyVariant, game_of, holds_whole_numbers, load_variant
from cpstats.simulation.games import runs_of
from cpstats.simulation.lookup import check_target, figure_table
from cpstats.simulation.lookup import check_metric as _check_metric
from cpstats.simulation.sequential import run_until, until_record
from cpstats.simulation.solution import Solution
from cpstats.simulation.stats import check_confidence
from cpstats.simulation.points import sweep_variants
from cpstats.workbench.simulate import bulk_setter

__all__ = ["solve", "Solution", "check_metric", "check_bounds", "invert_band"]
#: The root finder stops once the figure is this share of its band's half-width from the target.
ROOT_TOLERANCE = 0.1
_MAX_EVALUATIONS = 10


def _setter_of(result: Any) -> str:
    return str(getattr(result, "setter", None) or result.metadata.get("strategy", "?"))


class Evaluation(NamedTuple):
    value: Any
    estimate: float
    ci_low: float
    ci_high: float


class _Evaluator:
    """Every candidate on the same deals; repeats are read back, never played again; every
    candidate is checked to be played as the first was (the game's ``one_play``)."""

    def __init__(self, v: AnyVariant, parameter: str, metric: str, deals: int, root, setter, executor,
                 confidence: float, on_evaluation: Callable[[dict], None] | None):
        self.v, self.parameter, self.metric, self.deals = v, parameter, metric, deals
        self.runs = runs_of(v)
        self.run = self.runs.simulate
        self.root, self.setter, self.executor, self.level = root, setter, executor, confidence
        self.on_evaluation, self.rows, self.setters = on_evaluation, [], {}
        self.done: dict[Any, Evaluation] = {}
        self.metas: list[dict] = []
        self.play: str | None = None

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
        record = {"order": len(self.rows), "value": value, "estimate": ev.estimate, "ci_low": ev.ci_low,
                  "ci_high": ev.ci_high, "method": str(row.get("method", "")),
                  "variant": str(self.variant(value)), "setter": self.setters[value],
                  "play": self.runs.play_of(result.metadata), "deals": int(self.deals), "seconds": seconds}
        self.rows.append(record)
        if self.on_evaluation is not None:
            self.on_evaluation(record)
        return ev

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows)


# -- checks ---------------------------------------------------------------------------------------

def check_metric(v: AnyVariant, metric: str) -> str:
    """:func:`~cpstats.simulation.lookup.check_metric` with the game's registered run."""
    return _check_metric(v, metric, runs_of(v).simulate)


def check_bounds(v: AnyVariant, parameter: str, bounds: Any) -> tuple[str, str, list]:
    """(the parameter's key, kind, values): ``continuous`` with two float bounds, ``integer`` with
    two ints or with whole float ends on a rule that holds whole numbers (every whole value
    between them), ``listed`` with more values or words; each end is checked by the rules (a
    value outside the rule's limits is one line)."""
    if isinstance(bounds, np.ndarray):
        bounds = bounds.tolist()
    if isinstance(bounds, (str, bytes)) or not isinstance(bounds, Sequence) or len(bounds) < 2:
        raise OptionError(f"bounds={bounds!r} is invalid: (low, high), or a list of the values to try")
    values = [x.item() if isinstance(x, np.generic) else x for x in bounds]
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values)
    kind = "listed"
    if numbers and len(values) == 2:
        kind = "integer" if all(isinstance(x, int) for x in values) else "continuous"
        if not values[0] < values[1]:
            raise OptionError(f"bounds={tuple(values)!r} is invalid: the low end first, below the high end")
        if kind == "continuous" and _whole_rule(v, parameter):
            if not all(float(x).is_integer() for x in values):
                raise OptionError(f"bounds={tuple(values)!r} is invalid: {str(parameter).strip()} is a whole "
                                  f"number, searched value by value: give whole ends, e.g. "
                                  f"({math.ceil(values[0])}, {math.floor(values[1])})")
            kind, values = "integer", [int(x) for x in values]
    try:
        sweep_variants(v, parameter, values)  # each end checked by the rules, each value once
    except OptionError as error:
        if "parameter=" in str(error) or "give each value once" in str(error):
            raise
        raise OptionError(f"bounds={tuple(values)!r} are outside the rule's limits: {error}") from None
    key = game_of(v).key_name(parameter)
    if kind == "integer":
        values = list(range(values[0], values[1] + 1))
    return key, kind, values


def _whole_rule(v: AnyVariant, parameter: Any) -> bool:
    """Whether the rule holds whole numbers; an unknown key is left to the sweep's own line."""
    try:
        return holds_whole_numbers(v, str(parameter))
    except OptionError:
        return False


def strategy_relevant(v: AnyVariant, parameter: str, values: Sequence[Any]) -> bool:
    """Whether the parameter can move how hands are played, as the game says
    (:attr:`~cpstats.simulation.games.GameRuns.strategy_relevant`: a 13-card variant's ev tables
    are keyed by :func:`~cpstats.strategies.row_tables.strategy_rules`; an open-face charge is
    levied after play)."""
    return runs_of(v).strategy_relevant(v, parameter, values)


# -- the search -----------------------------------------------------------------------------------

def _unreachable(ev: _Evaluator, target: float, values: Sequence[Any]) -> OptionError:
    ends = [ev(values[0]), ev(values[-1])]
    shown = " to ".join(f"{e.estimate:.6g} ({e.ci_low:.6g} to {e.ci_high:.6g}) at {ev.parameter}={e.value}"
                        for e in ends)
    near = min(ends, key=lambda e: abs(e.estimate - target))
    told = ""
    if near.ci_low <= target <= near.ci_high:
        told = (f"; its interval at {ev.parameter}={near.value} holds the target, so about "
                f"{_deals_to_clear(ev, near, target):,} {_unit(ev.v)} an evaluation would tell")
    return OptionError(f"target={target:g} cannot be reached for {ev.metric} with {ev.parameter} in "
                       f"[{values[0]}, {values[-1]}]: it runs from {shown}{told}")


class _Close(Exception):
    """The root finder is close enough: the curve is within a sliver of the band of the target."""


def _root(ev: _Evaluator, lo: float, hi: float, target: float, max_evaluations: int) -> tuple[float, str]:
    """(the run's root, how it was found) of the figure less the target, bracketed by the bounds:
    Brent's method (secant steps, bisection when they stall) on the common deals' curve, stopped
    once the figure is within :data:`ROOT_TOLERANCE` of its band's half-width of the target."""
    from scipy.optimize import brentq

    a, b = ev(lo), ev(hi)
    fa, fb = a.estimate - target, b.estimate - target
    if fa == 0 or fb == 0:
        return (lo if fa == 0 else hi), "a bound meets the target"
    if np.sign(fa) == np.sign(fb):
        raise _unreachable(ev, target, [lo, hi])
    used = [2, None]

    def gap(x: float) -> float:
        e = ev(float(x))
        f = e.estimate - target
        if x in (lo, hi):
            return f
        used[0] += 1
        used[1] = float(x)
        if abs(f) <= max(ROOT_TOLERANCE * (e.ci_high - e.ci_low) / 2, 1e-12 * max(abs(target), 1e-12)) \
                or used[0] >= max_evaluations:
            raise _Close
        return f

    try:
        x = float(brentq(gap, lo, hi, xtol=1e-12 * (hi - lo), maxiter=max_evaluations))
    except (_Close, RuntimeError):
        x = used[1]
    f = ev(x).estimate - target
    if used[0] == 3 and abs(f) <= 1e-9 * max(abs(target), 1e-9):
        return x, "linear on common deals: two points solve it (confirmed at the root)"
    stopped = "" if abs(f) <= ROOT_TOLERANCE * (ev(x).ci_high - ev(x).ci_low) / 2 else ", stopped at the cap"
    return x, f"Brent's method on common deals ({used[0]} evaluations{stopped})"


def invert_band(frame: pd.DataFrame, target: float) -> tuple[float, float]:
    """The parameter values whose band (``ci_low`` to ``ci_high``, linearly interpolated between the
    evaluated values) holds ``target``: (low end, high end), clipped at the values evaluated."""
    f = frame.sort_values("value")
    x, est = f["value"].to_numpy(float), f["estimate"].to_numpy(float)
    low, high = f["ci_low"].to_numpy(float), f["ci_high"].to_numpy(float)
    if est[-1] < est[0]:  # a falling curve: mirror it so the band rises
        est, low, high, target = -est, -high, -low, -target

    def first_crossing(y: np.ndarray, fallback: float) -> float:
        above = np.flatnonzero(y >= target)
        if not len(above):
            return fallback
        i = int(above[0])
        if i == 0:
            return float(x[0])
        return float(x[i - 1] + (target - y[i - 1]) * (x[i] - x[i - 1]) / (y[i] - y[i - 1]))

    return first_crossing(high, float(x[0])), first_crossing(low, float(x[-1]))


def _solve_continuous(ev: _Evaluator, lo: float, hi: float, target: float, max_evaluations: int) -> dict:
    root, method = _root(ev, lo, hi, target, max_evaluations)
    frame = ev.frame()
    near = frame.iloc[(frame["value"] - root).abs().argsort()[:3]]
    slope = np.polyfit(near["value"], near["estimate"], 1)[0] if len(near) > 1 else np.nan
    at = ev(root)
    half = (at.ci_high - at.ci_low) / 2
    if np.isfinite(slope) and slope != 0:  # the band's ends, so the interpolation is near them
        for end in (root - half / abs(slope), root + half / abs(slope)):
            ev(float(np.clip(end, lo, hi)))
    low, high = invert_band(ev.frame(), target)
    note = ""
    if low <= lo or high >= hi:
        note = "the interval reaches a bound: widen the bounds or play more deals"
    return {"value": root, "ci_low": low, "ci_high": high, "method": method, "ties": (), "note": note,
            "certified": not note}


def _first(ev: _Evaluator, order: list, test: Callable[[Evaluation], bool]) -> int:
    """Index in ``order`` of the first value passing ``test`` (a monotone test: it fails, then
    holds), by bisection; ``len(order)`` when the last value fails too."""
    if not test(ev(order[-1])):
        return len(order)
    fail, hold = -1, len(order) - 1
    while hold - fail > 1:
        mid = (fail + hold) // 2
        fail, hold = (fail, mid) if test(ev(order[mid])) else (mid, hold)
    return hold


def _unit(v: AnyVariant) -> str:
    return game_of(v).unit


def _deals_to_clear(ev: _Evaluator, e: Evaluation, target: float) -> int:
    """About how many deals an evaluation would make ``e``'s interval clear ``target`` (the
    half-width falls as one over the root of the deals; the estimate taken as it is)."""
    gap = abs(e.estimate - target)
    half = (e.ci_high - e.ci_low) / 2
    needed = ev.deals * (half / gap) ** 2 if gap > 0 else np.inf
    return int(float(f"{needed:.2g}")) if np.isfinite(needed) else 0


def _solve_listed(ev: _Evaluator, values: list, target: float, direction: str) -> dict:
    """The boundary value of the region meeting the target on a monotone figure: the run's own
    crossing (the first value whose estimate meets it) and, as its interval, the values from the
    first whose band holds the target to the first whose band clears it (three bisections)."""
    first, last = ev(values[0]), ev(values[-1])
    rising = last.estimate >= first.estimate
    at_least = direction == "at_least"
    order = values if rising == at_least else values[::-1]  # the meeting region is at the end
    sign = 1 if at_least else -1
    point = _first(ev, order, lambda e: sign * (e.estimate - target) >= 0)
    if point == len(order):
        raise _unreachable(ev, target, values)
    sure = _first(ev, order, lambda e: sign * ((e.ci_low if at_least else e.ci_high) - target) >= 0)
    maybe = _first(ev, order[: point + 1], lambda e: sign * ((e.ci_high if at_least else e.ci_low) - target) >= 0)
    certified = sure < len(order)
    span = sorted(order[maybe: min(sure, len(order) - 1) + 1], key=values.index)
    which = "smallest" if order is values else "largest"
    value = order[point]
    if certified:
        note = (f"{value} is the {which} value whose estimate meets the target; the long-run boundary "
                f"lies in {span[0]}..{span[-1]} ({ev.level:.0%}), {order[sure]} the {which} whose interval "
                f"clears it")
    else:
        end = ev(order[-1])
        note = (f"not certified: the estimate meets the target at {value}, but no value up to {order[-1]} "
                f"has an interval clearing it at this budget; about {_deals_to_clear(ev, end, target):,} "
                f"{_unit(ev.v)} an evaluation would clear it at {order[-1]}")
    return {"value": value, "ci_low": span[0], "ci_high": span[-1],
            "method": f"bisection on a monotone figure ({which} value whose estimate meets the target; "
                      f"interval from the bands)",
            "ties": tuple(x for x in span if x != value), "note": note, "certified": certified}


# -- the public function --------------------------------------------------------------------------

def solve(variant: AnyVariant | str, parameter: str, metric: str, target: float, *, bounds: Sequence[Any],
          deals: int | None = None, rng=None, setter: Any = None, executor: Executor | None = None,
          confidence: float = 0.95, direction: str = "at_least", precision: float | None = None,
          max_evaluations: int = _MAX_EVALUATIONS,
          on_evaluation: Callable[[dict], None] | None = None) -> Solution:
    """The value of ``parameter`` at which ``metric`` reaches ``target``, with an interval on it.

    Parameters
    ----------
    variant
        A variant of either game (a preset name, variant string or file).
    parameter
        A key of the variant string: ``bank.commission``, ``rake.percent``, ``royalties.front_trips``;
        open face ``royalties.front.QQ``, ``fantasyland.cards``...
    metric, target
        A figure of the game's tidy figures (:func:`figure_table`: ``house_edge``, ``sd``,
        ``rake_share``, ``house_take_per_seat_hour``, ``royalty_per_hand``; open face ``royalty``,
        ``fl_entry_rate``, ``foul_rate``...) and the value it should take.
    bounds
        ``(low, high)``: floats for a continuous parameter, ints for an integer one (float ends
        on a rule that holds whole numbers, such as ``players``, are searched as integers and
        must be whole); or a list of the values to try (a listed parameter, in the order the
        figure moves).
    deals
        Deals (open face: hands) per evaluation, every candidate on the same ones, exactly that
        many. None is the game's default: a game with a designer precision
        (:class:`~cpstats.simulation.games.Precision`; open face: Fantasyland entry and foul rates
        within +-0.5 points, royalties a board within +-0.1, 95%) plays the hands the first bound
        needs to reach it (sequential, at most the precision's cap a run; :attr:`Solution.precision`
        says what was reached), another game :class:`~cpstats.simulation.games.RunSizes` ``solve``
        (13-card 20,000 deals); with ``precision``, the deals the first bound needs for the
        figure's half-width to be at most ``precision`` (at most 16x ``solve``, or the cap).
    rng
        Seed, SeedSequence or Generator: one root for every candidate.
    setter
        Who sets the hands, a name or setter object as :func:`cpstats.simulate` takes (``ev``: tables
        for each candidate's rules, trained once and cached); None is the game's setter for bulk runs
        (13-card ``ev``, open face ``fast``, ``rollout`` under the classic deal). Every candidate is
        played by the same play (open face: one setter and one street-model file,
        :func:`~cpstats.ofc.simulation.check_one_play`), or the solve stops in one line.
    executor
        Runs each evaluation's blocks (None: serial); the solution is the same.
    confidence
        Level of every interval.
    direction
        ``at_least`` (``metric >= target``) or ``at_most``: which side an integer or listed
        value's interval must clear.
    max_evaluations
        Cap on the root finder's evaluations (continuous parameters).
    on_evaluation
        Called with each evaluation's row as it finishes (a progress line).

    Examples
    --------
    >>> s = solve("banked", "bank.commission", "house_edge", 0.015, bounds=(0.0, 0.1), deals=3_000,
    ...           setter="greedy", rng=1)
    >>> bool(s.ci_low < s.value < s.ci_high), s.method.split(":")[0]
    (True, 'linear on common deals')
    """
    level = check_confidence(confidence)
    if direction not in ("at_least", "at_most"):
        raise OptionError(f"direction={direction!r} is invalid: at_least (metric >= target) or at_most")
    check_whole("max_evaluations", max_evaluations, 3, "the bounds and one more")
    v = load_variant(variant)
    key, kind, values = check_bounds(v, parameter, bounds)
    name = check_metric(v, metric)
    goal = check_target(v, name, target)
    runs = runs_of(v)
    player = runs.setter(bulk_setter(v, setter), v)
    root = root_seed(rng)
    start = time.perf_counter()
    deals, first = _deals(v.replace(**{key: values[0]}), name, deals, precision, root, player, executor)
    ev = _Evaluator(v, key, name, deals, root, player, executor, level, on_evaluation)
    if first is not None:  # the run that chose the deals is the first bound's evaluation
        ev.record(values[0], first, time.perf_counter() - start)
    if kind == "continuous":
        found = _solve_continuous(ev, float(values[0]), float(values[1]), goal, max_evaluations)
    else:
        found = _solve_listed(ev, values, goal, direction)
    relevant = strategy_relevant(v, key, values)
    return Solution(parameter=key, metric=name, target=goal, direction=direction, kind=kind,
                    base=str(v), variant=str(ev.variant(found["value"])), deals=deals,
                    entropy=str(root.entropy), confidence=level, bounds=tuple(values) if kind == "listed"
                    else (values[0], values[-1]), setter=ev.setters.get(found["value"], str(player)),
                    strategy_relevant=relevant, evaluations=ev.frame(), unit=_unit(v), play=ev.play or "",
                    precision=None if first is None else until_record(first.metadata, _unit(v)), **found)


def _deals(v: AnyVariant, metric: str, deals: int | None, precision: float | None, root, setter,
           executor) -> tuple[int, Any]:
    """(deals per evaluation, the first bound's run when a sequential run chose them): as given,
    the game's designer precision or default, or the deals ``precision`` needs."""
    runs = runs_of(v)
    if deals is not None:
        if precision is not None:
            raise OptionError("deals= and precision= are invalid together: give one budget")
        check_whole("deals", deals, runs.sizes.least, "an interval needs batches")
        return int(deals), None
    p = runs.precision
    if precision is None and p is None:
        return runs.sizes.solve, None
    until, most = (p.targets, p.most) if precision is None else ({metric: precision}, 16 * runs.sizes.solve)
    pilot = None
    if p is not None:
        most, pilot = (p.most, p.pilot)
    result = run_until(runs.simulate, v, most, until, rng=root, setter=setter, executor=executor,
                       pilot=min(pilot, most) if pilot else None)
    return int(result.deals), result

