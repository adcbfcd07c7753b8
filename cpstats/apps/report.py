"""The math report's writer: a game's report content (:class:`cpstats.engine.report.ReportContent`:
the sections in reading order, the charts as data) written as ``report.md`` and ``report.html``
side by side, each chart a PNG drawn by :mod:`cpstats.apps.plots` (the 13-card report:
:func:`cpstats.thirteen.report.report_content`). Every table is printed under its caption; in the
HTML no table widens the page past the text column (a wider one scrolls in its own box).
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd

from cpstats.apps import plots
from cpstats.engine.describe import format_number
from cpstats.engine.report import ReportContent, ReportTable

__all__ = ["write_report"]

#: How each kind of report chart is drawn.
_DRAW = {"naturals": plots.plot_natural_frequencies, "royalties": plots.plot_royalty_rates,
         "net_distribution": plots.plot_net_distribution, "sd_by_variant": plots.plot_sd_by_variant,
         "rake_burden": plots.plot_rake_burden}


def _readable(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` as text for reading: numbers by :func:`format_number` (no ``1e+06``, no ``nan``),
    names (columns, and cells such as ``clean_dragon``) with spaces for underscores."""
    out = df.map(lambda v: format_number(v) if isinstance(v, (int, float, np.number))
                 else v.replace("_", " ") if isinstance(v, str) and v.isidentifier() else str(v))
    out.columns = [str(c).replace("_", " ") for c in df.columns]
    return out


def _md(df: pd.DataFrame) -> str:
    text = _readable(df)
    cols = list(text.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(row) + " |" for row in text.itertuples(index=False)]
    return "\n".join(lines)


def _charts(content: ReportContent) -> dict:
    """The report's figures by file name, each drawn from its chart's data, the content's caption
    under every title (who set the hands, and how many deals)."""
    charts = {}
    for name, chart in content.charts.items():
        options = {} if chart.title is None else {"title": chart.title}
        charts[name] = _DRAW[chart.kind](chart.frame, **options)
    for fig in charts.values():
        ax = fig.axes[0]
        ax.set_title(f"{ax.get_title()}\n{content.caption}", fontsize=9)
    return charts


def write_report(content: ReportContent, out: str | Path) -> Path:
    """Write ``report.md``, ``report.html`` and the PNG charts of ``content`` into ``out``;
    returns the Markdown path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, fig in _charts(content).items():
        fig.savefig(out / name, dpi=110, bbox_inches="tight")
        matplotlib.pyplot.close(fig)
    return _write(out, content.label, content.sections)


#: Tables never run past the text column: a table wider than it scrolls inside its own box.
_CSS = ("body{font-family:sans-serif;max-width:60rem;margin:auto;padding:0 1rem}"
        ".table-wrap{max-width:100%;overflow-x:auto;margin:.4rem 0 1.2rem}"
        "table{border-collapse:collapse;font-size:.85rem;max-width:100%}"
        "caption{caption-side:top;text-align:left;font-weight:bold;padding:4px 0}"
        "td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;vertical-align:top;"
        "white-space:nowrap}td:first-child,th:first-child,.words td,.words th{text-align:left;white-space:normal}"
        ".words td:first-child{white-space:nowrap}img{max-width:100%}")


def _html_table(table: ReportTable) -> str:
    """A table under its caption, in a box that scrolls rather than widen the page."""
    text = _readable(table.frame).to_html(index=False, border=0, classes="words" if table.words else None)
    text = text.replace(">", f">\n<caption>{html.escape(table.caption)}</caption>", 1)
    return f'<div class="table-wrap">{text}</div>'


def _write(out: Path, label: str, sections) -> Path:
    """Write the sections as ``report.md`` and ``report.html``; returns the Markdown path."""
    md = [f"# cpstats math report: {label}", ""]
    body = []
    for title, text, tables in sections:
        if title:
            md += [f"## {title}", ""]
            body.append(f"<h2>{html.escape(title)}</h2>")
        if text:
            md += [text, ""]
            for para in text.split("\n\n"):
                if para.startswith("!["):  # inlined: the HTML file alone keeps its charts
                    src = para[para.index("(") + 1:-1]
                    data = base64.b64encode((out / src).read_bytes()).decode("ascii")
                    body.append(f'<p><img src="data:image/png;base64,{data}" alt="{html.escape(src)}"></p>')
                else:
                    body.append("<p>" + re.sub(r"`([^`]*)`", r"<code>\1</code>",
                                               html.escape(para)) + "</p>")
        for table in tables or ():
            md += [f"**{table.caption}**", "", _md(table.frame), ""]
            body.append(_html_table(table))
    md_path = out / "report.md"
    md_path.write_text("\n".join(md))
    (out / "report.html").write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>cpstats math report: {html.escape(label)}"
        f"</title><style>{_CSS}</style></head><body>"
        f"<h1>cpstats math report: {html.escape(label)}</h1>" + "\n".join(body)
        + "</body></html>")
    return md_path
