"""The PAR sheet of a variant of any game with one: its rules, strategy, outcomes, costs, figures
and economics on a few pages, as a regulator or an owner reads them (CASINO-MATH.md, "A PAR
sheet"), written as HTML and PDF.

:func:`par_sheet` is the verb: it loads the variant, checks the options and resolves the setter
once, then builds the sheet of the variant's game (:data:`SHEETS`, keyed by the registered game's
name), adds "How this rule was chosen" for a solved rule and writes the files. Inside, imports
point one way: ``parts`` (tables and sections) <- ``figures``, ``example``, ``sensitivity``,
``solution`` <- ``charts`` and ``render`` <- ``base`` (:class:`ParSheet`, the sheet every game's
sheet extends) <- ``thirteen`` and ``open_face`` (with ``open_face_tables`` and
``open_face_charts``) <- this package's verb. ``cpstats par VARIANT --out DIR`` is its command
(:mod:`cpstats.apps.cli.par`).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from cpstats._atomic import writable_folder
from cpstats.apps.par.base import ParSheet
from cpstats.apps.par.open_face import OfcParSheet, ofc_par_sheet
from cpstats.apps.par.parts import ParSection, ParTable, check_pace
from cpstats.apps.par.progress import SheetProgress
from cpstats.apps.par.sensitivity import SENSITIVITY_DEALS
from cpstats.apps.par.thirteen import DEFAULT_DEALS, SEAT_DEALS, ThirteenParSheet, thirteen_sheet
from cpstats.errors import OptionError, check_whole, renamed
from cpstats.ofc import GAME as OPEN_FACE
from cpstats.engine.registry import game_of, load_variant
from cpstats.engine.games import runs_of
from cpstats.thirteen import GAME as THIRTEEN
from cpstats.workbench.simulate import bulk_setter

__all__ = ["ParSheet", "ThirteenParSheet", "OfcParSheet", "ParSection", "ParTable", "par_sheet", "SHEETS",
           "SWEPT_BY_DEFAULT",
           "DEFAULT_DEALS", "SEAT_DEALS", "SENSITIVITY_DEALS"]

#: Each game's sheet builder, by the game's registered name.
SHEETS: dict[str, Callable[..., ParSheet]] = {THIRTEEN.name: thirteen_sheet, OPEN_FACE.name: ofc_par_sheet}
#: The games whose sheets sweep rule numbers by default (``sensitivity=True``); another game's
#: sheet sweeps only the numbers it is given.
SWEPT_BY_DEFAULT = frozenset({THIRTEEN.name, OPEN_FACE.name})


def par_sheet(variant: Any, *, deals: int | None = None, rng: Any = 2026, setter: Any = None,
              hands_per_hour: float | None = None, out: str | Path | None = None, result: Any = None,
              seat_deals: int = SEAT_DEALS, executor: Executor | None = None, sensitivity: Any = True,
              sensitivity_deals: int | None = None, solution: Any = None,
              strategy: Any = None, progress: Callable[[str], Any] | None = None) -> ParSheet:
    """Build the PAR sheet of ``variant``; with ``out`` also write ``par.html`` and ``par.pdf`` there.

    Parameters
    ----------
    variant
        A variant of any game with a sheet (:data:`SHEETS`), a preset name or variant string.
    deals
        Deals (open face: hands) to simulate, exactly that many. 13-card default: the shipped ev
        reference run (1,000,000 deals) when the variant is a preset, ``setter`` is ``ev`` with its
        own tables and the reference holds outcome counts, else a live run of 200,000 deals; open
        face: a live run with its rows grown until Fantasyland entry and foul rates are within
        +-0.5 points and royalties a board within +-0.1 (95%), at most 30,000 hands; the sheet
        states the precision reached, or that the cap came first
        (:mod:`cpstats.apps.par.open_face`).
    rng
        Seed of a live run, of the sensitivity sweeps and of the seat-count runs (an int seed also
        deals the worked example, else seed 2026 does); None draws fresh entropy.
    setter
        The setter, a name or object as :func:`cpstats.simulate` takes; None is the game's setter
        for bulk runs: 13-card ``ev``, the strategy that plays the game well; open face ``fast``
        (the street models of the strong ``rollout`` without rollouts, within its strength margin;
        under the classic deal, where it is not, ``rollout``;
        ``setter="rollout"`` for a reference sheet, about 20 times slower a hand). A baseline is
        named one on the sheet. ``strategy=`` is deprecated.
    hands_per_hour
        Pace of the hourly figures (default: the variant's, ``rake.hands_per_hour``).
    result
        A finished run of ``variant`` to reuse (e.g. ``cpstats.load_reference("2-4")``; open face:
        a run with rows, ``keep_hands=True`` and ``out=``).
    seat_deals
        Deals of each run of the banker-edge-by-seats table (banked 13-card variants only).
    executor
        Runs the blocks of the live run and of the sensitivity sweeps (any
        ``concurrent.futures``-style executor, a Dask client's ``get_executor()`` too; None is
        serial), as :func:`cpstats.simulate`'s.
    sensitivity
        The sensitivity section's sweeps: True for the game's default numbers (13-card: the
        variant's main rule numbers around its own values, :mod:`cpstats.apps.par.sensitivity`
        says which; open face: the house charge, the Fantasyland cards and the front QQ royalty,
        a small step either side, :mod:`cpstats.apps.par.open_face_sensitivity`), False or None
        for none, a dict or list of (parameter, values) for those (the first value is the base of
        the paired differences).
    sensitivity_deals
        Deals a point of each sweep, set by the sheet's setter (None: 13-card 20,000; open face
        the sheet's own hands, so every point is paired with the sheet's run).
    solution
        A :func:`cpstats.solve` answer whose variant is this one: the sheet gains a "How this rule
        was chosen" section (the question, the interval, the deals, the response curve).
    progress
        Called with one line as each stage starts (the run, each sensitivity point, the strength
        table or the bank's edge by seats, the tables, each file): what it plays, the hands played
        so far and an estimate of the time left (:mod:`cpstats.apps.par.progress`); None is silent.
        ``cpstats par`` prints them on stderr.
    """
    setter = renamed("strategy", "setter", strategy, setter, None)
    v = load_variant(variant)
    game = game_of(v)
    if game.name not in SHEETS:
        raise OptionError(f"the {game.name} game has no PAR sheet: sheets are of {', '.join(SHEETS)}")
    pace = check_pace(hands_per_hour, v)
    if sensitivity_deals is not None:
        check_whole("sensitivity_deals", sensitivity_deals, 2, "an interval needs two")
    folder = None if out is None else writable_folder("out", out)  # before a long simulation
    runs = runs_of(v)
    tracker = SheetProgress(progress, game.unit)
    sheet = SHEETS[game.name](v, deals=deals, rng=rng,
                              setter=runs.setter(bulk_setter(v, setter), v),
                              hands_per_hour=pace, result=result, executor=executor,
                              sensitivity=sensitivity, sensitivity_deals=sensitivity_deals,
                              seat_deals=seat_deals, progress=tracker)
    if solution is not None:  # the solve that chose the rule (cpstats.solve)
        sheet.add_solution(solution)
    if folder is not None:
        sheet.write(folder, progress=tracker)
    return sheet
