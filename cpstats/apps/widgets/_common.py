"""What every app shares: the strategy and deal choices, status messages, HTML tables, charts
shown as PNG, and :class:`_App`, the common frame of an app.

- Decision: live runs set hands with ``ev`` by default, the setter that plays the variant well
  (every figure that describes a game is of good play); 20,000 four-handed deals take
  about a second per variant. ``greedy`` and ``random`` stay offered, labelled as baselines of
  a weak field (:data:`STRATEGY_LABELS`) in the dropdown, the status line, chart titles and
  tables, and the row tables that set ev's hands are named beside its figures
  (:func:`setter_text`).
- Decision: a chart is shown by setting the ``Output``'s outputs to the figure's PNG, not with
  ``with out: display(fig)``, which captures nothing outside a kernel: the same code then works
  in Jupyter, in Voila and in tests.
- Decision: a run that will compile the kernels (the first after install) says so in the
  status beside the progress bar (:func:`cpstats.apps._warmup.compile_notice`, which says why).
- Decision: exports are downloads, links whose ``href`` is a ``data:`` URI with a
  ``download`` file name (:class:`ExportBar`), because in Voila the browser, not the server's
  folder, is where a user wants the file; the same bar writes files with :meth:`ExportBar.save`
  in a notebook. A table's CSV link is made with the table (it is cheap); a chart's PNG, SVG
  and PDF links are made when its button is clicked, so moving a slider never renders three
  extra files.
- Decision: numbers in tables are written by :func:`cpstats.engine.describe.format_number`
  unless a row names its own format (no ``1e+06``, no ``nan``).
"""

from __future__ import annotations

import base64
import html
import io
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps._warmup import compile_notice
from cpstats.errors import OptionError
from cpstats.engine.catalogue import Figure, figures_of, find_figure
from cpstats.engine.describe import format_number
from cpstats.engine.figures_text import figure_label
from cpstats.engine.registry import game_named, games

__all__ = ["DEFAULT_STRATEGY", "DEAL_CHOICES", "STRATEGY_LABELS", "strategy_label", "setter_text",
           "runs_text", "CHART_FORMATS", "ExportBar", "export_buttons", "export_bytes",
           "download_link", "page_style", "dashboard_tabs", "game_content", "games_with", "opening", "catalogue_of",
           "label_of", "catalogue_words"]


def dashboard_tabs() -> dict[str, Any]:
    """Every registered game's part of the dashboard
    (:class:`~cpstats.engine.views.DashboardTab`), by the game's name, in the order they registered."""
    return {name: tab for name, game in games().items()
            if game.runs is not None and (tab := game.runs.views.dashboard_tab) is not None}


def game_content(game: str, app: str, default: Any = None) -> Any:
    """What the shared ``app`` reads of the game named ``game``
    (:attr:`~cpstats.engine.views.DashboardTab.apps`), or ``default`` when the game gives none."""
    tab = dashboard_tabs().get(game)
    return default if tab is None else tab.apps.get(app, default)


def catalogue_of(game: str) -> tuple[Figure, ...]:
    """The figures the game named ``game`` reports (its part of the catalogue,
    :func:`cpstats.engine.catalogue.figures_of`): the names and labels every table of figures uses."""
    return figures_of(game_named(game).runs)


def label_of(name: str, catalogue: tuple[Figure, ...]) -> str:
    """A figure's label as every view prints it (:func:`cpstats.engine.figures_text.figure_label`:
    its words, basis and unit); a name the catalogue lacks is shown as it is."""
    figure = find_figure(name, catalogue)
    return name if figure is None else figure_label(figure, name)


