"""The tables of an open-face PAR sheet (:mod:`cpstats.ofc.par.sheet`), each a DataFrame with its
95% interval, built from one run: :meth:`SimulationResult.figures` for the run's own figures and the
run's rows (:meth:`SimulationResult.rows`, one per hand and seat) for what needs each board (the pairs'
outcomes, the rows' results, royalties by row and hand, Fantasyland entries by cards, typical
charges).

Intervals from rows are those of the results layer: a frequency pooled over seats or pairs is
:func:`~cpstats.engine.stats.rate_interval` on the run's batches of consecutive hands
(Wilson where events are few), a mean :func:`~cpstats.engine.stats.batch_mean_interval`,
and a ratio of two sums Student's t on the batches' linearised ratios; the batches carry the
hands a Fantasyland run links, which a binomial interval on hands would not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cpstats.engine.batches import batch_of
from cpstats.engine.catalogue import resolve_figures
from cpstats.engine.sheet import figure_rows, session_band_rows
from cpstats.engine.stats import VOLATILITY_Z, batch_mean_interval, half_width, rate_interval
from cpstats.hands import tables as _tables
from cpstats.ofc.board import board_values
from cpstats.ofc.catalogue import FIGURES
from cpstats.ofc.result import ROWS, SimulationResult
from cpstats.ofc.rules import FIVE_ROW_CATEGORIES, PAIR_NAMES, TRIPS_NAMES, Variant
from cpstats.ofc.par.table_sections import seat_mean_note
from cpstats.ofc.settlement import seat_rake
from cpstats.rules.house import Rake, RakeModel

__all__ = ["Boards", "boards_of", "row_hand_names", "pair_outcomes", "row_results", "royalty_table",
           "fantasyland_table", "headline", "house_table", "charge_models", "session_bands",
           "SESSION_HANDS", "TYPICAL_CHARGES"]

SESSION_HANDS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
#: What typical cardroom charges would cost at the table (notebook 06 prices the same two).
TYPICAL_CHARGES = (("time collection, 6 units a seat-hour", Rake(model=RakeModel.TIME, amount=6.0)),
                   ("per-point rake, 5% of the points won", Rake(model=RakeModel.PERCENT, percent=0.05)))
_CODE = {r + s: i * 4 + j for i, r in enumerate("23456789TJQKA") for j, s in enumerate("cdhs")}


class Boards:
    """A run's boards as arrays: ``codes`` (H, P, 13), their values, each hand's batch, the
    Fantasyland cards each board was dealt (0: a normal hand) and each seat's net."""

    def __init__(self, v: Variant, rows: pd.DataFrame, batches: int):
        rows = rows.sort_values(["hand", "seat"])
        hands, players = rows["hand"].nunique(), v.players
        text = (rows["front"] + " " + rows["middle"] + " " + rows["back"]).str.split()
        self.codes = np.array([[_CODE[c] for c in cards] for cards in text],
                              dtype=np.int8).reshape(hands, players, 13)
        self.values = board_values(v, self.codes, check=False)
        self.fantasy = rows["fantasy_cards"].to_numpy().reshape(hands, players)
        self.net = rows["net"].to_numpy(dtype=np.int64).reshape(hands, players)
        self.batch = batch_of(0, hands, hands, batches)
        self.batches, self.hands, self.players = batches, hands, players

    def per_batch(self, x: np.ndarray) -> np.ndarray:
        """Sums of ``x`` (H, ...) per batch, all but the hand axis summed: (B,)."""
        x = np.asarray(x, dtype=np.float64).reshape(self.hands, -1).sum(axis=1)
        return np.bincount(self.batch, weights=x, minlength=self.batches)


def boards_of(result: SimulationResult) -> Boards:
    """The boards of ``result``'s rows (a run made with rows: ``keep_hands=True`` and ``out=``)."""
    return Boards(result.variant, result.rows(), int(result.metadata["batches"]))


