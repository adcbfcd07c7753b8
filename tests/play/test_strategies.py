"""Setting strategies: protocol and registry, greedy, random, ev (exact pruning), training."""

from __future__ import annotations

import itertools
import os
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpstats.strategies import _ev_kernel as _sk, _kernel_args, api, ev_setter, row_tables
from cpstats.cards import deal, format_cards, parse_cards
from cpstats.errors import CardError, OptionError
from cpstats.rules import get_preset
from cpstats.hands.ranking import rank3, rank5
from cpstats.rules import load_variant
from cpstats.hands.setting import format_setting, is_foul, legal_settings, parse_setting

V24 = get_preset("2-4")
HAND = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h"


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
    assert {"ev", "greedy", "random"} <= set(api.strategy_names())


def test_each_builtin_is_registered_by_its_module_in_the_usual_order():
    """Issue 14 (setters split): ``ev`` comes from ev_setter, the baselines from baselines, and
    strategy_names() still lists them ev, greedy, random (the package imports ev_setter first)."""
    from cpstats.strategies import baselines

    assert api.strategy_names()[:3] == ("ev", "greedy", "random")
    assert api.get_strategy("ev") is ev_setter.ev
    assert api.get_strategy("greedy") is baselines.greedy
    assert api.get_strategy("random") is baselines.random_setter


def test_unknown_strategy_lists_available():
    with pytest.raises(OptionError, match=r"unknown strategy 'best'.*ev, greedy, random"):
        api.set_hands(deal(np.random.default_rng(0), 1, 1)[0], V24, strategy="best")


def test_duplicate_cards_rejected():
    with pytest.raises(CardError, match="duplicate card"):
        api.set_hand("As As Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", V24, strategy="greedy")
    hand = deal(np.random.default_rng(0), 1, 1)[0, 0].copy()
    hand[1] = hand[0]
    with pytest.raises(CardError, match="twice"):
        api.set_hands(hand[None], V24, strategy="greedy")


def test_wrong_count_rejected():
    with pytest.raises(CardError, match="expected 13 cards"):
        api.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d", V24, strategy="greedy")
    with pytest.raises(CardError, match="13 cards"):
        api.set_hands(np.arange(12, dtype=np.uint8)[None], V24, strategy="greedy")


def test_user_callable_plugs_in():
    def sorted_setter(hands, variant, *, rng=None):
        settings = np.sort(hands, axis=1)  # weakest three in front, strongest five in back
        n = len(hands)
        return settings, np.zeros(n, bool), np.zeros(n, bool)

    hand = parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")
    d = api.set_hand(hand, V24, strategy=sorted_setter)
    assert d.setting == "2h 4d 5c / 7s 9h Jc Jd Qh / Qs Kc Kd Ad As"
    api.register_strategy("sorted-test", sorted_setter, replace=True)
    assert "sorted-test" in api.strategy_names()
    assert api.set_hands(hand[None], "2-4", strategy="sorted-test").settings.shape == (1, 13)


def test_bad_strategy_output_rejected():
    with pytest.raises(OptionError, match="must return settings"):
        api.set_hands(parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")[None], V24,
                    strategy=lambda h, v, rng=None: h[:, :12])


def test_ev_under_h5_refuses_tables_with_a_high_middle():
    """Ev sets H5 hands (tests/play/test_ev_low_kernel.py); what it refuses is tables
    whose middle is a high hand, such as 2-4's borrowed, in one line saying how to train."""
    with pytest.raises(OptionError, match=r"^ev: the row tables trained for '2-4' cannot set hands "
                                          r"of '2-4\(ranking=H5\)'.*low \(H5\) middle.*train_tables"):
        api.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4(ranking=H5)", strategy="ev",
                     tables="2-4")


def test_greedy_h5_is_lexicographic_best_with_a_low_middle(hands):
    """Under H5 greedy is the legal setting strongest by (high back, low middle, front)."""
    v = "2-4(ranking=H5)"
    d = api.set_hands(hands[:12], v, strategy="greedy")
    assert not is_foul(d.settings, ordering="H5").any()
    for hand, setting in zip(hands[:12], d.settings):
        legal = legal_settings(hand, ordering="H5")
        key = (rank5(legal[:, 8:], check=False), rank5(legal[:, 3:8], ordering="H5", check=False),
               rank3(legal[:, :3], check=False))
        best = np.lexsort(key[::-1])[-1]
        mine = (rank5(setting[8:]), rank5(setting[3:8], ordering="H5"), rank3(setting[:3]))
        assert mine == tuple(k[best] for k in key)


