"""Training the open-face street models (cpstats.ofc.street_training, _train_kernel): exact labels
before the last street, the flat trees' numba prediction equal to scikit-learn's, training determined
by its seed whatever the worker count, and fitting without scikit-learn refused before any work."""

import numpy as np
import pytest

from cpstats.errors import OptionError
from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc import street_training as st
from cpstats.ofc import street_values as sv
from cpstats.ofc.entry_value import play_args
from cpstats.engine.registry import get_preset

PINE = get_preset("ofc-pineapple")
F = {name: i for i, name in enumerate(sv.FEATURES)}


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


@pytest.mark.parametrize("options, words", [
    ({"workers": 10**5}, "workers=100,000 is invalid: at most"),
    ({"hands": 10**15}, "self-play hands is invalid: at most 50,000"),
    ({"draws": 10**6, "hands": 1}, r"draws 1,000,000 x hands 1 \+ 7 anchors x anchor_hands 300"),
    ({"anchor_hands": 10**4}, r"\+ 7 anchors x anchor_hands 10,000 = 74,200 self-play hands is invalid"),
])
def test_workers_and_sizes_are_bounded_before_any_self_play(monkeypatch, options, words):
    """At most this machine's cores, and at most MAX_TRAINING_HANDS hands in all (their rows' memory):
    one line before the first variant is drawn or played."""
    pytest.importorskip("sklearn")
    monkeypatch.setattr(st, "training_variants", lambda *a: pytest.fail("drew the variants"))
    monkeypatch.setattr(st, "_play_task", lambda *a: pytest.fail("played"))
    with pytest.raises(OptionError, match=words):
        st.train_street_models(**options)


def test_a_written_model_file_reads_back_and_says_how_to_make_it_again(monkeypatch, tmp_path):
    """``write_models`` writes the file ``--out`` names (nothing into the package by default), its
    record's command names that file, and it passes every check a file read is put through."""
    pytest.importorskip("sklearn")
    monkeypatch.setitem(st.TREE_SETTINGS, "min_samples_leaf", 2)
    monkeypatch.setitem(st.TREE_SETTINGS, "max_iter", 4)
    path = tmp_path / "my models.npz"
    record = st.write_models(path, variants=["ofc-pineapple", "ofc-classic"], hands=2, seed=3)
    assert record["command"].endswith(f"--seed 3 --out '{path}'")
    models = sv.read_models(path)
    assert models.record["command"] == record["command"] and set(models.trees) == {"pineapple", "classic"}
