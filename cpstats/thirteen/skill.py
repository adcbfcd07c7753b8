"""How much a 13-card variant rewards skill: :func:`skill` (the game's registered skill table,
behind :func:`cpstats.skill`), ev against weak fields on common deals.

A rule that adds luck (a big bonus for a rare hand, a natural paid at once) shrinks the edge of
good play; a rule that pays for reading the field (royalties chased, scoops avoided) widens it.
The skill table measures that edge where a designer can compare it across variants: ``ev``
(trained for the variant) plays each seat in turn against a field of ``greedy`` players, of
``random`` players, and of ``ev`` itself, on the same deals (duplicate play,
:func:`cpstats.thirteen.play.training.match`).

- Decision: the figures are ev's mean net per hand between the seats, before any house charge
  (the settlement never takes the rake, a bank's commission or the jackpot drop out of the
  nets), so the same table reads for a raked, banked or free game; the house's cost is the
  rake explorer's business.
- Decision: the three fields play the same deals (one seed), so the rows are comparable; the
  ev-against-ev row is the control, zero by symmetry (each seat's net summed over the seats),
  and shown so that a reader sees the harness favours no seat.
- Decision: with ``executor=`` the unit of work is one field's match (three tasks): a match deals
  its deals from one seed in one piece (:func:`~cpstats.thirteen.play.training.match`, whose
  numbers ``cpstats match`` prints too), so the table equals the serial one whoever runs it;
  cutting a match into seeded blocks would give other numbers than ``match`` for the same seed.
"""

from __future__ import annotations

import numbers
from concurrent.futures import Executor
from typing import Any

import pandas as pd

from cpstats.cards.blocks import check_executor, match_seed
from cpstats.errors import OptionError
from cpstats.thirteen.rules.variant import Variant

__all__ = ["skill", "SKILL_FIELDS", "SKILL_DEALS"]

#: Duplicate deals per field of a 13-card table by default (open face has its own default).
SKILL_DEALS = 20_000

#: The fields ev plays against, in the table's order, with the label each is shown under.
SKILL_FIELDS = (("greedy", "greedy (baseline: a weak field)"),
                ("random", "random (baseline: no skill)"),
                ("ev", "ev (control: the same play)"))


def skill(v: Variant, *, deals: int | None = None, rng=None, setter: Any = "ev",
          executor: Executor | None = None) -> pd.DataFrame:
    """The skill table of ``variant``: ev's mean result per hand against three fields.

    Parameters
    ----------
    v
        A 13-card variant (:func:`cpstats.skill` loads any game's and hands a 13-card one here).
    deals
        Duplicate deals per field (at least 2; default :data:`SKILL_DEALS`); every field plays the
        same deals.
    rng
        Seed, SeedSequence, Generator or None (fresh entropy); ``attrs["seed"]`` repeats it.
    setter
        The player, ``"ev"`` or an :class:`~cpstats.thirteen.play.EvSetter` naming its row tables
        (``EvSetter(tables="2-4")`` borrows 2-4's; the default plays the variant's own: shipped,
        cached, or trained now, about half a minute, before the first match); the ev field plays
        the same tables.
    executor
        Any ``concurrent.futures``-style executor (a Dask client's ``get_executor()`` too) that
        plays the three fields' matches at once; None plays them one after another. The table
        is the same either way.

    Returns
    -------
    DataFrame
        One row per field (index ``field``: greedy, random, ev), columns ``label``, ``mean``
        (ev's net per hand, units, before house charges), ``se``, ``ci_low`` and ``ci_high``
        (95%, deals independent) and ``deals``. ``attrs`` holds the variant string, the seed,
        the player (``ev``), its settings (``setter``) and the row tables that set ev's hands
        (:func:`cpstats.thirteen.play.tables_record`, with their ``source``).

    Examples
    --------
    >>> from cpstats import get_preset
    >>> table = skill(get_preset("2-4"), deals=500, rng=1)
    >>> list(table.index)
    ['greedy', 'random', 'ev']
    >>> bool(table.loc["greedy", "ci_low"] > 0), float(table.loc["ev", "mean"])
    (True, 0.0)
    """
    from cpstats.thirteen.play import EvSetter, as_setter, tables_record
    from cpstats.thirteen.play.setters import setter_label
    from cpstats.thirteen.play.training import match

    player = as_setter(setter)
    if not isinstance(player, EvSetter):
        raise OptionError(f"setter={setter_label(setter)!r} is invalid: the skill table measures ev "
                          "(setter='ev' or EvSetter(tables=...))")
    deals = SKILL_DEALS if deals is None else deals
    if isinstance(deals, bool) or not isinstance(deals, numbers.Integral) or deals < 2:
        raise OptionError(f"deals={deals!r} is invalid: a skill table needs a whole number of "
                          "deals >= 2 (an interval needs two)")
    check_executor(executor)
    seed = match_seed(rng)
    # found (trained if need be) before the matches, which then read them: the source is the run's
    record = tables_record(v, tables=player.tables, with_source=True)
    options = {"deals": int(deals), "rng": seed, "tables": player.tables}
    if executor is None:
        matches = [match(v, "ev", field, **options) for field, _ in SKILL_FIELDS]
    else:
        futures = [executor.submit(match, v, "ev", field, **options) for field, _ in SKILL_FIELDS]
        matches = [f.result() for f in futures]
    rows = []
    for (field, label), m in zip(SKILL_FIELDS, matches):
        rows.append({"field": field, "label": label, "mean": m.mean, "se": m.stderr,
                     "ci_low": m.ci95[0], "ci_high": m.ci95[1], "deals": int(deals)})
    table = pd.DataFrame(rows).set_index("field")
    table.attrs.update({"variant": str(v), "seed": seed, "player": "ev", "setter": player.params(),
                        "tables": record})
    return table
