"""The 13-card PAR sheet's sensitivity sweeps: which rule numbers it sweeps by default and around
which values (this game's ``par_sweeps`` view), which figures each sweep gives, and the sweeps
played with this game's sweep; the section itself is any game's
(:func:`cpstats.apps.par.sensitivity.sensitivity_section`).

- Decision: the numbers a designer tunes, present in the variant (:func:`default_parameters`):
  first its house charge (:func:`~cpstats.engine.sheet.charge_parameter`: ``rake.percent`` of a
  percent rake, ``rake.amount`` of a fixed or time charge, a banked game's ``bank.fee`` when it
  charges one, else its ``bank.commission``), then the numbers that move the setter: the middle
  full house royalty (the most frequent paid royalty hand, so the tightest bands) when royalties
  are paid, the surrender amount when surrender is in play (``ev`` only: the baselines never
  surrender), the scoop bonus, the majority bonus where it is one, the points per row; the first
  two of these.
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
from collections.abc import Sequence
from typing import Any

import pandas as pd

from cpstats.engine.points import metric_list, sweep_values, sweep_variants
from cpstats.engine.sheet import SheetProgress, charge_parameter
from cpstats.errors import check_whole
from cpstats.thirteen.metrics import charges_anything
from cpstats.thirteen.play.setters import BASELINES
from cpstats.thirteen.rules.text import KEY_INDEX, KEYS
from cpstats.thirteen.rules.variant import Variant

__all__ = ["SENSITIVITY_DEALS", "default_parameters", "sweep_metrics", "around", "run_sweeps", "strategy_moving"]

#: Deals a point of every sweep of the section.
SENSITIVITY_DEALS = 20_000
#: Numbers that move the setter swept by default (each point of these trains tables once).
MOVING = 2


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
    value; ``positive`` drops 0, ``most`` caps the values.

    Examples
    --------
    >>> around(3, whole=True), around(0.5, whole=False)
    ([3, 2, 5, 6], [0.5, 0.25, 0.75, 1.0])
    """
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


def _moving(v: Variant, setter: Any) -> list[str]:
    """The numbers that move the setter, in the order the section prefers them."""
    keys = []
    if v.royalties.middle_full_house > 0:
        keys.append("royalties.middle_full_house")
    if v.surrender_amount() is not None and not isinstance(setter, BASELINES) \
            and setter not in ("greedy", "random"):
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


def default_parameters(v: Variant, setter: Any = "ev") -> list[tuple[str, list]]:
    """(parameter, values) of the section by default for hands set by ``setter``: the variant's
    house charge if it has one, then the first :data:`MOVING` numbers that move the setter (module
    docstring). This game's ``par_sweeps`` view."""
    charge = charge_parameter(v)
    keys = ([charge] if charge else []) + _moving(v, setter)[:MOVING]
    return [(key, _values_of(v, key)) for key in keys]


def strategy_moving(v: Variant, parameter: str, values: Sequence) -> bool:
    """Whether the points' rules differ for ``ev`` (each point then plays its own tables)."""
    from cpstats.thirteen.play.row_tables import strategy_digest

    return len({strategy_digest(p) for p in sweep_variants(v, parameter, values)}) > 1


def sweep_metrics(v: Variant, parameter: str, values: Sequence) -> list[str]:
    """The figures of a sweep: the house edge of a banked game, the SD, the scoop rate, the
    house's take where any point charges one, the royalties paid where the royalty is swept."""
    points = sweep_variants(v, parameter, values)
    chosen = (["house_edge"] if v.bank.banked else []) + ["sd", "scoop_rate"]
    if any(charges_anything(p) for p in points):
        chosen += ["sd_after_charges", "rake_per_hand"]
    if parameter.startswith("royalties"):
        chosen.append("royalty_per_hand")
    return chosen


def run_sweeps(v: Variant, specs: Sequence[tuple[str, list]], *, deals: int, setter: Any, rng: Any,
               hands_per_hour: float | None = None, executor: Any = None,
               progress: SheetProgress) -> dict[str, pd.DataFrame]:
    """One sweep a parameter of ``specs`` (the same seed for every one), played by this game's
    sweep as :func:`cpstats.sweep` plays it (``setter`` already resolved, every point checked),
    keyed by the parameter as given, with :func:`sweep_metrics`; ``progress`` hears each point."""
    from cpstats.thirteen.sweep import sweep

    check_whole("sensitivity_deals", deals, 2, "an interval needs two")
    progress.plan("sweeps", deals * sum(len(values) for _, values in specs))
    return {key: sweep(v, key, sweep_values(values, key), deals=deals,
                       metrics=metric_list(sweep_metrics(v, key, values)), setter=setter, rng=rng,
                       executor=executor, hands_per_hour=hands_per_hour,
                       on_point=progress.on_point(key, values, deals))
            for key, values in specs}
