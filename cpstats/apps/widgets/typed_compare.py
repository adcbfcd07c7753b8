"""Typed variants in the Compare view: :class:`TypedCompare`, the part of
:class:`~cpstats.apps.widgets.VariantComparer` that chooses the variants of a game without
pickers (open face) as strings and shows :func:`cpstats.compare`'s figures of them, with
intervals and paired differences. What it offers of the game (hands, setters and their words)
is the game's ``compare`` content (:class:`cpstats.ofc.dashboard.TypedVariants`), what it opens
on the game's ``compare`` opening.

- Decision: each variant is a preset or a variant string typed in a box (as the sweep's preset
  box), not built from controls: the game's own tab edits one variant's options, the comparer
  only needs the strings, and a string names every rule the figures rest on.
- Decision: a run is one :func:`cpstats.compare` call (every variant plays the same decks, seed
  :data:`~cpstats.apps.widgets.cache.SEED`, in blocks of
  :data:`~cpstats.apps.widgets.open_face.OFC_BLOCK_HANDS` hands so the progress bar moves);
  ``ev`` plays the game's strong strategy (open face: ``rollout``). Tables are kept by (variant strings,
  hands, setter), so coming back to a choice shows it without playing.
- Decision: there is no opening table: the shipped runs of open face are not paired with each other
  (no common decks), so the view says to click Simulate.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import ipywidgets as W
import matplotlib.pyplot as plt
import pandas as pd

from cpstats.apps.panels import plot_differences
from cpstats.apps.widgets._common import (ExportBar, _message, _show_figure, _table_html, catalogue_words, dashboard_tabs,
                                          game_content)
from cpstats.apps.widgets.cache import SEED, _InlineExecutor
from cpstats.apps.widgets.open_face import OFC_BLOCK_HANDS
from cpstats.errors import CpstatsError, OptionError
from cpstats.engine.describe import short_label
from cpstats.engine.registry import game_named, load_variant

__all__ = ["TypedCompare", "figures_words"]


def _text(value: float, fmt: str, difference: bool) -> str:
    """A figure in its table format; a difference signed, a difference of shares in points."""
    if pd.isna(value):
        return "n/a"
    if fmt.endswith("%}"):
        digits = fmt[fmt.index(".") + 1: -2]
        return f"{100 * value:+.{digits}f}" if difference else fmt.format(value)
    return fmt.replace("{:+", "{:").replace("{:", "{:+" if difference else "{:").format(value)


def _cell(row: pd.Series, fmt: str, columns: tuple[str, str, str], difference: bool) -> str:
    """``estimate (low to high)``, a difference of shares in points; an estimate without an
    interval (too few events) says so, never ``n/a to n/a``."""
    est, low, high = (_text(row[c], fmt, difference) for c in columns)
    pts = " pts" if difference and fmt.endswith("%}") else ""
    if "n/a" in (low, high):
        return f"{est}{pts} (no interval: too few events)"
    return f"{est}{pts} ({low} to {high})"


def figures_words(table: pd.DataFrame, words: Mapping[str, tuple[str, str]]) -> pd.DataFrame:
    """:func:`cpstats.compare`'s table in words: a row per figure of ``words`` (metric -> (words,
    format), in the order shown), a column per variant reading ``estimate
    (low to high)`` and after each variant but the first its paired difference to the first."""
    labels = list(dict.fromkeys(table["label"]))
    short = [x.split(":")[0] for x in labels]
    rows = [m for m in words if m in set(table["metric"])]
    columns: dict[str, dict[str, str]] = {}
    for i, label in enumerate(labels):
        mine = table[table["label"] == label].set_index("metric")
        for m in rows:
            name, fmt = words[m]
            columns.setdefault(label, {})[name] = _cell(mine.loc[m], fmt, ("estimate", "ci_low", "ci_high"), False)
            if i:
                columns.setdefault(f"{short[i]} - {short[0]}", {})[name] = _cell(
                    mine.loc[m], fmt, ("diff", "diff_ci_low", "diff_ci_high"), True)
    frame = pd.DataFrame(columns).reindex([words[m][0] for m in rows]).fillna("")
    frame.index.name = "figure (95% interval)"
    return frame


def setter_words(table: pd.DataFrame, labels) -> str:
    """Who placed the cards of a compare table: the strategy (in ``labels``' words), a baseline
    named as one."""
    names = list(dict.fromkeys(str(x).split("/")[0].split("(")[0] for x in table["setter"]))
    return ", ".join(labels.get(n, n) for n in names)


class TypedCompare:
    """The typed variants of the comparer (a preset or variant string each, of the game named
    ``game``) and their figures.

    Attributes
    ----------
    boxes
        One text box per variant (A, B, C).
    table
        The :func:`cpstats.compare` table on show (tidy: a row per variant and figure).
    figures
        The same in words (:func:`figures_words`), each figure under its catalogue label (basis and
        unit, :attr:`labels`).
    figure
        The chart of the paired differences on show.
    """

    def __init__(self, game: str, variants: Sequence[str] = (), *, on_change=None) -> None:
        self.game = game
        #: What the view offers of the game (its ``compare`` content: hands, setters, their words).
        self.content = game_content(game, "compare")
        defaults = tuple(dashboard_tabs()[game].opens["compare"])
        names = list(variants) + list(defaults[len(variants):])
        words = game_named(game).label or game
        self.boxes = [W.Combobox(options=tuple(game_named(game).presets), value=str(n), description=f"variant {chr(65 + i)}",
                                 placeholder=f"a preset or variant string of {words}", ensure_option=False,
                                 layout=W.Layout(width="520px"), style={"description_width": "90px"})
                      for i, n in enumerate(names[:3])]
        for box in self.boxes:
            box.observe(lambda _: on_change and on_change(), names="value")
        self.table: pd.DataFrame | None = None
        self.figures: pd.DataFrame | None = None
        #: The figures shown by name -> (catalogue label, format).
        self.labels = catalogue_words(game, self.content.charts.labels)
        self.figure = None
        self.runs: dict[tuple, pd.DataFrame] = {}
        self.table_html, self.output = W.HTML(), W.Output()
        #: Downloads of the chart (PNG, SVG, PDF) and of the table (CSV).
        self.export = ExportBar(f"compare-{game}")
        self.inputs = W.VBox(self.boxes)
        self.shown = W.VBox([self.table_html, self.output, self.export.widget])

    def variants(self, count: int) -> list:
        """The first ``count`` variants typed; one line naming the box for a bad one or one of
        another game."""
        out = []
        for box in self.boxes[:count]:
            label = box.description.split()[-1]
            try:
                v = load_variant(box.value.strip())
            except CpstatsError as err:
                raise OptionError(f"variant {label} is not valid: {err}") from None
            if v.game != self.game:
                raise OptionError(f"variant {label} is a {v.game} variant: the {self.game} view compares "
                                  f"{self.game} variants (pick the {v.game} game for it)")
            out.append(v)
        return out

    def key(self, count: int, hands: int, setter: str) -> tuple:
        return (tuple(str(v) for v in self.variants(count)), int(hands), str(setter))

    def run(self, count: int, hands: int, setter: str, on_block) -> pd.DataFrame:
        """Play the first ``count`` variants on common decks (:func:`cpstats.compare`) and show them."""
        from cpstats.workbench import compare

        vs = self.variants(count)
        labels = [f"{chr(65 + i)}: {short_label(v)}" for i, v in enumerate(vs)]
        table = compare(vs, int(hands), setter=setter, rng=SEED, executor=_InlineExecutor(on_block),
                        block_deals=OFC_BLOCK_HANDS, labels=labels)
        table.attrs.update(hands=int(hands), seed=SEED)
        self.runs[self.key(count, hands, setter)] = table
        self.show(table)
        return table

    def show(self, table: pd.DataFrame) -> None:
        """Show a table of :meth:`run` (its ``attrs`` name the hands and the seed)."""
        self.table = table
        self.figures = figures_words(table, self.labels)
        caption = (f"placed by {setter_words(table, self.content.setter_labels)}; {table.attrs['hands']:,} "
                   f"hands per variant, seed {SEED}")
        self.table_html.value = (
            f"<b>The designer's figures</b> ({html.escape(caption)}; 95% intervals, differences paired "
            "on common decks)" + _table_html(self.figures, {}, "cpstats-figures"))
        charts = self.content.charts
        self.figure = plot_differences(table, self.labels, charts.rates, charts.difference_units,
                                       title=f"Differences against variant A; {caption}")
        _show_figure(self.output, self.figure)
        self.export.show(("figures", table), ("differences", self.figure))

    def refresh(self, count: int, hands: int, setter: str) -> tuple[bool, str]:
        """Show the choice's table when an earlier run played it (else none), and say so: whether
        Simulate can run, and the status line (a bad box's one line, or click Simulate)."""
        for i, box in enumerate(self.boxes):
            box.layout.display = None if i < count else "none"
        try:
            key = self.key(count, hands, setter)
        except OptionError as err:
            self.clear()
            return False, _message("error", str(err))
        if key in self.runs:
            self.show(self.runs[key])
            return True, _message("ok", f"kept from an earlier run: {hands:,} hands per variant, "
                                        f"{setter_words(self.runs[key], self.content.setter_labels)}, seed {SEED}")
        self.clear()
        return True, _message("stale", f"click Simulate: {count} {self.game} variants, {hands:,} hands each "
                                       f"on common decks, seed {SEED}")

    def clear(self) -> None:
        """Take down the figures on show: they belong to another choice than the boxes'."""
        self.table = self.figures = self.figure = None
        self.table_html.value = ""
        self.output.outputs = ()
        self.export.show()

    def save(self, folder: str | os.PathLike) -> list[Path]:
        """Write the table as CSV and the chart as PNG, SVG and PDF into ``folder``."""
        if self.table is None:
            raise OptionError("nothing to export: click Simulate first")
        paths = self.export.save(folder)
        plt.close("all")
        return paths
