"""What every app shares: the strategy and deal choices, status messages, HTML tables, charts
shown as PNG, and :class:`_App`, the common frame of an app.

- Decision: live recomputes use the ``greedy`` setter by default; ``ev`` is offered but is about
  four times slower (20,000 deals take about 1 s greedy, 4-5 s ev per variant here).
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

__all__ = ["DEFAULT_STRATEGY", "DEAL_CHOICES"]

DEFAULT_STRATEGY = "greedy"
DEAL_CHOICES = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
_STRATEGIES = (("greedy (fast, default)", "greedy"), ("ev (about 4x slower)", "ev"))


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


def _running(text: str) -> str:
    """The status of a simulation about to start, with :data:`COMPILE_MESSAGE` while numba has
    not yet compiled the kernels (audit 13.23: the first run after install pauses with no word)."""
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
