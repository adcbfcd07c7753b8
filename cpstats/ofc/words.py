"""Open face's rules in words (registered as the game's words:
:func:`cpstats.engine.describe.describe` and :func:`~cpstats.engine.describe.short_label` put any
game's variant in words through them)."""

from __future__ import annotations

from cpstats.ofc import rules as open_face
from cpstats.engine.describe import format_number, rake_label, rake_text
from cpstats.ofc.rules import KEYS as OFC_KEYS
from cpstats.ofc.rules import Deal, Variant, StayRule
from cpstats.ofc.table_rules import FantasylandButton, RakeBasis

__all__ = ["describe_rules", "short_label"]

_n = format_number


_FL_HANDS = ("QQ", "KK", "AA", "trips")


def _ofc_fantasyland_text(v: Variant) -> str:
    fl = v.fantasyland
    if not any(fl.cards):
        return "no Fantasyland"
    entries = [f"{hand} {cards} cards" for hand, cards in zip(_FL_HANDS, fl.cards) if cards]
    stay = {StayRule.A: "stays on trips front, full house or better middle, or quads or better back",
            StayRule.B: "stays on trips front or quads or better back",
            StayRule.NONE: "never stays"}[fl.stay]
    first = next(h for h, c in zip(_FL_HANDS, fl.cards) if c)
    return (f"a {first}+ front on a board that holds enters ({', '.join(entries)}); {stay}"
            + (f" ({fl.stay_cards} cards)" if fl.stay is not StayRule.NONE else ""))


def _ofc_royalty_changes(v: Variant, base: Variant) -> list[str]:
    out = []
    for key in OFC_KEYS:
        if key.name.startswith("royalties.") and key.read(v.to_dict()) != key.read(base.to_dict()):
            row, hand = key.name.split(".")[1:]
            out.append(f"{row} {hand.replace('_', ' ')} pays {key.read(v.to_dict())}")
    return out


def _ofc_button_text(v: Variant) -> str:
    if not v.button.rotates:
        return "fixed: seat 0 acts first on every street of every hand (the button never moves)"
    held = ("held for a Fantasyland hand" if v.button.fantasyland is FantasylandButton.HOLD
            else "moved on a Fantasyland hand too")
    return f"moves one seat a hand, the player after it acting first on every street; {held} (OFC-BUTTON)"


def _ofc_stakes_text(v: Variant) -> str:
    if not v.stakes.limited:
        return "none: every point owed is paid"
    per = "a match" if v.match.rounds else "every hand"
    return (f"{_n(v.stakes.buy_in)} points each for {per}: nobody wins from a player more than that player "
            "has left, settled pair by pair from the first to act; a player with none left is out (OFC-STAKES)")


def _ofc_match_text(v: Variant) -> str:
    if not v.match.rounds:
        return "none: hands one after another"
    rake = "the rake charged once a match" if v.match.rake is RakeBasis.MATCH else "the rake charged each hand"
    return ("a round: one hand per player plus one per Fantasyland hand, ending early when one player is left; "
            f"{rake} (OFC-MATCH)")


def describe_rules(v: Variant) -> list[tuple[str, str]]:
    changes = _ofc_royalty_changes(v, open_face.get_preset(v.name if v.name in open_face.PRESETS else "ofc-pineapple"))
    deal = ("Pineapple: 5 cards, then 3 a street keeping 2 (OFC-DEAL-PINEAPPLE)"
            if v.deal is Deal.PINEAPPLE else "classic: 5 cards, then 1 a street (OFC-DEAL-CLASSIC)")
    first = ("the player after the button acts first on every street" if v.button.rotates
             else "seat 0 acts first on every street")
    rows = [("deal", deal), ("players", f"{v.players}, {first}"),
            ("scoring", f"{_n(v.scoring.row)} a row won, {_n(v.scoring.scoop)} more for all three "
                        "(OFC-SCORE-1-6); a fouled board loses every row and earns no royalty"),
            ("royalties", "standard table (OFC-R-STANDARD)" + ("; " + ", ".join(changes) if changes else "")),
            ("fantasyland", _ofc_fantasyland_text(v)), ("house charge", rake_text(v.rake)),
            ("button", _ofc_button_text(v))]
    if v.stakes.limited:
        rows.append(("table stakes", _ofc_stakes_text(v)))
    if v.match.rounds:
        rows.append(("match", _ofc_match_text(v)))
    return rows


def short_label(v: Variant, max_parts: int | None = 4) -> str:
    base = open_face.get_preset(v.name if v.name in open_face.PRESETS else "ofc-pineapple")
    parts = [] if v.deal is base.deal else [f"{v.deal.value} deal"]
    if v.players != base.players:
        parts.append(f"{v.players} players")
    parts += _ofc_royalty_changes(v, base)
    fl, b = v.fantasyland, base.fantasyland
    if fl.cards != b.cards:
        parts.append("no Fantasyland" if not any(fl.cards) else
                     f"Fantasyland {'/'.join(str(c) for c in fl.cards)} cards")
    if fl.stay is not b.stay:
        parts.append(f"stay rule {fl.stay.value}")
    if fl.stay_cards != b.stay_cards:
        parts.append(f"stays with {fl.stay_cards} cards")
    if v.scoring != base.scoring:
        parts.append(f"rows {_n(v.scoring.row)}, scoop {_n(v.scoring.scoop)}")
    if v.rake != base.rake:
        parts.append(rake_label(v.rake))
    if v.button != base.button:
        parts.append(("button rotates" + (", moved on Fantasyland hands" if v.button.fantasyland
                                          is FantasylandButton.MOVE else ", held for Fantasyland hands"))
                     if v.button.rotates else "button fixed (seat 0 first)")
    if v.stakes != base.stakes:
        parts.append(f"buy-in {_n(v.stakes.buy_in)}")
    if v.match != base.match:
        parts.append("matches of a round" + (", rake a match" if v.match.rake is RakeBasis.MATCH else ""))
    if max_parts is not None and len(parts) > max_parts:
        parts = [*parts[:max_parts], f"+{len(parts) - max_parts} more"]
    return ", ".join([v.name, *parts])
