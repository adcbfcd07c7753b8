"""The learned open-face play's street models (cpstats/ofc/street_values.py, street_training.py,
rule_features.py, _value_kernel.py, _train_kernel.py).

The feature kernel is checked on hand-made boards, the flat trees against scikit-learn's own
prediction, the plays (``rollout`` code 6, ``fast`` code 7) for legal boards and their fallback (no
readable model file: ``rollout-exact``'s play, with a warning naming the file), the rule numbers
and the rule draws, training for determinism whatever the worker count, and the shipped file.
"""

import json
import shutil
import warnings

import numpy as np
import pytest

from cpstats.cards import parse_cards
from cpstats.errors import OptionError
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc import rule_features as rf
from cpstats.ofc import street_training as st
from cpstats.ofc import street_values as sv
from cpstats.ofc.entry_value import default_entry_values, play_args
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


def _features(board, cnt, seen_extra=(), variant=PINE):
    tabs = st.kernel_args(variant)[2:]
    mask = np.ones(52, dtype=np.bool_)
    mask[board[board >= 0]] = False
    mask[list(seen_extra)] = False
    out = np.empty(_vk.N_FEATURES)
    _vk.features(board, cnt, mask, *tabs, rf.rule_vector(variant), out)
    return out


def test_features_of_hand_made_boards():
    """Counts, the front's pair and outs, suits, runs, the foul margins and the draws' royalties of a known board."""
    board, cnt = _board("Qs", "Ah Kh 7h 2h", "5c 6d 7s 8c")
    x = _features(board, cnt, seen_extra=parse_cards("Qd"))
    assert (x[F["front_cards"]], x[F["middle_cards"]], x[F["back_cards"]]) == (1, 4, 4)
    assert x[F["front_pair"]] == -1 and x[F["front_high"]] == 10
    assert x[F["front_outs"]] == 2 and x[F["front_fl_outs"]] == 2  # Qh, Qc unseen (Qd seen)
    assert x[F["middle_suited"]] == 4 and x[F["middle_suit_live"]] == 13 - 4
    assert x[F["back_run"]] == 4 and x[F["back_suited"]] == 2
    assert x[F["unseen"]] == 52 - 9 - 1 and x[F["empty"]] == 13 - 9
    assert x[F["middle_outs"]] == 3 + 3 + 3 + 2  # A, K, 2 three unseen each; 7 two (7h here, 7s on the back)
    assert x[F["middle_flush_draw"]] == 8 and x[F["back_flush_draw"]] == 0  # the middle flush royalty
    assert x[F["back_straight_draw"]] == 2 and x[F["middle_straight_draw"]] == 0  # the back straight royalty
    np.testing.assert_array_equal(x[_vk.N_BOARD:], rf.rule_vector(PINE))


def test_the_next_card_gain_is_the_mean_over_the_unseen_cards():
    """``front_next``: the mean gain in the front's value from one more unseen card, by brute force
    over the cards; it grows with the QQ royalty (a designer's rule moves the feature)."""
    board, cnt = _board("Qs", "", "")
    vt = st.kernel_args(PINE)[8]
    unseen = [c for c in range(52) if c != board[0]]
    args = st.kernel_args(PINE)[2:7]
    now = vt[0, _pk.row_rank(board, 0, 1, *args)]
    gains = []
    for c in unseen:
        b = board.copy()
        b[1] = c
        gains.append(vt[0, _pk.row_rank(b, 0, 2, *args)] - now)
    assert _features(board, cnt)[F["front_next"]] == pytest.approx(np.mean(gains), rel=1e-12)
    rich = resolve_ofc_variant("ofc-pineapple(royalties.front.QQ=20)")
    assert _features(board, cnt, variant=rich)[F["front_next"]] > np.mean(gains) + 0.5


