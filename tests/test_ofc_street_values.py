"""``rollout-learned``'s street models (cpstats/ofc/street_values.py, cpstats/ofc/_value_kernel.py).

The feature kernel is checked on hand-made boards, the flat trees against scikit-learn's own
prediction, the strategy for legal boards, its fallback (no models: ``rollout-exact``'s play)
and the other codes' play unchanged by the second loop, and training for determinism.
"""

import json

import numpy as np
import pytest

from cpstats.cards import parse_cards
from cpstats.errors import OptionError
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc import street_values as sv
from cpstats.ofc.entry_value import play_args
from cpstats.ofc.play import play_hands
from cpstats.rules import get_preset
from cpstats.rules.open_face import resolve_ofc_variant

PINE = get_preset("ofc-pineapple")
F = {name: i for i, name in enumerate(sv.FEATURES)}


def _board(front: str, middle: str, back: str) -> tuple[np.ndarray, np.ndarray]:
    board = np.full(13, -1, dtype=np.int8)
    cnt = np.zeros(3, dtype=np.int64)
    for r, (text, start) in enumerate(((front, 0), (middle, 3), (back, 8))):
        cards = parse_cards(text) if text else []
        board[start:start + len(cards)] = cards
        cnt[r] = len(cards)
    return board, cnt


def _features(board, cnt, seen_extra=()):
    args = play_args(PINE)
    mask = np.ones(52, dtype=np.bool_)
    mask[board[board >= 0]] = False
    mask[list(seen_extra)] = False
    out = np.empty(_vk.N_FEATURES)
    _vk.features(board, cnt, mask, *args[:6], args.vt[0], args.prm[0], out)
    return out


def test_features_of_hand_made_boards():
    """Counts, the front's pair and outs, suits, runs and the foul margins of a known board."""
    board, cnt = _board("Qs", "Ah Kh 7h 2h", "5c 6d 7s 8c")
    x = _features(board, cnt, seen_extra=parse_cards("Qd"))
    assert (x[F["front_cards"]], x[F["middle_cards"]], x[F["back_cards"]]) == (1, 4, 4)
    assert x[F["front_pair"]] == -1 and x[F["front_high"]] == 10
    assert x[F["front_outs"]] == 2 and x[F["front_fl_outs"]] == 2  # Qh, Qc unseen (Qd seen)
    assert x[F["middle_suited"]] == 4 and x[F["middle_suit_live"]] == 13 - 4
    assert x[F["back_run"]] == 4 and x[F["back_suited"]] == 2
    assert x[F["unseen"]] == 52 - 9 - 1 and x[F["empty"]] == 13 - 9
    assert x[F["middle_outs"]] == 3 + 3 + 3 + 2  # A, K, 2 three unseen each; 7 two (7h here, 7s on the back)


def test_features_front_pair_and_wheel_run():
    """A paired front has no pairing outs; an ace counts low in a run (A-2-3-4 is four)."""
    board, cnt = _board("Kd Kc", "", "Ad 2c 3h 4s")
    x = _features(board, cnt)
    assert x[F["front_pair"]] == 11 and x[F["front_outs"]] == 0 and x[F["front_fl_outs"]] == 0
    assert x[F["back_run"]] == 4 and x[F["middle_cards"]] == 0
    assert x[F["board_h"]] == pytest.approx(_pk.board_h(board, cnt, *play_args(PINE)[:6], play_args(PINE).vt[0],
                                                        play_args(PINE).prm[0]))


def _tiny_labels():
    gen = np.random.default_rng(5)
    x = gen.normal(size=(400, 3, _vk.N_FEATURES))
    x[:, :, 7] = gen.integers(0, 4, size=(400, 3))  # integer-valued features, as the counts are
    y = x[:, 1, 0] + 0.5 * (x[:, 1, 7] > 1) + gen.normal(scale=0.1, size=400)
    return x, y


def test_numba_prediction_equals_sklearn_on_held_out_rows():
    """The exported trees walked by the kernel give scikit-learn's prediction, to the last bit
    (the same splits, the same order of summation)."""
    x, y = _tiny_labels()
    models = sv.fit_street_models(x[:300], y[:300], (1, 2), seed=3)
    model = sv.export_trees(models, 5)
    assert np.isnan(model.base[[0, 3, 4]]).all() and not np.isnan(model.base[[1, 2]]).any()
    for s in (1, 2):
        held = np.ascontiguousarray(x[300:, s])
        np.testing.assert_array_equal(_vk.predict_rows(held, s, *model), models[s].predict(held))


