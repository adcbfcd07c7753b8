"""The PAR sheet's sensitivity section, any game's: rule numbers swept around the variant's own
values (:func:`cpstats.sweep`, every point on the same deals), the headline figures with their 95%
intervals and each point's paired difference to the variant's value; the section itself is the
sheet base's (:meth:`~cpstats.apps.par.base.ParSheet.sensitivity_section`). The 13-card sheet's
default numbers and figures are chosen here (:func:`default_parameters`, :func:`headline_metrics`);
the open-face sheet's in :mod:`cpstats.apps.par.open_face_sensitivity`.

- Decision: the numbers a designer tunes, present in the variant (:func:`default_parameters`):
  first its house charge (``rake.percent`` of a percent rake, ``rake.amount`` of a fixed or time
  charge, a banked game's ``bank.fee`` when it charges one, else its ``bank.commission``), then
  the numbers that move the setter: the middle full house royalty (the most frequent paid
  royalty hand, so the tightest bands) when royalties are paid, the surrender amount when
  surrender is in play (``ev`` only: the baselines never surrender), the scoop bonus, the
  majority bonus where it is one, the points per row; the first two of these.
- Decision: four values a number, the variant's own first (the base of the paired differences)
  and three around it: 0.5x, 1.5x and 2x (whole numbers stay whole; a value of 0, or a whole
  number too small to halve, steps +1, +2, +3), inside each rule's limits.
- Decision: a cheap default that still describes the game: :data:`SENSITIVITY_DEALS` deals a
  point, set by the sheet's setter. A house charge does not move ``ev``'s choices, so its points
  play the variant's own tables; a number that does (a royalty, the scoring, surrender) plays
  tables trained for each point's rules: trained on first use (about a minute each on 2 cores)
  and cached, so a sheet's second run is quick. ``sensitivity=False`` skips the section.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from cpstats.errors import OptionError, check_whole
from cpstats.rules.house import RakeModel
from cpstats.thirteen.rules.variant import Variant
from cpstats.thirteen.rules.text import KEY_INDEX, KEYS
from cpstats.workbench import sweep
from cpstats.engine.points import sweep_variants
from cpstats.thirteen.play.setters import BASELINES

__all__ = ["SENSITIVITY_DEALS", "default_parameters", "headline_metrics", "around", "parameters", "run_sweeps",
           "point_lines",
           "sensitivity_table", "strategy_moving", "moved", "unmoved", "unmoved_note", "words"]

#: Deals a point of every sweep of the section.
SENSITIVITY_DEALS = 20_000
#: Numbers that move the setter swept by default (each point of these trains tables once).
MOVING = 2
_SHARES = ("house_edge",)
_PROPER = frozenset({"Fantasyland"})


def _value(v: Variant, key: str) -> float | None:
    """The variant's number of ``key`` (None when the key holds no single number)."""
    if key == "surrender":
        return v.surrender_amount()
    text = KEYS[KEY_INDEX[key]].read(v.to_dict())
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def around(x: float, *, whole: bool, positive: bool = False, most: float | None = None) -> list:
    """The variant's value ``x`` then three around it: 0.5x, 1.5x and 2x (rounded when
    ``whole``), or +1, +2, +3 steps (0.01, 0.03, 0.05 for a fraction) where halving gives no new
    value; ``positive`` drops 0, ``most`` caps the values."""
    step = 1 if whole else 0.01
    if x == 0:
        others = [step, 2 * step, 3 * step] if whole else [0.01, 0.03, 0.05]
    else:
        scaled = [k * x for k in (0.5, 1.5, 2)]
        others = [math.floor(y + 0.5) for y in scaled] if whole else [round(y, 6) for y in scaled]
        if whole and len({x, *others}) < 4:
            others = [x - step, x + step, x + 2 * step]
    others = [y for y in others if (y > 0 if positive else y >= 0) and (most is None or y <= most)]
    values = [x] + [y for y in dict.fromkeys(others) if y != x]
    return [int(y) if whole and float(y).is_integer() else y for y in values]


def _charge(v: Variant) -> str | None:
    if v.bank.banked:
        return "bank.fee" if v.bank.fee > 0 else "bank.commission"
    if v.rake.model == RakeModel.PERCENT:
        return "rake.percent"
    if v.rake.model != RakeModel.NONE:
        return "rake.amount"
    return None


def _moving(v: Variant, strategy: Any) -> list[str]:
    """The numbers that move the setter, in the order the section prefers them."""
    keys = []
    if v.royalties.middle_full_house > 0:
        keys.append("royalties.middle_full_house")
    if v.surrender_amount() is not None and not isinstance(strategy, BASELINES) \
            and strategy not in ("greedy", "random"):
        keys.append("surrender")
    keys.append("scoring.scoop_bonus")
    if (v.scoring.majority or 0) > 0:
        keys.append("scoring.majority")
    if _value(v, "scoring.row") is not None:
        keys.append("scoring.row")
    return keys