def test_features_front_pair_and_wheel_run():
    """A paired front has no pairing outs; an ace counts low in a run (A-2-3-4 is four)."""
    board, cnt = _board("Kd Kc", "", "Ad 2c 3h 4s")
    x = _features(board, cnt)
    tabs = st.kernel_args(PINE)[2:]
    assert x[F["front_pair"]] == 11 and x[F["front_outs"]] == 0 and x[F["front_fl_outs"]] == 0
    assert x[F["back_run"]] == 4 and x[F["middle_cards"]] == 0
    assert x[F["board_h"]] == pytest.approx(_pk.board_h(board, cnt, *tabs))


def test_rule_numbers_carry_the_entry_values_by_front_and_the_schedules():
    """The entry value told for each front that enters (0 for one that does not), the royalty
    schedules and the foul value; a rake never enters."""
    prog = get_preset("ofc-pineapple-progressive")
    vec = dict(zip(rf.RULE_FEATURES, rf.rule_vector(prog)))
    entry = default_entry_values(prog)
    assert [vec[k] for k in ("entry_qq", "entry_kk", "entry_aa", "entry_trips")] == [entry[n] for n in (14, 15, 16, 17)]
    assert vec["entry_qq"] < vec["entry_kk"] < vec["entry_aa"] < vec["entry_trips"]
    kk = dict(zip(rf.RULE_FEATURES, rf.rule_vector(PINE.replace(fantasyland__cards="0/14/14/14"))))
    assert kk["entry_qq"] == 0 and kk["entry_kk"] > 0
    assert (vec["front_qq"], vec["middle_flush"], vec["back_quads"], vec["players"]) == (7, 8, 10, 2)
    assert vec["foul"] == pytest.approx(-0.8 * 6) and vec["scoop"] == pytest.approx(0.8 * 3)
    from cpstats.rules.house import Rake, RakeModel

    raked = PINE.replace(rake=Rake(model=RakeModel.TIME, amount=6.0))
    np.testing.assert_array_equal(rf.rule_vector(raked), rf.rule_vector(PINE))


def test_rule_draws_are_valid_variants_determined_by_the_seed():
    a = rf.training_variants(40, 7)
    assert [str(v) for v in a] == [str(v) for v in rf.training_variants(40, 7)]
    assert [str(v) for v in a] != [str(v) for v in rf.training_variants(40, 8)]
    draws = a[len(rf.ANCHORS):]
    assert {v.deal.value for v in draws} == {"classic", "pineapple"} and len({str(v) for v in draws}) == 40
    assert {v.players for v in draws} >= {2, 3} and all(v.players * max(v.cards_per_hand, v.fantasyland.most_cards) <= 52
                                                        for v in draws)


def test_a_rule_outside_the_trained_ranges_is_named_in_one_line():
    ranges = {name: [lo, lo] for name, lo in zip(rf.RULE_FEATURES, rf.rule_vector(PINE))}
    ranges["players"] = {"pineapple": [2], "classic": [2]}
    assert rf.range_note(PINE, ranges) is None
    note = rf.range_note(PINE.replace(royalties__front__QQ=30, players=3), ranges)
    assert note.startswith("outside the street models' trained ranges: 3 players in pineapple (trained 2)")
    assert "royalties.front.QQ 30 (trained 7..7)" in note and "\n" not in note


def _tiny_fit():
    gen = np.random.default_rng(5)
    x = gen.normal(size=(400, _vk.N_FEATURES))
    x[:, 7] = gen.integers(0, 4, size=400)  # integer-valued features, as the counts are
    y = x[:, 0] + 0.5 * (x[:, 7] > 1) + gen.normal(scale=0.1, size=400)
    return x, y


def test_numba_prediction_equals_sklearn_on_held_out_rows():
    """The exported trees walked by the kernel, one row at a time or tree by tree, give
    scikit-learn's prediction to the last bit (the same splits, the same order of summation)."""
    pytest.importorskip("sklearn")
    x, y = _tiny_fit()
    models = {1: st.fit_model(x[:300], y[:300], 3), 2: st.fit_model(x[:300], -y[:300], 4)}
    trees = st.export_trees(models, 5)
    assert np.isnan(trees.base[[0, 3, 4]]).all() and not np.isnan(trees.base[[1, 2]]).any()
    for s in (1, 2):
        held = np.ascontiguousarray(x[300:])
        want = models[s].predict(held)
        np.testing.assert_array_equal(_vk.predict_rows(held, s, *trees), want)
        np.testing.assert_array_equal([_vk.predict(r, s, *trees) for r in held], want)


