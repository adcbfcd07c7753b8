"""Whole open-face hands: a fresh deck each, every player placing street by street.

:func:`play_hands` deals consecutive hands (OFC-DEAL-CLASSIC or OFC-DEAL-PINEAPPLE), seats the
players in Fantasyland (OFC-FL-ENTRY, OFC-FL-PROGRESSIVE, OFC-FL-STAY-A/B) and carries their
state from hand to hand. Placement strategies are in :mod:`cpstats.ofc.placement`.

The table (:class:`_Table`) moves the button (OFC-BUTTON), keeps the players' points within a match
(OFC-STAKES, OFC-MATCH) and sits out a player with none left. The normal players act in the order of
the positions, the seat after the button first; each seat is dealt the cards it would be dealt with
seat 0 first (its slices of the deck in seat order), so one deck played with the button at two seats
differs only in who acts when: the paired measure of position (:func:`cpstats.ofc.simulation.acting_last`).
A fixed button with every seat in plays exactly as before these rules.
"""

from __future__ import annotations

from functools import lru_cache

from typing import NamedTuple, Sequence

import numpy as np

from cpstats.errors import OptionError, check_whole
from cpstats.ofc import _board_kernel as _bk
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc.board import table_args
from cpstats.ofc.entry_value import play_args
from cpstats.ofc.placement import DEFAULT_HINDSIGHT, DEFAULT_SAMPLES, DEFAULT_TOP, set_fantasy, strategy_code
from cpstats.ofc.street_values import street_model
from cpstats.ofc.rules import Variant, resolve_ofc_variant
from cpstats.ofc.table_rules import FantasylandButton
from cpstats.ofc.settlement import pair_points, settle_within_stacks

__all__ = ["PlayedHands", "play_hands"]


class PlayedHands(NamedTuple):
    """Hands played by :func:`play_hands`."""

    boards: np.ndarray  # int8[hands, players, 13]: front (3), middle (5), back (5); a seat sitting out: 0..12
    fantasy_cards: np.ndarray  # int64[hands, players]: cards dealt in Fantasyland, 0 = normal
    next_fantasy: np.ndarray  # int64[players]: Fantasyland cards of the hand after the last
    first: np.ndarray | None = None  # int64[hands]: the seat acting first (the seat after the button)
    active: np.ndarray | None = None  # bool[hands, players]: seats in the hand (False: out of the match)
    stacks: np.ndarray | None = None  # int64[hands, players]: points at the start of the hand (stakes)
    match: np.ndarray | None = None  # int64[hands]: the match each hand belongs to, from 0 (-1: no matches)
    match_end: np.ndarray | None = None  # bool[hands]: the last hand of a match


#: The board a seat sitting out holds (never valued: its pairs pay nothing and its board counts nowhere).
SITTING_OUT = np.arange(13, dtype=np.int8)


class _Table:
    """The button, the stacks and the match between hands (OFC-BUTTON, OFC-STAKES, OFC-MATCH)."""

    def __init__(self, v: Variant, first: int = 0):
        self.v, self.first, self.match = v, int(first), 0
        self.new_match()

    def new_match(self) -> None:
        players = self.v.players
        self.active = np.ones(players, dtype=np.bool_)
        self.stacks = np.full(players, self.v.stakes.buy_in or 0, dtype=np.int64)
        self.regular = 0

    def acting(self) -> np.ndarray:
        """The seats in the hand in acting order, the first to act (or the next seat in) first."""
        players = self.v.players
        seats = (self.first + np.arange(players)) % players
        return seats[self.active[seats]]

    def after(self, boards: np.ndarray, fantasy: np.ndarray, next_fantasy: np.ndarray) -> tuple[bool, np.ndarray]:
        """Settle the hand's stacks, move the button and close the match: whether the match ended,
        and the next hand's Fantasyland cards (none for a player out, nor after a match)."""
        v = self.v
        if not (v.stakes.limited or v.match.rounds):  # the button alone: everyone in, no stacks
            held = v.button.fantasyland is FantasylandButton.HOLD and bool(next_fantasy.any())
            if v.button.rotates and not held:
                self.first = (self.first + 1) % v.players
            return False, next_fantasy
        if v.stakes.limited and v.match.rounds:
            owed = pair_points(v, boards[None], check=False)
            paid = settle_within_stacks(owed, self.stacks[None], np.array([self.first]), self.active[None])
            self.stacks = self.stacks + paid.net[0]
            self.active &= self.stacks > 0
        next_fantasy = next_fantasy * self.active
        self.regular += not fantasy.any()
        held = bool(next_fantasy.any()) and v.button.fantasyland is FantasylandButton.HOLD
        if v.button.rotates and not held:
            self.first = (self.first + 1) % v.players
        if not v.match.rounds:
            return False, next_fantasy
        if self.active.sum() <= 1 or (self.regular >= v.players and not next_fantasy.any()):
            self.match += 1
            self.new_match()
            return True, np.zeros_like(next_fantasy)
        return False, next_fantasy



