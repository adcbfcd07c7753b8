"""OFC rules as data (rulebook section 7): worked examples named by rule ID, the
lookup tables, variant strings that round-trip, and one-line validation messages."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpstats.errors import OptionError
from cpstats.hands.ranking import category3, category5, rank3
from cpstats.ofc import FantasylandRules, Deal, Variant, StayRule, board_values, parse_ofc_variant
from cpstats.engine.registry import get_preset
from cpstats.ofc.rules import PRESETS as OPEN_FACE_PRESETS
from cpstats.ofc import _board_kernel as bk
from cpstats.ofc.rules import FIVE_ROW_CATEGORIES


def value(variant, board):
    b = board_values(variant, board)
    return bool(b.fouled), b.royalty.tolist(), int(b.fl_cards), bool(b.stays)


# -- deals ------------------------------------------------------------------------------------

def test_ofc_deal_classic():
    """OFC-DEAL-CLASSIC: 5 cards then 1 a street for 8 streets, all kept; 2-4 players (said in
    words: the deal's rulebook ID means nothing to a user)."""
    v = get_preset("ofc-classic")
    assert v.deal is Deal.CLASSIC and v.cards_dealt == (5,) + (1,) * 8
    assert v.cards_kept == v.cards_dealt and v.cards_per_hand == 13
    assert v.replace(players=4).players == 4
    with pytest.raises(OptionError, match=r"^players=5 is invalid: 2, 3 or 4 players$"):
        v.replace(players=5)


def test_ofc_deal_pineapple():
    """OFC-DEAL-PINEAPPLE: 5 cards, then 3 cards four times keeping 2; 2-3 players."""
    v = get_preset("ofc-pineapple")
    assert v.cards_dealt == (5, 3, 3, 3, 3) and v.cards_kept == (5, 2, 2, 2, 2)
    assert sum(v.cards_kept) == 13 and v.cards_per_hand == 17
    with pytest.raises(OptionError, match=r"^players=4 is invalid: 2 or 3 players with the pineapple deal "
                                         r"\(2, 3 or 4 with deal=classic\)$"):
        v.replace(players=4)


# -- fouls and royalties ----------------------------------------------------------------------

def test_ofc_foul_front_above_middle():
    """OFC-FOUL: QQ in front over a middle of 55 fouls: no royalty, no Fantasyland, no stay."""
    assert value("ofc-pineapple", "Qs Qd 2c / 5h 5d 7c 9s Jd / Ah Kh Qh Jh Th") == (True, [0, 0, 0], 0, False)


def test_ofc_foul_middle_above_back():
    """OFC-FOUL: a flush middle over a straight back fouls."""
    assert value("ofc-pineapple", "2s 3d 4c / 2h 7h 9h Jh Kh / 5c 6d 7s 8c 9d")[0]


def test_ofc_foul_equal_front_and_middle_cards_is_clean():
    """OFC-FOUL with H3's decision: a front QQ2 under a middle QQ2xx is the lower hand."""
    fouled, *_ = value("ofc-pineapple", "Qs Qd 2c / Qh Qc 2d 3s 4h / Ah Ad Kc Ks 5d")
    assert not fouled


STANDARD_BOARDS = [
    # board, (front, middle, back) royalties under OFC-R-STANDARD
    ("6s 6d 2c / 7h 7d 7c 9s Jd / 2h 3h 4d 5c 6h", [1, 2, 2]),        # 66, mid trips, back straight
    ("As Ad 2c / 3h 4d 5c 6s 7d / 2h 8h 9h Jh Kh", [9, 4, 4]),        # AA, mid straight, back flush
    ("2s 2d 2c / 3c 5c 8c Tc Qc / 9h 9d 9s 4h 4d", [10, 8, 6]),       # 222, mid flush, back full
    ("As Ad Ac / 3s 3d 3h 4c 4s / Kh Kd Ks Kc 5d", [22, 12, 10]),     # AAA, mid full, back quads
    ("Ks Kd 2c / 8h 8d 8c 8s 3d / 4h 5h 6h 7h 3h", [8, 20, 15]),      # KK, mid quads, back SF
    ("5s 5d 2c / 5c 6c 7c 8c 9c / Ah Kh Qh Jh Th", [0, 30, 25]),      # 55 pays 0, mid SF, royal
    ("7s 7d 2c / As Ks Qs Js Ts / Ah Kd Qc Jd 9d", [2, 50, 0]),       # 77, royal middle (foul)
]


@pytest.mark.parametrize("board,royalty", STANDARD_BOARDS[:-1])
def test_ofc_r_standard_worked_examples(board, royalty):
    """OFC-R-STANDARD: back 2/4/6/10/15/25, middle 2/4/8/12/20/30/50, front 66=1..AA=9,
    222=10..AAA=22, on clean boards."""
    fouled, got, _, _ = value("ofc-pineapple", board)
    assert not fouled and got == royalty


def test_ofc_r_standard_royal_middle_over_lesser_back_fouls():
    """OFC-R-STANDARD with OFC-FOUL: the royal middle's 50 is lost when the back is weaker."""
    assert value("ofc-pineapple", STANDARD_BOARDS[-1][0])[:2] == (True, [0, 0, 0])


def test_ofc_r_standard_tables_against_category_names():
    """OFC-R-STANDARD: every rank3 and rank5 entry of the tables, recomputed from the category
    names of cpstats.hands.ranking."""
    t = get_preset("ofc-pineapple").kernel_tables()
    by_rank = _front_hands()
    front = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    for r in range(455):
        hand = by_rank[r]
        ranks = sorted((int(x) >> 2 for x in hand), reverse=True)
        name = category3(r)
        if name == "three_of_a_kind":
            assert t.front_royalty[r] == 10 + ranks[0]
        elif name == "pair":
            assert t.front_royalty[r] == front[ranks[1]]
        else:
            assert t.front_royalty[r] == 0
    mid = dict(zip(FIVE_ROW_CATEGORIES, (0, 0, 0, 2, 4, 8, 12, 20, 30, 50)))
    back = dict(zip(FIVE_ROW_CATEGORIES, (0, 0, 0, 0, 2, 4, 6, 10, 15, 25)))
    cats = category5(np.arange(7462))
    names = np.where(np.arange(7462) == 7461, "royal_flush", cats)
    assert t.middle_royalty.tolist() == [mid[n] for n in names]
    assert t.back_royalty.tolist() == [back[n] for n in names]


def _front_hands():
    """One three-card hand of every rank3 (the 455 rank multisets)."""
    hands = np.array([(4 * a, 4 * b + 1, 4 * c + 2) for a in range(13) for b in range(a, 13)
                      for c in range(b, 13)], dtype=np.uint8)
    ranks = rank3(hands)
    assert sorted(ranks.tolist()) == list(range(455))
    return dict(zip(ranks.tolist(), hands))


# -- Fantasyland ------------------------------------------------------------------------------

QQ_BOARD = "Qs Qd 2c / 5h 5d 5c 9s Jd / Ah Kh Qh Jh 9h"


def test_ofc_fl_entry():
    """OFC-FL-ENTRY: QQ on a clean board enters with 14 cards (Pineapple) or 13 (classic); JJ
    does not; a fouled QQ board does not."""
    assert value("ofc-pineapple", QQ_BOARD)[2] == 14
    assert value("ofc-classic", QQ_BOARD)[2] == 13
    assert value("ofc-pineapple", "Js Jd 2c / 5h 5d 5c 9s Td / Ah Kh Qh Jh 9h")[2] == 0
    assert value("ofc-pineapple", "Qs Qd 2c / 5h 5d 7c 9s Jd / Ah Kh Qh Jh 9h")[2] == 0


@pytest.mark.parametrize("front,cards", [("Qs Qd 2c", 14), ("Ks Kd 2c", 15), ("As Ad 2c", 16),
                                         ("3s 3d 3c", 17)])
def test_ofc_fl_progressive(front, cards):
    """OFC-FL-PROGRESSIVE: QQ / KK / AA / trips in front deal 14 / 15 / 16 / 17 cards."""
    board = f"{front} / 6h 6d 6c 9s Jd / Ah Kh Qh Jh 9h"
    assert value("ofc-pineapple-progressive", board)[2] == cards


MIDDLE_FULL = "Qs Jd 2c / 5h 5d 5c 9s 9d / Kh Kd Ks 3h 3d"       # full house middle and back
FRONT_TRIPS = "2s 2d 2c / 5h 5d 5c 9s Td / Ah Kh Qh Jh 9h"        # trips front
BACK_QUADS = "Js 4d 2c / 5h 5d 6c 9s Td / Ah Ad Ac As 9h"         # quads back
NOTHING = "Qs Qd 2c / 5h 5d 5c 9s Td / Ah Kh Qh Jh 9h"           # QQ only


def test_ofc_fl_stay_a():
    """OFC-FL-STAY-A (classic): trips front, full house+ middle or quads+ back stay."""
    stays = [value("ofc-classic", b)[3] for b in (FRONT_TRIPS, MIDDLE_FULL, BACK_QUADS, NOTHING)]
    assert stays == [True, True, True, False]
    assert get_preset("ofc-classic").kernel_tables().fl_stay_cards.tolist() == [13]


def test_ofc_fl_stay_b():
    """OFC-FL-STAY-B (Pineapple): trips front or quads+ back only; a stay deals 14 cards, also
    under OFC-FL-PROGRESSIVE."""
    stays = [value("ofc-pineapple", b)[3] for b in (FRONT_TRIPS, MIDDLE_FULL, BACK_QUADS, NOTHING)]
    assert stays == [True, False, True, False]
    t = get_preset("ofc-pineapple-progressive").kernel_tables()
    assert t.fl_stay_cards.tolist() == [14]


def test_ofc_fl_next_fantasy_kernel():
    """OFC-FL-ENTRY / OFC-FL-STAY-B: the next hand's deal from a normal and a Fantasyland hand."""
    stay = np.array([14])
    assert bk.next_fantasy(False, 15, False, stay) == 15
    assert bk.next_fantasy(True, 15, False, stay) == 0
    assert bk.next_fantasy(True, 0, True, stay) == 14


def test_stay_none_and_no_entry():
    """Decision: fantasyland.cards=0/0/0/0 turns Fantasyland off, stay=none keeps nobody."""
    v = parse_ofc_variant("ofc-pineapple(fantasyland.cards=0/0/0/0)")
    t = v.kernel_tables()
    assert not t.fl_entry_cards.any() and not t.fl_stay_front.any() and not t.fl_stay_back.any()
    v = parse_ofc_variant("ofc-pineapple(fantasyland.stay=none)")
    assert not v.kernel_tables().fl_stay_back.any()


def test_ofc_joker_refused():
    """OFC-JOKER: the 54-card deck is not supported, said in one line."""
    with pytest.raises(OptionError, match=r"^jokers='2' is invalid: OFC-JOKER .* not supported"):
        parse_ofc_variant("ofc-pineapple(jokers=2)")
    with pytest.raises(OptionError, match="OFC-JOKER"):
        Variant.from_dict({"jokers": 2})


# -- strings and validation -------------------------------------------------------------------

@pytest.mark.parametrize("name", list(OPEN_FACE_PRESETS))
def test_presets_round_trip(name):
    """Every preset prints as its name and parses back equal."""
    v = get_preset(name)
    assert str(v) == name and parse_ofc_variant(str(v)) == v
    assert Variant.from_dict(v.to_dict()) == v


def test_progressive_preset_is_pineapple_with_progressive_cards():
    """OFC-FL-PROGRESSIVE preset: Pineapple with 14/15/16/17 and stay B dealing 14."""
    v = get_preset("ofc-pineapple-progressive")
    assert str(v.replace(name="ofc-pineapple")) == "ofc-pineapple(fantasyland.cards=14/15/16/17)"
    assert v.fantasyland == FantasylandRules(cards=(14, 15, 16, 17), stay=StayRule.B, stay_cards=14)


_OPTIONS = st.fixed_dictionaries({}, optional={
    "players": st.sampled_from([2, 3]),
    "scoring__row": st.integers(0, 5),
    "scoring__scoop": st.integers(0, 9),
    "royalties__front__QQ": st.integers(0, 30),
    "royalties__front__AAA": st.integers(0, 40),
    "royalties__middle__flush": st.integers(0, 20),
    "royalties__back__quads": st.integers(0, 20),
    "royalties__back__royal_flush": st.integers(0, 100),
    "fantasyland__cards": st.lists(st.sampled_from([0, 13, 14, 15, 16, 17]), min_size=4,
                                   max_size=4).map(sorted),
    "fantasyland__stay": st.sampled_from(["A", "B", "none", "OFC-FL-STAY-B"]),
    "fantasyland__stay_cards": st.integers(13, 17),
    "rake": st.sampled_from(["none", "percent", "time"]),
    "button": st.sampled_from(["rotate", "fixed"]),
    "stakes__buy_in": st.one_of(st.none(), st.integers(1, 500)),
    "match": st.sampled_from(["none", "round"]),
})


@settings(max_examples=150, deadline=None)
@given(base=st.sampled_from(list(OPEN_FACE_PRESETS)), options=_OPTIONS)
def test_random_variants_round_trip(base, options):
    """Random option combinations print to a string that parses back equal (hypothesis)."""
    rake = options.pop("rake", "none")
    extra = {"percent": {"rake__percent": 0.05, "rake__cap": 3}, "time": {"rake__amount": 6}}
    if options.get("button") == "rotate":
        options["button__fantasyland"] = "move" if len(options) % 2 else "hold"
    if options.get("match") == "round" and rake != "time":
        options["match__rake"] = "match"
    v = get_preset(base).replace(**options, rake=rake, **extra.get(rake, {}))
    assert parse_ofc_variant(str(v)) == v
    assert Variant.from_dict(v.to_dict()) == v


@pytest.mark.parametrize("text,message", [
    ("ofc-pineapple(royalties.middle.flush=-1)",
     r"^royalties\.middle\.flush=-1 is invalid: units must be >= 0$"),
    ("ofc-pineapple(royalties.front.QQ=2.5)", r"^royalties\.front\.QQ=2\.5 is invalid: expected a whole number$"),
    ("ofc-pineapple(fantasyland.cards=14/13/14/14)",
     r"^fantasyland\.cards='14/13/14/14' is invalid: a better front .* never gets fewer cards$"),
    ("ofc-pineapple(fantasyland.cards=14/14/14/18)",
     r"^fantasyland\.cards\.trips=18 is invalid: 0 \(no entry\) or 13\.\.17 cards$"),
    ("ofc-pineapple(fantasyland.cards=14/14)", r"^fantasyland\.cards='14/14' is invalid: expected 4 amounts"),
    ("ofc-pineapple(fantasyland.stay=C)", r"^fantasyland\.stay='C' is invalid: expected one of A, B, none"),
    ("ofc-pineapple(fantasyland.stay_cards=12)", r"^fantasyland\.stay_cards=12 is invalid: 13\.\.17 cards$"),
    ("ofc-classic(players=4,fantasyland.cards=14/14/14/14)",
     r"^players=4 is invalid: 4 hands of up to 14 cards need more than 52 cards"),
    ("ofc-pineapple(deal=open)", r"^deal='open' is invalid: expected one of classic, pineapple"),
    ("ofc-pineapple(player=3)", r"^'player' is an unknown key \(did you mean 'players'\?\)$"),
    ("ofc-pineapple(royalties.front.Q=3)",
     r"^'royalties\.front\.Q' is an unknown key \(did you mean 'royalties\.front\.QQ'"),
    ("ofc-pineapple(royalties=R-FUTUREBET)",
     r"^royalties='R-FUTUREBET' is invalid: an open-face royalty table is set entry by entry, e\.g\. "
     r"royalties\.front\.QQ=7"),
    ("ofc-pineapple(players=3,players=2)", r"^players='2' is invalid: players is given twice$"),
    ("ofc-pineapple(players)", r"^malformed override 'players'"),
    ("ofc-pinapple", r"^unknown OFC preset 'ofc-pinapple' \(did you mean 'ofc-pineapple'"),
    ("ofc-pineapple(scoring.scoop=-3)", r"^scoring\.scoop=-3 is invalid: units must be >= 0$"),
    ("ofc-pineapple(rake.percent=0.05)",
     r"^rake\.percent=0\.05 is invalid: the none rake model does not use it \(set rake=percent\)$"),
    ("ofc-pineapple(button=spin)", r"^button='spin' is invalid: expected one of rotate, fixed$"),
    ("ofc-pineapple(button.fantasyland=stay)",
     r"^button\.fantasyland='stay' is invalid: expected one of move, hold$"),
    ("ofc-pineapple(button=fixed,button.fantasyland=move)",
     r"^button\.fantasyland='move' is invalid: a fixed button never moves \(set button=rotate\)$"),
    ("ofc-pineapple(stakes.buy_in=0)", r"^stakes\.buy_in=0 is invalid: units must be >= 1$"),
    ("ofc-pineapple(stakes.buy_in=2.5)", r"^stakes\.buy_in=2\.5 is invalid: expected a whole number$"),
    ("ofc-pineapple(stakes.buy_in=lots)", r"^stakes\.buy_in='lots' is invalid"),
    ("ofc-pineapple(match=game)", r"^match='game' is invalid: expected one of none, round$"),
    ("ofc-pineapple(match.rake=match)",
     r"^match\.rake='match' is invalid: a rake per match needs matches \(set match=round\)$"),
    ("ofc-pineapple(match=round,match.rake=match,rake=time,rake.amount=6)",
     r"^match\.rake='match' is invalid: a time rake is charged by the hour, not by the match$"),
])
def test_validation_messages(text, message):
    """Bad options are one OptionError line naming the option and what is allowed."""
    with pytest.raises(OptionError, match=message):
        parse_ofc_variant(text)


def test_constructor_validation_and_aliases():
    """The dataclasses check themselves; category aliases (trips, quads, royal) are accepted."""
    with pytest.raises(OptionError, match=r"^fantasyland=3 is invalid: expected a FantasylandRules"):
        Variant(fantasyland=3)
    with pytest.raises(OptionError, match=r"^players='2' is invalid: expected a number$"):
        Variant(players="2")
    v = parse_ofc_variant("ofc-pineapple(royalties.middle.trips=3,royalties.back.royal=30)")
    assert v.royalties.middle[3] == 3 and v.royalties.back[9] == 30
    assert str(v) == "ofc-pineapple(royalties.middle.three_of_a_kind=3,royalties.back.royal_flush=30)"
    v = parse_ofc_variant("OFC-Pineapple(rake=percent,rake.percent=0.05,rake.cap=2)")
    assert (v.rake.percent, v.rake.cap) == (0.05, 2)


def test_every_ofc_rule_id_is_in_the_glossary():
    """Issue 17 (rule IDs in the docs): every OFC rule ID the subpackage cites has a name and a
    one-line description in cpstats.rules.rulebook.RULES (the glossary's data), jokers excepted."""
    import re
    from pathlib import Path

    import cpstats.ofc
    from cpstats.rules.rulebook import RULES

    import cpstats.ofc.rules

    sources = [*Path(cpstats.ofc.__file__).parent.glob("*.py"), Path(cpstats.ofc.rules.__file__)]
    text = " ".join(p.read_text() for p in sources)
    cited = set(re.findall(r"OFC-[A-Z0-9]+(?:-[A-Z0-9]+)*\b(?!-)", text)) - {"OFC-JOKER"}
    assert {"OFC-FOUL", "OFC-FL-ENTRY", "OFC-R-STANDARD"} <= cited
    missing = sorted(c for c in cited if c not in RULES)
    assert not missing, missing
    assert all(RULES[c].section == 7 for c in cited)


def test_replace_takes_a_component_as_the_13_card_variant_does():
    """``replace(rake=Rake(...))`` sets the field (it was read as a string, with a confusing error)."""
    from cpstats.engine.registry import load_variant
    from cpstats.rules.house import Rake, RakeModel

    v = load_variant("ofc-pineapple").replace(rake=Rake(model=RakeModel.PERCENT, percent=0.05), players=3)
    assert str(v) == "ofc-pineapple(players=3,rake=percent,rake.percent=0.05)"
    assert load_variant(str(v)) == v


# -- OFC-BUTTON, OFC-STAKES, OFC-MATCH ---------------------------------------------------------

def test_ofc_button_stakes_match_defaults_are_the_rooms_game():
    """Every preset deals as rooms do: the button moves (held for a Fantasyland hand), no stakes and no
    match; its string is still its name, ``button=fixed`` (the order of the runs before) prints, and the
    new rules are written only when they differ."""
    from cpstats.ofc.table_rules import ButtonMove, FantasylandButton, MatchFormat, RakeBasis

    for name in OPEN_FACE_PRESETS:
        v = get_preset(name)
        assert v.button.moves is ButtonMove.ROTATE and v.button.rotates
        assert v.button.fantasyland is FantasylandButton.HOLD
        assert v.stakes.buy_in is None and not v.stakes.limited
        assert v.match.format is MatchFormat.NONE and v.match.rake is RakeBasis.HAND and not v.match.rounds
        assert str(v) == name
        fixed = v.replace(button="fixed")
        assert str(fixed) == f"{name}(button=fixed)" and parse_ofc_variant(str(fixed)) == fixed


def test_ofc_button_stakes_match_round_trip_and_read_their_aliases():
    """The keys print in the variant string and read back equal; ``stakes=`` and ``match.format=`` are
    aliases of ``stakes.buy_in`` and ``match``; ``stakes.buy_in=none`` is unlimited."""
    text = ("ofc-pineapple(players=3,rake=percent,rake.percent=0.05,button.fantasyland=move,"
            "stakes.buy_in=100,match=round,match.rake=match)")
    v = parse_ofc_variant(text)
    assert str(v) == text and parse_ofc_variant(str(v)) == v and Variant.from_dict(v.to_dict()) == v
    assert (v.button.rotates, v.stakes.buy_in, v.match.rounds, v.match.rake.value) == (True, 100, True, "match")
    assert parse_ofc_variant("ofc-pineapple(stakes=50,match.format=round)") == \
        parse_ofc_variant("ofc-pineapple(stakes.buy_in=50,match=round)")
    assert parse_ofc_variant("ofc-pineapple(stakes.buy_in=none)") == get_preset("ofc-pineapple")
    assert get_preset("ofc-pineapple").replace(button="rotate", stakes__buy_in=50).stakes.buy_in == 50
    assert parse_ofc_variant("ofc-pineapple(button=rotate)") == get_preset("ofc-pineapple")


def test_ofc_button_stakes_match_in_words_and_glossary():
    """describe() names OFC-BUTTON, OFC-STAKES and OFC-MATCH when the rules play them (a fixed button
    cites no ID) and the glossary has each, in section 7."""
    from cpstats.ofc.words import describe_rules, short_label
    from cpstats.rules.rulebook import RULES

    fixed = dict(describe_rules(get_preset("ofc-pineapple").replace(button="fixed")))
    assert "OFC-BUTTON" not in fixed["button"] and "seat 0 acts first" in fixed["button"]
    assert "table stakes" not in fixed and "match" not in fixed
    v = parse_ofc_variant("ofc-pineapple(stakes.buy_in=100,match=round,match.rake=match,"
                          "rake=percent,rake.percent=0.05)")
    words = dict(describe_rules(v))
    assert "OFC-BUTTON" in words["button"] and "held for a Fantasyland hand" in words["button"]
    assert words["table stakes"].startswith("100 points each for a match") and "OFC-STAKES" in words["table stakes"]
    assert "OFC-MATCH" in words["match"] and "once a match" in words["match"]
    assert dict(describe_rules(v.replace(match="none", match__rake="hand")))["table stakes"].startswith(
        "100 points each for every hand")
    assert short_label(v, None) == "ofc-pineapple, 5% rake, buy-in 100, matches of a round, rake a match"
    assert short_label(v.replace(button="fixed"), None).startswith("ofc-pineapple, 5% rake, button fixed (seat 0 first),")
    assert "button rotates, moved on Fantasyland hands" in short_label(v.replace(button__fantasyland="move"), None)
    assert all(RULES[r].section == 7 for r in ("OFC-BUTTON", "OFC-STAKES", "OFC-MATCH"))
