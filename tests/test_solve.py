"""solve(): a rule number for a figure's target, with an interval on the answer; sequential precision."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import cpstats
from cpstats.errors import OptionError
from cpstats.simulation.paired import paired_metrics
from cpstats.simulation.solve import figure_table, invert_band, solve

BANKED = dict(variant="banked", parameter="bank.commission", metric="house_edge", target=0.015,
              bounds=(0.0, 0.1))
CAPPED = "2-4(rake=percent,rake.cap=1)"


def _edge(variant: str, deals: int, seed: int = 1) -> float:
    r = cpstats.simulate(variant, deals, strategy="greedy", rng=seed)
    return float(paired_metrics([r]).set_index("metric").at["house_edge", "estimate"])


def test_commission_is_solved_by_two_points_and_the_answer_meets_the_target():
    s = solve(**BANKED, deals=3_000, setter="greedy", rng=1)
    assert s.method.startswith("linear on common deals")
    # the edge is linear in the commission on common deals: the two bounds give the root exactly
    lo, hi = _edge("banked", 3_000), _edge("banked(bank.commission=0.1)", 3_000)
    assert s.value == pytest.approx(0.1 * (0.015 - lo) / (hi - lo), rel=1e-9)
    assert _edge(s.variant, 3_000) == pytest.approx(0.015, abs=1e-9)
    assert s.ci_low < s.value < s.ci_high
    # the interval is the band's inversion: the delta method's root +- half-width / slope
    at = s.evaluations.set_index("value").loc[s.value]
    half = (at["ci_high"] - at["ci_low"]) / 2 / ((hi - lo) / 0.1)
    assert (s.ci_high - s.ci_low) / 2 == pytest.approx(half, rel=0.05)
    assert not s.strategy_relevant and s.setter == "greedy"
    assert s.evaluations["deals"].eq(3_000).all() and s.evaluations["value"].is_unique


def test_capped_rake_percent_is_found_by_root_finding_on_common_deals():
    s = solve(CAPPED, "rake.percent", "rake_share", 0.08, bounds=(0.0, 0.3), deals=3_000,
              setter="greedy", rng=2)
    assert s.method.startswith("Brent's method")
    at = s.evaluations.set_index("value").loc[s.value]
    assert abs(at["estimate"] - 0.08) <= 0.1 * (at["ci_high"] - at["ci_low"]) / 2 + 1e-12
    assert s.ci_low < s.value < s.ci_high
    assert 0.08 < s.value < 0.1  # the cap takes part of the percent back


def test_integer_parameter_gives_the_smallest_value_clearing_the_target_and_its_ties():
    s = solve("2-4(royalties=R-FUTUREBET)", "royalties.front_trips", "sd", 7.75, bounds=(0, 30),
              deals=6_000, setter="greedy", rng=1)
    rows = s.evaluations.set_index("value")
    assert rows.at[s.value, "ci_low"] >= 7.75
    if s.value - 1 in rows.index:
        assert rows.at[s.value - 1, "ci_low"] < 7.75
    assert s.ci_high == s.value and s.ci_low == min([s.value, *s.ties])
    assert list(s.ties) == list(range(s.value - 1, s.ci_low - 1, -1))
    assert len(s.evaluations) < 31  # bisection, not every value


def test_at_most_takes_the_region_below_the_target():
    s = solve("2-4(royalties=R-FUTUREBET)", "royalties.front_trips", "sd", 7.8, bounds=(0, 30),
              deals=3_000, setter="greedy", rng=1, direction="at_most")
    rows = s.evaluations.set_index("value")
    assert rows.at[s.value, "ci_high"] <= 7.8
    assert s.value == s.ci_low and s.ci_high >= s.value


def test_float_bounds_on_a_whole_number_rule_are_searched_as_integers(monkeypatch):
    s = solve("banked", "players", "sd", 3.0, bounds=(2.0, 4.0), direction="at_most", deals=1_000,
              setter="greedy", rng=1)
    assert s.kind == "integer" and s.bounds == (2, 4)
    assert set(s.evaluations["value"]) <= {2, 3, 4} and all(type(x) is int for x in s.evaluations["value"])
    import cpstats.simulation.run as run

    monkeypatch.setattr(run, "simulate", lambda *a, **k: pytest.fail("played before the bounds were checked"))
    with pytest.raises(OptionError, match=r"bounds=\(2.5, 4.0\) is invalid: players is a whole number, "
                                          r"searched value by value: give whole ends, e.g. \(3, 4\)"):
        solve("banked", "players", "sd", 2.85, bounds=(2.5, 4.0), deals=1_000, setter="greedy", rng=1)


def test_which_rules_hold_whole_numbers_is_read_from_the_dataclasses():
    from cpstats.rules.games import holds_whole_numbers

    card, open_face = cpstats.load_variant("banked"), cpstats.load_variant("ofc-pineapple")
    assert [holds_whole_numbers(card, k) for k in ("players", "scoring.race_target", "royalties.front_trips",
                                                   "bank.commission", "rake.cap", "stakes")] == \
        [True, True, False, False, False, False]
    assert [holds_whole_numbers(open_face, k) for k in ("players", "royalties.front.QQ", "fantasyland.stay_cards",
                                                        "rake.percent", "fantasyland.cards")] == \
        [True, True, True, False, False]


def test_open_face_through_the_same_verbs():
    # a rake is levied after play: every candidate is played alike (a royalty would re-solve
    # Fantasyland for each, about 12 s a candidate)
    s = solve("ofc-pineapple(rake=percent)", "rake.percent", "rake_share", 0.05, bounds=(0.0, 0.2),
              deals=200, setter="greedy", rng=1)
    at = s.evaluations.set_index("value").loc[s.value]
    assert abs(at["estimate"] - 0.05) <= 0.1 * (at["ci_high"] - at["ci_low"]) / 2 + 1e-12
    assert s.variant.startswith("ofc-pineapple") and not s.strategy_relevant


def test_serial_and_threads_give_the_same_solution():
    one = solve(**BANKED, deals=2_000, setter="greedy", rng=5)
    with ThreadPoolExecutor(2) as pool:
        two = solve(**BANKED, deals=2_000, setter="greedy", rng=5, executor=pool)
    assert (one.value, one.ci_low, one.ci_high) == (two.value, two.ci_low, two.ci_high)


def test_frame_summary_and_plot():
    s = solve(**BANKED, deals=1_000, setter="greedy", rng=1)
    row = s.to_frame().iloc[0]
    assert row["value"] == s.value and row["evaluations"] == len(s.evaluations)
    assert "bank.commission = " in s.sentence() and "common deals" in s.sentence()
    ax = s.plot()
    assert ax.get_xlabel() == "bank.commission"


def test_invert_band_of_a_falling_curve():
    import pandas as pd

    f = pd.DataFrame({"value": [0.0, 1.0], "estimate": [1.0, 0.0], "ci_low": [0.9, -0.1],
                      "ci_high": [1.1, 0.1]})
    assert invert_band(f, 0.5) == pytest.approx((0.4, 0.6))


def test_figure_table_has_the_banked_house_edge_from_house_money():
    from cpstats.simulation import house

    r = cpstats.simulate("banked", 600, strategy="greedy", rng=1)
    edge, _ = house.bank_edge(r.variant, r.summary)
    assert figure_table(r).set_index("metric").at["house_edge", "estimate"] == pytest.approx(edge.estimate)


# -- bad input is one line ------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, match", [
    (dict(parameter="bank.comission"), r"parameter='bank.comission' is invalid.*did you mean 'bank.commission'"),
    (dict(metric="house_egde"), r"metric='house_egde' is not a figure of the 13-card game.*did you mean 'house_edge'"),
    (dict(bounds=(0.1, 0.0)), r"bounds=\(0.1, 0.0\) is invalid: the low end first"),
    (dict(bounds=(0.0, 1.5)), r"bounds=\(0.0, 1.5\) are outside the rule's limits: bank.commission=1.5"),
    (dict(bounds=0.1), r"bounds=0.1 is invalid"),
    (dict(metric="sd", target=-1.0), r"target=-1.0 is impossible: sd cannot be negative"),
    (dict(metric="scoop_rate", target=2.0), r"target=2.0 is impossible: scoop_rate is a share"),
    (dict(variant="2-4(rake=percent)", parameter="rake.percent"), r"metric='house_edge' is not defined for 2-4\(rake=percent\): it is the figure of a banked game"),
    (dict(direction="above"), r"direction='above' is invalid"),
    (dict(bounds=(0.0, 0.01)), r"target=0.015 cannot be reached for house_edge with bank.commission in \[0.0, 0.01\]"),
])
def test_bad_input_is_one_line(kwargs, match):
    with pytest.raises(OptionError, match=match):
        solve(**{**BANKED, **kwargs}, deals=600, setter="greedy", rng=1)


def test_deals_and_precision_together_are_refused():
    with pytest.raises(OptionError, match=r"deals= and precision= are invalid together"):
        solve(**BANKED, deals=600, precision=0.001, setter="greedy", rng=1)


def test_ofc_metric_unknown_is_one_line():
    with pytest.raises(OptionError, match=r"metric='house_edge' is not a figure of the open-face game"):
        solve("ofc-pineapple", "royalties.front.QQ", "house_edge", 0.01, bounds=(0, 9), deals=20, rng=1)


# -- sequential precision -------------------------------------------------------------------------

def test_until_equals_the_fixed_deals_run_of_its_length():
    r = cpstats.simulate("banked", 100_000, strategy="greedy", rng=3, until={"house_edge": 0.0006})
    meta = r.metadata["until"]
    assert meta["reached"] and len(meta["stages"]) >= 2
    half = figure_table(r).set_index("metric").loc["house_edge"]
    assert (half["ci_high"] - half["ci_low"]) / 2 <= 0.0006
    fixed = cpstats.simulate("banked", r.deals, strategy="greedy", rng=3)
    a, b = r.summary.to_arrays(), fixed.summary.to_arrays()
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in b)


def test_until_stops_at_the_maximum_and_says_so():
    r = cpstats.simulate("banked", 5_000, strategy="greedy", rng=3, until="house_edge=0.00001")
    assert r.deals == 5_000 and not r.metadata["until"]["reached"]


def test_until_open_face():
    r = cpstats.simulate("ofc-pineapple", 400, strategy="greedy", rng=3, until={"foul_rate": 0.05})
    assert r.metadata["until"]["reached"] and r.hands <= 400


def test_precision_budget_sets_the_deals_from_a_sequential_run():
    s = solve(**BANKED, precision=0.0008, setter="greedy", rng=1)
    at = s.evaluations.iloc[0]
    assert (at["ci_high"] - at["ci_low"]) / 2 <= 0.0008 and s.deals < 20_000


@pytest.mark.parametrize("until, match", [
    ({"house_edge": 0}, r"until\['house_edge'\]=0 is invalid: a half-width above 0"),
    ("house_edge", r"until='house_edge' is invalid: FIGURE=HALF_WIDTH"),
    ({"sdd": 0.1}, r"metric='sdd' is not a figure.*did you mean 'sd'"),
])
def test_bad_until_is_one_line(until, match):
    with pytest.raises(OptionError, match=match):
        cpstats.simulate("banked", 1_000, strategy="greedy", rng=1, until=until)


def test_until_with_out_is_refused(tmp_path):
    with pytest.raises(OptionError, match=r"until= and out= are invalid together"):
        cpstats.simulate("banked", 1_000, strategy="greedy", rng=1, until={"sd": 0.1}, out=tmp_path)


# -- coverage (opt-in) ----------------------------------------------------------------------------

SLOW = pytest.mark.skipif(not os.environ.get("CPSTATS_SLOW"), reason="opt-in: CPSTATS_SLOW=1 (a few minutes)")


def _coverage(variant: str, parameter: str, metric: str, target: float, bounds, truth: float,
              seeds: int = 50, deals: int = 2_000) -> float:
    held = 0
    for seed in range(seeds):
        s = solve(variant, parameter, metric, target, bounds=bounds, deals=deals, setter="greedy", rng=1000 + seed)
        held += s.ci_low <= truth <= s.ci_high
    return held / seeds


@SLOW
def test_commission_interval_covers_the_long_run_answer():
    """50 seeds at 2,000 deals a candidate: the interval holds the long-run commission (the root of
    the line through two 400,000-deal runs) in at least 90% of runs."""
    long = solve(**BANKED, deals=400_000, setter="greedy", rng=7)
    rate = _coverage(**BANKED, truth=long.value)
    print(f"commission coverage {rate:.0%} (long-run answer {long.value:.5f})")
    assert rate >= 0.90


@SLOW
def test_capped_rake_percent_interval_covers_the_long_run_answer():
    long = solve(CAPPED, "rake.percent", "rake_share", 0.08, bounds=(0.0, 0.3), deals=400_000,
                 setter="greedy", rng=7)
    rate = _coverage(CAPPED, "rake.percent", "rake_share", 0.08, (0.0, 0.3), truth=long.value)
    print(f"capped rake percent coverage {rate:.0%} (long-run answer {long.value:.5f})")
    assert rate >= 0.90


@SLOW
def test_until_interval_covers_the_long_run_edge():
    """Sequential stopping on the interval's own width: its 95% interval still holds the long-run
    house edge in at least 90% of 50 runs."""
    truth = figure_table(cpstats.simulate("banked", 1_000_000, strategy="greedy", rng=7)).set_index(
        "metric").at["house_edge", "estimate"]
    held = 0
    for seed in range(50):
        r = cpstats.simulate("banked", 200_000, strategy="greedy", rng=2000 + seed, until={"house_edge": 0.0006})
        f = figure_table(r).set_index("metric").loc["house_edge"]
        held += f["ci_low"] <= truth <= f["ci_high"]
    print(f"until coverage {held / 50:.0%}")
    assert held / 50 >= 0.90
