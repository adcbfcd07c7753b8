"""The PAR sheet's "How this rule was chosen" section for a solved variant (``par_sheet(...,
solution=cpstats.solve(...))``): the question, the answer with its interval, the deals and who set
the hands, and the response curve as a table (each candidate's figure with its band)."""

from __future__ import annotations

from typing import Any

from cpstats.errors import OptionError

__all__ = ["solution_section"]


def solution_section(solution: Any, variant: Any) -> tuple[str, list[str], tuple[str, str, Any]]:
    """(title, paragraphs, (table key, caption, table)) of the section for ``solution`` (a
    :class:`~cpstats.engine.solution.Solution` whose answer is ``variant``), which
    :func:`cpstats.apps.par.par_sheet` makes a section; a solution of another variant is one line."""
    if solution.variant != str(variant):
        raise OptionError(f"solution is of {solution.variant}, not of {variant}: pass the solve that chose "
                          f"this sheet's rule")
    s = solution
    sign = {"at_least": "at least", "at_most": "at most"}[s.direction] if s.kind != "continuous" else ""
    if s.kind == "continuous":
        answer = f"{s.value:.4g} ({s.confidence:.0%} interval {s.ci_low:.4g} to {s.ci_high:.4g})"
    else:
        answer = f"{s.value} ({s.confidence:.0%} interval {s.ci_low} to {s.ci_high})"
    paragraphs = [
        f"{s.parameter} was solved so that {s.metric} is {sign + ' ' if sign else ''}{s.target:g}, "
        f"starting from {s.base} with {s.parameter} between {s.bounds[0]} and {s.bounds[-1]}.",
        f"Answer: {s.parameter} = {answer}. Method: {s.method}.",
        f"Every candidate played the same {s.deals:,} deals (seed {s.entropy}); hands set by {s.setter}"
        + (f". {s.note}." if s.note else "."),
    ]
    curve = s.evaluations.sort_values("value")[["value", "estimate", "ci_low", "ci_high"]]
    curve = curve.rename(columns={"value": s.parameter, "estimate": s.metric})
    caption = f"{s.metric} at each candidate {s.parameter} (target {s.target:g})"
    return "How this rule was chosen", paragraphs, ("solution_curve", caption, curve.reset_index(drop=True))
