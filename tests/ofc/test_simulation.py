"""OFC simulation and results (issue 17.4): blocks and seeds, executors, resume, Parquet rows,
Fantasyland carried within a block, figures with intervals, paired comparisons."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from cpstats.cards.blocks import block_seed, root_seed
from cpstats.errors import OptionError
from cpstats.hands.setting import parse_setting
from cpstats.ofc import _board_kernel as bk
from cpstats.ofc import simulation as sim
from cpstats.ofc.board import table_args
from cpstats.ofc.play import PlayedHands, play_hands
from cpstats.engine.registry import get_preset
from cpstats.ofc.settlement import settle_hands

KW = {"setter": "random", "block_deals": 150}


def same(a, b):
    a, b = a.summary.to_arrays(), b.summary.to_arrays()
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def fig(result, metric, column="estimate"):
    return float(result.figures().set_index("metric").at[metric, column])


def test_blocks_replay_from_their_seed_child():
    """Block i plays from SeedSequence child i after the burn-in: the run's foul count and nets
    equal play_hands driven by the same children (seat 0 first on every hand, as play_hands plays)."""
    FIXED = "ofc-pineapple(button=fixed)"
    r = sim.simulate(FIXED, 400, rng=11, burn_in=3, **KW)
    root = root_seed(11)
    fouls = net = 0
    for block, size in enumerate((150, 150, 100)):
        gen = np.random.default_rng(block_seed(root, block))
        start = play_hands(FIXED, 3, gen, strategies="random").next_fantasy
        played = play_hands(FIXED, size, gen, strategies="random", fantasy=start)
        s = settle_hands(FIXED, played.boards)
        fouls += s.fouled.sum()
        net += s.net[:, 0].sum()
    assert r.summary.fouls_by_batch.sum() == fouls and r.summary.net_by_batch[:, 0].sum() == net
    assert r.deals == 400 and r.metadata["burn_in"] == 3


def test_executors_give_identical_numbers():
    """None, a thread pool and the run split into different windows give the same summaries."""
    serial = sim.simulate("ofc-pineapple", 500, rng=7, **KW)
    with ThreadPoolExecutor(2) as pool:
        pooled = sim.simulate("ofc-pineapple", 500, rng=7, executor=pool, **KW)
    same(serial, pooled)


def test_dask_executor_matches_serial():
    """A Dask client's executor gives the serial numbers."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        result = sim.simulate("ofc-pineapple", 450, rng=21, executor=client.get_executor(), **KW)
    same(result, sim.simulate("ofc-pineapple", 450, rng=21, **KW))


def test_resume_keeps_finished_blocks_and_redoes_foreign_ones(tmp_path):
    """A resumed run equals an uninterrupted one; a block of another run is done again; a
    folder of another run is refused without resume."""
    full = sim.simulate("ofc-pineapple", 450, rng=5, out=tmp_path / "a", **KW)
    (tmp_path / "a" / "block-000001.npz").unlink()
    resumed = sim.simulate("ofc-pineapple", 450, rng=5, out=tmp_path / "a", resume=True, **KW)
    same(full, resumed)
    assert resumed.metadata["blocks_redone"] == 0
    sim.simulate("ofc-pineapple", 450, rng=6, out=tmp_path / "b", **KW)
    foreign = (tmp_path / "b" / "block-000002.npz").read_bytes()
    (tmp_path / "a" / "block-000002.npz").write_bytes(foreign)
    again = sim.simulate("ofc-pineapple", 450, rng=5, out=tmp_path / "a", resume=True, **KW)
    same(full, again)
    assert again.metadata["blocks_redone"] == 1
    with pytest.raises(OptionError, match="holds blocks of another run"):
        sim.simulate("ofc-pineapple", 450, rng=5, out=tmp_path / "b", **KW)
    with pytest.raises(OptionError, match=r"already holds blocks of this run: pass resume=True \(--resume\)"):
        sim.simulate("ofc-pineapple", 450, rng=6, out=tmp_path / "b", **KW)
    with pytest.raises(OptionError, match="differs in entropy"):
        sim.simulate("ofc-pineapple", 450, rng=9, out=tmp_path / "b", resume=True, **KW)


