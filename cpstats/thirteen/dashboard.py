"""The 13-card game in the dashboard: the tab's content (:data:`DASHBOARD_TAB`), which the
dashboard's house-money explorer (:class:`cpstats.apps.widgets.rake.RakeExplorer`) shows, and what
the dashboard's apps open on for this game.

The house's money per hand and per hour of a rake charged on a run (:func:`rake_table`,
:func:`rake_figures`: catalogue figures under their names and labels, beside the explorer's own
what-ifs, :data:`WHAT_IF`), a banked game's edge against the commission (:func:`bank_edge`,
:func:`house_edge_curve`) and the seats a deal holds (:func:`player_choices`) are figures of the
game's results, so they are defined here, once, with their intervals; the explorer draws them.

- Decision: :func:`rake_figures` shows the jackpot drop apart from the rake, as the settlement
  does, and computes a banked game's commission or fee once, on nets that never hold it.
- Decision: every figure shows its 95% interval (:func:`rake_table`, the tab's table): exact
  for what the rules set; batch t where the run's per-batch sums give it; for a bank's
  commission or fee at another price, whose per-batch sums no run records, a conservative SE
  bounded from the player seats' net distributions. Without an interval (the ``interval``
  column says why): a capped or thresholded percentage rake where the simulated rake also holds
  a bank's commission, and the house edge's SE, itself a standard error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from cpstats.engine.catalogue import find_figure, resolve_figures
from cpstats.engine.figures_text import figure_label
from cpstats.engine.stats import batch_mean_interval, check_confidence, half_width, t_value
from cpstats.engine.views import DashboardTab
from cpstats.rules.house import Rake, RakeModel
from cpstats.thirteen import house
from cpstats.thirteen.catalogue import FIGURES
from cpstats.thirteen.paired import paired_metrics
from cpstats.thirteen.picker import PICKER
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.rules.ids import Deal
from cpstats.thirteen.rules.variant import GAME, Variant, get_preset

__all__ = ["DASHBOARD_TAB", "HouseMoney", "rake_table", "rake_figures", "house_edge_curve", "WHAT_IF", "bank_edge",
           "positive_part", "player_choices", "QUESTIONS", "trains_first", "SWEEP_NEEDS", "PairedFigures"]


def positive_part(result: SimulationResult, seats: Sequence[int]) -> tuple[float, float]:
    """(E[max(X, 0)], P(X > 0)) per hand over ``seats``, from the net distribution."""
    dist = result.distribution()
    win = dist["net"].to_numpy() > 0
    e_pos = np.mean([(dist["net"][win] * dist[f"p_{s}"][win]).sum() for s in seats])
    p_win = np.mean([dist[f"p_{s}"][win].sum() for s in seats])
    return float(e_pos), float(p_win)


def bank_edge(result: SimulationResult) -> tuple[float, float]:
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
    e_pos, p_win = positive_part(result, seats)
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
    batches' linearised ratios (:func:`cpstats.engine.stats.half_width`)."""
    gross = result.gross_per_deal()
    share = per_hand / gross if gross else float("nan")
    batches = result.gross_batches()
    if rake_sums is None or batches is None or not gross:
        return share, np.nan, np.nan, "no interval: no per-batch sums of the rake or the pot"
    half = half_width((rake_sums - share * batches) / batches.mean(), 0.95)
    if not np.isfinite(half):
        return share, np.nan, np.nan, "batch t (ratio)"
    return share, share - half, share + half, "batch t (ratio)"


#: The explorer's own what-if figures (no catalogue figure: they rest on a skill edge, a stake or a
#: commission the designer types), by name: their labels, which say their basis and unit.
WHAT_IF = {
    "rake_per_seat_per_hour_money": "rake per seat per hour at the stake and pace chosen, the house's take (money)",
    "rake_per_hour_money": "rake per hour, the whole table, at the stake and pace chosen, the house's take (money)",
    "commission_per_player_hand": "commission or fee per player hand at the price chosen, the house's take (units)",
    "bank_edge_per_player_hand": "house edge per player hand: the bank's mean win with its commission, "
                                 "the house's take (units)",
    "bank_edge_se": "house edge per player hand, its standard error (units)",
    "expectation_at_skill": "player's expectation per hand at the skill edge chosen, after house charges (units)",
    "expectation_per_hour_money": "player's expectation per hour at the skill edge, stake and pace chosen, "
                                  "after house charges (money)",
}

_CATALOGUE = resolve_figures(FIGURES)


def _label(name: str) -> str:
    """A row's label: the catalogue's (basis and unit) for a catalogue figure, else the what-if's."""
    figure = find_figure(name, _CATALOGUE)
    return WHAT_IF[name] if figure is None else figure_label(figure, name)


def _charged_as_run(result: SimulationResult, rake: Rake, commission: float | None, fee: float | None) -> bool:
    """Whether the charge asked for is the one the run was simulated with (its figures after house
    charges then describe it)."""
    bank = result.variant.bank
    return (rake == result.variant.rake and (commission is None or commission == bank.commission)
            and (fee is None or fee == bank.fee))


