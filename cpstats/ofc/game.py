"""Open face as the registry holds it (:class:`cpstats.engine.registry.Game`): its rules and words from
the rules layer, its runs from this package, registered by :mod:`cpstats.ofc` exactly as
:mod:`cpstats.thirteen` registers the 13-card game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cpstats.errors import OptionError
from cpstats.ofc.result import SimulationResult, SimulationSummary
from cpstats.ofc.setters import as_ofc_setter
from cpstats.ofc.shipped import OFC_REFERENCE_RUNS, load_shipped
from cpstats.ofc.simulation import _compare_runs, check_one_play, play_of, simulate
from cpstats.ofc.skill import skill_table
from cpstats.ofc.sweep import run_sweep
from cpstats.ofc import rules as open_face
from cpstats.ofc import words as open_face_words
from cpstats.engine.registry import Game
from cpstats.ofc.catalogue import FIGURES
from cpstats.ofc.rules import GAME, Deal, Variant, parse_ofc_variant
from cpstats.ofc.views import VIEWS
from cpstats.engine.games import GameRuns, Precision, RunSizes

__all__ = ["OPEN_FACE", "DESIGNER_PRECISION", "setter_for", "bulk_setter_for", "key_name", "strategy_relevant"]

#: What a designer reads open face by, and how closely (95% half-widths): Fantasyland entry and
#: foul rates within +-0.5 percentage points, royalties a board within +-0.1 units. The sheet, a
#: sweep and a solve play their default runs (:func:`bulk_setter_for`) until these are reached: from 2,000
#: hands to at most 30,000 a run, a sweep's points sharing 120,000 a stage (about 5 minutes on 2
#: cores with ``fast`` at the cap, stages included; measured: benchmarks/bench_ofc_precision.py).
DESIGNER_PRECISION = Precision(targets={"fl_entry_rate": 0.005, "foul_rate": 0.005, "royalty": 0.1},
                               most=30_000, budget=120_000, pilot=2_000)


def setter_for(setter: Any, v: Variant) -> Any:
    """The open-face setter for a name or an object (``ev`` is ``Rollout()``, as ``rollout``), or
    a sequence of one a seat as it is (its seats are checked by the run); a 13-card setter
    (``EvSetter(tables=...)`` too) is refused in one line."""
    return setter if isinstance(setter, (list, tuple)) else as_ofc_setter(setter)


def bulk_setter_for(v: Variant) -> str:
    """The setter of ``v``'s bulk runs (sweeps, solves, design trials, live PAR sheets): ``fast``
    under the Pineapple deal, where it plays level with the default (+0.01 a hand, 95% CI
    -0.16..+0.18, 6,000 duplicate deals); ``rollout`` under the classic deal, where ``fast`` loses
    0.47 a hand to it (-0.57..-0.37, 6,000 deals) and fouls more, so a bulk run there is played
    by the strong default at its pace (docs/measurements.md#ofc_play)."""
    return "fast" if v.deal is Deal.PINEAPPLE else "rollout"


def key_name(parameter: str) -> str:
    """``parameter`` as given (an open-face variant's ``replace`` reads its own keys and aliases;
    an unknown one is the parser's line); ``name``, a label, is refused."""
    if not isinstance(parameter, str) or parameter.strip().lower() == "name":
        raise OptionError(f"parameter={parameter!r} is invalid: a rule key of the variant string "
                          f"such as royalties.front.QQ or fantasyland.stay")
    return parameter.strip()


def strategy_relevant(v: Variant, key: str, values: Sequence[Any]) -> bool:
    """A charge (``rake.*``) is levied after play; every other open-face key is taken to move it."""
    return not key.startswith("rake")


def _claims(name: str) -> bool:
    return name.startswith("ofc-")


def _signed(metric: str) -> bool:
    return metric in ("fl_value", "mean_after_charges") or metric.startswith("mean_seat")


#: Figures that are shares without a ``_rate`` name (a target above 1 is refused); a table seats at most 4.
_SHARES = frozenset({"rake_share", "fl_share", "hit_frequency", *(f"hit_frequency_seat{p}" for p in range(4))})


#: Open face's registration: rules, words and runs.
OPEN_FACE = Game(
    name=GAME, variant_type=Variant, parse=parse_ofc_variant, presets=open_face.PRESETS,
    get_preset=open_face.get_preset, keys=tuple(key.name for key in open_face.KEYS),
    key_of=open_face.key_of, key_name=key_name, describe_rules=open_face_words.describe_rules,
    short_label=open_face_words.short_label, claims=_claims, unit="hands",
    label="open-face Chinese poker", default_preset=open_face.DEFAULT_PRESET,
    runs=GameRuns(views=VIEWS,
        simulate=simulate, setter=setter_for, default_setter="rollout", summary=SimulationSummary, result=SimulationResult,
        compare=_compare_runs, sweep=run_sweep, skill=skill_table,
        references={name: load_shipped for name in OFC_REFERENCE_RUNS},
        strategy_relevant=strategy_relevant,
        figures=FIGURES,
        signed=_signed, shares=_SHARES,
        sizes=RunSizes(solve=200, pilot=100, least=2), probe_setter="greedy",
        identity={"play": False},  # what a rollout plays by, counted only where a run records it
        bulk_setter=bulk_setter_for, precision=DESIGNER_PRECISION, play_of=play_of, one_play=check_one_play),
)
