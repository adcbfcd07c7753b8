"""The toy showdown's rules in words: a line a rule for ``cpstats.describe`` and a short label
for charts (no brackets, no ``key=value``)."""

from __future__ import annotations

from toy_showdown.rules import ShowdownVariant, get_preset

__all__ = ["describe_rules", "short_label"]


def describe_rules(v: ShowdownVariant) -> list[tuple[str, str]]:
    """``(rule, words)`` pairs, one a rule."""
    return [("seats", f"{v.players} seats, five cards each from one deck; each antes 1"),
            ("showdown", "the best five-card hand takes the antes; equal best hands split them"),
            ("bonus", f"three of a kind or better collects {v.bonus:g} from every other seat")]


def short_label(v: ShowdownVariant, max_parts: int | None = 4) -> str:
    """The preset's name, then what differs from it in a few words each."""
    preset = get_preset(v.name)
    parts = ([f"{v.players} players"] if v.players != preset.players else []) + (
        [f"bonus {v.bonus:g}"] if v.bonus != preset.bonus else [])
    if max_parts is not None and len(parts) > max_parts:
        parts = parts[:max_parts] + [f"+{len(parts) - max_parts} more"]
    return ", ".join([v.name, *parts])
