"""How much each variant rewards skill, in an app: :func:`skill_table` and :class:`SkillView`.

The view runs :func:`cpstats.skill` for every variant it is given (the comparer's variants on
show) and shows the player's mean result per hand against each field of the game's skill table (the
13-card ev against a greedy field, a random field and itself, the control, zero), each with its
95% interval, side by side, and a chart of the same. The fields and their words are the table's own
(its index and ``label`` column), the player its ``attrs["player"]``.

- Decision: it runs on its own button, not with Simulate: a skill table sets every hand four
  times with ev (about 5 s per four-handed variant at 20,000 deals), and a designer asks for it
  after the figures of the game.
- Decision: every variant plays the same deals (the apps' seed), and a table is kept by
  (variant string, deals), so asking again after a change of the other variants reruns only
  what changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps import plots
from cpstats.apps.widgets._common import (ExportBar, _App, _message, _running, _show_figure,
                                          _table_html)
from cpstats.apps.widgets.cache import SEED, trains_first
from cpstats.engine.describe import short_label
from cpstats.engine.registry import AnyVariant, load_variant
from cpstats.errors import CpstatsError
from cpstats.workbench import skill

__all__ = ["skill_table", "SkillView"]


def _tables_of(table: pd.DataFrame) -> str:
    """What ev's tables were trained for, by short label, and their source."""
    tables = table.attrs.get("tables") or {}
    source = f" ({tables['source']})" if tables.get("source") else ""
    try:
        trained = short_label(str(tables.get("trained_for")))
    except CpstatsError:
        trained = str(tables.get("trained_for"))
    return f"{trained}{source}"


def _fields(table: pd.DataFrame) -> list[tuple[str, str]]:
    """(field, words) of each field of a skill table, in its order."""
    return list(zip(table.index, table["label"]))


def _player(table: pd.DataFrame) -> str:
    return str(table.attrs.get("player", "the player"))


def skill_table(tables: Sequence[pd.DataFrame], labels: Sequence[str]) -> pd.DataFrame:
    """Several skill tables side by side: one column per variant; rows name the player's tables
    (the 13-card ev's row tables), the deals and, for each field, the player's mean result per
    hand (units, before house charges) and its 95% interval as ``low .. high``."""
    columns = {}
    for label, t in zip(labels, tables):
        player = _player(t)
        column = {f"{player}'s row tables": _tables_of(t), "duplicate deals": int(t["deals"].iloc[0])}
        for field, name in _fields(t):
            column[f"{player} against {name}"] = float(t.loc[field, "mean"])
            column[f"{player} against {name}: 95% CI"] = (f"{t.loc[field, 'ci_low']:+.4f} .. "
                                                         f"{t.loc[field, 'ci_high']:+.4f}")
        columns[label] = column
    return pd.DataFrame(columns)


def _formats(tables: Sequence[pd.DataFrame]) -> dict[str, str]:
    return {"duplicate deals": "{:,.0f}", **{f"{_player(t)} against {name}": "{:+.4f}"
                                             for t in tables for _, name in _fields(t)}}


