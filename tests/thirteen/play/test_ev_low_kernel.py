"""``ev`` and ``review`` under H5, a deuce-to-seven (low) middle (issue 15, item 3).

The tables here are built from a field of ``greedy`` players (the front on three-card ranks,
the middle on low H5 ranks, the back on high H1 ranks) with a seeded, made-up card-removal
fit: the search must be exact whatever the field, and ``ev`` against its own field of greedy
players must beat greedy. They do not depend on training (see the last test for that).
"""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.thirteen.play import EvSetter
from cpstats.cards import deal, parse_cards
from cpstats.errors import OptionError
from cpstats.hands.ranking import rank3, rank5
from cpstats.hands.setting import format_setting, is_foul, splits
from cpstats.engine.registry import load_variant
from cpstats.thirteen.play import _ev_kernel as _sk
from cpstats.thirteen.play import ev_setter, row_tables
from cpstats.thirteen.play.baselines import greedy
from cpstats.thirteen.play.review import review, setting_values
from cpstats.thirteen.play.row_tables import CardRemoval, RowTables

V5 = load_variant("2-4(ranking=H5)")


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return deal(np.random.default_rng(515), 400, 4).reshape(-1, 13)


def _field(settings: np.ndarray, removal: CardRemoval | None) -> RowTables:
    """Row tables of the rows of ``settings`` (every rank kept possible)."""
    rows = (rank3(settings[:, :3], check=False),
            rank5(settings[:, 3:8], ordering="H5", check=False),
            rank5(settings[:, 8:], ordering="H1", check=False))
    dist = [np.bincount(r, minlength=n) + 0.01 for r, n in zip(rows, (455, 7462, 7462))]
    return RowTables(*(d / d.sum() for d in dist), variant=str(V5), meta={}, removal=removal)


@pytest.fixture(scope="module")
def plain() -> RowTables:
    """A field of greedy players, no card removal."""
    field = deal(np.random.default_rng(5), 5_000, 4).reshape(-1, 13)
    return _field(greedy(field, V5).settings, None)


@pytest.fixture(scope="module")
def tables(plain) -> RowTables:
    """The greedy field with a made-up card-removal fit (ratios up to the clipping limits)."""
    rng = np.random.default_rng(55)
    removal = CardRemoval(rng.normal(0, 2e-3, (37, 14)), rng.normal(0, 2e-4, (100, 14)),
                          rng.normal(0, 2e-4, (100, 14)), {})
    return RowTables(plain.front, plain.middle, plain.back, plain.variant, {}, removal)


def _ordered_legal(hand: np.ndarray) -> np.ndarray:
    ordered = splits(hand, ordered=True)
    return ordered[~is_foul(ordered, ordering="H5", check=False)]


def _model_values(hand: np.ndarray, settings: np.ndarray, tables: RowTables) -> np.ndarray:
    """The row model's value of each setting in plain numpy: card removal per rank class (low
    classes for the middle, high for the back), then win, loss and payment columns of each
    row's rank (2-4: no royalties, a row collects 1 and pays 1) into ``pair_value``."""
    from cpstats.thirteen.play.training import removal_features

    x = removal_features(hand[None])[0]
    lo, hi = row_tables.REMOVAL_RATIO_LIMITS
    classes = (row_tables.rank_classes("H1")[0], row_tables.rank_classes("H5")[1],
               row_tables.rank_classes("H1")[1])
    ranks = (rank3(settings[:, :3], check=False), rank5(settings[:, 3:8], ordering="H5", check=False),
             rank5(settings[:, 8:], ordering="H1", check=False))
    cols = []
    for dist, slope, cls, r in zip((tables.front, tables.middle, tables.back),
                                   tables.removal.slopes(), classes, ranks):
        p = dist / dist.sum()
        mass = np.bincount(cls, weights=p, minlength=len(slope))
        ratio = np.clip(np.divide(slope @ x, mass, out=np.zeros(len(mass)), where=mass > 0), lo, hi)
        ratio = (1 + ratio) / np.clip(1 + mass @ ratio, 0.5, 2.0) - 1
        q = p * (1 + ratio[cls])
        below = np.concatenate([[0.0], np.cumsum(q)[:-1]])
        above = np.concatenate([np.cumsum(q[::-1])[::-1][1:], [0.0]])
        cols += [below[r], above[r], np.ones(len(r)), above[r]]
    params = ev_setter._low_model(V5, tables)[8]
    return _sk.pair_value.py_func(*cols, params)


