"""The 13-card rules in a variant picker, as data (:data:`CONTROLS`), which the apps' picker
(:class:`cpstats.apps.widgets.picker.VariantPicker`) builds its controls from: the scoring system
and each of its numbers, royalties, royalty mode, naturals, surrender, players and rake.

- Decision: every number of the scoring has a control, in the group "scoring numbers" below the
  scoring system; choosing a system sets them all to its numbers (:func:`follow`, as ``scoring=``
  does in a variant string), and a number changed from the system's becomes a
  ``scoring.<number>`` override (:func:`changes`), so the string shown names the system plus the
  changed numbers.
- Decision: choices that cannot combine are not offered (:func:`limits`: players below a home
  run's minimum, a standard surrender for a system without one, a royalty mode without
  royalties), and each limit says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cpstats.engine.views import Control, Limits, VariantControls
from cpstats.errors import OptionError
from cpstats.rules.house import Rake, RakeModel, Surrender
from cpstats.rules.rulebook import RULES
from cpstats.thirteen.rules.components import SCORING_NUMBERS, STANDARD_SURRENDER, ScoringRules
from cpstats.thirteen.rules.ids import Deal, NaturalSchedule, RoyaltyMode, RoyaltySchedule, Scoring
from cpstats.thirteen.rules.variant import Variant

__all__ = ["CONTROLS", "PICKER", "values", "follow", "limits", "changes"]

_SURRENDER_CHOICES = ("none", "standard", "1", "2", "3")

#: Each scoring number's label in the picker.
_NUMBER_LABELS = {
    "front": "front points", "middle": "middle points", "back": "back points",
    "majority": "majority unit", "scoop_bonus": "scoop bonus", "scoop_multiplier": "scoop ×",
    "home_run_bonus": "home-run bonus", "home_run_multiplier": "home-run ×",
    "home_run_players": "home run from", "totals_first": "totals first",
    "race_target": "race target",
}


def _named(ids) -> tuple[tuple[str, str], ...]:
    """Choices of rule IDs shown by their short names (the value stays the ID)."""
    return tuple((RULES[x.value].short if x.value in RULES else x.value, x.value) for x in ids)


def _number_control(name: str) -> Control:
    """The control of one scoring number: a flag, a 3-or-4 choice or a number."""
    label, group = _NUMBER_LABELS[name], "scoring numbers"
    if name == "totals_first":
        return Control(name, label, "flag", start=False, group=group)
    if name == "home_run_players":
        return Control(name, label, "choice", choices=(3, 4), group=group)
    if name == "race_target":
        return Control(name, label, "whole", low=0, high=1000, start=0, group=group)
    return Control(name, label, "number", low=0.0, high=1000.0, step=0.5, start=1.0, group=group)


#: The picker's controls, in the order shown.
CONTROLS = (
    Control("scoring", "scoring", choices=_named(Scoring)),
    *(_number_control(n) for n in SCORING_NUMBERS),
    Control("royalties", "royalties", choices=_named(RoyaltySchedule)),
    Control("royalty_mode", "royalty mode", choices=_named(RoyaltyMode)),
    Control("naturals", "naturals", choices=_named(NaturalSchedule)),
    Control("surrender", "surrender", choices=_SURRENDER_CHOICES),
    Control("players", "players", choices=(2, 3, 4)),
    Control("rake", "rake", choices=tuple(m.value for m in RakeModel)),
    Control("rake_amount", "rake amount", "number", low=0.0, high=100.0, step=0.05, start=0.0),
)


def _surrender_text(v: Variant) -> str:
    if not v.surrender.enabled:
        return "none"
    return "standard" if v.surrender.amount is None else f"{v.surrender.amount:g}"


def _surrender_choice(text: str) -> Surrender:
    """The surrender a picker choice names: ``none``, ``standard`` (the scoring system's own
    amount) or exact units, built as a component so that "1" is never read as "true"."""
    if text == "none":
        return Surrender()
    return Surrender(enabled=True, amount=None if text == "standard" else int(text))


def _rake_amount(v: Variant) -> float:
    return float(v.rake.percent if v.rake.model is RakeModel.PERCENT else v.rake.amount)


def values(v: Variant) -> dict[str, Any]:
    """Each control's value for ``v``."""
    return {"scoring": v.scoring.system.value, **{n: getattr(v.scoring, n) for n in SCORING_NUMBERS},
            "royalties": v.royalties.schedule.value, "royalty_mode": v.royalties.mode.value,
            "naturals": v.naturals.schedule.value, "surrender": _surrender_text(v), "players": v.players,
            "rake": v.rake.model.value, "rake_amount": _rake_amount(v)}


