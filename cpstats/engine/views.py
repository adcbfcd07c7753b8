"""What a game shows in the apps: the slots a game fills so that the PAR sheet, the command line
and the dashboard render it without naming it (:attr:`cpstats.engine.games.GameRuns.views`).

Each slot is None for a game that fills none; the apps then show the game's tidy figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GameViews", "CommandLine", "DashboardTab", "Control", "Limits", "VariantControls"]


def _no_lines(attrs: Mapping[str, Any], labels: Sequence[str] = ()) -> list[str]:
    return []


def _no_text(table: Any) -> str:
    return ""


@dataclass(frozen=True)
class CommandLine:
    """What ``cpstats`` reads and says of one game beside the verbs' figures. Every hook that is
    given ``kit`` receives the command line's helpers (option types, the executor of
    ``--scheduler``, the compile notice, the verbs: :class:`cpstats.apps.cli.kit.Kit`), so the
    game's command-line words import no app.

    - ``setter_options(parser, command)``: adds the game's own options of who sets the hands to
      ``command``'s parser (the 13-card game's ``--tables``); ``setter(options)``: the setter the
      parsed ``--setter`` and those options name (None: ``--setter`` as given);
    - ``run_length(setter)``: the deals of a ``simulate`` or ``compare`` without ``--deals``
      (None: the command line's own);
    - ``kernels(v, *setters)``: the numba kernel modules a run of ``v`` (None: any variant)
      with these setters compiles on first use, so a command says it pauses before it does;
    - ``warnings(attrs, labels)``: lines saying what a run's metadata, a comparison's or a
      sweep's ``attrs`` cannot vouch for (open face: rules outside the street models' ranges);
    - ``table_notes(table)``: lines printed under a sweep's table; ``metrics_help()``: the game's
      part of ``sweep --metrics``' help; ``preset_note``: words after each of the game's presets
      in ``cpstats presets`` (``{name}``: the preset's name);
    - ``check(options)``: refuses in one line, before anything runs, a value the game's own
      options cannot take (a variant of another game where the game's tables are named);
    - ``quiet()``: a context in which the game's own progress output is silent (``--quiet``);
    - ``commands``: the game's own subcommands, each ``add(subparsers, kit)``; a command a game
      adds plays that game's presets only.
    """

    setter_options: Callable[[Any, str], None] | None = None
    setter: Callable[[Any], Any] | None = None
    run_length: Callable[[Any], int] | None = None
    kernels: Callable[..., tuple[str, ...]] | None = None
    warnings: Callable[..., list[str]] = _no_lines
    table_notes: Callable[[Any], str] = _no_text
    metrics_help: Callable[[], str] | None = None
    check: Callable[[Any], None] | None = None
    preset_note: str = ""
    quiet: Callable[[], Any] | None = None
    commands: tuple[Callable[[Any, Any], Any], ...] = ()


@dataclass(frozen=True)
class DashboardTab:
    """A game's part of the dashboard: its own tab's ``title``, the dashboard's ``app`` that shows
    it (a kind of view the dashboard offers: ``"house"`` the house money of a run, ``"rules"`` a
    rule explorer playing the game's presets), ``content`` (what that app reads of the game: an
    object whose attributes the app's docstring lists), and ``opens``: what each of the
    dashboard's apps opens on when it shows this game (app name -> a preset, presets or variant
    strings), so no app names a preset; ``apps``: what the dashboard's shared apps read of the
    game (app name -> an object whose attributes, or a value whose meaning, that app's docstring
    gives: the comparer's figures, a picker's controls, the skill fields, a sweep's needed rules,
    whether a run trains first), so no app imports a game."""

    title: str
    app: str
    content: Any = None
    opens: Mapping[str, Any] = field(default_factory=dict)
    apps: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Control:
    """One control of a variant picker, as data: its ``key`` (the name the game's
    :class:`VariantControls` functions use), ``label``, ``kind`` (``"choice"`` of ``choices``: plain
    values or (words, value) pairs; ``"number"`` from ``low`` to ``high`` by ``step``; ``"whole"``
    a whole number from ``low`` to ``high``; ``"flag"`` true or false), the value it shows
    before a variant fills it (``start``; None: the first choice, or ``low``) and its ``group``
    (the controls of a group are shown folded under the group's title)."""

    key: str
    label: str
    kind: str = "choice"
    choices: tuple = ()
    low: float = 0.0
    high: float = 1000.0
    step: float = 1.0
    start: Any = None
    group: str = ""


@dataclass(frozen=True)
class Limits:
    """What the other choices of a picker allow: ``choices`` (key -> (the values offered, the
    value taken when the one shown is no longer offered)), ``disabled`` (key -> off or on),
    ``labels`` (key -> its label now) and ``notes`` (why, in words)."""

    choices: Mapping[str, tuple[tuple, Any]] = field(default_factory=dict)
    disabled: Mapping[str, bool] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class VariantControls:
    """A game's rules in a variant picker (the dashboard's ``picker`` content): the ``controls``
    in the order shown; ``values(v)``: each control's value for the variant ``v`` (key ->
    value); ``follow(key, values)``: the values other controls take when ``key`` changes (a
    scoring system sets its numbers); ``limits(base, values)``: what the values shown allow
    (:class:`Limits`); ``changes(base, values)``: the rules the values change from ``base``, as
    ``base.replace(**changes)`` takes them (may raise the rules' own error)."""

    controls: tuple[Control, ...]
    values: Callable[[Any], dict[str, Any]]
    follow: Callable[[str, Mapping[str, Any]], dict[str, Any]]
    limits: Callable[[Any, Mapping[str, Any]], Limits]
    changes: Callable[[Any, Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class GameViews:
    """``par_sheet(v, *, setter, hands_per_hour, progress, sweeps, deals, rng, result, executor,
    sensitivity_deals, seat_deals)``: plays what the game's PAR sheet needs and returns its content
    (:class:`~cpstats.engine.sheet.SheetContent`; ``setter`` resolved, ``sweeps(setter)`` the
    sensitivity sweeps asked for); ``par_sweeps(v, setter)``: the (parameter, values) its sheet
    sweeps by default; ``simulate_text(options, kit)``: the text ``cpstats simulate``
    prints of a run, playing it through ``kit.simulate`` (:class:`CommandLine`); ``dashboard_tab``:
    the game's part of the dashboard (:class:`DashboardTab`); ``command_line``: the rest of what
    ``cpstats`` says of the game (:class:`CommandLine`)."""

    par_sheet: Callable[..., Any] | None = None
    par_sweeps: Callable[..., Any] | None = None
    simulate_text: Callable[..., Any] | None = None
    dashboard_tab: DashboardTab | None = None
    command_line: CommandLine = CommandLine()
