"""Choosing one variant in an app: :class:`VariantPicker`, a preset plus overrides of its rules.

The comparer shows two or three pickers side by side; each shows the variant string it builds,
or the rules' own message when a choice is rejected.

- Decision: every number of the scoring has a control, under "scoring numbers"
  below the scoring system; choosing a system sets them all to its numbers (as ``scoring=`` does
  in a variant string), and a number changed from the system's becomes a ``scoring.<number>``
  override, so the string shown names the system plus the changed numbers.
- Decision: a variant is saved as a download (links to a TOML and a JSON file,
  :meth:`Variant.to_file`'s format, kept up to date with the variant shown; a ``data:`` link
  works in Voila, where the server's folder is not the user's) or with :meth:`VariantPicker.save`
  in a notebook, and loaded with the *Load* button (an upload). A loaded variant becomes the
  base the controls override, so options the controls do not show (a custom royalty amount, a
  stakes matrix) are kept; choosing another preset drops it.
"""

from __future__ import annotations

import html
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as W

from cpstats.thirteen.rules.ids import Deal
from cpstats.apps.widgets._common import _message, download_link, opening
from cpstats.errors import CpstatsError, OptionError
from cpstats.thirteen.rules.components import STANDARD_SURRENDER, ScoringRules
from cpstats.thirteen.rules.ids import NaturalSchedule, RoyaltyMode, RoyaltySchedule, Scoring
from cpstats.rules.house import Rake, RakeModel, Surrender
from cpstats.thirteen.rules.variant import Variant, resolve_variant
from cpstats.engine.registry import get_preset
from cpstats.thirteen.rules.presets import preset_names
from cpstats.engine.describe import describe, short_label
from cpstats.thirteen.rules.components import SCORING_NUMBERS
from cpstats.rules.rulebook import RULES

__all__ = ["VariantPicker"]


_SURRENDER_CHOICES = ("none", "standard", "1", "2", "3")


#: Each scoring number's label in the picker.
_NUMBER_LABELS = {
    "front": "front points", "middle": "middle points", "back": "back points",
    "majority": "majority unit", "scoop_bonus": "scoop bonus", "scoop_multiplier": "scoop ×",
    "home_run_bonus": "home-run bonus", "home_run_multiplier": "home-run ×",
    "home_run_players": "home run from", "totals_first": "totals first",
    "race_target": "race target",
}


def _number_control(name: str, layout: W.Layout, style: dict) -> W.Widget:
    """The control of one scoring number: a checkbox, a 3-or-4 choice or a number box."""
    label = _NUMBER_LABELS[name]
    if name == "totals_first":
        return W.Checkbox(value=False, description=label, layout=layout, style=style)
    if name == "home_run_players":
        return W.Dropdown(options=(3, 4), description=label, layout=layout, style=style)
    if name == "race_target":
        return W.BoundedIntText(value=0, min=0, max=1000, description=label, layout=layout,
                                style=style)
    return W.BoundedFloatText(value=1.0, min=0.0, max=1000.0, step=0.5, description=label,
                              layout=layout, style=style)


def _surrender_choice(text: str) -> Surrender:
    """The surrender a picker choice names: ``none``, ``standard`` (the scoring system's own
    amount) or exact units, built as a component so that "1" is never read as "true"."""
    if text == "none":
        return Surrender()
    return Surrender(enabled=True, amount=None if text == "standard" else int(text))



def _named(ids) -> list[tuple[str, str]]:
    """Dropdown choices of rule IDs shown by their short names (the value stays the ID)."""
    return [(RULES[x.value].short if x.value in RULES else x.value, x.value) for x in ids]

