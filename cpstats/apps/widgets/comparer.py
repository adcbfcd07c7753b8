"""Comparing variants: :func:`comparison_table`, :func:`figures_table` and
:class:`VariantComparer`, two or three variants side by side on common deals, with paired
differences against variant A, and the skill table of the variants shown
(:class:`~cpstats.apps.widgets.skill.SkillView`).

- Decision: the headline table holds the designer's figures (SD before and after house charges,
  scoop and home-run rates, royalties and naturals paid, house take per hand and per seat-hour at
  the pace typed in, rake share; the bank's mean and the house edge only in banked games, the
  cost per player in symmetric ones), each with its 95% interval and its paired difference to A,
  as :func:`cpstats.compare` makes them: the game's ``compare`` content's ``figures`` is the
  function the verb builds its table with from results (13-card
  :func:`cpstats.thirteen.paired.paired_metrics`), called here on the results on show. Every row
  is a catalogue figure under its label (basis and unit, :func:`label_of`); the detailed table
  follows it, each result's own ``figures()`` (point estimates). The comparer computes no
  interval of its own.

- Decision: the table's first rows name who set the hands (strategy and ev's row tables) of
  each column, and every chart's title names the setter and the deal count, so figures of a
  weak baseline or of the reference results are never read as those of a live ev run; where
  the columns' strategies differ the labels carry the strategy and the app says so.

- Decision: every game that gives the comparer its ``compare`` content is compared in the same
  view, with a game switch above it (the content's ``switch`` words): the variants given pick the
  game shown (variants of two games are refused, one game's figures cannot be paired with the
  other's). A game whose variants are built in pickers (``kind == "picked"``, the 13-card game)
  shows the pickers; a game whose variants are typed (``kind == "typed"``, open face) shows
  :class:`~cpstats.apps.widgets.typed_compare.TypedCompare`, which takes presets or variant
  strings and shares the deals (hands), strategy and Simulate controls.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps import plots
from cpstats.apps.sweep_chart import mark_no_interval
from cpstats.apps.widgets._common import (
    DEAL_CHOICES, DEFAULT_STRATEGY, _STRATEGIES, _App, _message, _running, _show_figure,
    _table_html, _tables_text, catalogue_of, game_content, games_with, label_of, opening, runs_text, setter_text,
    strategy_label,
)
from cpstats.apps.widgets.cache import SEED, ResultCache
from cpstats.apps.widgets.picker import VariantPicker
from cpstats.apps.widgets.skill import SkillView
from cpstats.apps.widgets.typed_compare import TypedCompare
from cpstats.engine.base import Result
from cpstats.engine.catalogue import find_figure
from cpstats.engine.describe import short_label
from cpstats.engine.registry import game_named, load_variant
from cpstats.errors import OptionError

__all__ = ["comparison_table", "figures_table", "VariantComparer"]


def short_name(variant) -> str:
    """A readable name of a variant for headers: its short label
    (:func:`cpstats.engine.describe.short_label`)."""
    return short_label(variant)


def default_labels(results: Sequence[Result], mixed: bool = False) -> list[str]:
    """``A: name``, ``B: name``... (with the strategy when the columns' setters differ)."""
    return [f"{chr(65 + i)}: {short_name(r.variant)}" + (f" [{r.metadata.get('strategy')}]" if mixed else "")
            for i, r in enumerate(results)]


#: The detailed table's figures (each result's ``figures()``, by catalogue name; seat 0 stands for
#: the seats, the pooled figures follow) and their formats.
DETAIL_FIGURES = {
    "mean_seat0": "{:+.4f}", "sd_seat0": "{:.3f}", "hit_frequency_seat0": "{:.2%}", "push_rate_seat0": "{:.2%}",
    "sd": "{:.3f}", "sd_after_charges": "{:.3f}", "mean_after_charges": "{:+.4f}", "hit_frequency": "{:.2%}",
    "push_rate": "{:.2%}", "rake_per_hand": "{:.4f}",
}


def _paired(results: Sequence[Result]) -> bool:
    """True when the results played the same deals (same seed, block size and deal count)."""
    keys = {(r.metadata.get("entropy"), r.metadata.get("block_deals"), r.deals,
             str(r.metadata.get("spawn_key"))) for r in results}
    return len(keys) == 1


def comparison_table(results: Sequence[Result], labels: Sequence[str] | None = None,
                     confidence: float = 0.95) -> pd.DataFrame:
    """Side-by-side figures of several results, metrics as rows, one column per result.

    Parameters
    ----------
    results
        Two or more results; paired differences need the same deals (see :func:`_paired`),
        otherwise the difference's interval uses independent standard errors.
    labels
        Column names (default ``A: variant``, ``B: variant``, ...).
    confidence
        Level of the difference's interval.

    Returns
    -------
    DataFrame
        Rows ``strategy`` (its label: ``greedy (baseline: a weak field)``...), ``tables`` (the
        row tables that set ev's hands, ``none`` for another setter) and ``deals``, then the
        figures of :data:`DETAIL_FIGURES` as each result's ``figures()`` gives them, under their
        catalogue labels (``attrs["labels"]``: name -> label); ``attrs["paired"]`` tells whether
        the results played the same deals and ``attrs["mixed"]`` whether the columns' strategies
        differ (the default labels then end with the strategy). The paired differences with their
        intervals are :func:`figures_table`'s (the verb's).

    Examples
    --------
    >>> from cpstats import simulate
    >>> rs = [simulate(p, 1_000, setter="ev", rng=1) for p in ("2-4", "1-6")]
    >>> table = comparison_table(rs)
    >>> list(table.columns)
    ['A: 2-4', 'B: 1-6']
    >>> table.loc["strategy", "A: 2-4"], table.loc["tables", "B: 1-6"].startswith("1-6")
    ('ev (good play)', True)
    >>> table.attrs["labels"]["sd"], table.attrs["labels"]["sd_after_charges"]
    ('SD per hand, before house charges (units)', 'SD per hand after house charges (units)')
    """
    mixed = len({r.metadata.get("strategy") for r in results}) > 1
    labels = list(labels or default_labels(results, mixed))
    catalogue = catalogue_of(results[0].variant.game)
    names = {name: label_of(name, catalogue) for name in DETAIL_FIGURES}
    columns = {}
    for label, r in zip(labels, results):
        own = r.figures().set_index("metric")["estimate"]
        columns[label] = {"strategy": strategy_label(r.metadata.get("strategy")),
                          "tables": _tables_text(r) or "none", "deals": r.deals,
                          **{names[m]: float(own[m]) for m in DETAIL_FIGURES if m in own.index}}
    frame = pd.DataFrame(columns)
    frame.attrs.update(paired=_paired(results), mixed=mixed,
                       labels={m: x for m, x in names.items() if x in frame.index})
    return frame


def _detail_formats(table: pd.DataFrame) -> dict[str, str]:
    """The detailed table's formats by row label."""
    return {"deals": "{:,.0f}", **{label: DETAIL_FIGURES[m] for m, label in table.attrs["labels"].items()}}


def _number(value: float, unit: str, key: str, difference: bool = False) -> str:
    """A figure for reading: shares in percent (differences in percentage points), units with
    four decimals, money per hour with two."""
    if not np.isfinite(value):
        return "n/a"
    if unit == "share":
        return f"{100 * value:+.3f}" if difference else f"{value:.3%}"
    digits = 2 if key.endswith("hour") else 4
    return f"{value:+,.{digits}f}" if difference else f"{value:,.{digits}f}"


def _cell(values, unit: str, key: str, difference: bool = False, note: str = "") -> str:
    """``estimate (low to high)``; a difference of shares ends in ``pts`` (percentage points); an
    estimate without an interval says why (``no interval: too few events``), never ``0 to 0``."""
    est, low, high = (_number(x, unit, key, difference) for x in values)
    pts = " pts" if difference and unit == "share" else ""
    if est != "n/a" and "n/a" in (low, high):
        why = note.split(";")[0].split(":")[0] if note else ""
        return f"{est}{pts} (no interval{': ' + why if why else ''})"
    return f"{est}{pts} ({low} to {high})"


def figures_table(results: Sequence[Result], labels: Sequence[str] | None = None, *,
                  hands_per_hour: float | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """The designer's figures, one row each under its catalogue label (basis and unit), with their
    intervals and paired differences, as :func:`cpstats.compare` makes them.

    Each result's column reads ``estimate (low to high)``; each column after the first is
    followed by its difference to the first, ``difference (low to high)``: Student's t on the
    per-batch differences of common deals (independent standard errors otherwise; see
    the game's ``compare`` content's ``figures``, whose long table is ``attrs["figures"]``).
    A figure a game does not have (the bank's mean in a symmetric game) is left blank; a
    difference resting on too few differing deals reads ``+0.0150 (no interval: too few
    events)`` (its note, with the deals that would give one, is in ``attrs["figures"]``).
    ``hands_per_hour`` (None: each variant's pace) sets the house take per seat-hour.
    ``attrs["labels"]`` maps each figure's name to its row's label.
    """
    labels = list(labels or default_labels(results))
    game = results[0].variant.game
    figures = game_content(game, "compare").figures(results, labels, hands_per_hour=hands_per_hour,
                                                    confidence=confidence)
    catalogue = catalogue_of(game)
    level = f"{confidence:.0%}"
    columns: dict[str, dict[str, str]] = {}
    rows = {}
    short = [x.split(":")[0] if x.startswith(f"{chr(65 + i)}: ") else x for i, x in enumerate(labels)]
    for _, f in figures.iterrows():
        key, run = f["metric"], f["run"]
        figure = find_figure(key, catalogue)
        unit = "share" if figure is not None and figure.display in ("percent", "one in n") else "units"
        name = rows.setdefault(key, label_of(key, catalogue))
        columns.setdefault(labels[run], {})[name] = _cell(f[["estimate", "ci_low", "ci_high"]], unit, key)
        if run > 0:
            columns.setdefault(f"{short[run]} - {short[0]}", {})[name] = _cell(
                f[["diff", "diff_ci_low", "diff_ci_high"]], unit, key, True, f.get("diff_note", ""))
    frame = pd.DataFrame(columns).reindex(list(rows.values())).fillna("")
    frame.index.name = f"figure ({level} interval)"
    frame.attrs["figures"] = figures
    frame.attrs["labels"] = rows
    return frame


_CHARTS = ("SD per hand", "paired difference vs A", "net distribution", "royalty rates",
           "rake burden")


class VariantComparer(_App):
    """Two or three variants side by side on common deals.

    Parameters
    ----------
    presets
        The presets or variant strings of variants A, B and C (C is shown when
        ``len(presets) == 3``), all of one game: a typed game's (open face) open its view.
    deals
        Deals per simulation (the deals control's first value; hands of open face).
    setter
        Who sets the hands of live runs: ``ev`` (default, good play; rollout in open face), or a
        baseline of a weak field, ``greedy`` or ``random``.
    cache
        A :class:`ResultCache` to share with other apps.
    labels
        Short names of the columns (A, B, C); default ``A: name`` from the rules' short label.
    hands_per_hour
        Pace for the house take per seat-hour (the ``hands/hour`` box; changing it redraws).

    Attributes
    ----------
    results
        The results on show (reference results until the first Simulate).
    figures
        The designer's figures on show (:func:`figures_table`), shown first.
    table
        The detailed numbers on show (:func:`comparison_table`).
    figure
        The chart on show.
    skill
        The skill section (:class:`~cpstats.apps.widgets.skill.SkillView`) of the variants
        shown, run on the chosen deal count.
    game
        The game switch (a game's registered name, one of each game giving ``compare`` content).
    typed
        The view of the game whose variants are typed
        (:class:`~cpstats.apps.widgets.typed_compare.TypedCompare`, open face): its
        ``table``, ``figures`` and ``figure`` are that game's figures on show.

    Examples
    --------
    >>> app = VariantComparer(("2-4", "1-6"), deals=1_000)
    >>> app.simulate_button.click()
    >>> [int(d) for d in app.table.loc["deals"]]
    [1000, 1000]
    """

    def __init__(self, presets: Sequence[str] | None = None, *,
                 deals: int = 20_000, setter: str = DEFAULT_STRATEGY,
                 cache: ResultCache | None = None, labels: Sequence[str] | None = None,
                 hands_per_hour: float = 30.0) -> None:
        presets = tuple(opening("compare") if presets is None else presets)
        if not 2 <= len(presets) <= 3:
            raise ValueError(f"presets={list(presets)!r} is invalid: compare two or three variants")
        games = sorted({load_variant(p).game for p in presets})
        if len(games) > 1:
            raise OptionError(f"presets={list(presets)!r} mix the {' and '.join(games)} games: compare "
                              "variants of one game")
        views = {name: game_content(name, "compare") for name in games_with("compare")}
        #: The game whose variants are built in the pickers, and the one whose are typed.
        self.picked = next(name for name, view in views.items() if view.kind == "picked")
        self.typed_game = next(name for name, view in views.items() if view.kind == "typed")
        typed = games == [self.typed_game]
        picker_presets = game_named(self.picked).presets
        setter = "ev" if setter == "rollout" else setter
        self.cache = cache or ResultCache()
        self.labels = None if labels is None else [str(x) for x in labels]
        self.results: list[Result] = []
        self.table: pd.DataFrame | None = None
        self.figures: pd.DataFrame | None = None
        self.pace = W.BoundedFloatText(value=float(hands_per_hour), min=1, max=1_000, step=5,
                                       description="hands/hour",
                                       tooltip="hands dealt an hour: sets the house take per seat-hour")
        self.figure = None
        names = (list(opening("compare")[:2]) if typed else list(presets))
        names += [opening("compare_third")] * (3 - len(names))
        self.pickers = [VariantPicker(n if n in picker_presets else opening("picker_base"), chr(65 + i),
                                      on_change=self._variant_changed) for i, n in enumerate(names)]
        for picker, n in zip(self.pickers, names):
            if n not in picker_presets:  # a variant string: the picker shows its rules
                picker.set_variant(n)
        self.typed = TypedCompare(self.typed_game, list(presets) if typed else (), on_change=self._variant_changed)
        self.game = W.ToggleButtons(options=[(views[name].switch, name) for name in (self.picked, self.typed_game)],
                                    value=self.picked, description="game")
        self._deals_of = {self.picked: 20_000 if typed else int(deals), self.typed_game: int(deals) if typed else 200}
        self._status_of: dict[str, str] = {}
        self.third = W.Checkbox(value=len(presets) == 3, description="compare a third variant (C)")
        start = self._deals_of[self.picked]
        self.deals = W.Dropdown(options=[(f"{d:,}", d) for d in sorted(set(DEAL_CHOICES) | {start})],
                                value=start, description="deals")
        self.strategy = W.Dropdown(options=_STRATEGIES, value=setter, description="strategy")
        self.simulate_button = W.Button(description="Simulate", button_style="primary",
                                        icon="play", tooltip="simulate the variants on common deals")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress",
                                      bar_style="info")
        self.status = W.HTML()
        self.chart = W.Dropdown(options=_CHARTS, value=_CHARTS[0], description="chart")
        self.chart_variant = W.Dropdown(options=[("A", 0), ("B", 1), ("C", 2)], value=0,
                                        description="of variant")
        self.table_html = W.HTML()
        self.output = W.Output()
        self.third.observe(self._variant_changed, names="value")
        self.deals.observe(self._variant_changed, names="value")
        self.strategy.observe(self._variant_changed, names="value")
        self.simulate_button.on_click(lambda _: self.run())
        self.chart.observe(lambda _: self.redraw(), names="value")
        self.chart_variant.observe(lambda _: self.redraw(), names="value")
        self.pace.observe(lambda _: self.results and self._show(self.results), names="value")
        note = W.HTML(_message("note", "Live runs set hands with ev, the setter trained for each "
                                       "variant (20,000 deals take about a second per variant); "
                                       "greedy and random are baselines of a weak field. All "
                                       f"variants play the same deals, seed {SEED}."))
        self.skill = SkillView(self._shown_variants, deals=lambda: int(self.deals.value))
        self._picker_box = W.HBox([p.widget for p in self.pickers])
        self._picker_inputs = W.VBox([self._picker_box, self.pace, note])
        self._picker_shown = W.VBox([self.table_html, W.HBox([self.chart, self.chart_variant]),
                                       self.output, W.HTML("<b>Skill</b>"), self.skill.widget])
        self.widget = W.VBox([
            self.game, self._picker_inputs, self.typed.inputs, self.third,
            W.HBox([self.deals, self.strategy, self.simulate_button]),
            W.HBox([self.progress, self.status]), self._picker_shown, self.typed.shown,
        ], layout=W.Layout(width="100%"))
        self._open_from_reference()
        self.game.observe(self._game_changed, names="value")
        self.game.value = self.typed_game if typed else self.picked
        self._game_changed()

    # -- state -------------------------------------------------------------------------------

    @property
    def active(self) -> list[VariantPicker]:
        """The pickers in use (A and B, and C when ticked)."""
        return self.pickers[: 3 if self.third.value else 2]

    def _shown_variants(self) -> list[tuple[str, object]]:
        """(label, variant) of each active picker with a valid variant (the skill section's)."""
        return [(f"{p.label}: {short_label(p.variant)}", p.variant) for p in self.active
                if p.variant is not None]

    def _open_from_reference(self) -> None:
        refs = [self.cache.reference(p.variant, self.strategy.value) if p.variant is not None
                else None for p in self.active]
        if all(r is not None for r in refs):
            self._show(refs)
            self.status.value = _message(
                "note", f"reference results from cpstats/data/reference: {runs_text(refs)}; "
                f"Simulate runs {strategy_label(self.strategy.value)} on {self.deals.value:,} "
                f"deals per variant (seed {SEED})")
        else:
            self.status.value = _message("stale", "no reference result for these variants set by "
                                         f"{strategy_label(self.strategy.value)}: click Simulate")
        self._variant_changed()

    def _game_changed(self, change: dict | None = None) -> None:
        """Show the chosen game's part; the deals, strategy choices and status are each game's."""
        typed = self.game.value == self.typed_game
        if change is not None:
            self._deals_of[change["old"]] = int(self.deals.value)
            self._status_of[change["old"]] = self.status.value
        deals, strategy = self._deals_of[self.game.value], self.strategy.value
        self._switching = True
        try:
            choices = self.typed.content.hands if typed else DEAL_CHOICES
            self.deals.options = [(f"{d:,}", d) for d in sorted(set(choices) | {deals})]
            self.deals.value, self.deals.description = deals, game_named(self.game.value).unit
            self.strategy.options = self.typed.content.setters if typed else _STRATEGIES
            self.strategy.value = strategy
        finally:
            self._switching = False
        for box, on in ((self._picker_inputs, not typed), (self._picker_shown, not typed),
                        (self.typed.inputs, typed), (self.typed.shown, typed)):
            box.layout.display = None if on else "none"
        self.status.value = self._status_of.get(self.game.value, self.status.value)
        self.progress.value, self.progress.bar_style = 0, "info"
        self._variant_changed()

    def _variant_changed(self, change: dict | None = None) -> None:
        if not hasattr(self, "widget") or getattr(self, "_switching", False):
            return
        if self.game.value == self.typed_game:
            ok, self.status.value = self.typed.refresh(3 if self.third.value else 2, int(self.deals.value),
                                                           self.strategy.value)
            self.simulate_button.disabled = not ok
            return
        self.pickers[2].widget.layout.display = None if self.third.value else "none"
        self.skill.note_change()
        bad = [p for p in self.active if p.variant is None]
        self.simulate_button.disabled = bool(bad)
        if bad:
            self.status.value = _message("error", f"variant {bad[0].label} is not valid: "
                                                  f"{bad[0].error}")
            return
        cached = [self.cache.get(p.variant, self.deals.value, self.strategy.value)
                  for p in self.active]
        if all(c is not None for c in cached):
            self._show(cached)  # from the cache: no simulation
            self.status.value = _message("ok", f"from the cache: {runs_text(cached)}")
        elif self.results and [str(r.variant) for r in self.results] != [str(p.variant) for p in self.active]:
            self.status.value = _message("stale", "variants changed: click Simulate")
        elif self.results and {r.metadata.get("strategy") for r in self.results} != {self.strategy.value}:
            self.status.value = _message("stale", f"the figures shown are of {runs_text(self.results)}"
                                         f": click Simulate for {strategy_label(self.strategy.value)}")

    # -- actions -----------------------------------------------------------------------------

    def run(self) -> None:
        """Simulate the active variants (cached ones are reused) and show them."""
        if self.game.value == self.typed_game:
            return self._run_typed()
        variants = [p.variant for p in self.active]
        if any(v is None for v in variants):
            return
        deals, strategy = int(self.deals.value), self.strategy.value
        todo = [v for v in variants if self.cache.get(v, deals, strategy) is None]
        self.progress.max = max(deals * len(todo), 1)
        self.progress.value = 0
        self.progress.bar_style = "info"
        self.simulate_button.disabled = True
        try:
            results = []
            for v in variants:
                if self.cache.get(v, deals, strategy) is None:
                    done = todo.index(v)
                    self.status.value = _running(f"simulating {v} ({done + 1} of {len(todo)})",
                                                 self.cache.will_train(v, deals, strategy))
                results.append(self.cache.run(v, deals, strategy, on_block=self._advance))
            self._show(results)
            self.progress.value = self.progress.max
            self.progress.bar_style = "success"
            self.status.value = _message("ok", f"{runs_text(results)}, seed {self.cache.seed} "
                                         f"({len(todo)} simulated, {len(variants) - len(todo)} "
                                         "from the cache)")
        except Exception as err:  # shown in the app, never a dead output
            self._failed(err)
        finally:
            self.simulate_button.disabled = False

    def _run_typed(self) -> None:
        """Play the typed variants on common decks (:func:`cpstats.compare`) and show them."""
        count, hands, strategy = 3 if self.third.value else 2, int(self.deals.value), self.strategy.value
        self.progress.max, self.progress.value, self.progress.bar_style = hands * count, 0, "info"
        with self._guarded_run(self.simulate_button):
            words = {v: k for k, v in self.typed.content.setters}[strategy]
            self.status.value = _running(f"playing {count} {self.typed_game} variants, {hands:,} hands each, {words}")
            self.typed.run(count, hands, strategy, self._advance)
            self.progress.value, self.progress.bar_style = self.progress.max, "success"
            self.status.value = _message("ok", f"{count} {self.typed_game} variants on common decks, {hands:,} hands "
                                         f"each, {words}, seed {SEED}")

    def _labels(self) -> list[str] | None:
        """The user's column names when they name every column shown, else None (defaults)."""
        if self.labels is not None and len(self.labels) >= len(self.results):
            return self.labels[: len(self.results)]
        return None

    def _show(self, results: Sequence[Result]) -> None:
        self.results = list(results)
        self.table = comparison_table(self.results, self._labels())
        self.figures = figures_table(self.results, list(self.table.columns),
                                     hands_per_hour=float(self.pace.value))
        note = "" if self.table.attrs["paired"] else (
            "<br>" + _message("stale", "these results did not play the same deals: the difference's "
                              "interval uses independent standard errors"))
        if self.table.attrs["mixed"]:
            note += "<br>" + _message("stale", "these columns were set by different strategies: "
                                      "their differences mix the rules with the setter")
        self.table_html.value = (
            "<b>The designer's figures</b> (95% intervals; differences paired on common deals)"
            + _table_html(self.figures, {}, "cpstats-figures") + note
            + "<br><b>Details</b> (point estimates; the figures above carry the intervals)"
            + _table_html(self.table, _detail_formats(self.table), "cpstats-compare"))
        self.redraw()

    def redraw(self) -> None:
        """Draw the chosen chart from the results on show (no simulation)."""
        if not self.results:
            return
        try:
            self.figure = self._draw(self.chart.value)
            _show_figure(self.output, self.figure)
        except Exception as err:
            self.output.outputs = ({"output_type": "stream", "name": "stderr",
                                    "text": f"chart failed: {err}\n"},)

    def _draw(self, chart: str):
        """The chart, its title naming the setter and the deals of the figures drawn."""
        labels = list(self.table.columns)
        index = min(self.chart_variant.value, len(self.results) - 1)
        r = self.results[index]
        caption = runs_text(self.results)
        if chart == "SD per hand":  # the designer's figure, as in the table above, with its interval
            sd = self.figures.attrs["figures"].query("metric == 'sd'").sort_values("run")
            frame = pd.DataFrame({"variant": labels, "sd": sd["estimate"].to_numpy(float),
                                  "sd_low": sd["ci_low"].to_numpy(float), "sd_high": sd["ci_high"].to_numpy(float)})
            fig, title = plots.plot_sd_by_variant(frame, label=labels), "SD of a player's result per hand"
        elif chart == "paired difference vs A":
            fig, title = (_plot_differences(self.figures.attrs["figures"], self.figures.attrs["labels"]),
                          "Differences against variant A")
        elif chart in ("net distribution", "royalty rates"):
            caption = f"{setter_text(r)}; {r.deals:,} deals"
            if chart == "net distribution":
                fig = plots.plot_net_distribution(r.distribution(), seat=0)
                title = f"Net units per deal, seat 0: {labels[index]}"
            else:
                fig, title = plots.plot_royalty_rates(r.royalties()), f"Royalty hands made: {labels[index]}"
        else:
            frame = pd.concat([x.house() for x in self.results], ignore_index=True)
            frame.insert(0, "variant", labels)
            fig = plots.plot_rake_burden(frame)
            title = fig.axes[0].get_title() or "Rake burden"
        fig.axes[0].set_title(f"{title}\n{caption}", fontsize=10)
        return fig

    def export(self, folder: str | os.PathLike, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
        """Write the table as CSV and every chart in ``formats``; returns the paths (in open face
        the compare table and its chart, :meth:`TypedCompare.save`)."""
        if self.game.value == self.typed_game:
            return self.typed.save(folder)
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "comparison.csv", out / "figures.csv"]
        self.table.to_csv(paths[0])
        self.figures.attrs["figures"].to_csv(paths[1], index=False)
        for chart in _CHARTS:
            fig = self._draw(chart)
            for fmt in formats:
                path = out / f"{chart.replace(' ', '_')}.{fmt}"
                fig.savefig(path, bbox_inches="tight")
                paths.append(path)
            plt.close(fig)
        return paths


def _plot_differences(figures: pd.DataFrame, labels):
    """Paired differences against the first variant with their intervals (the verb's, ``figures``):
    figures in units on the left, rates and shares (percentage points) on the right, each named by
    its label (``labels``: name -> label); the per-hour money is left to the table (another scale)."""
    rows = figures[(figures["run"] > 0) & (figures["metric"] != "rake_per_seat_per_hour")]
    with plots.style():
        counts = [max(int((rows["unit"] == u).sum()), 1) for u in ("units", "share")]
        fig, axes = plt.subplots(2, 1, figsize=(8.5, 0.3 * sum(counts) + 2.6),
                                 gridspec_kw={"height_ratios": counts}, layout="constrained")
        for ax, unit, scale, name in ((axes[0], "units", 1.0, "units per hand"),
                                      (axes[1], "share", 100.0, "percentage points")):
            part = rows[rows["unit"] == unit].dropna(subset=["diff"])
            d, lo, hi = (part[c].to_numpy(float) * scale for c in ("diff", "diff_ci_low", "diff_ci_high"))
            y = np.arange(len(part))
            bare = ~(np.isfinite(lo) & np.isfinite(hi))
            ax.errorbar(d[~bare], y[~bare], xerr=np.vstack([d - lo, hi - d])[:, ~bare], fmt="o",
                        color="#2b6cb0", capsize=3)
            if bare.any():  # hollow: a difference resting on too few differing deals
                mark_no_interval(ax, d[bare], y[bare], "#2b6cb0")
                name += "; hollow: no interval, too few events"
            ax.axvline(0, color="#718096", lw=1)
            ax.set_yticks(y, [f"{label.split(':')[0]}: {labels[m]}"
                              for label, m in zip(part["label"], part["metric"])], fontsize=8)
            ax.invert_yaxis()
            ax.set_xlabel(f"difference against A, {name} (95% CI)")
        kind = "paired on common deals" if (rows["method"] == "paired batches").all() else "independent runs"
        axes[0].set_title(f"Differences against variant A ({kind})")
    return fig
