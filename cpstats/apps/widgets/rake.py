"""Rake and house money: :func:`rake_figures` and :class:`RakeExplorer`, the house's money per
hand and per hour, a player's session outcomes and a banked game's house edge.

- Decision: :func:`rake_figures` shows the jackpot drop apart from the rake, as the settlement
  does, and computes a banked game's commission or fee once, on nets that never hold it.
- Decision: every figure shows its 95% interval (:func:`rake_table`, the tab's table): exact
  for what the rules set; batch t where the run's per-batch sums give it; for a bank's
  commission or fee at another price, whose per-batch sums no run records, a conservative SE
  bounded from the player seats' net distributions. Without an interval (the ``interval``
  column says why): a capped or thresholded percentage rake where the simulated rake also holds
  a bank's commission, and the house edge's SE, itself a standard error.
- Decision: the game's figures (SD, a bank's edge) are of ``ev`` by default, as the reference
  results are; the status line and the charts' titles name the setter, its row tables and the
  deals, and a baseline (greedy, random) is named as one. A reference result is shown only for
  the strategy chosen; for another, Simulate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.thirteen.rules.ids import Deal
from cpstats.apps import plots
from cpstats.apps.widgets._common import (
    DEAL_CHOICES, DEFAULT_STRATEGY, _STRATEGIES, ExportBar, _App, _message, _running, _show_figure,
    _table_html, page_style, setter_text, strategy_label,
)
from cpstats.apps.widgets.cache import ResultCache
from cpstats.rules.house import Rake, RakeModel
from cpstats.thirteen.rules.variant import Variant
from cpstats.engine.registry import get_preset
from cpstats.thirteen.rules.presets import preset_names
from cpstats.engine.describe import short_label
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen import house
from cpstats.engine.stats import batch_mean_interval, t_value, z_value

__all__ = ["rake_figures", "rake_table", "RakeExplorer"]


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
    sums, sizes = result.bank_edge_batches(charges=False)
    mean, se, _ = batch_mean_interval(sums * house.BANKED_WAGER, sizes)
    return float(mean), float(se)


def _bank_charges(result: SimulationResult, commission: float | None,
                  fee: float | None) -> tuple[float, float, float]:
    """(The commission or fee charged per player hand, the one the result was simulated with,
    the first one's SE): ``commission * E[max(X, 0)] + fee * P(X > 0)`` over the player seats,
    X a seat's net. The SE bounds the player seats' joint spread by the sum of their own (from
    each seat's net distribution; deals are independent), as no per-batch sums of the charge
    at another commission are recorded: a conservative interval."""
    bank, seats = result.variant.bank, range(1, result.variant.players)
    e_pos, p_win = _positive_part(result, seats)
    simulated = bank.commission * e_pos + bank.fee * p_win
    commission = bank.commission if commission is None else commission
    fee = bank.fee if fee is None else fee
    dist = result.distribution()
    net = dist["net"].to_numpy()
    charged = commission * np.maximum(net, 0) + fee * (net > 0)
    sds = [np.sqrt(max(float((dist[f"p_{s}"] * charged**2).sum())
                       - float((dist[f"p_{s}"] * charged).sum()) ** 2, 0.0)) for s in seats]
    return commission * e_pos + fee * p_win, simulated, float(np.mean(sds)) / np.sqrt(result.deals)


def _rake_per_hand(result: SimulationResult, rake: Rake, hands_per_hour: float,
                   simulated_bank: float) -> tuple[float, np.ndarray | None, str]:
    """(The house's rake per hand (no jackpot drop, no bank's charge) for ``rake`` on ``result``,
    its sums per batch or None, how its interval is made).

    A capped or thresholded percentage is the simulated rake less the bank's charges in it
    (``simulated_bank`` per deal); the settlement's rake never holds the jackpot drop. A fixed
    or time charge is set by the rules (sums per batch without spread); an uncapped percentage
    is ``percent`` of each batch's winners' nets."""
    seats = result.variant.players
    rake_sums, sizes = result.rake_batches()
    if rake.model is RakeModel.PERCENT and (rake.cap is not None or rake.threshold > 0):
        if simulated_bank:
            return (result.rake_per_deal() - simulated_bank, None,
                    "no interval: the bank's charge inside the simulated rake is not recorded batch by batch")
        return result.rake_per_deal(), rake_sums, "batch t"
    if rake.model is RakeModel.PERCENT:
        gross = result.gross_batches()
        return (rake.percent * result.gross_per_deal(), None if gross is None else rake.percent * gross,
                "batch t" if gross is not None else "no interval: saved before summary format 3")
    per_hand = (rake.amount * seats / hands_per_hour if rake.model is RakeModel.TIME
                else rake.per_hand(0.0, seats))
    return per_hand, per_hand * sizes.astype(float), "exact: set by the rules"


def _interval(estimate: float, se: float, method: str, batches: int) -> tuple:
    """(estimate, ci_low, ci_high, method): Student's t, ``batches - 1`` degrees of freedom."""
    if not np.isfinite(se):
        return estimate, np.nan, np.nan, method
    half = t_value(0.95, batches) * se
    return estimate, estimate - half, estimate + half, method


def _share_of_gross(result: SimulationResult, per_hand: float, rake_sums) -> tuple:
    """The rake's share of the winners' nets: ratio of totals, its interval Student's t on the
    batches' linearised ratios."""
    gross = result.gross_per_deal()
    share = per_hand / gross if gross else float("nan")
    batches = result.gross_batches()
    if rake_sums is None or batches is None or not gross:
        return share, np.nan, np.nan, "no interval: no per-batch sums of the rake or the pot"
    linear = (rake_sums - share * batches) / batches.mean()
    return _interval(share, float(linear.std(ddof=1)) / np.sqrt(len(linear)), "batch t (ratio)",
                     len(linear))


def rake_table(result: SimulationResult, rake: Rake, *, hands_per_hour: float,
               unit_value: float = 1.0, skill_edge: float = 0.0, commission: float | None = None,
               fee: float | None = None) -> pd.DataFrame:
    """:func:`rake_figures` with 95% intervals: one row a figure (the index), columns
    ``estimate, ci_low, ci_high, method``.

    Intervals are Student's t on the batch means. A figure the rules set (a fixed or time
    charge, the jackpot drop) is exact; a banked game's commission or fee at a price other than
    the simulated one has no per-batch sums, so its SE is bounded from the player seats' net
    distributions (conservative), and a sum of parts adds their SEs (conservative). A capped or
    thresholded percentage rake in a game whose simulated rake also holds a bank's commission
    has no interval (the method says so); so has ``house edge SE``, itself a standard error.
    """
    v, seats = result.variant, result.variant.players
    b = result.batches
    charge = simulated = charge_se = 0.0
    if v.bank.banked:
        charge, simulated, charge_se = _bank_charges(result, commission, fee)
    per_hand, rake_sums, how = _rake_per_hand(result, rake, hands_per_hour, simulated * (seats - 1))
    _, sizes = result.rake_batches()
    rake_se = np.nan if rake_sums is None else float(batch_mean_interval(rake_sums, sizes)[1])
    money = hands_per_hour * unit_value
    exact = "exact: set by the rules"
    rows = {"rake per hand (units)": _interval(per_hand, rake_se, how, b),
            "rake per seat per hand (units)": _interval(per_hand / seats, rake_se / seats, how, b),
            "jackpot drop per hand (units)": (rake.jackpot_drop,) * 3 + (exact,),
            "rake per seat per hour (money)": _interval(per_hand / seats * money, rake_se / seats * money, how, b),
            "rake per hour, table (money)": _interval(per_hand * money, rake_se * money, how, b),
            "jackpot drop per hour, table (money)": (rake.jackpot_drop * money,) * 3 + (exact,),
            "rake share of gross winnings": _share_of_gross(result, per_hand, rake_sums)}
    # what a seat gives up per hand before skill (cpstats.thirteen.house: the jackpot drop,
    # which returns to the players, is not in it)
    cost, cost_se, cost_how = per_hand / seats, rake_se / seats, how
    if v.bank.banked:  # the player seats pay the bank's edge and every charge (3 x house edge)
        ties, ties_sizes = result.bank_edge_batches(charges=False)
        edge, se = _bank_edge(result)
        both = house.BANKED_WAGER * ties + (0 if rake_sums is None else rake_sums / max(seats - 1, 1))
        parts_se = float(batch_mean_interval(both, ties_sizes)[1]) + (np.nan if rake_sums is None else 0)
        sum_how = "batch t; the commission's SE added (conservative)" if charge_se else "batch t"
        rows["commission or fee per player hand (units)"] = _interval(
            charge, charge_se, "SE bounded from the seats' net distributions (conservative)"
            if charge_se else exact, b)
        rows["house edge, bank (units per player hand)"] = _interval(edge + charge, se + charge_se, sum_how, b)
        rows["house edge SE"] = (se, np.nan, np.nan, "no interval: itself the house edge's standard error")
        cost = per_hand / max(seats - 1, 1) + edge + charge
        cost_se, cost_how = parts_se + charge_se, sum_how if rake_sums is not None else how
    rows["break-even skill edge (units per hand)"] = _interval(cost, cost_se, cost_how, b)
    rows["player's expectation (units per hand)"] = _interval(skill_edge - cost, cost_se, cost_how, b)
    rows["player's expectation per hour (money)"] = _interval((skill_edge - cost) * money, cost_se * money,
                                                              cost_how, b)
    m = result.moments()
    m = m.iloc[1:] if v.bank.banked else m
    rows["SD per hand, seat (units)"] = (float(m["sd"].mean()), float(m["sd_ci_low"].mean()),
                                         float(m["sd_ci_high"].mean()), "batch t (variances), seats averaged")
    return pd.DataFrame.from_dict(rows, orient="index", columns=["estimate", "ci_low", "ci_high", "method"])


def rake_figures(result: SimulationResult, rake: Rake, *, hands_per_hour: float,
                 unit_value: float = 1.0, skill_edge: float = 0.0,
                 commission: float | None = None, fee: float | None = None) -> dict[str, float]:
    """House money per hand and per hour for ``rake`` charged on ``result``'s game (the
    estimates of :func:`rake_table`, which gives their intervals).

    The fixed and per-player models, and a percentage with no cap or threshold, follow from the
    result's summaries (E[rake] = percent * E[pot]); a capped or thresholded percentage needs a
    result simulated with that rake, whose own rake is used. A time charge is ``rake.amount`` per
    seat per hour whatever the pace: per hand ``amount * seats / hands_per_hour``, at the pace
    asked for here (``rake.hands_per_hour`` is not used). The jackpot drop is a line of its own,
    never in the rake or the break-even edge (it returns to players; :mod:`cpstats.thirteen.house`).

    For a banked game the house edge is the bank's mean win per player seat, from the nets (which
    hold no house charge), plus the commission (``commission * E[max(X, 0)]``) or fee
    (``fee * P(X > 0)``) each player seat pays, computed once from ``commission`` and ``fee``
    (None: those the result was simulated with). A simulated commission or fee, which the result's
    rake holds, is taken out of a capped rake's figure, so it is never counted twice.
    """
    table = rake_table(result, rake, hands_per_hour=hands_per_hour, unit_value=unit_value,
                       skill_edge=skill_edge, commission=commission, fee=fee)
    return {name: float(x) for name, x in table["estimate"].items()}


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
            least = 2 if base.deal is Deal.CRISS_CROSS else base.scoring.fewest_players
            allowed = (2,) if base.deal is Deal.CRISS_CROSS else tuple(p for p in (2, 3, 4) if p >= least)
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
            table = rake_table(self.result, rake, hands_per_hour=self.hands_per_hour.value,
                               unit_value=self.unit_value.value, skill_edge=self.skill_edge.value,
                               commission=self.commission.value)
            self.figures = {name: float(x) for name, x in table["estimate"].items()}
            r = self.result  # the first column names whose hands these figures describe
            self.table = table.rename(columns={
                "estimate": f"{short_label(r.variant)}: {strategy_label(r.metadata.get('strategy'))}, "
                            f"{r.deals:,} deals",
                "ci_low": "95% CI low", "ci_high": "95% CI high", "method": "interval"})
            self.table_html.value = (_table_html(self.table, _RAKE_FORMATS, "cpstats-rake")
                                     + self._sessions_html())
            self.figure = self._draw()
            _show_figure(self.output, self.figure)
            self.export.show(("chart", self.figure), ("figures", self.table),
                             ("sessions", self.sessions()))
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
