"""How much the open-face figures depend on the play: a variant's headline economics at five
strengths, each with its interval, so a designer sees which figures move with skill.

The strengths (:data:`STRENGTHS`): ``greedy`` (a baseline: a weak field), ``rollout-v1`` (the
first rollout, frozen: the default until the exact endgame beat it), ``rollout-exact`` (the
exact endgame without street models: the default until the learned street values beat it),
``fast`` (the street models without rollouts) and ``rollout`` (the default). Every strength plays the same decks (one seed), in self-play: every seat the same
setter. The figures (:data:`HEADLINE`) are those of :meth:`cpstats.ofc.SimulationResult.figures`,
under :data:`STRENGTH_RAKE` for the rake share (a rake never moves the play, so the other
figures are those of the rake-free game).

The presets' table is shipped (``cpstats/data/ofc/strength.csv``, written by
:func:`write_strength`; ``strength.json`` beside it records the command, hands, seed and
seconds); :func:`shipped_strength` reads it.

- Decision: the shipped table was played with ``button=fixed`` (seat 0 first on every hand, the presets'
  order until the button moved by default) and is kept so: in self-play its rates, royalties and
  Fantasyland value pool every seat, each position once a hand under either button, and seat 0's SD
  moves only by the positions' means (under 0.01); ``strength.json`` says so and how to replay it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from cpstats._resources import DATA_DIR
from cpstats.ofc.placement import STRATEGY_NOTES
from cpstats.ofc.setters import as_ofc_setter
from cpstats.ofc.simulation import simulate
from cpstats.rules.house import Rake, RakeModel
from cpstats.ofc.rules import Variant, resolve_ofc_variant

__all__ = ["STRENGTHS", "STRENGTH_LABELS", "HEADLINE", "STRENGTH_RAKE", "STRENGTH_PRESETS", "STRENGTH_HANDS", "strength_table",
           "strength_wide", "write_strength", "shipped_strength"]

#: The setters, weakest first, with the short label charts give them.
STRENGTHS = ("greedy", "rollout-v1", "rollout-exact", "fast", "rollout")
STRENGTH_LABELS = {"greedy": "greedy (a baseline: a weak field)", "rollout-v1": "rollout-v1 (the first rollout)",
                   "rollout-exact": "rollout-exact (the previous default)",
                   "fast": "fast (the street models without rollouts)",
                   "rollout": "rollout (the default)", "random": "random (a baseline: no skill)"}
#: The headline figures: metric of ``figures()`` -> its name in words.
HEADLINE = {"foul_rate": "foul rate", "fl_entry_rate": "Fantasyland entry rate",
            "royalty": "royalty a board", "fl_value": "value of Fantasyland (points a hand)",
            "sd_seat0": "SD of a hand (points)", "rake_share": "rake share (time rake, 6 a seat-hour)"}
#: The rake the rake share is measured under: a time collection of 6 units a seat-hour (the PAR
#: sheet's typical charge; a percent rake's share would be its percent whatever the play).
STRENGTH_RAKE = Rake(model=RakeModel.TIME, amount=6.0)
_RATES = ("foul_rate", "fl_entry_rate", "rake_share")
STRENGTH_PRESETS = ("ofc-pineapple", "ofc-classic", "ofc-pineapple-progressive")
STRENGTH_HANDS = 4000  # hands a strength and preset in the shipped table
_SHIPPED = DATA_DIR / "ofc" / "strength.csv"


def strength_table(variant: Variant | str, hands: int, *, setters: Sequence[Any] = STRENGTHS,
                   rake: Rake | None = STRENGTH_RAKE, rng: int = 2026, executor=None) -> pd.DataFrame:
    """The :data:`HEADLINE` figures of ``variant`` played by each of ``setters`` in self-play on
    the same decks: tidy (``variant``, ``setter``, ``play`` in words, ``metric``, ``figure``,
    ``estimate``, ``ci_low``, ``ci_high``, ``hands``), 95% batch-t intervals.

    Examples
    --------
    >>> t = strength_table("ofc-pineapple", 64, setters=("random", "greedy"), rng=1)  # doctest: +SKIP
    """
    v = resolve_ofc_variant(variant)
    played = v if rake is None else v.replace(rake=rake)
    rows = []
    for given in setters:
        setter = as_ofc_setter(given)
        figures = simulate(played, hands, setter=setter, rng=rng, executor=executor).figures().set_index("metric")
        for metric, words in HEADLINE.items():
            rows.append({"variant": str(v), "setter": setter.name, "play": STRATEGY_NOTES[setter.name],
                         "metric": metric, "figure": words, **figures.loc[metric, ["estimate", "ci_low", "ci_high"]],
                         "hands": hands})
    return pd.DataFrame(rows)


def strength_wide(table: pd.DataFrame) -> pd.DataFrame:
    """One row a (variant, figure), one column a setter (weakest first): ``estimate (low..high)``,
    rates in per cent."""
    def cell(r: pd.Series) -> str:
        scale, fmt, unit = (100.0, ".1f", "%") if r.metric in _RATES else (1.0, ".2f", "")
        return f"{r.estimate * scale:{fmt}}{unit} ({r.ci_low * scale:{fmt}}..{r.ci_high * scale:{fmt}})"

    shown = table.assign(cell=table.apply(cell, axis=1))
    order = list(dict.fromkeys(table["setter"]))
    wide = shown.pivot_table(index=["variant", "figure"], columns="setter", values="cell", aggfunc="first", sort=False)
    return wide[order]


def write_strength(presets: Sequence[str] = STRENGTH_PRESETS, hands: int = STRENGTH_HANDS, *, rng: int = 2026,
                   path: Path | str = _SHIPPED, executor=None) -> pd.DataFrame:
    """Play :func:`strength_table` for each preset and write it to ``path`` (CSV; a JSON beside it
    records the command, hands, seed and seconds). Returns the table."""
    start = time.time()
    table = pd.concat([strength_table(p, hands, rng=rng, executor=executor) for p in presets], ignore_index=True)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False)
    meta = {"presets": list(presets), "hands": hands, "seed": rng, "rake": str(STRENGTH_RAKE.model),
            "seconds": round(time.time() - start, 1),
            "command": f"python -c \"from cpstats.ofc.strength import write_strength; "
                       f"write_strength({list(presets)!r}, {hands}, rng={rng})\""}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return table


def shipped_strength() -> pd.DataFrame:
    """The shipped table of the presets (:func:`write_strength`), as :func:`strength_table` gives it."""
    return pd.read_csv(_SHIPPED)
