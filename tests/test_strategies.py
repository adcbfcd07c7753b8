"""Setting strategies: protocol and registry, greedy, random, ev (exact pruning), training."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from cpstats import strategies as S
from cpstats.cards import deal, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.presets import get_preset
from cpstats.ranking import rank3, rank5
from cpstats.rules import load_variant
from cpstats.setting import is_foul, legal_settings, parse_setting

V24 = get_preset("2-4")


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return deal(np.random.default_rng(20261129), 2_500, 4).reshape(-1, 13)


def _same_cards(hands: np.ndarray, settings: np.ndarray) -> bool:
    return bool((np.sort(hands, axis=1) == np.sort(settings, axis=1)).all())


def _best_five(hand: np.ndarray) -> int:
    return int(rank5(np.array(list(itertools.combinations(hand, 5)), dtype=np.uint8),
                     check=False).max())


# -- protocol, registry, bad input ------------------------------------------------------------

def test_registry_lists_builtins():
    assert {"ev", "greedy", "random"} <= set(S.strategy_names())


def test_unknown_strategy_lists_available():
    with pytest.raises(OptionError, match=r"unknown strategy 'best'.*ev, greedy, random"):
        S.set_hands(deal(np.random.default_rng(0), 1, 1)[0], V24, strategy="best")


def test_duplicate_cards_rejected():
    with pytest.raises(CardError, match="duplicate card"):
        S.set_hand("As As Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", V24, strategy="greedy")
    hand = deal(np.random.default_rng(0), 1, 1)[0, 0].copy()
    hand[1] = hand[0]
    with pytest.raises(CardError, match="twice"):
        S.set_hands(hand[None], V24, strategy="greedy")


def test_wrong_count_rejected():
    with pytest.raises(CardError, match="expected 13 cards"):
        S.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d", V24, strategy="greedy")
    with pytest.raises(CardError, match="13 cards"):
        S.set_hands(np.arange(12, dtype=np.uint8)[None], V24, strategy="greedy")


def test_user_callable_plugs_in():
    def sorted_setter(hands, variant, *, rng=None):
        settings = np.sort(hands, axis=1)  # weakest three in front, strongest five in back
        n = len(hands)
        return settings, np.zeros(n, bool), np.zeros(n, bool)

    hand = parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")
    d = S.set_hand(hand, V24, strategy=sorted_setter)
    assert d.setting == "2h 4d 5c / 7s 9h Jc Jd Qh / Qs Kc Kd Ad As"
    S.register_strategy("sorted-test", sorted_setter, replace=True)
    assert "sorted-test" in S.strategy_names()
    assert S.set_hands(hand[None], "2-4", strategy="sorted-test").settings.shape == (1, 13)


def test_bad_strategy_output_rejected():
    with pytest.raises(OptionError, match="must return settings"):
        S.set_hands(parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")[None], V24,
                    strategy=lambda h, v, rng=None: h[:, :12])


def test_h5_not_supported():
    with pytest.raises(OptionError, match="H5"):
        S.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4(ranking=H5)",
                   strategy="greedy")


def test_executor_matches_serial(hands):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        for name in ("greedy", "ev"):
            a = S.set_hands(hands[:9000], V24, strategy=name, executor=pool)
            b = S.set_hands(hands[:9000], V24, strategy=name)
            assert (a.settings == b.settings).all() and (a.declare == b.declare).all()
        r1 = S.set_hands(hands[:9000], V24, strategy="random", rng=4, executor=pool)
        r2 = S.set_hands(hands[:9000], V24, strategy="random", rng=4, executor=pool)
        assert (r1.settings == r2.settings).all()


# -- greedy -----------------------------------------------------------------------------------

def test_greedy_legal_permutation_best_back(hands):
    d = S.set_hands(hands, V24, strategy="greedy")
    assert _same_cards(hands, d.settings)
    assert not is_foul(d.settings).any()
    backs = rank5(d.settings[:, 8:], check=False)
    for i in range(0, len(hands), 97):  # the back is the best five of the thirteen
        assert backs[i] == _best_five(hands[i])
    assert not d.surrender.any()


def test_greedy_never_fouls_10000_hands():
    many = deal(np.random.default_rng(7), 2_500, 4).reshape(-1, 13)
    d = S.set_hands(many, V24, strategy="greedy")
    assert not is_foul(d.settings).any()
    assert _same_cards(many, d.settings)


def test_greedy_middle_is_strongest_legal(hands):
    d = S.set_hands(hands[:40], V24, strategy="greedy")
    for hand, setting in zip(hands[:40], d.settings):
        legal = legal_settings(hand)
        back = rank5(setting[8:])
        same_back = legal[rank5(legal[:, 8:], check=False) == back]
        assert rank5(setting[3:8]) == rank5(same_back[:, 3:8], check=False).max()


def test_set_hand_greedy_example():
    d = S.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4", strategy="greedy")
    assert d.setting == "5c 4d 2h / Qs Jc Jd 9h 7s / As Ad Kc Kd Qh"
    assert d.natural is None and d.surrender is False


def test_greedy_declares_natural():
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    d = S.set_hand(dragon, "pagat-typical", strategy="greedy")
    assert d.natural == "dragon"
    assert S.set_hand(dragon, "2-4", strategy="greedy").natural is None  # not in the schedule


# -- random -----------------------------------------------------------------------------------

def test_random_legal_and_seeded(hands):
    a = S.set_hands(hands[:2000], V24, strategy="random", rng=5)
    b = S.set_hands(hands[:2000], V24, strategy="random", rng=5)
    c = S.set_hands(hands[:2000], V24, strategy="random", rng=6)
    assert (a.settings == b.settings).all() and not (a.settings == c.settings).all()
    assert not is_foul(a.settings).any()
    assert _same_cards(hands[:2000], a.settings)


def test_random_covers_many_settings():
    hand = parse_cards("As Kd Qh Jc 9s 8d 7h 6c 5s 4d 3h 2c Td")
    reps = np.repeat(hand[None], 3000, axis=0)
    d = S.set_hands(reps, V24, strategy="random", rng=1)
    assert not is_foul(d.settings).any()
    # Canonical form: sort within each row; count distinct settings drawn.
    canon = np.concatenate([np.sort(d.settings[:, :3]), np.sort(d.settings[:, 3:8]),
                            np.sort(d.settings[:, 8:])], axis=1)
    distinct = len({row.tobytes() for row in canon})
    n_legal = len(legal_settings(hand))
    # 3000 uniform draws from n_legal settings: expected distinct n(1 - exp(-3000/n)).
    expected = n_legal * (1 - np.exp(-3000 / n_legal))
    assert distinct > 0.95 * expected


def test_random_handles_hands_with_few_legal_settings():
    quads = parse_cards("Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs 2c")
    d = S.set_hands(np.repeat(quads[None], 50, axis=0), V24, strategy="random", rng=3)
    assert not is_foul(d.settings).any()


# -- ev ---------------------------------------------------------------------------------------

def test_ev_pruning_is_exact(hands):
    tables = S.load_tables(V24)
    pruned, v1, n1 = S.ev_search(hands[:150], V24, tables, prune=True)
    full, v2, n2 = S.ev_search(hands[:150], V24, tables, prune=False)
    assert (pruned == full).all()
    assert np.array_equal(v1, v2)
    assert n1[:, 0].mean() < n2[:, 0].mean() / 20


@pytest.mark.parametrize("name", ["2-4", "taiwanese", "pagat-typical", "1-6", "banked"])
def test_ev_pruning_exact_under_variants(hands, name):
    v = get_preset(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", S.TablesWarning)
        tables = S.load_tables(v)
    a, va, _ = S.ev_search(hands[:40], v, tables, prune=True)
    b, vb, _ = S.ev_search(hands[:40], v, tables, prune=False)
    assert (a == b).all() and np.array_equal(va, vb)


def test_ev_is_the_best_split_under_its_model(hands):
    """A pure-Python evaluation of every legal setting agrees with the kernel's choice."""
    tables = S.load_tables(V24)
    tf, tm, tb, cst, *_ , params = S._model(V24, tables)
    for hand in hands[:3]:
        legal = legal_settings(hand)
        rf = rank3(legal[:, :3], check=False).astype(int)
        rm = rank5(legal[:, 3:8], check=False).astype(int)
        rb = rank5(legal[:, 8:], check=False).astype(int)
        vals = np.array([S._sk.pair_value(*tf[f], *tm[m], *tb[b], params)
                         for f, m, b in zip(rf, rm, rb)])
        settings, value, _ = S.ev_search(hand[None], V24, tables)
        assert value[0] == pytest.approx(vals.max(), abs=1e-9)


