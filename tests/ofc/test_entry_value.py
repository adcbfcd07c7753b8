"""The value of a Fantasyland entry the exact-endgame rollouts are told (cpstats.ofc.entry_value): the
stay chain solved as a fixed point, its long-run relative value, the default's own fixed point
measured by its own play, ``cpstats train-ofc`` repeating from its seed, the shipped values
reproduced, and no value where the rules have no Fantasyland or only a rake changes."""

from __future__ import annotations

import numpy as np
import pytest

from cpstats.engine.registry import get_preset

PINE = get_preset("ofc-pineapple")


def _markov_relative_values(terms: dict, baseline: float, rates: dict, stay: int) -> tuple[float, dict]:
    """The long-run mean reward g and relative values h(L_n) - h(N) of the hand-to-hand chain
    (normal N -> entry L_n at rate e(n); L_n -> stay S at p(n), else N; S -> S at p(s)), by the
    average-reward Bellman equations solved as a linear system, independently of the closed form."""
    states = ["N"] + [f"L{n}" for n in rates] + ["S"]
    k = len(states)
    P, r = np.zeros((k, k)), np.zeros(k)
    r[0] = baseline
    P[0, 0] = 1 - sum(rates.values())
    for i, (n, e) in enumerate(rates.items(), start=1):
        f, _, p = terms[n]
        P[0, i], r[i], P[i, k - 1], P[i, 0] = e, f, p, 1 - p
    f_s, _, p_s = terms[stay]
    r[-1], P[-1, -1], P[-1, 0] = f_s, p_s, 1 - p_s
    # unknowns: g, h(states[1:]) with h(N) = 0:  h + g = r + P h
    a = np.zeros((k, k))
    a[:, 0] = 1.0
    a[:, 1:] = np.eye(k)[:, 1:] - P[:, 1:]
    sol = np.linalg.solve(a, r)
    return sol[0], {n: sol[i] for i, n in enumerate(rates, start=1)}


def test_entry_values_solve_the_stay_chain():
    """X(s) = (F(s) - B) / (1 - p(s)) for the stay's size and X(n) = F(n) - B + p(n) X(s)."""
    from cpstats.ofc.entry_value import entry_values

    terms = {14: (16.0, 0.5, 0.2), 15: (20.0, 0.5, 0.3)}
    x = entry_values(PINE, terms, 6.0)  # Pineapple stays with 14 cards
    assert x[14] == pytest.approx(10.0 / 0.8)
    assert x[15] == pytest.approx(14.0 + 0.3 * 10.0 / 0.8)
    assert x[13] == 0.0


def test_the_long_run_entry_value_is_the_chains_relative_value():
    """OFC-FL-ENTRY: the long-run value of an entry equals the relative value of being dealt
    Fantasyland instead of a normal hand in the hand-to-hand Markov chain, g its mean reward; with
    no entries it is the per-hand value; entering more often makes an entry worth less."""
    from cpstats.ofc.entry_value import entry_values, long_run_mean, long_run_values

    terms = {14: (16.0, 0.5, 0.14), 15: (19.0, 0.5, 0.3), 16: (22.0, 0.6, 0.35)}
    rates = {14: 0.12, 15: 0.05, 16: 0.02}
    g, relative = _markov_relative_values(terms, 6.3, rates, stay=14)
    assert long_run_mean(PINE, terms, 6.3, rates) == pytest.approx(g)
    x = long_run_values(PINE, terms, 6.3, rates)
    for n, h in relative.items():
        assert x[n] == pytest.approx(h)
    assert (long_run_values(PINE, terms, 6.3, {}) == entry_values(PINE, terms, 6.3)).all()
    more = long_run_values(PINE, terms, 6.3, {14: 0.25, 15: 0.05, 16: 0.02})
    assert more[14] < x[14] < entry_values(PINE, terms, 6.3)[14]


def test_solve_entry_value_reports_the_long_run_value():
    """The solved entry's long-run value is ``long_run_values`` at the last round's baseline and
    entry rate, inside its own interval and below the per-hand value when the play enters."""
    from cpstats.ofc.entry_value import fantasy_terms, long_run_values, solve_entry_value

    got = solve_entry_value(PINE, hands=30, rounds=1, start=6.0)
    assert 0 < got.entry_rate < 1
    assert got.long_run_low < got.long_run_value < got.long_run_high
    assert got.long_run_value < got.value
    assert got.long_run_value == pytest.approx(
        long_run_values(PINE, fantasy_terms(PINE), got.baseline, {14: got.entry_rate})[14])
    low = long_run_values(PINE, fantasy_terms(PINE), got.baseline, {14: got.entry_rate * 0.5})[14]
    high = long_run_values(PINE, fantasy_terms(PINE), got.baseline, {14: got.entry_rate * 2})[14]
    assert high < got.long_run_value < low


