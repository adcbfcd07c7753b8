"""The House edge and rake tab (cpstats.apps.widgets.rake) driven as a user would: house money per
seat-hour, capped and banked charges counted once, intervals or the reason there are none, the
setter named; and the surrender picker and the apps' compile notice."""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.rules.house import Rake, RakeModel, Surrender
from cpstats.engine.registry import load_variant
from cpstats.thirteen.settlement import settle_many
from cpstats.engine import REFERENCE_DIR
from cpstats.thirteen.play import EvSetter
from cpstats.workbench import simulate
from cpstats.apps.widgets import _common
from cpstats.apps.widgets import SEED, WIDGET_BLOCK_DEALS, RakeExplorer, ResultCache, VariantComparer, VariantPicker
from cpstats.thirteen.dashboard import rake_figures, rake_table

DEALS = 2_000
CAPPED = "2-4(rake=percent,rake.percent=0.05,rake.cap=1,rake.jackpot_drop=0.1)"
pytestmark = pytest.mark.usefixtures("quick_tables")


@pytest.fixture(scope="module")
def cache():
    return ResultCache()


def _capped_rake_by_hand(text: str, strategy: str) -> float:
    """Mean of min(0.05 * pot, 1) over the app's deals set by ``strategy``, the pot summed from
    each deal's nets."""
    kept = simulate(text, DEALS, setter=strategy, rng=SEED, block_deals=WIDGET_BLOCK_DEALS,
                    keep_hands=True)
    total = 0.0
    for block in kept.kept:
        declared = np.where(block["declare"], block["held"], 0).astype(np.uint32)
        net, _ = settle_many(kept.variant, block["settings"], naturals=declared,
                             surrender=block["surrender"])
        pot = np.where(net > 0, net, 0.0).sum(axis=1)
        total += float(np.minimum(0.05 * pot, 1.0).sum())
    return total / kept.deals


def test_capped_percent_rake_keeps_the_jackpot_drop_apart(cache):
    """The settlement's rake ("rake_s1") is the house's take without the jackpot drop
    (``settlement._settle_kernel.settle_kernel`` sets ``out_rake`` from the rake model and a bank's charges
    only), so the app must not subtract the 0.1 drop from it. Computed here by hand from the
    deals' nets: E[min(0.05 * pot, 1)] (about 0.56 a hand; the audit's run showed 0.5615, the app
    0.4615 = 0.5615 - 0.1). The same deals without the drop give the same rake; the drop is its
    own line, and the break-even edge is the rake's share of the 4 seats (the drop returns to players)."""
    app = RakeExplorer("2-4", deals=DEALS, cache=cache)
    app.rake_model.value = "percent"
    app.percent.value = 0.05
    app.cap.value = 1.0
    app.jackpot.value = 0.1
    app.simulate_button.click()
    result = app.result
    assert str(result.variant) == str(load_variant(CAPPED))
    by_hand = _capped_rake_by_hand(CAPPED, app.strategy.value)
    simulated = float(result.summary.rake_sum) / result.deals
    assert simulated == pytest.approx(by_hand, rel=1e-12)
    no_drop = cache.run(load_variant(CAPPED).replace(rake__jackpot_drop=0), DEALS, app.strategy.value)
    assert float(no_drop.summary.rake_sum) == float(result.summary.rake_sum)
    f = app.figures
    assert f["rake_per_hand"] == pytest.approx(by_hand, rel=1e-12)
    assert f["jackpot_drop_per_hand"] == 0.1
    assert f["jackpot_drop_per_hour"] == pytest.approx(0.1 * 30)
    assert f["break_even_edge"] == pytest.approx(by_hand / 4)  # no jackpot drop
    assert f"{by_hand:.4f}" in app.table_html.value


