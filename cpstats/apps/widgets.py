"""Interactive apps for notebooks and the Voila dashboard: :class:`VariantComparer` and
:class:`RakeExplorer`.

Each app is built from ipywidgets controls, a Simulate button, a progress bar, an HTML table
and an ``Output`` holding the chart. Results are kept in a :class:`ResultCache` keyed by the
variant string, deal count and strategy, so charts are redrawn from the cache without
simulating again, and each app opens at once from the shipped reference results
(``cpstats/data/reference``).

Decisions:

- Decision: live recomputes use the ``greedy`` setter by default; ``ev`` is offered but is about
  four times slower (20,000 deals take about 1 s greedy, 4-5 s ev per variant here).
- Decision: apps simulate with seed :data:`SEED` in blocks of :data:`WIDGET_BLOCK_DEALS` deals,
  so every variant they run plays the same deals (paired differences) and the progress bar moves
  once per block. The reference results use the package's block size, so they are paired with
  each other but not with app runs; :func:`comparison_table` falls back to independent-sample
  intervals (and says so) when results do not share their deals.
- Decision: a chart is shown by setting the ``Output``'s outputs to the figure's PNG, not with
  ``with out: display(fig)``, which captures nothing outside a kernel: the same code then works
  in Jupyter, in Voila and in tests.
- Decision: a run that will compile the kernels (the first after install) says so in the
  status beside the progress bar (:data:`cpstats.apps._warmup.COMPILE_MESSAGE`).
- Decision: :func:`rake_figures` shows the jackpot drop apart from the rake, as the settlement
  does, and computes a banked game's commission or fee once, on nets that never hold it.
"""

from __future__ import annotations

import base64
import html
import io
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps import plots
from cpstats.rules.presets import get_preset, preset_names
from cpstats.rules.variant import (
    STANDARD_SURRENDER, NaturalSchedule, Rake, RakeModel, RoyaltyMode, RoyaltySchedule, Scoring,
    Surrender, Variant,
)
from cpstats.apps._warmup import COMPILE_MESSAGE, needs_compiling
from cpstats.rules.variant import HOME_RUN_PLAYERS
from cpstats.simulation.run import SimulationResult, load_reference, simulate
from cpstats.simulation.stats import batch_mean_interval, t_value, z_value

__all__ = ["ResultCache", "VariantPicker", "VariantComparer", "RakeExplorer", "comparison_table",
           "SEED", "WIDGET_BLOCK_DEALS", "DEFAULT_STRATEGY"]

SEED = 2026  # the CLI's default seed, so app runs and ``cpstats simulate`` agree
WIDGET_BLOCK_DEALS = 2048
DEFAULT_STRATEGY = "greedy"
DEAL_CHOICES = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
_STRATEGIES = (("greedy (fast, default)", "greedy"), ("ev (about 4x slower)", "ev"))


# -- running and caching --------------------------------------------------------------------

class _InlineExecutor:
    """A serial ``concurrent.futures``-style executor that reports each finished block."""

    def __init__(self, on_block: Callable[[int], None]) -> None:
        self._on_block = on_block

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # handed back through the future, as a pool would
            future.set_exception(err)
        else:
            self._on_block(int(args[-1]))  # _run_block(spec, block, size)
        return future


class ResultCache:
    """Simulation results keyed by (variant string, deals, strategy), plus reference results.

    Parameters
    ----------
    seed
        Root seed of every run (the same deals for every variant).
    block_deals
        Deals per block; the progress bar moves once per block.

    Attributes
    ----------
    runs
        Number of simulations actually run (cache misses).
    """

    def __init__(self, *, seed: int = SEED, block_deals: int = WIDGET_BLOCK_DEALS) -> None:
        self.seed = seed
        self.block_deals = block_deals
        self.runs = 0
        self._results: dict[tuple[str, int, str], SimulationResult] = {}
        self._references: dict[str, SimulationResult | None] = {}

    def get(self, variant: Variant | str, deals: int, strategy: str) -> SimulationResult | None:
        """The cached result, or None."""
        return self._results.get((str(variant), int(deals), str(strategy)))

    def reference(self, variant: Variant | str) -> SimulationResult | None:
        """The shipped reference result of a plain preset (``cpstats/data/reference``), or None."""
        text = str(variant)
        if text not in preset_names():
            return None
        if text not in self._references:
            try:
                self._references[text] = load_reference(text)
            except Exception:  # missing or unreadable file: the app offers Simulate instead
                self._references[text] = None
        return self._references[text]

    def run(self, variant: Variant, deals: int, strategy: str,
            on_block: Callable[[int], None] | None = None) -> SimulationResult:
        """The cached result, or a new simulation (reporting each block to ``on_block``)."""
        found = self.get(variant, deals, strategy)
        if found is not None:
            if on_block is not None:
                on_block(int(deals))
            return found
        executor = _InlineExecutor(on_block or (lambda n: None))
        result = simulate(variant, int(deals), strategy=strategy, rng=self.seed, executor=executor,
                          block_deals=self.block_deals)
        self.runs += 1
        self._results[(str(variant), int(deals), str(strategy))] = result
        return result


# -- shared pieces ----------------------------------------------------------------------------