def rake_table(result: SimulationResult, rake: Rake, *, hands_per_hour: float,
               unit_value: float = 1.0, skill_edge: float = 0.0, commission: float | None = None,
               fee: float | None = None) -> pd.DataFrame:
    """:func:`rake_figures` with 95% intervals: one row a figure, indexed by its name (``metric``:
    a catalogue name, or one of the explorer's what-ifs, :data:`WHAT_IF`), columns ``label``
    (the catalogue's, :func:`~cpstats.engine.figures_text.figure_label`: basis and unit),
    ``estimate, ci_low, ci_high, method``.

    Intervals are Student's t on the batch means. A figure the rules set (a fixed or time
    charge, the jackpot drop) is exact; a banked game's commission or fee at a price other than
    the simulated one has no per-batch sums, so its SE is bounded from the player seats' net
    distributions (conservative), and a sum of parts adds their SEs (conservative). A capped or
    thresholded percentage rake in a game whose simulated rake also holds a bank's commission
    has no interval (the method says so); so has ``bank_edge_se``, itself a standard error.
    The SD of a player (``sd``) is the result's own figure (``result.figures()``); so are the SD
    and mean after house charges, shown where the charge asked for is the run's own.
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
    rows = {"rake_per_hand": _interval(per_hand, rake_se, how, b),
            "rake_per_seat_per_hand": _interval(per_hand / seats, rake_se / seats, how, b),
            "jackpot_drop_per_hand": (rake.jackpot_drop,) * 3 + (exact,),
            "rake_per_seat_per_hour": _interval(per_hand / seats * hands_per_hour, rake_se / seats * hands_per_hour,
                                                how, b),
            "rake_per_hour": _interval(per_hand * hands_per_hour, rake_se * hands_per_hour, how, b),
            "jackpot_drop_per_hour": (rake.jackpot_drop * hands_per_hour,) * 3 + (exact,),
            "rake_per_seat_per_hour_money": _interval(per_hand / seats * money, rake_se / seats * money, how, b),
            "rake_per_hour_money": _interval(per_hand * money, rake_se * money, how, b),
            "rake_share": _share_of_gross(result, per_hand, rake_sums)}
    # what a seat gives up per hand before skill (cpstats.thirteen.house: the jackpot drop,
    # which returns to the players, is not in it)
    cost, cost_se, cost_how = per_hand / seats, rake_se / seats, how
    if v.bank.banked:  # the player seats pay the bank's edge and every charge (3 x house edge)
        ties, ties_sizes = result.bank_edge_batches(charges=False)
        edge, se = bank_edge(result)
        both = house.BANKED_WAGER * ties + (0 if rake_sums is None else rake_sums / max(seats - 1, 1))
        parts_se = float(batch_mean_interval(both, ties_sizes)[1]) + (np.nan if rake_sums is None else 0)
        sum_how = "batch t; the commission's SE added (conservative)" if charge_se else "batch t"
        rows["commission_per_player_hand"] = _interval(
            charge, charge_se, "SE bounded from the seats' net distributions (conservative)"
            if charge_se else exact, b)
        rows["bank_edge_per_player_hand"] = _interval(edge + charge, se + charge_se, sum_how, b)
        rows["bank_edge_se"] = (se, np.nan, np.nan, "no interval: itself the house edge's standard error")
        cost = per_hand / max(seats - 1, 1) + edge + charge
        cost_se, cost_how = parts_se + charge_se, sum_how if rake_sums is not None else how
    rows["break_even_edge"] = _interval(cost, cost_se, cost_how, b)
    rows["expectation_at_skill"] = _interval(skill_edge - cost, cost_se, cost_how, b)
    rows["expectation_per_hour_money"] = _interval((skill_edge - cost) * money, cost_se * money, cost_how, b)
    own = result.figures().set_index("metric")
    shown = ["sd"] + (["sd_after_charges", "mean_after_charges"] if _charged_as_run(result, rake, commission, fee)
                      else [])
    for name in shown:
        if name in own.index:
            rows[name] = tuple(own.loc[name, ["estimate", "ci_low", "ci_high", "method"]])
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["estimate", "ci_low", "ci_high", "method"])
    frame.insert(0, "label", [_label(name) for name in frame.index])
    frame.index.name = "metric"
    return frame


def rake_figures(result: SimulationResult, rake: Rake, *, hands_per_hour: float,
                 unit_value: float = 1.0, skill_edge: float = 0.0,
                 commission: float | None = None, fee: float | None = None) -> dict[str, float]:
    """House money per hand and per hour for ``rake`` charged on ``result``'s game, by figure name
    (the estimates of :func:`rake_table`, which gives their labels and intervals).

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