def test_time_rake_is_per_seat_hour_whatever_the_pace(cache):
    """A time charge of 6 a seat-hour at a 4-seat table is 24 an hour at any pace;
    per hand it is 6 x 4 / hands per hour, from the pace asked for (not the Rake's own 30)."""
    result = cache.run(load_variant("2-4"), DEALS, "greedy")
    rake = Rake(model=RakeModel.TIME, amount=6)
    for pace in (30, 60):
        f = rake_figures(result, rake, hands_per_hour=pace, unit_value=2.0)
        assert f["rake_per_hand"] == pytest.approx(6 * 4 / pace)
        assert f["rake_per_seat_per_hour_money"] == pytest.approx(6 * 2.0)
        assert f["rake_per_hour_money"] == pytest.approx(24 * 2.0)
    app = RakeExplorer("2-4", deals=DEALS, cache=cache)
    app.rake_model.value = "time"
    app.amount.value = 6.0
    app.hands_per_hour.value = 60
    assert app.figures["rake_per_hour_money"] == pytest.approx(24)
    assert app.figures["rake_per_hand"] == pytest.approx(0.4)


def test_a_commission_in_the_result_is_counted_once(cache):
    """A banked result simulated with a 5% commission already has it in its rake
    (the kernel adds commission * net of each winning player seat to ``out_rake``); figures of
    that result with the same commission equal those of the game simulated without it, and the
    commission per player hand is the simulated one: rake_s1 / deals / 3 player seats."""
    base = cache.run(load_variant("banked"), DEALS, "greedy")
    with_c = cache.run(load_variant("banked").replace(bank__commission=0.05), DEALS, "greedy")
    commission = float(with_c.summary.rake_sum) / with_c.deals / 3
    # the bank's edge before commission: its gain from ties (the control variate of house())
    bank_mean = float(with_c.summary.tie_gain_by_batch.sum()) / with_c.deals / 3
    none = Rake()
    once = rake_figures(base, none, hands_per_hour=30, commission=0.05)
    for figures in (rake_figures(with_c, none, hands_per_hour=30, commission=0.05),
                    rake_figures(with_c, none, hands_per_hour=30)):  # default: the result's own
        edge = figures["bank_edge_per_player_hand"]
        assert edge == pytest.approx(once["bank_edge_per_player_hand"], rel=1e-9)
        assert edge == pytest.approx(bank_mean + commission, rel=1e-9)  # was + 2 x commission
        charge = figures["commission_per_player_hand"]
        assert charge == pytest.approx(commission, rel=1e-9)
        assert figures["rake_per_hand"] == 0.0
    bare = rake_figures(with_c, none, hands_per_hour=30, commission=0.0)
    assert bare["commission_per_player_hand"] == 0.0
    assert bare["bank_edge_per_player_hand"] == pytest.approx(
        rake_figures(base, none, hands_per_hour=30)["bank_edge_per_player_hand"])


def test_a_capped_rake_in_a_banked_game_leaves_out_the_commission(cache):
    """With a capped percentage simulated in a banked game with a commission, the
    result's rake holds both; the rake line is the table rake alone (the same deals without the
    commission), and the commission is its own line."""
    capped = "banked(rake=percent,rake.percent=0.05,rake.cap=1)"
    plain = cache.run(load_variant(capped), DEALS, "greedy")
    with_c = cache.run(load_variant(capped).replace(bank__commission=0.05), DEALS, "greedy")
    f = rake_figures(with_c, with_c.variant.rake, hands_per_hour=30)
    assert f["rake_per_hand"] == pytest.approx(float(plain.summary.rake_sum) / DEALS)
    total = float(with_c.summary.rake_sum) / DEALS
    charges = f["rake_per_hand"] + 3 * f["commission_per_player_hand"]
    assert charges == pytest.approx(total)


# -- the surrender picker ------------------------------------------------------------------------

@pytest.mark.parametrize("choice, amount", [("1", 1), ("2", 2), ("3", 3)])
def test_surrender_units_are_the_units_chosen(choice, amount):
    """The picker's "1" built the standard surrender (2 units in 2-4), read as "true";
    each number is the exact amount, and the string shown loads back to the same variant."""
    p = VariantPicker("2-4")
    p.surrender.value = choice
    assert p.variant.surrender == Surrender(enabled=True, amount=amount)
    assert p.variant.surrender_amount() == amount
    shown = str(p.variant)
    assert f"<code>{shown}</code>" in p.status.value
    assert load_variant(shown) == p.variant


def test_standard_surrender_is_the_scoring_systems_amount():
    """The "standard" amount is the scoring system's own amount (2 in 2-4, 3 in 1-6)."""
    for preset, amount in (("2-4", 2), ("1-6", 3)):
        p = VariantPicker(preset)
        p.surrender.value = "standard"
        assert p.variant.surrender == Surrender(enabled=True, amount=None)
        assert p.variant.surrender_amount() == amount
        assert str(p.variant) == f"{preset}(surrender=standard)"


