"""A rule sweep in the dashboard: :class:`SweepView` runs
:func:`~cpstats.thirteen.sweep.sweep` on a preset and shows its table and its chart with
confidence bands (:func:`~cpstats.apps.sweep_chart.plot_sweep`).

- Decision: the parameter is picked from the typical sweeps (:data:`TYPICAL`) or typed (any key
  of the variant string); where the preset lacks the rule the parameter refines (a rake percent
  on a game without a percentage rake, a commission on an unbanked game), the app adds it
  (:func:`prepared_variant`, from the rules its game says each parameter needs: its ``sweep``
  content) and says so in the status line, rather than refusing.
- Decision: open-face presets are offered beside the 13-card ones (the preset box also takes a
  variant string of either game); their sweeps play ``rollout`` where ``ev`` is chosen (open
  face's strong strategy) and train no tables.
- Decision: every point plays the apps' seed (:data:`~cpstats.apps.widgets.cache.SEED`) in their
  block size, serially, so the progress bar moves once per block of every point; a sweep is not
  cached (each click runs it).
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import pandas as pd

from cpstats.apps.sweep_chart import plot_sweep, save_sweep
from cpstats.apps.widgets._common import (DEAL_CHOICES, DEFAULT_STRATEGY, _STRATEGIES, _App,
                                          _message, _running, _show_figure, catalogue_of, game_content,
                                          label_of, opening, strategy_label)
from cpstats.apps.widgets.cache import SEED, WIDGET_BLOCK_DEALS, _InlineExecutor, trains_first
from cpstats.errors import OptionError
from cpstats.engine.registry import AnyVariant, load_variant, presets
from cpstats.engine.paired import MIN_EVENT_BATCHES

__all__ = ["SweepView", "TYPICAL", "prepared_variant", "sweep_table_html", "sweep_labels"]

#: Typical sweeps: parameter -> values offered when it is picked.
TYPICAL = {
    "royalties.front_trips": "0,2,5,10", "scoring.scoop_bonus": "0,1,3,6",
    "rake.percent": "0.02,0.05,0.08,0.1", "rake.cap": "0.5,1,2,4", "rake.amount": "3,6,9,12",
    "bank.commission": "0,0.025,0.05", "surrender": "none,1,2,3", "players": "4,3,2",
    "royalties.front.QQ": "7,6,8,9", "fantasyland.stay": "B,A,none",
}
def prepared_variant(preset: str, parameter: str) -> tuple[AnyVariant, str]:
    """The preset (or variant string, of any game) with the rules ``parameter`` needs added, and
    a note saying what was added (``""`` when nothing was; a variant whose game names no rules a
    parameter needs is swept as it is)."""
    v = load_variant(preset)
    needs = game_content(v.game, "sweep", {})
    test, overrides = needs.get(parameter.strip().lower(), (lambda _: True, {}))
    if test(v):
        return v, ""
    v = v.replace(**overrides)
    return v, f"{parameter} needs {', '.join(f'{k}={x}' for k, x in overrides.items())}: swept on {v}"


def sweep_labels(table: pd.DataFrame) -> dict[str, str]:
    """Each figure of a sweep table by name -> its catalogue label (basis and unit), the game's
    (``attrs["game"]``)."""
    catalogue = catalogue_of(table.attrs["game"])
    return {m: label_of(m, catalogue) for m in dict.fromkeys(table["metric"])}


def sweep_table_html(table: pd.DataFrame) -> str:
    """The sweep as an HTML table: a row per figure (its catalogue label, :func:`sweep_labels`), a
    column per value, each cell the estimate with its interval and, after the first value, the
    paired difference with its (the verb's)."""
    labels = sweep_labels(table)
    values = list(dict.fromkeys(table["value"]))
    notes: list[float] = []
    head = "".join(f"<th style='padding:1px 10px'>{html.escape(_value(v))}</th>" for v in values)
    body = []
    for metric, rows in table.groupby("metric", sort=False):
        cells = []
        for i, (_, r) in enumerate(rows.drop_duplicates("value").iterrows()):
            text = f"{_num(r['estimate'])} <small>[{_num(r['ci_low'])}, {_num(r['ci_high'])}]</small>"
            if i and r.get("diff_note"):  # no band: never "[0, 0]", a certain zero
                text += (f"<br><small title='{html.escape(r['diff_note'], quote=True)}'>diff "
                         f"{_num(r['diff'], True)} (no interval: too few events)</small>")
                notes.append(r["deals_for_interval"])
            elif i:
                text += (f"<br><small>diff {_num(r['diff'], True)} [{_num(r['diff_ci_low'], True)}, "
                         f"{_num(r['diff_ci_high'], True)}]</small>")
            cells.append(f"<td style='padding:1px 10px;text-align:right'>{text}</td>")
        label = html.escape(labels[metric])
        body.append(f"<tr><th style='text-align:left;padding-right:10px' title='{html.escape(metric, quote=True)}'>"
                    f"{label}</th>{''.join(cells)}</tr>")
    name = html.escape(str(table.attrs.get("parameter_label", "")))
    foot = "" if not notes else (
        f"<p><small>too few events: a difference resting on fewer than {MIN_EVENT_BATCHES} batches "
        f"with a differing deal has no interval; about {max(notes):,.0f} deals a point (at least, "
        "where no deal differed) would give every one</small></p>")
    return (f'<table class="cpstats-table cpstats-sweep" style="border-collapse:collapse">'
            f"<thead><tr><th style='text-align:left'>{name}</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{foot}")


def _value(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _num(x: float, signed: bool = False) -> str:
    if pd.isna(x):
        return "n/a"
    return f"{x:+.4g}" if signed else f"{x:.4g}"


class SweepView(_App):
    """One rule parameter of a preset over several values, on common deals.

    Parameters
    ----------
    preset, parameter, values
        The starting choices (``values`` comma-separated).
    deals, setter
        As in :class:`~cpstats.apps.widgets.VariantComparer`.

    Attributes
    ----------
    table
        The sweep on show (:func:`~cpstats.thirteen.sweep.sweep`'s table).
    figure
        The chart on show.

    Examples
    --------
    >>> app = SweepView("2-4", "scoring.scoop_bonus", "0,3", deals=1_000, setter="greedy")
    >>> app.run_button.click()
    >>> sorted(set(app.table["value"]))
    [0, 3]
    """

    def __init__(self, preset: str | None = None, parameter: str = "royalties.front_trips",
                 values: str | None = None, *, deals: int = 20_000,
                 setter: str = DEFAULT_STRATEGY) -> None:
        preset = preset or opening("sweep")
        self.table: pd.DataFrame | None = None
        self.figure = None
        style = {"description_width": "90px"}
        self.preset = W.Combobox(options=tuple(presets()["name"]), value=preset, description="preset",
                                 placeholder="a preset or variant string of either game",
                                 ensure_option=False, style=style)
        self.parameter = W.Combobox(value=parameter, options=tuple(TYPICAL), description="parameter",
                                    placeholder="a key of the variant string", ensure_option=False,
                                    style=style)
        self.values = W.Text(value=values or TYPICAL.get(parameter, "0,1,2"), description="values",
                             placeholder="comma-separated, first the baseline", style=style)
        options = sorted(set(DEAL_CHOICES) | {int(deals)})
        self.deals = W.Dropdown(options=[(f"{d:,}", d) for d in options], value=int(deals),
                                description="deals a point", style=style)
        self.strategy = W.Dropdown(options=_STRATEGIES, value=setter, description="strategy",
                                   style=style)
        self.kind = W.Dropdown(options=[("estimates", "estimate"),
                                        ("differences to the first value", "difference")],
                               value="estimate", description="chart", style=style)
        self.run_button = W.Button(description="Run sweep", button_style="primary", icon="play")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress", bar_style="info")
        self.status = W.HTML(_message("note", "pick a preset, a parameter and values, then Run sweep "
                                              f"(every value plays the same deals, seed {SEED})"))
        self.table_html = W.HTML()
        self.output = W.Output()
        self.parameter.observe(self._parameter_changed, names="value")
        self.kind.observe(lambda _: self.redraw(), names="value")
        self.run_button.on_click(lambda _: self.run())
        self.widget = W.VBox([
            W.HBox([W.VBox([self.preset, self.parameter, self.values]),
                    W.VBox([self.deals, self.strategy, self.run_button])]),
            W.HBox([self.progress, self.status]), self.table_html, self.kind, self.output,
        ], layout=W.Layout(width="100%"))

    def _parameter_changed(self, change: dict) -> None:
        if change["new"] in TYPICAL:
            self.values.value = TYPICAL[change["new"]]

    def run(self) -> None:
        """Run the sweep the controls describe and show it (a refusal is one line in the status)."""
        from cpstats.workbench import sweep
        from cpstats.engine.points import sweep_variants
        from cpstats.apps.cli.sweep import parse_values

        with self._guarded_run():
            base, note = prepared_variant(self.preset.value, self.parameter.value)
            values = parse_values(self.values.value)
            vs = sweep_variants(base, self.parameter.value, values)
            deals, strategy = int(self.deals.value), self.strategy.value
            self.progress.max, self.progress.value, self.progress.bar_style = deals * len(vs), 0, "info"
            training = any(trains_first(v, strategy) for v in vs)

            def point(i: int, v: Any) -> None:
                self.status.value = _running(f"{note + '; ' if note else ''}simulating {v} "
                                             f"({i + 1} of {len(vs)})", training)

            self.table = sweep(base, self.parameter.value, values, deals=deals, setter=strategy,
                               rng=SEED, executor=_InlineExecutor(self._advance),
                               block_deals=WIDGET_BLOCK_DEALS, on_point=point)
            self.progress.value, self.progress.bar_style = self.progress.max, "success"
            self.status.value = _message("ok", f"{note + '; ' if note else ''}{len(vs)} values of "
                                         f"{self.parameter.value} on {base}, {deals:,} deals each, "
                                         f"{strategy_label(strategy)}, seed {SEED}")
            self.table_html.value = sweep_table_html(self.table)
            self.redraw()

    def redraw(self) -> None:
        """Draw the chosen chart of the sweep on show (no simulation)."""
        if self.table is None:
            return
        self.figure = plot_sweep(self.table, kind=self.kind.value)
        _show_figure(self.output, self.figure)

    def export(self, folder: str | os.PathLike) -> list[Path]:
        """Write the table as CSV and both charts as PNG, SVG and PDF; returns the paths."""
        if self.table is None:
            raise OptionError("no sweep to export: click Run sweep first")
        paths = save_sweep(self.table, folder)
        plt.close("all")
        return paths
