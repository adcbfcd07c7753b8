"""Sequential precision: play a run until a figure's interval is as narrow as asked (``simulate(v, deals,
until={"house_edge": 0.0005})``), ``deals`` then the most it may play: a loop of the engine over a
game's registered run (:attr:`~cpstats.engine.games.GameRuns.simulate`), never a re-entry of
the verb.

- Decision: the run grows in stages, each a fixed-deals run of the same root seed, so the blocks
  are the seed's one stream (block i of every stage holds the same decks) and the run that stops
  is exactly the fixed-deals run of its length: same summary, same figures, same batches. The
  price is that a stage plays the deals of the stage before again; the next stage's length is
  predicted from the half-width's ``1/sqrt(deals)`` law (10% over, at least 1.5x the last), so
  the stages add up to about half the final run in all.
- Decision: the half-width is that of the figure's interval in the result's tidy figures
  (:func:`~cpstats.engine.lookup.figure_table`, at 95% unless ``confidence`` says otherwise);
  the run stops when every figure named is within its value, or at ``deals``.
  ``metadata["until"]`` records the figures asked, each stage's length and half-widths, and
  whether the precision was reached; :func:`until_record` puts that in words for an output (the
  command line says it on stderr too when ``deals`` came first). Stopping on the data's own noise
  makes the interval a little less sure than its level says; the opt-in coverage test measures it.
- Decision: a half-width no run can reach is refused in one line after the first stage (how
  narrow a figure can get depends on its spread, which only a run measures): when the
  ``1/sqrt(deals)`` law puts it beyond :data:`~cpstats.cards.blocks.MAX_DEALS`, the line names
  the ``until`` entry and the narrowest half-width that many deals would give. A half-width
  that is reachable but beyond ``deals`` stops at ``deals`` and says so.
- Decision: a sweep grows as one (:func:`sweep_until`): every point plays the same deals at every
  stage, so the points stay paired on common deals, and the stage's deals a point follow the same
  law from the widest of every point's estimate and every paired difference to the first point
  (a difference with no interval, resting on too few differing deals, is left out: its note says
  so). A designer reads both the levels and what the rule moves; on common deals the difference
  is usually the narrower, so the levels set the length and the differences come with it, and a
  sweep of a charge (whose differences in play are exactly 0) still gets its levels right.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from cpstats.cards.blocks import MAX_DEALS, root_seed
from cpstats.errors import OptionError, check_whole
from cpstats.engine.registry import game_of
from cpstats.engine.games import runs_of

__all__ = ["run_until", "sweep_until", "check_until", "until_record"]


def check_until(v: Any, until: Any) -> dict[str, float]:
    """``until`` as ``{figure: half-width}``, each figure a name of the game's figures and each
    width above 0; a text ``house_edge=0.0005,sd=0.01`` is read too (the command line's)."""
    from cpstats.engine.lookup import check_metric

    if isinstance(until, str):
        pairs = [item.partition("=") for item in until.split(",") if item.strip()]
        if not pairs or any(not sep for _, sep, _ in pairs):
            raise OptionError(f"until={until!r} is invalid: FIGURE=HALF_WIDTH pairs such as sd=0.01")
        keys = [k.strip() for k, _, _ in pairs]
        twice = next((k for k in keys if keys.count(k) > 1), None)
        if twice is not None:
            raise OptionError(f"until={until!r} is invalid: {twice} is given twice: give each figure once")
        try:
            until = {k.strip(): float(x) for k, _, x in pairs}
        except ValueError:
            raise OptionError(f"until={until!r} is invalid: each half-width a number, e.g. sd=0.01") from None
    if not isinstance(until, Mapping) or not until:
        raise OptionError(f"until={until!r} is invalid: a dict of figure to half-width, e.g. {{'sd': 0.01}}")
    out = {}
    for name, width in until.items():
        ok = isinstance(width, (int, float, np.number)) and not isinstance(width, bool)
        if not ok or not math.isfinite(width) or width <= 0:
            raise OptionError(f"until[{name!r}]={width!r} is invalid: a half-width above 0")
        metric = check_metric(v, str(name))
        if metric in out:
            raise OptionError(f"until={dict(until)!r} is invalid: two names of one figure, {metric}: give it once")
        out[metric] = float(width)
    return out


def _half_widths(result: Any, until: dict[str, float], confidence: float) -> dict[str, float]:
    from cpstats.engine.lookup import figure_table

    table = figure_table(result, confidence).set_index("metric")
    return {m: float(table.at[m, "ci_high"] - table.at[m, "ci_low"]) / 2 for m in until}


def _factor(half: float, wanted: float) -> float:
    """``(half / wanted) ** 2``, the deals' factor still needed (inf past a float's range)."""
    ratio = half / wanted
    return ratio * ratio if ratio < 1e150 else math.inf


def _ratio(half: Mapping[str, float], wanted: Mapping[str, float]) -> float:
    """How far the widest figure is from its half-width, squared (the deals' factor still needed;
    an undefined half-width counts as twice too wide)."""
    return max(_factor(half[m], wanted[m]) if np.isfinite(half[m]) else 4.0 for m in wanted)


def _check_reachable(half: Mapping[str, float], wanted: Mapping[str, float], n: int, unit: str) -> None:
    """One line when a figure's half-width at ``n`` deals, by the ``1/sqrt(deals)`` law, needs
    more than :data:`~cpstats.cards.blocks.MAX_DEALS` to reach its value (module docstring)."""
    for m, w in wanted.items():
        if np.isfinite(half[m]) and n * _factor(half[m], w) > MAX_DEALS:
            least = half[m] * math.sqrt(n / MAX_DEALS)
            raise OptionError(f"until[{m!r}]={w:g} is invalid: no run reaches it ({m}'s half-width is "
                              f"{half[m]:.3g} at {n:,} {unit}; {MAX_DEALS:,} {unit}, the most a run plays, would "
                              f"narrow it to about {float(f'{least:.2g}'):g}): give a half-width of at least that")


def _next_stage(n: int, ratio: float, deals: int) -> int:
    """The next stage's deals: the ``1/sqrt(deals)`` law's prediction 10% over, at least 1.5x the
    last, at most ``deals``."""
    return int(min(deals, max(math.ceil(min(1.1 * n * ratio, deals)), math.ceil(1.5 * n))))


def _first_stage(v: Any, deals: int, pilot: int | None) -> int:
    check_whole("deals", deals, 2)
    if pilot is not None:
        check_whole("pilot", pilot, 2)
    return min(int(deals), runs_of(v).sizes.pilot if pilot is None else int(pilot))


def run_until(simulate: Callable[..., Any], v: Any, deals: int, until: Any, *, rng=None,
              confidence: float = 0.95, pilot: int | None = None, **options: Any) -> Any:
    """Stages of ``simulate(v, n, rng=root, **options)`` (a game's registered run, its setter
    already resolved) until every figure of ``until`` has a half-width at most its value, or
    ``n`` is ``deals`` (module docstring). The first stage is ``pilot`` deals (None: the game's
    pilot length, :class:`~cpstats.engine.games.RunSizes`), unless ``deals`` is smaller."""
    n = _first_stage(v, deals, pilot)
    if options.get("out") is not None:
        raise OptionError("until= and out= are invalid together: a run that grows in stages keeps no folder")
    wanted = check_until(v, until)
    root = root_seed(rng)
    stages = []
    while True:
        result = simulate(v, n, rng=root, **options)
        half = _half_widths(result, wanted, confidence)
        _check_reachable(half, wanted, n, game_of(v).unit)
        stages.append({"deals": n, "half_widths": half})
        ratio = _ratio(half, wanted)
        if ratio <= 1 or n >= deals:
            break
        n = _next_stage(n, ratio, deals)
    result.metadata["until"] = {"figures": wanted, "confidence": confidence, "stages": stages,
                                "reached": bool(ratio <= 1), "max_deals": int(deals)}
    return result


def _sweep_half_widths(table: Any, wanted: Mapping[str, float]) -> dict[str, float]:
    """Each figure's widest half-width in a sweep table: every point's estimate and every paired
    difference to the first point that has an interval (module docstring)."""
    out = {}
    for m in wanted:
        rows = table[table["metric"] == m]
        level = ((rows["ci_high"] - rows["ci_low"]) / 2).to_numpy(float)
        diff = ((rows["diff_ci_high"] - rows["diff_ci_low"]) / 2).to_numpy(float)[1:]
        widths = np.concatenate([level, diff[np.isfinite(diff)]])
        out[m] = float(widths.max()) if len(level) and np.isfinite(level).all() else float("nan")
    return out


def sweep_until(sweep: Callable[..., Any], v: Any, parameter: str, values: Sequence[Any], deals: int,
                until: Mapping[str, float], *, rng=None, confidence: float = 0.95,
                metrics: Sequence[str] | None = None, pilot: int | None = None, **options: Any) -> Any:
    """Stages of a whole sweep, ``sweep(v, parameter, values, deals=n, rng=root, ...)`` (a game's
    sweep, every point on the same ``n`` deals), until every figure of ``until`` is within its
    half-width at every point and in every paired difference that has an interval, or ``n`` is
    ``deals`` (module docstring). ``metrics`` None is the sweep's defaults; given, the figures of
    ``until`` are played too and the table keeps only ``metrics``. ``attrs["until"]`` is the
    record :func:`until_record` reads (``of``: what the half-widths are of)."""
    n = _first_stage(v, deals, pilot)
    wanted = {str(m): float(w) for m, w in until.items()}
    played = None if metrics is None else list(dict.fromkeys([*metrics, *wanted]))
    root = root_seed(rng)
    stages = []
    while True:
        table = sweep(v, parameter, values, deals=n, rng=root, confidence=confidence, metrics=played, **options)
        chosen = {m: w for m, w in wanted.items() if (table["metric"] == m).any()}
        if not chosen:
            raise OptionError(f"the sweep's figures hold none of {', '.join(wanted)}: name one in metrics=")
        half = _sweep_half_widths(table, chosen)
        _check_reachable(half, chosen, n, game_of(v).unit)
        stages.append({"deals": n, "half_widths": half})
        ratio = _ratio(half, chosen)
        if ratio <= 1 or n >= deals:
            break
        n = _next_stage(n, ratio, deals)
    if metrics is not None:
        kept = table[table["metric"].isin(list(metrics))].reset_index(drop=True)
        kept.attrs.update(table.attrs)
        table = kept
    table.attrs["until"] = {"figures": chosen, "confidence": confidence, "stages": stages,
                            "reached": bool(ratio <= 1), "max_deals": int(deals),
                            "of": "every point's estimate and paired difference to the first"}
    return table


def until_record(metadata: Mapping[str, Any], unit: str = "deals") -> dict[str, Any] | None:
    """What a sequential run's output says of its stop (None for a fixed-deals run): the figures
    asked, the last half-widths, ``reached``, the deals played and the most allowed, and a
    ``note`` in words counting ``unit`` (open face: hands); a precision not reached says about how
    many would reach it (the half-width's ``1/sqrt(deals)`` law, two digits: a guess, not a
    promise)."""
    until = metadata.get("until")
    if not until:
        return None
    last = until["stages"][-1]
    deals, half, wanted = int(last["deals"]), last["half_widths"], until["figures"]
    asked = ",".join(f"{m}={w:g}" for m, w in wanted.items())
    level = f"{until.get('confidence', 0.95):.0%}"
    widths = ", ".join(f"{m} {half[m]:.4g}" if np.isfinite(half[m]) else f"{m} none yet (too few for an interval)"
                       for m in wanted)
    if until["reached"]:
        note = f"until {asked} reached at {deals:,} {unit} ({level} half-width {widths})"
    else:
        factors = [_factor(half[m], wanted[m]) if np.isfinite(half[m]) else math.nan for m in wanted]
        ratio = math.nan if any(map(math.isnan, factors)) else max(factors)
        guess = (f"; about {float(f'{deals * ratio:.2g}'):,.0f} {unit} would reach it" if np.isfinite(ratio)
                 else "; too few to guess how many would")
        note = (f"until {asked} not reached: stopped at the most {unit} allowed, {deals:,}, with "
                f"{level} half-width {widths}{guess}")
    return {"figures": dict(wanted), "half_widths": {m: (float(half[m]) if np.isfinite(half[m]) else None)
                                                    for m in wanted},
            "reached": bool(until["reached"]), "deals": deals, "max_deals": int(until["max_deals"]),
            "note": note}
