"""Rules in words: :func:`describe` writes a variant out line by line, :func:`short_label` names it
in a few words for a chart or a table, :func:`glossary` lists every rule ID.

All three read the names of :data:`cpstats.rules.ids.RULES`; numbers are written for reading
by :func:`format_number` (``1,000,000``, ``0.05``, never ``1e+06``).

- Decision: a short label is the preset's name followed by what differs from the preset, each
  in a few words (scoring, players, royalties, naturals, house rules, ordering and deal, in
  that order: ``"2-4, 5% rake capped 3"``); past
  ``max_parts`` changes it ends in ``"+N more"``. It never holds a variant string's
  parentheses or keys, so a chart built from it reads as words.
- Decision: :func:`describe` always writes its nine lines (scoring, royalties, naturals,
  surrender, mis-set, house charge, banking, players, ordering), plus one for the side bet and
  the chip limit when either is on, so two descriptions compare line by line.
"""

from __future__ import annotations

import math
from numbers import Real

import pandas as pd

from cpstats.rules.ids import Deal
from cpstats.rules.components import SCORING_NUMBERS, ScoringRules
from cpstats.rules.house import Rake, RakeModel
from cpstats.rules.ids import (NATURAL_NAMES, ROYALTY_ROW_NAMES, ROYALTY_ROWS, RULES, SCOOP,
                               SECTIONS, RoyaltyPayment, natural_id)
from cpstats.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES
from cpstats.rules.games import load_variant
from cpstats.rules.open_face import KEYS as OFC_KEYS
from cpstats.rules import open_face
from cpstats.rules.open_face import OfcDeal, OfcVariant, StayRule
from cpstats.rules.variant import Variant, get_preset, preset_names

__all__ = ["describe", "describe_rules", "short_label", "glossary", "format_number", "rake_text",
           "rake_label"]


# -- numbers ----------------------------------------------------------------------------------

def format_number(value: object, digits: int = 4, *, signed: bool = False) -> str:
    """A number written for reading: whole numbers with thousands separators (``1,000,000``),
    others to ``digits`` significant figures without trailing zeros and never in exponent form
    (``0.0000012``); NaN and None as an en dash, infinity as ``∞``, booleans as yes/no. Anything
    else is returned as ``str(value)``. ``signed`` writes a ``+`` before positive numbers.

    Examples
    --------
    >>> format_number(1e6), format_number(0.050), format_number(1234.5678), format_number(2.5e-7)
    ('1,000,000', '0.05', '1,235', '0.00000025')
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, Real):
        return str(value)
    x = float(value)
    if math.isnan(x):
        return "–"
    sign = "+" if signed and x > 0 else ""
    if math.isinf(x):
        return f"{'-' if x < 0 else sign}∞"
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e15:
        return f"{sign}{int(x):,}"
    decimals = min(max(digits - 1 - math.floor(math.log10(abs(x))), 0), 15)
    text = f"{x:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return sign + text


_n = format_number


def _percent(fraction: float) -> str:
    return f"{_n(100 * fraction, 3)}%"


# -- the house charge -------------------------------------------------------------------------

def rake_text(rake: Rake) -> str:
    """The house charge in words, e.g. ``"5% of the pot (the winning seats' nets), capped at 3
    units"``."""
    model = rake.model
    if model is RakeModel.NONE:
        text = "no house charge"
    elif model is RakeModel.FIXED_TABLE:
        text = f"{_n(rake.amount)} units a hand from the table"
    elif model is RakeModel.FIXED_PLAYER:
        text = f"{_n(rake.amount)} units per player a hand"
    elif model is RakeModel.TIME:
        text = (f"time charge of {_n(rake.amount)} units per player an hour "
                f"({_n(rake.hands_per_hour)} hands an hour)")
    else:
        text = f"{_percent(rake.percent)} of the pot (the winning seats' nets)"
        if rake.cap is not None:
            text += f", capped at {_n(rake.cap)} units"
        if rake.threshold:
            text += f", on pots of {_n(rake.threshold)} units or more"
    if rake.jackpot_drop:
        text += f"; plus a jackpot drop of {_n(rake.jackpot_drop)} units a hand"
    return text