def row_hand_names(ranks: np.ndarray) -> np.ndarray:
    """The hand of each row in words (``QQ``, ``KKK``, ``flush``...), from ranks (..., 3)."""
    keys3 = _tables.three_card_keys()
    cat3 = np.array([int(k[0]) for k in keys3])
    top3 = np.array([int(k[1]) for k in keys3])
    front = np.where(cat3 == 1, np.array(PAIR_NAMES)[top3],
                     np.where(cat3 == 3, np.array(TRIPS_NAMES)[top3], "high card"))
    five = _tables.five_card_tables("H1")
    cat5 = five.category.astype(np.int64)
    royal = (cat5 == 8) & (np.array([k[1] for k in five.keys]) == 12)
    words = np.array([c.replace("_", " ") for c in FIVE_ROW_CATEGORIES])[np.where(royal, 9, cat5)]
    return np.stack([front[ranks[..., 0]], words[ranks[..., 1]], words[ranks[..., 2]]], axis=-1)


def _interval(events: np.ndarray, trials: np.ndarray) -> tuple[float, float, float, str]:
    rate, low, high, method = rate_interval(events, trials)
    return rate, low, high, "t, batches" if method.startswith("Student") else "Wilson"


def _pairs(b: Boards) -> list[tuple[int, int]]:
    return [(i, j) for i in range(b.players) for j in range(b.players) if i != j]


