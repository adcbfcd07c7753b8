"""Rules for a target in the dashboard: :class:`SolveView` runs :func:`~cpstats.workbench.solve.solve`
on a preset and shows the solution with its interval, each evaluation as it finishes (the progress
bar counts evaluations) and the response curve with its band (:meth:`Solution.plot`).

- Decision: the parameter is typed (any key of the variant string) with the typical questions
  offered (the game's, its dashboard content's ``solve_questions``: parameter, metric, target,
  bounds); bounds are ``low,high`` (floats:
  continuous, ints: every whole value) or a list, as ``cpstats solve --bounds`` reads them.
- Decision: every candidate plays the apps' seed (:data:`~cpstats.apps.widgets.cache.SEED`) on the
  same deals; a solve is not cached (each click runs it).
"""

from __future__ import annotations

import html

import ipywidgets as W

from cpstats.apps.widgets._common import (DEFAULT_STRATEGY, _STRATEGIES, _App, _message, _running,
                                          _show_figure, catalogue_of, label_of, opening, strategy_label)
from cpstats.apps.widgets.cache import SEED
from cpstats.engine.registry import game_of

__all__ = ["SolveView"]

_MAX_EVALUATIONS = 14  # the root finder's cap and the band's two ends


class SolveView(_App):
    """The rule number of a preset that gives a figure its target.

    Attributes
    ----------
    solution
        The :class:`~cpstats.engine.solution.Solution` on show (None before a run).
    label
        The figure solved for, as the catalogue labels it (basis and unit); "" before a run.

    Examples
    --------
    >>> app = SolveView("banked(bank.setter=ev)", deals=1_000, setter="greedy")
    >>> app.run_button.click()
    >>> bool(app.solution.ci_low < app.solution.value < app.solution.ci_high)
    True
    """

    def __init__(self, preset: str | None = None, *, deals: int = 20_000,
                 setter: str = DEFAULT_STRATEGY) -> None:
        self.solution = None
        self.label = ""
        preset = preset or opening("solve")
        #: Typical questions: preset -> (parameter, metric, target, bounds), the game's (its dashboard content).
        self.questions = opening("solve_questions")
        parameter, metric, target, bounds = self.questions.get(preset, next(iter(self.questions.values())))
        style = {"description_width": "90px"}
        self.preset = W.Combobox(value=preset, options=tuple(dict.fromkeys([*self.questions,
                                                                            *game_of(preset).presets])),
                                 description="preset", ensure_option=False, style=style)
        self.parameter = W.Text(value=parameter, description="parameter", style=style)
        self.metric = W.Text(value=metric, description="figure", style=style)
        self.target = W.FloatText(value=target, description="target", style=style)
        self.bounds = W.Text(value=bounds, description="bounds", placeholder="low,high or a list", style=style)
        self.direction = W.Dropdown(options=[("figure >= target", "at_least"), ("figure <= target", "at_most")],
                                    value="at_least", description="integers", style=style)
        self.deals = W.IntText(value=int(deals), description="deals each", style=style)
        self.strategy = W.Dropdown(options=_STRATEGIES, value=setter, description="strategy", style=style)
        self.run_button = W.Button(description="Solve", button_style="primary", icon="play")
        self.progress = W.IntProgress(value=0, min=0, max=_MAX_EVALUATIONS, description="evaluations",
                                      bar_style="info")
        self.status = W.HTML(_message("note", f"ask for a figure's target, then Solve (every candidate "
                                              f"plays the same deals, seed {SEED})"))
        self.answer = W.HTML()
        self.output = W.Output()
        self.preset.observe(self._preset_changed, names="value")
        self.run_button.on_click(lambda _: self.run())
        self.widget = W.VBox([
            W.HBox([W.VBox([self.preset, self.parameter, self.metric, self.target]),
                    W.VBox([self.bounds, self.direction, self.deals, self.strategy, self.run_button])]),
            W.HBox([self.progress, self.status]), self.answer, self.output,
        ], layout=W.Layout(width="100%"))

    def _preset_changed(self, change: dict) -> None:
        if change["new"] in self.questions:
            p, m, t, b = self.questions[change["new"]]
            self.parameter.value, self.metric.value, self.target.value, self.bounds.value = p, m, t, b

    def _evaluated(self, row: dict) -> None:
        self.progress.value = min(self.progress.value + 1, self.progress.max)
        self.status.value = _running(f"evaluated {self.parameter.value}={row['value']:.6g}: "
                                     f"{self.metric.value} {row['estimate']:.6g}"
                                     if isinstance(row["value"], float) else
                                     f"evaluated {self.parameter.value}={row['value']}: "
                                     f"{self.metric.value} {row['estimate']:.6g}")

    def run(self) -> None:
        """Solve what the controls ask and show it (a refusal is one line in the status)."""
        from cpstats.apps.cli.solve import parse_bounds
        from cpstats.workbench.solve import solve

        with self._guarded_run():
            self.progress.value, self.progress.bar_style = 0, "info"
            self.status.value = _running(f"solving {self.parameter.value} on {self.preset.value}")
            self.solution = solve(self.preset.value, self.parameter.value, self.metric.value,
                                  float(self.target.value), bounds=parse_bounds(self.bounds.value),
                                  deals=int(self.deals.value), rng=SEED, setter=self.strategy.value,
                                  direction=self.direction.value, on_evaluation=self._evaluated)
            self.progress.value, self.progress.bar_style = self.progress.max, "success"
            s = self.solution
            self.label = label_of(s.metric, catalogue_of(game_of(s.base).name))
            self.status.value = _message("ok", f"{len(s.evaluations)} evaluations of {s.deals:,} deals, "
                                               f"{strategy_label(self.strategy.value)}, seed {SEED}")
            self.answer.value = f"<p><b>{html.escape(s.sentence())}</b></p>" + (
                f"<p>figure: {html.escape(self.label)} (<code>{html.escape(s.metric)}</code>)</p>") + (
                f"<p><small>{html.escape(s.note)}</small></p>" if s.note else "")
            _show_figure(self.output, s.plot().figure)
