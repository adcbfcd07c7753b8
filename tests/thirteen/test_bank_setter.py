"""S-HOUSE-WAY, ``bank.setter=house-way|ev`` (issue 48.4): who sets a banked game's bank hand.

The rule round-trips in the variant string and refuses bad values in one line; house-banked
presets default to the house way; ``bank.setter=ev`` plays exactly as the banked game did before
the rule existed (bit for bit, pinned from the parent commit); a house-way run sets seat 0 by
the house way and the players by their setter, and says so in its metadata.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from cpstats.cards.blocks import root_seed, shuffled_decks
from cpstats.engine.describe import describe_rules, short_label
from cpstats.errors import OptionError
from cpstats.rules.house import BankSetter
from cpstats.rules.rulebook import RULES
from cpstats.thirteen.house import bank_edge
from cpstats.thirteen.play import (HOUSE_WAY_WORDS, EvSetter, HouseWaySetter, as_setter, set_hands)
from cpstats.thirteen.play.house_way import house_way
from cpstats.thirteen.play.setters import BASELINES, SETTERS
from cpstats.thirteen.rules.presets import preset_names
from cpstats.thirteen.rules.variant import get_preset, parse_variant
from cpstats.thirteen.run import BANK_HOUSE_WAY, simulate
from cpstats.thirteen.summary import settle_block

DEALS, SEED, BLOCK = 3_000, 4848, 1_000


def _digest(result) -> str:
    """16 hex digits of the run's per-batch nets, squares, charges, net distribution and tie gain."""
    s = result.summary
    h = hashlib.sha256()
    for name in ("net_by_batch", "net_sq_by_batch", "rake_by_batch", "net_values", "net_counts",
                 "tie_gain_by_batch"):
        h.update(np.ascontiguousarray(getattr(s, name), dtype=np.float64).tobytes())
    return h.hexdigest()[:16]


# -- the rule ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, shown", [
    ("banked", "banked"),
    ("banked(bank.setter=ev)", "banked(bank.setter=ev)"),
    ("banked(bank.setter=EV)", "banked(bank.setter=ev)"),
    ("banked(bank.setter=house-way)", "banked"),
    ("banked(bank=none)", "banked(bank=none)"),
    ("2-4(bank=S-BANK)", "2-4(bank=S-BANK)"),
    ("2-4(bank=S-BANK,bank.setter=ev)", "2-4(bank=S-BANK,bank.setter=ev)"),
])
def test_s_house_way_round_trips(text, shown):
    """S-HOUSE-WAY: the variant string writes ``bank.setter`` only where it differs from the preset."""
    v = parse_variant(text)
    assert str(v) == shown and parse_variant(str(v)) == v
    assert get_preset("banked").replace(bank__setter="ev") == parse_variant("banked(bank.setter=ev)")


@pytest.mark.parametrize("text, message", [
    ("banked(bank.setter=best)", r"^bank\.setter='best' is invalid: expected one of house-way, ev"),
    ("2-4(bank.setter=ev)",
     r"^bank\.setter='ev' is invalid: only a banked game \(bank=S-BANK\) has a bank to set$"),
    ("banked(bank=none,bank.setter=ev)", r"only a banked game \(bank=S-BANK\) has a bank to set"),
])
def test_s_house_way_refusals_are_one_line(text, message):
    with pytest.raises(OptionError, match=message) as err:
        parse_variant(text)
    assert "\n" not in str(err.value)


def test_a_house_way_bank_under_h5_is_refused_when_run():
    """The house way has no rules for a low middle: the variant builds, a run of it is refused."""
    v = parse_variant("banked(ranking=H5)")
    with pytest.raises(OptionError, match=r"^bank\.setter='house-way' is invalid for banked\(ranking=H5\): "
                       r"the house way sets high rows .*set bank\.setter=ev$"):
        simulate(v, 10, setter="greedy", rng=1)


def test_house_banked_presets_default_to_the_house_way():
    """Every preset with a bank sets it by the house way (S-HOUSE-WAY); ``banked`` is one."""
    banked = [name for name in preset_names() if get_preset(name).bank.banked]
    assert "banked" in banked
    assert all(get_preset(name).bank.setter is BankSetter.HOUSE_WAY for name in banked)
    assert parse_variant("banked(ranking=H5,bank.setter=ev)").bank.setter is BankSetter.EV


def test_s_house_way_in_words():
    """The glossary has S-HOUSE-WAY; describe()'s banking line names it, or says the bank sets as
    the players; the short label says only what differs from the preset."""
    assert RULES["S-HOUSE-WAY"].section == 6
    banking = dict(describe_rules(get_preset("banked")))["banking"]
    assert "the bank sets by the house way (S-HOUSE-WAY): the dealer's fixed rules" in banking
    ev = dict(describe_rules(parse_variant("banked(bank.setter=ev)")))["banking"]
    assert "the bank sets as the players do" in ev and "S-HOUSE-WAY" not in ev
    assert short_label("banked") == "banked"
    assert short_label("banked(bank.setter=ev)") == "banked, bank sets as the players"
    assert "players against each other" in dict(describe_rules(get_preset("2-4")))["banking"]


