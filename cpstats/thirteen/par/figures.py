"""The 13-card PAR sheet's figures: each table a pandas DataFrame built from a :class:`SimulationResult`.

Every function takes a finished result and returns numbers only (the apps format them,
:mod:`cpstats.apps.par.render`). Definitions follow CASINO-MATH.md: X is one seat's net
result on one deal in units, before house charges unless a row says otherwise; intervals are 95%
unless ``confidence`` says otherwise: Student's t on the run's batch means for means and SDs,
Wilson for frequencies.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cpstats.engine.sheet import figure_rows, session_band_rows
from cpstats.thirteen.naturals.detect import NATURALS
from cpstats.rules.house import RakeModel
from cpstats.thirteen.rules.ids import ROYALTY_ROW_NAMES
from cpstats.rules.rulebook import rule_info
from cpstats.thirteen.settlement import charges_seats as charges
from cpstats.thirteen.summary import ROYALTY_ROWS
from cpstats.thirteen.result import SimulationResult
from cpstats.thirteen.catalogue import FIGURES as _DECLARED
from cpstats.engine.catalogue import resolve_figures
from cpstats.thirteen import house
from cpstats.engine.stats import VOLATILITY_Z, wilson_interval, z_value

__all__ = ["headline", "chance_an_interval_excludes",
           "seat_outcomes", "pooled_outcomes", "royalty_table", "natural_table", "exact_natural_table",
           "economics", "charge_models", "session_bands", "methodology",
           "natural_label", "royalty_label", "banker_by_seats", "edge_by_players", "rules_in_action", "SESSION_HANDS"]

#: The game's catalogue, which names and labels the sheet's figures.
FIGURES = resolve_figures(_DECLARED)
#: Session lengths of the session-band table, hands.
SESSION_HANDS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)


def natural_label(name: str) -> str:
    """A natural's name in words, from the rule-ID names (:data:`cpstats.rules.rulebook.RULES`)."""
    return rule_info(name).name


def royalty_label(row: str) -> str:
    """A royalty row's name in words (``front_trips`` -> "Trips in front")."""
    words = ROYALTY_ROW_NAMES[row]
    return words[:1].upper() + words[1:]


def _player_seats(result: SimulationResult) -> list[int]:
    """Seats that play as players: every seat, or all but the bank (seat 0) in a banked game."""
    seats = list(range(result.variant.players))
    return seats[1:] if result.variant.bank.banked else seats


def headline(result: SimulationResult, confidence: float = 0.95) -> pd.DataFrame:
    """Headline figures, one row each, named and labelled from the catalogue
    (:func:`cpstats.engine.sheet.figure_rows`): name, figure, estimate, ci_low, ci_high, unit, method.

    Seat figures average the player seats (every seat, or every seat but the bank); the SD
    interval is the average of the seats' batch-means intervals, which is at least as wide as
    the average's own. Hit, push, scoop and home-run frequencies are pooled over the seats (or
    pairs) and get Student's t on the batch means of the pooled rate
    (:meth:`SimulationResult.pooled_rates`): the seats of one deal are linked, so no binomial
    count of trials fits them. Fouls, surrenders and naturals keep a Wilson interval on the
    deals.
    """
    v = result.variant
    m = result.moments(confidence)
    seats = _player_seats(result)
    mp = m.iloc[seats]
    batches = result.metadata.get("batches", "the")
    t_means = f"Student's t on {batches} batch means"
    rows = [(f"mean_seat{k}", m.at[k, "mean"], m.at[k, "ci_low"], m.at[k, "ci_high"], t_means,
             *(["(the bank)"] if v.bank.banked and k == 0 else [])) for k in range(v.players)]
    if not v.bank.banked:  # the seats' nets add to 0 on every deal: their average has no error
        pooled = float(m["mean"].mean())
        pooled = 0.0 if abs(pooled) < 1e-9 else pooled  # rounding of the seats' sums, not a result
        rows.append(("mean", pooled, pooled, pooled, "exact: every deal's nets add to 0 before house charges",
                     "(0: the game is zero-sum)"))
    who = "(a player seat)" if v.bank.banked else "(a seat)"
    sd_method = f"{t_means} on per-batch variances"
    rows.append(("sd", mp["sd"].mean(), mp["sd_ci_low"].mean(), mp["sd_ci_high"].mean(), sd_method, who))
    if v.bank.banked:
        rows.append(("sd_seat0", m.at[0, "sd"], m.at[0, "sd_ci_low"], m.at[0, "sd_ci_high"], sd_method,
                     "(the bank)"))
    if charges(v) and result.has_charge_shares:
        after = result.after_charges(confidence).iloc[seats]
        rows.append(("sd_after_charges", after["sd"].mean(), after["sd_ci_low"].mean(),
                     after["sd_ci_high"].mean(), sd_method, who))
    rows.append(("volatility_index", VOLATILITY_Z * mp["sd"].mean(), VOLATILITY_Z * mp["sd_ci_low"].mean(),
                 VOLATILITY_Z * mp["sd_ci_high"].mean(), f"{VOLATILITY_Z} x the SD and its interval", who))
    rates = result.pooled_rates(confidence).set_index("rate")
    for name, key in (("hit_frequency", "hit"), ("push_rate", "push")):
        r = rates.loc[key]
        rows.append((name, r["estimate"], r["ci_low"], r["ci_high"], r["method"], who))
    rows += _event_rows(result, confidence)
    rows += _house_rows(result, confidence)
    return figure_rows(rows, FIGURES)