def _fantasy_start(variant: Variant, fantasy: Sequence[int] | None) -> np.ndarray:
    if fantasy is None:
        return np.zeros(variant.players, dtype=np.int64)
    values = list(fantasy) if not isinstance(fantasy, (str, bytes)) else [fantasy]
    if len(values) != variant.players:
        raise OptionError(f"fantasy={values!r} is invalid: one count per player "
                          f"({variant.players} players)")
    for i, n in enumerate(values):
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
                or not (n == 0 or 13 <= n <= 17):
            raise OptionError(f"fantasy[{i}]={n!r} is invalid: 0 (a normal hand) or 13..17 cards")
    start = np.array(values, dtype=np.int64)
    used = sum(int(n) if n else variant.cards_per_hand for n in start)
    if used > 52:
        raise OptionError(f"fantasy={values!r} is invalid: these hands need {used} cards, the "
                          "deck has 52")
    return start


def _strategy_codes(variant: Variant, strategies: Sequence[str] | str) -> np.ndarray:
    names = [strategies] * variant.players if isinstance(strategies, str) else list(strategies)
    if len(names) != variant.players:
        raise OptionError(f"strategies={names!r} is invalid: one per player ({variant.players})")
    return np.array([strategy_code(n, f"strategies[{i}]") for i, n in enumerate(names)],
                    dtype=np.int64)


def _samples(variant: Variant, samples: int | Sequence[int] | None) -> np.ndarray:
    if samples is None:
        return np.full(variant.players, DEFAULT_SAMPLES, dtype=np.int64)
    if isinstance(samples, (list, tuple, np.ndarray)):
        if len(samples) != variant.players:
            raise OptionError(f"samples={list(samples)!r} is invalid: one per player "
                              f"({variant.players}) or one for all")
        return np.array([check_whole(f"samples[{i}]", s, 1) for i, s in enumerate(samples)])
    return np.full(variant.players, check_whole("samples", samples, 1), dtype=np.int64)