def catalogue_words(game: str, words: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """A game's table words (figure name -> (words, format), in the order shown) with each figure's
    words replaced by its catalogue label (:func:`label_of`), the format and order kept."""
    catalogue = catalogue_of(game)
    return {name: (label_of(name, catalogue), fmt) for name, (_, fmt) in words.items()}


def games_with(app: str) -> list[str]:
    """The registered games that give the shared ``app`` its content, in the order they registered."""
    return [name for name, tab in dashboard_tabs().items() if app in tab.apps]


def opening(app: str) -> Any:
    """What the dashboard's ``app`` opens on (a preset, presets or variant strings): the first
    registered game's that names one (:attr:`~cpstats.engine.views.DashboardTab.opens`), so no app
    names a preset; an app no game opens is one line."""
    for tab in dashboard_tabs().values():
        if app in tab.opens:
            return tab.opens[app]
    raise OptionError(f"app={app!r} is invalid: no registered game says what it opens on")

DEFAULT_STRATEGY = "ev"
DEAL_CHOICES = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
#: What each strategy is, as the apps name it wherever its figures appear.
STRATEGY_LABELS = {"ev": "ev (good play)", "greedy": "greedy (baseline: a weak field)",
                   "random": "random (baseline: no skill)"}
_STRATEGIES = tuple((label, name) for name, label in STRATEGY_LABELS.items())


def strategy_label(strategy: str) -> str:
    """The name a strategy is shown under (:data:`STRATEGY_LABELS`; other names as they are)."""
    return STRATEGY_LABELS.get(str(strategy), str(strategy))


def _tables_text(result) -> str | None:
    """The row tables that set a result's hands (``metadata["tables"]``): what they were trained
    for and, when recorded, their source (shipped, cache, trained, borrowed); None without."""
    tables = result.metadata.get("tables")
    if not tables:
        return None
    source = _source(result)
    return f"{tables.get('trained_for')}" + (f" ({source})" if source else "")


def _source(result) -> str | None:
    """Where ev's tables came from, when the result recorded it."""
    meta = result.metadata
    return (meta.get("tables") or {}).get("source") or meta.get("tables_source")


def setter_text(result) -> str:
    """Who set a result's hands: the strategy's label and, for ``ev``, its row tables."""
    tables = _tables_text(result)
    text = strategy_label(result.metadata.get("strategy"))
    return f"{text}, tables trained for {tables}" if tables else text


def runs_text(results, labels=None) -> str:
    """One line naming the setter and the deal count of several results (labelled ``A``, ``B``,
    ... or by ``labels``), each one's where they differ: a chart or table says when it mixes
    strategies."""
    results = list(results)
    labels = list(labels or [chr(65 + i) for i in range(len(results))])
    deals = sorted({r.deals for r in results})
    count = (f"{deals[0]:,} deals" + (" per variant" if len(results) > 1 else "") if len(deals) == 1
             else "deals " + ", ".join(f"{k} {r.deals:,}" for k, r in zip(labels, results)))
    strategies = [r.metadata.get("strategy") for r in results]
    if len(set(strategies)) > 1:
        each = "; ".join(f"{k}: {setter_text(r)}" for k, r in zip(labels, results))
        return f"different strategies: {each}; {count}"
    text = strategy_label(strategies[0])
    tables = [_tables_text(r) for r in results]
    if len(results) > 1 and all(tables) and all(
            r.metadata["tables"].get("trained_for") == str(r.variant) for r in results):
        sources = [_source(r) for r in results]
        text += ", tables trained for each variant" + (
            "" if not any(sources) else f" ({sources[0]})" if len(set(sources)) == 1
            else " (" + ", ".join(f"{k}: {x}" for k, x in zip(labels, sources)) + ")")
    elif len(set(tables)) == 1 and tables[0]:
        text += f", tables trained for {tables[0]}"
    elif any(tables):
        text += ", tables trained for " + ", ".join(f"{k}: {t}" for k, t in zip(labels, tables))
    return f"{text}; {count}"


def _show_figure(out: W.Output, fig) -> None:
    """Put ``fig`` into ``out`` as a PNG (works with or without a kernel) and close it."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    png = base64.b64encode(buf.getvalue()).decode("ascii")
    title = "; ".join(ax.get_title() for ax in fig.axes if ax.get_title())
    out.outputs = ({"output_type": "display_data", "metadata": {},
                    "data": {"image/png": png, "text/plain": f"<chart: {title}>"}},)


def _message(kind: str, text: str) -> str:
    colour = {"error": "#c53030", "note": "#4a5568", "ok": "#2f855a", "stale": "#b7791f"}[kind]
    return f'<span style="color:{colour}">{html.escape(text)}</span>'


#: Said beside a run that trains ev's tables first, so the wait is explained.
TRAINING_MESSAGE = "ev has no tables for these rules yet: training them first (under a minute, once)"


def _running(text: str, training: bool = False) -> str:
    """The status of a simulation about to start, with the compile notice while numba has
    not yet compiled the kernels (otherwise the first run after install pauses with no word)
    and :data:`TRAINING_MESSAGE` when ev must first train its tables."""
    text = f"{text}; {TRAINING_MESSAGE}" if training else text
    notice = compile_notice()
    return _message("note", f"{text}; {notice}" if notice is not None else text)


def _cell(value: object, fmt: str | None) -> str:
    """One table cell: empty for a missing value, a number by ``fmt`` or :func:`format_number`."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return html.escape(fmt.format(value) if fmt else format_number(value))
    return html.escape(str(value))


def _table_html(frame: pd.DataFrame, formats: dict[str, str], css_class: str) -> str:
    """An HTML table of ``frame`` (metrics as rows), each row formatted by ``formats``."""
    head = "".join(f"<th style='padding:1px 10px;text-align:right'>{html.escape(str(c))}</th>"
                   for c in frame.columns)
    rows = []
    for name, row in frame.iterrows():
        fmt = formats.get(name)
        cells = "".join(f"<td style='padding:1px 10px;text-align:right'>{_cell(v, fmt)}</td>"
                        for v in row)
        rows.append(f"<tr><th style='text-align:left;padding-right:10px'>"
                    f"{html.escape(str(name))}</th>{cells}</tr>")
    return (f'<table class="cpstats-table {css_class}" style="border-collapse:collapse">'
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


class _App:
    """The common frame of an app: its widget tree is ``self.widget``; shows in a notebook."""

    widget: W.Widget

    def _repr_mimebundle_(self, **kwargs: Any):
        """The widget, and as plain text (a notebook rendered without its widgets) the app's
        name and status in words, never the HTML the widgets hold."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        status = getattr(getattr(self, "status", None), "value", "")
        text = html.unescape(re.sub(r"<[^>]+>", " ", status))
        bundle["text/plain"] = " ".join(f"{type(self).__name__}: {text}".split())
        return bundle

    def _advance(self, deals: int) -> None:
        self.progress.value = min(self.progress.value + deals, self.progress.max)

    def _failed(self, err: Exception) -> None:
        """Show a failed run in the app (never a dead output)."""
        self.progress.bar_style = "danger"
        self.status.value = _message("error", f"simulation failed: {type(err).__name__}: {err}")

    @contextmanager
    def _guarded_run(self, button=None):
        """The body of a Run button (``run_button`` unless another is named): the button is off
        while it runs and back after; a refusal (OptionError) is its one line in the status, any
        other error a failed run, never a traceback in a dead output."""
        button = self.run_button if button is None else button
        button.disabled = True
        try:
            yield
        except OptionError as err:
            self.progress.bar_style = "danger"
            self.status.value = _message("error", str(err))
        except Exception as err:  # shown in the app, never a dead output
            self._failed(err)
        finally:
            button.disabled = False


# -- export ----------------------------------------------------------------------------------

#: The formats a chart is exported in, with their MIME types; a table is exported as CSV.
CHART_FORMATS = {"png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf"}


def export_bytes(item: object, fmt: str) -> bytes:
    """The bytes of a chart (a matplotlib figure) in ``fmt`` (png, svg, pdf) or of a table (a
    DataFrame) as CSV (UTF-8, its index kept when it names the rows)."""
    if isinstance(item, pd.DataFrame):
        if fmt != "csv":
            raise OptionError(f"format={fmt!r} is invalid for a table: csv")
        named = not isinstance(item.index, pd.RangeIndex)
        return item.to_csv(index=named).encode("utf-8")
    if not hasattr(item, "savefig"):
        raise OptionError(f"{type(item).__name__} is not exportable: a matplotlib figure or a "
                          "DataFrame")
    if fmt not in CHART_FORMATS:
        raise OptionError(f"format={fmt!r} is invalid for a chart: {', '.join(CHART_FORMATS)}")
    buf = io.BytesIO()
    item.savefig(buf, format=fmt, dpi=150 if fmt == "png" else None, bbox_inches="tight")
    return buf.getvalue()


def download_link(data: bytes, filename: str, mime: str, text: str | None = None) -> str:
    """An HTML link that downloads ``data`` as ``filename`` (a ``data:`` URI), for Voila."""
    href = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return (f'<a download="{html.escape(filename)}" href="{href}" target="_blank" '
            f'style="margin-right:10px">{html.escape(text or filename)}</a>')


def _stem(name: str) -> str:
    """A file name stem from any text: words joined by hyphens."""
    return re.sub(r"[^A-Za-z0-9.+-]+", "-", str(name)).strip("-") or "export"


class ExportBar:
    """Export of an app's charts (PNG, SVG, PDF) and tables (CSV) as downloads.

    ``bar.widget`` goes into the app's widget tree; after every redraw call
    ``bar.show(figure, table, ...)`` with what is on show (figures and DataFrames, or
    ``(name, item)`` pairs to name the files). Each table gets a CSV link at once; the button
    makes the charts' links when clicked. In a notebook, :meth:`save` writes the same files.

    Parameters
    ----------
    name
        The stem of every file name (``rake`` gives ``rake.png``, ``rake-sessions.csv``).
    formats
        The chart formats offered (default all of :data:`CHART_FORMATS`).
    """

    def __init__(self, name: str, formats: tuple[str, ...] = tuple(CHART_FORMATS)) -> None:
        for fmt in formats:
            if fmt not in CHART_FORMATS:
                raise OptionError(f"format={fmt!r} is invalid for a chart: {', '.join(CHART_FORMATS)}")
        self.name = _stem(name)
        self.formats = tuple(formats)
        self.items: list[tuple[str, object]] = []
        self.button = W.Button(description="Export chart", icon="download", disabled=True,
                               tooltip="make download links for the chart (" +
                                       ", ".join(f.upper() for f in self.formats) + ")",
                               layout=W.Layout(width="130px"))
        self.links = W.HTML()
        self.button.on_click(lambda _: self.make_chart_links())
        self.widget = W.HBox([self.button, self.links],
                             layout=W.Layout(align_items="center", display="none"))

    def _named(self, items) -> list[tuple[str, object]]:
        named, figures, tables = [], 0, 0
        for item in items:
            if isinstance(item, tuple):
                named.append((f"{self.name}-{_stem(item[0])}", item[1]))
                continue
            is_table = isinstance(item, pd.DataFrame)
            count = tables if is_table else figures
            named.append((self.name + (f"-{count + 1}" if count else ""), item))
            tables, figures = tables + is_table, figures + (not is_table)
        return named

    def show(self, *items: object) -> None:
        """What is on show now: figures and DataFrames, or ``(name, item)`` pairs."""
        self.items = [(n, i) for n, i in self._named(items) if i is not None]
        self.button.disabled = not any(not isinstance(i, pd.DataFrame) for _, i in self.items)
        self.widget.layout.display = None if self.items else "none"  # hidden until there is one
        self.links.value = self._table_links()

    def _table_links(self) -> str:
        return "".join(download_link(export_bytes(item, "csv"), f"{name}.csv", "text/csv",
                                     f"{name}.csv") for name, item in self.items
                       if isinstance(item, pd.DataFrame))

    def make_chart_links(self) -> str:
        """Render every chart in each format and show the download links; returns their HTML."""
        links = "".join(download_link(export_bytes(item, fmt), f"{name}.{fmt}", CHART_FORMATS[fmt],
                                      f"{name}.{fmt}")
                        for name, item in self.items if not isinstance(item, pd.DataFrame)
                        for fmt in self.formats)
        self.links.value = links + self._table_links()
        return self.links.value

    def save(self, folder: str | os.PathLike) -> list[Path]:
        """Write every chart in each format and every table as CSV into ``folder``."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, item in self.items:
            for fmt in ("csv",) if isinstance(item, pd.DataFrame) else self.formats:
                path = out / f"{name}.{fmt}"
                path.write_bytes(export_bytes(item, fmt))
                paths.append(path)
        return paths


def export_buttons(items: object, name: str, *,
                   formats: tuple[str, ...] = tuple(CHART_FORMATS)) -> ExportBar:
    """An :class:`ExportBar` named ``name`` already showing ``items`` (a figure, a DataFrame,
    or a list of them or of ``(name, item)`` pairs); put ``.widget`` in the app and call
    ``.show(...)`` again after each redraw."""
    bar = ExportBar(name, formats)
    bar.show(*(items if isinstance(items, (list, tuple)) and not isinstance(items, pd.DataFrame)
               else [items]))
    return bar


def page_style() -> W.HTML:
    """A style for the page the apps are in: tab titles as wide as their words (the Lumino tab
    bar cuts titles at a fixed width: "House edge and rake" showed as "House edge a...")."""
    return W.HTML("<style>.jupyter-widgets.widget-tab > .lm-TabBar .lm-TabBar-tab,"
                  ".jupyter-widgets.widget-tab > .p-TabBar .p-TabBar-tab"
                  "{flex:0 0 auto !important;min-width:0 !important;max-width:none !important}"
                  "</style>", layout=W.Layout(display="none"))