def test_parquet_rows_agree_with_the_summary(tmp_path):
    """Rows (one a hand and seat) add up to the summary; the first blocks of a longer run are
    the shorter run's hands."""
    r = sim.simulate("ofc-pineapple", 300, rng=3, out=tmp_path / "a", keep_hands=True, **KW)
    rows = r.rows()
    assert len(rows) == 600 and rows["hand"].tolist()[::2] == list(range(300))
    assert rows["foul"].sum() == r.summary.fouls_by_batch.sum()
    assert rows.groupby("seat")["net"].sum().tolist() == r.summary.net_by_batch.sum(axis=0).tolist()
    longer = sim.simulate("ofc-pineapple", 450, rng=3, out=tmp_path / "b", keep_hands=True, **KW).rows()
    assert longer.iloc[:600].equals(rows)


def test_resume_writes_the_rows_a_finished_block_lacks(tmp_path):
    """A run resumed with rows over blocks played without them plays those blocks again (same
    numbers) and writes their rows; rows() of a run without them is one line naming the fix."""
    bare = sim.simulate("ofc-pineapple", 300, rng=3, out=tmp_path, **KW)
    with pytest.raises(OptionError, match=r"2 of the run's 2 blocks have no rows .*resume=True"):
        bare.rows()
    resumed = sim.simulate("ofc-pineapple", 300, rng=3, out=tmp_path, resume=True, keep_hands=True, **KW)
    same(bare, resumed)
    assert resumed.metadata["blocks_redone"] == 0
    rows = resumed.rows()
    assert len(rows) == 600 and rows["foul"].sum() == bare.summary.fouls_by_batch.sum()


def test_figures_refuse_a_pace_or_precision_that_is_not_positive():
    r = sim.simulate("ofc-pineapple", 60, rng=1, **KW)
    for kwargs in ({"hands_per_hour": -5}, {"precision": 0}, {"precision": float("nan")}):
        with pytest.raises(OptionError, match=r"is invalid: a number > 0 is needed"):
            r.figures(**kwargs)
    assert r.figures().set_index("metric").at["hands_seat0", "method"] == "hands to +-1: (z sd / 1)^2"


def test_small_runs_say_what_their_intervals_are():
    """A mean that cannot be negative keeps its interval at or above 0 (and says it is clipped);
    a spread without the hands for an interval says so instead of naming a method."""
    table = sim.simulate("ofc-classic(players=4,button=fixed)", 40, setter="random", rng=1).figures().set_index("metric")
    royalty = table.loc[[m for m in table.index if m.startswith(("royalty", "rake_per"))]]
    assert (royalty["ci_low"] >= 0).all()
    assert "batch t (low end clipped at 0)" in set(royalty["method"])
    sd = table.loc["sd_seat0"]
    assert np.isnan(sd["ci_low"]) and sd["method"] == "too few hands"
    assert table.loc["mean_seat0", "ci_low"] < 0 < table.loc["mean_seat0", "ci_high"]  # signed: no clip


def test_symmetric_seats_mean_within_five_standard_errors():
    """Random against random: each seat's mean is 0 in expectation; the estimate lies within
    5 SE (SE from the batch interval: half-width / t(29) at 95%) and the seats sum to 0."""
    r = sim.simulate("ofc-pineapple", 1500, rng=13, **KW)
    f = r.figures().set_index("metric")
    half = (f.at["mean_seat0", "ci_high"] - f.at["mean_seat0", "ci_low"]) / 2
    se = half / 2.045
    assert abs(f.at["mean_seat0", "estimate"]) < 5 * se
    assert f.at["mean_seat0", "estimate"] == pytest.approx(-f.at["mean_seat1", "estimate"])
    assert 0.55 < f.at["foul_rate", "estimate"] < 0.8  # random placement fouls most boards
    assert f.at["sd_seat0", "ci_low"] < f.at["sd_seat0", "estimate"] < f.at["sd_seat0", "ci_high"]


# A stand-in for the play layer's entry a block calls (this file only; seat 0 first, button=fixed): seat 0 always sets a
# clean QQ board (no stay), seat 1 always fouls, so seat 0 alternates normal / Fantasyland and
# every figure is exact.
QQ = parse_setting("Qs Qd 2c / 5h 5d 5c 9s Td / Ah Kh Qh Jh 9h").astype(np.int8)
FOUL = parse_setting("Ks Kc 2d / 6h 6d 8s 9c Tc / As Ad 7c Jc 3s").astype(np.int8)


