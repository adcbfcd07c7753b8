"""Rules for a target: the rule number that gives a figure its target, with an interval on the answer.

:func:`solve` answers the designer's inverse question ("what commission gives a 1.5% house edge?")
through the game's registered run, so any game's variant works: every candidate value is simulated
on the same deals (one root seed: common random numbers) by the run its game registered
(:class:`~cpstats.engine.games.GameRuns`), and its figure is read from the result's tidy figures
(:func:`~cpstats.engine.lookup.figure_table`, the one place a figure is looked up).

- Decision: a continuous parameter (two float bounds) is solved by root finding on the response
  curve of the common deals (Brent's method from the bounds). On common deals that curve
  is a fixed function of the parameter, so the root finder converges to the run's own root; the
  answer's interval comes from the figure's sampling error, by inverting the pointwise band of the
  curve where it crosses the target (the values whose band holds the target), the band evaluated
  at the interval's two predicted ends so its interpolation is close. To first order this is the
  delta method, ``root +- half-width / slope``.
- Decision: structure is used where it exists: a house charge (commission, fee, rake) does not move
  how hands are set (:func:`cpstats.thirteen.play.row_tables.strategy_rules`), so every candidate is
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
  target``; ``"at_most"``: ``ci_high <= target``); three searches find them
  (:func:`~cpstats.workbench.candidates.search`). On common deals neighbouring values are told
  apart (their paired difference's interval, about a tenth as wide as a level's, excludes 0),
  which fixes the run's own crossing; what the interval carries is the error of the curve's
  common level, which pairing does not remove: about ``1.96 se / slope`` values either side,
  shrinking as one over the root of the deals (docs/measurements.md#coverage_solve measures its
  coverage and exact hits).
- Decision: so a whole-number or listed solve of the default length grows its deals in stages
  (:func:`~cpstats.workbench.candidates.grow`) until the interval holds at most ``width`` values
  (3 by default: the answer +-1, what a designer can act on) and is certified, or an evaluation
  plays ``max_deals``; :attr:`Solution.growth` says which came first. At 20,000 deals a royalty
  solved for an SD target held about 11 values; with ``greedy`` the same solve reaches 2 at
  420,000 deals in about 18 s of CPU. A given ``deals`` or ``precision`` is a fixed budget.
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
from typing import Any

import numpy as np
import pandas as pd

from cpstats.cards.blocks import root_seed
from cpstats.errors import OptionError, check_whole
from cpstats.engine.registry import AnyVariant, game_of, holds_whole_numbers, load_variant
from cpstats.engine.games import runs_of
from cpstats.engine.lookup import check_metric, check_target
from cpstats.engine.sequential import run_until, until_record
from cpstats.engine.solution import Solution
from cpstats.engine.stats import check_confidence
from cpstats.engine.points import sweep_variants
from cpstats.workbench.candidates import Evaluator, grow, search, unit_of, unreachable
from cpstats.workbench.simulate import bulk_setter

__all__ = ["solve", "Solution", "check_metric", "check_bounds", "invert_band"]
#: The root finder stops once the figure is this share of its band's half-width from the target.
ROOT_TOLERANCE = 0.1
#: A whole-number or listed answer's interval holds at most this many values by default.
WIDTH = 3
#: ... or its deals grow to at most this many times the game's ``solve`` deals an evaluation.
GROWTH = 50
_MAX_EVALUATIONS = 10


# -- checks ---------------------------------------------------------------------------------------

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
    (:attr:`~cpstats.engine.games.GameRuns.strategy_relevant`: a 13-card variant's ev tables
    are keyed by :func:`~cpstats.thirteen.play.row_tables.strategy_rules`; an open-face charge is
    levied after play)."""
    return runs_of(v).strategy_relevant(v, parameter, values)


# -- the search -----------------------------------------------------------------------------------



class _Close(Exception):
    """The root finder is close enough: the curve is within a sliver of the band of the target."""