def test_label_hands_rejects_bad_hands():
    with pytest.raises(OptionError, match="hands"):
        sv.label_hands(PINE, 0, 1)


def test_labels_are_exact_means_before_the_last_street():
    """Every row's label lies between the foul value and the best a board can be worth, and its
    boards hold 5, 7, 9 and 11 cards."""
    x, y = sv.label_hands(PINE, 2, 11)
    cards = x[:, :, F["front_cards"]] + x[:, :, F["middle_cards"]] + x[:, :, F["back_cards"]]
    assert (cards == [5, 7, 9, 11]).all()
    assert (y >= play_args(PINE).prm[0, _pk.FOUL] - 1e-9).all() and np.isfinite(y).all()


def test_rollout_learned_plays_legal_boards():
    """Complete boards of distinct cards, with the shipped models (or without them)."""
    out = play_hands(PINE, 3, 4, strategies=["rollout-learned", "rollout-exact"])
    for boards in out.boards:
        assert (boards >= 0).all() and len(set(boards.ravel().tolist())) == boards.size


def test_without_models_rollout_learned_plays_as_rollout_exact(monkeypatch):
    """A variant with no street models: the same boards as rollout-exact on the same seeds."""
    from cpstats.ofc import play

    monkeypatch.setattr(play, "street_model", lambda v: None)
    a = play_hands(PINE, 2, 9, strategies="rollout-learned")
    b = play_hands(PINE, 2, 9, strategies="rollout-exact")
    np.testing.assert_array_equal(a.boards, b.boards)


def test_pruning_keeps_the_options_of_best_model_value():
    """On a street with a model, ``prune`` candidates are the options whose boards the model
    values best (one candidate: the model's argmax); without pruning, those of best ``board_h``."""
    model = sv.street_model(PINE)
    if model is None:
        pytest.skip("no shipped street models")
    deal, keep, *tabs = sv._kernel_args(PINE)
    deck = np.random.default_rng(5).permutation(52).astype(np.int8)
    board, cnt = np.full(13, -1, np.int8), np.zeros(3, np.int64)
    rows = np.empty((243, 5), np.int8)
    _pk.apply_option(board, cnt, deck[:5], 5, 5, 7, _pk.enumerate_rows(5, cnt, rows), rows)
    dealt = deck[5:8]
    unseen = deck[8:].copy()
    mask = np.zeros(52, np.bool_)
    mask[unseen] = True
    n_a = _pk.enumerate_rows(2, cnt, rows)
    values, h = [], _pk._option_values(board, cnt, dealt, 3, 2, rows, n_a, 3 * n_a, *tabs)
    x = np.empty(_vk.N_FEATURES)
    for o in range(3 * n_a):
        b, c = board.copy(), cnt.copy()
        _pk.apply_option(b, c, dealt, 3, 2, o, n_a, rows)
        _vk.features(b, c, mask, *tabs, x)
        values.append(_vk.predict(x, 1, *model))

    def choose(top, prune):
        return _vk.learned_option(board, cnt, dealt, 1, deal, keep, unseen, unseen.size, 8, top, prune,
                                  np.array([3], np.uint64), *tabs, *model)

    assert int(np.argmax(values)) != int(np.argmax(h))  # a position where the two rankings disagree
    assert choose(24, 1) == int(np.argmax(values))
    assert choose(1, 0) == int(np.argmax(h))


def test_learned_loop_plays_the_other_codes_as_the_street_loop():
    """play_streets_learned with no rollout-learned seat gives play_streets_kernel's boards."""
    args = play_args(PINE)
    deal = np.array(PINE.cards_dealt, np.int64)
    keep = np.array(PINE.cards_kept, np.int64)
    model = sv.street_model(PINE) or sv.export_trees({}, 5)
    for seed, codes in ((1, (5, 1)), (2, (4, 0))):
        deck = np.random.default_rng(seed).permutation(52).astype(np.int8)
        c = np.array(codes, np.int64)
        out = [np.empty((2, 13), np.int8) for _ in range(2)]
        disc = np.empty((2, 5), np.int8)
        _pk.play_streets_kernel(deck, c, deal, keep, np.full(2, 8), 8, 3, np.uint64(seed), *args, out[0], disc)
        _vk.play_streets_learned(deck, c, deal, keep, np.full(2, 8), 8, 3, np.uint64(seed), *args, out[1], disc,
                                 _pk.ENDGAME, *model)
        np.testing.assert_array_equal(out[0], out[1])