def test_low_of_high_is_the_h5_rank_of_the_same_cards():
    """The search ranks a five once (H1) and reads its low rank from a map; the
    map is the H5 rank of the same cards, the wheel (a straight in H1) included."""
    rng = np.random.default_rng(3)
    fives = np.argsort(rng.random((20_000, 52)), axis=1)[:, :5].astype(np.uint8)
    wheels = np.array([parse_cards(t) for t in ("As 2d 3h 4c 5s", "Ah 2h 3h 4h 5h", "2c 3c 4c 5c 6d")])
    fives = np.concatenate([fives, wheels.astype(np.uint8)])
    mapped = ev_setter._low_of_high()[rank5(fives, ordering="H1", check=False)]
    assert np.array_equal(mapped, rank5(fives, ordering="H5", check=False))
    assert len(np.unique(ev_setter._low_of_high())) == 7462  # one-to-one


def test_h5_search_prunes_exactly(hands, tables):
    """The pruned H5 search returns the same settings and values as the full one
    over all 72,072 ordered splits, and evaluates far fewer of them."""
    a, va, na = ev_setter.ev_search(hands[:40], V5, tables, prune=True)
    b, vb, nb = ev_setter.ev_search(hands[:40], V5, tables, prune=False)
    assert (a == b).all() and np.array_equal(va, vb)
    assert nb[:, 0].min() > 20_000 and na[:, 0].mean() < nb[:, 0].mean() / 50


@pytest.mark.parametrize("text", ["taiwanese", "pagat-casino", "banked", "criss-cross",
                                  "2-4(scoring.front=1,scoring.middle=2,scoring.back=3)"])
def test_h5_search_prunes_exactly_with_royalties_and_home_runs(hands, tables, text):
    """The bounds stay exact where front and back royalties are not monotone in
    the rank, royalties are paid win or lose (banked: RM-ALWAYS), a home run pays (taiwanese,
    pagat-casino: the value is not linear in the rows), two hands sit per seat and the rows
    pay different points (issue 15.1)."""
    v = load_variant(text).replace(ranking="H5")
    field = deal(np.random.default_rng(6), 2_000, 4).reshape(-1, 13)
    own = _field(greedy(field, v).settings, tables.removal)
    own = RowTables(own.front, own.middle, own.back, str(v), {}, tables.removal)
    a, va, _ = ev_setter.ev_search(hands[:25], v, own, prune=True)
    b, vb, _ = ev_setter.ev_search(hands[:25], v, own, prune=False)
    assert (a == b).all() and np.array_equal(va, vb)


def test_h5_search_is_the_best_ordered_split_under_its_model(hands, tables):
    """A plain numpy evaluation of every ordered legal split (back >= front only)
    agrees with the kernel's choice and value, card removal included."""
    settings, value, _ = ev_setter.ev_search(hands[:3], V5, tables)
    for hand, chosen, v in zip(hands[:3], settings, value):
        vals = _model_values(hand, _ordered_legal(hand), tables)
        assert v == pytest.approx(vals.max(), abs=1e-5)
        assert _model_values(hand, chosen[None], tables)[0] == pytest.approx(vals.max(), abs=1e-5)


def test_ev_sets_legal_h5_hands(hands, tables):
    """Ev sets H5 hands (no longer refused): legal (back >= front), the same
    cards, and its setting's model value is its reported value."""
    d = ev_setter.ev(hands, V5, tables=tables)
    assert not is_foul(d.settings, ordering="H5").any()
    assert (np.sort(d.settings, axis=1) == np.sort(hands, axis=1)).all()
    np.testing.assert_allclose(setting_values(d.settings[:50], V5, tables=tables),
                               d.value[:50], atol=1e-9)


@pytest.mark.parametrize("trained_for,variant", [("2-4", "2-4(ranking=H5)"),
                                                 ("2-4(ranking=H5)", "2-4")])
