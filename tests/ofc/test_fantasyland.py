"""The exact Fantasyland solver: brute force, known hands, figures, errors."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from cpstats.cards.codes import parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import split_positions
from cpstats.ofc import _fantasy_kernel as fk
from cpstats.ofc import fantasyland as fl
from cpstats.ofc.board import board_values
from cpstats.engine.registry import get_preset


def _brute13(cards: np.ndarray, tables, stay_value: float) -> tuple[float, float]:
    """(best value, best row-strength sum among the best values) over all 72,072 settings."""
    s3, s5 = fl.row_strengths()
    st = cards.astype(np.uint8)[split_positions(ordered=True)]
    f = rank3(st[:, :3], check=False).astype(int)
    m = rank5(st[:, 3:8], check=False).astype(int)
    b = rank5(st[:, 8:], check=False).astype(int)
    clean = (b >= m) & (tables.middle_common[m] >= tables.front_common[f])
    stays = tables.fl_stay_front[f] | tables.fl_stay_middle[m] | tables.fl_stay_back[b]
    value = tables.front_royalty[f] + tables.middle_royalty[m] + tables.back_royalty[b] + stays * stay_value
    value = np.where(clean, value, -np.inf)
    best = value.max()
    return float(best), float((s5[b] + s5[m] + s3[f])[value == best].max())


def _brute(cards: np.ndarray, tables, stay_value: float) -> tuple[float, float]:
    """Every 13 of the cards (every discard) times every setting."""
    return max(_brute13(cards[list(keep)], tables, stay_value)
               for keep in itertools.combinations(range(cards.size), 13))


def _solve(cards: np.ndarray, tables, stay_value: float):
    args = fl._args_from_tables(tables)
    board = np.empty(13, dtype=np.int8)
    discards = np.empty(cards.size - 13, dtype=np.int8)
    value, royalty, stays, fouled = fk.solve_kernel(cards.astype(np.int8), *args, float(stay_value),
                                                    board, discards)
    return board, discards, value, royalty, stays, fouled


def _check_against_brute(cards, tables, stay_value) -> None:
    board, discards, value, royalty, stays, fouled = _solve(cards, tables, stay_value)
    assert not fouled
    assert sorted(np.concatenate([board, discards]).tolist()) == sorted(cards.tolist())
    s3, s5 = fl.row_strengths()
    f, m, b = int(rank3(board[:3].astype(np.uint8))), int(rank5(board[3:8].astype(np.uint8))), \
        int(rank5(board[8:].astype(np.uint8)))
    assert b >= m and tables.middle_common[m] >= tables.front_common[f]
    assert royalty == tables.front_royalty[f] + tables.middle_royalty[m] + tables.back_royalty[b]
    assert stays == bool(tables.fl_stay_front[f] | tables.fl_stay_middle[m] | tables.fl_stay_back[b])
    best, strength = _brute(cards, tables, stay_value)
    assert value == best
    assert s5[b] + s5[m] + s3[f] == pytest.approx(strength, abs=1e-12)


@pytest.mark.parametrize("preset", ["ofc-classic", "ofc-pineapple"])
def test_thirteen_cards_match_brute_force(preset):
    """Exact against all 72,072 settings (stay A and B, several stay values)."""
    tables = get_preset(preset).kernel_tables()
    rng = np.random.default_rng(170)
    for i in range(12):
        _check_against_brute(rng.permutation(52)[:13], tables, (0.0, 9.5, 14.0, 40.0)[i % 4])


def test_fourteen_cards_match_brute_force():
    """14 cards, all 14 discards x 72,072 settings, on a few deals."""
    tables = get_preset("ofc-pineapple").kernel_tables()
    rng = np.random.default_rng(171)
    for stay_value in (0.0, 14.0, 30.0):
        _check_against_brute(rng.permutation(52)[:14], tables, stay_value)


def test_odd_tables_match_brute_force():
    """The bounds assume no monotone table (random royalties and stay flags)."""
    rng = np.random.default_rng(172)
    base = get_preset("ofc-pineapple").kernel_tables()
    tables = SimpleNamespace(
        front_royalty=rng.integers(0, 6, 455), middle_royalty=rng.integers(0, 6, 7462),
        back_royalty=rng.integers(0, 6, 7462), front_common=base.front_common,
        middle_common=base.middle_common, fl_stay_front=rng.random(455) < 0.05,
        fl_stay_middle=rng.random(7462) < 0.02, fl_stay_back=rng.random(7462) < 0.02)
    for stay_value in (0.0, 3.0, 7.0):
        _check_against_brute(rng.permutation(52)[:13], tables, stay_value)


def test_answer_depends_only_on_the_card_set():
    """Ties are broken the same way whatever the order of the cards."""
    rng = np.random.default_rng(173)
    cards = rng.permutation(52)[:15].astype(np.int8)
    first = fl.solve_fantasyland(cards, "ofc-pineapple-progressive", stay_value=14.0)
    again = fl.solve_fantasyland(cards[::-1].copy(), "ofc-pineapple-progressive", stay_value=14.0)
    assert first.board.tolist() == again.board.tolist()
    assert first.discards.tolist() == again.discards.tolist()


def test_named_deal_royalty():
    """OFC-R-STANDARD: AAA front 22, 7-high flush middle 8, kings full back 6."""
    s = fl.solve_fantasyland("Ac Ad Ah Kc Kd 7s 7h 7d 7c 2s 3s 4s 5s 9d", "ofc-pineapple", stay_value=10)
    assert (s.royalty, s.stays, s.value) == (36, True, 46.0)
    assert str(s) == "Ah Ad Ac / 7s 5s 4s 3s 2s / Kd Kc 7h 7d 7c  royalty 36, stays  (discard 9d)"
    values = board_values("ofc-pineapple", s.board)
    assert not values.fouled and int(values.royalty.sum()) == 36 and bool(values.stays)


def test_trips_queens_in_front_stay():
    """OFC-FL-STAY-B: with QQQ and two straights to back it, QQQ goes in front (20 + 4 + 2) and
    stays, even at a stay value of 0."""
    cards = "Qc Qd Qh Jh Ac 2d 3d 4h 5h 6s 7c 8c 9c Td"
    s = fl.solve_fantasyland(cards, "ofc-pineapple", stay_value=0.0)
    assert s.stays and sorted(s.board[:3].tolist()) == sorted(parse_cards("Qc Qd Qh").tolist())
    assert s.royalty == board_values("ofc-pineapple", s.board).royalty.sum() == 26


def test_middle_full_house_stays_under_a_only():
    """OFC-FL-STAY-A vs OFC-FL-STAY-B: a full house middle stays under A, nothing stays under B."""
    cards = "Kc Kd Kh 2c 2d 8h 8d 8c 4h 4d As Qs 9s"
    under_a = fl.solve_fantasyland(cards, "ofc-classic", stay_value=10.0)
    under_b = fl.solve_fantasyland(cards, "ofc-classic(fantasyland.stay=B)", stay_value=10.0)
    assert under_a.stays and under_a.royalty == 18 and under_a.value == 28.0
    assert not under_b.stays and under_b.royalty == 18 and under_b.value == 18.0


def test_solve_many_matches_one_by_one():
    """The batch kernel gives the single solver's answers."""
    v = get_preset("ofc-pineapple")
    deals = fl._random_deals(np.random.default_rng(174), 5, 14)
    boards, royalty, stays, value = fl._solve_deals(deals, v, 14.0)
    for i in range(5):
        one = fl.solve_fantasyland(deals[i], v, stay_value=14.0)
        assert (one.board.tolist(), one.royalty, one.stays, one.value) == \
            (boards[i].tolist(), royalty[i], stays[i], value[i])


