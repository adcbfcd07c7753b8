"""Settlement of deals (rulebook sections 3-6): :func:`settle` for one deal, with every pair's
detail, and :func:`settle_many`, a numba engine for millions of deals under the same rules.

Both follow :mod:`cpstats.thirteen.settlement.reference`, the plainly written definition; a differential test
requires the engine to equal it deal by deal for every preset.

Each pair of hands in :meth:`~cpstats.thirteen.rules.variant.Variant.pair_order` settles as the first of these
that applies: a declared natural, a surrender, a mis-set (fouled) hand, the rows. Then the aces
side bet, the stakes of the pair, the chips limit, and the house's take.

Decisions (where the rulebook leaves a choice open):

- Decision: ``.net`` is each seat's result between the seats, before any house charge; it sums
  to zero in every game (the bank is seat 0, so a banked game's bank result is ``net[0]``,
  also reported as ``.house``). The rake, a bank's commission or fee, and the jackpot drop are
  reported apart (``.rake``, ``.jackpot``) and never taken out of ``.net``.
- Decision: 001's bad-beat jackpot trigger is read literally: a hand set pair / three of a
  kind / straight flush loses all three rows to one opponent (``Settlement.bad_beat``).
- Decision: a rake per player (``fixed-player``, ``time``) counts every seat of the table; a
  percentage rake's pot is the sum of the winning seats' nets; the jackpot drop is per table.
- Decision: the bank's commission (a fraction of the win) or fee is paid by each *player* seat
  that wins against the bank on the deal; the bank pays none.
- Decision: a declared natural settles only its natural payment with every opponent (NAT-4: it
  is paid before surrenders, and a fouled or surrendered opponent pays it too); it is never
  multiplied by a scoop or home run (SC-TW). A hand holding several naturals counts as the
  highest in the schedule; declared naturals not in the schedule are ignored (the hand plays).
- Decision: NAT-2 ties between equal naturals: six pairs compare the pair ranks high to low,
  three straights / flushes / straight flushes compare back, middle, front *as laid out*; any
  other equal naturals tie (no payment). NAT-1 ignores rank: each collects its payout.
- Decision: a surrender pays its fixed amount to every opponent that did not also surrender,
  a fouled opponent included (the surrender came first); two surrenders tie (002).
- Decision: a fouled hand pays the mis-set penalty to each opponent still in the hand (neither
  surrendered nor natural); its rows are reported as lost; two fouled hands tie.
- Decision: each row pays its own points (``scoring.front``, ``.middle``, ``.back``: a 1-2-3
  game); a royalty is paid on top of the row's points, an "instead of 1" royalty as its amount
  less 1 (it replaces the row's first point).
- Decision: the majority unit (SC-2-4) needs two rows won, not merely more rows than the
  opponent; under SC-2-4-total it goes to the higher total after royalties.
- Decision: a home run is a rows scoop of every opponent; a fouled opponent counts as
  scooped (it loses every row), a natural or surrendered one breaks the home run.
- Decision: RM-ONE lets each player collect, in each pair, only the largest royalty among the
  rows they win; RM-DEALT pays the back row's amount once for quads or a straight flush held
  in the 13 cards (the larger if both), to every opponent, win or lose, and those hands earn no
  row royalty; under H5 the (low) middle earns no royalty.
- Decision: the aces side bet (S-ACES) settles between every pair whatever happens to the
  hands, at the pair's stake.
- Decision: SC-RACE-11 settles each deal as a zero-sum exchange of points (rows, plus the
  four-handed scoop point); the race to the target is a match format above settlement.
- Decision: S-CHIPS needs the seats' ``stacks``; without them nothing is limited. Pairs with a
  natural settle first, then the others in pair order; each payment is cut to what the payer
  has left and what the winner may still win (nobody wins more than their starting stack).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from cpstats.thirteen.settlement import reference as _reference
from cpstats.thirteen.settlement import _settle_kernel
from cpstats.hands import tables as _tables
from cpstats.cards.codes import check_hands, format_cards, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.thirteen.naturals.detect import natural_mask
from cpstats.hands.ranking import rank3, rank5
from cpstats.thirteen.rules.ids import NATURAL_NAMES, RoyaltyMode
from cpstats.thirteen.rules.variant import Variant, resolve_variant
from cpstats.hands.setting import parse_setting

__all__ = ["Declare", "Surrender", "Settlement", "settle", "settle_many"]

PAIR_COLUMNS = ["seat_a", "seat_b", "hand_a", "hand_b", "kind", "front", "middle", "back",
                "points", "royalties", "bonuses", "side", "stake", "total", "paid"]


@dataclass(frozen=True)
class Declare:
    """A declared natural (section 5): the natural's name and the 13 cards.

    ``cards`` is a setting string ``"front / middle / back"``, 13 cards in any notation, or 13
    codes; the layout matters only for the NAT-2 tie-break of three straights or flushes.
    """

    natural: str
    cards: Any


@dataclass(frozen=True)
class Surrender:
    """A surrendered hand (S-SURRENDER), with its 13 cards (for the aces side bet)."""

    cards: Any


@dataclass(frozen=True)
class Settlement:
    """The settlement of one deal.

    Attributes
    ----------
    net
        ``float64[players]``: each seat's net units (zero-sum; before house charges).
    pairs
        One row per pair of hands in settlement order, from ``seat_a``'s point of view:
        ``kind`` (rows, natural, surrender, misset), row results ``front``/``middle``/``back``
        (+1/0/-1), ``points`` (rows), ``royalties``, ``bonuses`` (majority, scoop, home run and
        their multipliers), ``side`` (aces bet), ``stake``, ``total`` = stake x (points +
        royalties + bonuses + side) and ``paid`` (after the chips limit).
    rake
        The house's take (rake, plus a banked game's commission or fee).
    jackpot
        The jackpot drop (not house revenue).
    house
        The bank's result (seat 0) in a banked game, else 0.
    status
        Per hand: normal, foul, surrender or natural.
    bad_beat
        Whether 001's bad-beat jackpot is hit: a hand set pair / three of a kind / straight
        flush (front / middle / back) loses all three rows to one opponent.
    """

    net: np.ndarray
    pairs: pd.DataFrame
    rake: float
    jackpot: float
    house: float
    status: tuple[str, ...]
    variant: Variant
    bad_beat: bool = False


def _codes(value: Any, index: int) -> np.ndarray:
    """The 13 codes of hand ``index`` given to :func:`settle`; errors name the hand."""
    try:
        if isinstance(value, str):
            return parse_setting(value) if "/" in value else parse_cards(value, count=13)
        codes = check_hands(value, 13)
        if codes.ndim != 1:
            raise CardError(f"expected one hand of 13 cards, got shape {codes.shape}")
        return codes
    except CardError as err:
        raise CardError(f"hand {index}: {err}") from None


def _seated(v: Variant, n_hands: int, what: str) -> Variant:
    """``v`` seating as many players as ``n_hands`` hands make, so the seat count follows the hands
    given: ``v`` itself when it does, else ``v.replace(players=n_hands)``; refused where the rules
    fix the table (criss-cross, a stakes matrix of another size, a home run needing more
    players)."""
    per_seat = v.hands_per_player
    if n_hands == v.players * per_seat:
        return v
    if per_seat != 1:
        raise OptionError(f"{what}: criss-cross (deal=D3) deals two hands to each of {v.players} "
                          f"players, so {v.players * per_seat} are needed")
    if not 2 <= n_hands <= 4:
        raise OptionError(f"{what}: {v} needs {v.players} hands (or one hand per player, 2 to 4 "
                          "players)")
    try:
        return v.replace(players=n_hands)
    except OptionError as err:
        raise OptionError(f"{what}, so players={n_hands}, which {v} does not allow: {err}") from None


def _stacks(stacks: Any, players: int) -> list[float]:
    """Chips per seat for :func:`settle`: one finite number >= 0 per seat."""
    try:
        values = list(stacks)
    except TypeError:
        values = None
    if values is None or len(values) != players:
        raise OptionError(f"stacks={stacks!r} is invalid: one stack >= 0 per seat ({players} seats)")
    for seat, value in enumerate(values):
        number = isinstance(value, (int, float, np.integer, np.floating))
        if not number or isinstance(value, bool) or not math.isfinite(value) or value < 0:
            raise OptionError(f"stacks[{seat}]={value!r} is invalid: chips are a finite number >= 0")
    return [float(value) for value in values]


def _natural_bits(variant: Variant, codes: np.ndarray) -> int:
    n = variant.naturals
    return int(natural_mask(codes, qka_front_straight=n.qka_front_straight,
                            straight_flush_counts=n.straight_flush_counts, check=False))


def settle(variant: Variant | str, hands: Sequence[Any], *, check_deck: bool = True,
           stacks: Sequence[float] | None = None) -> Settlement:
    """Settle one deal.

    Parameters
    ----------
    variant
        A :class:`~cpstats.thirteen.rules.variant.Variant`, a preset name or a variant string.
    hands
        One entry per hand in seat order (two per seat in criss-cross, seat 0's first): a
        setting string ``"front / middle / back"``, 13 codes laid out front|middle|back, a
        :class:`Declare` or a :class:`Surrender`. The number of hands is the number of players:
        a variant seating another number is settled as ``variant.replace(players=len(hands))``
        (the result's ``variant`` says so), refused where the rules fix the table (criss-cross
        deals four hands, a stakes matrix has its size, a home run may need more players).
    check_deck
        Require the hands to share no card (switch off for a misprinted example such as 002's).
    stacks
        Chips per seat at the start of the deal (S-CHIPS, used when ``chips_limit`` is on): one
        finite number >= 0 per seat.

    Returns
    -------
    Settlement

    Raises
    ------
    CardError
        For a malformed hand or a card dealt twice.
    OptionError
        For a number of hands no table of the variant seats, a natural not in play or not held,
        a surrender the variant does not allow, stacks that are not chips.

    Examples
    --------
    >>> amy = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
    >>> bob = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"
    >>> result = settle("2-4(players=2)", [amy, bob])
    >>> result.net.tolist()
    [2.0, -2.0]
    >>> result.pairs.loc[0, ["front", "middle", "back", "points", "bonuses", "total"]].tolist()
    [1.0, -1.0, 1.0, 1.0, 1.0, 2.0]
    """
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
        raise OptionError(f"hands={hands!r} is invalid: a list of hands in seat order (setting "
                          "strings, codes, Declare or Surrender)")
    v = _seated(resolve_variant(variant), len(hands), f"hands has {len(hands)} entries")
    expected = v.players * v.hands_per_player
    settings = np.empty((expected, 13), dtype=np.uint8)
    naturals = [0] * expected
    surrender = [False] * expected
    in_play = {name for name, _ in v.naturals.payouts or ()}
    for i, hand in enumerate(hands):
        if isinstance(hand, Declare):
            settings[i] = _codes(hand.cards, i)
            if hand.natural not in NATURAL_NAMES:
                raise OptionError(f"hand {i}: natural={hand.natural!r} is invalid: allowed are "
                                  f"{', '.join(NATURAL_NAMES)}")
            if hand.natural not in in_play:
                raise OptionError(f"hand {i}: natural={hand.natural!r} is not in play under "
                                  f"naturals={v.naturals.schedule.value}")
            bits = _natural_bits(v, settings[i])
            if not bits >> NATURAL_NAMES.index(hand.natural) & 1:
                raise OptionError(f"hand {i}: {format_cards(settings[i])} is not a "
                                  f"{hand.natural}")
            naturals[i] = bits
        elif isinstance(hand, Surrender):
            if v.surrender_amount() is None:
                raise OptionError(f"hand {i}: surrender is not allowed under {v}")
            settings[i] = _codes(hand.cards, i)
            surrender[i] = True
        else:
            settings[i] = _codes(hand, i)
    if check_deck:
        seen: dict[int, int] = {}
        for i, row in enumerate(settings):
            for code in row:
                if int(code) in seen:
                    raise CardError(f"{format_cards([code])} is in hand {seen[int(code)]} and hand "
                                    f"{i}: a card is dealt once (check_deck=False allows it)")
                seen[int(code)] = i
    if stacks is not None:
        stacks = _stacks(stacks, v.players)
    result = _reference.settle_reference(v, settings, naturals=naturals, surrender=surrender,
                                         stacks=stacks)
    pairs = pd.DataFrame([[getattr(r, c) for c in PAIR_COLUMNS] for r in result.pairs],
                         columns=PAIR_COLUMNS)
    return Settlement(net=np.array(result.net, dtype=np.float64), pairs=pairs,
                      rake=float(result.rake), jackpot=float(result.jackpot),
                      house=float(result.house), status=tuple(h.status for h in result.hands),
                      variant=v, bad_beat=result.bad_beat)


# -- the vectorized engine --------------------------------------------------------------------

def _deal_codes(settings: Any, v: Variant) -> np.ndarray:
    """``settings`` as contiguous ``uint8[D, H, 13]``; integer codes of another dtype are checked
    to be 0..51 before the cast (uint8 codes are checked in ``split_rows``)."""
    arr = np.asarray(settings)
    if arr.ndim != 3 or arr.shape[2] != 13:
        n = v.players * v.hands_per_player
        raise OptionError(f"settings has shape {arr.shape}: expected (deals, {n}, 13) for {v} "
                          "(or (deals, H, 13): H hands seat H players)")
    if arr.dtype.kind not in "iu":
        raise CardError(f"settings of dtype {arr.dtype} is invalid: card codes are integers 0..51")
    if arr.dtype != np.uint8 and arr.size and (arr.min() < 0 or arr.max() >= 52):
        d, h, c = np.argwhere((arr < 0) | (arr >= 52))[0]
        raise CardError(f"settings deal {d}, hand {h}: card code {int(arr[d, h, c])} is invalid: "
                        "codes are 0..51")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _deal_error(deal: np.ndarray, index: int) -> CardError:
    """The error for a deal (``uint8[H, 13]``) holding a code >= 52 or a card twice."""
    codes = deal.reshape(-1)
    if (codes >= 52).any():
        return CardError(f"settings deal {index} holds card code {int(codes[codes >= 52][0])}: "
                         "codes are 0..51")
    for h, hand in enumerate(deal):
        values, counts = np.unique(hand, return_counts=True)
        if (counts > 1).any():
            return CardError(f"settings deal {index}, hand {h} holds "
                             f"{format_cards(values[counts > 1][:1])} twice: a hand cannot "
                             "repeat a card")
    values, counts = np.unique(codes, return_counts=True)
    return CardError(f"settings deal {index} holds {format_cards(values[counts > 1][:1])} twice: "
                     "a card is dealt once (check_deck=False allows it)")


def _stack_array(stacks: Any, shape: tuple[int, int]) -> np.ndarray:
    """Chips for :func:`settle_many`: ``float64`` of ``shape``, finite and >= 0."""
    try:
        arr = np.ascontiguousarray(stacks, dtype=np.float64)
    except (TypeError, ValueError):
        raise OptionError(f"stacks is invalid: expected numbers of shape {shape}") from None
    if arr.shape != shape:
        raise OptionError(f"stacks has shape {arr.shape}: expected {shape} chips >= 0")
    wrong = ~np.isfinite(arr) | (arr < 0)
    if wrong.any():
        d, seat = np.argwhere(wrong)[0]
        raise OptionError(f"stacks[{d}, {seat}]={float(arr[d, seat])!r} is invalid: chips are a "
                          "finite number >= 0")
    return arr


def _dealt_bonus(variant: Variant, settings: np.ndarray) -> np.ndarray:
    """RM-DEALT bonus per hand (see :func:`cpstats.thirteen.settlement.reference._dealt_bonus`)."""
    bonuses = variant.royalties.bonuses()
    ranks = (settings >> 2).astype(np.int64)
    suits = settings & 3
    counts = (ranks[..., None] == np.arange(13)).sum(axis=-2)
    quads = (counts == 4).any(axis=-1)
    sf = np.zeros(settings.shape[:-1], dtype=bool)
    for s in range(4):
        mask = np.where(suits == s, np.int64(1) << ranks, 0).sum(axis=-1)
        extended = (mask << 1) | (mask >> 12 & 1)
        for low in range(10):
            sf |= (extended >> low & 0b11111) == 0b11111
    best = np.where(sf, bonuses[5], 0.0)
    return np.where(quads & (bonuses[4] > best), bonuses[4], best)


def settle_many(variant: Variant | str, settings: np.ndarray, *, naturals: np.ndarray | None = None,
                surrender: np.ndarray | None = None, stacks: np.ndarray | None = None,
                check_deck: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Settle many deals under one variant (vectorized: ranks in bulk, then a numba kernel).

    Parameters
    ----------
    variant
        A :class:`~cpstats.thirteen.rules.variant.Variant`, a preset name or a variant string.
    settings
        ``uint8[D, H, 13]``: every hand front|middle|back (H = players x hands per player), or
        codes of another integer dtype in 0..51. ``H`` is the number of players: a variant
        seating another number is settled as ``variant.replace(players=H)``, refused where the
        rules fix the table (as :func:`settle`). Each deal is checked in the engine's kernel:
        codes 0..51, no card twice in a hand or (with ``check_deck``) in the deal.
    naturals
        ``uint32[D, H]`` declared natural bits (0: none); the caller declares only naturals the
        hand holds (e.g. from :func:`cpstats.thirteen.naturals.detect.natural_mask`). Bits not in the schedule
        are ignored.
    surrender
        ``bool[D, H]``: hands that surrender (only where the variant allows it).
    stacks
        ``float64[D, players]`` chips at the start of each deal (S-CHIPS, with ``chips_limit``),
        finite and >= 0.
    check_deck
        Require the hands of a deal to share no card, as :func:`settle` (switch off for a
        misprinted example such as 002's; a hand holding a card twice is refused regardless).

    Raises
    ------
    CardError
        Naming the first deal holding a code out of 0..51 (checked before any cast, so -1 or
        256 never wrap to a card), a card twice, or codes that are not integers.
    OptionError
        For shapes that do not fit, a number of hands no table of the variant seats, stacks
        that are not chips, a surrender the variant does not allow.

    Returns
    -------
    net : numpy.ndarray
        ``float64[D, players]`` net units per seat, before house charges.
    rake : numpy.ndarray
        ``float64[D]`` the house's take per deal (the jackpot drop, not house revenue, is
        ``variant.rake.jackpot_drop`` per deal).

    Examples
    --------
    >>> from cpstats.hands.setting import parse_setting
    >>> amy = parse_setting("6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d")
    >>> bob = parse_setting("Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s")
    >>> net, rake = settle_many("2-4(players=2)", np.array([[amy, bob]]))
    >>> net.tolist(), rake.tolist()
    ([[2.0, -2.0]], [0.0])
    """
    v = resolve_variant(variant)
    arr = _deal_codes(settings, v)
    v = _seated(v, arr.shape[1], f"settings has {arr.shape[1]} hands a deal")
    n_hands = arr.shape[1]
    n_deals = arr.shape[0]
    shape = (n_deals, n_hands)
    if naturals is None:
        bits = np.zeros(shape, dtype=np.uint32)
    else:
        bits = np.ascontiguousarray(naturals, dtype=np.uint32)
        if bits.shape != shape:
            raise OptionError(f"naturals has shape {bits.shape}: expected {shape}")
    if surrender is None:
        surr = np.zeros(shape, dtype=np.uint8)
    else:
        surr = np.ascontiguousarray(surrender, dtype=bool).view(np.uint8)
        if surr.shape != shape:
            raise OptionError(f"surrender has shape {surr.shape}: expected {shape}")
        if surr.any() and v.surrender_amount() is None:
            raise OptionError(f"surrender is not allowed under {v}")
    use_stacks = v.chips_limit and stacks is not None
    if use_stacks:
        stack_arr = _stack_array(stacks, (n_deals, v.players))
    else:
        stack_arr = np.zeros((1, 1), dtype=np.float64)

    order = v.ranking.value
    back_order = "H1" if order == "H5" else order
    rows = n_deals * n_hands
    front = np.empty((rows, 3), dtype=np.uint8)
    middle = np.empty((rows, 5), dtype=np.uint8)
    back = np.empty((rows, 5), dtype=np.uint8)
    bad = _settle_kernel.split_rows(arr, bool(check_deck), front, middle, back)
    if bad >= 0:
        raise _deal_error(arr[bad], bad)
    fr = rank3(front, check=False).reshape(shape)
    mr = rank5(middle, ordering=order, check=False).reshape(shape)
    br = rank5(back, ordering=back_order, check=False).reshape(shape)

    tables = v.kernel_tables()
    by_cat = tables["royalty_by_category"].copy()
    if order == "H5":
        by_cat[1, :] = 0.0
    dealt_mode = v.royalties.mode is RoyaltyMode.DEALT
    if dealt_mode:
        by_cat[1, 7:] = 0.0
        by_cat[2, 7:] = 0.0
        dealt = _dealt_bonus(v, arr)
    else:
        dealt = np.zeros(shape, dtype=np.float64)
    in_play = np.uint32(sum(1 << i for i, r in enumerate(tables["natural_rank"]) if r >= 0))
    bits = bits & in_play
    cat3 = np.array([int(k[0]) for k in _tables.three_card_keys()], dtype=np.uint8)
    five_m = _tables.five_card_tables(order)
    five_b = _tables.five_card_tables(back_order)
    common5 = five_b.common if order == "H5" else five_m.common
    common3 = _tables.three_card_common(order)
    surrender_amount = float(tables["surrender"])

    net = np.empty((n_deals, v.players), dtype=np.float64)
    rake = np.empty(n_deals, dtype=np.float64)
    _settle_kernel.settle_kernel(
        fr, mr, br, arr, bits, surr, dealt, stack_arr, use_stacks,
        cat3, five_m.category, five_b.category, common5, common3, order == "H5", by_cat,
        int(tables["royalty_mode"]), tables["natural_payout"], tables["natural_rank"],
        int(tables["natural_settlement"]), tables["scoring"], surrender_amount,
        float(tables["misset"]), tables["aces"], tables["bank"], tables["rake"],
        tables["stakes"], tables["pairs"].astype(np.int64), v.hands_per_player, net, rake)
    return net, rake