def play_hands(variant: Variant | str, hands: int, rng: np.random.Generator | int | None = None,
               *, strategies: Sequence[str] | str = "rollout", fantasy: Sequence[int] | None = None,
               samples: int | Sequence[int] | None = None, top: int | None = None) -> PlayedHands:
    """Play ``hands`` consecutive hands, each on a freshly shuffled 52-card deck.

    Normal players are dealt street by street and place face up in the table's order (seat 0 first on
    the first hand, the button moving a seat a hand as OFC-BUTTON says; ``button=fixed``: seat 0 first
    on every hand); each sees every
    card placed so far, its own deal and its own discards (a Fantasyland player's cards are
    face down until the showdown, so they count as unseen). A player in Fantasyland is dealt
    ``fl_cards`` at once, before the streets, and set by the exact solver
    (:func:`cpstats.ofc.placement.set_fantasy`). After each hand a normal player with a clean
    board enters with the ``fl_entry_cards`` of its front; a Fantasyland player stays (with
    ``fl_stay_cards``) when its clean board meets the stay rule.

    Parameters
    ----------
    variant
        An :class:`~cpstats.ofc.rules.Variant` or its string.
    hands
        Number of hands (>= 0).
    rng
        A numpy Generator or seed: it draws every deck and the seed of each hand's strategies,
        so the same ``rng`` state gives the same hands.
    strategies
        One name per player (or one for all): ``"random"``, ``"greedy"`` or ``"rollout"``.
    fantasy
        Fantasyland cards of each player in the first hand (0 = a normal hand); default none.
    samples, top
        ``rollout``'s rollouts per surviving option (one for all, or one per player) and the
        options that enter its successive halving (defaults
        :data:`~cpstats.ofc.placement.DEFAULT_SAMPLES`, :data:`~cpstats.ofc.placement.DEFAULT_TOP`).

    Examples
    --------
    >>> out = play_hands("ofc-pineapple", 2, 7, strategies="random")
    >>> out.boards.shape, bool((out.boards >= 0).all())
    ((2, 2, 13), True)
    """
    v = resolve_ofc_variant(variant)
    n = check_whole("hands", hands, 0)
    samples = _samples(v, samples)
    top = DEFAULT_TOP if top is None else check_whole("top", top, 1)
    state = _fantasy_start(v, fantasy)
    codes = _strategy_codes(v, strategies)
    return _play(v, n, np.random.default_rng(rng), codes, samples, top, state)


def _play(v: Variant, n: int, gen: np.random.Generator, codes: np.ndarray, samples: np.ndarray, top: int,
          state: np.ndarray, table: _Table | None = None) -> PlayedHands:
    """:func:`play_hands` without its checks, for a caller whose options are resolved (a run's
    blocks: the verb checked the setter once): ``codes`` and ``samples`` int64 (P,) a seat,
    ``state`` the first hand's Fantasyland cards int64 (P,), ``table`` the button, stacks and match
    carried in (default: seat 0 first, a fresh match)."""
    table = _Table(v) if table is None else table
    plain = not (v.button.rotates or v.stakes.limited or v.match.rounds) and table.first == 0  # seat 0 first always
    boards = np.empty((n, v.players, 13), dtype=np.int8)
    fantasy_cards = np.zeros((n, v.players), dtype=np.int64)
    first = np.zeros(n, dtype=np.int64)
    active = np.ones((n, v.players), dtype=np.bool_)
    stacks = np.zeros((n, v.players), dtype=np.int64)
    match = np.full(n, -1, dtype=np.int64)
    match_end = np.zeros(n, dtype=np.bool_)
    for h in range(n):
        fantasy_cards[h] = state
        first[h], active[h], stacks[h] = table.first, table.active, table.stacks
        match[h] = table.match if v.match.rounds else -1
        deck = gen.permutation(52).astype(np.int8)
        seed = gen.integers(0, 2**63, dtype=np.int64)
        if plain:  # no button, stakes or match to carry: the hand as the table rules' first order
            boards[h], _ = _play_hand(v, deck, codes, state, samples, top, np.uint64(seed))
            state = _next_state(v, boards[h], state)
            continue
        boards[h], _ = _play_hand(v, deck, codes, state, samples, top, np.uint64(seed), order=table.acting())
        match_end[h], state = table.after(boards[h], state, _next_state(v, boards[h], state))
    return PlayedHands(boards, fantasy_cards, state, first, active, stacks, match, match_end)