# -- the compile notice --------------------------------------------------------------------------

def _status_when_running(app, monkeypatch) -> list[str]:
    """The app's status each time it hands a simulation to its cache (before any kernel runs)."""
    seen = []
    run = app.cache.run

    def spy(*args, **kwargs):
        seen.append(app.status.value)
        return run(*args, **kwargs)

    monkeypatch.setattr(app.cache, "run", spy)
    return seen


@pytest.mark.parametrize("compiling", [True, False])
def test_each_app_says_it_compiles_before_its_first_run(compiling, monkeypatch):
    """The first run after install compiles the kernels for a minute with no word;
    each app shows the compile notice beside its progress bar while it runs, and only then."""
    notice = "compiling kernels: a first run here (a few minutes, once)"
    monkeypatch.setattr(_common, "compile_notice", lambda: notice if compiling else None)
    comparer = VariantComparer(("2-4", "1-6"), deals=1_000, cache=ResultCache())
    comparer.pickers[1].royalties.value = "R-TW"
    seen = _status_when_running(comparer, monkeypatch)
    comparer.simulate_button.click()
    explorer = RakeExplorer("basic", deals=1_000, cache=ResultCache())
    seen_rake = _status_when_running(explorer, monkeypatch)
    explorer.players.value = 3
    explorer.simulate_button.click()
    assert len(seen) == 2 and seen_rake
    for status in seen + seen_rake:
        assert (notice in status) is compiling and "simulating" in status


def test_the_rake_tab_gives_every_figure_an_interval_or_says_why_not():
    """Each row of the tab's table has a 95% interval around its estimate, exact where the
    rules set it, or a method saying why it has none."""
    r = simulate("2-4", 3_000, setter="greedy", rng=3)
    fixed = rake_table(r, Rake(model=RakeModel.FIXED_TABLE, amount=0.5, jackpot_drop=0.1), hands_per_hour=30)
    row = fixed.loc["rake_per_hand"]
    assert row["estimate"] == row["ci_low"] == row["ci_high"] == 0.5 and row["method"].startswith("exact")
    share = fixed.loc["rake_share"]
    assert share["ci_low"] < share["estimate"] < share["ci_high"]
    percent = rake_table(r, Rake(model=RakeModel.PERCENT, percent=0.05), hands_per_hour=30)
    from cpstats.engine.stats import batch_mean_interval

    _, _, half = batch_mean_interval(0.05 * r.gross_batches(), r.net_batches()[1])
    row = percent.loc["rake_per_hand"]
    assert row["ci_high"] - row["estimate"] == pytest.approx(float(half)) and half > 0
    seat = percent.loc["rake_per_seat_per_hour_money"]
    assert seat["ci_high"] - seat["estimate"] == pytest.approx(float(half) / 4 * 30)
    for table in (fixed, percent):
        lacking = table[table["ci_low"].isna()]
        assert lacking.empty, lacking
        assert ((table["ci_low"] <= table["estimate"]) & (table["estimate"] <= table["ci_high"])).all()


def test_a_repriced_commission_gets_a_conservative_interval():
    """The commission at a price the run did not charge has no per-batch sums; its SE bound from
    the seats' net distributions is at least the batch SE a run charged that commission gives
    (same deals: the commission never moves the nets); the capped rake in such a run has none."""
    bare = simulate("banked", 6_000, setter="greedy", rng=5)
    charged = simulate("banked(bank.commission=0.05)", 6_000, setter="greedy", rng=5)
    table = rake_table(bare, Rake(), hands_per_hour=30, commission=0.05)
    row = table.loc["commission_per_player_hand"]
    from cpstats.engine.stats import batch_mean_interval, t_value

    sums, sizes = charged.rake_batches()
    mean, se, _ = batch_mean_interval(sums / (charged.variant.players - 1), sizes)
    assert row["estimate"] == pytest.approx(float(mean), rel=1e-9)
    bound = (row["ci_high"] - row["estimate"]) / t_value(0.95, 30)
    assert bound >= float(se)
    assert "conservative" in row["method"]
    edge = table.loc["bank_edge_per_player_hand"]
    assert edge["ci_low"] < edge["estimate"] < edge["ci_high"]
    assert np.isnan(table.loc["bank_edge_se", "ci_low"])
    capped = simulate("banked(bank.commission=0.05,rake=percent,rake.percent=0.05,rake.cap=1)", 600,
                      setter="greedy", rng=5)
    row = rake_table(capped, capped.variant.rake, hands_per_hour=30).loc["rake_per_hand"]
    assert np.isnan(row["ci_low"]) and row["method"].startswith("no interval: the bank's charge")


