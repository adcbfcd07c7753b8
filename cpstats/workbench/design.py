"""Several rule numbers at once: :func:`design` maximises (or minimises) one figure subject to bounds on
others, e.g. the SD subject to a rake share at most 10% and a house edge between 1.4% and 1.6%.

- Decision: the search is optuna's TPE sampler with its constraints. optuna is well kept (frequent
  releases, a stable API), takes a mixed space of floats, integers and listed choices in one
  study, handles constraints without a penalty we would have to tune, and its sampler is seeded,
  so a design repeats from its ``rng``. Bayesian optimisation with a Gaussian process
  (scikit-optimize, unmaintained) or scipy's optimisers (continuous only, no constraints on noisy
  figures) fit worse.
- Decision: every trial plays the same deals (one root seed: common random numbers), so trials
  differ by their rules, not their luck; the best feasible trials (``finalists``) are then played
  again on fresh deals (a seed drawn from the root) and the winner is the best of them there, so
  the winner is not a lucky draw of the common deals.
- Decision: a trial is feasible when every constrained figure's estimate is within its bounds;
  the Pareto table lists the feasible trials that no other feasible trial beats on the objective
  and on every one-sided constraint at once (a bound above only: lower is better; below only:
  higher is better), each figure with its interval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from cpstats.cards.blocks import root_seed
from cpstats.errors import OptionError, check_whole
from cpstats.engine.registry import AnyVariant, load_variant
from cpstats.engine.games import runs_of
from cpstats.engine.lookup import figure_table
from cpstats.engine.stats import check_confidence
from cpstats.workbench.simulate import bulk_setter
from cpstats.workbench.solve import check_bounds, check_metric

__all__ = ["design", "Design"]


@dataclass(frozen=True)
class Design:
    """A design's trials, its finalists on fresh deals, the winner and the Pareto table.

    ``trials``: one row per trial (``trial``, each parameter, ``variant``, each figure's
    ``<metric>``, ``<metric>_ci_low``, ``<metric>_ci_high``, ``feasible``); ``finalists``: the
    same for the best feasible trials played again on fresh deals (``trial`` says which);
    ``best``: the winner's parameters, ``variant`` its variant string; ``play`` the one play
    every trial and finalist shared (open face: the setter and its street models; each row's
    ``play`` column names its own), empty for a game without one.
    """

    objective: str
    maximize: bool
    constraints: dict
    trials: pd.DataFrame
    finalists: pd.DataFrame
    best: dict
    variant: str
    deals: int
    entropy: str
    confidence: float
    setter: str
    note: str = ""
    parameters: tuple = field(default=())
    play: str = ""

    def pareto(self) -> pd.DataFrame:
        """The feasible trials no other feasible trial beats on every goal (module docstring)."""
        feasible = self.trials[self.trials["feasible"]]
        goals = [(self.objective, 1 if self.maximize else -1)]
        for m, (lo, hi) in self.constraints.items():
            if (lo is None) != (hi is None) and m != self.objective:
                goals.append((m, 1 if hi is None else -1))
        values = np.column_stack([feasible[m].to_numpy(float) * s for m, s in goals]) if len(feasible) else None
        keep = []
        for i in range(len(feasible)):
            better = (values >= values[i]).all(axis=1) & (values > values[i]).any(axis=1)
            keep.append(not better.any())
        return feasible[np.array(keep, dtype=bool)].sort_values(self.objective, ascending=not self.maximize)

    def to_frame(self) -> pd.DataFrame:
        """The Pareto table with intervals (:meth:`pareto`), the winner marked in ``best``."""
        table = self.pareto().copy()
        table.insert(1, "best", table["variant"] == self.variant)
        return table.reset_index(drop=True)

    def plot(self, ax=None):
        """The objective against the first constrained figure for every trial, with intervals;
        the Pareto trials joined, the winner starred. Returns the Axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 4))
        other = next((m for m in self.constraints if m != self.objective), None)
        t = self.trials
        for feasible, style in ((False, dict(color="0.6", label="infeasible")), (True, dict(color="C0", label="feasible"))):
            part = t[t["feasible"] == feasible]
            px = part[other] if other else part["trial"]
            ax.errorbar(px, part[self.objective], yerr=[part[self.objective] - part[f"{self.objective}_ci_low"],
                                                        part[f"{self.objective}_ci_high"] - part[self.objective]],
                        fmt="o", ms=4, lw=0.8, **style)
        front = self.pareto()
        if len(front) and other:
            front = front.sort_values(other)
            ax.plot(front[other], front[self.objective], "-", color="C1", label="Pareto front")
        won = t[t["variant"] == self.variant]
        if len(won):
            ax.plot(won[other] if other else won["trial"], won[self.objective], "*", ms=14, color="C3",
                    label="winner (re-run on fresh deals)")
        ax.set_xlabel(other or "trial")
        ax.set_ylabel(self.objective)
        ax.legend(fontsize=8)
        return ax