def _show_figure(out: W.Output, fig) -> None:
    """Put ``fig`` into ``out`` as a PNG (works with or without a kernel) and close it."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    png = base64.b64encode(buf.getvalue()).decode("ascii")
    title = "; ".join(ax.get_title() for ax in fig.axes if ax.get_title())
    out.outputs = ({"output_type": "display_data", "metadata": {},
                    "data": {"image/png": png, "text/plain": f"<chart: {title}>"}},)


def _message(kind: str, text: str) -> str:
    colour = {"error": "#c53030", "note": "#4a5568", "ok": "#2f855a", "stale": "#b7791f"}[kind]
    return f'<span style="color:{colour}">{html.escape(text)}</span>'


def _running(text: str) -> str:
    """The status of a simulation about to start, with :data:`COMPILE_MESSAGE` while numba has
    not yet compiled the kernels (audit 13.23: the first run after install pauses with no word)."""
    return _message("note", f"{text}; {COMPILE_MESSAGE}" if needs_compiling() else text)


def _table_html(frame: pd.DataFrame, formats: dict[str, str], css_class: str) -> str:
    """An HTML table of ``frame`` (metrics as rows), each row formatted by ``formats``."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for name, row in frame.iterrows():
        fmt = formats.get(name, "{:.4g}")
        cells = "".join(f"<td style='padding:1px 10px;text-align:right'>{'' if pd.isna(v) else (fmt.format(v) if isinstance(v, (int, float, np.number)) else html.escape(str(v)))}</td>"
                        for v in row)
        rows.append(f"<tr><th style='text-align:left;padding-right:10px'>{html.escape(str(name))}</th>{cells}</tr>")
    return (f'<table class="cpstats-table {css_class}" style="border-collapse:collapse">'
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


class _App:
    """The common frame of an app: its widget tree is ``self.widget``; shows in a notebook."""

    widget: W.Widget

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)

    def _advance(self, deals: int) -> None:
        self.progress.value = min(self.progress.value + deals, self.progress.max)

    def _failed(self, err: Exception) -> None:
        """Show a failed run in the app (never a dead output)."""
        self.progress.bar_style = "danger"
        self.status.value = _message("error", f"simulation failed: {type(err).__name__}: {err}")


# -- choosing a variant -----------------------------------------------------------------------

_SURRENDER_CHOICES = ("none", "standard", "1", "2", "3")


def _surrender_choice(text: str) -> Surrender:
    """The surrender a picker choice names: ``none``, ``standard`` (the scoring system's own
    amount) or exact units, built as a component so that "1" is never read as "true"."""
    if text == "none":
        return Surrender()
    return Surrender(enabled=True, amount=None if text == "standard" else int(text))