def test_stay_value_is_the_fixed_point():
    """V = mean(royalty + stays * V) on the estimate's own deals (V = r/(1-p))."""
    v = get_preset("ofc-pineapple")
    value = fl.estimate_stay_value(v, deals=80, rng=5)
    deals = fl._random_deals(np.random.default_rng(5), 80, 14)
    _, royalty, stays, objective = fl._solve_deals(deals, v, value)
    assert 0 < stays.mean() < 1
    assert value == pytest.approx(royalty.mean() / (1 - stays.mean()), rel=1e-12)
    assert value == pytest.approx(objective.mean(), rel=1e-12)
    assert fl.estimate_stay_value("ofc-pineapple(fantasyland.stay=none)") == 0.0


def test_fantasyland_table_sizes_and_intervals():
    """Progressive deals 14..17 cards; intervals bracket the estimates; 17 cards
    earn more royalty than 14 (means near 24 and 12, SE under 1 on 60 hands: far apart)."""
    table = fl.fantasyland_table("ofc-pineapple-progressive", hands_per_size=60, rng=3,
                                 stay_value=14.0, batches=6)
    assert table["cards"].tolist() == [14, 15, 16, 17]
    for name in ("stay", "royalty"):
        low, high = f"{name}_low", f"{name}_high"
        name = "stay_rate" if name == "stay" else name
        assert (table[low] <= table[name]).all() and (table[name] <= table[high]).all()
    assert (table["royalty_low"] < table["royalty_high"]).all()
    assert table["royalty"].iloc[-1] > table["royalty"].iloc[0]
    assert table.attrs["variant"] == "ofc-pineapple-progressive" and table.attrs["stay_value"] == 14.0
    again = fl.fantasyland_table("ofc-pineapple-progressive", hands_per_size=60, rng=3,
                                 stay_value=14.0, batches=6, sizes=[17])
    assert again["cards"].tolist() == [17]


