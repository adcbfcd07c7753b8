"""The result of a simulation: merged summaries with tables as DataFrames, and rescoring."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np
import pandas as pd

from cpstats.errors import OptionError
from cpstats.rules.house import BankSetter
from cpstats.thirteen.naturals.detect import NATURALS, natural_mask
from cpstats.thirteen.rules.variant import Variant, resolve_variant
from cpstats.thirteen.settlement import charges_seats, seat_charges, settle_many
from cpstats.thirteen import house
from cpstats.thirteen.outcomes import outcome_summary, outcome_table
from cpstats.engine.stats import (VOLATILITY_Z, batch_mean_interval, batch_variance_interval,
                                      moments_from_sums, wilson_interval, z_value)
from cpstats.engine.base import FigureBatches, Result
from cpstats.engine.batches import batch_count, batch_of
from cpstats.thirteen.block import SetHands
from cpstats.thirteen.summary import (ROYALTY_ROWS, SimulationSummary, hands_frame, net_summary,
                                      setting_summary, static_key, tie_gain)

__all__ = ["SimulationResult"]

_SESSION_HANDS = (100, 1_000, 10_000)


class RakeLimits(NamedTuple):
    """How often a percent rake's limits acted: deals its cap bound, deals its threshold kept it
    at 0, and the largest pot."""

    capped: int
    below_threshold: int
    pot_max: float


@dataclass
class SimulationResult(Result):
    """Merged summaries of a simulation, with tables as DataFrames.

    Attributes
    ----------
    variant
        The variant simulated.
    summary
        The merged :class:`~cpstats.thirteen.summary.SimulationSummary` (counts, power sums,
        per-batch sums); read it through the result's methods. A mapping of its arrays under
        their keys on disk is taken too.
    metadata
        Variant string, strategy, deals, root entropy, block size, package versions; with
        ``ev``, ``tables`` (which row tables set the hands) and ``tables_source`` (shipped,
        cache, trained now, borrowed; see :attr:`setter`).
    """

    variant: Variant
    summary: SimulationSummary
    metadata: dict
    kept: list | None = field(default=None, repr=False)
    out: Path | None = None

    def __post_init__(self) -> None:
        if isinstance(self.summary, Mapping):
            self.summary = SimulationSummary.from_arrays(self.summary)

    @property
    def setter(self) -> str:
        """Who set the hands, for a table or chart caption: the strategy, and for ``ev`` the
        variant its row tables were trained for and where they came from (``metadata["tables"]``
        and ``["tables_source"]``), e.g. ``ev (tables trained for 2-4, borrowed)``, and who set a
        bank's hand where its own way did (``; bank: house way``)."""
        meta = self.metadata
        strategy = str(meta.get("strategy", "?"))
        bank = f"; bank: {meta['bank']}" if meta.get("bank") else ""
        tables = meta.get("tables")
        if not tables:
            return strategy + bank
        source = meta.get("tables_source")
        return (f"{strategy} (tables trained for {tables.get('trained_for')}"
                + (f", {source})" if source else ")") + bank)

    def rows(self) -> pd.DataFrame:
        """One row per deal and seat (needs ``keep_hands=True``): built from the rows kept in
        memory, or read back from the run's Parquet files when it was written to ``out=``."""
        if self.kept:
            v = self.variant
            return pd.concat([hands_frame(v, k["settings"], k["declare"], k["surrender"], k["net"],
                                          k["rake"], k["held"], k["first"]) for k in self.kept],
                             ignore_index=True)
        if self.out is None or not list(self.out.glob("hands-*.parquet")):
            raise OptionError("hands are not kept: run simulate(..., keep_hands=True)")
        return pd.concat([pd.read_parquet(p) for p in sorted(self.out.glob("hands-*.parquet"))],
                         ignore_index=True)

    @property
    def has_charge_shares(self) -> bool:
        """Whether each seat's share of the house charge is recorded (summary format 4 on)."""
        return self.summary.after_charge_sq_sum is not None

    @property
    def has_outcomes(self) -> bool:
        """Whether the outcome counts are recorded (summary format 3 on)."""
        return self.summary.pair_outcomes is not None

    def rake_per_deal(self) -> float:
        """The house's charge per deal as simulated (rake, a bank's commission or fee; never the
        jackpot drop), the mean over every deal."""
        return float(self.summary.rake_sum) / self.deals

    def gross_per_deal(self) -> float:
        """The winners' nets per deal (the pot an uncapped percent rake is charged on)."""
        return float(self.summary.gross_sum) / self.deals

    def net_batches(self) -> tuple[np.ndarray, np.ndarray]:
        """(Sums of each seat's net per batch (B, P), deals per batch (B,)): for paired
        differences of two runs on common deals."""
        return self.summary.net_by_batch, self.summary.batch_sizes

    def gross_batches(self) -> np.ndarray | None:
        """Sums of the winners' nets per batch (B,); None for results saved before summary
        format 3."""
        return self.summary.gross_by_batch

    def outcome_batches(self, per: str = "pair") -> list[tuple[int, str, np.ndarray]] | None:
        """Per-batch counts behind :meth:`outcomes` (:func:`~cpstats.thirteen.outcomes.outcome_batches`);
        None for results saved before summary format 4."""
        from cpstats.thirteen.outcomes import outcome_batches

        return outcome_batches(self.variant, self.summary, per)

    def rake_limits(self) -> RakeLimits | None:
        """How often a percent rake's cap and threshold acted, and the largest pot; None for
        results saved before summary format 4."""
        s = self.summary
        if s.rake_capped is None:
            return None
        return RakeLimits(int(s.rake_capped), int(s.rake_below_threshold), float(s.pot_max))

    def rake_batches(self) -> tuple[np.ndarray, np.ndarray]:
        """(The house's charge as simulated, summed per batch (B,), deals per batch (B,))."""
        return self.summary.rake_by_batch, self.summary.batch_sizes

    def bank_edge_batches(self, *, charges: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """(A banked game's house edge per unit of wager summed per batch (B,), deals per batch):
        :func:`cpstats.thirteen.house.bank_edge_sums`."""
        sums, _ = house.bank_edge_sums(self.variant, self.summary, charges=charges)
        return sums, self.summary.batch_sizes

    def bank_edge(self, confidence: float = 0.95, *, charges: bool = True) -> house.Estimate:
        """A banked game's house edge per unit of the 3-unit wager (:meth:`bank_edge_batches`),
        Student's t on the batch means; ``charges=False`` leaves the house's commission or fee
        out (the bank's tie advantage alone)."""
        sums, sizes = self.bank_edge_batches(charges=charges)
        mean, se, half = batch_mean_interval(sums, sizes, confidence)
        mean, half = float(mean), float(half)
        return house.Estimate(mean, mean - half, mean + half, float(se))

    def figure_batches(self, confidence: float = 0.95, *,
                       hands_per_hour: float | None = None) -> dict[str, FigureBatches]:
        """The designer's figures (:data:`~cpstats.thirteen.paired.METRICS` shown for this game)
        with their per-batch values: :func:`~cpstats.thirteen.metrics.figure_batches`."""
        from cpstats.thirteen.metrics import figure_batches

        return figure_batches(self, confidence, hands_per_hour)

    @classmethod
    def figure_names(cls, v: Variant) -> list[str]:
        """Every figure name a run of ``v`` gives, in the order figures are looked up in
        (:func:`~cpstats.thirteen.figures.lookup_table`: the comparison figures first), known from
        the rules without a run: :func:`cpstats.thirteen.figures.lookup_names`."""
        from cpstats.thirteen.figures import lookup_names

        return lookup_names(v)

    def figures(self, confidence: float = 0.95, *, hands_per_hour: float | None = None) -> pd.DataFrame:
        """Every figure of the result's tables, one row each (:data:`~cpstats.engine.base.FIGURE_COLUMNS`
        and ``table``, the method it comes from): :func:`cpstats.thirteen.figures.tidy_figures`."""
        from cpstats.thirteen.figures import tidy_figures

        return tidy_figures(self, confidence, hands_per_hour)

    def moments(self, confidence: float = 0.95) -> pd.DataFrame:
        """Mean, SD, variance, skewness, kurtosis per seat, with intervals of the mean, SD and variance.

        The mean's interval (``ci_low``, ``ci_high``) is Student's t on the batch means (``batches - 1``
        degrees of freedom). The variance's (``variance_ci_low``, ``variance_ci_high``) is batch
        means on the per-batch variances: the full-sample variance, its standard error the spread
        of the batches' own (unbiased, n/(n-1)) variances over sqrt(batches), Student's t with
        ``batches - 1`` degrees of freedom, low end clipped at 0; the SD's (``sd_ci_low``,
        ``sd_ci_high``) are the square roots of those ends. No chi-square formula: results are
        discrete and skewed. They hold 95% from about 10,000 deals in heavy-tailed games
        (taiwanese, pagat-casino; a little less at 2,000, the misses below the truth) and from
        2,000 in 2-4 (measured: docs/measurements.md#coverage_sd). The SD and variance intervals are NaN
        for results saved without per-batch sums of squares and for runs under 60 deals (batches
        of one deal).
        """
        s = self.summary
        m = moments_from_sums(self.deals, s.net_sum, s.net_sq_sum, s.net_cube_sum, s.net_fourth_sum)
        _, se, half = batch_mean_interval(s.net_by_batch, s.batch_sizes, confidence)
        _, var_low, var_high = batch_variance_interval(s.net_by_batch, s.net_sq_by_batch,
                                                       s.batch_sizes, confidence)
        frame = pd.DataFrame({"seat": np.arange(self.variant.players), **m, "se": se})
        frame["ci_low"] = frame["mean"] - half
        frame["ci_high"] = frame["mean"] + half
        frame["sd_ci_low"], frame["sd_ci_high"] = np.sqrt(var_low), np.sqrt(var_high)
        frame["variance_ci_low"], frame["variance_ci_high"] = var_low, var_high
        frame["hit_frequency"] = s.wins / self.deals
        frame["push_rate"] = s.pushes / self.deals
        frame["volatility_index"] = VOLATILITY_Z * frame["sd"]
        return frame

    def after_charges(self, confidence: float = 0.95) -> pd.DataFrame:
        """Each seat's result after house charges: ``charge`` (its share of the charge per hand,
        :func:`cpstats.thirteen.settlement.seat_charges`), ``mean`` and ``sd`` of its net less that share,
        with Student's t intervals on the batch means (``ci_low``, ``ci_high``) and on the
        per-batch variances (``sd_ci_low``, ``sd_ci_high``, as :meth:`moments`). Results saved
        before summary format 4 hold no shares (OptionError)."""
        s = self.summary
        if not self.has_charge_shares:
            raise OptionError("results after house charges are not in this result: it was saved "
                              "before summary format 4; run it again (reference results: "
                              "`cpstats reference`)")
        n = self.deals
        mean = (s.net_sum - s.charge_sum) / n
        sd = np.sqrt(np.maximum(s.after_charge_sq_sum / n - mean**2, 0.0))
        sums = s.net_by_batch - s.charge_by_batch
        _, se, half = batch_mean_interval(sums, s.batch_sizes, confidence)
        _, var_low, var_high = batch_variance_interval(sums, s.after_charge_sq_by_batch, s.batch_sizes,
                                                       confidence)
        return pd.DataFrame({"seat": np.arange(self.variant.players), "charge": s.charge_sum / n,
                             "mean": mean, "se": se, "ci_low": mean - half, "ci_high": mean + half,
                             "sd": sd, "sd_ci_low": np.sqrt(var_low), "sd_ci_high": np.sqrt(var_high)})

    def session_sd(self) -> tuple[np.ndarray, str]:
        """(SD per seat, which) for session bands: the SD of the result after house charges,
        or, in results saved before those were recorded, the SD before them (``which`` says)."""
        if not charges_seats(self.variant):
            return self.moments()["sd"].to_numpy(), "after house charges (there are none)"
        if not self.has_charge_shares:
            return self.moments()["sd"].to_numpy(), "before house charges (saved before format 4)"
        return self.after_charges()["sd"].to_numpy(), "after house charges"

    def sessions(self, hands: Sequence[int] = _SESSION_HANDS, confidence: float = 0.90) -> pd.DataFrame:
        """Session bands per seat: ``expected`` = n x mu, ``low``/``high`` = n x mu -+ z x SD x sqrt(n).

        mu is the seat's true mean after house charges, not its noisy sample mean: identical
        players win nothing from each other, so in a game without a bank every seat's mu is minus
        its share of the house take (rake per hand / seats); in a banked game mu is -3 x house edge
        for a player and +3 x edge x players for the bank (the house edge per 3-unit wager, its
        control variate far less noisy than the raw means). SD is that of the seat's result after
        house charges (:meth:`session_sd`; ``sd`` and ``attrs["sd"]`` say which).
        """
        z = z_value(confidence)
        v = self.variant
        house = self.house().iloc[0]
        if v.bank.banked:
            edge = 3.0 * float(house["house_edge"])
            means = [edge * (v.players - 1)] + [-edge] * (v.players - 1)
        else:
            means = [-float(house["rake_per_hand"]) / v.players] * v.players
        sds, which = self.session_sd()
        rows = []
        for n in hands:
            for seat, (mu, sd) in enumerate(zip(means, sds)):
                rows.append({"hands": n, "seat": seat, "expected": n * mu, "sd": float(sd),
                             "low": n * mu - z * sd * np.sqrt(n), "high": n * mu + z * sd * np.sqrt(n)})
        frame = pd.DataFrame(rows)
        frame.attrs["sd"] = f"SD per hand {which}"
        return frame

    def pooled_rates(self, confidence: float = 0.95) -> pd.DataFrame:
        """Hit, push, scoop and (without a bank) home-run frequencies pooled over the seats that
        play alike (every seat, or the player seats of a banked game), each with its interval
        and ``method`` (:func:`~cpstats.engine.stats.rate_interval`: Student's t on the batch
        means of the pooled rate, Wilson where the frequency is rare). The scoop rate is per pair
        of opponents that both played their rows; the home-run rate per hand. Results saved
        before summary format 4 give hit and push a Wilson interval on the deals (too wide).
        """
        from cpstats.engine.stats import rate_interval

        v, s = self.variant, self.summary
        seats = list(range(1, v.players)) if v.bank.banked else list(range(v.players))
        sizes = s.batch_sizes
        rows = []
        for name, counts, by_batch in (("hit", s.wins, s.wins_by_batch),
                                       ("push", s.pushes, s.pushes_by_batch)):
            if by_batch is not None:
                rate = rate_interval(by_batch[:, seats].sum(axis=1), sizes * len(seats),
                                     confidence, what="seat-deals")
            else:
                k = float(np.mean(counts[seats]))
                low, high = wilson_interval(k, self.deals, confidence)
                rate = (k / self.deals, float(low), float(high),
                        "Wilson, n = deals (saved before summary format 4)")
            rows.append((name, *rate))
        rows.append(("scoop", *rate_interval(s.scoops_by_batch, s.pairs_played_by_batch, confidence,
                                             what="pair-deals")))
        if not v.bank.banked:
            hands = v.players * v.hands_per_player
            rows.append(("home_run", *rate_interval(s.home_runs_by_batch, sizes * hands, confidence,
                                                    what="hand-deals")))
        return pd.DataFrame(rows, columns=["rate", "estimate", "ci_low", "ci_high", "method"])

    def naturals(self, confidence: float = 0.95) -> pd.DataFrame:
        """Natural frequencies per hand (held and declared) with Wilson intervals and exact values."""
        from cpstats.thirteen.naturals.exact import exact_naturals

        s = self.summary
        hands = self.deals * self.variant.players * self.variant.hands_per_player
        exact = exact_naturals(qka_front_straight=self.variant.naturals.qka_front_straight)
        low, high = wilson_interval(s.naturals_held, hands, confidence)
        return pd.DataFrame({"natural": list(NATURALS), "held": s.naturals_held,
                             "frequency": s.naturals_held / hands, "ci_low": low, "ci_high": high,
                             "exact_probability": exact.set_index("natural")["probability"].reindex(
                                 list(NATURALS)).to_numpy(),
                             "declared": s.naturals_declared})

    def royalties(self, confidence: float = 0.95) -> pd.DataFrame:
        """Rate of each royalty row made, per played (non-fouled, non-natural, non-surrender)
        hand; ``attrs["played"]`` is that count of hands."""
        s = self.summary
        played = max(int(s.hands_played), 1)
        low, high = wilson_interval(s.royalties_made, played, confidence)
        frame = pd.DataFrame({"row": list(ROYALTY_ROWS), "made": s.royalties_made,
                              "rate": s.royalties_made / played, "ci_low": low, "ci_high": high})
        frame.attrs["played"] = int(s.hands_played)
        return frame

    def scoops(self, confidence: float = 0.95) -> pd.DataFrame:
        """Scoop probability per pair of hands, and home-run rate per hand."""
        s = self.summary
        rows = []
        h = s.scoops.shape[0]
        for a in range(h):
            for b in range(h):
                if s.pairs_played[a, b]:
                    k, n = s.scoops[a, b], s.pairs_played[a, b]
                    low, high = wilson_interval(k, n, confidence)
                    rows.append({"hand": a, "against": b, "scoops": int(k), "pairs": int(n),
                                 "rate": k / n, "ci_low": float(low), "ci_high": float(high)})
        frame = pd.DataFrame(rows)
        frame.attrs["home_run_rate"] = (s.home_runs / self.deals).tolist()
        return frame

    def outcomes(self, confidence: float = 0.95, per: str = "pair") -> pd.DataFrame:
        """Outcome table of the PAR sheet: each outcome's probability, pay and share of the figures.

        ``per="pair"``: for each pair of players, from each side (``seat`` against ``against``;
        ``hand``/``against_hand`` tell criss-cross hands apart), the outcomes of
        :data:`~cpstats.thirteen.outcomes.PAIR_OUTCOMES`: rows won-lost-tied of two played hands
        (``3-0-0`` scoop won, ``2-1-0``, ``1-2-0``, ``0-3-0`` scoop lost and the six tie patterns,
        rows compared as ranked, so a tie the bank collects is still a tie), then a natural,
        surrender or foul of either side or both (in that order of precedence, as settled).
        ``mean_pay`` is what ``seat`` receives from ``against`` in that outcome, before house
        charges (criss-cross: the two seats' whole exchange). ``per="seat"``: each hand against
        its whole table (:data:`~cpstats.thirteen.outcomes.SEAT_OUTCOMES`: its natural,
        surrender or foul, else home run, scoops, scooped, both or neither; a fouled opponent
        counts as scooped, as in :meth:`scoops`), ``mean_pay`` the seat's net.

        Columns ``count``, ``probability`` with a Wilson interval (``ci_low``, ``ci_high``; one
        trial a deal), ``mean_pay``, ``contribution_to_mean`` (p x pay) and
        ``contribution_to_variance`` (p x E[(pay - mu)^2 | outcome], mu the side's mean): over
        one side's rows they sum to 1, to the mean and to the (population) variance of its pay.
        Outcomes the rules rule out (surrender without surrender, naturals without a schedule)
        are left out. Results saved before summary format 3 have no outcome counts
        (OptionError).

        Examples
        --------
        >>> from cpstats import simulate
        >>> table = simulate("2-4", 1_000, setter="greedy", rng=1).outcomes()
        >>> round(float(table.query("hand == 0 and against_hand == 1")["probability"].sum()), 12)
        1.0
        """
        from cpstats.engine.stats import check_confidence

        return outcome_table(self.variant, self.summary, self.deals, per, check_confidence(confidence))

    def rates(self, confidence: float = 0.95) -> pd.DataFrame:
        """Foul, surrender and declaration rates per hand position."""
        s = self.summary
        out = []
        for name, counts in (("foul", s.fouls), ("surrender", s.surrenders), ("declared", s.declared)):
            low, high = wilson_interval(counts, self.deals, confidence)
            out.append(pd.DataFrame({"rate": name, "hand": np.arange(len(counts)), "count": counts,
                                     "frequency": counts / self.deals, "ci_low": low, "ci_high": high}))
        return pd.concat(out, ignore_index=True)

    def distribution(self) -> pd.DataFrame:
        """Distribution of net units per seat: value, count (``seat_i``) and probability
        (``p_i``); from summary format 4 also ``charge_i``, the seat's mean share of the house
        charge on the deals where it netted that value (its result after charges is net less
        that)."""
        s = self.summary
        seats = s.net_counts.shape[1]
        frame = pd.DataFrame(s.net_counts, columns=[f"seat_{i}" for i in range(seats)])
        frame.insert(0, "net", s.net_values)
        for i in range(seats):
            frame[f"p_{i}"] = frame[f"seat_{i}"] / self.deals
        if s.charge_by_net is not None:
            with np.errstate(divide="ignore", invalid="ignore"):
                for i in range(seats):
                    frame[f"charge_{i}"] = np.where(s.net_counts[:, i] > 0,
                                                    s.charge_by_net[:, i] / s.net_counts[:, i], np.nan)
        return frame

    def house(self, hands_per_hour: float | None = None, confidence: float = 0.95) -> pd.DataFrame:
        """The house's money: rake per hand, per hour and per seat, share of gross winnings,
        break-even edge, jackpot drop; in a banked game the house edge and element of risk.

        ``hands_per_hour`` defaults to the variant's pace (``rake.hands_per_hour``, 30). A time
        charge (``rake=time``) is ``rake.amount`` per seat per hour whatever the pace: per hour it
        is amount x seats, per hand amount x seats / hands_per_hour, so a faster game makes each
        hand cheaper and the hourly figure does not move. The jackpot drop is taken per hand on
        top of the rake and returns to the players as jackpots: it is shown apart and is not in
        the rake, its share of gross or the break-even edge (the skill edge per hand a seat needs
        to pay its share of the rake).

        Banked games (the bank is seat 0): a player stakes one unit on each row before the deal
        and adds nothing during the hand (surrender lowers a loss, it adds no wager), so the
        initial wager and the total wagered are both B = 3 units, and house edge = element of
        risk = -mu / 3, with mu a player's mean after the house's commission or fee (the
        ``rake``, shared among the player seats). With every seat set by one strategy the game
        with ties pushed is symmetric (mean exactly 0), so the bank's mean equals its mean gain
        from winning ties, which the simulation records deal by deal: that control variate has
        far less noise than the bank's own result (``house_edge_method``). Intervals: Student's
        t on batch means.
        """
        v, s = self.variant, self.summary
        pace = house.check_pace(v, hands_per_hour)
        seats = v.players
        charge = house.charge_per_hand(v, s, pace, confidence)
        rake = charge.estimate
        gross = self.gross_per_deal()
        drop = float(v.rake.jackpot_drop)
        edge, method = house.bank_edge(v, s, confidence) if v.bank.banked else (None, None)
        even = house.break_even_edge(v, charge, edge)
        row = {"hands_per_hour": pace, "rake_per_hand": rake, "rake_ci_low": charge.ci_low,
               "rake_ci_high": charge.ci_high, "rake_per_hour": rake * pace,
               "rake_per_seat_per_hand": rake / seats, "rake_per_seat_per_hour": rake * pace / seats,
               "rake_share": rake / gross if gross else np.nan,
               "break_even_edge": even.estimate, "break_even_edge_ci_low": even.ci_low,
               "break_even_edge_ci_high": even.ci_high,
               "jackpot_drop_per_hand": drop, "jackpot_drop_per_hour": drop * pace}
        if edge is not None:
            opponents = max(seats - 1, 1)
            row.update({"initial_wager_units": house.BANKED_WAGER, "house_edge": edge.estimate,
                        "house_edge_se": edge.se, "house_edge_ci_low": edge.ci_low,
                        "house_edge_ci_high": edge.ci_high, "element_of_risk": edge.estimate,
                        "bank_result_per_hand": edge.estimate * opponents * house.BANKED_WAGER,
                        "house_edge_method": method})
        return pd.DataFrame([row])

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every summary table by name."""
        return {"moments": self.moments(), "sessions": self.sessions(), "naturals": self.naturals(),
                "royalties": self.royalties(), "scoops": self.scoops(), "rates": self.rates(),
                "distribution": self.distribution(), "house": self.house()}

    def rescore(self, other: Variant | str) -> "SimulationResult":
        """The same deals and settings settled under another scoring system, royalties or rake.

        Needs the settings: run with ``keep_hands=True``. The other variant must seat the same
        hands (players and deal format). The settings stay those chosen for the simulated
        variant: where the rules that move a setter's choices differ (scoring, royalties,
        naturals, surrender...), the result says so in ``metadata["rescore_notes"]``, with every
        rule that changed. Naturals of the new schedule are declared whenever a hand holds one
        (the decision of ``greedy`` and ``random``; a natural pays more than playing the hand in
        all but a few hands), surrender only where the hand surrendered and the new rules allow it.
        """
        v = resolve_variant(other)
        if self.kept is None:
            raise OptionError("rescore needs the settings: run simulate(..., keep_hands=True)")
        if (v.players, v.hands_per_player) != (self.variant.players, self.variant.hands_per_player):
            raise OptionError(f"rescore with {v} is invalid: it seats {v.players} players, "
                              f"the simulation {self.variant.players}")
        if any(w.bank.banked and w.bank.setter is BankSetter.HOUSE_WAY for w in (v, self.variant)):
            raise OptionError(f"rescore with {v} is invalid: a bank that sets by the house way "
                              "(bank.setter=house-way) is measured against the players' own setting of its "
                              "hands, which a kept run does not hold; simulate the variant, or rescore with "
                              "bank.setter=ev")
        rules_key = static_key(v)
        in_play = np.uint32(sum(1 << i for i, r in enumerate(v.kernel_tables()["natural_rank"]) if r >= 0))
        deals, batches = self.deals, int(self.metadata.get("batches", batch_count(self.deals)))

        def one(kept: dict) -> SimulationSummary:
            settings, surrender = kept["settings"], kept["surrender"]
            size, h = settings.shape[:2]
            if v.surrender_amount() is None:
                surrender = np.zeros_like(surrender)
            held = kept["held"]
            if kept["rules"] != rules_key:
                held = natural_mask(settings.reshape(-1, 13), qka_front_straight=v.naturals.qka_front_straight,
                                    straight_flush_counts=v.naturals.straight_flush_counts,
                                    check=False).reshape(size, h)
            declared = np.where(surrender, 0, held & in_play).astype(np.uint32)
            net, rake = settle_many(v, settings, naturals=declared, surrender=surrender)
            batch = batch_of(kept["first"], size, deals, batches)
            set_hands = SetHands.of(v, settings, surrender, declared)
            static = (kept["static"] if kept["rules"] == rules_key
                      else setting_summary(v, size, settings, surrender, declared, held, set_hands))
            return SimulationSummary(
                **net_summary(v, net, rake, batch, batches, tie_gain(v, settings, declared, surrender, net)),
                **outcome_summary(v, settings, surrender, declared, net, batch, batches,
                                  seat_charges(v, net, rake), set_hands), **static)

        # The kernels release the GIL, so threads use every core; merging in block order keeps
        # the result bit-identical to a serial pass.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            parts = list(pool.map(one, self.kept))
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        meta = dict(self.metadata, variant=str(v), rescored_from=str(self.variant),
                    settings_variant=self.metadata.get("settings_variant", str(self.variant)),
                    rescore_notes=_rescore_notes(self.variant, v, self.metadata.get("strategy")))
        return SimulationResult(v, total, meta, kept=self.kept)


def _rescore_notes(setting: Variant, other: Variant, strategy) -> list[str]:
    """What a rescore changes: every rule component that differs, and whether the settings were
    chosen for other rules than those now scored."""
    before, after = setting.to_dict(), other.to_dict()
    changed = [k for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]
    notes = [f"{k}: {_short(before.get(k))} -> {_short(after.get(k))}" for k in changed]
    moves_play = [k for k in changed if k not in ("rake", "stakes", "name", "description")]
    if moves_play:
        notes.insert(0, f"settings are those {strategy} chose under {setting}, not under {other} "
                        f"({', '.join(moves_play)} changed)")
    return notes


def _short(value) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."
