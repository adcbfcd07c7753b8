"""The dashboard's house-money explorer (app ``"house"``): :class:`RakeExplorer`, the house's money
per hand and per hour, a player's session outcomes and a banked game's house edge, of the game that
registered it (the 13-card game). The figures and their intervals are the game's tab content
(:attr:`cpstats.engine.views.DashboardTab.content`: ``table``, ``edge_curve``, ``players``;
:mod:`cpstats.thirteen.dashboard`), read through the registry, each row under its figure's name and
label (basis and unit); the explorer draws them and computes no interval of its own (the session
bands are :func:`cpstats.engine.stats.session_band`).

- Decision: the game's figures (SD, a bank's edge) are of ``ev`` by default, as the reference
  results are; the status line and the charts' titles name the setter, its row tables and the
  deals, and a baseline (greedy, random) is named as one. A reference result is shown only for
  the strategy chosen; for another, Simulate.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps import plots
from cpstats.apps.widgets._common import (
    DEAL_CHOICES, DEFAULT_STRATEGY, _STRATEGIES, ExportBar, _App, _message, _running, _show_figure,
    _table_html, opening, page_style, setter_text, strategy_label,
)
from cpstats.apps.widgets.cache import ResultCache
from cpstats.rules.house import Rake, RakeModel
from cpstats.engine.registry import game_of, get_preset
from cpstats.engine.describe import short_label
from cpstats.engine.stats import session_band

__all__ = ["RakeExplorer"]


#: Each figure's format, by name (the game's table labels its rows).
_RAKE_FORMATS = {
    "rake_per_hand": "{:.4f}", "rake_per_seat_per_hand": "{:.4f}", "jackpot_drop_per_hand": "{:.4f}",
    "rake_per_seat_per_hour": "{:,.2f}", "rake_per_hour": "{:,.2f}", "jackpot_drop_per_hour": "{:,.2f}",
    "rake_per_seat_per_hour_money": "{:,.2f}", "rake_per_hour_money": "{:,.2f}", "rake_share": "{:.2%}",
    "break_even_edge": "{:.4f}", "expectation_at_skill": "{:+.4f}", "expectation_per_hour_money": "{:+,.2f}",
    "sd": "{:.3f}", "sd_after_charges": "{:.3f}", "mean_after_charges": "{:+.4f}",
    "bank_edge_per_player_hand": "{:+.4f}", "bank_edge_se": "{:.4f}", "commission_per_player_hand": "{:.4f}",
}


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
    deals, setter, cache
        As in :class:`VariantComparer`.

    Examples
    --------
    >>> app = RakeExplorer("2-4", deals=1_000)
    >>> app.rake_model.value = "fixed-player"
    >>> app.amount.value = 0.25
    >>> round(app.figures["rake_per_seat_per_hand"], 4)
    0.25
    """

    def __init__(self, preset: str | None = None, *, deals: int = 20_000,
                 setter: str = DEFAULT_STRATEGY, cache: ResultCache | None = None) -> None:
        preset = preset or opening("house")
        game = game_of(preset)
        #: The game's figures of house money (module docstring).
        self.house = game.runs.views.dashboard_tab.content
        self.cache = cache or ResultCache()
        self.result: Any = None
        #: The figures on show by name (the game's table: catalogue names and the explorer's what-ifs).
        self.figures: dict[str, float] = {}
        self.table: pd.DataFrame | None = None
        self.figure = None
        style = {"description_width": "150px"}
        wide = W.Layout(width="360px")
        self.preset = W.Dropdown(options=tuple(game.presets), value=preset, description="game (preset)",
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
        self.strategy = W.Dropdown(options=_STRATEGIES, value=setter, description="strategy",
                                   style=style, layout=wide)
        self.simulate_button = W.Button(description="Simulate", button_style="primary", icon="play")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress", bar_style="info")
        self.status = W.HTML()
        self.table_html = W.HTML()
        self.output = W.Output()
        #: Downloads of the chart (PNG, SVG, PDF) and of the two tables (CSV).
        self.export = ExportBar("rake")
        self._bank_box = W.VBox([W.HTML("<b>Banked game</b>"), self.commission, self.wins_ties])
        game = W.VBox([W.HTML("<b>Game</b>"), self.preset, self.players, self.deals,
                       self.strategy, self.simulate_button, self._bank_box])
        rake = W.VBox([W.HTML("<b>House charge</b>"), self.rake_model, self.amount, self.percent,
                       self.cap, self.threshold, self.jackpot])
        player = W.VBox([W.HTML("<b>Table and player</b>"), self.unit_value, self.hands_per_hour,
                         self.skill_edge, self.session, self.confidence])
        self.widget = W.VBox([W.HBox([game, rake, player]), W.HBox([self.progress, self.status]),
                              self.table_html, self.output, self.export.widget, page_style()])
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

    def game(self) -> Any:
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
            allowed = self.house.players(base)
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
        strategy = self.strategy.value
        found = self.cache.get(game, self.deals.value, strategy)
        source = "from the cache"
        if found is None:
            found = self.cache.reference(game, strategy)
            source = "reference result (cpstats/data/reference)"
        if found is None:
            if self.result is not None and (str(self.result.variant) != str(game)
                                            or self.result.metadata.get("strategy") != strategy):
                self.status.value = _message("stale", f"{short_label(game)}, "
                                                      f"{strategy_label(strategy)}: click Simulate")
            elif self.result is None:
                # nothing to show yet (no reference result shipped): simulate once on opening
                self.run()
            return
        self.result = found
        self.status.value = _message("ok" if source.startswith("from") else "note",
                                     f"{short_label(game)}: {setter_text(found)}; "
                                     f"{found.deals:,} deals, {source}")
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
                self.status.value = _running(f"simulating {short_label(game)}",
                                             self.cache.will_train(game, deals, self.strategy.value))
            self.result = self.cache.run(game, deals, self.strategy.value, on_block=self._advance)
            self.progress.value, self.progress.bar_style = deals, "success"
            self.status.value = _message("ok", f"{short_label(game)}: {setter_text(self.result)}; "
                                               f"{deals:,} deals, seed {self.cache.seed}")
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
            table = self.house.table(self.result, rake, hands_per_hour=self.hands_per_hour.value,
                                     unit_value=self.unit_value.value, skill_edge=self.skill_edge.value,
                                     commission=self.commission.value)
            self.figures = {name: float(x) for name, x in table["estimate"].items()}
            r = self.result  # the first column names whose hands these figures describe
            self.table = table.set_index("label").rename(columns={
                "estimate": f"{short_label(r.variant)}: {strategy_label(r.metadata.get('strategy'))}, "
                            f"{r.deals:,} deals",
                "ci_low": "95% CI low", "ci_high": "95% CI high", "method": "interval"})
            self.table.attrs["metrics"] = dict(zip(table["label"], table.index))
            formats = {label: _RAKE_FORMATS.get(name) for name, label in table["label"].items()}
            self.table_html.value = (_table_html(self.table, formats, "cpstats-rake")
                                     + self._sessions_html())
            self.figure = self._draw()
            _show_figure(self.output, self.figure)
            self.export.show(("chart", self.figure), ("figures", self.table),
                             ("sessions", self.sessions()))
        except Exception as err:
            self.status.value = _message("error", f"{type(err).__name__}: {err}")

    def sessions(self) -> pd.DataFrame:
        """Session outcome bands n*mu +- z*SD*sqrt(n) (:func:`~cpstats.engine.stats.session_band`), in
        units and money, for the player: mu the expectation at the skill edge chosen, SD a player's
        SD before house charges (the game's ``sd``)."""
        mu, sd = self.figures["expectation_at_skill"], self.figures["sd"]
        hands = sorted({100, 1_000, 10_000, int(self.session.value)})
        expected, low, high = session_band(mu, sd, hands, self.confidence.value)
        k = self.unit_value.value
        return pd.DataFrame({"hands": hands, "expected (units)": expected, "low (units)": low,
                             "high (units)": high, "expected (money)": expected * k, "low (money)": low * k,
                             "high (money)": high * k})

    def _sessions_html(self) -> str:
        frame = self.sessions().set_index("hands").T
        frame.columns = [f"{n:,} hands" for n in frame.columns]
        level = f"{self.confidence.value:.0%}"
        return (f"<p><b>Session outcomes ({level} band)</b></p>"
                + _table_html(frame, {k: "{:+,.1f}" for k in frame.index}, "cpstats-sessions"))

    def _draw(self):
        f = self.figures
        banked = "bank_edge_per_player_hand" in f
        with plots.style():
            fig, axes = plt.subplots(1, 3 if banked else 2, figsize=(13 if banked else 11, 3.8))
            seats = self.result.variant.players
            rows = {"house rake": f["rake_per_seat_per_hand"], "jackpot drop": f["jackpot_drop_per_hand"] / seats}
            if banked:
                rows["bank's commission"] = f["commission_per_player_hand"]
                rows["bank's edge (with commission)"] = f["bank_edge_per_player_hand"]
            rows["break-even skill edge"] = f["break_even_edge"]
            frame = pd.DataFrame({"variant": list(rows), "rake_per_seat_per_hand": list(rows.values())})
            plots.plot_rake_burden(frame, ax=axes[0], label=list(rows))
            axes[0].set_title("House money per seat per hand")
            axes[0].set_xlabel("units per seat per hand")
            secondary = axes[0].secondary_xaxis(
                "top", functions=(lambda x: x * self.hands_per_hour.value * self.unit_value.value,
                                  lambda x: x / (self.hands_per_hour.value * self.unit_value.value)))
            secondary.set_xlabel(f"money per seat per hour at {self.hands_per_hour.value} hands/hour")
            self._draw_sessions(axes[1])
            if banked:
                self._draw_house_edge(axes[2])
            fig.suptitle(f"{short_label(self.result.variant)}: SD and edge of hands set by "
                         f"{setter_text(self.result)}; {self.result.deals:,} deals", fontsize=10)
            fig.tight_layout()
        return fig

    def _draw_sessions(self, ax) -> None:
        mu, sd = self.figures["expectation_at_skill"], self.figures["sd"]
        n = np.linspace(0, int(self.session.value), 200)
        k = self.unit_value.value
        expected, low, high = session_band(mu, sd, n, self.confidence.value)
        ax.fill_between(n, k * low, k * high, color="#2b6cb0", alpha=0.2, label=f"{self.confidence.value:.0%} band")
        ax.plot(n, k * expected, color="#2b6cb0", label=f"expected ({mu:+.3f} units/hand)")
        ax.axhline(0, color="#718096", lw=1)
        ax.set_xlabel("hands played")
        ax.set_ylabel("player's result (money)")
        ax.set_title(f"Session outcomes, skill edge {self.skill_edge.value:+.2f}")
        ax.legend(loc="best")

    def _draw_house_edge(self, ax) -> None:
        level = 0.95  # the level of every interval in the table beside it
        # before any commission, even one simulated: the game's edge with its interval at each price
        curve = self.house.edge_curve(self.result, np.linspace(0, 0.1, 41), level)
        ties = "bank wins ties" if self.result.variant.bank.wins_ties else "ties push"
        percent = curve["commission"] * 100
        ax.fill_between(percent, curve["ci_low"], curve["ci_high"], color="#dd6b20", alpha=0.2,
                        label=f"{level:.0%} CI")
        ax.plot(percent, curve["estimate"], color="#dd6b20", label=ties)
        ax.axvline(self.commission.value * 100, color="#718096", lw=1, ls="--")
        ax.axhline(0, color="#718096", lw=1)
        ax.set_xlabel("commission on players' wins (%)")
        ax.set_ylabel("house edge (units per player hand)")
        ax.set_title("Banked game: house edge")
        ax.legend(loc="upper left")