# -- the rake explorer ------------------------------------------------------------------------------

@pytest.fixture()
def rake_app(cache):
    app = RakeExplorer("2-4", deals=DEALS, cache=cache)
    app.simulate_button.click()
    return app


def test_fixed_rake_per_seat_and_per_hour(rake_app):
    rake_app.rake_model.value = "fixed-player"
    rake_app.amount.value = 0.25
    rake_app.hands_per_hour.value = 40
    rake_app.unit_value.value = 2.0
    f = rake_app.figures
    assert f["rake_per_seat_per_hand"] == pytest.approx(0.25)
    assert f["rake_per_seat_per_hour_money"] == pytest.approx(0.25 * 40 * 2.0)
    assert "20.00" in rake_app.table_html.value  # 0.25 units x 40 hands x 2 money
    rake_app.skill_edge.value = 0.4
    assert rake_app.figures["expectation_at_skill"] == pytest.approx(0.15)


def test_percent_rake_from_the_gross_and_capped_needs_a_run(rake_app, cache):
    r = rake_app.result
    rake_app.rake_model.value = "percent"
    rake_app.percent.value = 0.05
    gross = float(r.summary.gross_sum) / r.deals
    assert rake_app.figures["rake_per_hand"] == pytest.approx(0.05 * gross)
    rake_app.cap.value = 0.5
    assert "click Simulate" in rake_app.status.value
    rake_app.simulate_button.click()
    capped = rake_app.result
    assert "rake.cap=0.5" in str(capped.variant)
    # the cap binds: less than the uncapped 5%, exactly the simulated rake
    per_hand = rake_app.figures["rake_per_hand"]
    assert per_hand == pytest.approx(float(capped.summary.rake_sum) / capped.deals)
    assert 0 < per_hand < 0.05 * gross


def test_session_bands(rake_app):
    rake_app.rake_model.value = "none"
    rake_app.confidence.value = 0.90
    s = rake_app.sessions().set_index("hands")
    sd = rake_app.figures["sd"]
    assert s.loc[100, "high (units)"] == pytest.approx(1.6448536 * sd * 10, rel=1e-6)
    assert f"{s.loc[1_000, 'low (units)']:+,.1f}" in rake_app.table_html.value


def test_banked_commission_matches_a_simulation_with_it(cache):
    app = RakeExplorer("banked", deals=DEALS, cache=cache)
    app.simulate_button.click()
    base = app.result
    app.commission.value = 0.05
    edge = app.figures["bank_edge_per_player_hand"]
    # the commission is charged outside the nets, so the same deals and tables give the same nets
    assert app.strategy.value == "ev"
    with_c = simulate(base.variant.replace(bank__commission=0.05), DEALS, setter=EvSetter(tables=str(base.variant)),
                      rng=SEED, block_deals=WIDGET_BLOCK_DEALS)
    # house() gives the edge per 3-unit wager, commission included: per player hand it is x 3
    house = with_c.house().iloc[0]
    assert edge == pytest.approx(house["house_edge"] * house["initial_wager_units"], rel=1e-9)
    assert app._bank_box.layout.display is None
    app.wins_ties.value = False
    assert "click Simulate" in app.status.value
    app.simulate_button.click()
    assert app.result.variant.bank.wins_ties is False


def test_rake_explorer_error_is_shown(rake_app, monkeypatch):
    monkeypatch.setattr(rake_app.cache, "run", lambda *a, **k: (_ for _ in ()).throw(ValueError("no")))
    rake_app.players.value = 3
    rake_app.simulate_button.click()
    assert "ValueError: no" in rake_app.status.value and rake_app.progress.bar_style == "danger"