def test_entry_value_options_are_checked():
    from cpstats.errors import OptionError
    from cpstats.ofc.entry_value import solve_entry_value

    with pytest.raises(OptionError, match=r"hands=1 is invalid"):
        solve_entry_value(PINE, hands=1)
    with pytest.raises(OptionError, match=r"rounds=0 is invalid"):
        solve_entry_value(PINE, hands=4, rounds=0)


def test_the_defaults_own_fixed_point_is_measured_by_its_own_play():
    """With the street models the baseline is measured on the default's boards, which are not
    ``rollout-exact``'s; the solver's terms are the same."""
    from cpstats.ofc.entry_value import solve_entry_value
    from cpstats.ofc.street_values import street_model

    exact = solve_entry_value(PINE, hands=6, rounds=1, start=6.0)
    learned = solve_entry_value(PINE, hands=6, rounds=1, start=6.0, model=street_model(PINE))
    assert learned.baseline != exact.baseline and learned.fl_objective == exact.fl_objective
    assert solve_entry_value(PINE, hands=6, rounds=1, start=6.0) == exact


def test_train_ofc_same_seed_same_numbers(tmp_path):
    """``cpstats train-ofc`` writes the entry value with its seed; the same seed reproduces it."""
    import json

    from cpstats.apps.cli import main

    rows = []
    for name in ("a.json", "b.json"):
        assert main(["train-ofc", "--hands", "3", "--rounds", "1", "--seed", "5", "--out",
                     str(tmp_path / name)]) == 0
        row = json.loads((tmp_path / name).read_text())["ofc-pineapple"]
        rows.append({k: v for k, v in row.items() if k != "seconds"})
    assert rows[0] == rows[1] and rows[0]["seed"] == 5 and rows[0]["hands"] == 3


def test_train_ofc_refuses_too_few_hands(capsys):
    from cpstats.apps.cli import main

    assert main(["train-ofc", "--hands", "1"]) != 0
    assert "hands=1 is invalid" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not __import__("os").environ.get("CPSTATS_SLOW"), reason="opt-in: CPSTATS_SLOW=1")
def test_shipped_entry_value_reproduces():
    """The shipped Pineapple entry value is what ``train-ofc`` computes from its recorded seed."""
    import json

    from cpstats.ofc.entry_value import SHIPPED, solve_entry_value

    row = json.loads(SHIPPED.read_text())["ofc-pineapple"]
    got = solve_entry_value(PINE, hands=row["hands"], rounds=row["rounds_played"], rng=row["seed"])
    assert got.baseline == row["baseline"] and got.value == row["value"]
    assert got.long_run_value == row["long_run_value"] and got.entry_rate == row["entry_rate"]


def test_a_variant_without_fantasyland_needs_no_entry_value():
    """The default rollout plays a variant without Fantasyland (entry values all 0); solving one is refused."""
    from cpstats.errors import OptionError
    from cpstats.ofc.entry_value import default_entry_values, solve_entry_value
    from cpstats.ofc.play import play_hands
    from cpstats.ofc.rules import resolve_ofc_variant

    v = resolve_ofc_variant("ofc-pineapple(fantasyland.cards=0/0/0/0)")
    assert not default_entry_values(v).any()
    played = play_hands(v, 2, 5, strategies="rollout", samples=4)
    assert (played.boards >= 0).all()
    with pytest.raises(OptionError, match=r"has no Fantasyland .*no entry value to solve"):
        solve_entry_value(v, hands=4, rounds=1)


def test_a_rake_does_not_move_the_entry_value_rollout_is_told():
    """A rake never moves the play: a raked preset is told the preset's shipped entry value (it was
    solved again on first use, so the raked game was played by another policy)."""
    from cpstats.ofc.entry_value import default_entry_values
    from cpstats.ofc.rules import resolve_ofc_variant

    raked = resolve_ofc_variant("ofc-pineapple(rake=time,rake.amount=6)")
    assert (default_entry_values(raked) == default_entry_values(PINE)).all()