def _play_hand(v: Variant, deck: np.ndarray, codes: np.ndarray, fantasy: np.ndarray,
               samples: np.ndarray | int, top: int, seed: np.uint64,
               hind: int = DEFAULT_HINDSIGHT,
               endgame: int = _pk.ENDGAME, args=None, model=None,
               order: np.ndarray | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """One hand on ``deck``: Fantasyland players take their cards first (seat order), the
    others then play the streets. ``codes`` may also hold 3, the former ``rollout`` (for
    comparisons) or 4, ``rollout-v1``; 6, ``rollout`` (the default), and 7, ``fast``, play by the street
    models (:func:`~cpstats.ofc.street_values.street_model`); ``hind`` is the streets a rollout completes by hindsight,
    ``endgame`` the streets before the last that ``rollout`` plays exactly; ``args`` the
    kernel's stacked tables (default :func:`~cpstats.ofc.entry_value.play_args`) and ``model`` the
    street models (default the variant's); ``order`` the seats in the hand in acting order (default
    every seat, seat 0 first): a seat left out sits out (:data:`SITTING_OUT`), and each seat is dealt
    its slices of the deck as in seat order (the module's note). Returns the boards and each
    player's discards."""
    boards = np.empty((v.players, 13), dtype=np.int8)
    discards: list[np.ndarray] = [np.empty(0, dtype=np.int8)] * v.players
    seated = np.ones(v.players, dtype=np.bool_)
    if order is not None and order.size < v.players:
        seated[:] = False
        seated[order] = True
        boards[~seated] = SITTING_OUT
    pos = 0
    for p in np.flatnonzero(fantasy * seated):
        board, rest, _ = set_fantasy(deck[pos:pos + fantasy[p]], v)
        boards[p], discards[p] = board, rest
        pos += int(fantasy[p])
    normal = np.flatnonzero((fantasy == 0) & seated)
    if normal.size:
        deal = np.array(v.cards_dealt, dtype=np.int64)
        keep = np.array(v.cards_kept, dtype=np.int64)
        rest = deck[pos:]
        if order is not None:
            acting = np.asarray(order, dtype=np.int64)[fantasy[order] == 0]
            if acting[0] != normal[0]:  # the same seats, in another order only if another begins
                rest = rest[_acting_order_index(tuple(np.searchsorted(normal, acting).tolist()),
                                                tuple(deal.tolist()), rest.size)]
                normal = acting
        out = np.empty((normal.size, 13), dtype=np.int8)
        disc = np.empty((normal.size, deal.size), dtype=np.int8)
        if args is None:
            args = play_args(v, with_values=bool((codes[normal] > 0).any()))
        budget = np.broadcast_to(np.asarray(samples, dtype=np.int64), (v.players,))[normal]
        learned = any(c == _pk.ROLLOUT_LEARNED or c == _pk.FAST for c in codes[normal].tolist())
        model = (street_model(v) if model is None else model) if learned else None
        _vk.play_streets(rest, codes[normal], deal, keep, budget, top, hind, seed, args, out, disc,
                         endgame, model)
        for i, p in enumerate(normal):
            boards[p] = out[i]
            discards[p] = disc[i][disc[i] >= 0]
    return boards, discards


@lru_cache(maxsize=256)
def _acting_order_index(perm: tuple[int, ...], deal: tuple[int, ...], size: int) -> np.ndarray:
    """The index that lays out a deck of ``size`` cards so that the players dealt in the order
    ``perm`` (indices into the seat order) receive on each street the slices they would receive
    dealt in seat order (one array a seating and deal, kept: the button moves round a few)."""
    n, index, pos = len(perm), np.arange(size), 0
    for k in deal:
        index[pos:pos + n * k] = np.arange(pos, pos + n * k).reshape(n, k)[list(perm)].reshape(-1)
        pos += n * k
    index.setflags(write=False)
    return index


def _next_state(v: Variant, boards: np.ndarray, fantasy: np.ndarray) -> np.ndarray:
    """Fantasyland cards of each player's next hand (OFC-FL-ENTRY, OFC-FL-STAY-*)."""
    tables = table_args(v)
    ranks = np.empty(3, dtype=np.int64)
    out = np.zeros_like(fantasy)
    for p in range(v.players):
        _bk.board_ranks(boards[p], ranks)
        _, _, fl_cards, stays = _bk.board_value(ranks[0], ranks[1], ranks[2], *tables)
        out[p] = _bk.next_fantasy(bool(fantasy[p]), fl_cards, stays, tables[9])
    return out
