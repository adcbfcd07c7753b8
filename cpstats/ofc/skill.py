"""How much an open-face variant rewards skill: the strong strategy (``rollout``) against a
greedy, a random and a rollout field, duplicate, with 95% intervals (the 13-card skill table's
shape, :func:`cpstats.skill`, which hands open-face variants to :func:`skill_table`).

- Decision: duplicate play is seat rotation on common decks: for each seat p, one run with
  ``rollout`` in seat p and the field in every other seat, every run on the same seed, so hand h
  of every run starts from the same shuffled deck (:func:`~cpstats.ofc.simulation.simulate`);
  the figure is rollout's mean net per hand averaged over the rotations, before any rake (the
  nets never hold the rake). Fantasyland carries over within each run as in play, so the runs
  share their decks but not every hand's cards (a Fantasyland player takes its cards first).
- Decision: the interval is Student's t on the run's 30 batches (``batches - 1`` degrees of
  freedom) of the rotations' averaged batch means: the rotations' batches hold the same decks,
  so the average is paired batch by batch, and a batch carries the hands a Fantasyland run
  links (independent hands, the 13-card table's normal interval, would be too narrow).
- Decision: the rollout field is the control, 0 by symmetry: with every seat playing rollout
  the rotations are one run, whose seats' nets add to 0, so it is played once; it is shown, as
  in the 13-card table, so a reader sees that the harness favours no seat.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Sequence

import numpy as np
import pandas as pd

from cpstats.cards.blocks import check_executor
from cpstats.errors import OptionError, check_whole
from cpstats.ofc.result import figure_batches
from cpstats.ofc.setters import FastPolicy, Rollout, as_ofc_setter
from cpstats.ofc.simulation import simulate
from cpstats.ofc.rules import Variant, resolve_ofc_variant
from cpstats.cards.blocks import match_seed
from cpstats.engine.stats import t_value

__all__ = ["skill_table", "OFC_SKILL_FIELDS", "OFC_SKILL_DEALS", "PLAYER"]

#: The strong strategy the table measures.
PLAYER = "rollout"
#: The fields rollout plays against, in the table's order, with the label each is shown under.
OFC_SKILL_FIELDS = (("greedy", "greedy (baseline: a weak field)"),
                    ("random", "random (baseline: no skill)"),
                    ("rollout-v1", "rollout-v1 (the first rollout, frozen: a strong field)"),
                    ("rollout-exact", "rollout-exact (the previous default: a stronger field)"),
                    ("rollout", "rollout (control: the same play)"))
#: Hands per field by default: rollout plays about 10 hands a second on one core, and the
#: greedy field's interval clears 0 by several widths at this size.
OFC_SKILL_DEALS = 200


def _seatings(v: Variant, field: str, player: Any) -> list[tuple[Any, ...]]:
    """Each rotation's setters, the player in seat p; one seating when the field is the player's
    own play (the control). The rollout-v1 and rollout-exact fields play at a rollout player's budget
    (the same samples and options: the rollouts' difference, not their budgets', is measured); the
    fast player meets the default rollout as its rollout field."""
    if field == PLAYER and isinstance(player, Rollout):
        return [(player,) * v.players]
    field = as_ofc_setter(field)
    if isinstance(field, Rollout) and isinstance(player, Rollout):
        field = field.__class__(samples=player.samples, top=player.top)
    return [tuple(player if s == p else field for s in range(v.players)) for p in range(v.players)]


def _duplicate(v: Variant, field: str, deals: int, root, executor, player: Any) -> dict[str, Any]:
    """The player's mean net per hand against ``field`` over the rotations, with its batch t interval."""
    linear, estimates, models = [], [], set()
    for p, seating in enumerate(_seatings(v, field, player)):
        run = simulate(v, deals, setter=seating, rng=root, executor=executor, keep_hands=False)
        models.add(run.metadata.get("street_models", {}).get("digest"))
        if len(models) > 1:
            raise OptionError(f"the skill table would mix two plays of {player.name}: street models {sorted(models)}")
        batches = figure_batches(run)
        seats = range(v.players) if len(set(seating)) == 1 else [p]
        for seat in seats:
            estimates.append(batches[f"mean_seat{seat}"].estimate)
            linear.append(batches[f"mean_seat{seat}"].linear)
    mean = float(np.mean(estimates))
    z = np.mean(linear, axis=0)
    se = float(z.std(ddof=1) / np.sqrt(len(z)))
    half = t_value(0.95, len(z)) * se
    return {"mean": mean, "se": se, "ci_low": mean - half, "ci_high": mean + half, "batches": len(z),
            "street_models": models.pop()}


