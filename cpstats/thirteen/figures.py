"""The 13-card result's figures as one tidy table (:meth:`SimulationResult.figures`).

Each row is one figure of one of the result's own tables (moments, rates, royalties, naturals,
scoops, house), only reshaped here, so each keeps its one definition: ``metric``, ``estimate``,
``ci_low``, ``ci_high``, ``method`` (how the interval was made; ``no interval`` for a figure its
table gives without one) and ``table``, the result's method it comes from.

- Decision: rows stay in the order the tables give them (table by table, seat by seat), which is
  fixed, rather than sorted by name, which would put ``seat10`` before ``seat2``.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from cpstats.engine.base import FIGURE_COLUMNS
from cpstats.engine.stats import VOLATILITY_Z

__all__ = ["tidy_figures", "lookup_table", "lookup_names", "NO_INTERVAL"]

NO_INTERVAL = "no interval"
_NO_INTERVAL = NO_INTERVAL


def _rows(table: str, metrics: Iterable[str], estimate, low=None, high=None,
          method: str | Iterable[str] = _NO_INTERVAL) -> pd.DataFrame:
    """One tidy frame of a table's figures; ``low``/``high`` None for figures without interval."""
    metrics = list(metrics)
    nan = np.full(len(metrics), np.nan)
    return pd.DataFrame({"table": table, "metric": metrics,
                         "estimate": np.asarray(estimate, dtype=float),
                         "ci_low": nan if low is None else np.asarray(low, dtype=float),
                         "ci_high": nan if high is None else np.asarray(high, dtype=float),
                         "method": method})


def _moments(result, confidence: float) -> list[pd.DataFrame]:
    m = result.moments(confidence)
    seat = [f"_seat{s}" for s in m["seat"]]
    out = [_rows("moments", [f"mean{s}" for s in seat], m["mean"], m["ci_low"], m["ci_high"], "batch t"),
           _rows("moments", [f"sd{s}" for s in seat], m["sd"], m["sd_ci_low"], m["sd_ci_high"],
                 "batch t (variances)"),
           _rows("moments", [f"variance{s}" for s in seat], m["variance"], m["variance_ci_low"],
                 m["variance_ci_high"], "batch t (variances)")]
    for name in ("skewness", "kurtosis"):
        out.append(_rows("moments", [f"{name}{s}" for s in seat], m[name]))
    out += _seat_rates(result, confidence, seat, m)
    z = VOLATILITY_Z
    out.append(_rows("moments", [f"volatility_index{s}" for s in seat], m["volatility_index"], z * m["sd_ci_low"],
                     z * m["sd_ci_high"], "batch t (variances)"))
    return out


def _seat_rates(result, confidence: float, seat: list[str], m: pd.DataFrame) -> list[pd.DataFrame]:
    """Each seat's hit frequency and push rate: Student's t on its batch means (Wilson where rare,
    :func:`~cpstats.engine.stats.rate_interval`); no interval for a result saved without per-batch counts."""
    from cpstats.engine.stats import rate_interval

    s = result.summary
    out = []
    for name, by_batch in (("hit_frequency", s.wins_by_batch), ("push_rate", s.pushes_by_batch)):
        if by_batch is None:
            out.append(_rows("moments", [f"{name}{k}" for k in seat], m[name]))
            continue
        rates = [rate_interval(by_batch[:, k], s.batch_sizes, confidence, what="deals") for k in m["seat"]]
        out.append(_rows("moments", [f"{name}{k}" for k in seat], [r[0] for r in rates], [r[1] for r in rates],
                         [r[2] for r in rates], [r[3] for r in rates]))
    return out


