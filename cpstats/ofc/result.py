"""Open-face results: additive per-batch summaries of played hands, and their tables.

A block of hands becomes one :class:`SimulationSummary` (:func:`summarise_hands`), its arrays indexed
by batch (30 batches of consecutive hands, :func:`cpstats.thirteen.summary.batch_of`) and
seat, which blocks add up (``a + b``). Every figure is a ratio of two batch
sums (fouls per board, royalty units per board, entries per normal hand ...): its estimate is
the ratio of the totals and its interval Student's t on the batches' linearised ratios
(``(num_b - r den_b) / mean(den)``, ``batches - 1`` degrees of freedom; CASINO-MATH's batch
ratios), which carries the dependence between the seats of a hand and between the hands a
Fantasyland run links; a proportion with fewer than 10 events (or non-events) uses Wilson
instead (``method`` says which), and a difference of means over fewer than 10 hands on either
side has no interval (``too few hands``). Paired differences of two runs on the same decks
(:func:`paired_figures`) use the difference of the linearised ratios batch by batch.

Decision: the rake figures of a variant whose rules charge nothing (no rake, or a rake of 0:
:func:`charges_nothing`) are exactly 0 with a zero-width interval and the method
:data:`NO_CHARGE` ("no house charge in these rules"), never an interval estimated from hands:
the rows stay, so every variant's table has the same figures, and they say why they are 0.

Decision: names and meanings are the 13-card game's. A seat's share of the charge is
``rake_per_seat_per_hand`` and ``rake_per_seat_per_hour``; ``sd`` is a seat's SD per hand before
house charges (the mean over the seats of each seat's SD, batch t on the per-batch SDs),
``sd_after_charges`` and ``mean_after_charges`` a seat's after its share of the rake;
``hit_frequency`` and ``push_rate`` the share of hands with a net above 0 and of exactly 0, per seat
(``_seat<p>``) and pooled over the seats, which are exchangeable in the long run. Figures of the
play alone (:func:`before_charges`) are the same on common decks for two variants that differ
only in their rake. A run saved without per-batch hit, push and after-rake counts (the shipped
runs) still loads: its hit and push rates come from the whole-run net distribution with a Wilson
interval on hands and no batch values (so no paired difference), and ``sd_after_charges`` is
left out unless the rules charge nothing (then it is ``sd``).
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from cpstats.cards.blocks import BlockPlan
from cpstats.engine.catalogue import of_the_play, resolve_figures
from cpstats.errors import OptionError
from cpstats.ofc.catalogue import FIGURES
from cpstats.rules.house import Rake, RakeModel
from cpstats.ofc.rules import Variant
from cpstats.ofc.settlement import Settlement, seat_rake
from cpstats.ofc.table_figures import (POSITIONS, by_batch_sums as _by_batch, match_sd, plays_table_rules,
                                       table_ratios, table_sums)
from cpstats.engine.stats import (batch_variance_interval, batch_variances, check_confidence, half_width,
                                  wilson_interval, z_value)
from cpstats.engine.additive import Additive, by_value, summed
from cpstats.engine.base import FigureBatches as PairedFigure
from cpstats.engine.paired import paired_row
from cpstats.engine.base import Result
from cpstats.engine.batches import batch_of, net_distribution

__all__ = ["SimulationResult", "SimulationSummary", "summarise_hands", "paired_figures", "figure_batches",
           "FigureBatches", "ROWS", "NO_CHARGE", "RAKE_FIGURES", "AFTER_CHARGES", "before_charges",
           "charges_nothing", "same_play_of", "without_rake"]

ROWS = ("front", "middle", "back")
#: The method of a rake figure under rules that charge nothing (:func:`charges_nothing`).
NO_CHARGE = "no house charge in these rules"
#: The figures of the house's charge.
RAKE_FIGURES = ("rake_per_seat_per_hand", "rake_per_seat_per_hour", "rake_share")
#: A seat's figures after its share of the rake.
AFTER_CHARGES = ("mean_after_charges", "sd_after_charges")
SUMMARY_FORMAT = "ofc-1"
_FEW = 10
_SAVED_WITHOUT = "runs saved before per-batch hit, push and after-rake counts (the shipped runs)"
_BEFORE_POSITIONS = "runs of rules without OFC-BUTTON rotation, stakes or matches (every preset today)"
_WHOLE_RUN = "wilson on hands (a run saved without batch counts: no paired difference)"


def before_charges(name: str) -> bool:
    """Whether figure ``name`` is of the play alone, before any house charge: two variants that
    differ only in their rake give it exactly equal on common decks."""
    return of_the_play(name, resolve_figures(FIGURES))


@dataclass(frozen=True)
class SimulationSummary(Additive):
    """An open-face block's (or run's) additive arrays. Shapes: B batches, P seats, V distinct
    nets; a board is one seat's hand."""

    deals: np.ndarray = summed("hands")  # () hands played
    batch_sizes: np.ndarray = summed("batch_sizes")  # (B,) hands in each batch
    net_by_batch: np.ndarray = summed("batch_net")  # (B, P)
    net_sq_by_batch: np.ndarray = summed("batch_net2")  # (B, P)
    normal_by_batch: np.ndarray = summed("batch_normal")  # (B, P) boards played normally
    fantasyland_by_batch: np.ndarray = summed("batch_fl")  # (B, P) boards played in Fantasyland
    fouls_by_batch: np.ndarray = summed("batch_fouls")  # (B, P)
    scoops_by_batch: np.ndarray = summed("batch_scoops")  # (B, P) opponents scooped
    royalty_by_batch: np.ndarray = summed("batch_royalty")  # (B, P, 3) units by row
    royalty_hits_by_batch: np.ndarray = summed("batch_royalty_hits")  # (B, P, 3) rows paid one
    entries_by_batch: np.ndarray = summed("batch_entries")  # (B, P) Fantasyland entries
    entry_cards_by_batch: np.ndarray = summed("batch_entry_cards")  # (B, 5) entries by 13..17 cards
    stays_by_batch: np.ndarray = summed("batch_stays")  # (B, P) Fantasyland stays
    fantasyland_net_by_batch: np.ndarray = summed("batch_net_fl")  # (B, P) net of Fantasyland boards
    rake_by_batch: np.ndarray = summed("batch_rake")  # (B, P) each seat's rake
    gross_by_batch: np.ndarray = summed("batch_gross")  # (B,) points won
    wins_by_batch: np.ndarray = summed("batch_wins", optional=_SAVED_WITHOUT)  # (B, P) hands with a net above 0
    pushes_by_batch: np.ndarray = summed("batch_pushes", optional=_SAVED_WITHOUT)  # (B, P) hands with a net of 0
    after_rake_sq_by_batch: np.ndarray = summed("batch_after_rake2", optional=_SAVED_WITHOUT)  # (B, P) (net - rake)^2
    position_net_by_batch: np.ndarray = summed("batch_position_net", optional=_BEFORE_POSITIONS)  # (B, P) by position
    position_net_sq_by_batch: np.ndarray = summed("batch_position_net2", optional=_BEFORE_POSITIONS)  # (B, P)
    position_boards_by_batch: np.ndarray = summed("batch_position_boards", optional=_BEFORE_POSITIONS)  # (B, P)
    acting_last_by_batch: np.ndarray = summed("batch_acting_last", optional=_BEFORE_POSITIONS)  # (B,) last - first
    owed_by_batch: np.ndarray = summed("batch_owed", optional=_BEFORE_POSITIONS)  # (B,) points owed by pairs
    unpaid_by_batch: np.ndarray = summed("batch_unpaid", optional=_BEFORE_POSITIONS)  # (B,) left unpaid by stakes
    bound_by_batch: np.ndarray = summed("batch_bound", optional=_BEFORE_POSITIONS)  # (B,) hands the limit cut
    matches_by_batch: np.ndarray = summed("batch_matches", optional=_BEFORE_POSITIONS)  # (B,) whole matches
    match_hands_by_batch: np.ndarray = summed("batch_match_hands", optional=_BEFORE_POSITIONS)  # (B,)
    match_net_sq_by_batch: np.ndarray = summed("batch_match_net2", optional=_BEFORE_POSITIONS)  # (B,) seats' sum
    match_after_by_batch: np.ndarray = summed("batch_match_after", optional=_BEFORE_POSITIONS)  # (B,) net - rake
    match_out_by_batch: np.ndarray = summed("batch_match_out", optional=_BEFORE_POSITIONS)  # (B,) a player out
    match_rake_by_batch: np.ndarray = summed("batch_match_rake", optional=_BEFORE_POSITIONS)  # (B,) whole table
    net_values: np.ndarray = by_value("dist_values", "net_values")  # (V,) sorted
    net_counts: np.ndarray = by_value("dist_counts", "net_values")  # (V, P)

    @classmethod
    def layout(cls, v: Variant) -> frozenset[str]:
        """The keys every block of a run of ``v`` holds: the sums by position, stakes and match only
        where the rules move the button, limit the stakes or play matches."""
        table = {f.metadata["key"] for f in dataclasses.fields(cls) if f.metadata.get("optional") == _BEFORE_POSITIONS}
        return frozenset(k for k in cls.keys() if plays_table_rules(v) or k not in table)


