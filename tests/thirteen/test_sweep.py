"""Rule sweeps on common deals (cpstats.thirteen.sweep)."""

import numpy as np
import pytest
from scipy import stats as st

from cpstats import OptionError
from cpstats.cards.blocks import root_seed
from cpstats.workbench import simulate
from cpstats.thirteen.metrics import BEFORE_CHARGES
from cpstats.thirteen.paired import paired_metrics
from cpstats.thirteen.sweep import METRICS, PAIRED_NAMES, parameter_label
from cpstats.workbench import sweep
from cpstats.engine.points import sweep_variants
from cpstats.thirteen.play import EvSetter

KW = dict(setter="greedy", block_deals=1_500)


def _rows(table, value, metric):
    rows = table[(table["value"] == value) & (table["metric"] == metric)]
    assert len(rows) >= 1
    return rows.iloc[0]


def _recorded_points(monkeypatch) -> list:
    """The sweep's points as (keep_hands asked for, result run with its hands kept): ``simulate``
    wrapped so the test sees the cards every point was dealt."""
    import cpstats.thirteen.run as run

    real, seen = run.simulate, []

    def simulate(*args, **kwargs):
        seen.append((kwargs.get("keep_hands", False), real(*args, **{**kwargs, "keep_hands": True})))
        return seen[-1][1]

    monkeypatch.setattr(run, "simulate", simulate)
    return seen


def _cards(result) -> np.ndarray:
    return np.sort(np.concatenate([k["settings"] for k in result.kept]), axis=-1)


def test_every_point_deals_the_same_decks(monkeypatch):
    """One root seed for every point, so every point holds the same hands (the cards of
    each hand, whatever the setting); with another seed they differ. The points keep no hands
    (refactor of session 4: the figures come from the summary's per-batch arrays)."""
    seen = _recorded_points(monkeypatch)
    sweep("2-4(scoring.scoop_bonus=4)", "royalties.front_trips", [0, 10], deals=4_000, rng=5,
          metrics=["sd"], **KW)
    sweep("2-4", "royalties.front_trips", [0], deals=4_000, rng=6, metrics=["sd"], **KW)
    assert [keep for keep, _ in seen] == [False] * 3
    a, b, c = (r for _, r in seen)
    assert np.array_equal(_cards(a), _cards(b))
    assert not np.array_equal(_cards(a), _cards(c))
    assert a.metadata["entropy"] == b.metadata["entropy"] == str(root_seed(5).entropy)


def test_a_players_sweep_deals_nested_hands_and_says_so(monkeypatch):
    """Over ``players`` the decks are the same, so seats 0 and 1 hold the same cards
    with 2 or 4 players (nested deals), and the table says the pairing is partial."""
    seen = _recorded_points(monkeypatch)
    table = sweep("2-4(home_run=false)", "players", [4, 3, 2], deals=2_000, rng=3,
                  metrics=["rake_per_hand", "sd"], **KW)
    four, three, two = (r for _, r in seen)
    assert np.array_equal(_cards(two), _cards(four)[:, :2])
    assert np.array_equal(_cards(three), _cards(four)[:, :3])
    assert table.attrs["pairing"] == "nested deals"
    assert list(table["variant"].unique()) == ["2-4(home_run=false)", "2-4(players=3,home_run=false)",
                                                "2-4(players=2,home_run=false)"]


def test_a_sweep_point_equals_a_direct_simulation_of_its_variant():
    """Each point's figures are those of ``simulate`` of that variant with the same seed:
    SD (seat average), rake per hand, scoop rate (every live pair), foul rate (every hand set)."""
    base = "2-4(rake=percent,rake.percent=0.05)"
    table = sweep(base, "rake.cap", [0.5, 2], deals=3_000, rng=9,
                  metrics=["sd", "rake_per_hand", "scoop_rate", "foul_rate", "home_run_rate"], **KW)
    for cap in (0.5, 2):
        r = simulate(f"2-4(rake=percent,rake.percent=0.05,rake.cap={cap})", 3_000, rng=9, **KW)
        s = r.summary
        assert _rows(table, cap, "sd")["estimate"] == pytest.approx(float(r.moments()["sd"].mean()),
                                                                    rel=1e-12)
        assert _rows(table, cap, "rake_per_hand")["estimate"] == pytest.approx(
            float(r.house()["rake_per_hand"].iloc[0]), rel=1e-12)
        assert _rows(table, cap, "scoop_rate")["estimate"] == s.scoops.sum() / s.pairs_played.sum()
        assert _rows(table, cap, "foul_rate")["estimate"] == s.fouls.sum() / (3_000 * 4)
        assert _rows(table, cap, "home_run_rate")["estimate"] == s.home_runs.sum() / (3_000 * 4)
    assert _rows(table, 2, "rake_per_hand")["estimate"] > _rows(table, 0.5, "rake_per_hand")["estimate"]


