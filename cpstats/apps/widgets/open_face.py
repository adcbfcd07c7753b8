"""The dashboard's rule explorer (app ``"rules"``): :class:`OpenFaceApp` plays a preset of the game
that registered it (open face) with the options a designer changes and shows its figures with 95%
intervals and a chart. What it offers and how the choices make a variant are the game's tab content
(:attr:`cpstats.engine.views.DashboardTab.content`: ``strategies``, ``fantasy``, ``stay``,
``royalty_keys``, ``royalty_words``, ``royalty_value``, ``players``, ``button``, ``buy_in``,
``match``, ``table_rules``, ``variant``, ``find``, ``shipped``, ``sections``, ``note``;
:mod:`cpstats.ofc.dashboard`), read through the registry.

- Decision: the app opens on the shipped run of the preset (``rollout``), and whenever the choice
  plays the rules and strategy of a shipped run it shows that run, charged the chosen rake (rake
  never moves play); any other choice is played live, seed :data:`~cpstats.apps.widgets.cache.SEED`,
  in blocks of :data:`OFC_BLOCK_HANDS` hands so the progress bar moves. Live results are kept by
  (variant string, hands, strategy).
- Decision: the table rules are three controls in a "Table" box (the button, the buy-in: a list
  of the content's amounts in which any number may be typed, the match), set to the preset's on
  a preset change and built into the variant like the others. Under the main table, each of the
  content's ``sections`` whose figures the run has ("Position", "Stakes and matches") is a small
  table of its own, followed by the content's ``note`` (what the interval says of acting last):
  a run without those rules (a fixed button, no buy-in, no match) shows neither.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import pandas as pd

from cpstats.apps.panels import figures_table, plot_results
from cpstats.apps.widgets._common import (ExportBar, _App, _message, _running, _show_figure,
                                          _table_html, catalogue_words, opening, page_style)
from cpstats.apps.widgets.cache import SEED, _InlineExecutor
from cpstats.errors import OptionError
from cpstats.engine.describe import short_label
from cpstats.engine.registry import game_of, get_preset
from cpstats.workbench import simulate
from cpstats.rules.house import Rake, RakeModel

__all__ = ["OpenFaceApp", "OFC_HAND_CHOICES", "OFC_BLOCK_HANDS"]

OFC_HAND_CHOICES = (100, 200, 500, 1_000, 2_000, 5_000, 10_000)
OFC_BLOCK_HANDS = 100


def _figures_html(table: pd.DataFrame, labels: dict[str, tuple[str, str]]) -> str:
    """A figures table (:func:`~cpstats.apps.panels.figures_table`) in HTML, each row in its format."""
    formats = {label: fmt for label, fmt in labels.values()}
    shown = table.rename(columns={"ci_low": "95% CI low", "ci_high": "95% CI high"})
    return _table_html(shown, formats, "cpstats-ofc")


class OpenFaceApp(_App):
    """An OFC preset with its options, played by a placement strategy, with its figures.

    Parameters
    ----------
    preset
        The OFC preset to open on.
    hands, setter
        Hands of a live run and the placement strategy (``rollout``; ``greedy`` and ``random``
        are baselines).

    Attributes
    ----------
    result
        The open-face ``SimulationResult`` on show; ``source`` says where it came from.
    table
        Its figures (:func:`~cpstats.apps.panels.figures_table` of the content's ``charts.labels``),
        each under its catalogue label (basis and unit, :attr:`labels`).
    sections
        The table rules' figures the run has, a small table a section title (the content's
        ``sections``; empty when the rules play none).
    note
        The line said under them (the content's ``note``; empty when there is nothing to say).
    figure
        The chart on show.
    """

    def __init__(self, preset: str | None = None, *, hands: int = 200, setter: str = "rollout") -> None:
        preset = preset or opening("rules")
        game = game_of(preset)
        #: The game's tab content (module docstring): its choices, the variant they make, its shipped runs.
        self.choices = game.runs.views.dashboard_tab.content
        self.result = self.table = self.figure = None
        self.labels: dict[str, tuple[str, str]] = {}
        self.sections: dict[str, Any] = {}
        self.note = ""
        self.source = ""
        self.runs: dict[tuple[str, int, str], Any] = {}
        style, wide = {"description_width": "130px"}, W.Layout(width="400px")
        box = lambda cls, **kw: cls(style=style, layout=wide, **kw)  # noqa: E731
        self.preset = box(W.Dropdown, options=tuple(game.presets), value=preset, description="preset")
        self.players = box(W.Dropdown, options=(2, 3), value=2, description="players")
        self.fantasy = box(W.Dropdown, options=tuple(self.choices.fantasy), value="the preset's",
                           description="Fantasyland cards")
        self.stay = box(W.Dropdown, options=self.choices.stay, value="B", description="stay rule")
        self.royalty_key = box(W.Dropdown, options=[(self.choices.royalty_words(k), k)
                                                    for k in self.choices.royalty_keys],
                               value="royalties.front.QQ",
                               description="royalty entry")
        self.royalty_amount = box(W.BoundedIntText, min=0, max=1000, value=7,
                                  description="amount (units)")
        self.button = box(W.Dropdown, options=self.choices.button, value=self.choices.button[0][1],
                          description="button")
        self.buy_in = box(W.Combobox, options=self.choices.buy_in, value=self.choices.buy_in[0],
                          ensure_option=False, placeholder="none, or points", description="buy-in (points)")
        self.match = box(W.Dropdown, options=self.choices.match, value=self.choices.match[0][1],
                         description="match")
        self.rake_model = box(W.Dropdown, options=[("none", "none"), ("time, per seat-hour", "time"),
                                                   ("per point won", "percent")],
                              value="none", description="rake")
        self.rake_amount = box(W.BoundedFloatText, min=0, max=1000, step=0.5, value=6.0,
                               description="fee a seat-hour")
        self.rake_percent = box(W.BoundedFloatText, min=0, max=1, step=0.01, value=0.05,
                                description="rake share of points")
        self.rake_cap = box(W.BoundedFloatText, min=0, max=1000, step=0.5, value=0.0,
                            description="rake cap (0: none)")
        # the variant's own pace, the one default of every hourly figure (rules.house.HANDS_PER_HOUR)
        self.hands_per_hour = box(W.BoundedIntText, min=1, max=500,
                                  value=round(get_preset(preset).rake.hands_per_hour),
                                  description="hands per hour")
        self.hands = box(W.Dropdown, options=[(f"{h:,}", h) for h in sorted({*OFC_HAND_CHOICES, hands})],
                         value=hands, description="hands (live run)")
        self.strategy = box(W.Dropdown, options=[(t, k) for k, t in self.choices.strategies.items()],
                            value=setter, description="strategy")
        self.run_button = W.Button(description="Run", button_style="primary", icon="play")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress", bar_style="info")
        self.status, self.table_html, self.output = W.HTML(), W.HTML(), W.Output()
        #: The table rules' sections and the note under them (:attr:`sections`, :attr:`note`).
        self.sections_html = W.HTML()
        #: Downloads of the chart (PNG, SVG, PDF) and of the table (CSV).
        self.export = ExportBar(game.name)
        game = W.VBox([W.HTML("<b>Game</b>"), self.preset, self.players, self.fantasy, self.stay,
                       self.royalty_key, self.royalty_amount])
        house = W.VBox([W.HTML("<b>House charge</b>"), self.rake_model, self.rake_amount,
                        self.rake_percent, self.rake_cap, self.hands_per_hour])
        play = W.VBox([W.HTML("<b>Table</b>"), self.button, self.buy_in, self.match,
                       W.HTML("<b>Play</b>"), self.strategy, self.hands, self.run_button])
        self.widget = W.VBox([W.HBox([game, house, play]), W.HBox([self.progress, self.status]),
                              self.table_html, self.sections_html, self.output, self.export.widget, page_style()])
        self._quiet = False
        self.preset.observe(self._preset_changed, names="value")
        self.royalty_key.observe(self._royalty_key_changed, names="value")
        for control in (self.players, self.fantasy, self.stay, self.royalty_amount, self.button, self.buy_in,
                        self.match, self.rake_model, self.rake_amount, self.rake_percent, self.rake_cap,
                        self.hands_per_hour, self.hands, self.strategy):
            control.observe(lambda _: self.find(), names="value")
        self.run_button.on_click(lambda _: self.run())
        self._preset_changed()

    # -- the choice ------------------------------------------------------------------------

    def rake(self) -> Rake:
        """The house charge the controls describe; the hands per hour turn any rake into a rate
        per seat-hour (a time rake also charges by them)."""
        model = RakeModel(self.rake_model.value)
        if model is RakeModel.TIME:
            return Rake(model=model, amount=float(self.rake_amount.value),
                        hands_per_hour=float(self.hands_per_hour.value))
        if model is RakeModel.PERCENT:
            cap = float(self.rake_cap.value) or None
            return Rake(model=model, percent=float(self.rake_percent.value), cap=cap)
        return Rake()

    def variant(self) -> Any:
        """The variant the controls describe (the content's ``variant``)."""
        return self.choices.variant(self.preset.value, players=self.players.value,
                                    fantasy=self.choices.fantasy[self.fantasy.value], stay=self.stay.value,
                                    royalty=(self.royalty_key.value, int(self.royalty_amount.value)),
                                    rake=self.rake(), button=self.button.value, buy_in=self.buy_in.value,
                                    match=self.match.value)

    def _label(self, strategy: str) -> str:
        return self.choices.strategies.get(strategy, strategy)

    def _preset_changed(self, _change: dict | None = None) -> None:
        v = get_preset(self.preset.value)
        self._quiet = True
        self.players.options = self.choices.players(v)
        self.players.value = v.players
        self.fantasy.value = "the preset's"
        self.stay.value = v.fantasyland.stay.value
        self.royalty_amount.value = self.choices.royalty_value(v, self.royalty_key.value)
        table = self.choices.table_rules(v)
        self.button.value, self.buy_in.value, self.match.value = table["button"], table["buy_in"], table["match"]
        self._quiet = False
        self.find()

    def _royalty_key_changed(self, _change: dict) -> None:
        self._quiet = True
        self.royalty_amount.value = self.choices.royalty_value(get_preset(self.preset.value),
                                                               self.royalty_key.value)
        self._quiet = False
        self.find()

    # -- results ---------------------------------------------------------------------------

    def find(self) -> bool:
        """Show the choice from a shipped run or an earlier live run (True), or say to click Run."""
        if self._quiet:
            return False
        try:
            v = self.variant()
        except OptionError as err:
            self.run_button.disabled = True
            self._clear()
            self.status.value = _message("error", f"not a valid game: {err}")
            return False
        self.run_button.disabled = False
        strategy = self.strategy.value
        live = self.runs.get((str(v), int(self.hands.value), strategy))
        found = live or self.choices.find(v, strategy)
        if found is None:
            self._clear()
            self.status.value = _message("stale", f"{short_label(v)}, {self._label(strategy)}: no shipped run "
                                                  f"plays these rules; click Run ({self.hands.value:,} hands)")
            return False
        self._show(found, "live run" if live is not None else self.choices.shipped)
        return True

    def _clear(self) -> None:
        """Take down the figures on show: they belong to another choice than the controls'."""
        self.result = self.table = self.figure = None
        self.sections, self.note = {}, ""
        self.table_html.value = self.sections_html.value = ""
        self.output.outputs = ()
        self.export.show()
        self.progress.value, self.progress.bar_style = 0, "info"

    def run(self) -> None:
        """Play the choice live (a refusal is one line in the status)."""
        with self._guarded_run():
            v, hands, strategy = self.variant(), int(self.hands.value), self.strategy.value
            self.progress.max, self.progress.value, self.progress.bar_style = hands, 0, "info"
            self.status.value = _running(f"playing {hands:,} hands of {short_label(v)}, {self._label(strategy)}")
            result = simulate(v, hands, setter=strategy, rng=SEED, block_deals=OFC_BLOCK_HANDS,
                              executor=_InlineExecutor(self._advance))
            self.runs[(str(v), hands, strategy)] = result
            self.progress.bar_style = "success"
            self._show(result, "live run")

    def _show(self, result, source: str) -> None:
        self.result, self.source = result, source
        strategy = result.metadata.get("strategy", "").split("/")[0]
        said = f"{short_label(result.variant)}: {result.deals:,} hands, {self._label(strategy)}, seed " \
               f"{result.metadata.get('entropy')}; {source}"
        self.status.value = _message("ok", said)
        charts = self.choices.charts
        #: The figures shown by name -> (catalogue label, format).
        self.labels = catalogue_words(result.variant.game, charts.labels)
        figures = result.figures(hands_per_hour=float(self.hands_per_hour.value))
        self.table = figures_table(figures, self.labels)
        self.table_html.value = _figures_html(self.table, self.labels)
        self._show_sections(result, figures)
        label = short_label(result.variant)
        self.figure = plot_results({label: result}, self.labels, charts.rates, charts.units,
                                   title=f"{label}; {result.deals:,} hands, {self._label(strategy)}")
        _show_figure(self.output, self.figure)
        every = pd.concat([self.table, *self.sections.values()])
        self.export.show(self.figure, every.assign(variant=str(result.variant), strategy=self._label(strategy),
                                                   hands=result.deals, seed=result.metadata.get("entropy"),
                                                   source=source))

    def _show_sections(self, result, figures) -> None:
        """The content's sections whose figures the run has, each a small table; the content's note
        under the first one shown."""
        self.note = self.choices.note(result.variant, figures)
        self.sections, parts = {}, []
        for title, words in self.choices.sections.items():
            labels = catalogue_words(result.variant.game, dict(words))
            table = figures_table(figures, labels)
            if len(table):
                self.sections[title] = table
                parts.append(f"<p><b>{html.escape(title)}</b></p>{_figures_html(table, labels)}")
        if parts and self.note:
            parts.insert(1, f"<p>{html.escape(self.note)}</p>")
        self.sections_html.value = "".join(parts)

    def export_files(self, folder: str | os.PathLike) -> list[Path]:
        """Write the tables as one CSV (the main table's rows, then the sections') and the chart as
        PNG, SVG and PDF into ``folder``."""
        if self.result is None:
            raise OptionError("nothing to export: click Run first")
        paths = self.export.save(folder)
        plt.close("all")
        return paths
