"""Open-face sweeps and figures of the house's charge (issue 50, item 20): rules that charge
nothing give rake figures of exactly 0 that say so, never an interval left out for "too few
events"."""

import pytest

import cpstats
from cpstats.ofc import simulation as sim
from cpstats.ofc.result import NO_CHARGE, RAKE_FIGURES, charges_nothing
from cpstats.engine.registry import get_preset

KW = {"setter": "random", "rng": 1}


@pytest.mark.parametrize("variant", ["ofc-pineapple", "ofc-pineapple(rake=percent)",
                                     "ofc-pineapple(rake=time,rake.amount=0)"])
def test_rules_that_charge_nothing_say_so(variant):
    """No rake, a percent rake of 0 or a time fee of 0: every rake figure is 0 from 0 to 0 with
    the method naming why, in figures() and in a comparison's table alike."""
    table = sim.simulate(variant, 200, **KW).figures().set_index("metric").loc[list(RAKE_FIGURES)]
    assert (table[["estimate", "ci_low", "ci_high"]] == 0).all().all()
    assert set(table["method"]) == {NO_CHARGE}
    paired = sim.compare([variant, variant], 200, **KW).set_index(["label", "metric"])
    assert set(paired.xs("rake_per_seat_per_hand", level="metric")["method"]) == {NO_CHARGE}


def test_rules_that_charge_keep_their_interval():
    """A rake in play is estimated from the hands as before, even in a run where it charges
    nothing (a threshold no pot reached): only the rules decide NO_CHARGE."""
    assert not charges_nothing(get_preset("ofc-pineapple").replace(rake="percent", rake__percent=0.05).rake)
    r = sim.simulate("ofc-pineapple(rake=percent,rake.percent=0.05,rake.threshold=1000)", 200, **KW)
    table = r.figures().set_index("metric")
    assert table.at["rake_per_seat_per_hand", "estimate"] == 0
    assert NO_CHARGE not in set(table["method"])


def test_a_sweep_without_a_charge_reports_exact_zero_differences():
    """Rake figures asked of a sweep whose points charge nothing: estimate and difference 0, each
    from 0 to 0, no "too few events" note; without asking, the defaults leave them out."""
    table = cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [7, 9], deals=200, hands_per_hour=30,
                          metrics=["rake_per_seat_per_hand", "rake_per_seat_per_hour", "royalty"], **KW)
    rake = table[table["metric"].isin(RAKE_FIGURES)]
    assert len(rake) == 4 and set(rake["method"]) == {NO_CHARGE}
    exact = rake[["estimate", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"]]
    assert (exact == 0).all().all() and (rake["diff_note"] == "").all()
    default = cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [7, 9], deals=200, **KW)
    assert not set(default["metric"]) & set(RAKE_FIGURES)


def test_a_sweep_from_no_charge_to_a_charge_has_an_interval():
    """rake.percent 0 then 0.05: the first point charges nothing (and says so); the second's
    difference to it is the charge, with an interval that holds it above 0."""
    table = cpstats.sweep("ofc-pineapple(rake=percent)", "rake.percent", [0, 0.05], deals=300,
                          metrics=["rake_per_seat_per_hand"], **KW).set_index("value")
    assert table.at[0, "method"] == NO_CHARGE and table.at[0.05, "method"] != NO_CHARGE
    assert 0 < table.at[0.05, "diff_ci_low"] < table.at[0.05, "diff"] < table.at[0.05, "diff_ci_high"]
    assert table.at[0.05, "diff_note"] == ""
