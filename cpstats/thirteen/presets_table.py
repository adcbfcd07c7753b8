"""One table of every preset: the designer's figures side by side, each with its
interval, from the shipped reference results or from a live run per preset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from cpstats.cards.blocks import root_seed
from cpstats.errors import OptionError
from cpstats.engine.registry import get_preset, presets
from cpstats.thirteen.rules.variant import GAME
from cpstats.engine.files import load_reference
from cpstats.engine.stats import wilson_interval
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.run import simulate

__all__ = ["compare_presets"]

_NAN = float("nan")


def compare_presets(deals: int | None = None, *, setter: Any = "ev", rng=None) -> pd.DataFrame:
    """One row per preset: who plays, how volatile, how often scoops, home runs and fouls
    happen, what the house takes, and for banked games the bank's figures.

    Parameters
    ----------
    deals
        None reads the shipped reference results (``ev``, 1,000,000 deals each; instant); a
        number runs every preset live for that many deals, all on the same seed (common deals).
    setter
        The setter of a live run (a name or object, as :func:`cpstats.simulate`'s);
        the reference results are ``ev``'s only.
    rng
        Seed of a live run (see :func:`cpstats.simulate`).

    Returns
    -------
    pandas.DataFrame
        ``preset``, ``description``, ``players``, ``banked``, ``deals``, ``strategy``;
        ``bank_mean_seat0`` with ``_ci_low``/``_ci_high``: seat 0's mean per hand, the bank's, in
        banked games only (NaN elsewhere: a symmetric game's seat 0 mean is 0 up to noise);
        ``sd`` (a player's SD per hand, averaged over the seats, the bank's left out) with the
        seats' batch-means interval bounds averaged (NaN if the result has none); ``scoop_rate``
        (a hand scoops a given opponent), ``home_run_rate`` (a hand facing two or more opponents
        scoops them all; NaN with none) and ``foul_rate`` (per hand), each with a Wilson
        interval; ``rake_per_hand`` with its interval and ``rake_per_seat_hour``; ``house_edge``
        with its interval and ``element_of_risk`` in banked games (NaN elsewhere).

    Notes
    -----
    A rate pools every hand (or pair of hands) of a deal, and its Wilson interval counts one
    trial per deal, not per hand: the hands of one deal are not independent, and the variance of
    their average is at most that of one hand, so the interval is conservative.

    Examples
    --------
    >>> table = compare_presets()
    >>> bool(table.set_index("preset").loc["banked", "house_edge"] < 0)  # the house way's bank against ev players
    True
    """
    from cpstats.thirteen.play.setters import EvSetter, as_setter, setter_label

    setter = as_setter(setter)
    if deals is None and setter != EvSetter():
        raise OptionError(f"setter={setter_label(setter)!r} is invalid without deals: the reference results "
                          "are ev's; pass deals=N (--deals N) for a live run with another setter")
    table = presets()
    listed = table[table["game"] == GAME].set_index("name")["description"]
    if deals is None:
        results = [load_reference(name) for name in listed.index]
    else:
        root = root_seed(rng)
        results = [simulate(get_preset(name), deals, setter=setter, rng=root) for name in listed.index]
    rows = [{"preset": name, "description": listed[name], **_row(r)}
            for name, r in zip(listed.index, results)]
    return pd.DataFrame(rows)


def _rate(name: str, rate: float, deals: int) -> dict[str, float]:
    """``rate`` with a Wilson interval at one trial per deal (see the Notes above)."""
    if not np.isfinite(rate):
        return {name: _NAN, f"{name}_ci_low": _NAN, f"{name}_ci_high": _NAN}
    low, high = wilson_interval(rate * deals, deals)
    return {name: rate, f"{name}_ci_low": float(low), f"{name}_ci_high": float(high)}


def _row(r: SimulationResult) -> dict[str, Any]:
    v, s, n = r.variant, r.summary, r.deals
    banked = bool(v.bank.banked)
    m = r.moments()
    players = m.iloc[1:] if banked else m
    has_sd_ci = "sd_ci_low" in m.columns
    opponents = np.bincount(v.pair_order().reshape(-1), minlength=len(s.home_runs))
    wide = opponents >= 2
    home = s.home_runs[wide].sum() / (n * wide.sum()) if wide.any() else _NAN
    scoop = s.scoops.sum() / max(s.pairs_played.sum(), 1)
    house = r.house().iloc[0]
    row = {"players": v.players, "banked": banked, "deals": n,
           "strategy": str(r.metadata.get("strategy", "?")),
           "bank_mean_seat0": m["mean"].iloc[0] if banked else _NAN,
           "bank_mean_seat0_ci_low": m["ci_low"].iloc[0] if banked else _NAN,
           "bank_mean_seat0_ci_high": m["ci_high"].iloc[0] if banked else _NAN,
           "sd": float(players["sd"].mean()),
           "sd_ci_low": float(players["sd_ci_low"].mean()) if has_sd_ci else _NAN,
           "sd_ci_high": float(players["sd_ci_high"].mean()) if has_sd_ci else _NAN,
           **_rate("scoop_rate", float(scoop), n), **_rate("home_run_rate", float(home), n),
           **_rate("foul_rate", float(s.fouls.sum() / (n * len(s.fouls))), n),
           "rake_per_hand": house["rake_per_hand"], "rake_ci_low": house["rake_ci_low"],
           "rake_ci_high": house["rake_ci_high"], "rake_per_seat_hour": house["rake_per_seat_per_hour"]}
    for key in ("house_edge", "house_edge_ci_low", "house_edge_ci_high", "element_of_risk"):
        row[key] = float(house[key]) if banked else _NAN
    return row