def chance_an_interval_excludes(seats: int, confidence: float = 0.95, *, linked: bool = True) -> float:
    """The chance that at least one of ``seats`` intervals at ``confidence``, each around a seat's
    estimated mean, excludes a true mean of 0 by chance alone.

    ``linked``: the seats of a zero-sum game, alike, whose results add to 0 on every deal (their
    estimates correlate -1/(seats-1); two seats' intervals exclude 0 together); else independent
    intervals, ``1 - confidence**seats``. The linked chance is exact for normal estimates: the
    standardised estimates are iid normals less their mean, which has the law of iid normals given
    their sum is 0, so P(all inside) is the density at 0 of the sum of ``seats`` normals each cut
    to the interval's range, over the density at 0 of the uncut sum (computed on a fine grid).

    Examples
    --------
    >>> round(chance_an_interval_excludes(4, linked=False), 3), round(chance_an_interval_excludes(4), 3)
    (0.185, 0.168)
    >>> round(chance_an_interval_excludes(2), 3)
    0.05
    """
    if not linked or seats < 2:
        return 1 - confidence ** seats
    edge = z_value(confidence) * np.sqrt((seats - 1) / seats)  # the interval's edge on iid normals less their mean
    y, step = np.linspace(-edge, edge, 4001, retstep=True)
    cut = np.exp(-y ** 2 / 2) / np.sqrt(2 * np.pi)
    cut[[0, -1]] /= 2  # trapezoid weights
    total = cut
    for _ in range(seats - 1):
        total = np.convolve(total, cut) * step
    inside = total[len(total) // 2] * np.sqrt(2 * np.pi * seats)
    return float(1 - inside)


def _event_rows(result: SimulationResult, confidence: float) -> list[tuple]:
    """Scoop and home-run rates (batch means of the pooled rate); foul, surrender and natural
    rates (Wilson)."""
    v = result.variant
    rates = result.pooled_rates(confidence).set_index("rate")
    scoop = rates.loc["scoop"]
    rows = [("scoop_rate", scoop["estimate"], scoop["ci_low"], scoop["ci_high"],
             scoop["method"] + ", per pair that played its rows")]
    if not v.bank.banked:
        home = rates.loc["home_run"]
        rows.append(("home_run_rate", home["estimate"], home["ci_low"], home["ci_high"], home["method"]))
    events = result.figures(confidence).set_index("metric")  # one definition: the result's figures
    shown = ["foul_rate"] + (["surrender_rate"] if v.surrender_amount() is not None else []) \
        + (["declared_rate"] if (v.kernel_tables()["natural_rank"] >= 0).any() else [])
    rows += [(name, *events.loc[name, ["estimate", "ci_low", "ci_high", "method"]]) for name in shown]
    return rows


def _house_rows(result: SimulationResult, confidence: float) -> list[tuple]:
    """Rake per hand where the house charges, house edge and element of risk in a banked game."""
    v = result.variant
    house = result.house(confidence=confidence).iloc[0]
    rows = []
    t_means = f"Student's t on {result.metadata.get('batches', 'the')} batch means"
    if charges(v):
        seats = v.players
        rows.append(("rake_per_hand", house["rake_per_hand"], house["rake_ci_low"], house["rake_ci_high"], t_means,
                     "(rake, commission or fee)"))
        rows.append(("break_even_edge", house["rake_per_seat_per_hand"], house["rake_ci_low"] / seats,
                     house["rake_ci_high"] / seats, t_means, "(the charge per seat per hand)"))
    if v.bank.banked:
        method = f"{t_means}; {house['house_edge_method']}"
        for name in ("house_edge", "element_of_risk"):
            rows.append((name, house["house_edge"], house["house_edge_ci_low"], house["house_edge_ci_high"],
                         method))
    return rows


def seat_outcomes(result: SimulationResult, seat: int = 0, tail: float = 1e-4,
                  confidence: float = 0.95) -> pd.DataFrame:
    """Each net result of a seat: probability with its Wilson interval (deals are independent
    draws; n = deals), pay, contribution to the mean (p x pay) and to the variance
    (p x (pay - mean)^2). Results rarer than ``tail`` at either end are lumped into one row each
    ("-20 or less"), its pay the average of the lumped results; ``tail=0`` lumps none. Where the
    house charges (and the result records the shares), ``charge`` is the seat's mean share of the
    charge on those deals and ``pay_after_charges`` the pay less it."""
    dist = result.distribution()
    counts = dist[f"seat_{seat}"].to_numpy(dtype=float)
    pay = dist["net"].to_numpy(dtype=float)
    column = f"charge_{seat}"
    charged = column in dist and bool(np.nansum(dist[column].to_numpy()) > 0)
    fee = dist[column].to_numpy(dtype=float) if charged else np.zeros(len(pay))
    keep = counts > 0
    counts, pay, fee = counts[keep], pay[keep], fee[keep]
    p = counts / result.deals
    mean = float((p * pay).sum())
    low_cut = np.searchsorted(np.cumsum(p), tail, side="right")
    high_cut = len(p) - np.searchsorted(np.cumsum(p[::-1]), tail, side="right")
    groups = [(slice(0, low_cut + 1), "or less")] if low_cut > 0 else []
    start = low_cut + 1 if low_cut > 0 else 0
    end = high_cut - 1 if high_cut < len(p) else len(p)
    groups += [(slice(i, i + 1), "") for i in range(start, end)]
    if end < len(p):
        groups.append((slice(end, len(p)), "or more"))
    rows = []
    for part, words in groups:
        pp, pv = p[part], pay[part]
        edge = pv[-1] if words == "or less" else pv[0]
        prob = float(pp.sum())
        low, high = wilson_interval(counts[part].sum(), result.deals, confidence)
        average = float(pv[0]) if len(pv) == 1 else float((pp * pv).sum() / prob)  # a lone result's pay exactly
        row = {"outcome": f"{_units(edge)} {words}".strip(), "pay": average}
        if charged:
            row["charge"] = float((pp * fee[part]).sum() / prob)
            row["pay_after_charges"] = average - row["charge"]
        row.update({"probability": prob, "ci_low": float(low), "ci_high": float(high),
                    "contribution_to_mean": prob * average,
                    "contribution_to_variance": float((pp * (pv - mean) ** 2).sum())})
        rows.append(row)
    return pd.DataFrame(rows)


def _units(x: float) -> str:
    text = f"{x:+,.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text


def pooled_outcomes(result: SimulationResult, per: str = "pair", confidence: float = 0.95
                    ) -> pd.DataFrame | None:
    """``SimulationResult.outcomes(per=...)`` pooled over the seats that play alike: every
    ordered pair (every seat) of a game between players; in a banked game two sides, a player
    against the bank and the bank against a player. Probability and contributions are the
    average over the pooled pairs; the mean pay is their ratio. The interval (``method``) is
    Student's t on the batch means of the pooled rate, Wilson for a rare outcome
    (:func:`~cpstats.engine.stats.rate_interval`; a result saved before summary format 4:
    Wilson on n = deals). ``per="seat"`` adds the seat's mean share of the house charge in each
    outcome (``mean_charge``) and its result after it (``mean_pay_after_charges``). None where
    the result holds no outcome counts (results saved before they were recorded)."""
    from cpstats.errors import OptionError

    try:
        frame = result.outcomes(confidence=confidence, per=per)
    except OptionError:
        return None
    banked = result.variant.bank.banked
    side_of = lambda seat: "the bank" if banked and seat == 0 else (  # noqa: E731
        "a player" if banked else "a seat" if per == "seat" else "a seat against another")
    frame = frame.assign(side=[side_of(x) for x in frame["seat"]])
    keys = ["side", "outcome", "description"]
    means = {c: (c, "mean") for c in ("probability", "contribution_to_mean", "contribution_to_variance")}
    if "mean_charge" in frame:
        frame["charge_per_deal"] = frame["mean_charge"].fillna(0) * frame["probability"]
        means["charge_per_deal"] = ("charge_per_deal", "mean")
    pooled = frame.groupby(keys, sort=False).agg(count=("count", "sum"), **means).reset_index()
    groups = frame.groupby(keys, sort=False).size().to_numpy()
    intervals = _pooled_intervals(result, per, pooled, groups, side_of, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        pay = np.where(pooled["probability"] > 0, pooled["contribution_to_mean"] / pooled["probability"],
                       np.nan)
    pooled.insert(5, "ci_low", intervals["ci_low"])
    pooled.insert(6, "ci_high", intervals["ci_high"])
    pooled.insert(7, "mean_pay", pay)
    if "charge_per_deal" in pooled:
        with np.errstate(divide="ignore", invalid="ignore"):
            charge = np.where(pooled["probability"] > 0, pooled.pop("charge_per_deal") / pooled["probability"],
                              np.nan)
        pooled.insert(8, "mean_charge", charge)
        pooled.insert(9, "mean_pay_after_charges", pay - charge)
    pooled["method"] = intervals["method"]
    pooled["pairs_pooled"] = groups
    if not banked:
        pooled = pooled.drop(columns="side")
    return pooled


def _pooled_intervals(result: SimulationResult, per: str, pooled: pd.DataFrame, groups, side_of,
                      confidence: float) -> pd.DataFrame:
    """ci_low, ci_high and method of each pooled outcome: the per-batch counts of its pooled
    pairs (or seats) over their per-batch trials."""
    from cpstats.engine.stats import rate_interval

    batches = result.outcome_batches(per)
    if batches is None:
        low, high = wilson_interval(pooled["probability"] * result.deals, result.deals, confidence)
        return pd.DataFrame({"ci_low": low, "ci_high": high,
                             "method": "Wilson, n = deals (saved before summary format 4)"})
    _, sizes = result.net_batches()
    events: dict = {}
    for seat, outcome, counts in batches:
        key = (side_of(seat), outcome)
        events[key] = events.get(key, 0) + counts
    rows = []
    for side, outcome, n in zip(pooled["side"], pooled["outcome"], groups):
        _, low, high, method = rate_interval(events[(side, outcome)], sizes * n, confidence)
        k = int(np.sum(events[(side, outcome)]))
        # short in the table: the sheet's text names the methods in full
        rows.append((low, high, f"t, {result.batches} batches" if method.startswith("Student")
                     else f"Wilson, {k:,} event{'' if k == 1 else 's'}"))
    return pd.DataFrame(rows, columns=["ci_low", "ci_high", "method"])


def _opponents(result: SimulationResult) -> int:
    """Opponents each hand settles with: every other seat, or the bank only for a player."""
    v = result.variant
    return 1 if v.bank.banked else (v.players - 1) * v.hands_per_player


def royalty_table(result: SimulationResult) -> pd.DataFrame:
    """Each royalty: frequency per played hand (Wilson), bonus per opponent, average paid per hand
    and an approximate share of the variance.

    The summary holds how often each royalty hand is made, not what it was paid, so the payment
    is the bonus times the opponents it is collected from (RM-WINNER collects only where the row
    wins: an upper bound there), and the share of variance is that of the royalty payments alone,
    p x (k b)^2 + k p b^2 over the seat's variance (k opponents, bonus b), leaving out their
    covariance with the rows (royalty hands usually win their row, so it understates a little).
    """
    royalties = result.royalties()
    bonus = result.variant.kernel_tables()["royalty_bonus"]
    k = _opponents(result)
    variance = float(result.moments()["variance"].mean())
    p = royalties["rate"].to_numpy()
    frame = pd.DataFrame({
        "royalty": [royalty_label(r) for r in ROYALTY_ROWS], "made": royalties["made"],
        "frequency": p, "ci_low": royalties["ci_low"], "ci_high": royalties["ci_high"],
        "bonus_per_opponent": bonus, "paid_per_hand": p * bonus * k,
        "share_of_variance": (p * (k * bonus) ** 2 + k * p * bonus**2) / variance})
    return frame


def natural_table(result: SimulationResult) -> pd.DataFrame:
    """Each natural: held and declared frequency per hand (Wilson intervals), exact
    probability, payout per opponent, average paid per hand and an approximate share of the
    variance, as :func:`royalty_table` (a natural is paid by every opponent; two naturals meeting,
    rare, are left out)."""
    naturals = result.naturals()
    v = result.variant
    payout = v.kernel_tables()["natural_payout"]
    in_play = v.kernel_tables()["natural_rank"] >= 0
    hands = result.deals * v.players * v.hands_per_player
    declared = naturals["declared"].to_numpy(dtype=float)
    low, high = wilson_interval(declared, hands)
    k = _opponents(result)
    variance = float(result.moments()["variance"].mean())
    p = declared / hands
    pay = np.where(in_play, payout, 0.0)
    return pd.DataFrame({
        "natural": [natural_label(x) for x in NATURALS], "in_play": in_play,
        "held_frequency": naturals["frequency"], "held_ci_low": naturals["ci_low"],
        "held_ci_high": naturals["ci_high"], "exact_probability": naturals["exact_probability"],
        "declared_frequency": p, "ci_low": low, "ci_high": high, "payout_per_opponent": pay,
        "paid_per_hand": p * pay * k, "share_of_variance": (p * (k * pay) ** 2 + k * p * pay**2) / variance})


def exact_natural_table(result: SimulationResult) -> pd.DataFrame:
    """Each natural as an exact event: its combinations among all C(52, 13) hands (the shipped
    enumeration, :func:`~cpstats.thirteen.naturals.exact.exact_naturals`, under the variant's
    Q-K-A rule), its probability, its pay per opponent, its return (probability x pay x opponents,
    units a hand), and beside them the run's held rate with its Wilson interval as a check. The
    naturals the variant pays, or every one where it pays none (pay 0). Each natural is counted
    on its own: a hand that is two naturals is in both rows, though it declares one."""
    from cpstats.thirteen.naturals.exact import exact_naturals

    v = result.variant
    exact = exact_naturals(qka_front_straight=v.naturals.qka_front_straight).set_index("natural")
    held = result.naturals().set_index("natural")
    tables = v.kernel_tables()
    in_play = tables["natural_rank"] >= 0
    pay = np.where(in_play, tables["natural_payout"], 0.0)
    names = list(NATURALS)
    shown = [i for i, name in enumerate(names) if in_play[i]] or list(range(len(names)))
    k = _opponents(result)
    rows = []
    for i in shown:
        name = names[i]
        p = float(exact.at[name, "probability"])
        rows.append({"natural": natural_label(name), "combinations": int(exact.at[name, "count"]),
                     "probability": p, "pay_per_opponent": float(pay[i]), "return_per_hand": p * pay[i] * k,
                     "simulated_frequency": float(held.at[name, "frequency"]),
                     "ci_low": float(held.at[name, "ci_low"]), "ci_high": float(held.at[name, "ci_high"])})
    return pd.DataFrame(rows)


def economics(result: SimulationResult, hands_per_hour: float, confidence: float = 0.95) -> pd.DataFrame:
    """The operator's figures at ``hands_per_hour``, named and labelled from the catalogue
    (:func:`cpstats.engine.sheet.figure_rows`; no interval, NaN, on figures that are set rather than
    estimated: the pace, the jackpot drop).

    Theoretical win per hour is the house's expected take an hour: the charges (rake, time fee,
    commission or fee) and, in a banked game where the house is the bank, the bank's edge over
    the players (house edge x the 3-unit wager x player seats x hands an hour). No drop (chips
    bought) is simulated, so there is no hold figure.
    """
    v = result.variant
    h = result.house(hands_per_hour, confidence).iloc[0]
    seats = v.players
    low, high = float(h["rake_ci_low"]), float(h["rake_ci_high"])
    t_means = f"Student's t on {result.metadata.get('batches', 'the')} batch means"
    rows = [("hands_per_hour", hands_per_hour, np.nan, np.nan, "a rule of the variant (the pace assumed)"),
            ("rake_per_hand", h["rake_per_hand"], low, high, t_means),
            ("rake_per_seat_per_hour", h["rake_per_seat_per_hour"], low * hands_per_hour / seats,
             high * hands_per_hour / seats, t_means),
            ("break_even_edge", h["break_even_edge"], h["break_even_edge_ci_low"], h["break_even_edge_ci_high"],
             t_means)]
    if v.bank.banked:
        scale = 3.0 * (seats - 1) * hands_per_hour
        rows.append(("house_win_per_hour", h["house_edge"] * scale, h["house_edge_ci_low"] * scale,
                     h["house_edge_ci_high"] * scale, t_means, "(the bank)"))
    else:
        rows.append(("house_win_per_hour", h["rake_per_hour"], low * hands_per_hour, high * hands_per_hour,
                     t_means, "(the charges)"))
    if v.rake.jackpot_drop:
        rows.append(("jackpot_drop_per_hour", float(h["jackpot_drop_per_hour"]), np.nan, np.nan,
                     "a rule of the variant (returns to players)"))
    return figure_rows(rows, FIGURES)


#: Charges cardrooms take (CASINO-MATH): a table drop, a drop per player, 5% of the pot, a time fee.
_CHARGES = (("Drop of 0.5 units a hand per table", "table", 0.5),
            ("Drop of 0.1 units a hand per player", "player", 0.1),
            ("5% of the pot, no cap", "percent", 0.05),
            ("Time fee of 6 units per player-hour", "time", 6.0))


def charge_models(result: SimulationResult, hands_per_hour: float) -> pd.DataFrame:
    """What typical cardroom charges would cost at this table: per hand, per seat-hour, share of
    gross winnings and the break-even skill edge. Exact from the run: the fixed charges do not
    depend on play and the pot of an uncapped 5% rake is the sum of the winners' nets, whose
    average the run records (a cap or threshold would lower it)."""
    v = result.variant
    seats = v.players
    gross = result.gross_per_deal()
    ties = 0.0  # a banked game's house edge from its tie advantage alone, per unit of wager
    if v.bank.banked:
        ties = result.bank_edge(charges=False).estimate
    rows = []
    for name, kind, amount in _CHARGES:
        per_hand = {"table": amount, "player": amount * seats, "percent": amount * gross,
                    "time": amount * seats / hands_per_hour}[kind]
        charge = house.Estimate(per_hand, per_hand, per_hand)
        edge = None
        if v.bank.banked:
            edge = house.Estimate(*(ties + per_hand / ((seats - 1) * house.BANKED_WAGER),) * 3)
        rows.append({"charge": name, "per_hand": per_hand,
                     "per_seat_hour": per_hand * hands_per_hour / seats,
                     "share_of_gross_wins": per_hand / gross if gross else np.nan,
                     "break_even_edge": house.break_even_edge(v, charge, edge).estimate})
    return pd.DataFrame(rows)


def session_bands(result: SimulationResult, hands=SESSION_HANDS) -> pd.DataFrame:
    """N x mean +- z x SD x sqrt(N) for a player seat (and the bank in a banked game), at 90%
    (z = 1.645) and 95% (z = 1.96), both the mean and the SD those of the result after house
    charges (the seat's share of the charge taken off each deal's net,
    :meth:`SimulationResult.session_sd`; ``attrs["sd"]`` says which SD a result saved before
    those were recorded falls back on). In a banked game the means are those of the house edge
    (per 3-unit wager, commission included): -3 x edge for a player, 3 x edge x players for the
    bank."""
    v = result.variant
    charge = float(result.house().iloc[0]["rake_per_hand"])
    players = _player_seats(result)
    who = [("a player seat", players)] + ([("the bank", [0])] if v.bank.banked else [])
    moments = result.moments()
    sds, which = result.session_sd()
    rows = []
    for name, seats in who:
        mean = float(moments["mean"].iloc[seats].mean()) - charge / v.players
        if v.bank.banked:  # the house edge's control variate, far less noisy than the raw means
            edge = float(result.house().iloc[0]["house_edge"]) * 3.0
            mean = -edge if name == "a player seat" else edge * len(players)
        rows += session_band_rows(name, mean, float(np.mean(sds[seats])), hands)
    frame = pd.DataFrame(rows)
    frame.attrs["sd"] = f"SD per hand {which}"
    return frame


def _amount(x: float) -> str:
    return f"{x:,.2f}".rstrip("0").rstrip(".")


def rules_in_action(result: SimulationResult) -> list[str]:
    """Sentences on rules of the variant that never acted (or acted rarely) in the run: a percent
    rake's cap that never bound, a threshold that never kept the rake at 0, a surrender never
    taken; empty where there is nothing to say (or the result predates the counts)."""
    v, n, limits = result.variant, result.deals, result.rake_limits()
    rake, lines = v.rake, []
    deals = f"these {n:,} deals"
    if rake.model is RakeModel.PERCENT and limits is not None:
        largest = limits.pot_max
        if rake.cap is not None:
            capped = limits.capped
            taken = f"{rake.percent:.0%} of the largest pot, {_amount(largest)}, was {_amount(rake.percent * largest)}"
            lines.append(f"The {_amount(rake.cap)}-unit cap never bound in {deals} ({taken})." if capped == 0
                         else f"The {_amount(rake.cap)}-unit cap bound in {capped:,} of {deals} "
                              f"({100 * capped / n:.3g}%); {taken}.")
        if rake.threshold > 0:
            below = limits.below_threshold
            lines.append(f"The {_amount(rake.threshold)}-unit threshold never kept the rake at 0 in "
                         f"{deals}: every pot with a winner reached it." if below == 0
                         else f"The {_amount(rake.threshold)}-unit threshold kept the rake at 0 in "
                              f"{below:,} of {deals} ({100 * below / n:.3g}%).")
    if v.surrender_amount() is not None:
        if int(result.rates().query("rate == 'surrender'")["count"].sum()) == 0:
            lines.append(f"Surrender is allowed, but {result.setter} never surrendered a hand in {deals}.")
    return lines


def methodology(result: SimulationResult) -> list[tuple[str, str]]:
    """How the figures were made: (item, value) in words, before the versions and the command the
    apps add (:func:`cpstats.apps.par.sheet.fill`)."""
    meta = result.metadata
    batches = meta.get("batches", "?")
    items = [("Method", "Simulated (Monte Carlo): deals dealt, set by the strategy and settled"),
             ("Variant", str(result.variant)), ("Deals", f"{result.deals:,}"),
             ("Setter", result.setter), ("Root seed (entropy)", str(meta.get("entropy"))),
             ("Block size", f"{int(meta.get('block_deals', 0)):,} deals; block i uses SeedSequence "
                            "child i"),
             ("Batches", f"{batches} equal batches of consecutive deals"),
             ("Means", f"Student's t on the {batches} batch means ({batches} - 1 degrees of freedom)"),
             ("SD and variance", "batch means on the per-batch variances, Student's t"),
             ("Frequencies", "pooled over seats or pairs (hit, push, scoop, home run, outcomes): "
                             f"Student's t on the {batches} batch means of the pooled rate; rare ones "
                             "(under 10 events a batch), fouls, surrenders, naturals, royalties: "
                             "Wilson score interval"),
             ("House charge per seat", "a percent rake from the winning seats in proportion to "
                                       "their winnings; a drop or time fee evenly; a commission or "
                                       "fee from each player seat that wins"),
             ("Ratios (house edge)", "batch means of the per-batch ratio, Student's t")]
    if result.variant.bank.banked:
        items.append(("House edge estimate", result.house().iloc[0]["house_edge_method"]))
    return items


def edge_by_players(result: SimulationResult, *, deals: int, rng=None, progress=None) -> pd.DataFrame:
    """The house edge against the bank's own way (per 3-unit wager, 95% CI) for players of each
    strength: the result's own players (its setter) and a weak field (``greedy``, a run of ``deals``
    deals), the bank set as the variant says (the house way by default). What a regulator reads
    beside the house edge: how much of it rests on how well the players set."""
    from cpstats.thirteen.run import simulate

    rows = []
    for label, run in (("result", result), ("greedy", None)):
        if run is None:
            if progress is not None:
                progress.playing("bank", "the house edge against greedy players (a weak field)", deals)
            run = simulate(result.variant, deals, setter="greedy", rng=rng)
        h = run.house().iloc[0]
        rows.append({"players": run.setter if label == "result" else "greedy (a baseline: a weak field)",
                     "deals": run.deals, "house_edge": h["house_edge"], "ci_low": h["house_edge_ci_low"],
                     "ci_high": h["house_edge_ci_high"]})
    return pd.DataFrame(rows)


def banker_by_seats(result: SimulationResult, *, deals: int, rng=None, progress=None) -> pd.DataFrame:
    """The bank's house edge (per 3-unit wager, 95% CI) with 1, 2 and 3 player seats: a run of
    ``deals`` deals per seat count with the result's strategy and row tables (the tables trained
    for the result's table size, borrowed by the others). The result's own seat count reuses
    the result. A seat count the rules do not allow (a home run needing more players) is left
    out. ``progress`` (:class:`~cpstats.engine.sheet.SheetProgress`) hears each run."""
    from cpstats.errors import OptionError
    from cpstats.thirteen.play.setters import result_setter
    from cpstats.thirteen.run import simulate

    v = result.variant
    meta = result.metadata
    setter = result_setter(meta)
    rows = []
    for players in (2, 3, 4):
        try:
            seated = v if players == v.players else v.replace(players=players)
        except OptionError:
            continue
        if seated != v and progress is not None:
            progress.playing("bank", f"the bank's edge with {players - 1} player seat{'s' * (players > 2)}",
                             deals)
        run = result if seated == v else simulate(seated, deals, setter=setter, rng=rng)
        h = run.house().iloc[0]
        rows.append({"player_seats": players - 1, "deals": run.deals, "house_edge": h["house_edge"],
                     "ci_low": h["house_edge_ci_low"], "ci_high": h["house_edge_ci_high"],
                     "bank_result_per_hand": h["bank_result_per_hand"]})
    return pd.DataFrame(rows)