def test_ev_points_play_their_own_tables_or_borrowed_ones():
    """Issue 16.3 (tables as issue 15 decided): with ev a point of a preset's rules plays the
    shipped tables; ``tables=`` lends one variant's tables to every other point (no training), and
    each point's setter says so."""
    own = sweep("2-4(rake=percent)", "rake.percent", [0.05, 0.1], deals=300, setter="ev", rng=1,
                metrics=["sd"])  # a house charge moves no setting: 2-4's own tables at both points
    assert own.attrs["setters"] == ["ev (tables trained for 2-4, shipped)"] * 2
    lent = sweep("2-4", "scoring.scoop_bonus", [0, 4], deals=300, setter=EvSetter(tables="2-4"), rng=1,
                 metrics=["sd"])
    assert lent.attrs["setters"] == ["ev (tables trained for 2-4, shipped)",
                                     "ev (tables trained for 2-4, borrowed)"]


def test_a_change_never_seen_has_no_interval():
    """A rake cap far above any pot changes no deal of the run: the house's figures differ by 0, but
    the run cannot tell a rule that never matters from one that matters rarely, so they have no
    interval and say ``too few events`` (no batch differs) and how many deals would give one, at
    least; the figures before house charges (the play's: a cap charges, it does not deal or set)
    and the baseline's own differences are exactly 0 with a zero-width interval."""
    table = sweep("2-4(rake=percent,rake.percent=0.05)", "rake.cap", [1_000, 5_000],
                  deals=2_000, rng=4, **KW)
    n = len(table) // 2
    base, cap = table.iloc[:n], table.iloc[n:]
    assert (base[["diff", "diff_ci_low", "diff_ci_high"]].to_numpy() == 0).all()
    assert (base["diff_note"] == "").all()
    play = cap["metric"].isin(BEFORE_CHARGES)
    house = cap[~play]
    assert set(house["metric"]) == {"sd_after_charges", "rake_per_hand"}
    assert (house["diff"] == 0).all() and house["diff_ci_low"].isna().all() and (house["diff_events"] == 0).all()
    assert house["diff_note"].str.startswith("too few events: no batch differs").all()
    assert (house["deals_for_interval"] > 2_000).all()
    assert play.sum() == 4 and (cap.loc[play, ["diff", "diff_ci_low", "diff_ci_high"]].to_numpy() == 0).all()
    assert (table.groupby("metric")["estimate"].nunique() == 1).all()


def test_royalties_paid_follow_the_amount_and_move_sd_with_a_paired_interval():
    """With greedy (whose settings ignore royalties) the royalties paid are linear in
    the front-trips amount, start at 0, and the paired SD difference's interval lies inside the
    width of the unpaired one (common deals cancel the shared noise); 20,000 deals meet front
    trips in enough batches for an interval."""
    table = sweep("2-4", "royalties.front_trips", [0, 2, 10], deals=20_000, rng=2,
                  metrics=["royalty_per_hand", "sd"], **KW)
    paid = {v: _rows(table, v, "royalty_per_hand")["estimate"] for v in (0, 2, 10)}
    assert paid[0] == 0 and paid[2] > 0
    assert paid[10] == pytest.approx(5 * paid[2], rel=1e-12)
    sd = _rows(table, 10, "sd")
    assert sd["diff"] > 0
    assert sd["diff_ci_high"] - sd["diff_ci_low"] < sd["ci_high"] - sd["ci_low"]