def house_edge_curve(result: SimulationResult, commissions, confidence: float = 0.95) -> pd.DataFrame:
    """A banked game's house edge per player hand at each commission of ``commissions`` (shares of
    a player's win), before any commission the run charged: ``commission, estimate, ci_low,
    ci_high``. The edge is the bank's mean win (:func:`bank_edge`) plus ``commission *
    E[max(X, 0)]`` over the player seats; its interval is Student's t on the bank's batch means
    at ``confidence`` (the commission's part is taken as known)."""
    c = np.asarray(commissions, dtype=float)
    e_pos, _ = positive_part(result, range(1, result.variant.players))
    edge, se = bank_edge(result)
    half = t_value(check_confidence(confidence), result.batches) * se
    estimate = edge + c * e_pos
    return pd.DataFrame({"commission": c, "estimate": estimate, "ci_low": estimate - half,
                         "ci_high": estimate + half})


def player_choices(v: Variant) -> tuple[int, ...]:
    """The seats ``v``'s game can deal to: two for the criss-cross deal, else from the fewest its
    scoring needs to four."""
    least = 2 if v.deal is Deal.CRISS_CROSS else v.scoring.fewest_players
    return (2,) if v.deal is Deal.CRISS_CROSS else tuple(p for p in (2, 3, 4) if p >= least)


@dataclass(frozen=True)
class HouseMoney:
    """What the house-money explorer reads of the game: its figures of a rake charged on a run
    (``table``: :func:`rake_table`, each row labelled), a banked game's house edge against the
    commission with its interval (``edge_curve``: :func:`house_edge_curve`) and the seats a
    variant's deal holds (``players``)."""

    table: Callable[..., pd.DataFrame]
    edge_curve: Callable[..., pd.DataFrame]
    players: Callable[[Any], tuple[int, ...]]


def trains_first(v: Variant, setter: str | None) -> bool:
    """Whether setting ``v``'s hands with ``setter`` (a name; None: ev, the game's default) must
    first train ev's row tables: ev, and neither shipped tables for its strategy rules nor tables in
    the cache folder (:func:`cpstats.thirteen.play.row_tables.resolve_tables`' order)."""
    from cpstats.thirteen.play import row_tables as rt
    from cpstats.thirteen.rules.presets import preset_names

    if setter not in (None, "ev"):
        return False
    digest = rt.strategy_digest(v)
    if (rt.cache_dir() / f"{digest}.npz").exists():
        return False
    return not any((rt.TABLES_DIR / f"{name}.npz").exists()
                   and rt.strategy_digest(get_preset(name)) == digest for name in preset_names())


#: The rules a swept parameter needs, added when the variant lacks them: parameter -> (test, overrides).
SWEEP_NEEDS = {
    "rake.percent": (lambda v: v.rake.model is RakeModel.PERCENT, {"rake": "percent"}),
    "rake.cap": (lambda v: v.rake.model is RakeModel.PERCENT, {"rake": "percent", "rake.percent": 0.05}),
    "rake.threshold": (lambda v: v.rake.model is RakeModel.PERCENT, {"rake": "percent", "rake.percent": 0.05}),
    "rake.amount": (lambda v: v.rake.model in (RakeModel.FIXED_TABLE, RakeModel.FIXED_PLAYER, RakeModel.TIME),
                    {"rake": "time", "rake.amount": 6}),
    "bank.commission": (lambda v: v.bank.banked, {"bank": "S-BANK"}),
    "bank.fee": (lambda v: v.bank.banked, {"bank": "S-BANK"}),
    "players": (lambda v: not v.home_run, {"home_run": False}),
}


@dataclass(frozen=True)
class PairedFigures:
    """What the comparer reads of the game: the game switch's word (``switch``), that its
    variants are built in pickers (``kind``), the designer's figures of results played on common
    deals with paired differences (``figures(results, labels, *, hands_per_hour, confidence)``:
    :func:`cpstats.thirteen.paired.paired_metrics`' long table, the one :func:`cpstats.compare`
    builds from its results), each figure under its catalogue name (the comparer labels it)."""

    switch: str
    figures: Callable[..., pd.DataFrame]
    kind: str = "picked"


#: Typical questions of the solve view: preset -> (parameter, metric, target, bounds).
QUESTIONS = {
    "banked": ("bank.commission", "house_edge", 0.015, "0,0.1"),
    "2-4(rake=percent,rake.cap=1)": ("rake.percent", "rake_share", 0.08, "0,0.3"),
    "2-4(royalties=R-FUTUREBET)": ("royalties.front_trips", "sd", 7.0, "0,20"),
}

#: The 13-card game's part of the dashboard: its house-money tab, and what the apps open on
#: (the comparer's variants and its third, the preset a picker shows a variant string from, the
#: dashboard's own choices, the solve view's questions).
DASHBOARD_TAB = DashboardTab(
    title="House edge and rake", app="house",
    content=HouseMoney(table=rake_table, edge_curve=house_edge_curve, players=player_choices),
    opens={"compare": ("2-4", "1-6", "taiwanese"), "compare_third": "pagat-typical", "picker": "2-4",
           "picker_base": "basic", "house": "2-4", "sweep": "2-4", "par": "2-4", "solve": "banked",
           "solve_questions": QUESTIONS, "dashboard_compare": ("2-4", "1-6"), "dashboard_house": "pagat-casino"},
    apps={"trains": trains_first, "sweep": SWEEP_NEEDS, "picker": PICKER,
          "compare": PairedFigures(switch=GAME, figures=paired_metrics)})
