"""The open-face PAR sheet's sensitivity sweeps: the house charge and two rule numbers that move
play, each a small step either side of the variant's own value, paired on the sheet's own deals
and played by the sheet's play; the section itself is any game's
(:func:`cpstats.apps.par.sensitivity.sensitivity_section`).

- Decision: the numbers (:func:`default_parameters`, this game's ``par_sweeps`` view): the house
  charge (:func:`~cpstats.engine.sheet.charge_parameter`: ``rake.percent`` of a percent rake,
  ``rake.amount`` of a fixed or time charge; a variant that charges none is swept
  on a percent rake of the points won at 0, its own charge, then 2.5% and 5%); the Fantasyland
  cards dealt (``fantasyland.cards``, every entry one card fewer and one more, within 13..17: two
  more, or two fewer, where a side is out of range; left out of a variant without Fantasyland);
  the front QQ royalty (``royalties.front.QQ``, one unit either side), the Fantasyland entry hand.
- Decision: every point plays as many hands as the sheet's run, on its seed, by its setter, so
  each point's figures carry about the sheet's precision and every difference is paired on the
  sheet's deals. The sheet's run is every sweep's first point (played once); a charge never moves
  play, so the charge's points are the sheet's own hands charged again, exactly, from every
  hand's nets (:meth:`~cpstats.ofc.result.SimulationResult.charged`); only the points of the two rule
  numbers are played. Every point must share the sheet's play (its setter and street models), or
  the section stops in one line (:func:`~cpstats.ofc.simulation.check_one_play`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from cpstats.engine.sheet import SheetProgress, charge_parameter
from cpstats.ofc.result import SimulationResult
from cpstats.ofc.rules import Variant
from cpstats.ofc.simulation import check_one_play
from cpstats.ofc.sweep import run_sweep
from cpstats.rules.house import RakeModel

__all__ = ["default_parameters", "charge_base", "sweep_metrics", "played_points", "run_sensitivity",
           "NO_CHARGE_STEPS"]

#: The percent rakes of the points won a variant that charges none is swept over (its own 0 first).
NO_CHARGE_STEPS = (0.0, 0.025, 0.05)
#: The figures of every sweep; the charge's figures are added where any point charges.
FIGURES = ("foul_rate", "fl_entry_rate", "royalty", "fl_value")
_CHARGE_FIGURES = ("rake_per_seat_per_hand", "rake_share")
_QQ = 10  # royalties.front.QQ in the front pairs' table (22..AA)


def _charge(v: Variant) -> tuple[str, list]:
    """The house charge's sweep: a step either side of the variant's own (a percent rake of the
    points won where it charges nothing)."""
    key = charge_parameter(v)
    if key is None:
        return "rake.percent", list(NO_CHARGE_STEPS)
    if key == "rake.percent":
        x = float(v.rake.percent)
        steps = [x, x - 0.01, x + 0.01] if x >= 0.01 else [x, x + 0.01, x + 0.02]
        return key, [round(y, 6) for y in steps if y <= 1]
    x = float(v.rake.amount)
    steps = [x, 0.75 * x, 1.25 * x] if x > 0 else [x, 0.5, 1.0]
    return key, [round(y, 6) for y in steps]


def _cards(v: Variant) -> list[str] | None:
    cards = v.fantasyland.cards
    if not any(cards):
        return None

    def moved(k: int) -> tuple[int, ...]:
        return tuple(min(17, max(13, n + k)) if n else 0 for n in cards)

    down, up = moved(-1), moved(1)
    if down == cards:
        down = moved(2)
    elif up == cards:
        up = moved(-2)
    return ["/".join(map(str, c)) for c in dict.fromkeys([cards, down, up]) if c]


def _royalty(v: Variant) -> list[int]:
    x = int(v.royalties.front_pairs[_QQ])
    return [x, x - 1, x + 1] if x > 0 else [x, x + 1, x + 2]


def default_parameters(v: Variant, setter: Any = None) -> list[tuple[str, list]]:
    """(parameter, values) of the section by default, the variant's own value first (module
    docstring), whoever places the boards (``setter``: every point shares the sheet's play)."""
    specs = [_charge(v)]
    cards = _cards(v)
    if cards is not None and len(cards) > 1:
        specs.append(("fantasyland.cards", cards))
    specs.append(("royalties.front.QQ", _royalty(v)))
    return specs


def charge_base(v: Variant, key: str) -> Variant:
    """The variant a sweep of ``key`` starts from: ``v``, or for a percent sweep of a variant that
    charges nothing, ``v`` with a percent rake (at 0, so its figures are ``v``'s)."""
    if key == "rake.percent" and v.rake.model is RakeModel.NONE:
        return v.replace(rake="percent")
    return v


def sweep_metrics(points: Sequence[Variant]) -> list[str]:
    """The figures of a sweep: :data:`FIGURES`, and the charge's where any point charges."""
    charged = any(p.rake.model is not RakeModel.NONE for p in points)
    return [*FIGURES, *(_CHARGE_FIGURES if charged else ())]


def played_points(v: Variant, specs: Sequence[tuple[str, list]], *, reuse: bool = True) -> int:
    """How many points of the sweeps ``specs`` are played: every one, or (``reuse``, each point on
    the sheet's own deals) all but the variant's own and the charge's (its hands charged again)."""
    if not reuse:
        return sum(len(values) for _, values in specs)
    return sum(str(charge_base(v, key).replace(**{key: x})) != str(v)
               for key, values in specs if not key.startswith("rake") for x in values)


def run_sensitivity(v: Variant, result: SimulationResult, net: np.ndarray, specs: Sequence[tuple[str, list]], *,
                    setter: Any, root: np.random.SeedSequence, executor: Any = None,
                    hands_per_hour: float | None = None, deals: int | None = None,
                    progress: SheetProgress) -> dict[str, pd.DataFrame]:
    """One open-face sweep a parameter (:func:`~cpstats.ofc.sweep.run_sweep`), every point on the
    deals of the sheet's run ``result`` (seed ``root``, ``result.deals`` hands): ``result`` is the
    variant's own point and a charge's points are it charged again from every hand's nets ``net``
    (hands, P); the rest are played by ``setter``. ``deals`` of another length plays every point
    afresh, that many hands on the same seed. Keyed by the parameter as given; ``progress`` hears
    each point."""
    reuse = deals is None or deals == result.deals
    deals = result.deals if reuse else deals
    known = {str(v): result} if reuse else {}
    progress.plan("sweeps", deals * played_points(v, specs, reuse=reuse))
    sweeps: dict[str, pd.DataFrame] = {}
    metas: list = [result.metadata]
    labels = ["this sheet's run"]
    for key, values in specs:
        base = charge_base(v, key)
        points = [base.replace(**{key: x}) for x in values]
        if reuse and key.startswith("rake"):  # a charge never moves play: the sheet's own hands
            known.update({str(p): result.charged(p, net, rake_charged="again, from the sheet's nets")
                          for p in points if str(p) not in known})
        frame = run_sweep(base, key, values, deals=deals, metrics=sweep_metrics(points), setter=setter,
                          rng=root, executor=executor, hands_per_hour=hands_per_hour,
                          block_deals=int(result.metadata["block_deals"]), known=known,
                          what="this sheet's sensitivity section",
                          on_point=progress.on_point(key, values, deals, known))
        metas += frame.attrs["plays"]
        labels += [f"{key}={x}" for x in values]
        sweeps[key] = frame
    check_one_play(metas, labels, "this sheet's sensitivity section")
    return sweeps