def _stand_in(v, hands, rng, *, codes, samples, top, state, table=None):
    tables = table_args(v)
    state = np.array(state)
    boards = np.empty((hands, 2, 13), dtype=np.int8)
    cards = np.zeros((hands, 2), dtype=np.int64)
    ranks = np.empty(3, dtype=np.int64)
    for h in range(hands):
        rng.permutation(52)
        cards[h] = state
        boards[h] = QQ, FOUL
        for p in range(2):
            bk.board_ranks(boards[h, p], ranks)
            _, _, fl, stays = bk.board_value(*ranks, *tables)
            state[p] = bk.next_fantasy(bool(state[p]), fl, stays, tables[9])
    return PlayedHands(boards, cards, state)


def test_fantasyland_figures_with_a_stand_in_player(monkeypatch):
    """Fantasyland carries from hand to hand within a block (after an even burn-in seat 0 starts
    normal): entry 1/3 of normal hands, a quarter of boards in Fantasyland, no stays, and the
    value of Fantasyland 4/3 of seat 0's result (pooled normal hands include seat 1's losses)."""
    monkeypatch.setattr(sim, "_play", _stand_in)
    r = sim.simulate("ofc-pineapple(button=fixed)", 600, rng=1, setter="random", block_deals=200, burn_in=8)
    settled = settle_hands("ofc-pineapple", np.array([QQ, FOUL]))
    x = int(settled.net[0])
    assert x == 6 + 13  # three rows, a scoop, royalties 7 + 2 + 4
    assert fig(r, "fl_entry_rate") == pytest.approx(1 / 3)
    assert fig(r, "fl_share") == pytest.approx(0.25)
    assert fig(r, "fl_stay_rate") == 0
    assert fig(r, "fl_value") == pytest.approx(4 * x / 3)
    assert fig(r, "foul_rate") == 0.5 and fig(r, "royalty") == pytest.approx(13 / 2)
    assert r.entry_cards().set_index("cards").at[14, "entries"] == 300


def test_rake_burden(monkeypatch):
    """Time rake 6 a seat-hour at 30 hands an hour: 0.2 a seat a hand, 6 an hour; per-point
    rake 5% capped at 0.5: seat 0 wins 19 points a hand, so 0.5 a hand on 2 seats."""
    monkeypatch.setattr(sim, "_play", _stand_in)
    v = get_preset("ofc-pineapple").replace(rake="time", rake__amount=6, button="fixed")
    r = sim.simulate(v, 60, rng=1, setter="random", block_deals=60)
    assert fig(r, "rake_per_seat_per_hand") == pytest.approx(0.2) and fig(r, "rake_per_seat_per_hour") == pytest.approx(6)
    v = get_preset("ofc-pineapple").replace(rake="percent", rake__percent=0.05, rake__cap=0.5, button="fixed")
    r = sim.simulate(v, 60, rng=1, setter="random", block_deals=60)
    assert fig(r, "rake_per_seat_per_hand") == pytest.approx(0.25)
    assert fig(r, "rake_share") == pytest.approx(0.5 / 19)


def test_compare_pairs_variants_on_common_decks():
    """The same variant twice differs by exactly 0 with a zero-width interval (common decks);
    progressive Fantasyland against plain Pineapple shares the hands' first decks."""
    df = sim.compare(["ofc-pineapple", "ofc-pineapple(name=copy)"], 300, rng=4, **KW)
    two = df[df["label"] == "ofc-pineapple(name=copy)"].set_index("metric")
    assert two["diff"].notna().sum() > 15 and (two["diff"].dropna().abs() < 1e-12).all()
    assert (two.loc["foul_rate", ["diff_ci_low", "diff_ci_high"]].abs() < 1e-12).all()
    df = sim.compare(["ofc-pineapple", "ofc-pineapple-progressive"], 300, rng=4,
                     labels=["plain", "progressive"], **KW)
    assert set(df["label"]) == {"plain", "progressive"} and set(df["strategy"]) == {"random/random"}
    row = df[(df["label"] == "progressive") & (df["metric"] == "foul_rate")].iloc[0]
    assert row["diff_ci_low"] <= row["diff"] <= row["diff_ci_high"]