def summarise_hands(v: Variant, fantasy_cards: np.ndarray, s: Settlement,
                    batch: np.ndarray, batches: int, played=None) -> SimulationSummary:
    """The additive summary of played hands: ``fantasy_cards`` (N, P) from
    :func:`~cpstats.ofc.play.play_hands`, their settlement ``s`` and each hand's batch; with
    ``played`` (the :class:`~cpstats.ofc.play.PlayedHands`) under rules that move the button, limit
    the stakes or play matches, the sums by position, stakes and match too (:func:`table_sums`)."""
    active = np.ones(fantasy_cards.shape, dtype=np.bool_) if played is None or played.active is None \
        else played.active
    in_fl = fantasy_cards > 0
    normal = ~in_fl & active
    net = s.net.astype(np.float64)
    entered = normal & (s.fl_cards > 0)
    entry_cards = np.stack([(entered & (s.fl_cards == n)).sum(axis=1) for n in range(13, 18)], 1)
    values, counts = net_distribution(net)
    add = lambda x: _by_batch(np.asarray(x, dtype=np.float64), batch, batches)  # noqa: E731
    extra = table_sums(v, s, played, batch, batches) if played is not None and plays_table_rules(v) else {}
    return SimulationSummary(
        deals=np.array(len(batch), dtype=np.int64),
        batch_sizes=np.bincount(batch, minlength=batches).astype(np.float64),
        net_by_batch=add(net), net_sq_by_batch=add(net**2),
        normal_by_batch=add(normal), fantasyland_by_batch=add(in_fl),
        fouls_by_batch=add(s.fouled), scoops_by_batch=add(s.scoops),
        royalty_by_batch=add(s.royalty), royalty_hits_by_batch=add(s.royalty > 0),
        entries_by_batch=add(entered), entry_cards_by_batch=add(entry_cards),
        stays_by_batch=add(in_fl & s.stays), fantasyland_net_by_batch=add(np.where(in_fl, net, 0.0)),
        rake_by_batch=add(s.rake), gross_by_batch=add(np.maximum(net, 0).sum(axis=1)),
        wins_by_batch=add(net > 0), pushes_by_batch=add(net == 0), after_rake_sq_by_batch=add((net - s.rake) ** 2),
        net_values=values, net_counts=counts, **extra)