def test_training_is_determined_by_its_seed(monkeypatch):
    """The same seed gives the same arrays; another seed other arrays (tiny run, small leaves)."""
    monkeypatch.setitem(sv.TREE_SETTINGS, "min_samples_leaf", 2)
    monkeypatch.setitem(sv.TREE_SETTINGS, "max_iter", 5)
    a, rec = sv.train_street_models(PINE, hands=4, seed=21)
    b, _ = sv.train_street_models(PINE, hands=4, seed=21)
    c, _ = sv.train_street_models(PINE, hands=4, seed=22)
    for u, w in zip(a, b):
        np.testing.assert_array_equal(u, w)
    assert a.mf.shape != c.mf.shape or not np.array_equal(a.mf, c.mf)
    assert rec["seed"] == 21 and rec["hands"] == 4


def test_a_second_round_is_played_by_the_first_rounds_models(monkeypatch):
    """Two rounds are round 0 then round 1 played by round 0's models (how the shipped second
    round was trained from the shipped first), and the second round's models are other arrays."""
    monkeypatch.setitem(sv.TREE_SETTINGS, "min_samples_leaf", 2)
    monkeypatch.setitem(sv.TREE_SETTINGS, "max_iter", 5)
    two, rec = sv.train_street_models(PINE, hands=3, seed=21, rounds=2)
    first = sv.train_round(PINE, 3, 21, 0)
    again = sv.train_round(PINE, 3, 21, 1, first)
    for u, w in zip(two, again):
        np.testing.assert_array_equal(u, w)
    assert rec["rounds"] == 2 and not np.array_equal(first.base, two.base)


def test_shipped_models_record_the_rounds_train_ofc_ships():
    """The shipped file's record is what ``cpstats train-ofc --street-values`` reproduces by default."""
    from cpstats.apps.cli.train_ofc import STREET_ROUNDS

    path = sv.shipped_path(PINE)
    if not path.exists():
        pytest.skip("no shipped street models")
    with np.load(path) as f:
        record = json.loads(str(f["record"]))
    assert record["rounds"] == STREET_ROUNDS and record["seed"] == 2026 and record["seconds"] < 7200


def test_shipped_models_cover_every_street_but_the_last():
    """The shipped Pineapple file has models of the boards after streets 0..3 (street 0's prunes
    the first street's options) and none after 4 (a complete board)."""
    model = sv.street_model(PINE)
    if model is None:
        pytest.skip("no shipped street models")
    assert not np.isnan(model.base[:4]).any() and np.isnan(model.base[4])
    assert model.mi.shape[0] == model.mf.shape[0] and model.roots.max() < model.mi.shape[0]


def test_the_default_is_the_learned_play_through_the_shared_verbs():
    """``setter="rollout"`` (the default; ``"rollout-learned"`` its former name, the same run) plays
    by the shipped street models through cpstats.simulate, and its run says which models."""
    import hashlib

    import cpstats

    r = cpstats.simulate("ofc-pineapple", 4, setter="rollout", rng=3)
    same = cpstats.simulate("ofc-pineapple", 4, setter="rollout-learned", rng=3)
    assert r.metadata["strategy"] == same.metadata["strategy"] == "rollout/rollout"
    digest = hashlib.sha256(sv.shipped_path(PINE).read_bytes()).hexdigest()[:12]
    assert r.metadata["play"].startswith("rollout: kernel 6") and f"street models {digest}" in r.metadata["play"]
    assert r.metadata["run_digest"] == same.metadata["run_digest"] and r.deals == 4


def test_a_variant_without_models_says_it_plays_as_rollout_exact():
    """A designer's variant with no shipped models: the default plays as ``rollout-exact`` and the
    run's metadata says so; a rake alone never hides a variant's models (it never moves the play)."""
    import cpstats
    from cpstats.rules.house import Rake, RakeModel

    own = resolve_ofc_variant("ofc-pineapple(royalties.front.66=3)")
    assert sv.street_model(own) is None
    r = cpstats.simulate(own, 2, rng=4)
    assert "street models none (plays as rollout-exact)" in r.metadata["play"]
    raked = PINE.replace(rake=Rake(model=RakeModel.TIME, amount=6.0))
    assert sv.shipped_path(raked) == sv.shipped_path(PINE) and sv.street_model(raked) is sv.street_model(PINE)