@pytest.mark.parametrize("kwargs,message", [
    ({"hands": 0}, r"deals=0 is invalid"),
    ({"setter": ("random",)}, r"one setter, or one per seat \(2 seats\)"),
    ({"block_deals": 0}, r"block_deals=0 is invalid"),
    ({"burn_in": -1}, r"burn_in=-1 is invalid"),
    ({"variant": "ofc-pineapple(players=5)"}, r"players=5 is invalid"),
])
def test_bad_arguments(kwargs, message):
    """Bad arguments are one OptionError line."""
    args = {"variant": "ofc-pineapple", "hands": 10, "setter": "random", **kwargs}
    with pytest.raises(OptionError, match=message):
        sim.simulate(args.pop("variant"), args.pop("hands"), **args)
    with pytest.raises(OptionError, match="at least two variants"):
        sim.compare(["ofc-pineapple"], 10)
    with pytest.raises(OptionError, match=r"variants='ofc-pineapple' is invalid: a list"):
        sim.compare("ofc-pineapple", 10)


def test_a_resume_redoes_blocks_played_by_another_rollout(tmp_path, monkeypatch):
    """The strategy a name plays is part of a run's identity: a folder of blocks played when ``rollout``
    was told another Fantasyland value is another run, refused on resume in one line naming ``play``."""
    from cpstats.ofc import entry_value

    first = sim.simulate("ofc-pineapple", 8, rng=4, out=tmp_path, block_deals=4)
    again = sim.simulate("ofc-pineapple", 8, rng=4, out=tmp_path, block_deals=4, resume=True)
    assert again.metadata["blocks_redone"] == 0 and "entry baseline" in first.metadata["play"]
    monkeypatch.setattr(entry_value, "_shipped_baseline", lambda v: 1.0)
    with pytest.raises(OptionError, match=r"holds blocks of another run \(differs in play\)"):
        sim.simulate("ofc-pineapple", 8, rng=4, out=tmp_path, block_deals=4, resume=True)
    changed = sim.simulate("ofc-pineapple", 8, rng=4, out=tmp_path / "new", block_deals=4)
    assert changed.metadata["run_digest"] != first.metadata["run_digest"]


def test_a_comparison_never_mixes_two_plays(monkeypatch):
    """Every point of a compare or a sweep names its play and models; a point played by other
    street models (here: one variant's file unreadable) makes the whole comparison one line, not a
    table whose differences would measure the play instead of the rule. One designer's rule set
    (QQ=8) throughout: its entry value is solved once (about 10 s each)."""
    import cpstats
    from cpstats.ofc import sweep as ofc_sweep

    real = sim.model_identity

    def identity(v, path=None):
        if v.royalties.front_pairs[10] == 8:  # royalties.front.QQ=8 reads another file
            return {"file": "other.npz", "digest": "0123456789ab", "in_range": True, "note": None}
        return real(v, path)

    table = sim.compare(["ofc-pineapple", "ofc-pineapple(royalties.front.QQ=8)"], 4, setter="fast", rng=1,
                        block_deals=4)
    digest = real(get_preset("ofc-pineapple"))["digest"]
    assert table.attrs["play"] == f"fast, street models {digest}"
    assert set(m["digest"] for m in table.attrs["street_models"].values()) == {digest}
    with monkeypatch.context() as patched:
        patched.setattr(sim, "model_identity", identity)
        with pytest.raises(OptionError, match=r"^compare would mix two plays: 'ofc-pineapple' is played by fast, "
                                              rf"street models {digest} and .*QQ=8\)' by fast, street models 0123456789ab"):
            sim.compare(["ofc-pineapple", "ofc-pineapple(royalties.front.QQ=8)"], 4, setter="fast", rng=1,
                        block_deals=4)
        with pytest.raises(OptionError, match=r"^this sweep would mix two plays: '7' is played by .* and '8' by"):
            cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [7, 8], deals=4, setter="fast", rng=1)
    swept = ofc_sweep.run_sweep(get_preset("ofc-pineapple"), "royalties.front.QQ", [7, 8], deals=4, setter="fast",
                                rng=1)
    assert swept.attrs["play"].endswith(f"street models {digest}") and len(swept.attrs["street_models"]) == 2


def test_a_variant_is_told_open_face_by_its_name_in_any_case():
    from cpstats.ofc.rules import is_ofc_variant

    assert is_ofc_variant("OFC-classic") and is_ofc_variant("ofc-pineapple(players=3)")
    assert not is_ofc_variant("1-6") and not is_ofc_variant(None)