def rake_label(rake: Rake) -> str:
    """The house charge in a few words for a chart: ``"5% rake capped 3"``, ``"table rake
    0.5/hand"``, ``"seat rake 0.1/hand"``, ``"time fee 6/seat-hour"``, ``"no rake"``."""
    model = rake.model
    if model is RakeModel.NONE:
        text = "no rake"
    elif model is RakeModel.FIXED_TABLE:
        text = f"table rake {_n(rake.amount)}/hand"
    elif model is RakeModel.FIXED_PLAYER:
        text = f"seat rake {_n(rake.amount)}/hand"
    elif model is RakeModel.TIME:
        text = f"time fee {_n(rake.amount)}/seat-hour"
    else:
        text = f"{_percent(rake.percent)} rake"
        text += f" capped {_n(rake.cap)}" if rake.cap is not None else ""
        text += f" on pots of {_n(rake.threshold)}+" if rake.threshold else ""
    return text + (f" + {_n(rake.jackpot_drop)} jackpot drop" if rake.jackpot_drop else "")


# -- the rules in words -----------------------------------------------------------------------

def _scoring_text(v: Variant) -> str:
    info = RULES[v.scoring.system.value]
    p = v.scoring_params()
    rows = (f"{_n(p.front)} per row won" if p.front == p.middle == p.back
            else f"rows pay {_n(p.front)} front, {_n(p.middle)} middle, {_n(p.back)} back")
    parts = [rows]
    if p.majority:
        parts.append(f"{_n(p.majority)} more to whoever wins two or three rows"
                     + (", on totals after royalties" if p.totals_first else ""))
    if p.scoop_bonus:
        parts.append(f"{_n(p.scoop_bonus)} more for a scoop")
    if p.scoop_multiplier != 1:
        parts.append(f"a scoop pays {_n(p.scoop_multiplier)} times")
    if p.has_home_run:
        what = (f"{_n(p.home_run_bonus)} more" if p.home_run_bonus else "")
        if p.home_run_multiplier != 1:
            what += (" and " if what else "") + f"{_n(p.home_run_multiplier)} times the rows"
        parts.append(f"a home run (scooping all, {p.home_run_players}+ players) pays {what}")
    elif v.scoring.params().has_home_run:
        parts.append("no home run")
    if p.race_target:
        parts.append(f"first to {p.race_target} points wins the match")
    custom = ", custom numbers" if v.scoring.params() != ScoringRules(
        system=v.scoring.system).params() else ""
    return (f"{info.name} ({v.scoring.system.value}{custom}): {'; '.join(parts)}; "
            f"a scoop is worth {_n(p.scoop_value)} units")


def _royalties_text(v: Variant) -> str:
    r = v.royalties
    amounts = dict(zip(ROYALTY_ROWS, r.amounts()))
    if not any(amounts.values()):
        return "none"
    payment, table = ROYALTY_TABLES[r.schedule]
    custom = (r.payment is not payment
              or tuple(amounts.values()) != tuple(float(a) for a in table))
    how = ("in place of the row's unit" if r.payment is RoyaltyPayment.INSTEAD
           else "on top of the row's unit")
    rows = "; ".join(
        f"{where}: " + ", ".join(f"{ROYALTY_ROW_NAMES[row].split(' in ')[0]} {_n(amounts[row])}"
                                 for row in ROYALTY_ROWS if row.startswith(where) and amounts[row])
        for where in ("front", "middle", "back")
        if any(amounts[row] for row in ROYALTY_ROWS if row.startswith(where)))
    mode = RULES[r.mode.value]
    return (f"{RULES[r.schedule.value].name} ({r.schedule.value}{', custom amounts' if custom else ''}),"
            f" {how}: {rows}; {mode.name.lower()} ({r.mode.value})")


