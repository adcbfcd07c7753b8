"""The learned open-face play's street models (cpstats/ofc/street_values.py, _value_kernel.py; their
rule numbers and training in test_rule_features.py and test_street_training.py).

The feature kernel is checked on hand-made boards, the plays (``rollout`` code 6, ``fast`` code 7)
for legal boards and their fallback (no readable model file: ``rollout-exact``'s play, with a
warning naming the file), and the shipped file.
"""

import json
import shutil
import warnings

import numpy as np
import pytest

from cpstats.cards import parse_cards
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc import rule_features as rf
from cpstats.ofc import street_training as st
from cpstats.ofc import street_values as sv
from cpstats.ofc.entry_value import play_args
from cpstats.ofc.play import play_hands
from cpstats.engine.registry import get_preset
from cpstats.ofc.rules import resolve_ofc_variant

PINE = get_preset("ofc-pineapple")
F = {name: i for i, name in enumerate(sv.FEATURES)}
#: A designer's rule outside the trained ranges (QQ 3..13): the next-card gain grows with it and a run
#: says it is outside; one rule set for both, so its entry value is solved once (about 10 s each).
RICH = "ofc-pineapple(royalties.front.QQ=20)"


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
    rich = resolve_ofc_variant(RICH)
    assert _features(board, cnt, variant=rich)[F["front_next"]] > np.mean(gains) + 0.5


def test_features_front_pair_and_wheel_run():
    """A paired front has no pairing outs; an ace counts low in a run (A-2-3-4 is four)."""
    board, cnt = _board("Kd Kc", "", "Ad 2c 3h 4s")
    x = _features(board, cnt)
    tabs = st.kernel_args(PINE)[2:]
    assert x[F["front_pair"]] == 11 and x[F["front_outs"]] == 0 and x[F["front_fl_outs"]] == 0
    assert x[F["back_run"]] == 4 and x[F["middle_cards"]] == 0
    assert x[F["board_h"]] == pytest.approx(_pk.board_h(board, cnt, *tabs))


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
    far = cpstats.simulate(RICH, 2, setter="fast", rng=3).metadata
    assert far["street_models"]["in_range"] is False and "royalties.front.QQ 20" in far["street_models"]["note"]
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


def _damaged(arrays: dict, damage: str) -> dict:
    """The shipped file's arrays with one kind of damage a file can carry and still read as a .npz."""
    arrays = dict(arrays)
    record = json.loads(str(arrays["record"]))
    if damage == "record a list":
        arrays["record"] = np.array(json.dumps([record]))
    elif damage == "ranges a list":
        arrays["record"] = np.array(json.dumps({**record, "ranges": [1, 2]}))
    elif damage == "a range not two numbers":
        arrays["record"] = np.array(json.dumps({**record, "ranges": {**record["ranges"], "royalties.front.QQ": "x"}}))
    elif damage == "NaN values":
        arrays["pineapple_values"] = np.full_like(arrays["pineapple_values"], np.nan)
    elif damage == "1e308 values":
        arrays["pineapple_values"] = np.full_like(arrays["pineapple_values"], 1e308)
    elif damage == "an infinite base":
        arrays["classic_base"] = np.where(np.isnan(arrays["classic_base"]), np.nan, np.inf)
    elif damage == "float nodes":
        arrays["pineapple_nodes"] = arrays["pineapple_nodes"].astype(float)
    elif damage == "a child pointing back":
        nodes = arrays["pineapple_nodes"].copy()
        inner = np.flatnonzero(nodes[:, 0] >= 0)[0]
        nodes[inner, 1] = inner  # a walk that never reaches a leaf
        arrays["pineapple_nodes"] = nodes
    elif damage == "a negative root":
        roots = arrays["classic_roots"].copy()
        roots[0, 0] = -7
        arrays["classic_roots"] = roots
    return arrays


@pytest.mark.parametrize("damage", ["record a list", "ranges a list", "a range not two numbers", "NaN values",
                                    "1e308 values", "an infinite base", "float nodes", "a child pointing back",
                                    "a negative root"])
def test_a_model_file_of_bad_types_or_values_is_named_and_set_aside(tmp_path, damage):
    """A file that reads as a .npz but holds a record of the wrong type, values that are not finite or
    not plausible (no feature or objective comes near a million), or trees that point outside or back
    is set aside like a truncated one: one warning names the file, the play falls back."""
    if not sv.SHIPPED_PATH.exists():
        pytest.skip("no shipped street models")
    with np.load(sv.SHIPPED_PATH) as f:
        arrays = {k: f[k] for k in f.files}
    path = tmp_path / f"{damage.replace(' ', '-')}.npz"
    np.savez(path, **_damaged(arrays, damage))
    with pytest.raises(ValueError):
        sv.read_models(path)
    with pytest.warns(sv.StreetModelWarning, match=rf"{path.name}.*cannot be read .*rollout-exact"):
        assert sv.street_model(PINE, path) is None
    assert sv.model_identity(PINE, path)["digest"] == "none"
    np.savez(tmp_path / "whole.npz", **_damaged(arrays, "none"))
    assert sv.read_models(tmp_path / "whole.npz").record == json.loads(str(arrays["record"]))