def test_tables_of_the_other_middle_scale_are_refused(hands, trained_for, variant):
    """Tables trained with a high middle say nothing of a low one (and the other
    way round): ev refuses them in one line naming both variants and how to train."""
    t = row_tables.load_tables("2-4")
    other = RowTables(t.front, t.middle, t.back, trained_for, {}, None)
    with pytest.raises(OptionError, match=r"^ev: the row tables trained for '.*' cannot set "
                                          r"hands of '.*'.*train_tables"):
        ev_setter.ev(hands[:2], load_variant(variant), tables=other)


def test_ev_beats_greedy_under_h5(plain):
    """issue 15.3 acceptance: in a duplicate match under H5, ev (answering a field of greedy
    players, its best response) beats greedy, the 95% CI above zero: +3.4 a hand, CI +-0.05
    on 5,000 deals (with trained tables +2.39, CI +2.37 .. +2.42 on 20,000 deals). And the
    model reads the low middle the way the settlement scores it: ev's own expected value on
    the match's hands (the same seed deals them) is the edge the match measures, within five
    standard errors plus 0.1 for the model's independence assumptions (measured: 3.45 against
    3.41)."""
    from cpstats.thirteen.play.training import match

    def ev_h5(h, v, *, rng=None):
        return ev_setter.ev(h, v, tables=plain)

    res = match(V5, ev_h5, "greedy", deals=1_500, rng=15)
    assert res.ci95[0] > 0, str(res)
    dealt = deal(np.random.default_rng(np.random.SeedSequence(15)), 1_500, 4).reshape(-1, 13)
    predicted = ev_setter.ev(dealt, V5, tables=plain).value.mean()
    assert abs(res.mean - predicted) < 5 * res.stderr + 0.1, (str(res), predicted)


def test_simulate_h5_with_ev(plain):
    """simulate("2-4(ranking=H5)", ..., setter=EvSetter(...)) runs with a low middle, its hands
    are ev's settings and none fouls (the greedy field's tables stand in for the variant's
    own, which would be trained now: about a minute)."""
    from cpstats.workbench import simulate

    res = simulate("2-4(ranking=H5)", 300, setter=EvSetter(tables=plain), rng=4, keep_hands=True)
    settings = np.concatenate([k["settings"] for k in res.kept]).reshape(-1, 13)
    assert len(settings) == 1_200 and not is_foul(settings, ordering="H5").any()
    # Equal-rank cards may change rows with the order they come in: compare values.
    np.testing.assert_allclose(setting_values(settings[:8], V5, tables=plain),
                               ev_setter.ev_search(settings[:8], V5, plain)[1], atol=1e-9)


def test_review_values_h5_settings(tables):
    """Review under H5 values settings with ev's model: its best is ev's setting
    and value, ev's own setting loses nothing, a fouled one pays the mis-set penalty to each
    of the three opponents."""
    hand = parse_cards("As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h")
    settings, value, _ = ev_setter.ev_search(hand[None], V5, tables)
    r = review(hand, format_setting(settings[0]), V5, tables=tables)
    assert r.best_value == pytest.approx(value[0], abs=1e-9) and r.loss == pytest.approx(0, abs=1e-9)
    worse = review(hand, "As Kc Qh / Ad Kd Qs Jc Jd / 9h 7s 5c 4d 2h", V5, tables=tables)
    assert worse.foul and worse.value == pytest.approx(-3.0 * float(V5.kernel_tables()["misset"]))
    assert r.alternatives["ev"].is_monotonic_decreasing


def test_train_tables_under_h5_keeps_the_back_on_the_high_scale():
    """Training under H5 runs ev (no refusal) and must record the back on the high
    (H1) scale the model reads it on, as the settlement ranks it: nearly every back is a pair
    or better (the greedy start and ev's responses alike)."""
    from cpstats.hands import tables as _tables
    from cpstats.thirteen.play.training import train_tables

    t = train_tables(V5, deals=2_000, rounds=2, refine=0, check_deals=0, removal_deals=0, rng=1)
    category = _tables.five_card_tables("H1").category
    assert t.back[category >= 1].sum() > 0.9
