"""What a game gives the engine and the verbs: its runs (:class:`GameRuns`), held by its
registration (:class:`cpstats.engine.registry.Game`, the one registry of games).

A game's package ends by registering its rules and its runs together (the OpenSpiel pattern);
``import cpstats`` imports every game package, so the verbs (:mod:`cpstats.workbench`) find any
game's runs through :func:`runs_of` and never name a game.

The least a game gives is ``simulate`` (the engine's :func:`~cpstats.engine.defaults.block_run`
makes one from a block function, a summary type and a result type), ``setter`` and
``default_setter``; the engine then
supplies a paired ``compare`` and ``sweep`` of the result's per-batch figures
(:mod:`cpstats.engine.defaults`). A game may register richer ones of its own (the 13-card wide
table, open face's figure batches), a skill table and shipped reference runs.

Every registered function takes the verbs' one set of keyword names: ``deals``, ``setter`` (already
resolved by :meth:`GameRuns.resolve_setter`), ``rng``, ``executor``, ``keep_hands``, ``out``, ``resume``,
``progress``, ``block_deals``, ``confidence``, ``labels``, ``hands_per_hour``, ``tidy``,
``metrics``, ``on_point``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from cpstats.errors import OptionError
from cpstats.engine.registry import game_of
from cpstats.engine.views import GameViews

__all__ = ["GameRuns", "RunSizes", "Precision", "runs_of", "reference_runs"]


class RunSizes(NamedTuple):
    """A game's run lengths (deals; open face: hands): ``solve``, the deals of one evaluation of
    :func:`cpstats.solve` and :func:`cpstats.design` by default; ``pilot``, the first stage of a
    sequential run (``until=``); ``least``, the fewest deals an evaluation's interval can rest on; ``sweep``, the deals a point of
    :func:`cpstats.sweep` by default (a game without a :class:`Precision`)."""

    solve: int = 20_000
    pilot: int = 4_000
    least: int = 2
    sweep: int = 100_000


class Precision(NamedTuple):
    """The precision a game's bulk verbs (:func:`cpstats.sweep`, :func:`cpstats.solve`, the PAR
    sheet) choose their default run length for: ``targets``, each figure's 95% half-width; the
    run grows in stages (:mod:`~cpstats.engine.sequential`) from ``pilot`` deals to at most
    ``most`` a run, and a sweep's points share ``budget`` deals a stage (a point at most
    ``min(most, budget // points)``), so the default finishes in a bounded time."""

    targets: Mapping[str, float]
    most: int
    budget: int
    pilot: int


def _every_parameter_moves_play(v: Any, key: str, values: Sequence[Any]) -> bool:
    return True


def _no_note(v: Any, metric: str) -> str | None:
    return None


def _never(metric: str) -> bool:
    return False


def _no_play(meta: Mapping[str, Any]) -> str | None:
    return None


def _any_play(metas: Sequence[Mapping[str, Any]], labels: Sequence[str], what: str) -> str | None:
    return None


@dataclass(frozen=True)
class GameRuns:
    """A game's runs, each with the verbs' keywords (module docstring).

    - ``simulate(v, deals, *, setter, rng, executor, keep_hands, out, resume, progress,
      block_deals)``: one run, a :class:`~cpstats.engine.base.Result`;
    - ``setter(setter, v)``: the game's setter for a name or an object (the verbs call it once a
      call, through :meth:`resolve_setter`; another game's setter is refused in one line);
    - ``default_setter``: the name of the setter that plays when a verb is given none
      (``setter=None``): the game's strong one;
    - ``summary`` and ``result``: the summary type and the result type, ``result(v, summary,
      metadata)``, which read a saved run back (:func:`~cpstats.engine.files.load_result`); the
      result type's ``figure_names(v)`` names the figures before any run
      (:meth:`~cpstats.engine.base.Result.figure_names`);
    - ``compare(vs, deals, *, setter, rng, executor, block_deals, confidence, labels,
      hands_per_hour, tidy)`` and ``sweep(v, parameter, values, *, deals, metrics, setter, rng,
      executor, hands_per_hour, confidence, block_deals, on_point)``: None for the engine's
      (:mod:`cpstats.engine.defaults`);
    - ``skill(v, *, deals, rng, setter, executor)``: the skill table, None if the game has none;
    - ``references``: shipped runs, name -> ``open(name, rake=None)``;
    - ``figure_table(result, confidence)``: the tidy figures a name is looked up in (solve,
      design, ``until=``); None for ``result.figures(confidence)``;
    - ``strategy_relevant(v, key, values)``: whether a rule key can move how hands are played;
    - ``metric_note(v, name)``: why a figure name is not this variant's, when it is another kind
      of variant's (a banked game's house edge), else None;
    - ``aliases``: other names of figures (a designer's words) -> the figure's name;
      ``signed(name)``: whether a figure can be negative; ``shares``: figures that are shares (at
      most 1) beside every ``*_rate``;
    - ``sizes``: :class:`RunSizes`; ``probe_setter``: a fast baseline's name, for the quick runs
      that check a game's shapes rather than describe it (the contract test's);
    - ``identity``: the metadata keys a run's identity adds to the engine's
      (:data:`~cpstats.engine.files.IDENTITY_KEYS`), each with whether it counts in a run that
      has none: what the game's setter plays by where its name alone does not say it;
    - ``bulk_setter``: the setter name the verbs that play many runs (``sweep``, ``solve``,
      ``design``, the PAR sheet) use when none is given, or a function of the variant giving it
      where the setter strong enough depends on the rules (None: ``default_setter``);
      ``precision``: the :class:`Precision`
      their default run length is chosen for (None: fixed lengths, :class:`RunSizes`);
    - ``play_of(metadata)``: the play a run's figures describe, as one comparison must share it
      (None for a game whose setter has no such identity); ``one_play(metadatas, labels, what)``:
      that play, or one line refusing a comparison ``what`` whose points were played otherwise;
    - ``views``: what the apps show of the game (:class:`~cpstats.engine.views.GameViews`);
    - ``figures``: every figure the game reports, for the catalogue (:mod:`cpstats.engine.catalogue`):
      names of shared figures and the game's own :class:`~cpstats.engine.catalogue.Figure` objects.
    """

    simulate: Callable[..., Any]
    setter: Callable[..., Any]
    default_setter: str
    summary: type | None = None
    result: Callable[..., Any] | None = None
    compare: Callable[..., Any] | None = None
    sweep: Callable[..., Any] | None = None
    skill: Callable[..., Any] | None = None
    references: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    figure_table: Callable[..., Any] | None = None
    strategy_relevant: Callable[[Any, str, Sequence[Any]], bool] = _every_parameter_moves_play
    metric_note: Callable[[Any, str], str | None] = _no_note
    aliases: Mapping[str, str] = field(default_factory=dict)
    signed: Callable[[str], bool] = _never
    shares: frozenset[str] = frozenset()
    sizes: RunSizes = RunSizes()
    probe_setter: str = "random"
    identity: Mapping[str, bool] = field(default_factory=dict)
    figures: tuple = ()
    bulk_setter: str | Callable[[Any], str] | None = None
    precision: Precision | None = None
    play_of: Callable[[Mapping[str, Any]], str | None] = _no_play
    one_play: Callable[[Sequence[Mapping[str, Any]], Sequence[str], str], str | None] = _any_play
    views: GameViews = GameViews()

    def resolve_setter(self, setter: Any, v: Any) -> Any:
        """The game's setter for ``setter`` (a name or an object; None: :attr:`default_setter`),
        resolved once for a verb's whole call."""
        return self.setter(self.default_setter if setter is None else setter, v)


def runs_of(variant: Any) -> GameRuns:
    """The registered runs of ``variant``'s game (a variant or a variant string)."""
    game = game_of(variant)
    if not isinstance(game.runs, GameRuns):
        raise OptionError(f"the {game.name} game registered no runs: import its package")
    return game.runs


def reference_runs() -> dict[str, Callable[..., Any]]:
    """Every registered game's shipped runs: run name -> the function that opens it."""
    from cpstats.engine.registry import GAMES

    return {name: opener for game in GAMES.values() if isinstance(game.runs, GameRuns)
            for name, opener in game.runs.references.items()}