class VariantPicker:
    """Controls for one variant: a preset plus overrides of scoring, royalties, royalty mode,
    naturals, surrender, players and rake.

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

    def __init__(self, preset: str = "2-4", label: str = "A", *,
                 on_change: Callable[[], None] | None = None) -> None:
        self.label = label
        self._on_change = on_change
        self._loading = False
        wide = W.Layout(width="260px")
        style = {"description_width": "90px"}
        self.preset = W.Dropdown(options=preset_names(), value=preset, description="preset",
                                 layout=wide, style=style)
        self.scoring = W.Dropdown(options=[s.value for s in Scoring], description="scoring",
                                  layout=wide, style=style)
        self.royalties = W.Dropdown(options=[r.value for r in RoyaltySchedule],
                                    description="royalties", layout=wide, style=style)
        self.royalty_mode = W.Dropdown(options=[m.value for m in RoyaltyMode],
                                       description="royalty mode", layout=wide, style=style)
        self.naturals = W.Dropdown(options=[n.value for n in NaturalSchedule],
                                   description="naturals", layout=wide, style=style)
        self.surrender = W.Dropdown(options=_SURRENDER_CHOICES, description="surrender",
                                    layout=wide, style=style)
        self.players = W.Dropdown(options=(2, 3, 4), description="players", layout=wide,
                                  style=style)
        self.rake = W.Dropdown(options=[m.value for m in RakeModel], description="rake",
                               layout=wide, style=style)
        self.rake_amount = W.BoundedFloatText(value=0.0, min=0.0, max=100.0, step=0.05,
                                              description="rake amount", layout=wide, style=style)
        self.status = W.HTML()
        self.variant: Variant | None = None
        self.error: str | None = None
        self.preset.observe(self._preset_changed, names="value")
        for control in (self.scoring, self.royalties, self.royalty_mode, self.naturals,
                        self.surrender, self.players, self.rake, self.rake_amount):
            control.observe(self._changed, names="value")
        self.widget = W.VBox([W.HTML(f"<b>Variant {html.escape(label)}</b>"), self.preset,
                              self.scoring, self.royalties, self.royalty_mode, self.naturals,
                              self.surrender, self.players, self.rake, self.rake_amount,
                              self.status], layout=W.Layout(padding="4px", min_width="270px"))
        self._preset_changed()

    # the preset sets every control; the others override it
    def _preset_changed(self, change: dict | None = None) -> None:
        v = get_preset(self.preset.value)
        self._loading = True
        try:
            self.scoring.value = v.scoring.value
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

    @staticmethod
    def _surrender_text(v: Variant) -> str:
        if not v.surrender.enabled:
            return "none"
        return "standard" if v.surrender.amount is None else f"{v.surrender.amount:g}"

    def _constrain(self) -> None:
        """Offer only the choices that combine with the others, and say why."""
        base = get_preset(self.preset.value)
        scoring = Scoring(self.scoring.value)
        notes = []
        if base.deal.value == "D3":
            players = (2,)
            notes.append("criss-cross is heads-up: 2 players")
        else:
            least = HOME_RUN_PLAYERS.get(scoring, 2)
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
        base = get_preset(self.preset.value)
        over: dict[str, Any] = {}
        if self.scoring.value != base.scoring.value:
            over["scoring"] = self.scoring.value
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
            self._constrain()
        finally:
            self._loading = False
        try:
            self.variant = get_preset(self.preset.value).replace(**self._overrides())
            self.error = None
            notes = "".join(f"<br>{_message('note', n)}" for n in self._notes)
            self.status.value = f"<code>{html.escape(str(self.variant))}</code>{notes}"
        except Exception as err:  # the rules' own message, shown where the choice was made
            self.variant = None
            self.error = str(err)
            self.status.value = _message("error", f"not a valid variant: {err}")
        if self._on_change is not None:
            self._on_change()


# -- comparing variants -----------------------------------------------------------------------

_COMPARE_FORMATS = {
    "deals": "{:,.0f}", "mean seat 0 (units)": "{:+.4f}", "mean seat 0 SE": "{:.4f}",
    "SD per hand, seat 0 (units)": "{:.3f}", "SD per hand, other seats (units)": "{:.3f}",
    "hit frequency seat 0": "{:.2%}", "push rate seat 0": "{:.2%}", "scoop rate (per pair)": "{:.2%}",
    "home-run rate (per hand)": "{:.3%}", "foul rate": "{:.3%}", "surrender rate": "{:.3%}",
    "royalty hands per played hand": "{:.3%}", "naturals declared per hand": "{:.3%}",
    "rake per hand (units)": "{:.4f}", "difference vs A, seat 0 (units)": "{:+.4f}",
    "difference 95% CI low": "{:+.4f}", "difference 95% CI high": "{:+.4f}",
}


def _paired(results: Sequence[SimulationResult]) -> bool:
    """True when the results played the same deals (same seed, block size and deal count)."""
    keys = {(r.metadata.get("entropy"), r.metadata.get("block_deals"), r.deals,
             str(r.metadata.get("spawn_key"))) for r in results}
    return len(keys) == 1


def comparison_table(results: Sequence[SimulationResult], labels: Sequence[str] | None = None,
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
        Rows as in ``_COMPARE_FORMATS``; ``attrs["paired"]`` tells how differences were made.

    Examples
    --------
    >>> from cpstats.simulation import simulate
    >>> rs = [simulate(p, 1_000, strategy="greedy", rng=1) for p in ("2-4", "1-6")]
    >>> table = comparison_table(rs)
    >>> list(table.columns)
    ['A: 2-4', 'B: 1-6']
    >>> float(table.loc["difference vs A, seat 0 (units)", "A: 2-4"])
    0.0
    """
    labels = list(labels or [f"{chr(65 + i)}: {r.variant}" for i, r in enumerate(results)])
    paired = _paired(results)
    base = results[0]
    base_mean = float(base.summary["net_s1"][0]) / base.deals
    base_se = float(base.moments()["se"].iloc[0])
    columns = {}
    for label, r in zip(labels, results):
        s, m = r.summary, r.moments()
        hands = r.deals * len(s["foul"])
        mean = float(m["mean"].iloc[0])
        if paired:  # per-deal differences: Student's t on their batch means
            diff = s["batch_sums"][:, :1] - base.summary["batch_sums"][:, :1]
            half = float(batch_mean_interval(diff, s["batch_sizes"], confidence)[2][0]) if r is not base else 0.0
        else:
            se = 0.0 if r is base else float(np.hypot(m["se"].iloc[0], base_se))
            half = t_value(confidence, len(s["batch_sizes"])) * se
        d = mean - base_mean
        scoops = r.scoops()
        columns[label] = {
            "deals": r.deals, "mean seat 0 (units)": mean, "mean seat 0 SE": float(m["se"].iloc[0]),
            "SD per hand, seat 0 (units)": float(m["sd"].iloc[0]),
            "SD per hand, other seats (units)": float(m["sd"].iloc[1:].mean()),
            "hit frequency seat 0": float(m["hit_frequency"].iloc[0]),
            "push rate seat 0": float(m["push_rate"].iloc[0]),
            "scoop rate (per pair)": float(scoops["rate"].mean()) if len(scoops) else 0.0,
            "home-run rate (per hand)": float(np.mean(scoops.attrs["home_run_rate"])),
            "foul rate": float(s["foul"].sum() / hands),
            "surrender rate": float(s["surrender"].sum() / hands),
            "royalty hands per played hand": float(s["royalty_made"].sum() / max(int(s["rows_played"]), 1)),
            "naturals declared per hand": float(s["declared"].sum() / hands),
            "rake per hand (units)": float(s["rake_s1"]) / r.deals,
            "difference vs A, seat 0 (units)": d,
            "difference 95% CI low": d - half, "difference 95% CI high": d + half,
        }
    frame = pd.DataFrame(columns)
    frame.attrs["paired"] = paired
    return frame


_CHARTS = ("SD per hand", "paired difference vs A", "net distribution", "royalty rates",
           "rake burden")