class SkillView(_App):
    """The skill table of the variants on show (see the module docstring).

    Parameters
    ----------
    variants
        The variants: a sequence of variants or ``(label, variant)`` pairs, or a callable
        returning one when the button is clicked (the comparer passes its pickers').
    deals
        Duplicate deals per field, or a callable returning them.
    seed
        Seed of every variant's deals.

    Attributes
    ----------
    tables
        The skill table of each label shown (:func:`cpstats.skill`).
    table
        The side-by-side table on show (:func:`skill_table`).

    Examples
    --------
    >>> view = SkillView(["2-4", "1-6"], deals=500)
    >>> view.button.click()
    >>> bool(view.tables["1-6"].loc["greedy", "ci_low"] > 0)
    True
    """

    def __init__(self, variants: Sequence | Callable[[], Sequence], *,
                 deals: int | Callable[[], int] = 20_000, seed: int = SEED) -> None:
        self._variants = variants
        self._deals = deals
        self.seed = seed
        self.runs = 0
        self.tables: dict[str, pd.DataFrame] = {}
        self.table: pd.DataFrame | None = None
        self.figure = None
        self._kept: dict[tuple[str, int], pd.DataFrame] = {}
        self._shown: tuple = ()
        self.button = W.Button(description="Skill table", icon="balance-scale",
                               tooltip="ev against a greedy, a random and an ev field, common deals")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress",
                                      bar_style="info")
        self.status = W.HTML(_message("note", "how much each variant rewards skill: ev's result per "
                                              "hand against a greedy field, a random field and "
                                              "itself (the control), on the same deals"))
        self.table_html = W.HTML()
        self.output = W.Output()
        #: Downloads of the chart (PNG, SVG, PDF) and the table (CSV).
        self.export = ExportBar("skill")
        self.button.on_click(lambda _: self.run())
        self.widget = W.VBox([W.HBox([self.button, self.progress, self.status]), self.table_html,
                              self.output, self.export.widget])

    def _chosen(self) -> tuple[list[tuple[str, AnyVariant]], int]:
        given = self._variants() if callable(self._variants) else self._variants
        pairs = [item if isinstance(item, tuple) else (str(item), item) for item in given]
        deals = self._deals() if callable(self._deals) else self._deals
        return [(label, load_variant(v)) for label, v in pairs], int(deals)

    def _key(self) -> tuple:
        chosen, deals = self._chosen()
        return tuple((label, str(v)) for label, v in chosen), deals

    def note_change(self) -> None:
        """Say so when the table on show is of other variants or deals than those chosen now
        (the comparer calls it on every change)."""
        try:
            stale = bool(self.tables) and self._key() != self._shown
        except Exception:  # an invalid variant: the comparer shows why
            stale = bool(self.tables)
        if stale:
            self.status.value = _message("stale", "the variants or deals changed: click Skill table")

    def run(self) -> None:
        """Compute the skill table of every variant (kept ones are reused) and show them."""
        self.button.disabled = True
        try:
            chosen, deals = self._chosen()
            self.progress.max, self.progress.value, self.progress.bar_style = len(chosen), 0, "info"
            self.tables = {}
            for i, (label, v) in enumerate(chosen):
                key = (str(v), deals)
                if key not in self._kept:
                    self.status.value = _running(f"skill table of {short_label(v)} "
                                                 f"({i + 1} of {len(chosen)})",
                                                 trains_first(v))
                    self._kept[key] = skill(v, deals=deals, rng=self.seed)
                    self.runs += 1
                self.tables[label] = self._kept[key]
                self.progress.value = i + 1
            self._show(deals)
            self._shown = (tuple((label, str(v)) for label, v in chosen), deals)
            self.progress.bar_style = "success"
        except Exception as err:  # shown in the app, never a dead output
            self.progress.bar_style = "danger"
            self.status.value = _message("error", f"skill table failed: {type(err).__name__}: {err}")
        finally:
            self.button.disabled = False

    def _show(self, deals: int) -> None:
        labels = list(self.tables)
        self.table = skill_table(list(self.tables.values()), labels)
        self.table_html.value = _table_html(self.table, _formats(list(self.tables.values())), "cpstats-skill")
        player = _player(next(iter(self.tables.values())))
        self.status.value = _message("ok", f"{player} against each field, {deals:,} duplicate deals per "
                                           f"variant, seed {self.seed}; units per hand before "
                                           "house charges")
        self.figure = _plot_skill(self.tables, deals, self.seed)
        _show_figure(self.output, self.figure)
        self.export.show(("chart", self.figure), ("table", self.table))


def _plot_skill(tables: dict[str, pd.DataFrame], deals: int, seed: int):
    """The player's mean result per hand against each field (95% CI), one marker per variant."""
    first = next(iter(tables.values()))
    fields, player = _fields(first), _player(first)
    with plots.style():
        fig, ax = plt.subplots(figsize=(7.5, 0.9 * len(fields) + 1.6))
        y = np.arange(len(fields))
        step = 0.6 / max(len(tables), 1)
        for k, (label, t) in enumerate(tables.items()):
            mean, low, high = (t[c].to_numpy(float) for c in ("mean", "ci_low", "ci_high"))
            ax.errorbar(mean, y + (k - (len(tables) - 1) / 2) * step,
                        xerr=np.vstack([mean - low, high - mean]), fmt="o", capsize=3,
                        label=f"{label} ({player}'s tables: {_tables_of(t)})")
        ax.axvline(0, color="#718096", lw=1)
        ax.set_yticks(y, [f"against {name}" for _, name in fields])
        ax.invert_yaxis()
        ax.set_xlabel(f"{player}'s mean result per hand, units before house charges (95% CI)")
        ax.set_title(f"How much each variant rewards skill\n{deals:,} duplicate deals per variant, "
                     f"seed {seed}", fontsize=10)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), fontsize=8, frameon=False)
        fig.tight_layout()
    return fig
