"""Worked examples of rulebook sections 3-6, each named by its rulebook ID.

The seeds' own examples (000 Amy and Bob, 002's four-player table, 001's royalty example) come
first; then one example per rule worked by hand in the test's docstring.
"""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.errors import CardError, OptionError
from cpstats.engine.registry import get_preset
from cpstats.thirteen.settlement import Declare, Surrender, settle, settle_many
from cpstats.hands.setting import parse_setting

AMY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
BOB = "Ah Kd Qd / 9h 9d 5h 5d 4c / Ks Js 9s 8s 7s"


def _engine(variant, hands, **kwargs):
    settings = np.array([[parse_setting(h) for h in hands]])
    net, rake = settle_many(variant, settings, **kwargs)
    return net[0], rake[0]


def test_sc_2_4_wikipedia_amy_bob():
    """000: Amy wins front and back, loses middle: 2 - 1 + 1 overall = Bob pays Amy 2."""
    result = settle("2-4(players=2)", [AMY, BOB])
    assert result.net.tolist() == [2.0, -2.0]
    row = result.pairs.iloc[0]
    assert (row.front, row.middle, row.back) == (1, -1, 1)
    assert (row.points, row.bonuses, row.total) == (1.0, 1.0, 2.0)
    assert _engine("2-4(players=2)", [AMY, BOB])[0].tolist() == [2.0, -2.0]


def test_sc_1_6_wikipedia_amy_bob():
    """000: the same hands under 1-6: no bonus for two of three, Bob pays Amy 1."""
    assert settle("1-6(players=2)", [AMY, BOB]).net.tolist() == [1.0, -1.0]
    assert _engine("1-6(players=2)", [AMY, BOB])[0].tolist() == [1.0, -1.0]


FUTUREBET_TABLE = [
    "Kh Jh 5d / 2c 3c 4c Jc Kc / 2h 6h 9h Th Ah",
    "As Qs Ts / 9s 9d 8d 3d 2d / 4s 4d 4h 7s 7d",
    "Ks Qd 5h / 9c 8s 7h 6s 5c / Ac Qc Jc 7c 3c",
    "Td 6d 6c / 8h 8c 5s 3s 2s / Ad Kd Qh Jd Tc",
]


