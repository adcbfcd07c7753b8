"""Choosing one variant in an app: :class:`VariantPicker`, a preset plus overrides of its rules.

The comparer shows two or three pickers side by side; each shows the variant string it builds,
or the rules' own message when a choice is rejected.

- Decision: the controls are the game's, as data (its ``picker`` content,
  :class:`~cpstats.engine.views.VariantControls`: each control's key, label, kind and choices, the
  values a variant gives them, what a change sets in the others, what the choices allow and the
  rules they change; the 13-card game's in :mod:`cpstats.thirteen.picker`); the picker builds
  ipywidgets from them and the variant as ``base.replace(**changes)``, so it imports no game.
- Decision: a variant is saved as a download (links to a TOML and a JSON file,
  the variant's ``to_file`` format, kept up to date with the variant shown; a ``data:`` link
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

from cpstats.apps.widgets._common import _message, download_link, game_content, opening
from cpstats.engine.describe import describe, short_label
from cpstats.engine.registry import AnyVariant, as_variant, game_of, get_preset
from cpstats.engine.views import Control
from cpstats.errors import CpstatsError, OptionError

__all__ = ["VariantPicker"]


def _widget(control: Control, layout: W.Layout, style: dict) -> W.Widget:
    """The ipywidget of one control of the game's picker content."""
    common = {"description": control.label, "layout": layout, "style": style}
    if control.kind == "flag":
        return W.Checkbox(value=bool(control.start), **common)
    if control.kind == "whole":
        return W.BoundedIntText(value=int(control.low if control.start is None else control.start),
                                min=int(control.low), max=int(control.high), **common)
    if control.kind == "number":
        return W.BoundedFloatText(value=float(control.low if control.start is None else control.start),
                                  min=control.low, max=control.high, step=control.step, **common)
    return W.Dropdown(options=control.choices, **common)