def test_house_way_is_named_as_the_dealers_rules_not_a_baseline():
    assert SETTERS["house-way"] is HouseWaySetter and as_setter("house-way") == HouseWaySetter()
    assert not issubclass(HouseWaySetter, BASELINES)
    assert HouseWaySetter.words == HOUSE_WAY_WORDS == "house way: the dealer's fixed rules"


# -- the run ----------------------------------------------------------------------------------

@pytest.mark.parametrize("setter, pinned, seat_sums", [
    (EvSetter(tables="banked"), "e7f89b39002d27da", [-11.0, -28.0, 18.0, 21.0]),
    ("greedy", "eef01e89c69fdfad", [315.0, -108.0, -94.0, -113.0]),
])
def test_ev_bank_plays_as_before_bit_for_bit(setter, pinned, seat_sums):
    """``banked(bank.setter=ev)`` gives the numbers ``banked`` gave before S-HOUSE-WAY existed
    (digest and seat sums recorded at commit 31d9410 on the same seed, deals and blocks): ev with
    banked's row tables, and greedy."""
    r = simulate(parse_variant("banked(bank.setter=ev)"), DEALS, setter=setter, rng=SEED,
                 block_deals=BLOCK)
    assert _digest(r) == pinned
    assert r.summary.net_sum.tolist() == seat_sums
    assert "bank" not in r.metadata


def test_bank_setter_does_not_move_the_players_tables():
    """Training values every seat against an ev field, so both bank setters share ev's tables."""
    from cpstats.thirteen.play.row_tables import strategy_digest

    assert strategy_digest("banked(bank.setter=ev)") == strategy_digest("banked")


@pytest.fixture(scope="module")
def house_run():
    return simulate(get_preset("banked"), 2_000, setter="ev", rng=7, keep_hands=True, block_deals=1_000)


def test_the_bank_sets_by_the_house_way_and_the_players_by_their_setter(house_run):
    """Dealt again from the run's seed, seat 0's cards set by house_way() and the others' by ev
    are the run's settings."""
    v = house_run.variant
    root = root_seed(7)
    for block, kept in enumerate(house_run.kept):
        size = kept["settings"].shape[0]
        dealt = shuffled_decks(root, block, size)[:, :52].reshape(size, 4, 13)
        bank = house_way(dealt[:, 0], v)
        assert np.array_equal(bank.settings, kept["settings"][:, 0])
        assert np.array_equal(bank.declare, kept["declare"][:, 0])
        players = set_hands(dealt[:, 1:].reshape(-1, 13), v, setter="ev")
        assert np.array_equal(players.settings, kept["settings"][:, 1:].reshape(-1, 13))
        # not the same play: ev sets some of the bank's hands otherwise
        assert not np.array_equal(set_hands(dealt[:, 0], v, setter="ev").settings, bank.settings)


def test_a_house_way_run_says_so_and_its_edge_is_paired_with_the_setters_own_bank(house_run):
    """metadata["bank"] is "house way". The house edge is the bank's result less what it would
    have netted, ties pushed, had it set as the players (a symmetric game, mean 0): recomputed
    here from the deals, by ev and the settlement, it is the run's figure."""
    assert house_run.metadata["bank"] == BANK_HOUSE_WAY == "house way"
    assert house_run.metadata["strategy"] == "ev"
    v = house_run.variant
    pushed = v.replace(bank__wins_ties=False)
    root, gains = root_seed(7), []
    for block, kept in enumerate(house_run.kept):
        size = kept["settings"].shape[0]
        dealt = shuffled_decks(root, block, size)[:, :52].reshape(size, 4, 13)
        d = set_hands(dealt.reshape(-1, 13), v, setter="ev")
        own, _, _, _ = settle_block(pushed, dealt, d.settings.reshape(size, 4, 13),
                                    d.declare.reshape(size, 4), d.surrender.reshape(size, 4))
        gains.append(kept["net"][:, 0] - own[:, 0])
    edge, _ = bank_edge(v, house_run.summary)
    assert edge.estimate == pytest.approx(np.concatenate(gains).mean() / 9, rel=1e-12)
    # the pairing takes most of the players' luck out: the raw mean's SE is larger
    raw_se = np.concatenate([k["net"][:, 0] for k in house_run.kept]).std(ddof=1) / np.sqrt(2_000) / 9
    assert edge.se < raw_se / 1.5