def test_a_variant_not_shipped_is_solved_once_a_process(monkeypatch):
    """A designer's variant has its entry value solved on first use, once: the play's tables and the
    rule features of the street models both read it (each used to solve it again, 7 s a time)."""
    from cpstats.ofc import entry_value
    from cpstats.ofc.entry_value import default_entry_values, rollout_args
    from cpstats.ofc.rule_features import rule_vector
    from cpstats.ofc.rules import resolve_ofc_variant

    solved = []

    class Solved:
        baseline = 1.25

    def fake_solve(variant, **options):
        solved.append(str(variant))
        return Solved()

    monkeypatch.setattr(entry_value, "solve_entry_value", fake_solve)
    v = resolve_ofc_variant("ofc-pineapple(royalties.front.77=3,royalties.front.88=5)")  # in no other test
    rollout_args(v)
    rule_vector(v)
    values = default_entry_values(v)
    assert solved == [str(v)]
    assert values[14] == pytest.approx(entry_value.entry_values(v, entry_value.fantasy_terms(v), 1.25)[14])
    with pytest.raises(ValueError):
        values[14] = 0.0  # the values every caller shares cannot be written over


@pytest.mark.parametrize("options, words", [({"hands": 100_001}, r"hands=100,001 is invalid: at most 100,000"),
                                            ({"hands": 10**17}, r"at most 100,000 a round"),
                                            ({"rounds": 21}, r"rounds=21 is invalid: at most 20")])
def test_entry_value_sizes_are_bounded_before_any_self_play(options, words):
    """A huge count is one line at once (it ended in numpy's out-of-memory traceback)."""
    from cpstats.errors import OptionError
    from cpstats.ofc.entry_value import solve_entry_value, write_shipped

    with pytest.raises(OptionError, match=words):
        solve_entry_value(PINE, **options)
    with pytest.raises(OptionError, match=words):
        write_shipped(("ofc-pineapple(royalties.front.QQ=9)",), **options)


def test_a_first_use_solve_is_kept_for_the_next_process(monkeypatch, tmp_path):
    """A rule set without a shipped or trained entry value is solved once and kept in the cache
    folder (one file a rule set): the next process reads the number instead of solving again; a
    file that does not read, or holds another variant, is solved again and replaced."""
    from types import SimpleNamespace

    from cpstats.ofc import entry_value as ev
    from cpstats.engine.registry import load_variant

    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    solves = []
    monkeypatch.setattr(ev, "solve_entry_value", lambda v, **kw: solves.append(kw) or SimpleNamespace(baseline=1.25))
    v = load_variant("ofc-pineapple(royalties.front.QQ=11)")
    assert ev._first_use_baseline(v) == 1.25 and solves == [ev._FIRST_USE]
    path = ev.first_use_path(v)
    assert path.parent == tmp_path / "ofc" / "first_use" and path.exists()
    assert ev._first_use_baseline(v) == 1.25 and len(solves) == 1  # read back, not solved
    other = load_variant("ofc-pineapple(royalties.front.QQ=12)")
    assert ev.first_use_path(other) != path
    path.write_text("{not json")
    assert ev._first_use_baseline(v) == 1.25 and len(solves) == 2
    assert '"baseline": 1.25' in path.read_text()


def test_the_fantasyland_terms_are_kept_for_the_next_process_exactly(monkeypatch, tmp_path):
    """A rule set's Fantasyland terms (``F``, its SE and ``p`` a size) are computed once and kept in
    the cache folder: read back they equal freshly computed ones to the last bit; a file that does
    not read is computed again and replaced; another rule set or other code has another file."""
    from cpstats.ofc import entry_value as ev

    monkeypatch.setenv("CPSTATS_CACHE_DIR", str(tmp_path))
    fresh = ev.fantasy_terms(PINE)
    assert ev._terms.__wrapped__(PINE) == fresh  # computed and written (the process cache bypassed)
    path = ev.terms_path(PINE)
    assert path.parent == tmp_path / "ofc" / "terms" and path.exists()
    computed = []
    monkeypatch.setattr(ev, "fantasy_terms", lambda v: computed.append(v) or fresh)
    read = ev._terms.__wrapped__(PINE)
    assert read == fresh and computed == []  # read back, every float equal
    assert all(type(n) is int and type(x) is float for n, t in read.items() for x in t)
    path.write_text("{not json")
    assert ev._terms.__wrapped__(PINE) == fresh and computed == [PINE]
    assert ev._terms.__wrapped__(PINE) == fresh and computed == [PINE]  # replaced by a whole file
    assert ev.terms_path(get_preset("ofc-classic")) != path
    monkeypatch.setattr(ev, "_terms_code", lambda: "other code")
    assert ev.terms_path(PINE) != path
