"""A solved rule number (:func:`cpstats.solve`): the answer, its interval and the evaluations behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["Solution"]


@dataclass(frozen=True)
class Solution:
    """The value of ``parameter`` at which ``metric`` meets ``target``.

    ``value`` is the answer, the run's own crossing of the target on its common deals, and
    ``ci_low`` to ``ci_high`` its interval: the values whose band holds the target (integer or
    listed: from the first whose band holds it to the first whose band clears it; ``ties`` are
    the values in it other than the answer, any of which may be the long-run boundary at this
    budget). ``certified`` is False when the interval reaches a bound: no value inside the
    bounds is known at this level to meet the target (``note`` says about how many deals would
    tell). ``evaluations`` holds every candidate played, in order (``value, estimate, ci_low,
    ci_high, method, variant, setter, play, deals, seconds``), all on the same ``deals`` (seed
    ``entropy``; a grown solve's last stage); ``variant`` is the variant string at the answer and ``setter`` who set its
    hands (for ``ev``, the tables and where they came from); ``unit`` what the game's runs count
    (deals; open face: hands). ``play`` is the one play every candidate shared (open face: the
    setter and its street models; empty for a game without one), and ``precision`` what a
    default-length solve reached at the first bound
    (:func:`~cpstats.engine.sequential.until_record`; None when the deals were given).
    ``growth`` says how an integer or listed solve of the default length grew its deals: the
    ``width`` asked (values in the interval), ``max_deals``, whether the width was ``reached``
    (False: the cap came first), the ``deals`` and ``values`` at the stop, each stage's
    ``deals, ci_low, ci_high, values, certified, evaluations``, and a ``note`` in words (None
    when the deals were given or the parameter is continuous).
    """

    parameter: str
    metric: str
    target: float
    direction: str
    kind: str
    value: Any
    ci_low: Any
    ci_high: Any
    method: str
    base: str
    variant: str
    deals: int
    entropy: str
    confidence: float
    bounds: tuple
    setter: str
    strategy_relevant: bool
    evaluations: pd.DataFrame = field(repr=False)
    ties: tuple = ()
    note: str = ""
    certified: bool = True
    unit: str = "deals"
    play: str = ""
    precision: dict | None = None
    growth: dict | None = None

    def to_frame(self) -> pd.DataFrame:
        """The answer as one row (``parameter, metric, target, value, ci_low, ci_high, ...``)."""
        row = {k: getattr(self, k) for k in ("parameter", "metric", "target", "direction", "value", "ci_low",
                                             "ci_high", "kind", "method", "deals", "entropy", "confidence",
                                             "setter", "play", "base", "variant", "certified", "note")}
        row["ties"] = ", ".join(map(str, self.ties))
        row["growth"] = self.growth["note"] if self.growth else ""
        row["evaluations"] = len(self.evaluations)
        return pd.DataFrame([row])

    def sentence(self) -> str:
        """One sentence: the answer with its interval, the budget and who set the hands."""
        unit = self.unit
        if self.kind == "continuous":
            answer = (f"{self.parameter} = {self.value:.4g} ({self.confidence:.0%} CI {self.ci_low:.4g} "
                      f"to {self.ci_high:.4g})")
        else:
            answer = f"{self.parameter} = {self.value} ({self.confidence:.0%} CI {self.ci_low} to {self.ci_high})"
        if not self.certified:
            answer = f"{answer}, not certified,"
        if self.kind == "continuous":
            claim = f"gives {self.metric} = {self.target:g}"
        else:
            claim = f"is the boundary of {self.metric} {'>=' if self.direction == 'at_least' else '<='} {self.target:g}"
        return (f"{answer} {claim} on {self.base}: "
                f"{len(self.evaluations)} evaluations of {self.deals:,} common {unit}, set by "
                f"{self.setter}" + (f" (one play: {self.play})" if self.play else "") + f"; {self.method}"
                + (f"; {self.growth['note']}" if self.growth else ""))

    def plot(self, ax=None):
        """The response curve with its band, the target and the answer's interval; returns the Axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 4))
        frame = self.evaluations
        numeric = self.kind != "listed"
        f = frame.sort_values("value") if numeric else frame.set_index("value").loc[list(
            v for v in self.bounds if v in set(frame["value"]))].reset_index()
        x = f["value"] if numeric else range(len(f))
        ax.fill_between(x, f["ci_low"], f["ci_high"], alpha=0.25, label=f"{self.confidence:.0%} band")
        ax.plot(x, f["estimate"], "o-", label=self.metric)
        ax.axhline(self.target, color="k", lw=0.8, ls="--", label=f"target {self.target:g}")
        if numeric:
            ax.axvspan(self.ci_low, self.ci_high, color="C3", alpha=0.15, label="answer's interval")
            ax.axvline(self.value, color="C3", lw=1)
        else:
            ax.set_xticks(list(x), [str(v) for v in f["value"]])
        ax.set_xlabel(self.parameter)
        ax.set_ylabel(self.metric)
        from cpstats.engine.describe import short_label

        ax.set_title(f"{short_label(self.variant)} (the answer): {self.parameter} for {self.metric} "
                     f"{self.target:g}", fontsize=9)
        ax.legend(fontsize=8)
        return ax
