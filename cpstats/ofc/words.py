"""Open face's rules in words (registered as the game's words:
:func:`cpstats.engine.describe.describe` and :func:`~cpstats.engine.describe.short_label` put any
game's variant in words through them)."""

from __future__ import annotations

from cpstats.ofc import rules as open_face
from cpstats.engine.describe import format_number, rake_label, rake_text
from cpstats.ofc.rules import KEYS as OFC_KEYS
from cpstats.ofc.rules import Deal, Variant, StayRule

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


def describe_rules(v: Variant) -> list[tuple[str, str]]:
    changes = _ofc_royalty_changes(v, open_face.get_preset(v.name if v.name in open_face.PRESETS else "ofc-pineapple"))
    deal = ("Pineapple: 5 cards, then 3 a street keeping 2 (OFC-DEAL-PINEAPPLE)"
            if v.deal is Deal.PINEAPPLE else "classic: 5 cards, then 1 a street (OFC-DEAL-CLASSIC)")
    return [("deal", deal), ("players", f"{v.players}, seat 0 acts first on every street"),
            ("scoring", f"{_n(v.scoring.row)} a row won, {_n(v.scoring.scoop)} more for all three "
                        "(OFC-SCORE-1-6); a fouled board loses every row and earns no royalty"),
            ("royalties", "standard table (OFC-R-STANDARD)" + ("; " + ", ".join(changes) if changes else "")),
            ("fantasyland", _ofc_fantasyland_text(v)), ("house charge", rake_text(v.rake))]


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
    if max_parts is not None and len(parts) > max_parts:
        parts = [*parts[:max_parts], f"+{len(parts) - max_parts} more"]
    return ", ".join([v.name, *parts])