def test_ev_legal_and_permutation(hands):
    d = S.set_hands(hands, V24, strategy="ev")
    assert not is_foul(d.settings).any()
    assert _same_cards(hands, d.settings)
    assert d.value is not None and d.value.shape == (len(hands),)


def test_ev_other_variant_tables_warn():
    v = load_variant("2-4(royalties=R-FLAT)")
    with pytest.warns(S.TablesWarning, match=r"2-4\(royalties=R-FLAT.*tables trained for '2-4'"):
        S.load_tables(v)


def test_ev_declares_big_natural_and_surrenders():
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", S.TablesWarning)
        assert S.set_hand(dragon, "pagat-typical").natural == "dragon"
        # A hopeless hand surrenders where surrender is allowed and costs less than playing.
        trash = "5h 2d 4d 6s 3d 5c 8c 7c 3s Kc 8h Jd Th"
        d = S.set_hand(trash, "futurebet-1-6")
    assert d.surrender and d.value == pytest.approx(-9.0)


def test_set_hand_ev_doctest_shape():
    d = S.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4")
    setting = parse_setting(d.setting)
    assert not is_foul(setting)
    assert str(d) == d.setting


# -- training and matches ---------------------------------------------------------------------

def test_training_small_run_and_roundtrip(tmp_path):
    from cpstats.training import train_tables

    t = train_tables("2-4", deals=2_000, rounds=2, seed=3)
    assert t.front.shape == (455,) and t.middle.shape == (7462,) and t.back.shape == (7462,)
    assert t.meta["seed"] == 3 and t.meta["deals"] == 2_000 and len(t.meta["convergence"]) == 2
    assert abs(t.back.sum() - 1) < 1e-9
    t.save(tmp_path / "t.npz")
    back = S.RowTables.load(tmp_path / "t.npz")
    assert back.variant == "2-4" and back.meta == t.meta and np.array_equal(back.middle, t.middle)
    again = train_tables("2-4", deals=2_000, rounds=2, seed=3)
    assert np.array_equal(again.middle, t.middle)  # seeded: repeatable


def test_match_ev_beats_greedy():
    from cpstats.training import match

    res = match("2-4", "ev", "greedy", deals=3_000, seed=11)
    assert res.ci95[0] > 0, str(res)
    same = match("2-4", "greedy", "greedy", deals=500, seed=1)
    assert same.mean == 0.0


def test_exploitability_flags_greedy():
    from cpstats.training import exploitability

    res = exploitability("greedy", hands=6, opponents=200, seed=2)
    assert res.in_sample >= res.out_of_sample - 1.0 and res.in_sample > 0.3, str(res)


def test_shipped_tables_carry_metadata():
    from cpstats.presets import preset_names

    shipped = sorted(p.stem for p in S.TABLES_DIR.glob("*.npz"))
    assert "2-4" in shipped
    for name in shipped:
        assert name in preset_names()
        t = S.RowTables.load(S.TABLES_DIR / f"{name}.npz")
        assert t.variant == str(get_preset(name))
        assert {"seed", "deals", "rounds", "convergence"} <= set(t.meta)
        assert t.meta["convergence"][-1] < 0.05