def test_intervals_are_student_t_on_batch_values_and_cover_a_symmetric_mean():
    """Seat 0's mean in a symmetric game is 0 in expectation: its interval is t(29) on
    the batch means (half-width equal to simulate's), and the estimate is within 5 of its SEs
    (SE = half-width / t(0.975, 29)), the label says the game is symmetric."""
    table = sweep("1-6", "scoring.scoop_bonus", [3, 6], deals=3_000, rng=12, metrics=["mean_seat0"],
                  **KW)
    r = simulate("1-6", 3_000, rng=12, **KW)
    m = r.moments().iloc[0]
    row = _rows(table, 3, "mean_seat0")
    assert row["ci_high"] - row["estimate"] == pytest.approx(m["ci_high"] - m["mean"], rel=1e-9)
    se = (row["ci_high"] - row["estimate"]) / st.t.ppf(0.975, 29)
    assert abs(row["estimate"]) < 5 * se
    assert "symmetric" in row["label"]


def test_banked_sweep_shows_the_house_edge_and_says_the_bank_mean_is_before_commission():
    """A banked sweep of the commission reports the house edge by default, the one of
    ``house()`` with its interval, rising with the commission; the bank's mean, the same at every
    commission (nets between the seats), says it is before commission. An unbanked game has no
    house edge: asking for one is one line; fewer than 2 deals is refused (no interval)."""
    table = sweep("banked", "bank.commission", [0, 0.05], deals=2_000, rng=8, **KW)
    r = simulate("banked(bank.commission=0.05)", 2_000, rng=8, **KW)
    house = r.house().iloc[0]
    edge = _rows(table, 0.05, "house_edge")
    assert edge["estimate"] == pytest.approx(house["house_edge"], rel=1e-12)
    # house() weights batch means by size, the sweep's batch ratios are unweighted: batches of
    # 66 and 67 deals move the half-width by under 1e-3
    assert edge["ci_low"] == pytest.approx(house["house_edge_ci_low"], rel=1e-3)
    assert edge["diff_ci_low"] > 0
    assert "before commission" in _rows(table, 0.05, "mean_seat0")["label"]
    assert _rows(table, 0.05, "mean_seat0")["estimate"] == _rows(table, 0, "mean_seat0")["estimate"]
    assert "house_edge" not in set(sweep("2-4", "scoring.scoop_bonus", [0, 1], deals=300, rng=1,
                                         **KW)["metric"])
    with pytest.raises(OptionError, match=r"^metrics='house_edge' is invalid for 2-4: a house edge is a banked"):
        sweep("2-4", "scoring.scoop_bonus", [0, 1], deals=300, metrics=["house_edge"], **KW)
    with pytest.raises(OptionError, match=r"^deals=1 is invalid: a whole number >= 2"):
        sweep("2-4", "scoring.scoop_bonus", [0, 1], deals=1, **KW)


def test_a_rare_difference_is_drawn_hollow_and_printed_with_the_deals_it_needs(tmp_path):
    """At 2,000 deals front trips are met in one batch (seed 3): the difference chart draws those
    points hollow with no band and says ``no interval: too few events`` and the deals a point
    would need; the widget's table and the command line say it too, never ``[0, 0]``."""

    import matplotlib.pyplot as plt

    from cpstats.apps.sweep_chart import plot_sweep
    from cpstats.apps.cli.sweep import _format
    from cpstats.apps.widgets.sweep import sweep_table_html

    table = sweep("2-4", "royalties.front_trips", [0, 10], deals=2_000, rng=3,
                  metrics=["royalty_per_hand"], **KW)
    fig = plot_sweep(table, kind="difference")
    ax = fig.axes[0]
    hollow = [line for line in ax.lines if line.get_markerfacecolor() == "white"]
    assert len(hollow) == 1 and list(hollow[0].get_xdata()) == [10.0]
    words = " ".join(t.get_text() for t in ax.texts)
    assert "no interval: too few events" in words and "about 23,921 deals a point" in words
    plt.close(fig)
    html = sweep_table_html(table)
    assert "too few events" in html and "[+0, +0]" not in html
    printed = _format(table, "table")
    assert "royalties.front_trips=10, royalty_per_hand: too few events: 1 of 30 batches" in printed