def _root(ev: Evaluator, lo: float, hi: float, target: float, max_evaluations: int) -> tuple[float, str]:
    """(the run's root, how it was found) of the figure less the target, bracketed by the bounds:
    Brent's method (secant steps, bisection when they stall) on the common deals' curve, stopped
    once the figure is within :data:`ROOT_TOLERANCE` of its band's half-width of the target."""
    from scipy.optimize import brentq

    a, b = ev(lo), ev(hi)
    fa, fb = a.estimate - target, b.estimate - target
    if fa == 0 or fb == 0:
        return (lo if fa == 0 else hi), "a bound meets the target"
    if np.sign(fa) == np.sign(fb):
        raise unreachable(ev, target, [lo, hi])
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


def _solve_continuous(ev: Evaluator, lo: float, hi: float, target: float, max_evaluations: int) -> dict:
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




# -- the public function --------------------------------------------------------------------------

def solve(variant: AnyVariant | str, parameter: str, metric: str, target: float, *, bounds: Sequence[Any],
          deals: int | None = None, rng=None, setter: Any = None, executor: Executor | None = None,
          confidence: float = 0.95, direction: str = "at_least", precision: float | None = None,
          max_evaluations: int = _MAX_EVALUATIONS, width: int | None = None, max_deals: int | None = None,
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
        ``rake_share``, ``rake_per_seat_per_hour``, ``royalty_per_hand``; open face ``royalty``,
        ``fl_entry_rate``, ``foul_rate``...) and the value it should take.
    bounds
        ``(low, high)``: floats for a continuous parameter, ints for an integer one (float ends
        on a rule that holds whole numbers, such as ``players``, are searched as integers and
        must be whole); or a list of the values to try (a listed parameter, in the order the
        figure moves).
    deals
        Deals (open face: hands) per evaluation, every candidate on the same ones, exactly that
        many. None is the game's default: a game with a designer precision
        (:class:`~cpstats.engine.games.Precision`; open face: Fantasyland entry and foul rates
        within +-0.5 points, royalties a board within +-0.1, 95%) plays the hands the first bound
        needs to reach it (sequential, at most the precision's cap a run; :attr:`Solution.precision`
        says what was reached), another game :class:`~cpstats.engine.games.RunSizes` ``solve``
        (13-card 20,000 deals); with ``precision``, the deals the first bound needs for the
        figure's half-width to be at most ``precision`` (at most 16x ``solve``, or the cap).
        An integer or listed parameter's default grows (``width``).
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
    width, max_deals
        An integer or listed parameter with neither ``deals`` nor ``precision`` grows its deals in
        stages until the answer's interval holds at most ``width`` values (default
        :data:`WIDTH`, 3: the answer +-1; at least 2) and is certified, or an evaluation plays
        ``max_deals`` (default :data:`GROWTH` times the game's ``solve`` deals, 13-card
        1,000,000; a game with a designer precision, its cap: open face 30,000 hands). Every
        stage plays its candidates on common deals of one seed, the next stage's length from the
        band's ``1/sqrt(deals)`` law, and :attr:`Solution.growth` says which stop came first
        (its ``note``, in :meth:`Solution.sentence` too). With ``greedy`` a 13-card solve of a
        royalty for an SD target reaches +-1 at about 500,000 deals, seconds an evaluation;
        with ``ev`` a strategy-relevant candidate trains its tables once.
    on_evaluation
        Called with each evaluation's row as it finishes (a progress line).

    Examples
    --------
    >>> s = solve("banked(bank.setter=ev)", "bank.commission", "house_edge", 0.015, bounds=(0.0, 0.1), deals=3_000,
    ...           setter="greedy", rng=1)
    >>> bool(s.ci_low < s.value < s.ci_high), s.method.split(":")[0]
    (True, 'linear on common deals')
    """
    level = check_confidence(confidence)
    if direction not in ("at_least", "at_most"):
        raise OptionError(f"direction={direction!r} is invalid: at_least (metric >= target) or at_most")
    check_whole("max_evaluations", max_evaluations, 3, "the bounds and one more")
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float))
                                  or not math.isfinite(precision) or precision <= 0):
        raise OptionError(f"precision={precision!r} is invalid: a half-width above 0, in the figure's units")
    v = load_variant(variant)
    key, kind, values = check_bounds(v, parameter, bounds)
    runs = runs_of(v)
    grows, cap = _growth(runs, key, kind, deals, precision, width, max_deals)
    name = check_metric(v, metric)
    goal = check_target(v, name, target)
    player = runs.setter(bulk_setter(v, setter), v)
    root = root_seed(rng)
    start = time.perf_counter()
    deals, first = _deals(v.replace(**{key: values[0]}), name, deals, precision, root, player, executor, cap)

    def stage(n: int, played: int = 0) -> Evaluator:
        return Evaluator(v, key, name, n, root, player, executor, level, on_evaluation, played)

    ev, growth = stage(deals), None
    if first is not None:  # the run that chose the deals is the first bound's evaluation
        ev.record(values[0], first, time.perf_counter() - start)
    if kind == "continuous":
        found = _solve_continuous(ev, float(values[0]), float(values[1]), goal, max_evaluations)
    elif grows:
        found, ev, growth = grow(stage, ev, values, goal, direction, WIDTH if width is None else width, cap)
    else:
        found = search(ev, values, goal, direction)[0]
    relevant = strategy_relevant(v, key, values)
    return Solution(parameter=key, metric=name, target=goal, direction=direction, kind=kind,
                    base=str(v), variant=str(ev.variant(found["value"])), deals=ev.deals,
                    entropy=str(root.entropy), confidence=level, bounds=tuple(values) if kind == "listed"
                    else (values[0], values[-1]), setter=ev.setters.get(found["value"], str(player)),
                    strategy_relevant=relevant, evaluations=ev.frame(), unit=unit_of(v), play=ev.play or "",
                    precision=None if first is None else until_record(first.metadata, unit_of(v)),
                    growth=growth, **found)


def _growth(runs: Any, key: str, kind: str, deals: int | None, precision: float | None, width: Any,
            max_deals: Any) -> tuple[bool, int | None]:
    """(whether the solve grows its deals, the most an evaluation plays), each budget checked:
    ``width`` and ``max_deals`` apply to an integer or listed parameter's default length only."""
    given = [f"{k}=" for k, x in (("width", width), ("max_deals", max_deals)) if x is not None]
    if given and kind == "continuous":
        raise OptionError(f"{given[0]} is invalid for {key}: it sizes an integer or listed parameter's "
                          f"interval, and {key} is continuous (give deals= or precision=)")
    if given and (deals is not None or precision is not None):
        fixed = "deals=" if deals is not None else "precision="
        raise OptionError(f"{given[0]} and {fixed} are invalid together: {fixed} sets the deals, "
                          f"{given[0]} grows them (give one budget)")
    if width is not None:
        check_whole("width", width, 2, "the values the answer's interval may hold; one alone no length "
                    "of run can promise")
    if max_deals is not None:
        check_whole("max_deals", max_deals, runs.sizes.least, "an interval needs batches")
    if kind == "continuous" or deals is not None or precision is not None:
        return False, None
    default = runs.precision.most if runs.precision is not None else GROWTH * runs.sizes.solve
    return True, int(default if max_deals is None else max_deals)


def _deals(v: AnyVariant, metric: str, deals: int | None, precision: float | None, root, setter,
           executor, cap: int | None = None) -> tuple[int, Any]:
    """(deals per evaluation, the first bound's run when a sequential run chose them): as given,
    the game's designer precision or default, or the deals ``precision`` needs; at most ``cap``
    (a grown solve's first stage)."""
    runs = runs_of(v)
    if deals is not None:
        if precision is not None:
            raise OptionError("deals= and precision= are invalid together: give one budget")
        check_whole("deals", deals, runs.sizes.least, "an interval needs batches")
        return int(deals), None
    p = runs.precision
    if precision is None and p is None:
        return min(runs.sizes.solve, cap or runs.sizes.solve), None
    until, most = (p.targets, p.most) if precision is None else ({metric: precision}, 16 * runs.sizes.solve)
    pilot = None
    if p is not None:
        most, pilot = (min(p.most, cap or p.most), p.pilot)
    result = run_until(runs.simulate, v, most, until, rng=root, setter=setter, executor=executor,
                       pilot=min(pilot, most) if pilot else None)
    return int(result.deals), result