class VariantPicker:
    """Controls for one variant: a preset plus overrides of its rules, the controls its game
    gives (the 13-card game's: scoring, the system and each of its numbers, royalties, royalty
    mode, naturals, surrender, players and rake). Each control is also an attribute named by
    its key (``picker.players``); the controls of a group are a dict named by the group
    (``picker.numbers``, the 13-card scoring numbers).

    Choices that cannot combine are not offered (players below a home run's minimum, a standard
    surrender for a system without one, a royalty mode without royalties); anything else the
    rules reject is shown under the controls and leaves :attr:`variant` None.

    Parameters
    ----------
    preset
        The preset shown first (its game gives the controls).
    label
        A short name shown above the controls ("A", "B", ...).
    on_change
        Called with no arguments after every change.
    """

    def __init__(self, preset: str | None = None, label: str = "A", *,
                 on_change: Callable[[], None] | None = None) -> None:
        preset = preset or opening("picker")
        self.game = game_of(preset)
        #: The game's controls (:class:`~cpstats.engine.views.VariantControls`).
        self.rules = game_content(self.game.name, "picker")
        if self.rules is None:
            raise OptionError(f"preset={preset!r} is invalid: the {self.game.name} game gives no picker controls")
        self.label = label
        self._on_change = on_change
        self._loading = False
        wide = W.Layout(width="260px")
        style = {"description_width": "90px"}
        self.preset = W.Dropdown(options=tuple(self.game.presets), value=preset, description="preset",
                                 layout=wide, style=style)
        #: Every control by its key.
        self.controls = {c.key: _widget(c, wide, style) for c in self.rules.controls}
        #: The controls of each group by key, shown folded under the group's title.
        self.groups: dict[str, dict[str, W.Widget]] = {}
        for c in (c for c in self.rules.controls if c.group):
            self.groups.setdefault(c.group, {})[c.key] = self.controls[c.key]
        shown: list[W.Widget] = []  # the controls, a group's folded box where its first control is
        for c in self.rules.controls:
            if not c.group:
                shown.append(self.controls[c.key])
            elif next(iter(self.groups[c.group])) == c.key:
                shown.append(self._folded(c.group))
        self.status = W.HTML()
        #: Load a variant file (TOML or JSON); the links beside it download the variant shown.
        self.upload = W.FileUpload(accept=".toml,.json", multiple=False, description="Load",
                                   tooltip="load a variant file (.toml or .json)",
                                   layout=W.Layout(width="80px"))
        self.save_links = W.HTML()
        self.variant: AnyVariant | None = None
        self.error: str | None = None
        self._loaded: AnyVariant | None = None
        self._source: str | None = None
        self._notes: list[str] = []
        self.upload.observe(self._uploaded, names="value")
        self.preset.observe(self._preset_changed, names="value")
        for control in self.controls.values():
            control.observe(self._changed, names="value")
        self.widget = W.VBox([W.HTML(f"<b>Variant {html.escape(label)}</b>"), self.preset, *shown,
                              self.status, W.HBox([self.upload, self.save_links])],
                             layout=W.Layout(padding="4px", min_width="270px"))
        self._preset_changed()

    def _folded(self, group: str) -> W.Accordion:
        box = W.Accordion(children=[W.VBox(list(self.groups[group].values()))])
        box.set_title(0, group)
        box.selected_index = None
        return box

    def __getattr__(self, name: str) -> Any:
        """A control by its key (``picker.players``) or a group's controls by the group's name
        with ``_`` for spaces, its last word alone too (``picker.numbers``)."""
        state = self.__dict__
        if name in state.get("controls", {}):
            return state["controls"][name]
        for group, members in state.get("groups", {}).items():
            if name in (group.replace(" ", "_"), group.split()[-1]):
                return members
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _base(self) -> AnyVariant:
        """What the controls override: the variant loaded from a file, else the preset."""
        return self._loaded if self._loaded is not None else get_preset(self.preset.value)

    def _shown(self) -> dict[str, Any]:
        """Each control's value now, by key."""
        return {key: control.value for key, control in self.controls.items()}

    # the preset sets every control; the others override it
    def _preset_changed(self, change: dict | None = None) -> None:
        if self._loading:
            return
        self._loaded = self._source = None
        self._fill(get_preset(self.preset.value))

    def _set(self, values: dict[str, Any]) -> None:
        for key, value in values.items():
            self.controls[key].value = value

    def _fill(self, v: AnyVariant) -> None:
        """Set every control to ``v``'s rules, then rebuild the variant."""
        self._loading = True
        try:
            shown = self.rules.values(v)
            self._constrain(shown)
            self._set(shown)
        finally:
            self._loading = False
        self._changed()

    def _constrain(self, shown: dict[str, Any]) -> None:
        """Offer only the choices that combine with the others (``shown``), and say why."""
        limits = self.rules.limits(self._base(), shown)
        for key, (options, fallback) in limits.choices.items():
            control = self.controls[key]
            if tuple(control.options) != tuple(options):
                keep = control.value if control.value in options else fallback
                control.options = options
                control.value = keep
        for key, off in limits.disabled.items():
            self.controls[key].disabled = off
        for key, text in limits.labels.items():
            self.controls[key].description = text
        self._notes = list(limits.notes)

    def _overrides(self) -> dict[str, Any]:
        return self.rules.changes(self._base(), self._shown())

    def _changed(self, change: dict | None = None) -> None:
        if self._loading:
            return
        self._loading = True
        try:
            if change is not None:
                key = next((k for k, c in self.controls.items() if c is change.get("owner")), None)
                if key is not None:
                    self._set(self.rules.follow(key, self._shown()))
            self._constrain(self._shown())
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
        """The variant shown as a variant file (``.toml`` or ``.json``, the variant's ``to_file``),
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

    def set_variant(self, variant: AnyVariant | str, source: str | None = None) -> None:
        """Show ``variant`` (a variant, a variant string or a file path): the preset it derives
        from, every control set to its rules, and the variant itself as the controls' base; a
        variant of another game is refused in one line."""
        v = as_variant(variant, self.game.variant_type)
        self._loaded, self._source = v, source
        self._loading = True
        try:
            name = getattr(v, "name", None)
            self.preset.value = name if name in self.game.presets else opening("picker_base")
        finally:
            self._loading = False
        self._fill(v)

    def load(self, path: str | os.PathLike) -> AnyVariant:
        """Load a variant file (:func:`~cpstats.engine.registry.load_variant`) into the picker."""
        self.set_variant(as_variant(Path(path), self.game.variant_type), source=Path(path).name)
        return self.variant

    def load_bytes(self, name: str, content: bytes) -> AnyVariant | None:
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