def _pair_rows(b: Boards, i: int, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows won, lost and tied (H, 3) by i against j, a fouled board losing every row."""
    ri, rj = b.values.ranks[:, i], b.values.ranks[:, j]
    fi, fj = b.values.fouled[:, i, None], b.values.fouled[:, j, None]
    clean = ~fi & ~fj
    won = (clean & (ri > rj)) | (fj & ~fi)
    lost = (clean & (ri < rj)) | (fi & ~fj)
    return won, lost, ~won & ~lost


def _outcome(b: Boards, i: int, j: int) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's outcome label and pay (units) from i's side against j."""
    v_f = b.values.fouled
    won, lost, _ = _pair_rows(b, i, j)
    w, l_ = won.sum(axis=1), lost.sum(axis=1)
    label = np.array([f"rows won {a}, lost {c}, tied {3 - a - c}" for a, c in zip(w, l_)], dtype=object)
    label[w == 3] = "scoop: all three rows won"
    label[l_ == 3] = "scooped: all three rows lost"
    label[v_f[:, j] & ~v_f[:, i]] = "the opponent's board fouls (a scoop)"
    label[v_f[:, i] & ~v_f[:, j]] = "own board fouls (scooped)"
    label[v_f[:, i] & v_f[:, j]] = "both boards foul (no pay)"
    return label, w, l_


def pair_outcomes(v: Variant, b: Boards) -> pd.DataFrame:
    """Outcomes of a pair of players pooled over every ordered pair: probability (95% CI), the
    average pay and its contributions to the mean and the variance of a pair's result."""
    labels, pays = [], []
    for i, j in _pairs(b):
        label, w, l_ = _outcome(b, i, j)
        royalty = np.where(b.values.fouled, 0, b.values.royalty.sum(axis=-1))
        pay = (v.scoring.row * (w - l_) + v.scoring.scoop * ((w == 3).astype(int) - (l_ == 3))
               + royalty[:, i] - royalty[:, j])
        labels.append(label)
        pays.append(pay)
    labels, pays = np.stack(labels, 1), np.stack(pays, 1).astype(np.float64)
    mu = pays.mean()
    trials = b.per_batch(np.ones_like(pays))
    rows = []
    for name in sorted(set(labels.ravel()), key=_outcome_order):
        hit = labels == name
        p, low, high, method = _interval(b.per_batch(hit), trials)
        pay = pays[hit].mean()
        rows.append((name, int(hit.sum()), p, low, high, pay, p * pay,
                     p * float(((pays[hit] - mu) ** 2).mean()), method))
    return pd.DataFrame(rows, columns=["description", "count", "probability", "ci_low", "ci_high",
                                       "mean_pay", "contribution_to_mean",
                                       "contribution_to_variance", "method"])


def _outcome_order(label: str) -> tuple:
    order = ("scoop", "the opponent", "rows won 2, lost 0", "rows won 2, lost 1", "rows won 1, lost 0",
             "rows won 1, lost 1", "rows won 0, lost 0", "rows won 1, lost 2", "rows won 0, lost 1",
             "rows won 0, lost 2", "scooped", "own", "both")
    return next((k for k, o in enumerate(order) if label.startswith(o)), len(order)), label


def row_results(b: Boards) -> pd.DataFrame:
    """Each row's result between two players (pooled over every ordered pair): won, tied, lost
    where both boards are clean, and decided by a foul (a fouled board loses every row)."""
    rows = []
    trials = b.per_batch(np.ones((b.hands, len(_pairs(b)))))
    for r, row in enumerate(ROWS):
        parts = {"won": [], "tied": [], "lost": [], "decided by a foul": []}
        for i, j in _pairs(b):
            won, lost, tied = (x[:, r] for x in _pair_rows(b, i, j))
            foul = b.values.fouled[:, i] | b.values.fouled[:, j]
            parts["won"].append(won & ~foul)
            parts["tied"].append(tied & ~foul)
            parts["lost"].append(lost & ~foul)
            parts["decided by a foul"].append(foul)
        for result, hits in parts.items():
            hit = np.stack(hits, 1)
            p, low, high, method = _interval(b.per_batch(hit), trials)
            rows.append((row, result, int(hit.sum()), p, low, high, method))
    return pd.DataFrame(rows, columns=["row", "result", "count", "probability", "ci_low", "ci_high",
                                       "method"])


def _paid_hands(v: Variant) -> list[tuple[str, str, int]]:
    """(row, hand, royalty) of every hand the variant pays a royalty for."""
    r = v.royalties
    out = [("front", n, a) for n, a in zip(PAIR_NAMES + TRIPS_NAMES, r.front_pairs + r.front_trips)]
    for row, amounts in (("middle", r.middle), ("back", r.back)):
        out += [(row, c.replace("_", " "), a) for c, a in zip(FIVE_ROW_CATEGORIES, amounts)]
    return [x for x in out if x[2] > 0]


def royalty_table(v: Variant, b: Boards) -> pd.DataFrame:
    """Every royalty hand by row: how often a board is paid it (95% CI), its royalty, the units it
    pays a board on average and its share of all royalty units (fouled boards are paid none)."""
    names = row_hand_names(b.values.ranks)
    clean = ~b.values.fouled
    trials = b.per_batch(np.ones((b.hands, b.players)))
    total = float(np.where(clean[..., None], b.values.royalty, 0).sum())
    rows = []
    for row, hand, amount in _paid_hands(v):
        hit = clean & (names[..., ROWS.index(row)] == hand)
        p, low, high, method = _interval(b.per_batch(hit), trials)
        paid = p * amount
        rows.append((row, hand, int(hit.sum()), p, low, high, amount, paid,
                     hit.sum() * amount / total if total else np.nan, method))
    return pd.DataFrame(rows, columns=["row", "royalty", "made", "frequency", "ci_low", "ci_high",
                                       "units", "paid_per_hand", "share_of_royalties", "method"])


def fantasyland_table(result: SimulationResult, b: Boards) -> pd.DataFrame:
    """Entry, stay, share and value of Fantasyland (:meth:`SimulationResult.figures`), then the entries
    by the cards they deal, per normal board (95% CI)."""
    f = result.figures().set_index("metric")
    names = ("fl_entry_rate", "fl_stay_rate", "fl_share", "fl_value")
    rows = [(m, f.at[m, "estimate"], f.at[m, "ci_low"], f.at[m, "ci_high"], f.at[m, "method"]) for m in names]
    normal = b.fantasy == 0
    entered = normal & ~b.values.fouled & (b.values.fl_cards > 0)
    trials = b.per_batch(normal)
    for cards in sorted(set(b.values.fl_cards[entered].tolist()) | _entry_sizes(result.variant)):
        p, low, high, method = _interval(b.per_batch(entered & (b.values.fl_cards == cards)), trials)
        rows.append((f"fl_entry_rate_cards{cards}", p, low, high, method))
    return figure_rows(rows, resolve_figures(FIGURES))


def _entry_sizes(v: Variant) -> set[int]:
    return {n for n in v.fantasyland.cards if n}


#: Headline figures, in the order printed (catalogue names), each with its note on the sheet.
_HEADLINE = {"mean_seat0": "", "sd": "(a seat)",
             "sd_after_charges": "(a seat)", "volatility_index": "(a seat)", "hit_frequency": "(a seat)", "push_rate": "(a seat)", "foul_rate": "",
             "scoop_rate": "", "royalty": "", "royalty_front": "", "royalty_middle": "",
             "royalty_back": "", "fl_entry_rate": "(per normal board)", "fl_share": "",
             "hands_seat0": "(95%)"}


def headline(result: SimulationResult) -> pd.DataFrame:
    """The headline figures with 95% intervals, named and labelled from the catalogue
    (:func:`cpstats.engine.sheet.figure_rows`): the SD before and after house charges, the volatility
    index (1.645 SD), hit frequency and push rate as the 13-card sheet gives them; seat 0's mean with
    what the button makes of it (:func:`~cpstats.ofc.par.table_sections.seat_mean_note`)."""
    f = result.figures().set_index("metric")
    sd = f.loc["sd"]
    f.loc["volatility_index", ["estimate", "ci_low", "ci_high", "method"]] = (
        VOLATILITY_Z * sd["estimate"], VOLATILITY_Z * sd["ci_low"], VOLATILITY_Z * sd["ci_high"],
        f"{VOLATILITY_Z} x the SD and its interval")
    notes = {**_HEADLINE, "mean_seat0": seat_mean_note(result.variant, *f.loc["mean_seat0", ["estimate", "ci_low",
                                                                                           "ci_high"]])}
    rows = [(m, f.at[m, "estimate"], f.at[m, "ci_low"], f.at[m, "ci_high"], f.at[m, "method"],
             *([note] if note else []))
            for m, note in notes.items() if m in f.index]  # a shipped raked run: no SD after charges
    return figure_rows(rows, resolve_figures(FIGURES))


def house_table(result: SimulationResult, pace: float) -> pd.DataFrame:
    """The variant's own house charge: per seat a hand and a seat-hour at ``pace``, and its share
    of the points won (:meth:`SimulationResult.figures`), named and labelled from the catalogue."""
    f = result.figures(hands_per_hour=pace).set_index("metric")
    names = ("rake_per_seat_per_hand", "rake_per_seat_per_hour", "rake_share")
    return figure_rows([(m, f.at[m, "estimate"], f.at[m, "ci_low"], f.at[m, "ci_high"], f.at[m, "method"],
                         *([f"({pace:g} hands an hour)"] if m.endswith("hour") else [])) for m in names],
                       resolve_figures(FIGURES))


def _ratio(num: np.ndarray, den: np.ndarray) -> tuple[float, float, float]:
    """Ratio of two batch sums with Student's t on the batches' linearised ratios."""
    est = num.sum() / den.sum()
    z = (num - est * den) / den.mean()
    half = half_width(z, 0.95)
    return float(est), float(est - half), float(est + half)


def charge_models(b: Boards, pace: float) -> pd.DataFrame:
    """What typical charges (:data:`TYPICAL_CHARGES`) would cost a seat at this table, charged on
    the run's nets (rake never moves play): per seat-hour at ``pace`` and as a share of the
    points won, 95% CI."""
    seat_hands = b.per_batch(np.ones((b.hands, b.players)))
    gross = b.per_batch(np.maximum(b.net, 0))
    rows = []
    for name, rake in TYPICAL_CHARGES:
        if rake.model is RakeModel.TIME:
            rake = Rake(model=RakeModel.TIME, amount=rake.amount, hands_per_hour=pace)
        charged = b.per_batch(seat_rake(rake, b.net))
        mean, _, half = batch_mean_interval(charged * pace, seat_hands)
        share = _ratio(charged, gross)
        rows.append((name, float(mean), float(mean - half), float(mean + half), *share))
    return pd.DataFrame(rows, columns=["charge", "per_seat_hour", "ci_low", "ci_high",
                                       "share_of_gross_wins", "share_ci_low", "share_ci_high"])


def session_bands(result: SimulationResult, pace: float, hands=SESSION_HANDS) -> pd.DataFrame:
    """N x mean +- z x SD x sqrt(N) for a seat at 90% and 95%. The mean is the seats' average
    less a seat's rake: 0 before rake, as the game is zero-sum and the seats alike (one seat's
    simulated mean would carry its noise into every band); the SD is the seats' average."""
    f = result.figures(hands_per_hour=pace).set_index("metric")
    seats = range(result.variant.players)
    mean = np.mean([f.at[f"mean_seat{p}", "estimate"] for p in seats]) - f.at["rake_per_seat_per_hand", "estimate"]
    sd = float(np.mean([f.at[f"sd_seat{p}", "estimate"] for p in seats]))
    frame = pd.DataFrame(session_band_rows("a seat", mean, sd, hands))
    frame.attrs["sd"] = "SD the seats' average per hand, before rake"
    return frame