class VariantComparer(_App):
    """Two or three variants side by side on common deals.

    Parameters
    ----------
    presets
        The presets of variants A, B and C (C is shown when ``len(presets) == 3``).
    deals
        Deals per simulation (the deals control's first value).
    strategy
        Setting strategy of live runs (``greedy`` by default: fast).
    cache
        A :class:`ResultCache` to share with other apps.

    Attributes
    ----------
    results
        The results on show (reference results until the first Simulate).
    table
        The numbers on show (:func:`comparison_table`).
    figure
        The chart on show.

    Examples
    --------
    >>> app = VariantComparer(("2-4", "1-6"), deals=1_000)
    >>> app.simulate_button.click()
    >>> [int(d) for d in app.table.loc["deals"]]
    [1000, 1000]
    """

    def __init__(self, presets: Sequence[str] = ("2-4", "1-6", "taiwanese"), *,
                 deals: int = 20_000, strategy: str = DEFAULT_STRATEGY,
                 cache: ResultCache | None = None) -> None:
        if not 2 <= len(presets) <= 3:
            raise ValueError(f"presets={list(presets)!r} is invalid: compare two or three variants")
        self.cache = cache or ResultCache()
        self.results: list[SimulationResult] = []
        self.table: pd.DataFrame | None = None
        self.figure = None
        names = list(presets) + ["pagat-typical"] * (3 - len(presets))
        self.pickers = [VariantPicker(n, chr(65 + i), on_change=self._variant_changed)
                        for i, n in enumerate(names)]
        self.third = W.Checkbox(value=len(presets) == 3, description="compare a third variant (C)")
        options = sorted(set(DEAL_CHOICES) | {int(deals)})
        self.deals = W.Dropdown(options=[(f"{d:,}", d) for d in options], value=int(deals),
                                description="deals")
        self.strategy = W.Dropdown(options=_STRATEGIES, value=strategy, description="strategy")
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
        note = W.HTML(_message("note", "Live runs use the greedy setter by default (20,000 deals "
                                       "take about a second per variant); ev is slower. All "
                                       "variants play the same deals, seed 2026."))
        self._picker_box = W.HBox([p.widget for p in self.pickers])
        self.widget = W.VBox([
            self._picker_box, self.third,
            W.HBox([self.deals, self.strategy, self.simulate_button]), note,
            W.HBox([self.progress, self.status]), self.table_html,
            W.HBox([self.chart, self.chart_variant]), self.output,
        ], layout=W.Layout(width="100%"))
        self._open_from_reference()

    # -- state -------------------------------------------------------------------------------

    @property
    def active(self) -> list[VariantPicker]:
        """The pickers in use (A and B, and C when ticked)."""
        return self.pickers[: 3 if self.third.value else 2]

    def _open_from_reference(self) -> None:
        refs = [self.cache.reference(p.variant) if p.variant is not None else None
                for p in self.active]
        if all(r is not None for r in refs):
            self._show(refs)
            r = refs[0]
            self.status.value = _message("note", f"reference results from cpstats/data/reference: "
                                         f"{r.deals:,} deals, strategy {r.metadata.get('strategy')}"
                                         "; click Simulate for a live run")
        else:
            self.status.value = _message("stale", "no reference result for these variants: "
                                         "click Simulate")
        self._variant_changed()

    def _variant_changed(self, change: dict | None = None) -> None:
        if not hasattr(self, "widget"):
            return
        self.pickers[2].widget.layout.display = None if self.third.value else "none"
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
            self.status.value = _message("ok", "from the cache")
        elif self.results and [str(r.variant) for r in self.results] != [str(p.variant) for p in self.active]:
            self.status.value = _message("stale", "variants changed: click Simulate")

    # -- actions -----------------------------------------------------------------------------

    def run(self) -> None:
        """Simulate the active variants (cached ones are reused) and show them."""
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
                    self.status.value = _running(f"simulating {v} ({done + 1} of {len(todo)})")
                results.append(self.cache.run(v, deals, strategy, on_block=self._advance))
            self._show(results)
            self.progress.value = self.progress.max
            self.progress.bar_style = "success"
            self.status.value = _message("ok", f"{deals:,} deals per variant, strategy {strategy}"
                                         f" ({len(todo)} simulated, {len(variants) - len(todo)} "
                                         "from the cache)")
        except Exception as err:  # shown in the app, never a dead output
            self._failed(err)
        finally:
            self.simulate_button.disabled = False

    def _show(self, results: Sequence[SimulationResult]) -> None:
        self.results = list(results)
        self.table = comparison_table(self.results)
        note = "" if self.table.attrs["paired"] else (
            "<br>" + _message("stale", "these results did not play the same deals: the difference's "
                              "interval uses independent standard errors"))
        self.table_html.value = _table_html(self.table, _COMPARE_FORMATS, "cpstats-compare") + note
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
        labels = list(self.table.columns)
        if chart == "SD per hand":
            frame = pd.DataFrame({"variant": labels, "sd": self.table.loc["SD per hand, seat 0 (units)"].to_numpy(float)})
            fig = plots.plot_sd_by_variant(frame)
            fig.axes[0].set_title("SD per hand, seat 0")
            return fig
        if chart == "paired difference vs A":
            return _plot_differences(self.table)
        index = min(self.chart_variant.value, len(self.results) - 1)
        r = self.results[index]
        if chart == "net distribution":
            fig = plots.plot_net_distribution(r.distribution(), seat=0)
            fig.axes[0].set_title(f"Net units per deal, seat 0: {labels[index]}")
            return fig
        if chart == "royalty rates":
            fig = plots.plot_royalty_rates(r.royalties())
            fig.axes[0].set_title(f"Royalty hands made: {labels[index]}")
            return fig
        frame = pd.concat([x.house() for x in self.results], ignore_index=True)
        frame.insert(0, "variant", labels)
        return plots.plot_rake_burden(frame)

    def export(self, folder: str | os.PathLike, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
        """Write the table as CSV and every chart in ``formats``; returns the paths."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "comparison.csv"]
        self.table.to_csv(paths[0])
        for chart in _CHARTS:
            fig = self._draw(chart)
            for fmt in formats:
                path = out / f"{chart.replace(' ', '_')}.{fmt}"
                fig.savefig(path, bbox_inches="tight")
                paths.append(path)
            plt.close(fig)
        return paths


def _plot_differences(table: pd.DataFrame):
    """Paired differences of seat 0's mean against variant A, with their intervals."""
    with plots.style():
        labels = list(table.columns)
        fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(labels) + 1.5))
        d = table.loc["difference vs A, seat 0 (units)"].to_numpy(float)
        lo = table.loc["difference 95% CI low"].to_numpy(float)
        hi = table.loc["difference 95% CI high"].to_numpy(float)
        y = np.arange(len(labels))
        ax.errorbar(d, y, xerr=np.vstack([d - lo, hi - d]), fmt="o", color="#2b6cb0", capsize=3)
        ax.axvline(0, color="#718096", lw=1)
        ax.set_yticks(y, labels)
        ax.invert_yaxis()
        kind = "paired, common deals" if table.attrs.get("paired") else "independent runs"
        ax.set_xlabel(f"difference in seat 0's mean, units per deal (95% CI, {kind})")
        ax.set_title("Difference against variant A")
        fig.tight_layout()
    return fig