def _players(result, confidence: float) -> list[pd.DataFrame]:
    """A player's figures pooled over the player seats (the SD and the mean after the house's
    charges, hit and push), then each seat's mean and SD after charges: the figures before and
    after the house's take side by side."""
    from cpstats.thirteen.metrics import figure_batches

    pooled = figure_batches(result, confidence)
    names = [n for n in ("sd", "sd_after_charges", "mean_after_charges") if n in pooled]
    out = [_rows("players", names, [pooled[n].estimate for n in names], [pooled[n].ci_low for n in names],
                 [pooled[n].ci_high for n in names], "batch t")]
    rates = result.pooled_rates(confidence).set_index("rate").rename(
        index={"hit": "hit_frequency", "push": "push_rate", "scoop": "scoop_rate", "home_run": "home_run_rate"})
    out.append(_rows("players", rates.index, rates["estimate"], rates["ci_low"], rates["ci_high"], rates["method"]))
    out.append(_pooled_events(result, confidence))
    paid = [n for n in ("royalty_per_hand", "natural_per_hand") if n in pooled]
    out.append(_rows("players", paid, [pooled[n].estimate for n in paid], [pooled[n].ci_low for n in paid],
                     [pooled[n].ci_high for n in paid], "batch t"))
    if result.has_charge_shares:
        a = result.after_charges(confidence)
        seat = [f"_seat{s}" for s in a["seat"]]
        out += [_rows("players", [f"mean_after_charges{s}" for s in seat], a["mean"], a["ci_low"], a["ci_high"],
                      "batch t"),
                _rows("players", [f"sd_after_charges{s}" for s in seat], a["sd"], a["sd_ci_low"], a["sd_ci_high"],
                      "batch t (variances)")]
    return out


def _pooled_events(result, confidence: float) -> pd.DataFrame:
    """Fouls, surrenders and declared naturals, the player hands' average: Wilson on that average
    count with n = deals (the hands of one deal share a deck, so their counts are not n x hands
    independent trials: the conservative count, as the PAR sheet states it)."""
    from cpstats.engine.stats import wilson_interval

    v = result.variant
    counts = result.rates().set_index(["rate", "hand"])["count"]
    hands = list(range(v.hands_per_player if v.bank.banked else 0, v.players * v.hands_per_player))
    names, values, lows, highs = [], [], [], []
    for key in ("foul", "surrender", "declared"):
        hits = float(np.mean(counts[key].loc[hands]))
        low, high = wilson_interval(hits, result.deals, confidence)
        names.append(f"{key}_rate"), values.append(hits / result.deals), lows.append(low), highs.append(high)
    return _rows("players", names, values, lows, highs, "Wilson, n = deals")


def _rates(result, confidence: float) -> list[pd.DataFrame]:
    r = result.rates(confidence)
    rates = _rows("rates", [f"{k}_rate_hand{h}" for k, h in zip(r["rate"], r["hand"])],
                  r["frequency"], r["ci_low"], r["ci_high"], "wilson")
    y = result.royalties(confidence)
    royalties = _rows("royalties", [f"royalty_rate_{row}" for row in y["row"]], y["rate"],
                      y["ci_low"], y["ci_high"], "wilson")
    n = result.naturals(confidence)
    naturals = [_rows("naturals", [f"natural_rate_{k}" for k in n["natural"]], n["frequency"],
                      n["ci_low"], n["ci_high"], "wilson"),
                _rows("naturals", [f"natural_exact_{k}" for k in n["natural"]],
                      n["exact_probability"], method="exact")]
    sc = result.scoops(confidence)
    home = sc.attrs.get("home_run_rate", [])
    scoops = [_rows("scoops", [f"scoop_rate_hand{a}_vs_hand{b}" for a, b in zip(sc["hand"], sc["against"])],
                    sc["rate"], sc["ci_low"], sc["ci_high"], "wilson"),
              _rows("scoops", [f"home_run_rate_hand{h}" for h in range(len(home))], home)]
    return [rates, royalties, *naturals, *scoops]


def _house(result, confidence: float, hands_per_hour: float | None) -> list[pd.DataFrame]:
    """The house's one row, a figure a column; the columns giving an interval or a method are
    folded into the figure they belong to."""
    row = result.house(hands_per_hour, confidence).iloc[0]
    intervals = {"rake_per_hand": ("rake_ci_low", "rake_ci_high", "batch t"),
                 "break_even_edge": ("break_even_edge_ci_low", "break_even_edge_ci_high", "batch t"),
                 "house_edge": ("house_edge_ci_low", "house_edge_ci_high",
                                str(row.get("house_edge_method", "")))}
    folded = {c for lo, hi, _ in intervals.values() for c in (lo, hi)} | {"house_edge_se",
                                                                          "house_edge_method"}
    out = []
    for name, value in row.items():
        if name in folded:
            continue
        low, high, method = intervals.get(name, (None, None, _NO_INTERVAL))
        out.append(_rows("house", [name], [value], None if low is None else [row[low]],
                         None if high is None else [row[high]], method))
    return out