def test_banked_sweep_shows_the_bank_and_the_house_take_of_a_commission():
    """A banked sweep of the commission reports the bank's mean by default and the
    house take per hand is paired.py's: the commission per hand of ``house()`` (0 without one),
    the bank's own gain being its mean, ``mean_seat0``."""
    table = sweep("banked", "bank.commission", [0, 0.05], deals=2_000, rng=8, **KW)
    assert "mean_seat0" in set(table["metric"])
    assert _rows(table, 0, "mean_seat0")["label"].startswith("The bank's (seat 0's) mean")
    r = simulate("banked(bank.commission=0.05)", 2_000, rng=8, **KW)
    assert _rows(table, 0.05, "rake_per_hand")["estimate"] == pytest.approx(
        float(r.house()["rake_per_hand"].iloc[0]), rel=1e-9)
    assert _rows(table, 0.05, "mean_seat0")["estimate"] == float(r.moments()["mean"].iloc[0])
    assert _rows(table, 0, "rake_per_hand")["estimate"] == 0
    assert _rows(table, 0.05, "rake_per_hand")["diff"] > 0


@pytest.mark.parametrize("base, parameter, values, pace", [
    ("banked", "bank.commission", [0, 0.05], None),
    ("2-4(royalties.front_trips=2,rake=time,rake.amount=6)", "royalties.front_trips", [2, 6], 45)])