def test_label_hands_rejects_bad_hands():
    with pytest.raises(OptionError, match="hands"):
        st.label_hands(PINE, 0, 1)


def test_labels_are_exact_means_before_the_last_street():
    """Every row's label lies between the foul value and the best a board can be worth, and its
    boards hold 5, 7, 9 and 11 cards."""
    x, y = st.label_hands(PINE, 2, 11)
    cards = x[:, :, F["front_cards"]] + x[:, :, F["middle_cards"]] + x[:, :, F["back_cards"]]
    assert (cards == [5, 7, 9, 11]).all()
    assert (y >= play_args(PINE).prm[0, _pk.FOUL] - 1e-9).all() and np.isfinite(y).all()


@pytest.mark.parametrize("name", ["rollout", "fast"])
def test_the_learned_plays_make_legal_boards(name):
    for variant in (PINE, get_preset("ofc-classic")):
        out = play_hands(variant, 2, 4, strategies=[name, "rollout-exact"])
        for boards in out.boards:
            assert (boards >= 0).all() and len(set(boards.ravel().tolist())) == boards.size


def test_without_models_the_learned_plays_play_as_rollout_exact(monkeypatch):
    """No readable model file: ``rollout`` and ``fast`` give rollout-exact's boards on the same seeds."""
    from cpstats.ofc import play

    monkeypatch.setattr(play, "street_model", lambda v: None)
    exact = play_hands(PINE, 2, 9, strategies="rollout-exact")
    for name in ("rollout", "fast"):
        np.testing.assert_array_equal(play_hands(PINE, 2, 9, strategies=name).boards, exact.boards)


def _street1_position(seed=5):
    deck = np.random.default_rng(seed).permutation(52).astype(np.int8)
    board, cnt = np.full(13, -1, np.int8), np.zeros(3, np.int64)
    rows = np.empty((243, 5), np.int8)
    _pk.apply_option(board, cnt, deck[:5], 5, 5, 7, _pk.enumerate_rows(5, cnt, rows), rows)
    return board, cnt, deck[5:8], deck[8:].copy()


def _model_values(model, board, cnt, dealt, unseen, street=1):
    tabs = st.kernel_args(PINE)[2:]
    rows = np.empty((243, 5), np.int8)
    mask = np.zeros(52, np.bool_)
    mask[unseen] = True
    n_a = _pk.enumerate_rows(2, cnt, rows)
    values, x = [], np.empty(_vk.N_FEATURES)
    for o in range(3 * n_a):
        b, c = board.copy(), cnt.copy()
        _pk.apply_option(b, c, dealt, 3, 2, o, n_a, rows)
        _vk.features(b, c, mask, *tabs, model.rules, x)
        values.append(_vk.predict(x, street, *model[:4]))
    return np.array(values), _pk._option_values(board, cnt, dealt, 3, 2, rows, n_a, 3 * n_a, *tabs)


def test_pruning_and_fast_take_the_options_of_best_model_value():
    """On a street with a model, ``prune`` candidates are the options whose boards the model
    values best (one candidate: the model's argmax), and ``fast`` takes that argmax among the options
    of best ``board_h``; without pruning, the lookahead's one candidate is the best ``board_h``."""
    model = sv.street_model(PINE)
    if model is None:
        pytest.skip("no shipped street models")
    deal, keep, *tabs = st.kernel_args(PINE)
    board, cnt, dealt, unseen = _street1_position()
    values, h = _model_values(model, board, cnt, dealt, unseen)

    def choose(top, prune):
        return _vk.learned_option(board, cnt, dealt, 1, deal, keep, unseen, unseen.size, 8, top, prune,
                                  np.array([3], np.uint64), *tabs, *model)

    def fast(top):
        return _vk.fast_option(board, cnt, dealt, 1, deal, keep, unseen, unseen.size, top, *tabs, *model)

    assert int(np.argmax(values)) != int(np.argmax(h))  # a position where the two rankings disagree
    assert choose(24, 1) == int(np.argmax(values)) == fast(64)
    assert choose(1, 0) == int(np.argmax(h)) == fast(1)
    best4 = np.argsort(-h, kind="stable")[:4]
    assert fast(4) == best4[np.argmax(values[best4])]