def test_random_h5_is_uniform_over_legal_settings():
    """The share of draws with a pair or better in front matches the share among the legal
    settings (back >= front only under H5), within 5 standard errors."""
    hand = parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")
    legal = legal_settings(hand, ordering="H5")
    p = (rank3(legal[:, :3], check=False) >= 286).mean()  # 286 high-card fronts rank lowest
    n = 20_000
    d = api.set_hands(np.repeat(hand[None], n, axis=0), "2-4(ranking=H5)", strategy="random", rng=3)
    assert not is_foul(d.settings, ordering="H5").any()
    share = (rank3(d.settings[:, :3], check=False) >= 286).mean()
    assert abs(share - p) < 5 * np.sqrt(p * (1 - p) / n)


def test_executor_matches_serial(hands):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        for name in ("greedy", "ev"):
            a = api.set_hands(hands[:9000], V24, strategy=name, executor=pool)
            b = api.set_hands(hands[:9000], V24, strategy=name)
            assert (a.settings == b.settings).all() and (a.declare == b.declare).all()
        r1 = api.set_hands(hands[:9000], V24, strategy="random", rng=4, executor=pool)
        r2 = api.set_hands(hands[:9000], V24, strategy="random", rng=4, executor=pool)
        assert (r1.settings == r2.settings).all()


# -- greedy -----------------------------------------------------------------------------------

def test_greedy_legal_permutation_best_back(hands):
    d = api.set_hands(hands, V24, strategy="greedy")
    assert _same_cards(hands, d.settings)
    assert not is_foul(d.settings).any()
    backs = rank5(d.settings[:, 8:], check=False)
    for i in range(0, len(hands), 97):  # the back is the best five of the thirteen
        assert backs[i] == _best_five(hands[i])
    assert not d.surrender.any()


def test_greedy_never_fouls_10000_hands():
    many = deal(np.random.default_rng(7), 2_500, 4).reshape(-1, 13)
    d = api.set_hands(many, V24, strategy="greedy")
    assert not is_foul(d.settings).any()
    assert _same_cards(many, d.settings)


def test_greedy_middle_is_strongest_legal(hands):
    d = api.set_hands(hands[:40], V24, strategy="greedy")
    for hand, setting in zip(hands[:40], d.settings):
        legal = legal_settings(hand)
        back = rank5(setting[8:])
        same_back = legal[rank5(legal[:, 8:], check=False) == back]
        assert rank5(setting[3:8]) == rank5(same_back[:, 3:8], check=False).max()


def test_set_hand_greedy_example():
    d = api.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4", strategy="greedy")
    assert d.setting == "5c 4d 2h / Qs Jc Jd 9h 7s / As Ad Kc Kd Qh"
    assert d.natural is None and d.surrender is False


def test_greedy_declares_natural():
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    d = api.set_hand(dragon, "pagat-typical", strategy="greedy")
    assert d.natural == "dragon"
    assert api.set_hand(dragon, "2-4", strategy="greedy").natural is None  # not in the schedule


# -- greedy: exact against an exhaustive search ---------------------------------------------

V24_H4 = V24.replace(ranking="H4")


def _row_ranks(settings: np.ndarray, ordering: str) -> np.ndarray:
    """(N, 3) back, middle and front ranks of settings."""
    return np.stack([rank5(settings[:, 8:], ordering=ordering, check=False),
                     rank5(settings[:, 3:8], ordering=ordering, check=False),
                     rank3(settings[:, :3], check=False)], axis=1).astype(np.int64)