def test_sweep_figures_are_paired_metrics_figures(base, parameter, values, pace):
    """Session 4 refactor: every sweep figure, its interval and its paired difference are those of
    ``paired_metrics`` on the same points (the name mapped by PAIRED_NAMES; one name a figure in
    both), so the two cannot drift apart: in a banked game the house take is the
    commission, a time fee's take per hand is priced at the pace."""
    metrics = [m for m in METRICS if m not in ("mean_seat0", "house_edge")]
    table = sweep(base, parameter, values, deals=1_500, rng=7, metrics=metrics, hands_per_hour=pace,
                  **KW)
    assert table["metric"].tolist()[:len(metrics)] == metrics
    runs = [simulate(v, 1_500, rng=7, **KW) for v in table["variant"].unique()]
    paired = paired_metrics(runs, hands_per_hour=pace).set_index(["run", "metric"])
    cols = ["estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]
    for i, value in enumerate(values):
        for m in metrics:
            mine = _rows(table, value, m)[cols].to_numpy(float)
            theirs = paired.loc[(i, PAIRED_NAMES[m]), cols].to_numpy(float)
            assert np.allclose(mine, theirs, rtol=1e-12, atol=1e-15, equal_nan=True), (value, m)


def test_time_fee_per_seat_hour_is_the_fee_and_default_metrics_follow_the_pace():
    """A time fee of A a seat-hour is A per seat-hour at any pace (house take per
    seat-hour, exact) and the per-seat-hour metric is a default only with ``hands_per_hour``."""
    table = sweep("2-4(rake=time,rake.amount=6)", "rake.amount", [6, 9], deals=600, rng=1,
                  hands_per_hour=45, **KW)
    assert _rows(table, 9, "rake_per_seat_per_hour")["estimate"] == pytest.approx(9.0, rel=1e-12)
    assert _rows(table, 9, "rake_per_seat_per_hour")["diff"] == pytest.approx(3.0, rel=1e-12)
    plain = sweep("2-4", "scoring.scoop_bonus", [0, 1], deals=300, rng=1, **KW)
    assert set(plain["metric"]) == {"sd", "scoop_rate", "royalty_per_hand", "rake_per_hand",
                                    "foul_rate"}


@pytest.mark.parametrize("parameter, values, match", [
    ("royalties.front_trip", [1, 2],
     r"^parameter='royalties.front_trip' is invalid: .*royalties.front_trips"),
    ("name", [1], r"^parameter='name' is invalid"),
    ("royalties.front_trips", [2, -1], r"^royalties.front_trips=-1 is invalid: units must be >= 0"),
    ("players", [4, 5], r"^players=5 is invalid: 2, 3 or 4 players"),
    ("rake.percent", [0.05], r"^rake.percent=0.05 is invalid: the none rake model"),
    ("scoring.scoop_bonus", ["lots"], r"^scoring.scoop_bonus='lots' is invalid: expected a number"),
    ("surrender", [], r"^values=\[\] is invalid"),
])
def test_bad_parameters_and_values_are_one_line(parameter, values, match):
    """An unknown parameter or a bad value is one OptionError line naming it and what
    is allowed, raised before anything is simulated."""
    with pytest.raises(OptionError, match=match) as err:
        sweep_variants("2-4", parameter, values)
    assert "\n" not in str(err.value)


def test_numpy_values_are_plain_numbers_in_the_table():
    """A numpy range of values (the usual way to write a sweep) is accepted and its
    values are plain Python numbers in the table and the variant strings."""
    table = sweep("2-4(rake=percent)", "rake.percent", np.array([0.02, 0.04]), deals=300, rng=1,
                  metrics=["rake_per_hand"], **KW)
    assert table["value"].tolist() == [0.02, 0.04]
    assert table["variant"].tolist() == ["2-4(rake=percent,rake.percent=0.02)",
                                         "2-4(rake=percent,rake.percent=0.04)"]


def test_bad_metrics_and_pace_are_one_line():
    """Unknown metrics and a pace of 0 are refused in one line before simulating."""
    with pytest.raises(OptionError, match=r"^metrics='sdd' is invalid \(did you mean 'sd'.*\): choose from "):
        sweep("2-4", "scoring.scoop_bonus", [3], deals=100, metrics=["sdd"], **KW)
    with pytest.raises(OptionError, match=r"^hands_per_hour=0 is invalid"):
        sweep("2-4", "scoring.scoop_bonus", [3], deals=100, hands_per_hour=0, **KW)
    assert set(METRICS) >= {"sd", "scoop_rate", "foul_rate", "royalty_per_hand"}


def test_parameter_labels_are_words():
    """Charts name the parameter in words."""
    assert parameter_label("royalties.front_trips") == "Royalty for front trips (units)"
    assert parameter_label("scoring.scoop_bonus") == "Scoop bonus (units)"
    assert parameter_label("rake.model") == "Rake model"
    assert parameter_label("naturals.dragon") == "Natural dragon pays (units)"
    assert parameter_label("naturals.settlement") == "Naturals: settlement"


@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_a_surrender_sweep_refuses_a_baseline_that_never_surrenders(strategy):
    """The baselines never surrender: every point would be the same game and every difference a
    silent 0, so the sweep says so before anything runs."""
    with pytest.raises(OptionError, match=r"the baselines never surrender.*setter='ev'"):
        sweep("2-4", "surrender", ["none", 2, 3], deals=300, setter=strategy, rng=1)


@pytest.mark.parametrize("variant, parameter, values, match", [
    ("2-4", "players", [3, 3], r"^players=3 is given twice: give each value once \(a repeat would play the same game again\)$"),
    ("2-4", "players", [3, 2, 3.0], r"^players=3 and players=3.0 are the same rules: give each value once"),
    ("2-4", "royalties", ["R-FUTUREBET", "R-FUTUREBET"], r"^royalties=.R-FUTUREBET. is given twice: give each value once"),
    ("ofc-pineapple", "royalties.front.QQ", [1, 2, 1], r"^royalties.front.QQ=1 is given twice: give each value once"),
])
def test_a_value_given_twice_is_refused_before_anything_runs(variant, parameter, values, match, monkeypatch):
    """A sweep given a value twice played it twice (and solve refused the same): both games refuse
    it in one line, sweep_variants (every check before a run) and the sweep alike."""
    import importlib

    played = lambda *a, **k: pytest.fail("simulated")  # noqa: E731
    monkeypatch.setattr(importlib.import_module("cpstats.thirteen.sweep"), "_simulate_point", played)
    monkeypatch.setattr(importlib.import_module("cpstats.ofc.sweep"), "simulate", played)
    with pytest.raises(OptionError, match=match):
        sweep_variants(variant, parameter, values)
    with pytest.raises(OptionError, match=match):
        sweep(variant, parameter, values, deals=20, setter="random", rng=1)