def _naturals_text(v: Variant) -> str:
    nat = v.naturals
    if not nat.payouts:
        return "none"
    custom = nat.payouts != NATURAL_TABLES[nat.schedule]
    scoop = _n(v.scoring_params().scoop_value)
    pays = ", ".join(f"{RULES[natural_id(name)].short} "
                     f"{f'a scoop ({scoop})' if units == SCOOP else _n(units)}"
                     for name, units in nat.payouts)
    settle = RULES[nat.settlement.value].name.lower()
    declare = "declaring optional" if nat.declare_optional else "declaring compulsory"
    return (f"{RULES[nat.schedule.value].name} ({nat.schedule.value}"
            f"{', custom payouts' if custom else ''}), low to high: {pays}; {settle} "
            f"({nat.settlement.value}); {declare}")


def _banking_text(v: Variant) -> str:
    bank = v.bank
    if not bank.banked:
        return "players against each other: every pair of players settles"
    text = "banked (S-BANK): each player against the bank, seat 0; " + (
        "the bank wins tied rows" if bank.wins_ties else "tied rows push")
    if bank.commission:
        text += f"; winners pay a {_percent(bank.commission)} commission"
    if bank.fee:
        text += f"; winners pay a fee of {_n(bank.fee)} units"
    return text


def _players_text(v: Variant) -> str:
    text = (f"{v.players} players, " + ("criss-cross (D3): two hands each, each against both of "
                                        "the other's" if v.deal is Deal.CRISS_CROSS
                                        else "one 13-card hand each"))
    if v.stakes is None:
        return text + "; every pair plays for 1 unit"
    rows = " / ".join(" ".join(_n(x) for x in row) for row in v.stakes.matrix)
    return text + f"; stakes matrix (SC-STAKES) {rows}"


def _extras_text(v: Variant) -> str | None:
    parts = []
    if v.aces.enabled:
        parts.append("aces side bet (S-ACES) " + ", ".join(_n(x) for x in v.aces.payouts)
                     + " for one to four aces")
    if v.chips_limit:
        parts.append("chip limit (S-CHIPS): nobody wins or loses more than their stack")
    return "; ".join(parts) or None


def describe_rules(variant: Variant | str) -> list[tuple[str, str]]:
    """The rules of ``variant`` (either game) as ``(rule, words)`` pairs, one per line of
    :func:`describe`."""
    v = load_variant(variant)
    if isinstance(v, OfcVariant):
        return _ofc_rules(v)
    surrender = v.surrender_amount()
    misset = (f"a fouled hand pays each opponent a scoop ({_n(v.misset_points())} units)"
              if v.misset.points is None
              else f"a fouled hand pays {_n(v.misset.points)} units to every other player")
    ordering = RULES[v.ranking.value]
    lines = [
        ("scoring", _scoring_text(v)),
        ("royalties", _royalties_text(v)),
        ("naturals", _naturals_text(v)),
        ("surrender", "not allowed" if surrender is None else
         f"allowed: pay {_n(surrender)} units to each opponent"
         + (" (the system's standard)" if v.surrender.amount is None else "")),
        ("mis-set", misset),
        ("house charge", rake_text(v.rake)),
        ("banking", _banking_text(v)),
        ("players", _players_text(v)),
        ("ordering", f"{ordering.name.lower()} ({v.ranking.value}): {ordering.description}"),
    ]
    extras = _extras_text(v)
    return lines + ([("extras", extras)] if extras else [])


def describe(variant: Variant | str) -> str:
    """The rules of ``variant`` in words: a heading (its short label and variant string), then
    one short line per rule (see :func:`describe_rules`).

    Examples
    --------
    >>> print(describe("2-4(rake=percent,rake.percent=0.05,rake.cap=3)"))  # doctest: +ELLIPSIS
    2-4, 5% rake capped 3  [2-4(rake=percent,rake.percent=0.05,rake.cap=3)]
    scoring:      2-4 (SC-2-4): 1 per row won; 1 more to whoever wins two or three rows; ...
    ...
    house charge: 5% of the pot (the winning seats' nets), capped at 3 units
    ...
    >>> print(describe("ofc-pineapple(fantasyland.stay=A)").splitlines()[0])
    ofc-pineapple, stay rule A  [ofc-pineapple(fantasyland.stay=A)]
    """
    v = load_variant(variant)
    lines = describe_rules(v)
    width = max(len(rule) for rule, _ in lines) + 2
    return "\n".join([f"{short_label(v)}  [{v}]",
                      *(f"{rule + ':':<{width}}{words}" for rule, words in lines)])