def _finite(name: str, bounds: Any, hint: str = "") -> None:
    """One line for a bound that is a number but not a finite one (NaN, inf): no search or
    constraint can hold it."""
    ends = list(bounds) if isinstance(bounds, (Sequence, np.ndarray)) and not isinstance(bounds, str) else []
    if any(isinstance(e, (float, np.floating)) and not np.isfinite(e) for e in ends):
        raise OptionError(f"{name}={tuple(ends)!r} is invalid: finite numbers{hint}")


def _once(name: str, key: str, given: str, seen: dict[str, str]) -> str:
    """``key``, refused when an earlier entry ``seen[key]`` names the same one (an alias, another
    case): the second would silently replace the first."""
    if key in seen:
        raise OptionError(f"{name}[{given!r}] and {name}[{seen[key]!r}] are both {key}: give each once")
    seen[key] = given
    return key


def _space(v: AnyVariant, space: Mapping[str, Any]) -> dict[str, tuple[str, list]]:
    if not isinstance(space, Mapping) or not space:
        raise OptionError(f"space={space!r} is invalid: a dict of parameter to (low, high) or a list of values")
    out, seen = {}, {}
    for parameter, bounds in space.items():
        _finite(f"space[{parameter!r}]", bounds)
        key, kind, values = check_bounds(v, parameter, bounds)
        out[_once("space", key, parameter, seen)] = (kind, values)
    return out


def _constraints(v: AnyVariant, constraints: Mapping[str, Any] | None) -> dict[str, tuple]:
    if constraints is not None and not isinstance(constraints, Mapping):
        raise OptionError(f"constraints={constraints!r} is invalid: a dict of figure to (low, high) with None "
                          f"for an open end, e.g. {{'house_edge': (None, 0.02)}}")
    out, seen = {}, {}
    for metric, bounds in (constraints or {}).items():
        ok = isinstance(bounds, Sequence) and not isinstance(bounds, str) and len(bounds) == 2
        lo, hi = bounds if ok else (None, None)
        numbers = all(e is None or (isinstance(e, (int, float, np.number)) and not isinstance(e, bool))
                      for e in (lo, hi))
        if not ok or not numbers or (lo is None and hi is None):
            raise OptionError(f"constraints[{metric!r}]={bounds!r} is invalid: (low, high) with None for "
                              f"an open end, the low end first")
        _finite(f"constraints[{metric!r}]", bounds, " (None for an open end)")
        if lo is not None and hi is not None and lo > hi:
            raise OptionError(f"constraints[{metric!r}]={bounds!r} is invalid: the low end first")
        out[_once("constraints", check_metric(v, metric), metric, seen)] = (lo, hi)
    return out


def _suggest(trial, space: dict[str, tuple[str, list]]) -> dict[str, Any]:
    params = {}
    for key, (kind, values) in space.items():
        if kind == "continuous":
            params[key] = trial.suggest_float(key, float(values[0]), float(values[-1]))
        elif kind == "integer":
            params[key] = trial.suggest_int(key, values[0], values[-1])
        else:
            params[key] = trial.suggest_categorical(key, values)
    return params


class _Plays:
    """The metadata of every run of a design, checked to share one play (the game's ``one_play``)."""

    def __init__(self, v: AnyVariant):
        self.runs, self.metas, self.labels, self.play = runs_of(v), [], [], None

    def add(self, meta: dict, label: str) -> str | None:
        self.metas.append(meta)
        self.labels.append(label)
        self.play = self.runs.one_play(self.metas, self.labels, "this design")
        return self.runs.play_of(meta)


def _play(v: AnyVariant, params: dict, metrics: Sequence[str], deals: int, root, setter, executor,
          level: float, plays: _Plays) -> dict:
    point = v.replace(**params)
    result = runs_of(v).simulate(point, deals, setter=setter, rng=root, executor=executor)
    play = plays.add(result.metadata, str(point))
    table = figure_table(result, level).set_index("metric")
    row = {**params, "variant": str(point), "play": play}
    for m in metrics:
        row[m], row[f"{m}_ci_low"], row[f"{m}_ci_high"] = (float(table.at[m, c]) for c in
                                                            ("estimate", "ci_low", "ci_high"))
    return row


def _violations(row: dict, constraints: dict[str, tuple]) -> dict[str, float]:
    """optuna's constraint values by name (<= 0 where met)."""
    out = {}
    for m, (lo, hi) in constraints.items():
        if lo is not None:
            out[f"{m}_low"] = float(lo - row[m])
        if hi is not None:
            out[f"{m}_high"] = float(row[m] - hi)
    return out


def _feasible(row: dict, constraints: dict[str, tuple]) -> bool:
    return all(c <= 0 for c in _violations(row, constraints).values())


