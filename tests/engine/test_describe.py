"""Rules in words (issue 16.5): every rule ID has a name and a description, describe() writes
each rule changed from the default, short labels never hold a variant string."""

from __future__ import annotations

import pytest

from cpstats.thirteen.rules.ids import (NATURAL_NAMES, Deal, HandOrdering, NaturalSchedule, NaturalSettlement, RoyaltyMode, RoyaltySchedule, Scoring)
from cpstats.thirteen.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES
from cpstats.rules.house import BankMode
from cpstats.engine.registry import get_preset, load_variant
from cpstats.thirteen.rules.presets import preset_names
from cpstats.engine.describe import (describe, describe_rules, format_number, glossary,
                                    short_label)
from cpstats.rules.rulebook import RULES, SECTIONS, rule_info
from cpstats.thirteen.rules.ids import natural_id


def _ids_in_use() -> set[str]:
    """Every rule ID the package can express: its enums, schedules and naturals, and every ID
    the presets set."""
    ids = {m.value for enum in (Scoring, RoyaltySchedule, RoyaltyMode, NaturalSchedule,
                                NaturalSettlement, HandOrdering, Deal) for m in enum}
    ids |= {BankMode.BANKED.value, "SC-STAKES", "S-SURRENDER", "S-MISSET", "S-CHIPS", "S-ACES",
            "S-RAKE"}
    ids |= {s.value for s in ROYALTY_TABLES} | {s.value for s in NATURAL_TABLES}
    ids |= {natural_id(n) for n in NATURAL_NAMES}
    ids |= {natural_id(n) for table in NATURAL_TABLES.values() for n, _ in table}
    for name in preset_names():
        v = get_preset(name)
        ids |= {v.scoring.system.value, v.royalties.schedule.value, v.royalties.mode.value,
                v.naturals.schedule.value, v.naturals.settlement.value, v.ranking.value,
                v.deal.value}
    return ids


def test_every_rule_id_in_use_has_a_name_and_a_one_line_description():
    """A human name, a short label and one line for every ID presets and schedules use."""
    missing = sorted(_ids_in_use() - set(RULES))
    assert not missing, f"rule IDs without a glossary entry: {missing}"
    for rule, info in RULES.items():
        assert info.name and info.short and info.description, rule
        assert "\n" not in info.description and len(info.description) <= 100, rule
        assert "(" not in info.short and "=" not in info.short, rule
        assert info.section in SECTIONS, rule
    assert rule_info("six_pairs").name == "Six pairs"
    with pytest.raises(KeyError, match="OFC-JOKER"):
        rule_info("OFC-JOKER")


def test_glossary_is_a_plain_table_of_every_rule():
    """The docs' glossary is built from the same data."""
    table = glossary()
    assert list(table.columns) == ["id", "name", "short", "description", "section", "section_name"]
    assert set(table["id"]) == set(RULES)
    assert list(table["section"]) == sorted(table["section"])


# override, the line of describe() it changes, words that line must then hold
CHANGES = [
    ("scoring=SC-1-6", "scoring", "3 more for a scoop"),
    ("scoring.scoop_bonus=5", "scoring", "5 more for a scoop"),
    ("scoring.middle=2", "scoring", "2 middle"),
    ("royalties=R-TW", "royalties", "Taiwanese royalties (R-TW)"),
    ("royalties.front_trips=10", "royalties", "trips 10"),
    ("royalties=R-TW,royalty_mode=RM-CANCEL", "royalties", "RM-CANCEL"),
    ("naturals=NS-TW", "naturals", "clean dragon 108"),
    ("naturals=NS-TW,naturals.settlement=NAT-1", "naturals", "NAT-1"),
    ("surrender=3", "surrender", "pay 3 units"),
    ("misset=4", "mis-set", "4 units to every other player"),
    ("rake=percent,rake.percent=0.05,rake.cap=3", "house charge",
     "5% of the pot (the winning seats' nets), capped at 3"),
    ("rake=time,rake.amount=6", "house charge", "6 units per player an hour"),
    ("rake=fixed-table,rake.amount=0.5,rake.jackpot_drop=0.1", "house charge", "jackpot drop of 0.1"),
    ("bank=S-BANK,bank.wins_ties=false", "banking", "tied rows push"),
    ("bank=S-BANK,bank.commission=0.05", "banking", "5% commission"),
    ("players=3", "players", "3 players"),
    ("ranking=H4", "ordering", "H4"),
    ("ranking=H5", "ordering", "H5"),
    ("aces=true", "extras", "aces side bet"),
    ("chips_limit=true", "extras", "chip limit"),
]