def test_the_learned_loop_plays_the_other_codes_as_the_street_loop():
    """play_streets_learned with no learned seat gives play_streets_kernel's boards."""
    args = play_args(PINE)
    deal = np.array(PINE.cards_dealt, np.int64)
    keep = np.array(PINE.cards_kept, np.int64)
    model = sv.street_model(PINE)
    if model is None:
        pytest.skip("no shipped street models")
    for seed, codes in ((1, (5, 1)), (2, (4, 0))):
        deck = np.random.default_rng(seed).permutation(52).astype(np.int8)
        c = np.array(codes, np.int64)
        out = [np.empty((2, 13), np.int8) for _ in range(2)]
        disc = np.empty((2, 5), np.int8)
        _pk.play_streets_kernel(deck, c, deal, keep, np.full(2, 8), 8, 3, np.uint64(seed), *args, out[0], disc)
        _vk.play_streets_learned(deck, c, deal, keep, np.full(2, 8), 8, 3, np.uint64(seed), *args, out[1], disc,
                                 _pk.ENDGAME, *model, _pk.FAST_TOP)
        np.testing.assert_array_equal(out[0], out[1])


def _tiny_training(monkeypatch, **options):
    pytest.importorskip("sklearn")
    monkeypatch.setitem(st.TREE_SETTINGS, "min_samples_leaf", 2)
    monkeypatch.setitem(st.TREE_SETTINGS, "max_iter", 4)
    return st.train_street_models(variants=["ofc-pineapple", "ofc-classic"], **options)


def test_training_is_determined_by_its_seed_whatever_the_worker_count(monkeypatch):
    """The same seed gives the same arrays on one process or two; another seed other arrays."""
    a, rec = _tiny_training(monkeypatch, hands=3, seed=21)
    b, _ = _tiny_training(monkeypatch, hands=3, seed=21, workers=2)
    c, _ = _tiny_training(monkeypatch, hands=3, seed=22)
    for deal in a:
        for u, w in zip(a[deal], b[deal]):
            np.testing.assert_array_equal(u, w)
    assert not np.array_equal(a["pineapple"].values, c["pineapple"].values)
    assert rec["seed"] == 21 and rec["hands"] == 3 and rec["streets"] == {"classic": list(range(8)),
                                                                          "pineapple": [0, 1, 2, 3]}


def test_fitting_without_scikit_learn_is_one_line_before_any_self_play(monkeypatch):
    """Playing needs no scikit-learn; fitting says in one line how to install it, at once."""
    import sys

    monkeypatch.setitem(sys.modules, "sklearn.ensemble", None)
    with pytest.raises(OptionError, match=r"needs scikit-learn: pip install 'cpstats\[train\]'"):
        st.train_street_models(hands=10**6)


def test_the_shipped_file_records_how_it_was_made_and_covers_every_street_but_the_last():
    """One file for every variant: both deals' trees (every street but the last), the features of
    this version, the trained ranges and the command that makes it again, in under two hours."""
    record = sv.models_record()
    if record is None:
        pytest.skip("no shipped street models")
    assert record["features"] == list(sv.FEATURES)
    assert record["seconds"] < 7200 and record["workers"] == 2  # at most two hours on 2 cores
    assert (record["seed"], record["draws"], record["hands"], record["anchor_hands"]) == (
        st.SEED, st.DRAWS, st.HANDS, st.ANCHOR_HANDS)
    assert record["command"].startswith("cpstats train-ofc --street-values")
    assert set(record["ranges"]) == set(rf.RULE_FEATURES)
    assert record["anchors"] == [str(resolve_ofc_variant(a)) for a in rf.ANCHORS]
    for deal, streets in (("pineapple", 5), ("classic", 9)):
        model = sv.street_model(PINE if deal == "pineapple" else get_preset("ofc-classic"))
        assert not np.isnan(model.base[:streets - 1]).any() and np.isnan(model.base[streets - 1])
    assert not list(sv.SHIPPED_PATH.parent.glob("street_values-*.npz"))  # the per-variant files are gone


