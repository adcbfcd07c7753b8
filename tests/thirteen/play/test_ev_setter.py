"""The ev setter (cpstats.thirteen.play.ev_setter, _ev_kernel): exact pruning, the best split under its row
model, card removal, tables borrowed only when asked, naturals declared and surrenders; and the row
model reading the scoring's numbers, rows paying their own points (there the tables are the shipped
``2-4`` ones, given explicitly, so the tests measure the row model alone: no training, no
borrowed-tables warning).
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from numba import njit

from cpstats.cards import deal, parse_cards
from cpstats.cards._bits import pack_hand
from cpstats.errors import OptionError
from cpstats.hands import tables as _tables
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import is_foul, legal_settings, parse_setting
from cpstats.engine.registry import get_preset, load_variant
from cpstats.thirteen.play import _ev_kernel as _sk, _kernel_args, api, ev_setter, row_tables
from cpstats.thirteen.play.row_tables import load_tables, rank_classes
from cpstats.thirteen.play.setters import EvSetter
from helpers.checks import same_cards

V24 = get_preset("2-4")


@pytest.fixture(scope="module")
def tables():
    return load_tables("2-4")


@pytest.mark.parametrize("name", ["2-4", "banked", "futurebet-2-4"])
def test_rows_paying_1_keep_the_preset_model(tables, name):
    """With every row paying 1 the row arrays are those of before, bit for bit
    (``banked`` pays its royalties win or lose, RM-ALWAYS), so presets are set as before."""
    v = get_preset(name)
    by_cat = v.kernel_tables()["royalty_by_category"]
    always = v.royalties.mode.value == "RM-ALWAYS"
    cat5 = _tables.five_card_tables("H1").category.astype(np.int64)
    classes5 = rank_classes("H1")[1]
    before = ev_setter._row_arrays(tables.back, by_cat[2][cat5], always, classes5)
    now = ev_setter._scored_row(tables.back, by_cat[2][cat5], 1, always, classes5)
    for a, b in zip(before, now):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("mode, collect, win_or_lose", [("RM-WINNER", 7.0, 0.0),
                                                         ("RM-ALWAYS", 5.0, 2.0)])
def test_a_row_collects_its_points_plus_its_royalty(tables, mode, collect, win_or_lose):
    """Front worth 5 under R-FUTUREBET (front trips 2 extra): front trips collect
    5 + 2 when they win; under RM-ALWAYS they collect 5 on a win and the 2 win or lose."""
    v = load_variant(f"2-4(scoring.front=5,royalties=R-FUTUREBET,royalty_mode={mode})")
    tf, _, _, cst = ev_setter._build_model(v, tables)[:4]
    trips = max(i for i, k in enumerate(_tables.three_card_keys()) if int(k[0]) == 3)
    pair = max(i for i, k in enumerate(_tables.three_card_keys()) if int(k[0]) == 1)
    assert (tf[trips, 2], cst[0, trips]) == (collect, win_or_lose)
    assert (tf[pair, 2], cst[0, pair]) == (5.0, 0.0)


def test_ev_puts_strength_where_the_points_are(tables):
    """On the same 2,000 hands, a row worth more gets stronger cards on average.
    With every row paying 1 (2-4) the mean ranks are about 304 (front, of 455), 4,522 (middle)
    and 6,331 (back, of 7,462); a front worth 5 lifts the front to about 372, a middle worth 3
    the middle to about 4,998, a back worth 5 the back to about 6,688 (measured). The margins
    asserted are a quarter of those shifts."""
    hands = deal(np.random.default_rng(1), 2_000, 1)[:, 0]

    def mean_ranks(text):
        s = ev_setter.ev_decisions(hands, load_variant(text), tables).settings
        return (rank3(s[:, :3], check=False).mean(), rank5(s[:, 3:8], check=False).mean(),
                rank5(s[:, 8:], check=False).mean())

    front, middle, back = mean_ranks("2-4")
    assert mean_ranks("2-4(scoring.front=5)")[0] > front + 17
    assert mean_ranks("2-4(scoring.middle=3)")[1] > middle + 119
    assert mean_ranks("2-4(scoring.back=5)")[2] > back + 89


# -- ev: exact pruning, the model's best split, card removal ----------------------------------------

def test_ev_under_h5_refuses_tables_with_a_high_middle():
    """Ev sets H5 hands (tests/thirteen/play/test_ev_low_kernel.py); what it refuses is tables
    whose middle is a high hand, such as 2-4's borrowed, in one line saying how to train."""
    with pytest.raises(OptionError, match=r"^ev: the row tables trained for '2-4' cannot set hands "
                                          r"of '2-4\(ranking=H5\)'.*low \(H5\) middle.*train_tables"):
        api.set_hand("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h", "2-4(ranking=H5)",
                     setter=EvSetter(tables="2-4"))


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
    from cpstats.thirteen.play.training import removal_features

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


@njit
def _rows(hands, t, row, sizes, removal, classes, out):
    """The kernel's (w, l, lv) of every rank of row ``row`` for each hand, into ``out``;
    at module level so numba compiles it once a session, not once a call."""
    per_class = np.empty((3, removal.shape[2], 4))
    work = np.empty(14 + removal.shape[2])
    for i in range(hands.shape[0]):
        _sk.row_state(hands[i], pack_hand(hands[i]), removal, sizes, per_class, work)
        for r in range(t.shape[0]):
            w, lo, _, lv = _sk._row(t, r, (per_class, classes), row)
            out[i, r, 0] = w
            out[i, r, 1] = lo
            out[i, r, 2] = lv


def _kernel_rows(hands: np.ndarray, variant, tables) -> list[np.ndarray]:
    """(w, l, lv) of every rank of every row as the kernel sees them for each hand (N, R, 3)."""
    model = ev_setter._model(variant, tables)
    out = []
    for row, t in enumerate(model[:3]):
        got = np.empty((len(hands), t.shape[0], 3))
        _rows(hands, t, row, _sk.class_counts(model[11], *model[:3]), model[10], model[11],
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
    from cpstats.engine.registry import get_preset
    from cpstats.thirteen.rules.presets import preset_names

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
    d = api.set_hands(hands, V24, setter="ev")
    assert not is_foul(d.settings).any()
    assert same_cards(hands, d.settings)
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
