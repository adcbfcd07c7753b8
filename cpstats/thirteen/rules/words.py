"""The 13-card game's rules in words (registered as the game's words:
:func:`cpstats.engine.describe.describe` and :func:`~cpstats.engine.describe.short_label` put any
game's variant in words through them).

- Decision: a short label is the preset's name followed by what differs from the preset, each
  in a few words (scoring, players, royalties, naturals, house rules, ordering and deal, in
  that order: ``"2-4, 5% rake capped 3"``); past
  ``max_parts`` changes it ends in ``"+N more"``. It never holds a variant string's
  parentheses or keys, so a chart built from it reads as words.
- Decision: :func:`~cpstats.engine.describe.describe` always writes nine lines (scoring, royalties,
  naturals, surrender, mis-set, house charge, banking, players, ordering), plus one for the side
  bet and the chip limit when either is on, so two descriptions compare line by line.
"""

from __future__ import annotations

from cpstats.thirteen.rules.components import SCORING_NUMBERS, ScoringRules
from cpstats.engine.describe import format_number, rake_label, rake_text
from cpstats.thirteen.rules.ids import (NATURAL_NAMES, ROYALTY_ROW_NAMES, ROYALTY_ROWS, SCOOP, Deal, RoyaltyPayment, natural_id)
from cpstats.rules.house import BankSetter
from cpstats.rules.rulebook import RULES
from cpstats.thirteen.rules.schedules import NATURAL_TABLES, ROYALTY_TABLES
from cpstats.thirteen.rules.variant import Variant, get_preset, preset_names

__all__ = ["describe_rules", "short_label"]

_n = format_number


def _percent(fraction: float) -> str:
    return f"{_n(100 * fraction, 3)}%"


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
    return text + "; " + _bank_setter_text(v)


def _bank_setter_text(v: Variant) -> str:
    """Who sets the bank's hand (S-HOUSE-WAY), as the banking line says it."""
    if v.bank.setter is BankSetter.HOUSE_WAY:
        return "the bank sets by the house way (S-HOUSE-WAY): the dealer's fixed rules"
    return "the bank sets as the players do, by the run's setter (no house way)"


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


def describe_rules(v: Variant) -> list[tuple[str, str]]:
    """A 13-card variant's rules as ``(rule, words)`` pairs, one per line of
    :func:`cpstats.engine.describe.describe`."""
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
    if bank.banked and bank.setter is not b.setter:
        out.append("bank sets by the house way" if bank.setter is BankSetter.HOUSE_WAY
                   else "bank sets as the players")
    if v.rake != base.rake:
        out.append(rake_label(v.rake))
    return out


def short_label(v: Variant, max_parts: int | None = 4) -> str:
    """A 13-card variant's short label (:func:`cpstats.engine.describe.short_label`): the preset's
    name, then what differs from the preset in a few words each."""
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


assert all(natural_id(name) in RULES for name in NATURAL_NAMES)