# -- rake and house money ---------------------------------------------------------------------

_RAKE_FORMATS = {
    "rake per hand (units)": "{:.4f}", "rake per seat per hand (units)": "{:.4f}",
    "jackpot drop per hand (units)": "{:.4f}", "rake per seat per hour (money)": "{:,.2f}",
    "jackpot drop per hour, table (money)": "{:,.2f}",
    "rake per hour, table (money)": "{:,.2f}", "rake share of gross winnings": "{:.2%}",
    "break-even skill edge (units per hand)": "{:.4f}", "player's expectation (units per hand)": "{:+.4f}",
    "player's expectation per hour (money)": "{:+,.2f}", "SD per hand, seat (units)": "{:.3f}",
    "house edge, bank (units per player hand)": "{:+.4f}", "house edge SE": "{:.4f}",
    "commission or fee per player hand (units)": "{:.4f}",
}


def _positive_part(result: SimulationResult, seats: Sequence[int]) -> tuple[float, float]:
    """(E[max(X, 0)], P(X > 0)) per hand over ``seats``, from the net distribution."""
    dist = result.distribution()
    win = dist["net"].to_numpy() > 0
    e_pos = np.mean([(dist["net"][win] * dist[f"p_{s}"][win]).sum() for s in seats])
    p_win = np.mean([dist[f"p_{s}"][win].sum() for s in seats])
    return float(e_pos), float(p_win)


def _bank_edge(result: SimulationResult) -> tuple[float, float]:
    """(The bank's mean win per player seat and hand, its SE), before any commission or fee,
    which the nets never include (``settlement``). Where the result recorded the bank's gain
    from winning ties, that control variate is used (see ``SimulationResult.house``): its mean
    is the bank's and its noise far smaller; otherwise the bank's own nets."""
    s = result.summary
    opponents = max(result.variant.players - 1, 1)
    per_deal = s["batch_tie_gain"] if "batch_tie_gain" in s else s["batch_sums"][:, 0]
    mean, se, _ = batch_mean_interval(per_deal / opponents, s["batch_sizes"])
    return float(mean), float(se)


def _bank_charges(result: SimulationResult, commission: float | None,
                  fee: float | None) -> tuple[float, float]:
    """(The commission or fee charged per player hand, the one the result was simulated with):
    ``commission * E[max(X, 0)] + fee * P(X > 0)`` over the player seats, X a seat's net."""
    bank = result.variant.bank
    e_pos, p_win = _positive_part(result, range(1, result.variant.players))
    simulated = bank.commission * e_pos + bank.fee * p_win
    commission = bank.commission if commission is None else commission
    fee = bank.fee if fee is None else fee
    return commission * e_pos + fee * p_win, simulated


def _rake_per_hand(result: SimulationResult, rake: Rake, hands_per_hour: float,
                   simulated_bank: float) -> float:
    """The house's rake per hand (no jackpot drop, no bank's charge) for ``rake`` on ``result``.

    A capped or thresholded percentage is the simulated rake less the bank's charges in it
    (``simulated_bank`` per deal); the settlement's rake never holds the jackpot drop."""
    seats = result.variant.players
    if rake.model is RakeModel.PERCENT and (rake.cap is not None or rake.threshold > 0):
        return float(result.summary["rake_s1"]) / result.deals - simulated_bank
    if rake.model is RakeModel.PERCENT:
        return rake.percent * float(result.summary["gross"]) / result.deals
    if rake.model is RakeModel.TIME:
        return rake.amount * seats / hands_per_hour
    return rake.per_hand(0.0, seats)


def rake_figures(result: SimulationResult, rake: Rake, *, hands_per_hour: float,
                 unit_value: float = 1.0, skill_edge: float = 0.0,
                 commission: float | None = None, fee: float | None = None) -> dict[str, float]:
    """House money per hand and per hour for ``rake`` charged on ``result``'s game.

    The fixed and per-player models, and a percentage with no cap or threshold, follow from the
    result's summaries (E[rake] = percent * E[pot]); a capped or thresholded percentage needs a
    result simulated with that rake, whose own rake is used. A time charge is ``rake.amount`` per
    seat per hour whatever the pace: per hand ``amount * seats / hands_per_hour``, at the pace
    asked for here (``rake.hands_per_hour`` is not used). The jackpot drop is a line of its own,
    never in the rake (it returns to players); the break-even edge counts both.

    For a banked game the house edge is the bank's mean win per player seat, from the nets (which
    hold no house charge), plus the commission (``commission * E[max(X, 0)]``) or fee
    (``fee * P(X > 0)``) each player seat pays, computed once from ``commission`` and ``fee``
    (None: those the result was simulated with). A simulated commission or fee, which the result's
    rake holds, is taken out of a capped rake's figure, so it is never counted twice.
    """
    v = result.variant
    seats = v.players
    charge = simulated = 0.0
    if v.bank.banked:
        charge, simulated = _bank_charges(result, commission, fee)
    per_hand = _rake_per_hand(result, rake, hands_per_hour, simulated * (seats - 1))
    gross = float(result.summary["gross"]) / result.deals
    per_seat = per_hand / seats
    money_per_hour = hands_per_hour * unit_value
    moments = result.moments()
    figures = {
        "rake per hand (units)": per_hand, "rake per seat per hand (units)": per_seat,
        "jackpot drop per hand (units)": rake.jackpot_drop,
        "rake per seat per hour (money)": per_seat * money_per_hour,
        "rake per hour, table (money)": per_hand * money_per_hour,
        "jackpot drop per hour, table (money)": rake.jackpot_drop * money_per_hour,
        "rake share of gross winnings": per_hand / gross if gross else float("nan"),
    }
    # what a seat gives up per hand before skill: rake and jackpot shares, and the bank's edge
    cost = per_seat + rake.jackpot_drop / seats
    if v.bank.banked:
        edge, se = _bank_edge(result)
        figures["commission or fee per player hand (units)"] = charge
        figures["house edge, bank (units per player hand)"] = edge + charge
        figures["house edge SE"] = se
        cost += edge + charge
    figures["break-even skill edge (units per hand)"] = cost
    figures["player's expectation (units per hand)"] = skill_edge - cost
    figures["player's expectation per hour (money)"] = (skill_edge - cost) * money_per_hour
    figures["SD per hand, seat (units)"] = float(moments["sd"].iloc[1:].mean() if v.bank.banked
                                                 else moments["sd"].mean())
    return figures