def follow(key: str, shown: Mapping[str, Any]) -> dict[str, Any]:
    """A scoring system chosen sets every scoring number to the system's."""
    if key != "scoring":
        return {}
    system = ScoringRules(system=shown["scoring"])
    return {n: getattr(system, n) for n in SCORING_NUMBERS}


def _scoring_shown(shown: Mapping[str, Any]) -> ScoringRules:
    """The scoring the controls show (raises the rules' own error for a bad number)."""
    return ScoringRules(system=shown["scoring"], **{n: shown[n] for n in SCORING_NUMBERS})


def limits(base: Variant, shown: Mapping[str, Any]) -> Limits:
    """The players a deal and a home run allow, the surrenders a system has, and which controls
    the others switch off, with the reasons."""
    scoring = Scoring(shown["scoring"])
    notes = []
    if base.deal is Deal.CRISS_CROSS:
        players: tuple[int, ...] = (2,)
        notes.append("criss-cross is heads-up: 2 players")
    else:
        try:
            least = _scoring_shown(shown).fewest_players
        except OptionError:  # shown as the variant's error
            least = ScoringRules(system=scoring).fewest_players
        players = tuple(p for p in (2, 3, 4) if p >= least)
        if least > 2:
            notes.append(f"{scoring.value}'s home run needs at least {least} players")
    surrender = tuple(c for c in _SURRENDER_CHOICES if c != "standard" or scoring in STANDARD_SURRENDER)
    if scoring not in STANDARD_SURRENDER:
        notes.append(f"{scoring.value} has no standard surrender: give units")
    rake = shown["rake"]
    if rake == RakeModel.PERCENT.value:
        notes.append("percent rake: amount is the share of the pot (e.g. 0.05), no cap")
    elif rake == RakeModel.TIME.value:
        notes.append("time rake: units per player per hour, 30 hands an hour")
    return Limits(choices={"players": (players, players[-1]), "surrender": (surrender, "none")},
                  disabled={"players": len(players) == 1,
                            "royalty_mode": shown["royalties"] == RoyaltySchedule.NONE.value,
                            "rake_amount": rake == RakeModel.NONE.value},
                  labels={"rake_amount": "rake share" if rake == RakeModel.PERCENT.value else "rake units"},
                  notes=tuple(notes))


def changes(base: Variant, shown: Mapping[str, Any]) -> dict[str, Any]:
    """The rules the controls change from ``base``, as :meth:`Variant.replace` takes them."""
    over: dict[str, Any] = {}
    if shown["scoring"] != base.scoring.system.value:
        over["scoring"] = shown["scoring"]
    system = ScoringRules(system=shown["scoring"])
    for name in SCORING_NUMBERS:
        if shown[name] != getattr(system, name):
            over[f"scoring.{name}"] = shown[name]
    if shown["royalties"] != base.royalties.schedule.value:
        over["royalties"] = shown["royalties"]
    if (shown["royalty_mode"] != base.royalties.mode.value
            and shown["royalties"] != RoyaltySchedule.NONE.value):
        over["royalty_mode"] = shown["royalty_mode"]
    if shown["naturals"] != base.naturals.schedule.value:
        over["naturals"] = shown["naturals"]
    if shown["surrender"] != _surrender_text(base):
        over["surrender"] = _surrender_choice(shown["surrender"])
    if shown["players"] != base.players:
        over["players"] = shown["players"]
    amount = float(shown["rake_amount"])
    if shown["rake"] != base.rake.model.value or amount != _rake_amount(base):
        model = RakeModel(shown["rake"])
        kwargs: dict[str, Any] = {"model": model, "jackpot_drop": base.rake.jackpot_drop,
                                  "jackpot_trigger": base.rake.jackpot_trigger}
        if model is RakeModel.PERCENT:
            kwargs["percent"] = amount
        elif model is not RakeModel.NONE:
            kwargs["amount"] = amount
        over["rake"] = Rake(**kwargs)
    return over


#: The 13-card game's picker content (:class:`cpstats.engine.views.VariantControls`).
PICKER = VariantControls(controls=CONTROLS, values=values, follow=follow, limits=limits, changes=changes)