@pytest.mark.parametrize("override,line,words", CHANGES)
def test_describe_mentions_each_rule_changed_from_the_default(override, line, words):
    """describe() writes every changed rule in words on its own line."""
    base = dict(describe_rules("2-4"))
    changed = dict(describe_rules(f"2-4({override})"))
    assert changed[line] != base.get(line), line
    assert words in changed[line]
    assert "nan" not in describe(f"2-4({override})")


def test_describe_writes_nine_rules_in_words():
    """Scoring, royalties, naturals, surrender, mis-set, rake, banking, players, ordering."""
    text = describe("futurebet-2-4")
    assert [line.split(":")[0] for line in text.splitlines()[1:]] == [
        "scoring", "royalties", "naturals", "surrender", "mis-set", "house charge", "banking",
        "players", "ordering"]
    assert "0.05 units per player a hand" in text and "pay 2 units to each opponent" in text
    assert describe(load_variant("2-4")) == describe("2-4")


VARIANTS = [*preset_names(), "1-6(royalties=R-FUTUREBET,rake=percent,rake.percent=0.05)",
            "2-4(rake=percent,rake.percent=0.05,rake.cap=3)", "banked(royalties=R-PAGAT-EXTRA-A)",
            "2-4(scoring=SC-TW,players=3,naturals=NS-TW,surrender=2,misset=4,ranking=H5)",
            "basic(name=mygame,players=2)", "2-4(stakes=0:1:2:2/1:0:1:1/2:1:0:1/2:1:1:0)"]


@pytest.mark.parametrize("text", VARIANTS)
def test_a_label_never_holds_a_raw_variant_string(text):
    """Short labels are words: no parentheses, no key=value, no rule codes."""
    label = short_label(text)
    v = load_variant(text)
    assert label.startswith(v.name)
    assert not set("()=") & set(label), label
    assert "R-" not in label and "NS-" not in label and "SC-" not in label
    assert len(short_label(text, max_parts=2)) <= 60


def test_short_label_names_the_changes():
    """The label reads "2-4, 5% rake capped 3" rather than the variant string."""
    assert short_label("2-4(rake=percent,rake.percent=0.05,rake.cap=3)") == "2-4, 5% rake capped 3"
    assert short_label("2-4") == "2-4"
    assert short_label("1-6(royalties=R-TW,players=3)") == "1-6, 3 players, TW royalties"
    many = "2-4(scoring=SC-TW,players=3,naturals=NS-TW,surrender=2,misset=4,ranking=H5)"
    assert short_label(many, max_parts=2).endswith("+4 more")


@pytest.mark.parametrize("value,text", [
    (1e6, "1,000,000"), (1_000_000, "1,000,000"), (0.05, "0.05"), (0.123456, "0.1235"),
    (-0.00012346, "-0.0001235"), (2.5e-7, "0.00000025"), (12345.678, "12,346"),
    (float("nan"), "–"), (None, "–"), (float("inf"), "∞"), (True, "yes"), ("x", "x"),
])
def test_numbers_are_written_for_reading(value, text):
    """No 1e+06, no nan, no trailing zeros."""
    assert format_number(value) == text
    assert "e+" not in format_number(value) and "e-" not in format_number(value)


def test_signed_numbers():
    assert format_number(0.5, signed=True) == "+0.5"
    assert format_number(-0.5, signed=True) == "-0.5"