def _values_of(v: Variant, key: str) -> list:
    x = _value(v, key)
    if key in ("rake.percent", "bank.commission"):
        return around(x, whole=False, most=1.0)
    if key in ("rake.amount", "bank.fee"):
        return around(x, whole=False, positive=True)
    if key == "scoring.row":  # points per row: halves are allowed, and 0 is not
        return around(x, whole=False, positive=True)
    return around(x, whole=float(x).is_integer(), positive=key == "surrender")


def default_parameters(v: Variant, strategy: Any = "ev") -> list[tuple[str, list]]:
    """(parameter, values) of the section by default: the variant's house charge if it has one,
    then the first :data:`MOVING` numbers that move the setter (module docstring)."""
    charge = _charge(v)
    keys = ([charge] if charge else []) + _moving(v, strategy)[:MOVING]
    return [(key, _values_of(v, key)) for key in keys]


def parameters(sensitivity: Any, v: Any, defaults: Callable[[], list[tuple[str, list]]]
               ) -> list[tuple[str, list]]:
    """The sweeps asked for, any game's: None/False none, True the game's ``defaults()`` (13-card:
    :func:`default_parameters`), a mapping or a list of (parameter, values) pairs those (each
    checked against the rules before anything runs)."""
    if sensitivity is None or sensitivity is False:
        return []
    if sensitivity is True:
        return defaults()
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


def strategy_moving(v: Variant, parameter: str, values: Sequence) -> bool:
    """Whether the points' rules differ for ``ev`` (each point then plays its own tables)."""
    from cpstats.thirteen.play.row_tables import strategy_digest

    return len({strategy_digest(p) for p in sweep_variants(v, parameter, values)}) > 1


def _metrics(v: Variant, parameter: str, values: Sequence) -> list[str]:
    """The headline figures: the house edge of a banked game, the SD, the scoop rate, the
    house's take where any point charges one, the royalties paid where the royalty is swept."""
    points = sweep_variants(v, parameter, values)
    chosen = (["house_edge"] if v.bank.banked else []) + ["sd", "scoop_rate"]
    if any(p.rake.model != RakeModel.NONE or p.bank.commission > 0 or p.bank.fee > 0 for p in points):
        chosen.append("house_per_hand")
    if parameter.startswith("royalties"):
        chosen.append("royalty_per_hand")
    return chosen


def headline_metrics(v: Variant, parameter: str, values: Sequence) -> list[str]:
    """The 13-card section's figures of a sweep (:func:`_metrics`)."""
    return _metrics(v, parameter, values)


def run_sweeps(v: Any, specs: Sequence[tuple[str, list]], *, deals: int, setter: Any,
               rng: Any, hands_per_hour: float | None = None, executor: Any = None,
               metrics: Callable[[Any, str, Sequence], list[str]] | None = None,
               progress: Any = None) -> dict[str, pd.DataFrame]:
    """One :func:`cpstats.sweep` a parameter (the same seed for every one), any game's, keyed by
    the parameter as given; ``metrics(v, parameter, values)`` chooses each sweep's figures (None:
    the game's defaults); ``executor`` runs their blocks; ``progress`` (a
    :class:`~cpstats.apps.par.progress.SheetProgress`) hears each point."""
    check_whole("sensitivity_deals", deals, 2, "an interval needs two")
    if progress is not None:
        progress.plan("sweeps", deals * sum(len(values) for _, values in specs))
    return {key: sweep(v, key, values, deals=deals, metrics=None if metrics is None else metrics(v, key, values),
                       setter=setter, rng=rng, hands_per_hour=hands_per_hour, executor=executor,
                       on_point=None if progress is None else point_lines(progress, key, values, deals))
            for key, values in specs}


def point_lines(progress: Any, key: str, values: Sequence, deals: int,
                known: Mapping[str, Any] | None = None) -> Callable[[int, Any], None]:
    """The ``on_point`` of a sweep of ``key`` over ``values``: a progress line a point (a point
    read from ``known``, not played, says so)."""
    def on_point(i: int, point: Any) -> None:
        what = f"the sensitivity sweeps: {key}={values[i]}, point {i + 1} of {len(values)}"
        if known is not None and str(point) in known:
            progress.step(f"{what}: the sheet's own {progress.unit}"
                          + (", charged again" if i else ""))
        else:
            progress.playing("sweeps", what, deals)
    return on_point


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


def words(label: str) -> str:
    """A label without its bracket, in running text: ``SD per hand`` and a proper noun
    (``Fantasyland entry``) keep their capitals."""
    words = label.split(" (")[0]
    keep = words[1:2].isupper() or words.split(" ")[0] in _PROPER
    return words if keep else words[:1].lower() + words[1:]


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