def skill_table(variant: Variant | str, *, deals: int | None = None, rng=None,
                executor: Executor | None = None, fields: Sequence[str] | None = None,
                setter: Any = "rollout") -> pd.DataFrame:
    """The skill table of an open-face ``variant``: rollout's mean result per hand against each
    field, duplicate (see the module).

    Parameters
    ----------
    variant
        An open-face variant, preset name or variant string.
    deals
        Hands per run (at least 2; default :data:`OFC_SKILL_DEALS`); each field plays one run
        per seat (the control one run), all on the same decks.
    rng
        Seed, SeedSequence, Generator or None (fresh entropy); ``attrs["seed"]`` repeats it.
    executor
        Runs the blocks of every run (any ``concurrent.futures``-style executor); the table is
        the same serial or not.
    fields
        Which of greedy, random, rollout-v1, rollout-exact and rollout to play (default all five, in
        that order).
    setter
        The strong player: ``"rollout"`` (``"ev"`` the same: rollout at its defaults), a :class:`~cpstats.ofc.Rollout`
        with its own budget (the rollout field plays the same: the control), or ``"fast"``
        (:class:`~cpstats.ofc.FastPolicy`, whose rollout field is the default rollout).

    Returns
    -------
    DataFrame
        As :func:`cpstats.skill`'s: index ``field``, columns ``label``, ``mean`` (rollout's net
        per hand, units, before rake), ``se``, ``ci_low``, ``ci_high`` (95%, batch t) and
        ``deals``; ``attrs`` holds the variant string, the seed and the player (``rollout``).

    Examples
    --------
    >>> table = skill_table("ofc-pineapple", deals=30, rng=1, fields=["random"])
    >>> bool(table.loc["random", "ci_low"] > 0)
    True
    """
    v = resolve_ofc_variant(variant)
    n = check_whole("deals", OFC_SKILL_DEALS if deals is None else deals, 2, "an interval needs two")
    labels = dict(OFC_SKILL_FIELDS)
    chosen = list(labels) if fields is None else [str(f) for f in fields]
    unknown = [f for f in chosen if f not in labels]
    if unknown or not chosen:
        raise OptionError(f"fields={list(fields or [])!r} is invalid: one or more of "
                          f"{', '.join(labels)}")
    player = as_ofc_setter(setter)
    if not isinstance(player, (Rollout, FastPolicy)):
        raise OptionError(f"setter={setter!r} is invalid: the skill table measures a strong "
                          "strategy (setter='ev', 'rollout', 'fast', Rollout(...) or FastPolicy())")
    if isinstance(player, FastPolicy):
        labels["rollout"] = "rollout (the default: a strong field)"
    check_executor(executor)
    seed = match_seed(rng)
    root = np.random.SeedSequence(seed)
    rows = [{"field": f, "label": labels[f], **_duplicate(v, f, n, root, executor, player), "deals": n}
            for f in chosen]
    table = pd.DataFrame(rows).set_index("field")
    batches = int(table.pop("batches").iloc[0])
    models = set(table.pop("street_models"))
    if len(models) > 1:
        raise OptionError(f"the skill table would mix two plays of {player.name}: street models {sorted(models)}")
    table.attrs.update({"variant": str(v), "seed": seed, "player": player.name, "setter": player.params(), "tables": None,
                        "street_models": models.pop(),
                        "interval": f"Student's t on {batches} batch means"})
    return table