def _lexmax(back: np.ndarray, middle: np.ndarray, front: np.ndarray, legal: np.ndarray):
    key = np.where(legal, (back * 8192 + middle) * 512 + front, -1).max(axis=-1)
    return np.stack([key // 512 // 8192, key // 512 % 8192, key % 512], axis=-1)


def _brute_greedy(hand: np.ndarray, ordering: str) -> tuple[int, int, int]:
    """(back, middle, front) ranks of the lexicographically strongest legal setting."""
    legal = legal_settings(hand, ordering=ordering)
    r = _row_ranks(legal, ordering)
    return tuple(_lexmax(r[:, 0], r[:, 1], r[:, 2], np.ones(len(r), bool)).tolist())


def _exhaustive_greedy(hands: np.ndarray, ordering: str) -> np.ndarray:
    """:func:`_brute_greedy` for many hands at once: every ordered split (each back subset with
    each of the 56 middles of the other eight) ranked from the hand's subset ranks, fouls out."""
    five_pos, three_pos, rest_mid, rest_front = _kernel_args._subset_tables()
    backs = np.repeat(np.arange(1287), 56)
    mids = rest_mid.astype(np.int64).ravel()
    fronts = rest_front.astype(np.int64).ravel()
    out = []
    for a in range(0, len(hands), 32):
        h = hands[a:a + 32]
        fives = h[:, five_pos]
        threes = h[:, three_pos]
        r5 = rank5(fives, ordering=ordering, check=False).astype(np.int64)
        c5 = rank5(fives, ordering=ordering, scale="common", check=False).astype(np.int64)
        r3 = rank3(threes, check=False).astype(np.int64)
        c3 = rank3(threes, ordering=ordering, scale="common", check=False).astype(np.int64)
        legal = (r5[:, mids] <= r5[:, backs]) & (c3[:, fronts] <= c5[:, mids])
        out.append(_lexmax(r5[:, backs], r5[:, mids], r3[:, fronts], legal))
    return np.concatenate(out)


def _check_greedy(hands: np.ndarray, ordering: str, expected: np.ndarray) -> None:
    variant = V24 if ordering == "H1" else V24_H4
    d = api.set_hands(hands, variant, strategy="greedy")
    assert _same_cards(hands, d.settings)
    assert not is_foul(d.settings, ordering=ordering).any()
    got = _row_ranks(d.settings, ordering)
    bad = np.flatnonzero((got != expected).any(axis=1))
    assert bad.size == 0, [(format_setting(d.settings[i]), got[i].tolist(),
                            expected[i].tolist()) for i in bad[:5]]


GREEDY_HANDS = [
    "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h",  # two pair, the kicker Q held twice
    "Ac 2d 3h 4s 5c 9d Td Jh Qs Kc 7h 7d 8s",  # wheel and K-high straight: H1 and H4 differ
    "Ac 2d 3h 4s 5c Tc Jd Qh Ks Ad 7h 8s 9c",  # broadway back, wheel middle
    "9s Ts Js Qs Ks 9h Th Jh Qh Kh 2c 3d 4c",  # the same straight flush in two suits
    "As Ks Qs 9s 7s Ah Kh Qh 9h 7h 2c 3d 4c",  # the same flush in two suits
    "As Ks Qs 9s 7s Ah Kh Qh 9h 6h 2c 3d 4c",  # two flushes, one stronger
    "Ac Ad Ah As Kc Kd Kh 2c 3d 4h 6s 8c 9d",  # quads and trips
    "Ac Ad Ah As Kh 2h 5h 7h 9h Kc Tc 3d 4s",  # quads: the K kicker must leave the heart flush
    "Ac Ad Ah Ks Kd Kc 2s 5s 8s 9s Jc 3d 4h",  # full house: the K pair must leave the Ks
    "Ac Ad Ah Kc Kd Kh Qc Qd Qh 2s 3s 4s 5s",  # three trips
    "Ac Ad Ah As Kc Kd Kh Ks 2c 3c 4c 5c 7c",  # two quads, a wheel straight flush
    "Ah 2h 3h 4h 5h 6s 7s 8s 9s Ts Kc Kd Qc",  # wheel and 6-T straight flushes
    "5s 6s 7s 8s 9s Ks 2c 2d 3h 3c 4d 4h Jc",  # straight flush inside a six-card flush
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Ac Kd Qh",  # ten of a suit: straight flushes back and middle
    "As Ks Qs Js 9s 8s 7s 2c 2d 3c 3d 4h 5h",  # seven of a suit
    "5c 5d 6c 6d 7c 7d 8h 8s 9h 9s 2c 3h Jd",  # 32 equal straights, the same straight again
    "Ac Ad 2c 2d 3h 3s 4c 4h 5d 5s Kc Qd Jh",  # doubled wheel
    "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",  # dragon
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c",  # three quads
    "Ac Kd Qh Js 9c 8d 7h 6s 4c 3d 2h 2s 5d",  # straights everywhere, one pair
    "Ac Kc Qc Jc Tc Ad Kd Qd Jd Td Ah Kh Qh",  # two royal flushes
]


@pytest.mark.parametrize("ordering", ["H1", "H4"])
def test_greedy_crafted_hands_match_brute_force(ordering):
    hands = np.stack([parse_cards(h, count=13) for h in GREEDY_HANDS])
    expected = np.array([_brute_greedy(h, ordering) for h in hands])
    assert (_exhaustive_greedy(hands, ordering) == expected).all()  # the fast reference agrees
    _check_greedy(hands, ordering, expected)


@pytest.mark.parametrize("ordering, n", [("H1", 3000), ("H4", 1000)])
def test_greedy_random_hands_match_exhaustive(ordering, n):
    hands = deal(np.random.default_rng(2027), (n + 3) // 4, 4).reshape(-1, 13)[:n]
    _check_greedy(hands, ordering, _exhaustive_greedy(hands, ordering))


def test_greedy_ties_fixed_choice():
    """Equal-rank cards go to the lowest suit, back first; rows keep the hand's order."""
    d = api.set_hand("Ac Ad Ah As Kh 2h 5h 7h 9h Kc Tc 3d 4s", V24, strategy="greedy")
    assert d.setting == "Tc 3d 4s / Kh 2h 5h 7h 9h / Ac Ad Ah As Kc"
    d = api.set_hand("5c 5d 6c 6d 7c 7d 8h 8s 9h 9s 2c 3h Jd", V24, strategy="greedy")
    assert d.setting == "2c 3h Jd / 5d 6d 7d 8s 9s / 5c 6c 7c 8h 9h"


@st.composite
def _crowded_hands(draw):
    """13 cards from a deck cut to a few ranks and suits: many ties, flushes, straights."""
    suits = draw(st.sets(st.integers(0, 3), min_size=2, max_size=4))
    ranks = draw(st.sets(st.integers(0, 12), min_size=-(-13 // len(suits)), max_size=13))
    deck = [4 * r + s for r in sorted(ranks) for s in sorted(suits)]
    return np.array(draw(st.permutations(deck))[:13], dtype=np.uint8)


@settings(max_examples=150, deadline=None)
@given(hand=_crowded_hands(), ordering=st.sampled_from(["H1", "H4"]))
def test_greedy_crowded_hands_match_exhaustive(hand, ordering):
    _check_greedy(hand[None], ordering, _exhaustive_greedy(hand[None], ordering))


# -- random -----------------------------------------------------------------------------------

def test_random_legal_and_seeded(hands):
    a = api.set_hands(hands[:2000], V24, strategy="random", rng=5)
    b = api.set_hands(hands[:2000], V24, strategy="random", rng=5)
    c = api.set_hands(hands[:2000], V24, strategy="random", rng=6)
    assert (a.settings == b.settings).all() and not (a.settings == c.settings).all()
    assert not is_foul(a.settings).any()
    assert _same_cards(hands[:2000], a.settings)


def test_random_covers_many_settings():
    hand = parse_cards("As Kd Qh Jc 9s 8d 7h 6c 5s 4d 3h 2c Td")
    reps = np.repeat(hand[None], 3000, axis=0)
    d = api.set_hands(reps, V24, strategy="random", rng=1)
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
    d = api.set_hands(np.repeat(quads[None], 50, axis=0), V24, strategy="random", rng=3)
    assert not is_foul(d.settings).any()


# -- ev ---------------------------------------------------------------------------------------

def test_ev_pruning_is_exact(hands):
    tables = row_tables.load_tables(V24)
    pruned, v1, n1 = ev_setter.ev_search(hands[:150], V24, tables, prune=True)
    full, v2, n2 = ev_setter.ev_search(hands[:150], V24, tables, prune=False)
    assert (pruned == full).all()
    assert np.array_equal(v1, v2)
    assert n1[:, 0].mean() < n2[:, 0].mean() / 20


@pytest.mark.parametrize("name", ["2-4", "taiwanese", "pagat-typical", "1-6", "banked"])
def test_ev_pruning_exact_under_variants(hands, name):
    v = get_preset(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", row_tables.TablesWarning)
        tables = row_tables.load_tables(v)
    a, va, _ = ev_setter.ev_search(hands[:40], v, tables, prune=True)
    b, vb, _ = ev_setter.ev_search(hands[:40], v, tables, prune=False)
    assert (a == b).all() and np.array_equal(va, vb)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("CPSTATS_SLOW") != "1",
                    reason="about 45 s of compilation; the pruning tests above cover the search "
                           "itself; run with CPSTATS_SLOW=1 -m slow")
def test_middle_threshold_from_a_guess_equals_the_search_from_zero(hands):
    """The search's middle threshold started from any guess (the previous back's) is the one
    found from zero: too high a guess is caught by its probe, too low a one by the gallop."""
    from numba import njit

    from cpstats.cards._bits import pack_hand

    @njit
    def thresholds(hands, ef, em, eb, ecst, cap3, params, removal, classes, sizes, cases, out):
        per_class = np.empty((3, removal.shape[2], 4))
        work = np.empty(14 + removal.shape[2])
        state = (per_class, classes)
        for i in range(cases.shape[0]):
            hand = hands[cases[i, 0]]
            _sk.row_state(hand, pack_hand(hand), removal, sizes, per_class, work)
            top_f, rb, at, guess = cases[i, 1], cases[i, 2], cases[i, 3], cases[i, 4]
            limit = np.uint64(rb + 1)
            back = _sk._row(eb, rb, state, 2)
            best = _sk._bound_at(ef, em, eb, ecst, top_f, cap3, back, ecst[2, rb], True,
                                   params, state, at)
            out[i, 0] = _sk._threshold(ef, em, eb, ecst, top_f, cap3, back, ecst[2, rb], True,
                                         params, state, best, np.uint64(0), limit)
            out[i, 1] = _sk._middle_threshold(ef, em, eb, ecst, top_f, cap3, back, ecst[2, rb],
                                                params, state, best, np.uint64(guess), limit)

    rng = np.random.default_rng(4)
    n = 3000
    rb = rng.integers(1, 7462, n)
    cases = np.stack([rng.integers(0, 50, n), rng.integers(0, 455, n), rb,
                      rng.integers(0, rb + 1), rng.integers(0, rb + 1)], axis=1)
    model = ev_setter._model(V24, row_tables.load_tables(V24))
    out = np.empty((n, 2), dtype=np.uint64)
    thresholds(hands[:50], *model[4:], _sk.class_counts(model[11], *model[:3]), cases, out)
    assert np.array_equal(out[:, 0], out[:, 1])
    assert len(np.unique(out[:, 0])) > 50  # thresholds spread over the ranks, not all zero


def _corrected_distributions(hand: np.ndarray, tables) -> list[np.ndarray]:
    """Each row's opponent rank distribution given ``hand``, in plain numpy from the row
    distributions and the card-removal fit (see CardRemoval; independent of the kernel)."""
    from cpstats.strategies.training import removal_features

    x = removal_features(hand[None])[0]
    lo, hi = row_tables.REMOVAL_RATIO_LIMITS
    out = []
    for dist, slope, cls in zip((tables.front, tables.middle, tables.back),
                                tables.removal.slopes(), _classes()):
        p = np.asarray(dist, dtype=np.float64) / np.sum(dist)
        mass = np.bincount(cls, weights=p, minlength=len(slope))
        ratio = np.clip(np.divide(slope @ x, mass, out=np.zeros(len(mass)), where=mass > 0),
                        lo, hi)
        ratio = (1 + ratio) / np.clip(1 + mass @ ratio, 0.5, 2.0) - 1
        out.append(p * (1 + ratio[cls]))
    return out


def _classes():
    c3, c5 = row_tables.rank_classes("H1")
    return c3, c5, c5


def _model_values(hand: np.ndarray, legal: np.ndarray, variant, tables) -> np.ndarray:
    """The ev model's value of each legal setting, in plain numpy (card removal included)."""
    ranks = (rank3(legal[:, :3], check=False).astype(int),
             rank5(legal[:, 3:8], check=False).astype(int),
             rank5(legal[:, 8:], check=False).astype(int))
    cols = []
    for row, p in enumerate(_corrected_distributions(hand, tables)):
        below = np.concatenate([[0.0], np.cumsum(p)[:-1]])
        above = np.concatenate([np.cumsum(p[::-1])[::-1][1:], [0.0]])
        r = ranks[row]
        # 2-4 has no royalties: a row collects 1 when it wins and pays 1 when it loses.
        cols.append((below[r], above[r], np.ones(len(r)), above[r]))
    params = ev_setter._model(variant, tables)[9]
    return np.array([_sk.pair_value(*[c[i] for c in cols[0]], *[c[i] for c in cols[1]],
                                      *[c[i] for c in cols[2]], params)
                     for i in range(len(legal))])


def test_ev_is_the_best_split_under_its_model(hands):
    """A plain numpy evaluation of every legal setting (card removal included) agrees with the
    kernel's choice and value."""
    tables = row_tables.load_tables(V24)
    assert tables.removal is not None
    for hand in hands[:3]:
        legal = legal_settings(hand)
        vals = _model_values(hand, legal, V24, tables)
        settings, value, _ = ev_setter.ev_search(hand[None], V24, tables)
        assert value[0] == pytest.approx(vals.max(), abs=1e-5)
        chosen = np.flatnonzero((np.sort(legal[:, :3], 1) == np.sort(settings[0, :3])).all(1)
                                & (np.sort(legal[:, 3:8], 1) == np.sort(settings[0, 3:8])).all(1))
        assert vals[chosen[0]] == pytest.approx(vals.max(), abs=1e-5)


def _kernel_rows(hands: np.ndarray, variant, tables) -> list[np.ndarray]:
    """(w, l, lv) of every rank of every row as the kernel sees them for each hand (N, R, 3)."""
    from numba import njit

    from cpstats.cards._bits import pack_hand

    @njit
    def rows(hands, t, row, sizes, removal, classes, out):
        per_class = np.empty((3, removal.shape[2], 4))
        work = np.empty(14 + removal.shape[2])
        for i in range(hands.shape[0]):
            _sk.row_state(hands[i], pack_hand(hands[i]), removal, sizes, per_class, work)
            for r in range(t.shape[0]):
                w, lo, _, lv = _sk._row(t, r, (per_class, classes), row)
                out[i, r, 0] = w
                out[i, r, 1] = lo
                out[i, r, 2] = lv

    model = ev_setter._model(variant, tables)
    out = []
    for row, t in enumerate(model[:3]):
        got = np.empty((len(hands), t.shape[0], 3))
        rows(hands, t, row, _sk.class_counts(model[11], *model[:3]), model[10], model[11],
             got)
        out.append(got)
    return out


def test_card_removal_kernel_matches_numpy(hands):
    """The kernel's corrected win and loss columns (class ratios from raw counts, per-class
    sums) equal the plain numpy model's, hand by hand."""
    t = row_tables.load_tables(V24)
    got = _kernel_rows(hands[:20], V24, t)
    for i, hand in enumerate(hands[:20]):
        for row, p in enumerate(_corrected_distributions(hand, t)):
            below = np.concatenate([[0.0], np.cumsum(p)[:-1]])
            above = np.concatenate([np.cumsum(p[::-1])[::-1][1:], [0.0]])
            np.testing.assert_allclose(got[row][i, :, 0], below, atol=2e-6)
            np.testing.assert_allclose(got[row][i, :, 1], above, atol=2e-6)
            np.testing.assert_allclose(got[row][i, :, 2], above, atol=2e-6)  # no royalties


def test_card_removal_keeps_monotone_columns(hands):
    """For every shipped preset and hands from ordinary to extreme (all four aces, one suit
    of thirteen), the corrected win column rises and the loss and payment columns fall with
    the rank, within float32 rounding (what the search's exact pruning relies on, with its
    rounding margin), and every probability stays in [0, 1]."""
    from cpstats.rules import get_preset, preset_names

    extreme = np.array([parse_cards("Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs Jc"),
                        parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"),
                        parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c")], dtype=np.uint8)
    sample = np.concatenate([hands[:5], extreme])
    for name in preset_names():
        v = get_preset(name)
        if _kernel_args._low_middle(v):
            continue
        t = row_tables.load_tables(v)
        assert t.removal is not None, name
        margin = ev_setter._model(v, t)[9][7]
        for row, cols in enumerate(_kernel_rows(sample, v, t)):
            steps = np.diff(cols, axis=1)
            assert steps[:, :, 0].min() > -1e-6, (name, row)
            assert steps[:, :, 1:].max() < 1e-6, (name, row)
            assert cols[:, :, :2].min() > -1e-6 and cols[:, :, :2].max() < 1 + 1e-6, (name, row)
        # A fraction of a unit: Mandarin's 0.05, the largest, costs 2% more evaluations.
        assert 0 < margin < 0.1, name


def test_card_removal_makes_sense():
    """Holding aces makes an opponent's aces rarer: the chance that a front of A-A-K beats the
    opponent's front is higher, and the opponent's chance of a pair of aces in the middle (any
    kickers) lower, for a hand of three aces and a king than for one of nothing above a ten."""
    t = row_tables.load_tables(V24)
    aces_held = parse_cards("Ac Ad Ah Kc 9d 8h 7s 6c 5d 4h 3s 2c 2d")
    none = parse_cards("2c 2d 3h 3s 4c 4d 5h 6s 7c 8d 9h 9s Tc")
    r = int(rank3(parse_cards("Ac Ad Kc")[None], check=False)[0])
    aa = int(rank5(parse_cards("Ac Ad 2c 3d 4h")[None], check=False)[0])
    pair_of_aces = row_tables.rank_classes("H1")[1] == row_tables.rank_classes("H1")[1][aa]
    win, aces = [], []
    for hand in (aces_held, none):
        front, middle, _ = _corrected_distributions(hand, t)
        win.append(front[:r].sum())
        aces.append(middle[pair_of_aces].sum())
    assert win[0] > win[1] and aces[0] < aces[1]


def test_rank_classes_group_kickers():
    """A class is a category and its first deciding rank: the kickers do not matter, the pair's
    rank does; classes are contiguous runs of ranks, weakest first."""
    c3, c5 = row_tables.rank_classes("H1")
    assert c3.max() + 1 == row_tables.FRONT_CLASSES == 37 and c5.max() + 1 == row_tables.MAX_CLASSES == 100
    assert (np.diff(c3) >= 0).all() and (np.diff(c5) >= 0).all()
    for order in ("H1", "H4"):
        c5 = row_tables.rank_classes(order)[1]
        assert (np.diff(c5) >= 0).all() and c5.max() + 1 == row_tables.MAX_CLASSES

    def cls5(text):
        return c5[int(rank5(parse_cards(text)[None], check=False)[0])]

    assert cls5("Ac Ad Kc Qd Jh") == cls5("Ac Ad 4c 3d 2h") != cls5("Kc Kd Ac Qd Jh")
    assert cls5("Ac Ad Kc Kd 2h") == cls5("Ac Ad 3c 3d 2h") != cls5("Kc Kd Qc Qd Ah")
    assert cls5("2c 3c 4c 5c 7c") != cls5("2d 3c 4c 5c 7c")


def test_card_removal_shape_is_checked():
    with pytest.raises(OptionError, match="expected \\(100, 14\\).*refitted"):
        row_tables.CardRemoval(np.zeros((37, 14)), np.zeros((7462,)), np.zeros((100, 14)), {})


def test_tables_roundtrip_with_card_removal(tmp_path):
    t = row_tables.load_tables(V24)
    path = tmp_path / "t.npz"
    t.save(path)
    back = row_tables.RowTables.load(path)
    assert back.removal is not None and back.removal.meta == t.removal.meta
    for a, b in zip(t.removal.slopes(), back.removal.slopes()):
        np.testing.assert_array_equal(a, b)


def test_ev_legal_and_permutation(hands):
    d = api.set_hands(hands, V24, strategy="ev")
    assert not is_foul(d.settings).any()
    assert _same_cards(hands, d.settings)
    assert d.value is not None and d.value.shape == (len(hands),)


def test_ev_other_variant_tables_are_borrowed_only_when_asked():
    """Another variant's tables only when asked, without a warning."""
    v = load_variant("2-4(royalties=R-FLAT)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tables = row_tables.load_tables(v, tables="2-4")
    assert tables.variant == "2-4"


def test_ev_declares_big_natural_and_surrenders():
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", row_tables.TablesWarning)
        assert api.set_hand(dragon, "pagat-typical").natural == "dragon"
        # A hopeless hand surrenders where surrender is allowed and costs less than playing.
        trash = "5h 2d 4d 6s 3d 5c 8c 7c 3s Kc 8h Jd Th"
        d = api.set_hand(trash, "futurebet-1-6")
    assert d.surrender and d.value == pytest.approx(-9.0)


def test_set_hand_ev_doctest_shape():
    d = api.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4")
    setting = parse_setting(d.setting)
    assert not is_foul(setting)
    assert str(d) == d.setting


# -- training and matches ---------------------------------------------------------------------

def test_match_ev_beats_greedy():
    from cpstats.strategies.training import match

    res = match("2-4", "ev", "greedy", deals=3_000, rng=11)
    assert res.ci95[0] > 0, str(res)
    same = match("2-4", "greedy", "greedy", deals=500, rng=1)
    assert same.mean == 0.0


def test_exploitability_flags_greedy():
    from cpstats.strategies.training import exploitability

    res = exploitability("greedy", hands=6, opponents=200, rng=2)
    assert res.in_sample >= res.out_of_sample - 1.0 and res.in_sample > 0.3, str(res)


def test_shipped_tables_carry_metadata():
    from cpstats.rules.presets import preset_names

    shipped = sorted(p.stem for p in row_tables.TABLES_DIR.glob("*.npz"))
    assert "2-4" in shipped
    for name in shipped:
        assert name in preset_names()
        t = row_tables.RowTables.load(row_tables.TABLES_DIR / f"{name}.npz")
        assert t.variant == str(get_preset(name))
        assert {"seed", "deals", "rounds", "convergence"} <= set(t.meta)
        assert t.meta["convergence"][-1] < 0.05


def test_match_plays_criss_cross_by_seat():
    """D3: both hands of a seat are set by that seat's strategy; identical strategies tie."""
    from cpstats.strategies.training import match

    res = match("criss-cross", "ev", "greedy", deals=1_500, rng=3)
    assert res.ci95[0] > 0
    assert match("criss-cross", "greedy", "greedy", deals=300, rng=3).mean == 0


# -- a strategy's output is checked against the hands dealt -----------------------------------------

def test_hands_as_lists_of_tokens():
    """set_hand given a list of tokens raised 'must be integers, got dtype <U2'."""
    tokens = HAND.split()
    d = api.set_hand(tokens, "2-4", strategy="greedy")
    assert d.setting == api.set_hand(HAND, "2-4", strategy="greedy").setting
    assert int(rank5(["As", "Ks", "Qs", "Js", "Ts"])) == 7461
    assert rank5(["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]).tolist() == [7461, 0]
    with pytest.raises(CardError, match="expected 13 cards, got 12"):
        api.set_hand(tokens[:12], "2-4", strategy="greedy")


def _returning(settings_of):
    def mine(hands, variant, *, rng=None):
        n = len(hands)
        return settings_of(hands), np.zeros(n, bool), np.zeros(n, bool)
    return mine


def test_strategy_returning_other_cards_is_refused():
    """A setting holding cards not dealt to that hand was settled silently."""
    hands = deal(np.random.default_rng(2), 3, 4).reshape(-1, 13)

    def swap(h):
        out = h.copy()
        out[3, 0] = hands[4, 0]
        return out

    expected = (rf"^strategy 'mine' returned setting 3 with cards not dealt to that hand "
                rf"\({format_cards(hands[4, :1])} instead of {format_cards(hands[3, :1])}\)$")
    with pytest.raises(CardError, match=expected):
        api.set_hands(hands, "2-4", strategy=_returning(swap))


def test_strategy_repeating_a_card_is_refused():
    """A setting holding one card twice (and missing one) is not the hand dealt."""
    hands = deal(np.random.default_rng(3), 2, 4).reshape(-1, 13)

    def repeat(h):
        out = h.copy()
        out[5, 1] = out[5, 2]
        return out

    with pytest.raises(CardError, match=r"returned setting 5 with cards not dealt to that hand"):
        api.set_hands(hands, "2-4", strategy=_returning(repeat))


@pytest.mark.parametrize("change, match", [
    (lambda h: h.astype(np.int64) + 256, r"card code 2\d\d in setting 0: codes are 0\.\.51"),
    (lambda h: np.where(np.arange(13) == 4, -1, h.astype(np.int64)), r"card code -1 in setting 0"),
    (lambda h: h.astype(np.float64) + 0.25, r"settings of dtype float64: card codes must be integers"),
    (lambda h: np.where(np.arange(13) == 0, 60, h).astype(np.uint8), r"card code 60 in setting 0"),
])
def test_strategy_codes_out_of_range_are_refused_before_any_cast(change, match):
    """Codes of 256 and up wrapped to real cards, floats were truncated."""
    hands = deal(np.random.default_rng(4), 2, 4).reshape(-1, 13)
    with pytest.raises(CardError, match=r"^strategy 'mine' .*" + match):
        api.set_hands(hands, "2-4", strategy=_returning(change))


def test_strategy_code_wrap_is_not_a_real_card():
    """Code c + 256 used to settle as card c; now it is refused, naming the setting."""
    hands = deal(np.random.default_rng(5), 1, 4).reshape(-1, 13)
    wrap = _returning(lambda h: np.where(np.arange(13) == 0, h.astype(np.int64) + 256, h))
    with pytest.raises(CardError, match=r"strategy 'mine' returned card code \d+ in setting 0"):
        api.set_hands(hands, "2-4", strategy=wrap)


def test_honest_strategies_pass_the_check():
    """A permutation of the hand (any order) is accepted, in blocks too."""
    from concurrent.futures import ThreadPoolExecutor

    hands = deal(np.random.default_rng(6), 3, 4).reshape(-1, 13)
    rev = _returning(lambda h: np.ascontiguousarray(h[:, ::-1]).astype(np.int32))
    assert (api.set_hands(hands, "2-4", strategy=rev).settings == hands[:, ::-1]).all()
    with ThreadPoolExecutor(2) as pool:
        d = api.set_hands(hands, "2-4", strategy="greedy", executor=pool)
    assert (np.sort(d.settings, axis=1) == np.sort(hands, axis=1)).all()


def test_strategy_error_names_the_setting_across_blocks():
    """With an executor the hands are set in blocks of 4,096; the error names the
    setting's index among all hands, not within its block."""
    from concurrent.futures import ThreadPoolExecutor

    hands = deal(np.random.default_rng(7), 1300, 4).reshape(-1, 13)

    def mine(h, variant, *, rng=None):
        out = h.copy()
        if len(h) < 4096:  # the second block: its row 10 is hand 4106
            out[10, 0] = out[10, 1]
        return out, np.zeros(len(h), bool), np.zeros(len(h), bool)

    with ThreadPoolExecutor(2) as pool:
        with pytest.raises(CardError, match=r"strategy 'mine' returned setting 4106 with cards"):
            api.set_hands(hands, "2-4", strategy=mine, executor=pool)


def test_decisions_checked_by_count_only_still_refuse_bad_codes():
    """Callers that pass only the number of hands (training's matches) still get
    codes 0..51 and no card twice, never a silent wrap."""
    hands = deal(np.random.default_rng(9), 1, 2).reshape(-1, 13)
    none = np.zeros(2, bool)
    assert (api._as_decisions((hands.astype(np.int64), none, none), 2).settings == hands).all()
    with pytest.raises(CardError, match=r"^strategy 'strategy' returned an invalid setting: hand 1: "
                                        r"card code 300 is invalid"):
        api._as_decisions((np.where(np.arange(2)[:, None] == 1, 300, hands.astype(np.int64)), none, none), 2)