def test_rake_explorer_names_the_setter_and_offers_the_reference_only_to_ev():
    """The rake explorer's status, table header and chart name the setter and the
    deals; the reference result (ev) is shown for ev only, greedy asks for a run."""
    if not (REFERENCE_DIR / "2-4.npz").exists():
        pytest.skip("no reference results in cpstats/data/reference (run `cpstats reference`)")
    app = RakeExplorer("2-4", deals=DEALS, cache=ResultCache())
    assert "ev (good play)" in app.status.value and "1,000,000 deals" in app.status.value
    intervals = ["95% CI low", "95% CI high", "interval"]
    assert list(app.table.columns) == ["2-4: ev (good play), 1,000,000 deals", *intervals]
    app.strategy.value = "greedy"
    assert "click Simulate" in app.status.value and app.result.metadata["strategy"] == "ev"
    app.simulate_button.click()
    assert app.result.metadata["strategy"] == "greedy"
    assert list(app.table.columns) == [f"2-4: greedy (baseline: a weak field), {DEALS:,} deals", *intervals]
    assert "greedy (baseline: a weak field)" in app.status.value
    assert "greedy (baseline: a weak field)" in app.figure._suptitle.get_text()


# -- the game's figures, read not recomputed -----------------------------------------------------

def test_the_house_edge_band_is_the_games(cache):
    """The banked chart's band is the game's house_edge_curve: at each commission the bank's edge
    plus the commission on the players' wins, Student's t on the bank's batch means (the table's
    intervals), not a normal 1.96 made in the app."""
    from cpstats.engine.stats import t_value
    from cpstats.thirteen.dashboard import bank_edge, house_edge_curve, positive_part

    result = cache.run(load_variant("banked"), DEALS, "greedy")
    curve = house_edge_curve(result, [0.0, 0.05], 0.95)
    edge, se = bank_edge(result)
    e_pos, _ = positive_part(result, range(1, result.variant.players))
    assert curve["estimate"].tolist() == pytest.approx([edge, edge + 0.05 * e_pos], rel=1e-12)
    half = t_value(0.95, result.batches) * se
    assert (curve["ci_high"] - curve["estimate"]).tolist() == pytest.approx([half, half], rel=1e-12)
    app = RakeExplorer("banked", deals=DEALS, setter="greedy", cache=cache)
    band = app.figure.axes[2].collections[0].get_paths()[0].vertices[:, 1]
    drawn = house_edge_curve(app.result, np.linspace(0, 0.1, 41), 0.95)
    assert band.min() == pytest.approx(drawn["ci_low"].min()) and band.max() == pytest.approx(drawn["ci_high"].max())


def test_the_figures_after_charges_are_the_runs_own_where_the_charge_is(cache):
    """The SD and mean after house charges are the result's figures() rows, shown where the charge
    asked for is the one the run was simulated with (a what-if rake on a run without it has none)."""
    raked = cache.run(load_variant("2-4(rake=percent,rake.percent=0.05,rake.cap=3)"), DEALS, "greedy")
    own = raked.figures().set_index("metric")
    table = rake_table(raked, raked.variant.rake, hands_per_hour=30)
    for name in ("sd", "sd_after_charges", "mean_after_charges"):
        assert table.loc[name, ["estimate", "ci_low", "ci_high"]].tolist() == \
            own.loc[name, ["estimate", "ci_low", "ci_high"]].tolist()
    assert table.loc["sd_after_charges", "estimate"] < table.loc["sd", "estimate"]
    what_if = rake_table(raked, Rake(model=RakeModel.FIXED_PLAYER, amount=0.25), hands_per_hour=30)
    assert "sd" in what_if.index and "sd_after_charges" not in what_if.index


def test_session_bands_are_the_engines(rake_app):
    """The sessions table is engine.stats.session_band of the expectation and the SD on show."""
    from cpstats.engine.stats import session_band

    rake_app.confidence.value = 0.95
    s = rake_app.sessions()
    f = rake_app.figures
    expected, low, high = session_band(f["expectation_at_skill"], f["sd"], s["hands"].tolist(), 0.95)
    assert s["low (units)"].tolist() == low.tolist() and s["high (units)"].tolist() == high.tolist()