class VariantPicker:
    """Controls for one variant: a preset plus overrides of scoring (the system and each of
    its numbers), royalties, royalty mode, naturals, surrender, players and rake.

    Choices that cannot combine are not offered (players below a home run's minimum, a standard
    surrender for a system without one, a royalty mode without royalties); anything else the
    rules reject is shown under the controls and leaves :attr:`variant` None.

    Parameters
    ----------
    preset
        The preset shown first.
    label
        A short name shown above the controls ("A", "B", ...).
    on_change
        Called with no arguments after every change.
    """

    def __init__(self, preset: str | None = None, label: str = "A", *,
                 on_change: Callable[[], None] | None = None) -> None:
        preset = preset or opening("picker")
        self.label = label
        self._on_change = on_change
        self._loading = False
        wide = W.Layout(width="260px")
        style = {"description_width": "90px"}
        self.preset = W.Dropdown(options=preset_names(), value=preset, description="preset",
                                 layout=wide, style=style)
        self.scoring = W.Dropdown(options=_named(Scoring), description="scoring",
                                  layout=wide, style=style)
        self.royalties = W.Dropdown(options=_named(RoyaltySchedule),
                                    description="royalties", layout=wide, style=style)
        self.royalty_mode = W.Dropdown(options=_named(RoyaltyMode),
                                       description="royalty mode", layout=wide, style=style)
        self.naturals = W.Dropdown(options=_named(NaturalSchedule),
                                   description="naturals", layout=wide, style=style)
        self.surrender = W.Dropdown(options=_SURRENDER_CHOICES, description="surrender",
                                    layout=wide, style=style)
        self.players = W.Dropdown(options=(2, 3, 4), description="players", layout=wide,
                                  style=style)
        self.rake = W.Dropdown(options=[m.value for m in RakeModel], description="rake",
                               layout=wide, style=style)
        self.rake_amount = W.BoundedFloatText(value=0.0, min=0.0, max=100.0, step=0.05,
                                              description="rake amount", layout=wide, style=style)
        #: One control per scoring number (:data:`~cpstats.thirteen.rules.components.SCORING_NUMBERS`).
        self.numbers = {n: _number_control(n, wide, style) for n in SCORING_NUMBERS}
        numbers_box = W.Accordion(children=[W.VBox(list(self.numbers.values()))])
        numbers_box.set_title(0, "scoring numbers")
        numbers_box.selected_index = None
        self.status = W.HTML()
        #: Load a variant file (TOML or JSON); the links beside it download the variant shown.
        self.upload = W.FileUpload(accept=".toml,.json", multiple=False, description="Load",
                                   tooltip="load a variant file (.toml or .json)",
                                   layout=W.Layout(width="80px"))
        self.save_links = W.HTML()
        self.variant: Variant | None = None
        self.error: str | None = None
        self._loaded: Variant | None = None
        self._source: str | None = None
        self.upload.observe(self._uploaded, names="value")
        self.preset.observe(self._preset_changed, names="value")
        for control in (self.scoring, self.royalties, self.royalty_mode, self.naturals,
                        self.surrender, self.players, self.rake, self.rake_amount,
                        *self.numbers.values()):
            control.observe(self._changed, names="value")
        self.widget = W.VBox([W.HTML(f"<b>Variant {html.escape(label)}</b>"), self.preset,
                              self.scoring, numbers_box, self.royalties, self.royalty_mode,
                              self.naturals,
                              self.surrender, self.players, self.rake, self.rake_amount,
                              self.status, W.HBox([self.upload, self.save_links])],
                             layout=W.Layout(padding="4px", min_width="270px"))
        self._preset_changed()

    def _base(self) -> Variant:
        """What the controls override: the variant loaded from a file, else the preset."""
        return self._loaded if self._loaded is not None else get_preset(self.preset.value)

    # the preset sets every control; the others override it
    def _preset_changed(self, change: dict | None = None) -> None:
        if self._loading:
            return
        self._loaded = self._source = None
        self._fill(get_preset(self.preset.value))

    def _fill(self, v: Variant) -> None:
        """Set every control to ``v``'s rules, then rebuild the variant."""
        self._loading = True
        try:
            self.scoring.value = v.scoring.system.value
            self._show_numbers(v.scoring)
            self.royalties.value = v.royalties.schedule.value
            self.royalty_mode.value = v.royalties.mode.value
            self.naturals.value = v.naturals.schedule.value
            self._constrain()
            self.surrender.value = self._surrender_text(v)
            self.players.value = v.players
            self.rake.value = v.rake.model.value
            self.rake_amount.value = float(v.rake.percent if v.rake.model is RakeModel.PERCENT
                                           else v.rake.amount)
        finally:
            self._loading = False
        self._changed()

    def _show_numbers(self, scoring: ScoringRules) -> None:
        for name, control in self.numbers.items():
            control.value = getattr(scoring, name)

    def _scoring_shown(self) -> ScoringRules:
        """The scoring the controls show (raises the rules' own error for a bad number)."""
        return ScoringRules(system=self.scoring.value,
                            **{n: control.value for n, control in self.numbers.items()})

    @staticmethod
    def _surrender_text(v: Variant) -> str:
        if not v.surrender.enabled:
            return "none"
        return "standard" if v.surrender.amount is None else f"{v.surrender.amount:g}"

    def _constrain(self) -> None:
        """Offer only the choices that combine with the others, and say why."""
        base = self._base()
        scoring = Scoring(self.scoring.value)
        notes = []
        if base.deal is Deal.CRISS_CROSS:
            players = (2,)
            notes.append("criss-cross is heads-up: 2 players")
        else:
            try:
                least = self._scoring_shown().fewest_players
            except OptionError:  # shown as the variant's error
                least = ScoringRules(system=scoring).fewest_players
            players = tuple(p for p in (2, 3, 4) if p >= least)
            if least > 2:
                notes.append(f"{scoring.value}'s home run needs at least {least} players")
        if tuple(self.players.options) != players:
            keep = self.players.value if self.players.value in players else players[-1]
            self.players.options = players
            self.players.value = keep
        self.players.disabled = len(players) == 1
        surrender = tuple(c for c in _SURRENDER_CHOICES
                          if c != "standard" or scoring in STANDARD_SURRENDER)
        if tuple(self.surrender.options) != surrender:
            keep = self.surrender.value if self.surrender.value in surrender else "none"
            self.surrender.options = surrender
            self.surrender.value = keep
        if scoring not in STANDARD_SURRENDER:
            notes.append(f"{scoring.value} has no standard surrender: give units")
        self.royalty_mode.disabled = self.royalties.value == RoyaltySchedule.NONE.value
        self.rake_amount.disabled = self.rake.value == RakeModel.NONE.value
        self.rake_amount.description = ("rake share" if self.rake.value == RakeModel.PERCENT.value
                                        else "rake units")
        if self.rake.value == RakeModel.PERCENT.value:
            notes.append("percent rake: amount is the share of the pot (e.g. 0.05), no cap")
        elif self.rake.value == RakeModel.TIME.value:
            notes.append("time rake: units per player per hour, 30 hands an hour")
        self._notes = notes

    def _overrides(self) -> dict[str, Any]:
        base = self._base()
        over: dict[str, Any] = {}
        if self.scoring.value != base.scoring.system.value:
            over["scoring"] = self.scoring.value
        system = ScoringRules(system=self.scoring.value)
        for name, control in self.numbers.items():
            if control.value != getattr(system, name):
                over[f"scoring.{name}"] = control.value
        if self.royalties.value != base.royalties.schedule.value:
            over["royalties"] = self.royalties.value
        if (self.royalty_mode.value != base.royalties.mode.value
                and self.royalties.value != RoyaltySchedule.NONE.value):
            over["royalty_mode"] = self.royalty_mode.value
        if self.naturals.value != base.naturals.schedule.value:
            over["naturals"] = self.naturals.value
        if self.surrender.value != self._surrender_text(base):
            over["surrender"] = _surrender_choice(self.surrender.value)
        if self.players.value != base.players:
            over["players"] = self.players.value
        amount = float(self.rake_amount.value)
        current = base.rake.percent if base.rake.model is RakeModel.PERCENT else base.rake.amount
        if self.rake.value != base.rake.model.value or amount != float(current):
            model = RakeModel(self.rake.value)
            kwargs: dict[str, Any] = {"model": model, "jackpot_drop": base.rake.jackpot_drop,
                                      "jackpot_trigger": base.rake.jackpot_trigger}
            if model is RakeModel.PERCENT:
                kwargs["percent"] = amount
            elif model is not RakeModel.NONE:
                kwargs["amount"] = amount
            over["rake"] = Rake(**kwargs)
        return over

    def _changed(self, change: dict | None = None) -> None:
        if self._loading:
            return
        self._loading = True
        try:
            if change is not None and change.get("owner") is self.scoring:
                self._show_numbers(ScoringRules(system=self.scoring.value))
            self._constrain()
        finally:
            self._loading = False
        try:
            over = self._overrides()
            self.variant = self._base().replace(**over) if over else self._base()
            self.error = None
            notes = "".join(f"<br>{_message('note', n)}" for n in self._notes)
            loaded = (f"<br>{_message('ok', f'loaded from {self._source}')}"
                      if self._source and not over else "")
            label, text = short_label(self.variant), str(self.variant)
            code = f"<br><code>{html.escape(text)}</code>" if text != label else ""
            self.status.value = f"<b>{html.escape(label)}</b>{code}{loaded}{notes}"
            self.save_links.value = self._save_html()
        except Exception as err:  # the rules' own message, shown where the choice was made
            self.variant = None
            self.error = str(err)
            self.status.value = _message("error", f"not a valid variant: {err}")
            self.save_links.value = ""
        if self._on_change is not None:
            self._on_change()

    # -- files --------------------------------------------------------------------------------

    def file_bytes(self, suffix: str = ".toml") -> bytes:
        """The variant shown as a variant file (``.toml`` or ``.json``, :meth:`Variant.to_file`),
        labelled with its short label and described in words (:func:`cpstats.describe`)."""
        if self.variant is None:
            raise OptionError(f"variant {self.label} is not valid: {self.error}")
        with tempfile.TemporaryDirectory() as folder:
            path = self.variant.to_file(Path(folder) / f"variant{suffix}",
                                        label=short_label(self.variant),
                                        description=describe(self.variant))
            return path.read_bytes()

    def _save_html(self) -> str:
        stem = short_label(self.variant, max_parts=2).replace(", ", "_").replace(" ", "-")
        stem = "".join(c for c in stem if c.isalnum() or c in "-_.+%") or "variant"
        return "save " + " ".join(
            download_link(self.file_bytes(suffix), f"{stem}{suffix}", mime, suffix[1:].upper())
            for suffix, mime in ((".toml", "application/toml"), (".json", "application/json")))

    def save(self, path: str | os.PathLike) -> Path:
        """Write the variant shown to ``path`` (``.toml`` or ``.json``); returns the path."""
        if self.variant is None:
            raise OptionError(f"variant {self.label} is not valid: {self.error}")
        return self.variant.to_file(path, label=short_label(self.variant),
                                    description=describe(self.variant))

    def set_variant(self, variant: Variant | str, source: str | None = None) -> None:
        """Show ``variant`` (a variant, a variant string or a file path): the preset it derives
        from, every control set to its rules, and the variant itself as the controls' base."""
        v = resolve_variant(variant)
        self._loaded, self._source = v, source
        self._loading = True
        try:
            self.preset.value = v.name if v.name in preset_names() else opening("picker_base")
        finally:
            self._loading = False
        self._fill(v)

    def load(self, path: str | os.PathLike) -> Variant:
        """Load a variant file (:func:`~cpstats.engine.registry.load_variant`) into the picker."""
        self.set_variant(resolve_variant(Path(path)), source=Path(path).name)
        return self.variant

    def load_bytes(self, name: str, content: bytes) -> Variant | None:
        """Load an uploaded variant file's ``content``; a file the rules refuse is explained in
        the status line (its name, not a temporary path) and the variant shown is kept."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / Path(str(name)).name
            path.write_bytes(bytes(content))
            try:
                return self.load(path)
            except CpstatsError as err:
                message = str(err).replace(str(path), path.name)
                self.status.value = _message("error", f"not loaded: {message}")
                return None

    def _uploaded(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        self.load_bytes(item["name"], item["content"])
        self.upload.value = ()  # the same file can be loaded again after a change