def tidy_figures(result, confidence: float = 0.95, hands_per_hour: float | None = None) -> pd.DataFrame:
    """Every figure of ``result`` (a :class:`~cpstats.engine.SimulationResult`):
    :data:`~cpstats.engine.base.FIGURE_COLUMNS` and ``table``."""
    frames = [*_moments(result, confidence), *_players(result, confidence), *_rates(result, confidence),
              *_house(result, confidence, hands_per_hour)]
    return pd.concat(frames, ignore_index=True)[[*FIGURE_COLUMNS, "table"]]


def lookup_table(result, confidence: float = 0.95) -> pd.DataFrame:
    """The table a 13-card figure is looked up in (solve, design, ``until=``): the comparison
    figures of :func:`~cpstats.thirteen.paired.paired_metrics` (sd, scoop rate, house edge, rake
    share...: the names ``compare`` and ``sweep`` use) followed by every other row of
    :meth:`~cpstats.thirteen.result.SimulationResult.figures` (per-seat moments, rates,
    royalties...)."""
    from cpstats.thirteen.paired import paired_metrics

    columns = list(FIGURE_COLUMNS)
    table = paired_metrics([result], confidence=confidence).assign(method="batch t")[columns]
    more = result.figures(confidence)
    more = more.loc[~more["metric"].isin(table["metric"]), columns]
    return pd.concat([table, more], ignore_index=True)


def _table_names(v) -> list[str]:
    """The metrics of :func:`tidy_figures` for a run of ``v``, in its order, from the rules alone:
    every seat's moments, every hand's rates, the royalty rows, the naturals, the scoops of every
    pair of hands that play each other, the house's row (a banked game's edge besides)."""
    from cpstats.thirteen.block import opponents_of
    from cpstats.thirteen.naturals.detect import NATURALS
    from cpstats.thirteen.summary import ROYALTY_ROWS

    seats, hands = range(v.players), range(v.players * v.hands_per_player)
    opponents = opponents_of(v)
    names = [f"{m}_seat{s}" for m in ("mean", "sd", "variance", "skewness", "kurtosis", "hit_frequency",
                                      "push_rate", "volatility_index") for s in seats]
    names += ["sd", "sd_after_charges", "mean_after_charges", "hit_frequency", "push_rate", "scoop_rate"]
    names += ([] if v.bank.banked else ["home_run_rate"]) + ["foul_rate", "surrender_rate", "declared_rate",
                                                             "royalty_per_hand", "natural_per_hand"]
    names += [f"{m}_after_charges_seat{s}" for m in ("mean", "sd") for s in seats]
    names += [f"{k}_rate_hand{h}" for k in ("foul", "surrender", "declared") for h in hands]
    names += [f"royalty_rate_{row}" for row in ROYALTY_ROWS]
    names += [f"natural_{kind}_{k}" for kind in ("rate", "exact") for k in NATURALS]
    names += [f"scoop_rate_hand{a}_vs_hand{b}" for a in hands for b in hands if opponents[a, b]]
    names += [f"home_run_rate_hand{h}" for h in hands]
    names += ["hands_per_hour", "rake_per_hand", "rake_per_hour", "rake_per_seat_per_hand",
              "rake_per_seat_per_hour", "rake_share", "break_even_edge", "jackpot_drop_per_hand",
              "jackpot_drop_per_hour"]
    if v.bank.banked:
        names += ["initial_wager_units", "house_edge", "element_of_risk", "bank_result_per_hand"]
    return names


def lookup_names(v) -> list[str]:
    """The metrics of :func:`lookup_table` for a run of ``v``, in its order, without a run: the
    comparison figures shown for ``v``'s kind of game (:data:`~cpstats.thirteen.metrics.METRICS`),
    then every other figure of :func:`tidy_figures`. A test holds them to a run's table."""
    from cpstats.thirteen.metrics import METRICS

    kind = "banked" if v.bank.banked else "symmetric"
    first = [name for name, (_, _, shown) in METRICS.items() if shown in ("all", kind)]
    return first + [name for name in _table_names(v) if name not in first]