class RakeExplorer(_App):
    """Rake model and amounts, stakes, hands per hour and skill edge: the house's money.

    Charts: rake burden per seat per hand and per hour, session outcome bands
    ``n*mu +- z*SD*sqrt(n)`` of a player with the chosen skill edge, and for a banked game the
    house edge against the commission. Changing amounts, stakes, hours, skill or session redraws
    at once; a new game (preset, players, bank's tie rule) or a capped percentage rake needs a
    simulation (Simulate).

    Parameters
    ----------
    preset
        The game whose results the rake is charged on.
    deals, strategy, cache
        As in :class:`VariantComparer`.

    Examples
    --------
    >>> app = RakeExplorer("2-4", deals=1_000)
    >>> app.rake_model.value = "fixed-player"
    >>> app.amount.value = 0.25
    >>> round(app.figures["rake per seat per hand (units)"], 4)
    0.25
    """

    def __init__(self, preset: str = "2-4", *, deals: int = 20_000,
                 strategy: str = DEFAULT_STRATEGY, cache: ResultCache | None = None) -> None:
        self.cache = cache or ResultCache()
        self.result: SimulationResult | None = None
        self.figures: dict[str, float] = {}
        self.table: pd.DataFrame | None = None
        self.figure = None
        style = {"description_width": "150px"}
        wide = W.Layout(width="360px")
        self.preset = W.Dropdown(options=preset_names(), value=preset, description="game (preset)",
                                 style=style, layout=wide)
        self.players = W.Dropdown(options=(2, 3, 4), value=get_preset(preset).players,
                                  description="players", style=style, layout=wide)
        self.rake_model = W.Dropdown(options=[m.value for m in RakeModel], description="rake model",
                                     style=style, layout=wide)
        self.amount = W.BoundedFloatText(value=0.0, min=0.0, max=1000.0, step=0.05,
                                         description="amount (units)", style=style, layout=wide)
        self.percent = W.FloatSlider(value=0.05, min=0.0, max=0.2, step=0.005, readout_format=".1%",
                                     description="percent of pot", continuous_update=False,
                                     style=style, layout=wide)
        self.cap = W.BoundedFloatText(value=0.0, min=0.0, max=1000.0, step=0.5,
                                      description="cap (units, 0 none)", style=style, layout=wide)
        self.threshold = W.BoundedFloatText(value=0.0, min=0.0, max=1000.0, step=0.5,
                                            description="threshold (units)", style=style, layout=wide)
        self.jackpot = W.BoundedFloatText(value=0.0, min=0.0, max=100.0, step=0.05,
                                          description="jackpot drop (units)", style=style, layout=wide)
        self.unit_value = W.BoundedFloatText(value=1.0, min=0.01, max=1e6, step=1.0,
                                             description="stake (money per unit)", style=style,
                                             layout=wide)
        self.hands_per_hour = W.IntSlider(value=30, min=5, max=80, description="hands per hour",
                                          continuous_update=False, style=style, layout=wide)
        self.skill_edge = W.FloatSlider(value=0.0, min=-1.0, max=1.0, step=0.01,
                                        description="skill edge (units/hand)",
                                        continuous_update=False, style=style, layout=wide)
        self.session = W.Dropdown(options=[(f"{n:,} hands", n) for n in (100, 1_000, 10_000)],
                                  value=1_000, description="session", style=style, layout=wide)
        self.confidence = W.Dropdown(options=[("90%", 0.90), ("95%", 0.95)], value=0.90,
                                     description="band", style=style, layout=wide)
        self.commission = W.FloatSlider(value=0.0, min=0.0, max=0.1, step=0.0025,
                                        readout_format=".2%", description="bank commission",
                                        continuous_update=False, style=style, layout=wide)
        self.wins_ties = W.Checkbox(value=True, description="bank wins tied rows (simulate)")
        options = sorted(set(DEAL_CHOICES) | {int(deals)})
        self.deals = W.Dropdown(options=[(f"{d:,}", d) for d in options], value=int(deals),
                                description="deals", style=style, layout=wide)
        self.strategy = W.Dropdown(options=_STRATEGIES, value=strategy, description="strategy",
                                   style=style, layout=wide)
        self.simulate_button = W.Button(description="Simulate", button_style="primary", icon="play")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress", bar_style="info")
        self.status = W.HTML()
        self.table_html = W.HTML()
        self.output = W.Output()
        self._bank_box = W.VBox([W.HTML("<b>Banked game</b>"), self.commission, self.wins_ties])
        game = W.VBox([W.HTML("<b>Game</b>"), self.preset, self.players, self.deals,
                       self.strategy, self.simulate_button, self._bank_box])
        rake = W.VBox([W.HTML("<b>House charge</b>"), self.rake_model, self.amount, self.percent,
                       self.cap, self.threshold, self.jackpot])
        player = W.VBox([W.HTML("<b>Table and player</b>"), self.unit_value, self.hands_per_hour,
                         self.skill_edge, self.session, self.confidence])
        self.widget = W.VBox([W.HBox([game, rake, player]), W.HBox([self.progress, self.status]),
                              self.table_html, self.output])
        self.preset.observe(self._game_changed, names="value")
        for control in (self.players, self.deals, self.strategy, self.wins_ties):
            control.observe(self._game_changed, names="value")
        for control in (self.rake_model, self.amount, self.percent, self.cap, self.threshold,
                        self.jackpot, self.unit_value, self.hands_per_hour, self.skill_edge,
                        self.session, self.confidence, self.commission):
            control.observe(lambda _: self.redraw(), names="value")
        self.simulate_button.on_click(lambda _: self.run())
        self._load_preset_rake()
        self._game_changed()

    # -- the game and the rake ---------------------------------------------------------------

    def _load_preset_rake(self) -> None:
        rake = get_preset(self.preset.value).rake
        self._quiet = True
        self.rake_model.value = rake.model.value
        self.amount.value = float(rake.amount)
        self.percent.value = float(rake.percent) if rake.percent else 0.05
        self.cap.value = float(rake.cap or 0.0)
        self.threshold.value = float(rake.threshold)
        self.jackpot.value = float(rake.jackpot_drop)
        self._quiet = False

    def rake(self) -> Rake:
        """The house charge the controls describe."""
        model = RakeModel(self.rake_model.value)
        kwargs: dict[str, Any] = {"model": model, "jackpot_drop": float(self.jackpot.value)}
        if model in (RakeModel.FIXED_TABLE, RakeModel.FIXED_PLAYER, RakeModel.TIME):
            kwargs["amount"] = float(self.amount.value)
        if model is RakeModel.TIME:
            kwargs["hands_per_hour"] = float(self.hands_per_hour.value)
        if model is RakeModel.PERCENT:
            kwargs["percent"] = float(self.percent.value)
            kwargs["cap"] = float(self.cap.value) if self.cap.value > 0 else None
            kwargs["threshold"] = float(self.threshold.value)
        return Rake(**kwargs)

    def game(self) -> Variant:
        """The variant simulated: the preset with the players, the bank's tie rule and, for a
        capped or thresholded percentage, the rake (other rakes follow from any result)."""
        base = get_preset(self.preset.value)
        over: dict[str, Any] = {}
        if self.players.value != base.players:
            over["players"] = self.players.value
        if base.bank.banked and self.wins_ties.value != base.bank.wins_ties:
            over["bank__wins_ties"] = self.wins_ties.value
        rake = self.rake()
        if rake.model is RakeModel.PERCENT and (rake.cap is not None or rake.threshold > 0):
            over["rake"] = rake
        return base.replace(**over) if over else base

    def _game_changed(self, change: dict | None = None) -> None:
        if getattr(self, "_quiet", False):
            return
        if change is not None and change.get("owner") is self.preset:
            base = get_preset(self.preset.value)
            self._quiet = True
            least = 2 if base.deal.value == "D3" else HOME_RUN_PLAYERS.get(base.scoring, 2)
            allowed = (2,) if base.deal.value == "D3" else tuple(p for p in (2, 3, 4) if p >= least)
            self.players.options = allowed
            self.players.value = base.players
            self.players.disabled = len(allowed) == 1
            self.wins_ties.value = base.bank.wins_ties
            self._quiet = False
            self._load_preset_rake()
        self._bank_box.layout.display = None if get_preset(self.preset.value).bank.banked else "none"
        self._find_result()

    def _find_result(self) -> None:
        """Show the game from the cache or the reference results, or ask for a simulation."""
        try:
            game = self.game()
        except Exception as err:
            self.simulate_button.disabled = True
            self.status.value = _message("error", f"not a valid game: {err}")
            return
        self.simulate_button.disabled = False
        found = self.cache.get(game, self.deals.value, self.strategy.value)
        source = "from the cache"
        if found is None:
            found = self.cache.reference(game)
            source = "reference result (cpstats/data/reference)"
        if found is None:
            if self.result is not None and str(self.result.variant) != str(game):
                self.status.value = _message("stale", f"{game}: click Simulate")
            elif self.result is None:
                # nothing to show yet (no reference result shipped): simulate once on opening
                self.run()
            return
        self.result = found
        self.status.value = _message("ok" if source.startswith("from") else "note",
                                     f"{game}: {found.deals:,} deals, {source}")
        self.redraw()

    # -- actions -----------------------------------------------------------------------------

    def run(self) -> None:
        """Simulate the game (unless cached) and redraw."""
        try:
            game = self.game()
            deals = int(self.deals.value)
            self.progress.max, self.progress.value, self.progress.bar_style = deals, 0, "info"
            self.simulate_button.disabled = True
            if self.cache.get(game, deals, self.strategy.value) is None:
                self.status.value = _running(f"simulating {game}")
            self.result = self.cache.run(game, deals, self.strategy.value, on_block=self._advance)
            self.progress.value, self.progress.bar_style = deals, "success"
            self.status.value = _message("ok", f"{game}: {deals:,} deals, strategy {self.strategy.value}")
            self.redraw()
        except Exception as err:  # shown in the app, never a dead output
            self._failed(err)
        finally:
            self.simulate_button.disabled = False

    def redraw(self) -> None:
        """Recompute the figures and charts from the result on show (no simulation)."""
        if getattr(self, "_quiet", False):
            return
        model = self.rake_model.value
        self.amount.disabled = model not in ("fixed-table", "fixed-player", "time")
        self.amount.description = {"fixed-player": "units per player/hand",
                                   "time": "units per player/hour"}.get(model, "amount (units)")
        for control in (self.percent, self.cap, self.threshold):
            control.disabled = model != "percent"
        if self.result is None:
            return
        try:
            rake = self.rake()
            if (rake.model is RakeModel.PERCENT and (rake.cap is not None or rake.threshold > 0)
                    and str(self.result.variant) != str(self.game())):
                self.status.value = _message("stale", "a capped or thresholded percentage rake "
                                             "depends on each pot: click Simulate")
                return
            self.figures = rake_figures(self.result, rake, hands_per_hour=self.hands_per_hour.value,
                                        unit_value=self.unit_value.value,
                                        skill_edge=self.skill_edge.value,
                                        commission=self.commission.value)
            self.table = pd.DataFrame({"value": self.figures})
            self.table_html.value = (_table_html(self.table, _RAKE_FORMATS, "cpstats-rake")
                                     + self._sessions_html())
            self.figure = self._draw()
            _show_figure(self.output, self.figure)
        except Exception as err:
            self.status.value = _message("error", f"{type(err).__name__}: {err}")

    def sessions(self) -> pd.DataFrame:
        """Session outcome bands n*mu +- z*SD*sqrt(n), in units and money, for the player."""
        mu = self.figures["player's expectation (units per hand)"]
        sd = self.figures["SD per hand, seat (units)"]
        z = z_value(self.confidence.value)
        rows = []
        for n in sorted({100, 1_000, 10_000, int(self.session.value)}):
            half = z * sd * np.sqrt(n)
            rows.append({"hands": n, "expected (units)": n * mu, "low (units)": n * mu - half,
                         "high (units)": n * mu + half,
                         "expected (money)": n * mu * self.unit_value.value,
                         "low (money)": (n * mu - half) * self.unit_value.value,
                         "high (money)": (n * mu + half) * self.unit_value.value})
        return pd.DataFrame(rows)

    def _sessions_html(self) -> str:
        frame = self.sessions().set_index("hands").T
        frame.columns = [f"{n:,} hands" for n in frame.columns]
        level = f"{self.confidence.value:.0%}"
        return (f"<p><b>Session outcomes ({level} band)</b></p>"
                + _table_html(frame, {k: "{:+,.1f}" for k in frame.index}, "cpstats-sessions"))

    def _draw(self):
        f = self.figures
        banked = "house edge, bank (units per player hand)" in f
        with plots.style():
            fig, axes = plt.subplots(1, 3 if banked else 2, figsize=(13 if banked else 11, 3.8))
            seats = self.result.variant.players
            rows = {"house rake": f["rake per seat per hand (units)"],
                    "jackpot drop": f["jackpot drop per hand (units)"] / seats}
            if banked:
                rows["bank's commission"] = f["commission or fee per player hand (units)"]
                rows["bank's edge (with commission)"] = f["house edge, bank (units per player hand)"]
            rows["break-even skill edge"] = f["break-even skill edge (units per hand)"]
            frame = pd.DataFrame({"variant": list(rows), "rake_per_seat_per_hand": list(rows.values())})
            plots.plot_rake_burden(frame, ax=axes[0])
            axes[0].set_title("House money per seat per hand")
            axes[0].set_xlabel("units per seat per hand")
            secondary = axes[0].secondary_xaxis(
                "top", functions=(lambda x: x * self.hands_per_hour.value * self.unit_value.value,
                                  lambda x: x / (self.hands_per_hour.value * self.unit_value.value)))
            secondary.set_xlabel(f"money per seat per hour at {self.hands_per_hour.value} hands/hour")
            self._draw_sessions(axes[1])
            if banked:
                self._draw_house_edge(axes[2])
            fig.tight_layout()
        return fig

    def _draw_sessions(self, ax) -> None:
        mu = self.figures["player's expectation (units per hand)"]
        sd = self.figures["SD per hand, seat (units)"]
        z = z_value(self.confidence.value)
        n = np.linspace(0, int(self.session.value), 200)
        k = self.unit_value.value
        ax.fill_between(n, k * (n * mu - z * sd * np.sqrt(n)), k * (n * mu + z * sd * np.sqrt(n)),
                        color="#2b6cb0", alpha=0.2, label=f"{self.confidence.value:.0%} band")
        ax.plot(n, k * n * mu, color="#2b6cb0", label=f"expected ({mu:+.3f} units/hand)")
        ax.axhline(0, color="#718096", lw=1)
        ax.set_xlabel("hands played")
        ax.set_ylabel("player's result (money)")
        ax.set_title(f"Session outcomes, skill edge {self.skill_edge.value:+.2f}")
        ax.legend(loc="best")

    def _draw_house_edge(self, ax) -> None:
        c = np.linspace(0, 0.1, 41)
        e_pos, _ = _positive_part(self.result, range(1, self.result.variant.players))
        bank, se = _bank_edge(self.result)  # before any commission, even one simulated
        edge = bank + c * e_pos
        ties = "bank wins ties" if self.result.variant.bank.wins_ties else "ties push"
        ax.fill_between(c * 100, edge - 1.96 * se, edge + 1.96 * se, color="#dd6b20", alpha=0.2,
                        label="95% CI")
        ax.plot(c * 100, edge, color="#dd6b20", label=ties)
        ax.axvline(self.commission.value * 100, color="#718096", lw=1, ls="--")
        ax.axhline(0, color="#718096", lw=1)
        ax.set_xlabel("commission on players' wins (%)")
        ax.set_ylabel("house edge (units per player hand)")
        ax.set_title("Banked game: house edge")
        ax.legend(loc="upper left")
