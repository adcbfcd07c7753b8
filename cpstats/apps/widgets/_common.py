"""What every app shares: the strategy and deal choices, status messages, HTML tables, charts
shown as PNG, and :class:`_App`, the common frame of an app.

- Decision: live runs set hands with ``ev`` by default, the setter that plays the variant well
  (issue 15: every figure that describes a game is of good play); 20,000 four-handed deals take
  about a second per variant. ``greedy`` and ``random`` stay offered, labelled as baselines of
  a weak field (:data:`STRATEGY_LABELS`) in the dropdown, the status line, chart titles and
  tables, and the row tables that set ev's hands are named beside its figures
  (:func:`setter_text`).
- Decision: a chart is shown by setting the ``Output``'s outputs to the figure's PNG, not with
  ``with out: display(fig)``, which captures nothing outside a kernel: the same code then works
  in Jupyter, in Voila and in tests.
- Decision: a run that will compile the kernels (the first after install) says so in the
  status beside the progress bar (:data:`cpstats.apps._warmup.COMPILE_MESSAGE`).
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cpstats.apps._warmup import COMPILE_MESSAGE, needs_compiling

__all__ = ["DEFAULT_STRATEGY", "DEAL_CHOICES", "STRATEGY_LABELS", "strategy_label", "setter_text",
           "runs_text"]

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


#: Said beside a run that trains ev's tables first (issue 15.2).
TRAINING_MESSAGE = "ev has no tables for these rules yet: training them first (under a minute, once)"


def _running(text: str, training: bool = False) -> str:
    """The status of a simulation about to start, with :data:`COMPILE_MESSAGE` while numba has
    not yet compiled the kernels (audit 13.23: the first run after install pauses with no word)
    and :data:`TRAINING_MESSAGE` when ev must first train its tables."""
    text = f"{text}; {TRAINING_MESSAGE}" if training else text
    return _message("note", f"{text}; {COMPILE_MESSAGE}" if needs_compiling() else text)


def _table_html(frame: pd.DataFrame, formats: dict[str, str], css_class: str) -> str:
    """An HTML table of ``frame`` (metrics as rows), each row formatted by ``formats``."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for name, row in frame.iterrows():
        fmt = formats.get(name, "{:.4g}")
        cells = "".join(f"<td style='padding:1px 10px;text-align:right'>{'' if pd.isna(v) else (fmt.format(v) if isinstance(v, (int, float, np.number)) else html.escape(str(v)))}</td>"
                        for v in row)
        rows.append(f"<tr><th style='text-align:left;padding-right:10px'>{html.escape(str(name))}</th>{cells}</tr>")
    return (f'<table class="cpstats-table {css_class}" style="border-collapse:collapse">'
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


class _App:
    """The common frame of an app: its widget tree is ``self.widget``; shows in a notebook."""

    widget: W.Widget

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)

    def _advance(self, deals: int) -> None:
        self.progress.value = min(self.progress.value + deals, self.progress.max)

    def _failed(self, err: Exception) -> None:
        """Show a failed run in the app (never a dead output)."""
        self.progress.bar_style = "danger"
        self.status.value = _message("error", f"simulation failed: {type(err).__name__}: {err}")
