"""The PAR sheet of a variant of any game with one: its rules, strategy, outcomes, costs, figures
and economics on a few pages, as a regulator or an owner reads them (CASINO-MATH.md, "A PAR
sheet"), written as HTML and PDF.

:func:`par_sheet` is the verb: it loads the variant, checks the options and resolves the setter
once, then has the variant's game build its sheet's content (the ``par_sheet`` view the game
registered, :class:`~cpstats.engine.views.GameViews`, with the sweeps asked for or its
``par_sweeps``), fills the one template every game's sheet follows (:func:`.sheet.fill`), adds "How
this rule was chosen" for a solved rule and writes the files. This package knows no game: the
sheet's parts are the engine's (:mod:`cpstats.engine.sheet`), each game's content is in its own
package (``cpstats/<game>/par/``). Inside, imports point one way: ``progress``, ``sensitivity``,
``solution`` <- ``charts`` and ``render`` <- ``sheet`` (:class:`ParSheet`, :func:`~.sheet.fill`) <-
this package's verb. ``cpstats par VARIANT --out DIR`` is its command (:mod:`cpstats.apps.cli.par`).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from cpstats._atomic import writable_folder
from cpstats.apps.par.progress import SheetProgress
from cpstats.apps.par.sensitivity import sweeps_asked
from cpstats.apps.par.sheet import ParSheet, fill
from cpstats.engine.games import runs_of
from cpstats.engine.registry import game_of, load_variant
from cpstats.engine.sheet import ParSection, ParTable, check_pace, check_precision
from cpstats.errors import OptionError, check_whole
from cpstats.workbench.simulate import bulk_setter

__all__ = ["ParSheet", "ParSection", "ParTable", "par_sheet"]


def par_sheet(variant: Any, *, deals: int | None = None, rng: Any = 2026, setter: Any = None,
              hands_per_hour: float | None = None, out: str | Path | None = None, result: Any = None,
              seat_deals: int | None = None, executor: Executor | None = None, sensitivity: Any = True,
              sensitivity_deals: int | None = None, solution: Any = None,
              progress: Callable[[str], Any] | None = None, precision: str | None = None) -> ParSheet:
    """Build the PAR sheet of ``variant``; with ``out`` also write ``par.html`` and ``par.pdf`` there.

    Parameters
    ----------
    variant
        A variant of any game that registers a sheet (its ``par_sheet`` view), a preset name or
        variant string.
    deals
        Deals (open face: hands) to simulate, exactly that many. 13-card default: the shipped ev
        reference run (1,000,000 deals) when the variant is a preset, ``setter`` is ``ev`` with its
        own tables and the reference holds outcome counts, else a live run of 200,000 deals; open
        face: a live run with its rows grown until Fantasyland entry and foul rates are within
        +-0.5 points and royalties a board within +-0.1 (95%), at most 30,000 hands; the sheet
        states the precision reached, or that the cap came first. ``precision`` names the level
        instead; deals and precision together are refused.
    rng
        Seed of a live run, of the sensitivity sweeps and of the sheet's other runs (an int seed
        also deals the worked example, else seed 2026 does); None draws fresh entropy.
    setter
        The setter, a name or object as :func:`cpstats.simulate` takes; None is the game's setter
        for bulk runs: 13-card ``ev``, the strategy that plays the game well; open face ``fast``
        (the street models of the strong ``rollout`` without rollouts, within its strength margin;
        under the classic deal, where it is not, ``rollout``;
        ``setter="rollout"`` for a reference sheet, about 20 times slower a hand). A baseline is
        named one on the sheet.
    hands_per_hour
        Pace of the hourly figures (default: the variant's, ``rake.hands_per_hour``).
    result
        A finished run of ``variant`` to reuse (e.g. ``cpstats.load_reference("2-4")``; open face:
        a run with rows, ``keep_hands=True`` and ``out=``).
    seat_deals
        Deals of each run of the banker-edge-by-seats table (banked 13-card variants only; None:
        50,000).
    executor
        Runs the blocks of the live run and of the sensitivity sweeps (any
        ``concurrent.futures``-style executor, a Dask client's ``get_executor()`` too; None is
        serial), as :func:`cpstats.simulate`'s.
    sensitivity
        The sensitivity section's sweeps: True for the game's default numbers (its ``par_sweeps``
        view, which says which; 13-card: the variant's main rule numbers around its own values;
        open face: the house charge, the Fantasyland cards and the front QQ royalty, a small step
        either side), False or None for none, a dict or list of (parameter, values) for those (the
        first value is the base of the paired differences).
    sensitivity_deals
        Deals a point of each sweep, set by the sheet's setter (None: 13-card 20,000; open face
        the sheet's own hands, so every point is paired with the sheet's run).
    solution
        A :func:`cpstats.solve` answer whose variant is this one: the sheet gains a "How this rule
        was chosen" section (the question, the interval, the deals, the response curve).
    precision
        The precision level the run is grown to (``deals`` None): ``"designer"`` (None: the
        default) or ``"submission"``, each game's stated targets on its headline figures (95%
        half-widths; 13-card: a banked game's house edge within +-0.05 percentage points or each
        seat's mean within +-0.015 units, hit frequency +-0.1 points, SD +-0.01 units, at most
        2,000,000 deals, a preset's shipped reference serving when it meets them; open face:
        Fantasyland entry and foul rates +-0.2 points, royalties a board +-0.04, a Fantasyland
        hand's value +-0.2, SD +-0.08, hit frequency +-0.2 points, at most 150,000 hands, and the
        strength table each field within +-0.5 units a hand, about 40 minutes on 2 cores).
        The cover states the level asked and the one reached; below a submission's it says DRAFT.
    progress
        Called with one line as each stage starts (the run, each sensitivity point, the strength
        table or the bank's edge by seats, the tables, each file): what it plays, the hands played
        so far and an estimate of the time left (:mod:`cpstats.apps.par.progress`); None is silent.
        ``cpstats par`` prints them on stderr.
    """
    v = load_variant(variant)
    game = game_of(v)
    runs = runs_of(v)
    build = runs.views.par_sheet
    if build is None:
        raise OptionError(f"the {game.name} game has no PAR sheet")
    pace = check_pace(hands_per_hour, v)
    level = check_precision(precision)
    if level is not None and (deals is not None or result is not None):
        raise OptionError(f"precision={precision!r} is invalid with {'deals' if deals is not None else 'result'}=: "
                          "a precision chooses the run's length; give one")
    if sensitivity_deals is not None:
        check_whole("sensitivity_deals", sensitivity_deals, 2, "an interval needs two")
    sweeps = sweeps_asked(sensitivity, v, runs.views.par_sweeps)  # checked before anything runs
    folder = None if out is None else writable_folder("out", out)  # before a long simulation
    tracker = SheetProgress(progress, game.unit)
    content = build(v, deals=deals, rng=rng, setter=runs.setter(bulk_setter(v, setter), v),
                    hands_per_hour=pace, result=result, executor=executor, sweeps=sweeps,
                    sensitivity_deals=sensitivity_deals, seat_deals=seat_deals, progress=tracker,
                    precision=level)
    sheet = fill(content, tracker)
    if solution is not None:  # the solve that chose the rule (cpstats.solve)
        sheet.add_solution(solution)
    if folder is not None:
        sheet.write(folder, progress=tracker)
    return sheet