def test_default_stay_value_is_the_estimate():
    """The default stay value is estimate_stay_value's (1,000 seeded deals),
    shared by variants that differ only in players, scoring or rake; a 14-card Fantasyland hand
    is worth a mean royalty of about 12 over a stay rate of about 0.12 (far inside 8..25)."""
    expected = fl.estimate_stay_value("ofc-pineapple")
    assert 8 < expected < 25
    s = fl.solve_fantasyland("Qc Qd Qh Jh Ac 2d 3d 4h 5h 6s 7c 8c 9c Td", "ofc-pineapple(players=3)")
    assert s.value == s.royalty + expected


@pytest.mark.parametrize("cards, match", [
    ("Ac Ad Ah Kc Kd 7s 7h 7d 7c 2s 3s 4s", r"shape \(12,\) are invalid: a Fantasyland hand is 13\.\.17"),
    (list(range(18)), r"13\.\.17 cards \(this variant deals 14\)"),
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 12], r"cards hold 4s twice: a Fantasyland hand cannot"),
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 52, 12], r"card code 52 is invalid"),
    ([-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 12], r"card code -1 is invalid"),
    ("Ac Ad Ah Kc Kd 7s 7h 7d 7c 2s 3s 4s 1x 9d", r"1x"),
    (np.zeros(14) + 0.5, r"must be integers"),
])
def test_card_errors(cards, match):
    """One CardError line for a bad hand."""
    with pytest.raises(CardError, match=match):
        fl.solve_fantasyland(cards, "ofc-pineapple", stay_value=0)


def test_option_errors():
    """One OptionError line for a bad stay value, variant, table option."""
    cards = list(range(14))
    for bad in (-1, float("nan"), "x", float("inf")):
        with pytest.raises(OptionError, match=r"stay_value=.* is invalid: a finite value >= 0"):
            fl.solve_fantasyland(cards, "ofc-pineapple", stay_value=bad)
    with pytest.raises(OptionError, match="unknown OFC preset"):
        fl.solve_fantasyland(cards, "ofc-nope", stay_value=0)
    with pytest.raises(OptionError, match=r"sizes=\[12\] is invalid"):
        fl.fantasyland_table("ofc-pineapple", sizes=[12], stay_value=0)
    with pytest.raises(OptionError, match=r"hands_per_size=1 is invalid"):
        fl.fantasyland_table("ofc-pineapple", hands_per_size=1, stay_value=0)
    with pytest.raises(OptionError, match=r"sizes=12 is invalid"):  # named first, not batches
        fl.fantasyland_table("ofc-pineapple", sizes=12, hands_per_size=10, stay_value=0)
    with pytest.raises(OptionError, match=r"has no Fantasyland .*pass sizes="):
        fl.fantasyland_table("ofc-pineapple(fantasyland.cards=0/0/0/0)", hands_per_size=10)
    with pytest.raises(OptionError, match=r"deals=0 is invalid"):
        fl.estimate_stay_value("ofc-pineapple", deals=0)
    with pytest.raises(OptionError, match=r"rng='seed' is invalid: a numpy Generator"):
        fl.fantasyland_table("ofc-pineapple", rng="seed", stay_value=0)


def test_the_default_stay_value_is_kept_for_the_next_process_exactly(monkeypatch, tmp_path):
    """The default stay value (4-6 s a rule set to solve) is solved once and kept in the cache folder:
    read back it equals the freshly solved number to the last bit; a file that does not read is
    solved again and replaced; other rules have another file."""
    from cpstats.ofc import fantasyland as fl
    from cpstats.engine.registry import get_preset

    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    v = get_preset("ofc-pineapple")
    fresh = fl._default_stay_value.__wrapped__(v.royalties, v.fantasyland)
    files = list((tmp_path / "ofc" / "stay_value").glob("*.json"))
    assert len(files) == 1 and type(fresh) is float
    solved = []
    real = fl._estimate
    monkeypatch.setattr(fl, "_estimate", lambda *a: solved.append(a) or real(*a))
    assert fl._default_stay_value.__wrapped__(v.royalties, v.fantasyland) == fresh and solved == []
    files[0].write_text("{not json")
    assert fl._default_stay_value.__wrapped__(v.royalties, v.fantasyland) == fresh and len(solved) == 1
    assert fl._default_stay_value.__wrapped__(v.royalties, v.fantasyland) == fresh and len(solved) == 1
    other = get_preset("ofc-pineapple-progressive")
    fl._default_stay_value.__wrapped__(other.royalties, other.fantasyland)
    assert len(list((tmp_path / "ofc" / "stay_value").glob("*.json"))) == 2