def test_every_run_names_its_models_and_whether_its_rules_are_in_range():
    """``metadata["street_models"]``: the file, its digest (in the play, so in the run's identity)
    and the range check; a variant outside the trained ranges still plays by the models and says so."""
    import cpstats

    if sv.models_record() is None:
        pytest.skip("no shipped street models")
    r = cpstats.simulate("ofc-pineapple", 4, setter="rollout", rng=3)
    models = r.metadata["street_models"]
    assert models["file"] == "street_models.npz" and models["in_range"] is True and models["note"] is None
    assert f"street models {models['digest']}" in r.metadata["play"]
    assert cpstats.simulate("ofc-pineapple", 2, setter="fast", rng=3).metadata["street_models"] == models
    far = cpstats.simulate("ofc-pineapple(royalties.front.QQ=60)", 2, setter="fast", rng=3).metadata
    assert far["street_models"]["in_range"] is False and "royalties.front.QQ 60" in far["street_models"]["note"]
    assert far["street_models"]["digest"] == models["digest"]
    assert "street_models" not in cpstats.simulate("ofc-pineapple", 2, setter="greedy", rng=3).metadata
    assert sv.models_line(models).startswith(f"Street models {models['digest']} (street_models.npz)")
    assert "outside the street models' trained ranges" in sv.models_line(far["street_models"])


@pytest.mark.parametrize("damage", ["truncated", "empty", "missing array", "not a zip"])
def test_a_damaged_model_file_is_named_and_the_play_falls_back(monkeypatch, tmp_path, damage):
    """A truncated, empty or incomplete street-model file never breaks a run: one warning names
    the file and the fallback, the run plays as rollout-exact and its metadata says so."""
    import cpstats

    if not sv.SHIPPED_PATH.exists():
        pytest.skip("no shipped street models")
    path = tmp_path / f"{damage.replace(' ', '-')}.npz"
    data = sv.SHIPPED_PATH.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "not a zip":
        path.write_text("hello")
    else:
        with np.load(sv.SHIPPED_PATH) as f:
            arrays = {k: f[k] for k in f.files if k != "pineapple_roots"}
        np.savez(path, **arrays)
    monkeypatch.setattr(sv, "SHIPPED_PATH", path)
    with pytest.warns(sv.StreetModelWarning, match=rf"{path.name}.*cannot be read .*rollout-exact"):
        r = cpstats.simulate("ofc-pineapple", 2, setter="rollout", rng=1)
    assert "street models none (plays as rollout-exact)" in r.metadata["play"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once a file: the next run is quiet
        again = cpstats.simulate("ofc-pineapple", 2, setter="rollout-exact", rng=1)
    import pandas as pd

    pd.testing.assert_frame_equal(r.figures(), again.figures())


def test_a_model_file_of_other_features_is_refused_by_name(tmp_path):
    if not sv.SHIPPED_PATH.exists():
        pytest.skip("no shipped street models")
    path = tmp_path / "old.npz"
    with np.load(sv.SHIPPED_PATH) as f:
        arrays = {k: f[k] for k in f.files}
    record = json.loads(str(arrays.pop("record")))
    record["features"] = record["features"][:-1]
    np.savez(path, **arrays, record=np.array(json.dumps(record)))
    with pytest.raises(ValueError, match="other features than this version's"):
        sv.read_models(path)
    shutil.copy(sv.SHIPPED_PATH, tmp_path / "whole.npz")
    assert sv.read_models(tmp_path / "whole.npz").record["features"] == list(sv.FEATURES)