def test_sc_2_4_futurebet_four_player_table():
    """002: results -2, -2, +2, +2, +2, +2 for 1v2, 1v3, 1v4, 2v3, 2v4, 3v4.

    Suits the page leaves out are filled in without creating new hands; the page's hands share
    J and 3 of clubs (players 1 and 3), so the deck check is off.
    """
    result = settle("2-4", FUTUREBET_TABLE, check_deck=False)
    assert result.pairs.total.tolist() == [-2.0, -2.0, 2.0, 2.0, 2.0, 2.0]
    assert result.pairs[["seat_a", "seat_b"]].values.tolist() == [
        [0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert result.net.tolist() == [-2.0, 6.0, 2.0, -6.0]
    assert _engine("2-4", FUTUREBET_TABLE, check_deck=False)[0].tolist() == [-2.0, 6.0, 2.0, -6.0]
    with pytest.raises(CardError, match="Jc is in hand 0 and hand 2"):
        settle("2-4", FUTUREBET_TABLE)


PAGAT_A = "6c 6d 6h / 4c 4d 4h 9c 9d / Kc Kd Kh 8c 8d"
PAGAT_B = "Qc Qd 7c / Jc Jd Jh 2c 2d / 5c 5d 5h 5s Ac"


def test_r_pagat_typical_royalty_example():
    """001: A wins front trips (3 instead of 1), B wins the middle full house (2) and the back
    quads (4): A pays B 3 - 2 - 4 = -3."""
    result = settle("pagat-typical(players=2)", [PAGAT_A, PAGAT_B])
    assert result.net.tolist() == [-3.0, 3.0]
    row = result.pairs.iloc[0]
    assert (row.points, row.royalties) == (-1.0, -2.0)
    assert _engine("pagat-typical(players=2)", [PAGAT_A, PAGAT_B])[0].tolist() == [-3.0, 3.0]


TRIPS_A = "7c 7d 7h / As Ks Qs Js 9s / 8c 8d 8h 8s 2c"
WEAK_B = "2d 3d 4h / 5c 5d 6h 7s 9h / Tc Td Jh Qh Kd"
MID_C = "3c 4c 5h / 6c 6d 9c Jd Qd / Ac Ad Kc Kh 2h"


def test_sc_tw_scoop_and_home_run():
    """SC-TW, three-handed, R-TW (extra: front trips 3, back quads 2).

    A scoops B and C: each pair is 3 rows + 3 + 2 royalties = 8; A scoops everyone, a home run,
    so each pays 8 x 4 = 32. C scoops B (C's 5-4-3 beats B's 4-3-2,
    66 beats 55, AAKK beats TT): 3 x 2 = 6 (a plain scoop doubles).
    Nets: A 64, B -32 - 6 = -38, C -32 + 6 = -26.
    """
    hands = [TRIPS_A, WEAK_B, MID_C]
    result = settle("taiwanese(players=3)", hands)
    assert result.pairs.total.tolist() == [32.0, 32.0, -6.0]
    assert result.net.tolist() == [64.0, -38.0, -26.0]
    assert _engine("taiwanese(players=3)", hands)[0].tolist() == [64.0, -38.0, -26.0]
    plain = settle("taiwanese(players=2,home_run=false)", hands[:2])
    assert plain.net.tolist() == [16.0, -16.0]  # a scoop without home run: 8 x 2


def test_sc_mandarin_shot():
    """SC-MANDARIN with R-MANDARIN (front trips +2: the row pays 3; back quads +4).

    A wins all three rows against B, a shot: (3 rows + 2 + 4) x 2 = 18.
    """
    hands = [TRIPS_A, WEAK_B]
    result = settle("mandarin(players=2,home_run=false)", hands)
    assert result.net.tolist() == [18.0, -18.0]
    assert _engine("mandarin(players=2,home_run=false)", hands)[0].tolist() == [18.0, -18.0]


def test_sc_eastern_bonus_replaces_point():
    """SC-EASTERN with R-EASTERN: a winning bonus hand earns only its bonus points.

    A wins the front with trips (3), loses the middle straight to B's flush (1), wins the back
    with quads (4): 3 - 1 + 4 = 6. Without bonus hands two of three would net 1.
    """
    a = "7c 7d 7h / 2s 3s 4s 5h 6d / 8c 8d 8h 8s 2c"
    b = "2d 3d 4h / Ac Qc Jc 9c 5c / Kd Kh Ks Td Th"
    result = settle("eastern(players=2)", [a, b])
    assert result.net.tolist() == [6.0, -6.0]
    assert _engine("eastern(players=2)", [a, b])[0].tolist() == [6.0, -6.0]
    plain = settle("basic(players=2)", [a, b])
    assert plain.net.tolist() == [1.0, -1.0]


def test_rm_cancel_pagat_example():
    """RM-CANCEL on 001's example: both middles are full houses, so their royalties cancel
    and the middle pays 1; A's front trips (3) and B's back quads (4) stand: 3 - 1 - 4 = -2."""
    variant = "pagat-typical(players=2,royalty_mode=RM-CANCEL)"
    assert settle(variant, [PAGAT_A, PAGAT_B]).net.tolist() == [-2.0, 2.0]
    assert _engine(variant, [PAGAT_A, PAGAT_B])[0].tolist() == [-2.0, 2.0]


DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
SIX_PAIRS = "2d 2h 3c 3h 4c 4d 5c 5d 6d 6h 7c 7h Ad"
PLAIN_C = "Qc Qd 2s / 9c 9d 9h 3s 4s / Kc Kd Kh 5h 6s"


def test_nat_2_dragon_over_six_pairs():
    """NAT-2, NS-PAGAT-TYPICAL, three-handed: A declares a dragon (13), B six pairs (3).

    The higher natural collects its full amount from the lower: A gets 13 from B and 13 from
    C; B gets 3 from C. Nets: A 26, B -10, C -16.
    """
    hands = [Declare("dragon", DRAGON), Declare("six_pairs", SIX_PAIRS), PLAIN_C]
    result = settle("pagat-typical(players=3)", hands)
    assert result.net.tolist() == [26.0, -10.0, -16.0]
    assert result.status == ("natural", "natural", "normal")
    settings = np.array([[parse_setting(PLAIN_C) if i == 2 else
                          np.array(__import__("cpstats").parse_cards(h.cards)) for i, h in
                          enumerate(hands)]])
    net, _ = settle_many("pagat-typical(players=3)", settings,
                         naturals=np.array([[1 << 0, 1 << 3, 0]], dtype=np.uint32))
    assert net[0].tolist() == [26.0, -10.0, -16.0]


def test_nat_2_six_pairs_tie_break():
    """NAT-2 tie: two six pairs compare the highest pair; aces beat kings, so B collects 3."""
    a = "Kc Kd Qc Qd Jc Jd Tc Td 9c 9d 8c 8d 2c"
    b = "Ac Ad 7c 7d 6c 6d 5c 5d 4c 4d 3c 3d 2d"
    result = settle("pagat-typical(players=2)", [Declare("six_pairs", a), Declare("six_pairs", b)])
    assert result.net.tolist() == [-3.0, 3.0]


def test_s_surrender_pays_fixed_amount():
    """S-SURRENDER under futurebet-2-4 (2 per opponent), three-handed: A and B surrender, C
    plays front trips. A and B tie with each other; each pays C exactly 2 (no royalties).
    Nets: -2, -2, +4."""
    hands = [Surrender("2c 2d 2h 2s 3c 3d 3s 4c 4d 4h 4s 5c 5d"),
             Surrender("5h 5s 6c 6d 6h 6s 9c 9d 9h Tc Td Th Ts"), TRIPS_A.replace("2c", "3h")]
    result = settle("futurebet-2-4(players=3)", hands)
    assert result.net.tolist() == [-2.0, -2.0, 4.0]
    assert result.pairs.kind.tolist() == ["surrender"] * 3
    with pytest.raises(OptionError, match="surrender is not allowed"):
        settle("2-4(players=3)", hands)


def test_s_misset_pays_a_scoop():
    """S-MISSET under 2-4, three-handed: A and B are fouled (front above middle), C is legal.
    Each fouled hand pays C a scoop (4); two fouled hands tie. Nets: -4, -4, +8."""
    a = "Ac Ad Ah / 2c 3d 4h 5s 7c / Kc Kd 9h 9s 2d"
    b = "Qc Qd Qh / 2h 3c 4c 5c 8d / Jc Jd Th Ts 3h"
    c = "4d 5d 6d / 7h 7s 8h 8s 9c / Tc Td 6h Js Jh"
    result = settle("2-4(players=3)", [a, b, c])
    assert result.status == ("foul", "foul", "normal")
    assert result.net.tolist() == [-4.0, -4.0, 8.0]
    assert result.pairs.loc[1, ["front", "middle", "back"]].tolist() == [-1, -1, -1]
    assert settle("western(players=3)", [a, b, c]).net.tolist() == [-4.0, -4.0, 8.0]
    assert _engine("2-4(players=3)", [a, b, c])[0].tolist() == [-4.0, -4.0, 8.0]


CHIPS_A = "2c 3d 4h / 5s 6c 7d 8h Ts / 9c Jd Qh Ks 2d"
CHIPS_B = "5c 5d 3c / 9d 9h 6d 6h 4c / Tc Td Th 2h 3h"
CHIPS_C = "4d 4s 2s / Jc Js 7c 7h 3s / Qc Qd Qs 8c 8d"


def test_s_chips_limit():
    """S-CHIPS under pagat-casino (1-6, home run 9), three-handed, no aces held.

    B and C each scoop A (6 each); C wins two rows of B (+1 to C). A starts with 2 chips, B and
    C with 10. Clockwise: A v B: A owes 6 but has 2, pays 2; A v C: A has 0 left, pays 0;
    B v C: B pays 1. Nets: A -2, B +1, C +1 (unlimited: -12, 5, 7). Rake 0.5 per table and a
    0.1 jackpot drop are reported apart.
    """
    hands = [CHIPS_A, CHIPS_B, CHIPS_C]
    free = settle("pagat-casino(players=3)", hands)
    assert free.net.tolist() == [-12.0, 5.0, 7.0]
    limited = settle("pagat-casino(players=3)", hands, stacks=[2, 10, 10])
    assert limited.net.tolist() == [-2.0, 1.0, 1.0]
    assert limited.pairs.paid.tolist() == [-2.0, 0.0, -1.0]
    assert (limited.rake, limited.jackpot) == (0.5, 0.1)
    net, rake = _engine("pagat-casino(players=3)", hands, stacks=np.array([[2.0, 10, 10]]))
    assert net.tolist() == [-2.0, 1.0, 1.0] and rake == 0.5


def test_s_aces_side_bet():
    """S-ACES on Amy and Bob under 2-4: Bob holds one ace (worth 1), Amy none (0), so Amy pays
    Bob 1 on top of the rows: Amy 2 - 1 = 1."""
    variant = get_preset("2-4").replace(players=2, aces={"enabled": True})
    result = settle(variant, [AMY, BOB])
    assert result.net.tolist() == [1.0, -1.0]
    assert result.pairs.side.tolist() == [-1.0]
    assert _engine(variant, [AMY, BOB])[0].tolist() == [1.0, -1.0]


def test_s_bank_wins_ties_and_pays_royalties():
    """S-BANK (``banked``: 1 per row, R-PAGAT-EXTRA-B paid win or lose, bank wins ties).

    The fronts tie (K-Q-2 each): the bank wins it. The bank's 9955 beats 8844; the player's
    four jacks beat the bank's full house. Rows: bank +1 +1 -1 = +1; the player's back quads
    royalty (4) is paid win or lose: bank -4. Bank -3, player +3; the house reports -3.
    """
    bank = "Kc Qc 2d / 9c 9d 5c 5d 3h / Ac Ad Ah 7c 7d"
    player = "Kd Qd 2h / 8c 8d 4c 4d 6s / Js Jd Jh Jc 3s"
    result = settle("banked(players=2)", [bank, player])
    assert result.pairs.loc[0, ["front", "middle", "back"]].tolist() == [1, 1, -1]
    assert result.net.tolist() == [-3.0, 3.0]
    assert result.house == -3.0
    assert _engine("banked(players=2)", [bank, player])[0].tolist() == [-3.0, 3.0]


# -- issue 15.1: the scoring's numbers as options, each worked by hand --------------------------

def _both(variant, hands):
    """The reference's nets and the engine's, which must agree."""
    ref = settle(variant, hands).net.tolist()
    assert _engine(variant, hands)[0].tolist() == ref
    return ref


def test_scoring_rows_pay_their_own_points_1_2_3():
    """issue 15.1, ``scoring.front/middle/back``: Amy and Bob in a 1-2-3 game scored 2-4.

    Amy wins the front (1) and the back (3), loses the middle (2): 1 - 2 + 3 = 2, plus the
    majority unit for two rows: Bob pays Amy 3 (2 under plain 2-4). Written as all three rows
    it prints as the preset plus the changed rows only.
    """
    variant = "2-4(players=2,scoring.front=1,scoring.middle=2,scoring.back=3)"
    assert _both(variant, [AMY, BOB]) == [3.0, -3.0]
    row = settle(variant, [AMY, BOB]).pairs.iloc[0]
    assert (row.points, row.bonuses) == (2.0, 1.0)
    assert _both("2-4(players=2,scoring.front=3,scoring.back=1)", [AMY, BOB]) == [4.0, -4.0]


def test_scoring_row_sets_every_row():
    """issue 15.1, ``scoring.row=2``: every row pays 2. Amy: 2 - 2 + 2 = 2, plus the majority
    unit 1: Bob pays Amy 3."""
    assert _both("2-4(players=2,scoring.row=2)", [AMY, BOB]) == [3.0, -3.0]


def test_scoring_majority_unit():
    """issue 15.1, ``scoring.majority=3``: Amy wins two rows: 1 - 1 + 1 + 3 = 4. Under 1-6
    (majority 0) with the same unit added: 1 + 3 = 4 as well."""
    assert _both("2-4(players=2,scoring.majority=3)", [AMY, BOB]) == [4.0, -4.0]
    assert _both("1-6(players=2,scoring.majority=3)", [AMY, BOB]) == [4.0, -4.0]


def test_scoring_scoop_bonus_5():
    """issue 15.1, ``scoring.scoop_bonus=5`` on 2-4: A scoops B (no royalties in 2-4): 3 rows
    + 1 majority + 5 = 9 (a plain 2-4 scoop is 4)."""
    assert _both("2-4(players=2)", [TRIPS_A, WEAK_B]) == [4.0, -4.0]
    assert _both("2-4(players=2,scoring.scoop_bonus=5)", [TRIPS_A, WEAK_B]) == [9.0, -9.0]


def test_scoring_scoop_multiplier():
    """issue 15.1, ``scoring.scoop_multiplier=3`` on basic (1 per row): A scoops B: 3 x 3 = 9;
    Amy and Bob (no scoop) stay at 1."""
    assert _both("basic(players=2,scoring.scoop_multiplier=3)", [TRIPS_A, WEAK_B]) == [9.0, -9.0]
    assert _both("basic(players=2,scoring.scoop_multiplier=3)", [AMY, BOB]) == [1.0, -1.0]


def test_scoring_home_run_bonus_and_players():
    """issue 15.1, ``scoring.home_run_bonus=2`` on 1-6, three-handed (A scoops B and C; C
    scoops B, see :func:`test_sc_tw_scoop_and_home_run`).

    A's home run: each pays 3 rows + 3 + 2 = 8; C's plain scoop of B: 6. Nets: A 16,
    B -8 - 6 = -14, C -8 + 6 = -2. With ``scoring.home_run_players=4`` the home run needs four
    players: three-handed that is refused, and off (``home_run=false``) A collects only 6 + 6.
    """
    hands = [TRIPS_A, WEAK_B, MID_C]
    assert _both("1-6(players=3,scoring.home_run_bonus=2)", hands) == [16.0, -14.0, -2.0]
    with pytest.raises(OptionError, match="players=3 is invalid: the home run of scoring=SC-1-6 "
                                          "needs at least 4 players"):
        settle("1-6(players=3,scoring.home_run_bonus=2,scoring.home_run_players=4)", hands)
    off = "1-6(players=3,scoring.home_run_bonus=2,scoring.home_run_players=4,home_run=false)"
    assert _both(off, hands) == [12.0, -12.0, 0.0]


def test_scoring_home_run_multiplier():
    """issue 15.1, ``scoring.home_run_multiplier=3`` on 1-6, three-handed: A's home run pays
    (3 rows + 3) x 3 = 18 from each; C's plain scoop of B stays 6 (scoop multiplier 1).
    Nets: A 36, B -18 - 6 = -24, C -18 + 6 = -12."""
    hands = [TRIPS_A, WEAK_B, MID_C]
    assert _both("1-6(players=3,scoring.home_run_multiplier=3)", hands) == [36.0, -24.0, -12.0]


TOTALS_A = "Kc Kd 2c / Ah Ad 7c 7d 3s / Qs Qh Qd 9s 9h"
TOTALS_B = "5c 6d 8h / Jc Jd 4c 4d 2s / Ts Th Tc Td 3c"


def test_scoring_totals_first():
    """issue 15.1, ``scoring.totals_first`` with R-PAGAT-TYPICAL (back quads 4 instead of 1).

    A wins the front (KK) and the middle (aces up); B wins the back with four tens. Points
    1 + 1 - 1 = 1, B's quads add 3: A's total is -2. Rows first (2-4), A's two rows earn the
    majority unit: -2 + 1 = -1. Totals first, B's higher total earns it: -2 - 1 = -3.
    """
    rows_first = "2-4(players=2,royalties=R-PAGAT-TYPICAL)"
    assert _both(rows_first, [TOTALS_A, TOTALS_B]) == [-1.0, 1.0]
    assert _both(rows_first[:-1] + ",scoring.totals_first=true)", [TOTALS_A, TOTALS_B]) == [-3.0, 3.0]


def test_scoring_royalty_on_rows_paying_more():
    """issue 15.1 (decision): an "instead of 1" royalty replaces the row's first point. The same
    deal in a 1-2-3 game: points 1 + 2 - 3 = 0, B's quads add 4 - 1 = 3 on top of the back's
    3: A's total -3, plus the majority unit for A's two rows: -2."""
    variant = "2-4(players=2,royalties=R-PAGAT-TYPICAL,scoring.middle=2,scoring.back=3)"
    assert _both(variant, [TOTALS_A, TOTALS_B]) == [-2.0, 2.0]


def test_scoring_race_target():
    """issue 15.1, ``scoring.race_target``: in a race the scoop bonus is 000's fourth point,
    earned four-handed only. 1-6 raced to 11, three-handed: A scoops B and C, C scoops B, each
    for the 3 rows alone: A 6, B -6, C 0 (the deal game 1-6 pays each scoop 6: A 12)."""
    hands = [TRIPS_A, WEAK_B, MID_C]
    assert _both("1-6(players=3)", hands) == [12.0, -12.0, 0.0]
    assert _both("1-6(players=3,scoring.race_target=11)", hands) == [6.0, -6.0, 0.0]
    assert _both("race-to-11(players=3,race_target=21)", hands) == [6.0, -6.0, 0.0]