# -- figures as ratios of batch sums ----------------------------------------------------------

Ratio = tuple[np.ndarray, np.ndarray]  # per-batch numerator and denominator (B,)


def _seats(x: np.ndarray) -> np.ndarray:
    return x.sum(axis=1) if x.ndim > 1 else x


def _check_positive(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < np.inf:
        raise OptionError(f"{name}={value!r} is invalid: a number > 0 is needed")


def _ratios(s: SimulationSummary, hands_per_hour: float) -> dict[str, tuple[str, Ratio | tuple[Ratio, Ratio]]]:
    """Every ratio figure: (kind, per-batch sums). ``kind`` is ``p`` for a proportion (Wilson
    when events are few), ``m`` for a mean, ``n`` for a mean that cannot be negative (its
    interval's low end clipped at 0), ``d`` for a difference of two means."""
    boards = _seats(s.normal_by_batch + s.fantasyland_by_batch)
    players = s.net_by_batch.shape[1]
    normal_net = _seats(s.net_by_batch - s.fantasyland_net_by_batch)
    rake = _seats(s.rake_by_batch)
    out: dict = {
        "foul_rate": ("p", (_seats(s.fouls_by_batch), boards)),
        "scoop_rate": ("p", (_seats(s.scoops_by_batch), boards * (players - 1))),
        "fl_entry_rate": ("p", (_seats(s.entries_by_batch), _seats(s.normal_by_batch))),
        "fl_stay_rate": ("p", (_seats(s.stays_by_batch), _seats(s.fantasyland_by_batch))),
        "fl_share": ("p", (_seats(s.fantasyland_by_batch), boards)),
        "fl_value": ("d", ((_seats(s.fantasyland_net_by_batch), _seats(s.fantasyland_by_batch)),
                           (normal_net, _seats(s.normal_by_batch)))),
        "royalty": ("n", (s.royalty_by_batch.sum(axis=(1, 2)), boards)),
        "rake_per_seat_per_hand": ("n", (rake, boards)),
        "rake_per_seat_per_hour": ("n", (rake * hands_per_hour, boards)),
        "rake_share": ("n", (rake, s.gross_by_batch)),
    }
    for r, row in enumerate(ROWS):
        out[f"royalty_rate_{row}"] = ("p", (_seats(s.royalty_hits_by_batch[:, :, r]), boards))
        out[f"royalty_{row}"] = ("n", (_seats(s.royalty_by_batch[:, :, r]), boards))
    for p in range(players):
        out[f"mean_seat{p}"] = ("m", (s.net_by_batch[:, p], s.batch_sizes))
    out["mean_after_charges"] = ("m", (_seats(s.net_by_batch - s.rake_by_batch), s.batch_sizes * players))
    if s.wins_by_batch is not None and s.pushes_by_batch is not None:
        for name, counts in (("hit_frequency", s.wins_by_batch), ("push_rate", s.pushes_by_batch)):
            out[name] = ("p", (_seats(counts), s.batch_sizes * players))
            for p in range(players):
                out[f"{name}_seat{p}"] = ("p", (counts[:, p], s.batch_sizes))
    if s.position_net_by_batch is not None:
        out.update(table_ratios(s, players))
    return out


def _linear(num: np.ndarray, den: np.ndarray) -> tuple[float, np.ndarray]:
    """Ratio of totals and each batch's linearised contribution (its spread is the SE's)."""
    total = den.sum()
    est = num.sum() / total if total > 0 else np.nan
    scale = den.mean() if total > 0 else 1.0
    return float(est), (num - (0 if np.isnan(est) else est) * den) / scale


def _figure(kind: str, sums, level: float) -> tuple[float, float, float, np.ndarray, str]:
    """(estimate, low, high, linearised batches, method) of one ratio figure."""
    if kind == "d":
        (n1, d1), (n2, d2) = sums
        e1, z1 = _linear(n1, d1)
        e2, z2 = _linear(n2, d2)
        est, z = e1 - e2, z1 - z2
        if min(d1.sum(), d2.sum()) < _FEW:
            return est, np.nan, np.nan, z, "too few hands"
    else:
        est, z = _linear(*sums)
    half = half_width(z, level)
    if kind == "p":
        events, trials = sums[0].sum(), sums[1].sum()
        if min(events, trials - events) < _FEW:
            low, high = wilson_interval(events, trials, level)
            return est, float(low), float(high), z, "wilson"
    if kind == "n" and est - half < 0:
        return est, 0.0, est + half, z, "batch t (low end clipped at 0)"
    return est, est - half, est + half, z, "batch t"


@dataclass
class SimulationResult(Result):
    """Merged summaries of an OFC simulation, with tables as DataFrames.

    ``summary`` is the merged :class:`SimulationSummary` (a mapping of its arrays under their keys on
    disk is taken too); ``metadata`` holds the variant string, strategies, hands, root entropy,
    block size, burn-in and package versions; ``out`` the run's folder (its Parquet rows are
    :meth:`rows`). ``deals`` is the hands played.
    """

    variant: Variant
    summary: SimulationSummary
    metadata: dict
    out: Path | None = field(default=None)

    def __post_init__(self) -> None:
        if isinstance(self.summary, Mapping):
            self.summary = SimulationSummary.from_arrays(self.summary)

    @classmethod
    def figure_names(cls, v: Variant) -> list[str]:
        """Every figure name a run of ``v`` gives, in :meth:`figures`' order, from the rules alone."""
        names = ["foul_rate", "scoop_rate", "fl_entry_rate", "fl_stay_rate", "fl_share", "fl_value", "royalty",
                 *RAKE_FIGURES]
        names += [f"{kind}{row}" for row in ROWS for kind in ("royalty_rate_", "royalty_")]
        names += [f"mean_seat{p}" for p in range(v.players)]
        names.append("mean_after_charges")
        names += [f"{kind}{seat}" for kind in ("hit_frequency", "push_rate")
                  for seat in ("", *(f"_seat{p}" for p in range(v.players)))]
        table = plays_table_rules(v)
        if table:
            names += [f"mean_acting_{name}" for name in POSITIONS[v.players]] + ["value_of_acting_last"]
            if v.stakes.limited or v.match.rounds:
                names += ["stakes_bind_rate", "unpaid_share"]
            if v.match.rounds:
                names += ["mean_per_match_after_charges", "match_out_rate", "hands_per_match", "rake_per_match"]
        names += ["sd", "sd_after_charges"]
        if table and v.match.rounds:
            names.append("sd_per_match")
        names += [f"{kind}_seat{p}" for p in range(v.players) for kind in ("sd", "hands")]
        if table:
            names += [f"sd_acting_{name}" for name in POSITIONS[v.players]]
        return names

    def recharged(self, variant: Variant, rake_by_batch: np.ndarray, after_rake_sq_by_batch: np.ndarray | None = None,
                  **metadata) -> SimulationResult:
        """The same hands under ``variant``, whose rake differs only: each seat's rake per batch
        ``rake_by_batch`` (B, P) replaces the run's (rake never moves play nor the nets), and the
        per-batch sums of each seat's squared net after it ``after_rake_sq_by_batch`` (B, P; None:
        unknown, so no ``sd_after_charges`` where ``variant`` charges); ``metadata`` entries are
        added to the run's."""
        summary = dataclasses.replace(self.summary, rake_by_batch=rake_by_batch,
                                      after_rake_sq_by_batch=after_rake_sq_by_batch)
        return SimulationResult(variant, summary, {**self.metadata, "variant": str(variant), **metadata})

    def charged(self, variant: Variant, net: np.ndarray, **metadata) -> SimulationResult:
        """The same hands under ``variant``, whose rake differs only, charged exactly from every
        hand's nets ``net`` (hands, P), in hand order (:meth:`recharged`;
        :func:`~cpstats.ofc.settlement.seat_rake` charges as a live run does)."""
        net = np.asarray(net)
        if net.shape != (self.deals, self.variant.players):
            raise OptionError(f"net of shape {net.shape} is invalid: one row a hand and a column a seat, "
                              f"({self.deals}, {self.variant.players})")
        batch = batch_of(0, len(net), len(net), self.batches)
        rake, after_sq = np.zeros((self.batches, net.shape[1])), np.zeros((self.batches, net.shape[1]))
        charge = seat_rake(variant.rake, net)
        np.add.at(rake, batch, charge)
        np.add.at(after_sq, batch, (net - charge) ** 2)
        return self.recharged(variant, rake, after_sq, **metadata)

    def figures(self, confidence: float = 0.95, *, precision: float = 1.0,
                hands_per_hour: float | None = None) -> pd.DataFrame:
        """Every figure with ``estimate, ci_low, ci_high, method``, one row per figure.

        Rates over every board, Fantasyland boards too (all seats pooled): ``foul_rate``,
        ``royalty_rate_<row>`` (boards paid a royalty in the row), ``scoop_rate`` (per player and
        opponent), ``fl_share`` (hands played in Fantasyland). Two rates have another
        denominator, since only those boards can have the event: ``fl_entry_rate`` is per
        *normal* board (the normal hands that enter; a Fantasyland hand cannot enter, it stays or
        leaves), ``fl_stay_rate`` per Fantasyland board. Means per board: ``royalty_<row>``,
        ``royalty``; ``fl_value``: the simulated gain of a Fantasyland hand, the mean result of a
        Fantasyland hand less that of a normal hand, one hand each (a stay's next hand counts as
        a hand of its own). It is not the solver's stay value
        (:func:`~cpstats.ofc.fantasyland.estimate_stay_value`, the value of *being in*
        Fantasyland counting the hands its stays bring, royalties only). Per seat:
        ``mean_seat<p>``, ``sd_seat<p>`` (batch means on per-batch variances) and
        ``hands_seat<p>``, the hands after which the interval of the seat's mean is within
        ``precision`` units, ``(z sd / precision)^2``; ``hit_frequency_seat<p>`` and
        ``push_rate_seat<p>``, the share of the seat's hands with a net above 0 and of exactly 0.
        Pooled over the seats (exchangeable): ``hit_frequency``, ``push_rate``, ``sd`` (the mean of
        the seats' SDs, before house charges; batch t on the per-batch SDs). House:
        ``rake_per_seat_per_hand`` and ``rake_per_seat_per_hour`` (at ``hands_per_hour``, default
        the variant's ``rake.hands_per_hour``), ``rake_share`` (rake over the points won); exactly 0,
        method :data:`NO_CHARGE`, where the rules charge nothing. After a seat's share of the rake:
        ``mean_after_charges``, ``sd_after_charges`` (module docstring: a saved run may lack it).
        """
        level = check_confidence(confidence)
        pace = self.variant.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
        _check_positive("precision", precision)
        _check_positive("hands_per_hour", pace)
        rows = [(name, est, low, high, method)
                for name, (_, _, (est, low, high, _, method)) in _ratio_figures(self, level, pace).items()]
        rows += self._spread(level, precision)
        return pd.DataFrame(rows, columns=["metric", "estimate", "ci_low", "ci_high", "method"])

    def _spread(self, level: float, precision: float) -> list[tuple]:
        s, z, rows = self.summary, z_value(level), []
        for p in range(s.net_by_batch.shape[1]):
            var, low, high = batch_variance_interval(s.net_by_batch[:, p], s.net_sq_by_batch[:, p],
                                                     s.batch_sizes, level)
            sd = np.sqrt([var, low, high])
            method = "batch t (variances)" if np.isfinite(sd).all() else "too few hands"
            rows.append((f"sd_seat{p}", *map(float, sd), method))
            rows.append((f"hands_seat{p}", *map(float, (z * sd / precision) ** 2),
                         f"hands to +-{precision:g}: (z sd / {precision:g})^2"))
        if s.position_net_by_batch is not None:
            players = s.net_by_batch.shape[1]
            for k, name in zip((0, *range(1, players - 1), players - 1), POSITIONS[players]):
                var, low, high = batch_variance_interval(s.position_net_by_batch[:, k], s.position_net_sq_by_batch[:, k],
                                                         s.position_boards_by_batch[:, k], level)
                sd = np.sqrt([var, low, high])
                rows.append((f"sd_acting_{name}", *map(float, sd),
                             "batch t (variances)" if np.isfinite(sd).all() else "too few hands"))
        return rows

    def figure_batches(self, confidence: float = 0.95) -> dict[str, PairedFigure]:
        """The ratio figures with their linearised batch values (:func:`figure_batches`), as the
        engine's paired compare and sweep read them."""
        return {name: PairedFigure(f.estimate, f.ci_low, f.ci_high, f.linear, f.method)
                for name, f in figure_batches(self, confidence).items()}

    def entry_cards(self) -> pd.DataFrame:
        """Fantasyland entries by cards dealt (13..17): count and share of normal hands."""
        counts = self.summary.entry_cards_by_batch.sum(axis=0)
        normal = self.summary.normal_by_batch.sum()
        return pd.DataFrame({"cards": np.arange(13, 18), "entries": counts.astype(np.int64),
                             "rate": counts / normal if normal else np.nan})

    def distribution(self) -> pd.DataFrame:
        """Net per hand: value and count per seat."""
        counts = self.summary.net_counts
        frame = pd.DataFrame(counts, columns=[f"seat{p}" for p in range(counts.shape[1])])
        frame.insert(0, "net", self.summary.net_values)
        return frame

    def rows(self) -> pd.DataFrame:
        """The Parquet rows of the run's hands (written with ``out=``), in hand order."""
        if self.out is None:
            raise OptionError("this result has no rows: run cpstats.simulate with out=DIR and keep_hands=True")
        blocks = BlockPlan(self.deals, int(self.metadata["block_deals"])).blocks
        files = [Path(self.out) / f"hands-{b:06d}.parquet" for b in range(blocks)]
        missing = [b for b, f in enumerate(files) if not f.exists()]
        if missing:
            raise OptionError(f"{len(missing)} of the run's {blocks} blocks have no rows in {self.out} "
                              f"(played with keep_hands=False, or --keep-hands left out): run it again "
                              f"with keep_hands=True and resume=True to write them")
        return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


def paired_figures(results: list[SimulationResult], labels: list[str], confidence: float = 0.95,
                   hands_per_hour: float | None = None) -> pd.DataFrame:
    """Figures of runs on common decks (with each run's ``strategy``: a baseline's figures are
    never read as good play's) and their difference to the first run: ``diff``,
    ``diff_ci_low``, ``diff_ci_high`` from Student's t on the per-batch differences of the
    linearised ratios (the batches of the runs hold the same hands)."""
    level = check_confidence(confidence)
    if hands_per_hour is not None:
        _check_positive("hands_per_hour", hands_per_hour)
    base = {name: PairedFigure(*figure) for name, figure in _all_linear(results[0], level, hands_per_hour).items()}
    rows = []
    for label, r in zip(labels, results):
        same_play = same_play_of(results[0], r)
        for name, figure in _all_linear(r, level, hands_per_hour).items():
            mine, first = PairedFigure(*figure), base.get(name)
            # t on the linearised differences; this table has no events or note (the sweep's rule has)
            difference = None
            if first is not None and same_play and before_charges(name):
                difference = (0.0, np.nan, "", np.nan)  # the same hands: equal on every batch
            elif first is not None and mine.batches is not None and first.batches is not None:
                difference = (half_width(mine.batches - first.batches, level), np.nan, "", np.nan)
            rows.append({"label": label, "variant": str(r.variant), "strategy": r.metadata["strategy"],
                         "metric": name, **paired_row(mine, first, difference)})
    return pd.DataFrame(rows, columns=["label", "variant", "strategy", "metric", "estimate", "ci_low",
                                       "ci_high", "diff", "diff_ci_low", "diff_ci_high", "method"])


def _all_linear(r: SimulationResult, level: float, hands_per_hour: float | None) -> dict[str, tuple]:
    pace = r.variant.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
    return {name: figure for name, (_, _, figure) in _ratio_figures(r, level, pace).items()}


def same_play_of(a: SimulationResult, b: SimulationResult) -> bool:
    """Whether ``a`` and ``b`` play the same hands: rules equal but for the rake (and the label),
    the same seats' setters, the same seed, hands and blocks. Rake never moves play, so every
    figure before charges (:func:`before_charges`) is equal in the two."""
    keys = ("strategy", "play", "entropy", "spawn_key", "deals", "block_deals", "burn_in")
    return without_rake(a.variant) == without_rake(b.variant) and all(a.metadata.get(k) == b.metadata.get(k)
                                                                       for k in keys)


def without_rake(v: Variant) -> Variant:
    """The variant's rules of play: ``v`` with no rake (and a fixed label), so two variants that
    differ only in what the house charges compare equal."""
    return dataclasses.replace(v, rake=Rake(), name="play")


def charges_nothing(rake: Rake) -> bool:
    """Whether rules with this rake charge no hand anything: no rake, a percent rake of 0 (or
    capped at 0), or a fixed or time charge of 0."""
    if rake.model is RakeModel.NONE:
        return True
    if rake.model is RakeModel.PERCENT:
        return rake.percent == 0 or rake.cap == 0
    return rake.amount == 0


def _ratio_figures(r: SimulationResult, level: float, hands_per_hour: float) -> dict[str, tuple]:
    """Every figure of ``r`` but the per-seat SDs and hand counts: name -> (kind, sums,
    (estimate, low, high, linear, method)), the rake figures of rules that charge nothing exactly 0
    (the module's decision). A figure without batch values (a saved run's hit and push rates) has
    None for ``sums`` and ``linear``."""
    free = charges_nothing(r.variant.rake)
    out = {}
    for name, (kind, sums) in _ratios(r.summary, hands_per_hour).items():
        est, low, high, z, method = _figure(kind, sums, level)
        if free and name in (*RAKE_FIGURES, "rake_per_match"):
            est, low, high, z, method = 0.0, 0.0, 0.0, np.zeros_like(z), NO_CHARGE
        out[name] = (kind, sums, (est, low, high, z, method))
    s = r.summary
    if s.wins_by_batch is None or s.pushes_by_batch is None:
        out.update(_whole_run_hits(s, level))
    out["sd"] = _pooled_sd(s.net_by_batch, s.net_sq_by_batch, s.batch_sizes, level)
    if s.after_rake_sq_by_batch is not None:
        out["sd_after_charges"] = _pooled_sd(s.net_by_batch - s.rake_by_batch, s.after_rake_sq_by_batch,
                                             s.batch_sizes, level)
    elif free:
        out["sd_after_charges"] = out["sd"]
    if s.matches_by_batch is not None and s.matches_by_batch.sum() > 0:
        out["sd_per_match"] = match_sd(s, level)
    return out


def _whole_run_hits(s: SimulationSummary, level: float) -> dict[str, tuple]:
    """Hit frequency and push rate of a run saved without their batch counts: from the whole run's
    net distribution, Wilson on hands (pooled: on boards), no batch values."""
    counts = s.net_counts.astype(np.float64)
    out = {}
    for name, rows in (("hit_frequency", s.net_values > 0), ("push_rate", s.net_values == 0)):
        events, trials = counts[rows].sum(axis=0), counts.sum(axis=0)
        for seat, e, n in (("", events.sum(), trials.sum()),
                           *((f"_seat{p}", events[p], trials[p]) for p in range(len(events)))):
            low, high = wilson_interval(e, n, level)
            out[name + seat] = ("w", None, (float(e / n) if n else np.nan, float(low), float(high), None, _WHOLE_RUN))
    return out


def _pooled_sd(sums: np.ndarray, squares: np.ndarray, sizes: np.ndarray, level: float) -> tuple:
    """A seat's SD per hand, the mean over the seats of each seat's whole-run SD, with batch t on
    the per-batch values of the same mean (unbiased batch variances), as the 13-card ``sd``; the
    batch sums (2P, B) tell the batches where two runs differ."""
    n = sizes.sum()
    whole = float(np.sqrt(np.maximum(squares.sum(axis=0) / n - (sums.sum(axis=0) / n) ** 2, 0.0)).mean())
    stacked = np.vstack([np.asarray(sums, dtype=np.float64).T, np.asarray(squares, dtype=np.float64).T])
    per_batch = batch_variances(sums, squares, sizes)
    if per_batch is None:
        return "s", stacked, (whole, np.nan, np.nan, np.full(len(sizes), np.nan), "too few hands")
    z = np.sqrt(per_batch).mean(axis=1)
    half = half_width(z, level)
    return "s", stacked, (whole, max(whole - half, 0.0), whole + half, z, "batch t (variances)")


class FigureBatches(NamedTuple):
    """One ratio figure of a run with what a paired difference needs: the figure as
    :meth:`SimulationResult.figures` gives it, each batch's linearised value (``linear``, (B,)) and the
    batch sums it is the ratio of (``sums``, (k, B): numerator and denominator, twice for a
    difference of two means), which tell the batches where two runs differ."""

    estimate: float
    ci_low: float
    ci_high: float
    linear: np.ndarray
    sums: np.ndarray
    method: str


def figure_batches(r: SimulationResult, confidence: float = 0.95,
                   hands_per_hour: float | None = None) -> dict[str, FigureBatches]:
    """Every figure of ``r`` with batch values (the figures of :meth:`SimulationResult.figures` but
    the per-seat SDs and hand counts, and a saved run's hit and push rates), by metric name."""
    level = check_confidence(confidence)
    pace = r.variant.rake.hands_per_hour if hands_per_hour is None else hands_per_hour
    out = {}
    for name, (kind, sums, (est, low, high, z, method)) in _ratio_figures(r, level, pace).items():
        if z is None:
            continue
        flat = np.asarray(sums[0] + sums[1] if kind == "d" else sums, dtype=np.float64)
        out[name] = FigureBatches(est, low, high, z, flat.reshape(-1, len(z)), method)
    return out

