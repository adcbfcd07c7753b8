"""The 13-card game as the registry holds it (:class:`cpstats.engine.registry.Game`): its rules and
words from the rules layer, its runs from this package, registered by :mod:`cpstats.thirteen`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cpstats._resources import REFERENCE_DIR
from cpstats.errors import OptionError
from cpstats.thirteen.rules import text
from cpstats.thirteen.rules import words as variant_words
from cpstats.engine.registry import Game
from cpstats.thirteen.catalogue import FIGURES
from cpstats.thirteen.rules.presets import PRESETS
from cpstats.thirteen.rules.variant import GAME, Variant, get_preset, parse_variant
from cpstats.engine.files import load_result
from cpstats.thirteen.views import VIEWS
from cpstats.engine.games import GameRuns, RunSizes
from cpstats.thirteen import run
from cpstats.thirteen.figures import lookup_table
from cpstats.thirteen.paired import METRICS
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.skill import skill
from cpstats.thirteen.summary import SimulationSummary
from cpstats.thirteen.sweep import key_name, sweep

__all__ = ["THIRTEEN", "setter_for", "strategy_relevant", "metric_note", "open_reference"]


def setter_for(setter: Any, v: Variant) -> Any:
    """The 13-card setter for a name, a setter object or a callable (a registered strategy's name
    or a callable as it is; ev's row tables travel on ``EvSetter(tables=...)``); an open-face
    setter is refused in one line."""
    from cpstats.thirteen.play.setters import as_setter

    return as_setter(setter)


def strategy_relevant(v: Variant, key: str, values: Sequence[Any]) -> bool:
    """Whether ``key`` can move how hands are set: the ev tables are keyed by
    :func:`~cpstats.thirteen.play.row_tables.strategy_rules`, compared at the ends of ``values``."""
    from cpstats.thirteen.play.row_tables import strategy_rules

    rules = [strategy_rules(v.replace(**{key: x})) for x in (values[0], values[-1])]
    return rules[0] != rules[1]


def metric_note(v: Variant, name: str) -> str | None:
    """Why a comparison figure is not ``v``'s: it is a banked (or a symmetric) game's."""
    if name in METRICS:
        return f"it is the figure of a {METRICS[name][2]} game ({METRICS[name][0]})"
    return None


def open_reference(name: str, *, rake: Any = None) -> SimulationResult:
    """The shipped ev reference run of preset ``name`` (``cpstats/data/reference/NAME.npz``, made
    by ``cpstats reference``); it keeps no nets, so ``rake`` is refused."""
    if rake is not None:
        raise OptionError(f"rake= is invalid for the 13-card reference {name!r}: only open-face "
                          "runs keep every hand's nets to charge again")
    return load_result(REFERENCE_DIR / f"{name}.npz")


def _signed(metric: str) -> bool:
    return metric in ("bank_mean", "house_edge") or metric.startswith("mean_seat")


#: The 13-card game's registration: rules, words and runs.
THIRTEEN = Game(
    name=GAME, variant_type=Variant, parse=parse_variant,
    presets={name: preset.description for name, preset in PRESETS.items()},
    seeds={name: preset.seed for name, preset in PRESETS.items()},
    get_preset=get_preset, keys=tuple(key.name for key in text.KEYS), key_of=text.key_of,
    key_name=key_name, describe_rules=variant_words.describe_rules, short_label=variant_words.short_label,
    unit="deals", label="13-card Chinese poker", default_preset="2-4",
    runs=GameRuns(views=VIEWS,
        simulate=run.simulate, setter=setter_for, default_setter="ev", summary=SimulationSummary,
        result=SimulationResult,
        compare=run.compare, sweep=sweep, skill=skill,
        references={name: open_reference for name in PRESETS}, figure_table=lookup_table,
        strategy_relevant=strategy_relevant, metric_note=metric_note,
        aliases={"edge": "house_edge"}, figures=FIGURES,
        signed=_signed, shares=frozenset({"rake_share"}),
        sizes=RunSizes(solve=20_000, pilot=4_000, least=60), probe_setter="greedy",
        # ev's row tables (every run's identity has held them, None or not); who set a bank's hand
        # (a run that gives it: a run before bank.setter existed keeps its digest and is not taken for one)
        identity={"tables": True, "bank": False}),
)