# -- short labels -----------------------------------------------------------------------------

_NUMBER_WORDS = {
    "front": "front pays", "middle": "middle pays", "back": "back pays",
    "majority": "majority", "scoop_bonus": "scoop bonus", "scoop_multiplier": "scoop x",
    "home_run_bonus": "home-run bonus", "home_run_multiplier": "home run x",
    "home_run_players": "home run from", "race_target": "race to",
}


def _scoring_changes(v: Variant, base: Variant) -> list[str]:
    out = []
    if v.scoring.system is not base.scoring.system:
        out.append(f"{RULES[v.scoring.system.value].short} scoring")
    table = ScoringRules(system=v.scoring.system)
    for name in SCORING_NUMBERS:
        value = getattr(v.scoring, name)
        if value != getattr(table, name):
            out.append(("totals first" if value else "majority per row") if name == "totals_first"
                       else f"{_NUMBER_WORDS[name]} {_n(value)}")
    if v.home_run != base.home_run:
        out.append("home run" if v.home_run else "no home run")
    return out


def _royalty_changes(v: Variant, base: Variant) -> list[str]:
    r, b = v.royalties, base.royalties
    out = [RULES[r.schedule.value].short] if r.schedule is not b.schedule else []
    payment, table = ROYALTY_TABLES[r.schedule]
    if r.payment is not payment:
        out.append(f"royalties {r.payment.value}")
    for row, default in zip(ROYALTY_ROWS, table):
        if getattr(r, row) != default:
            out.append(f"{row.replace('_', ' ')} {_n(getattr(r, row))}")
    if r.mode is not b.mode:
        out.append(RULES[r.mode.value].short)
    return out


def _natural_changes(v: Variant, base: Variant) -> list[str]:
    n, b = v.naturals, base.naturals
    out = [RULES[n.schedule.value].short] if n.schedule is not b.schedule else []
    if n.payouts != NATURAL_TABLES[n.schedule]:
        out.append("custom naturals")
    if n.settlement is not b.settlement:
        out.append(RULES[n.settlement.value].short)
    if n.declare_optional != b.declare_optional:
        out.append("declaring optional" if n.declare_optional else "declaring compulsory")
    for flag, words in (("qka_front_straight", "Q-K-A front straight"),
                        ("straight_flush_counts", "straight flushes count")):
        if getattr(n, flag) != getattr(b, flag):
            out.append(words if getattr(n, flag) else f"no {words}")
    return out


def _house_changes(v: Variant, base: Variant) -> list[str]:
    out = []
    if v.surrender != base.surrender:
        amount = v.surrender_amount()
        out.append("no surrender" if amount is None else f"surrender {_n(amount)}")
    if v.misset != base.misset:
        out.append("mis-set a scoop" if v.misset.points is None else f"mis-set {_n(v.misset.points)}")
    if v.chips_limit != base.chips_limit:
        out.append("chip limit" if v.chips_limit else "no chip limit")
    if v.aces != base.aces:
        out.append("aces bet" if v.aces.enabled else "no aces bet")
    bank, b = v.bank, base.bank
    if bank.mode is not b.mode:
        out.append("banked" if bank.banked else "unbanked")
    if bank.banked and bank.wins_ties != b.wins_ties:
        out.append("bank wins ties" if bank.wins_ties else "ties push")
    if bank.commission != b.commission:
        out.append(f"{_percent(bank.commission)} commission")
    if bank.fee != b.fee:
        out.append(f"fee {_n(bank.fee)}")
    if v.rake != base.rake:
        out.append(rake_label(v.rake))
    return out


