"""The open-face PAR sheet's sections on the table rules (rulebook section 7): position (OFC-BUTTON)
and, where the rules have them, table stakes and matches (OFC-STAKES, OFC-MATCH), each figure from
the run's :meth:`~cpstats.ofc.result.SimulationResult.figures` with its 95% interval, named and
labelled from the catalogue.

- Decision: the position section is on every sheet whose run reports positions (a rotating button,
  the presets' default, or stakes or a match): a designer reads whether a rule moves money between
  positions. Its value of acting last is the run's own (unpaired: the first and last players'
  hands are different hands); :func:`cpstats.ofc.simulation.acting_last` pairs it on the same decks
  with the seats swapped, and the sheet says so. The sentence under the table is said only as far
  as the interval goes (:func:`~cpstats.ofc.table_figures.acting_last_line`).
- Decision: the seat-0 note of the headline (:func:`seat_mean_note`) says "0 by symmetry" only
  where the button moves (every seat sits in every position in turn) and the interval covers 0;
  with a fixed button seat 0 is the first to act, and its mean is that position's edge.
"""

from __future__ import annotations

import math

import pandas as pd

from cpstats.engine.catalogue import resolve_figures
from cpstats.engine.sheet import ParSection, ParTable, figure_rows
from cpstats.ofc.catalogue import FIGURES
from cpstats.ofc.result import SimulationResult
from cpstats.ofc.rules import Variant
from cpstats.ofc.table_figures import POSITIONS, STAKES_NAMES, acting_last_line, position_names
from cpstats.ofc.table_rules import FantasylandButton, RakeBasis

__all__ = ["seat_mean_note", "table_sections"]

def seat_mean_note(v: Variant, estimate: float, low: float, high: float) -> str:
    """The headline's note beside seat 0's mean: what the rules make of it, never a symmetry they do
    not give nor one its interval contradicts without saying so."""
    if not v.button.rotates:
        return "(seat 0 acts first on every hand, button=fixed: its mean is that position's edge, not 0)"
    if math.isfinite(low) and low <= 0 <= high:
        return "(0 by symmetry: the button moves, so every seat acts in every position in turn)"
    return ("(0 in expectation, the button moving every seat through every position; this interval "
            "misses 0, as about 1 in 20 do by chance)")


def _rows(f: pd.DataFrame, names) -> pd.DataFrame:
    rows = [(m, f.at[m, "estimate"], f.at[m, "ci_low"], f.at[m, "ci_high"], f.at[m, "method"])
            for m in names if m in f.index]
    return figure_rows(rows, resolve_figures(FIGURES))


def _button_words(v: Variant) -> str:
    last = f"seat {v.players - 1}"
    if not v.button.rotates:
        return (f"The button is fixed (button=fixed, OFC-BUTTON): seat 0 acts first on every street of every "
                f"hand and {last} last, so each seat's figures are those of its position.")
    held = ("stays put for a hand dealt while a player is in Fantasyland (button.fantasyland=hold, the common "
            "room practice)" if v.button.fantasyland is FantasylandButton.HOLD else
            "moves on every hand, Fantasyland ones too (button.fantasyland=move)")
    return ("The button moves one seat after every hand (OFC-BUTTON) and " + held + "; the player left of "
            "the button acts first on every street and the button last, so every seat sits in every "
            "position in turn and a seat's own mean is 0 in expectation.")


def _position_section(v: Variant, f: pd.DataFrame) -> ParSection:
    text = [_button_words(v),
            "Each position's mean and SD of a hand, over every seat that sat there, and the value of acting "
            "last (last less first). A player acting later places every street having seen the cards the "
            "others placed before it on that street, so it draws to fewer dead hands and sets fewer boards "
            "blind; the figure says what that is worth under these rules. It is measured on this run's hands "
            "(unpaired); cpstats.ofc.simulation.acting_last plays the same decks with the seats swapped, "
            "which pairs it and narrows the interval.",
            acting_last_line(v, f.reset_index())]
    return ParSection("Position and the button", [t for t in text if t],
                      [ParTable("positions", "Results by position", _rows(f, position_names(POSITIONS[v.players])))])


def _stakes_words(v: Variant) -> list[str]:
    out = []
    if v.stakes.limited:
        whole = "a match" if v.match.rounds else "every hand"
        out.append(f"Table stakes (OFC-STAKES): each player brings {v.stakes.buy_in:g} points for {whole}; no "
                   "player wins from another more than that player has left, nor loses more than they have "
                   "(pairs settled in order from the first to act), and a player with no points left is out.")
    if v.match.rounds:
        basis = ("charged once a match on each player's net over it" if v.match.rake is RakeBasis.MATCH
                 else "charged on every hand")
        out.append("Matches (OFC-MATCH): a match is a round, one hand dealt by each seat plus one for each "
                   f"Fantasyland hand, or fewer when players go out; the house's charge is {basis}.")
    out.append("How often the limit cuts a payment, the share of points owed that it leaves unpaid, and the "
               "figures of whole matches where the rules play them, 95% intervals on the run's batches.")
    return out


def table_sections(result: SimulationResult) -> list[ParSection]:
    """The position section where the run reports positions, and the stakes and matches section
    where the rules set a buy-in or a match; none for a fixed button without either."""
    v = result.variant
    f = result.figures().set_index("metric")
    out = []
    if "value_of_acting_last" in f.index:
        out.append(_position_section(v, f))
    if any(m in f.index for m in STAKES_NAMES):
        out.append(ParSection("Table stakes and matches", _stakes_words(v),
                              [ParTable("stakes", "Stakes and matches", _rows(f, STAKES_NAMES))]))
    return out
