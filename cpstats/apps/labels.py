"""How the apps name a setting strategy wherever its figures appear (STYLE.md: the baselines
``greedy`` and ``random`` are always named as baselines, so a weak field's figures are never read
as those of good play). Light on purpose: the command line imports it at start-up."""

from __future__ import annotations

__all__ = ["SETTER_NAMES", "baseline_label"]

#: A setter in words, for reports, headers and captions.
SETTER_NAMES = {"ev": "ev, the setter trained for these rules (good play)",
                "greedy": "greedy, a baseline setter (a weak field: not the figures of good play)",
                "random": "random, a baseline setter (no skill: not the figures of good play)",
                "house-way": "house-way, the dealer's fixed rules of a banked game (not the figures of good play)"}


def baseline_label(strategy: str) -> str | None:
    """The words of a setter whose figures are not good play (greedy, random, the house way); None for ev."""
    return None if strategy == "ev" else SETTER_NAMES.get(strategy)