def design(variant: AnyVariant | str, space: Mapping[str, Any], objective: str,
           constraints: Mapping[str, Any] | None = None, *, trials: int = 20, deals: int | None = None,
           rng=None, setter: Any = None, executor: Executor | None = None, confidence: float = 0.95,
           maximize: bool = True, finalists: int = 3,
           on_trial: Callable[[dict], None] | None = None) -> Design:
    """Search ``space`` for the rules that best serve ``objective`` within ``constraints``.

    Parameters
    ----------
    variant
        The variant the rules start from (either game).
    space
        ``{parameter: bounds}``, each as :func:`~cpstats.workbench.solve.solve`'s ``bounds``:
        ``(low, high)`` floats or ints, or a list of values.
    objective, maximize
        The figure to maximise (``maximize=False``: minimise).
    constraints
        ``{figure: (low, high)}``, None for an open end: ``{"rake_share": (None, 0.10),
        "house_edge": (0.014, 0.016)}``.
    trials, deals, rng, setter, executor, confidence
        Trials of the search; deals a trial (every trial on the same deals; None: the game's
        default); the root seed (the sampler's seed and the fresh deals come from it too); who sets the
        hands (the verbs' strategy; None the game's setter for bulk runs, 13-card ``ev``, open face
        ``fast``, ``rollout`` under the classic deal: every trial is played by the same play, or the
        design stops in one line); who runs the blocks; the intervals' level.
    finalists
        How many of the best feasible trials are played again on fresh deals.
    on_trial
        Called with each trial's row as it finishes.

    Examples
    --------
    >>> d = design("banked(bank.setter=ev)", {"bank.commission": (0.0, 0.08)}, "sd",
    ...            {"house_edge": (0.01, 0.02)},
    ...            trials=6, deals=1_000, setter="greedy", rng=1)
    >>> bool(0.01 <= d.finalists.set_index("variant").at[d.variant, "house_edge"] <= 0.02)
    True
    """
    import optuna

    level = check_confidence(confidence)
    check_whole("trials", trials, 2)
    check_whole("finalists", finalists, 1)
    v = load_variant(variant)
    dims = _space(v, space)
    goal = check_metric(v, objective)
    limits = _constraints(v, constraints)
    metrics = list(dict.fromkeys([goal, *limits]))
    root = root_seed(rng)
    deals = int(deals) if deals is not None else runs_of(v).sizes.solve
    setter = bulk_setter(v, setter)
    label, setter = str(setter), runs_of(v).setter(setter, v)
    rows: list[dict] = []
    plays = _Plays(v)

    def run(trial) -> float:
        row = _play(v, _suggest(trial, dims), metrics, deals, root, setter, executor, level, plays)
        row = {"trial": trial.number, **row, "feasible": _feasible(row, limits)}
        for name, value in _violations(row, limits).items():
            trial.set_constraint(name, value)
        rows.append(row)
        if on_trial is not None:
            on_trial(row)
        return row[goal]

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=int(root.generate_state(1)[0]), n_startup_trials=min(5, trials))
    study = optuna.create_study(direction="maximize" if maximize else "minimize", sampler=sampler)
    study.optimize(run, n_trials=int(trials))
    table = pd.DataFrame(rows)
    return _finish(v, table, dims, goal, maximize, limits, metrics, deals, root, setter, executor, level,
                   finalists, label, plays)


def _finish(v, table, dims, goal, maximize, limits, metrics, deals, root, setter, executor, level,
            finalists, label, plays) -> Design:
    """The best feasible trials again on fresh deals; the winner is the best of them there."""
    ranked = table[table["feasible"]].drop_duplicates("variant").sort_values(goal, ascending=not maximize)
    note = ""
    if ranked.empty:
        ranked = table.drop_duplicates("variant").sort_values(goal, ascending=not maximize)
        note = "no trial met every constraint: the finalists are the best trials regardless"
    fresh = np.random.SeedSequence(root.generate_state(4))  # deals apart from the trials' own
    again = []
    for _, row in ranked.head(finalists).iterrows():
        params = {k: (row[k].item() if isinstance(row[k], np.generic) else row[k]) for k in dims}
        replay = _play(v, params, metrics, deals, fresh, setter, executor, level, plays)
        again.append({"trial": int(row["trial"]), **replay,
                      "feasible": _feasible(replay, limits)})
    finals = pd.DataFrame(again)
    pool = finals[finals["feasible"]] if finals["feasible"].any() else finals
    if not finals["feasible"].any() and not note:
        note = "no finalist met every constraint on fresh deals: the winner is the best regardless"
    winner = pool.sort_values(goal, ascending=not maximize).iloc[0]
    return Design(objective=goal, maximize=maximize, constraints=limits, trials=table, finalists=finals,
                  best={k: (winner[k].item() if isinstance(winner[k], np.generic) else winner[k]) for k in dims}, variant=str(winner["variant"]), deals=deals,
                  entropy=str(root.entropy), confidence=level, setter=label, note=note,
                  parameters=tuple(dims), play=plays.play or "")
