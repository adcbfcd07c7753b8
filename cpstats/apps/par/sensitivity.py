"""The PAR sheet's sensitivity section, any game's: rule numbers swept around the variant's own
values, every point on the same deals, the figures with their 95% intervals and each point's paired
difference to the variant's value.

Which numbers a game sweeps by default, and how its points are played, is the game's
(``par_sweeps`` of its :class:`~cpstats.engine.views.GameViews`, and its sheet's builder: the
13-card sheet plays each sweep with :func:`cpstats.sweep`'s game sweep, the open-face sheet reuses
its own run's hands); here the sweeps asked for are checked (:func:`parameters`) and the section
is written (:func:`sensitivity_section`: its words, its table, its charts' names).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from cpstats.apps.labels import baseline_label
from cpstats.engine.points import sweep_variants
from cpstats.engine.sheet import ParSection, ParTable, SheetContent, words
from cpstats.errors import OptionError

__all__ = ["parameters", "sweeps_asked", "sensitivity_section", "sensitivity_table", "moved", "unmoved",
           "unmoved_note"]

_SHARES = ("house_edge",)

Sweeps = list[tuple[str, list]]


def parameters(sensitivity: Any, v: Any) -> Sweeps | None:
    """The sweeps asked for, any game's: None/False none (``[]``), True the game's defaults (None),
    a mapping or a list of (parameter, values) pairs those (each checked against the rules before
    anything runs)."""
    if sensitivity is None or sensitivity is False:
        return []
    if sensitivity is True:
        return None
    pairs = list(sensitivity.items()) if isinstance(sensitivity, Mapping) else sensitivity
    ok = isinstance(pairs, Sequence) and not isinstance(pairs, str) and len(pairs) > 0 and all(
        isinstance(p, Sequence) and not isinstance(p, str) and len(p) == 2 for p in pairs)
    if not ok:
        raise OptionError(f"sensitivity={sensitivity!r} is invalid: True, False, or a dict or list of "
                          "(parameter, values) such as {'scoring.scoop_bonus': [0, 1, 2]}")
    out = [(str(key), list(np.asarray(values).tolist()) if isinstance(values, np.ndarray) else values)
           for key, values in pairs]
    for key, values in out:
        sweep_variants(v, key, values)
    return out


def sweeps_asked(sensitivity: Any, v: Any, defaults: Callable[[Any, Any], Sweeps] | None
                 ) -> Callable[[Any], Sweeps]:
    """The sheet's sweeps as a function of the setter that plays them (a game knows it once its
    run is chosen): :func:`parameters`, checked now, or for True the game's ``defaults(v,
    setter)`` (none for a game that registers none)."""
    asked = parameters(sensitivity, v)
    if asked is not None:
        return lambda setter: asked
    return lambda setter: [] if defaults is None else defaults(v, setter)


def sensitivity_section(content: SheetContent, title: str) -> ParSection:
    """The sensitivity section of ``content``'s sweeps: each swept rule number at the variant's
    value and around it, the figures with their intervals and each point's paired difference,
    a chart a rule (or one line saying it was not run)."""
    sweeps = content.sweeps
    if not sweeps:
        return ParSection(title, ["Not run for this sheet (sensitivity=False)."])
    first = next(iter(sweeps.values())).attrs
    setter = baseline_label(first["strategy"]) or first["strategy"]
    unit = first.get("unit", "deals")
    text = [content.sensitivity_intro,
            f"Every point: {first['deals']:,} {unit} on the same seed (entropy {first['entropy']}), "
            f"set by {setter}" + content.moving_note(sweeps) + ". Estimate bands are 95% intervals "
            "(Student's t on 30 batch means); each difference to the variant's own value is paired on "
            f"the common {unit}, with its 95% paired interval, or none where it rests on too few "
            f"differing {unit}."]
    return ParSection(title, text, [ParTable(
        "sensitivity", "Figures across each rule's range (difference to this variant's value)",
        sensitivity_table(sweeps), unmoved_note(sweeps))], [f"sweep:{key}" for key in sweeps])


def _unit(metric: str) -> str:
    if metric.endswith("_rate"):
        return "probability"
    return "share of the wager" if metric in _SHARES else "share" if metric.endswith("_share") else "units"


def _value_text(value: Any, base: Any) -> str:
    text = f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    return f"{text} (this variant)" if value == base else text


def _note(row: pd.Series, unit: str = "deals") -> str:
    if row["value"] == row["base"]:
        return "the variant's value"
    if not row["diff_note"]:
        return ""
    if row["diff_events"] == 0:
        return "no deal differs: no interval"
    needed = row["deals_for_interval"]
    return (f"too few events: about {needed:,.0f} {unit} a point would give an interval"
            if np.isfinite(needed) else "too few events")


def unmoved(frame: pd.DataFrame) -> list[str]:
    """The metrics of a sweep that no value moves on any of its deals (every paired difference
    exactly 0 with no batch differing): a rake leaves the SD and the scoop rate as they are."""
    still = frame.groupby("metric", sort=False).apply(
        lambda m: bool((m["diff"] == 0).all() and (m["diff_events"].fillna(0) == 0).all()),
        include_groups=False)
    names = [m for m, flat in still.items() if flat]
    return names if len(names) < len(still) else []


def moved(frame: pd.DataFrame) -> pd.DataFrame:
    """The sweep without its :func:`unmoved` metrics (its ``attrs`` kept)."""
    out = frame[~frame["metric"].isin(unmoved(frame))]
    out.attrs.update(frame.attrs)
    return out


def unmoved_note(sweeps: Mapping[str, pd.DataFrame]) -> str:
    """The note under the section's table: per rule, the figures it changed on none of the
    deals, which the table and the charts leave out, said so a reader sees why."""
    parts = []
    for frame in sweeps.values():
        names = [_words(frame, m) for m in unmoved(frame)]
        if names:
            parts.append(f"{words(frame.attrs['parameter_label'])} ({', '.join(names)})")
    return ("Figures left out of the table and the charts because they do not change with the rule in "
            "these runs (identical on every deal at every value): " + "; ".join(parts) + ".") if parts else ""


def _words(frame: pd.DataFrame, metric: str) -> str:
    return words(frame.loc[frame["metric"] == metric, "label"].iloc[0])


def sensitivity_table(sweeps: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The section's table: per parameter (in words), metric and value (ascending), the estimate
    with its 95% interval and the paired difference to the variant's value with its interval
    (or a note that it rests on too few differing deals); the :func:`unmoved` metrics left out."""
    parts = []
    for frame in (moved(f) for f in sweeps.values()):
        base = frame["value"].iloc[0]
        f = frame.assign(base=[base] * len(frame), order=frame["metric"].map(
            {m: i for i, m in enumerate(dict.fromkeys(frame["metric"]))}))
        f = f.sort_values(["order", "value"], kind="stable")
        parts.append(pd.DataFrame({
            "parameter": frame.attrs["parameter_label"],
            "value": [_value_text(x, base) for x in f["value"]],
            "figure": f["label"], "estimate": f["estimate"], "ci_low": f["ci_low"],
            "ci_high": f["ci_high"], "unit": [_unit(m) for m in f["metric"]],
            "diff": f["diff"], "diff_ci_low": f["diff_ci_low"], "diff_ci_high": f["diff_ci_high"],
            "diff_note": [_note(r, frame.attrs.get("unit", "deals")) for _, r in f.iterrows()]}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