def short_label(variant: Variant | str, *, max_parts: int | None = 4) -> str:
    """A short readable label of ``variant`` for charts and tables: its name, then what differs
    from the preset of that name in a few words each, e.g. ``"2-4, 5% rake capped 3"``,
    ``"1-6, TW royalties, 3 players"``. Past ``max_parts`` changes the label ends in
    ``"+N more"`` (``None``: every change). Never holds parentheses or ``key=value`` text.

    Examples
    --------
    >>> short_label("2-4(rake=percent,rake.percent=0.05,rake.cap=3)")
    '2-4, 5% rake capped 3'
    >>> short_label("1-6(royalties=R-TW,players=3)")
    '1-6, 3 players, TW royalties'
    >>> short_label("ofc-pineapple(players=3,royalties.front.QQ=9)")
    'ofc-pineapple, 3 players, front QQ pays 9'
    """
    v = load_variant(variant)
    if isinstance(v, OfcVariant):
        return _ofc_short_label(v, max_parts)
    base = get_preset(v.name if v.name in preset_names() else "basic")
    parts = _scoring_changes(v, base)
    if v.players != base.players:
        parts.append(f"{v.players} players")
    parts += _royalty_changes(v, base) + _natural_changes(v, base) + _house_changes(v, base)
    if v.stakes != base.stakes:
        parts.append("stakes matrix" if v.stakes is not None else "equal stakes")
    for key in ("ranking", "deal"):
        if getattr(v, key) is not getattr(base, key):
            parts.append(RULES[getattr(v, key).value].short)
    if max_parts is not None and len(parts) > max_parts:
        parts = [*parts[:max_parts], f"+{len(parts) - max_parts} more"]
    return ", ".join([v.name, *parts])


# -- open face --------------------------------------------------------------------------------

_FL_HANDS = ("QQ", "KK", "AA", "trips")


def _ofc_fantasyland_text(v: OfcVariant) -> str:
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


def _ofc_royalty_changes(v: OfcVariant, base: OfcVariant) -> list[str]:
    out = []
    for key in OFC_KEYS:
        if key.name.startswith("royalties.") and key.read(v.to_dict()) != key.read(base.to_dict()):
            row, hand = key.name.split(".")[1:]
            out.append(f"{row} {hand.replace('_', ' ')} pays {key.read(v.to_dict())}")
    return out


def _ofc_rules(v: OfcVariant) -> list[tuple[str, str]]:
    changes = _ofc_royalty_changes(v, open_face.get_preset(v.name if v.name in open_face.PRESETS else "ofc-pineapple"))
    deal = ("Pineapple: 5 cards, then 3 a street keeping 2 (OFC-DEAL-PINEAPPLE)"
            if v.deal is OfcDeal.PINEAPPLE else "classic: 5 cards, then 1 a street (OFC-DEAL-CLASSIC)")
    return [("deal", deal), ("players", f"{v.players}, seat 0 acts first on every street"),
            ("scoring", f"{_n(v.scoring.row)} a row won, {_n(v.scoring.scoop)} more for all three "
                        "(OFC-SCORE-1-6); a fouled board loses every row and earns no royalty"),
            ("royalties", "standard table (OFC-R-STANDARD)" + ("; " + ", ".join(changes) if changes else "")),
            ("fantasyland", _ofc_fantasyland_text(v)), ("house charge", rake_text(v.rake))]


def _ofc_short_label(v: OfcVariant, max_parts: int | None) -> str:
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


# -- the glossary -----------------------------------------------------------------------------

def glossary() -> pd.DataFrame:
    """Every rule ID the package implements: ``id``, ``name``, ``short`` (its chart label),
    ``description`` (one line), ``section`` (number) and ``section_name``, in rulebook order.
    The docs' glossary page is built from this table (or from :data:`~cpstats.rules.ids.RULES`).
    """
    rows = [{"id": rule, "name": info.name, "short": info.short, "description": info.description,
             "section": info.section, "section_name": SECTIONS[info.section]}
            for rule, info in RULES.items()]
    return pd.DataFrame(rows).sort_values("section", kind="stable").reset_index(drop=True)


assert all(natural_id(name) in RULES for name in NATURAL_NAMES)