def test_a_budget_keeps_each_seats_rollout():
    """``samples=`` (deprecated for ``Rollout(samples=...)``) changes the budget of every rollout
    seat and never which rollout it is."""
    from cpstats.ofc.simulation import simulate

    with pytest.warns(DeprecationWarning):
        r = simulate("ofc-pineapple", 2, setter=["rollout-exact", "rollout-v1"], samples=4, rng=5)
    assert r.metadata["strategy"] == "rollout-exact/rollout-v1(samples=4,top=24)"


def test_fitting_without_scikit_learn_is_one_line_before_any_self_play(monkeypatch):
    """Playing needs no scikit-learn; fitting says in one line how to install it, at once."""
    import sys

    monkeypatch.setitem(sys.modules, "sklearn.ensemble", None)
    with pytest.raises(OptionError, match=r"needs scikit-learn: pip install 'cpstats\[train\]'"):
        sv.train_street_models(PINE, hands=10**6)


def test_every_shipped_model_file_is_where_its_variant_looks_and_the_shipped_runs_have_one():
    """Each ``street_values-*.npz`` names in its record the variant whose :func:`shipped_path` it
    is, fitted by the shipped recipe (seed 2026, 6,000 hands, the rounds train-ofc ships); every
    shipped open-face run's variant has one, so the default plays by models in all of them."""
    from cpstats.apps.cli.train_ofc import STREET_ROUNDS
    from cpstats.ofc.shipped import OFC_REFERENCE_RUNS

    files = sorted(sv.SHIPPED_DIR.glob("street_values-*.npz"))
    for path in files:
        with np.load(path) as f:
            record = json.loads(str(f["record"]))
        assert sv.shipped_path(resolve_ofc_variant(record["variant"])) == path
        assert (record["seed"], record["hands"], record["rounds"]) == (2026, 6000, STREET_ROUNDS)
    assert {sv.shipped_path(resolve_ofc_variant(t)) for t in OFC_REFERENCE_RUNS.values()} <= set(files)


def test_the_budget_is_the_learned_plays_budget_too():
    """``samples`` sets the lookahead deals of the streets the models decide (the last two are
    exact), so a smaller budget plays other boards and the strong setting is not the default."""
    few = play_hands(PINE, 3, 7, strategies="rollout", samples=2)
    default = play_hands(PINE, 3, 7, strategies="rollout")
    assert (few.boards != default.boards).any()


def test_a_designers_variant_is_fitted_into_the_cache_and_played_from_it(monkeypatch, tmp_path):
    """``cpstats train-ofc --street-values`` for rules the package ships no models for writes them
    into cpstats' cache folder (never the installed package); the default then plays by them and the
    run names their digest. A variant the package ships models for still reads the package's file."""
    import hashlib

    import cpstats
    from cpstats.apps.cli import main

    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(sv.TREE_SETTINGS, "min_samples_leaf", 2)
    monkeypatch.setitem(sv.TREE_SETTINGS, "max_iter", 3)
    own = resolve_ofc_variant("ofc-pineapple(royalties.front.66=3)")
    before = set(sv.SHIPPED_DIR.iterdir())
    assert sv.street_model(own) is None and sv.model_path(own).parent == tmp_path / "ofc"
    main(["train-ofc", "--street-values", "2", str(own)])
    path = sv.model_path(own)
    assert path.parent == tmp_path / "ofc" and path.exists() and set(sv.SHIPPED_DIR.iterdir()) == before
    model = sv.street_model(own)
    assert model is not None and not np.isnan(model.base[:4]).any()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    assert f"street models {digest}" in cpstats.simulate(own, 2, rng=4).metadata["play"]
    assert sv.model_path(PINE) == sv.shipped_path(PINE)


def test_an_unwritable_models_folder_is_one_line_before_any_fitting(monkeypatch, tmp_path):
    """The folder is checked before the self-play and fitting (minutes to hours), not after."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")

    def fit(*args, **kwargs):
        raise AssertionError("fitted before the folder was checked")

    monkeypatch.setattr(sv, "train_street_models", fit)
    with pytest.raises(OptionError, match=r"folder=.*a-file.ofc. is invalid: the folder cannot be created"):
        sv.write_shipped(("ofc-pineapple",), hands=2, folder=blocker / "ofc")
    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(blocker))
    with pytest.raises(OptionError, match=r"the street models of .* go to .*cannot be written .*--out"):
        sv.write_shipped(("ofc-pineapple(royalties.front.66=3)",), hands=2)
