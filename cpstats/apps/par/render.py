"""Writing a PAR sheet: one self-contained HTML file, and an A4 PDF through matplotlib's PDF
backend (``PdfPages``): text, tables split across pages with their header repeated, charts.

The cover comes first (the PDF's first page, the top of the HTML): its status (DRAFT below a
submission's precision), the identity table, the summary line, the precision table, the
certification statement and blank sign-off lines.

Numbers are written for reading (:func:`format_cell`): thousands separators, probabilities as
percentages or "1 in N", shares as percentages, never exponent notation; column names in words.
Pages and charts are :class:`matplotlib.figure.Figure` objects made here, never through pyplot:
writing a sheet leaves the caller's backend and open figures as they were. Each file is written
atomically (:func:`~cpstats._atomic.atomic_path`): a write that fails (a full disk, an interrupt)
leaves no partial file, and an older sheet at the path stays whole.
"""

from __future__ import annotations

import base64
import functools
import html
import io
import math
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.image import imread
from matplotlib.patches import Rectangle
from matplotlib.textpath import TextPath

from cpstats._atomic import atomic_path


__all__ = ["write_html", "write_pdf", "format_cell", "display_frame"]

_PROB = {"probability", "frequency", "held_frequency", "exact_probability", "declared_frequency",
         "simulated_frequency"}
_SHARE = {"share_of_variance", "share_of_gross_wins", "house_edge", "share_of_royalties",
          "share_ci_low", "share_ci_high"}
_INTS = {"count", "made", "deals", "hands", "player_seats", "seat", "pairs_pooled", "combinations"}
_HEADERS = {"ci_low": "95% low", "ci_high": "95% high", "mean_pay": "average pay",
            "contribution_to_mean": "contribution to mean",
            "contribution_to_variance": "contribution to variance",
            "bonus_per_opponent": "bonus per opponent", "payout_per_opponent": "payout per opponent",
            "paid_per_hand": "paid per hand", "per_seat_hour": "per seat-hour",
            "low_90%": "90% low", "high_90%": "90% high", "low_95%": "95% low", "high_95%": "95% high",
            "bank_result_per_hand": "bank's result per hand", "description": "outcome",
            "player_seats": "players", "share_of_gross_wins": "share of gross wins",
            "held_ci_low": "95% low", "held_ci_high": "95% high",
            "mean_charge": "average charge", "mean_pay_after_charges": "average pay after charges",
            "diff": "difference to this variant", "diff_ci_low": "difference 95% low",
            "diff_ci_high": "difference 95% high", "diff_note": "note",
            "share_ci_low": "share 95% low", "share_ci_high": "share 95% high",
            "share_of_royalties": "share of royalties", "pay_per_opponent": "pay per opponent",
            "return_per_hand": "return per hand", "simulated_frequency": "simulated (check)"}
_HIDDEN = {"outcome", "pairs_pooled"}
#: Columns of one quantity, written with the same decimals (a session's expected result and its
#: bands: "-104" beside "80.0" reads as two kinds of number).
_SHARED = (("expected", "low_90%", "high_90%", "low_95%", "high_95%"),)
#: Differences of a row's figure, written in its unit with a sign (rates in percentage points).
_DIFFS = ("diff", "diff_ci_low", "diff_ci_high")


def _kinds(frame: pd.DataFrame) -> dict[str, str]:
    """Each column's format: text, int, prob, share, units, or "row" (by the row's ``unit``)."""
    kinds, last = {}, "units"
    for col in frame.columns:
        if frame[col].dtype == object or frame[col].dtype == bool or str(frame[col].dtype) in ("str", "string"):
            kind = "text"
        elif col in _INTS:
            kind = "int"
        elif col in _PROB:
            kind = "prob"
        elif col in _SHARE:
            kind = "share"
        elif col in ("ci_low", "ci_high", "held_ci_low", "held_ci_high"):
            kind = last
        elif "unit" in frame.columns and col in ("estimate", "value"):
            kind = "row"
        elif "unit" in frame.columns and col in _DIFFS:
            kinds[col] = "rowdiff"
            continue
        else:
            kind = "units"
        if kind in ("prob", "share", "units", "row"):
            last = kind
        if kind == "units":
            kind = _units_kind(frame[col].to_numpy(dtype=float))
        kinds[col] = kind
    for group in _SHARED:
        cols = [c for c in group if kinds.get(c, "text").startswith(("units", "int"))]
        if len(cols) > 1:
            kinds.update(dict.fromkeys(cols, _units_kind(frame[cols].to_numpy(dtype=float))))
    return kinds


def _units_kind(values: np.ndarray) -> str:
    """``int`` when every finite value is whole, else ``units<decimals>`` for their largest size."""
    values = values[np.isfinite(values)]
    if values.size and np.all(values == np.round(values)):
        return "int"
    return f"units{_digits(np.abs(values).max()) if values.size else 3}"


def _digits(size: float) -> int:
    """Decimals for numbers up to ``size`` in absolute value: 0 from 10,000, 1 from 100, else 3."""
    return 0 if size >= 10_000 else 1 if size >= 100 else 3


def _units(x: float, digits: int | None = None) -> str:
    if x == 0:
        return "0"
    size = abs(x)
    if digits is None:
        digits = _digits(size) if size >= 0.001 else min(2 - math.floor(math.log10(size)), 12)
    text = f"{x:,.{digits}f}"
    return "0" if text.lstrip("-").strip("0.,") == "" else text


def _prob(p: float) -> str:
    if p == 0:
        return "0"
    if p >= 0.01:
        return f"{p * 100:.2f}%"
    if p >= 0.001:
        return f"{p * 100:.3f}%"
    n = 1 / p
    n = float(f"{n:.3g}")
    return f"1 in {n:,.0f}"


def format_cell(value: Any, kind: str, unit: str = "") -> str:
    """One cell written for reading (see the module docstring); NaN as an en dash."""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if kind == "text" or not isinstance(value, (int, float, np.number)):
        return str(value)
    x = float(value)
    if not math.isfinite(x):
        return "–"
    if kind == "rowdiff":
        return _difference(x, unit)
    if kind == "row":
        kind = "prob" if unit == "probability" else "share" if unit.startswith("share") else \
            "int" if unit == "hands" else "units"
    if kind == "int":
        return f"{x:,.0f}"
    if kind == "prob":
        return _prob(x)
    if kind == "share":
        return "0" if x == 0 else f"{x * 100:.2f}%" if abs(x) >= 0.01 else f"{x * 100:.3f}%"
    if kind.startswith("units") and kind != "units":
        return _units(x, int(kind[5:]))
    return _units(x)


def _difference(x: float, unit: str) -> str:
    """A signed difference: a probability's or a share's in percentage points, else in units."""
    if x == 0:
        return "0"
    if unit == "probability" or unit.startswith("share"):
        points = x * 100
        digits = 2 if abs(points) >= 0.1 else 3
        return f"{points:+.{digits}f} pp"
    return ("+" if x > 0 else "") + _units(x)


def display_frame(frame: pd.DataFrame) -> tuple[list[str], list[list[str]], list[bool]]:
    """(headers in words, rows of formatted cells, right-aligned per column) of a table."""
    kinds = _kinds(frame)
    cols = [c for c in frame.columns if not (c in _HIDDEN and "description" in frame.columns)
            and c != "pairs_pooled" and not (c == "unit" and kinds.get("estimate") == "row")
            and not (c == "name" and "figure" in frame.columns)]
    units = frame["unit"] if "unit" in frame.columns else pd.Series([""] * len(frame))
    rows = [[format_cell(frame[c].iloc[i], kinds[c], str(units.iloc[i])) for c in cols]
            for i in range(len(frame))]
    headers = [_HEADERS.get(c, str(c).replace("_", " ")) for c in cols]
    headers = [h[:1].upper() + h[1:] for h in headers]
    if "unit" in frame.columns and "estimate" in cols:
        other = set(units) - {"units per hand", "share", "probability"}
        headers[cols.index("figure")] = ("Figure (units per hand unless a % or 1 in N)" if not other else
                                         f"Figure (units per hand unless a % or 1 in N, or it says {' or '.join(sorted(other))})")
    return headers, rows, [kinds[c] != "text" for c in cols]


# -- HTML -------------------------------------------------------------------------------------

_CSS = ("body{font-family:system-ui,sans-serif;max-width:62rem;margin:2rem auto;color:#1a202c;"
        "line-height:1.45}h1{margin-bottom:.2rem}h2{border-bottom:2px solid #2b6cb0;padding-bottom:"
        ".2rem;margin-top:2.2rem}table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0 1rem}"
        "caption{text-align:left;font-weight:600;padding:.3rem 0}td,th{padding:3px 9px;border-bottom:"
        "1px solid #e2e8f0;vertical-align:top}th{background:#edf2f7}td.n{text-align:right;white-space:"
        "nowrap;font-variant-numeric:tabular-nums}.note{color:#4a5568;font-size:.85rem}"
        "img{max-width:100%}")


def _html_table(caption: str, frame: pd.DataFrame, note: str, intro: str = "") -> str:
    headers, rows, right = display_frame(frame)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td class='{'n' if r else 't'}'>{html.escape(c)}</td>"
                                    for c, r in zip(row, right)) + "</tr>" for row in rows)
    extra = f"<p class='note'>{html.escape(note)}</p>" if note else ""
    lead = f"<p>{html.escape(intro)}</p>" if intro else ""
    return f"{lead}<table><caption>{html.escape(caption)}</caption><tr>{head}</tr>{body}</table>{extra}"


def _png(fig, dpi: int = 150) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


#: A blank line to sign or write on.
_BLANK = "_" * 34


def _signoff_frame(cover: Any) -> pd.DataFrame:
    return pd.DataFrame([(name, _BLANK) for name in cover.signoff], columns=["sign-off", "entry"])


def _html_cover(sheet: Any) -> list[str]:
    c = sheet.cover
    colour = "#c53030" if c.status == "DRAFT" else "#2f855a"
    return [f"<h1>{html.escape(c.title)}</h1>",
            f"<p class='note'>{html.escape(sheet.subtitle)}</p>",
            f"<p style='font-size:1.3rem;font-weight:700;color:{colour}' class='status'>{html.escape(c.status)}</p>",
            f"<p>{html.escape(c.status_words)}</p>",
            _html_table("The game and the run", c.identity, ""),
            f"<p><b>Summary:</b> {html.escape(c.summary_line)}</p>",
            _html_table("Precision: the targets and what this run reached", c.precision, ""),
            f"<p><b>Certification.</b> {html.escape(c.statement)}</p>",
            _html_table("Sign-off", _signoff_frame(c), "")]


def write_html(sheet: Any, path: Path) -> Path:
    """Write ``sheet`` (a :class:`~cpstats.apps.par.ParSheet` of any game) as one HTML file with its
    charts inlined as PNG, the cover at the top; returns ``path``."""
    parts = (_html_cover(sheet) if sheet.cover is not None else
             [f"<h1>PAR sheet: {html.escape(sheet.label)}</h1>", f"<p class='note'>{html.escape(sheet.subtitle)}</p>"])
    for section in sheet.sections:
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in section.paragraphs]
        parts += [_html_table(t.caption, t.frame, t.note, t.intro) for t in section.tables]
        for name in section.charts:
            data = base64.b64encode(_png(sheet.chart(name))).decode()
            parts.append(f"<p><img alt='{html.escape(name)} chart' src='data:image/png;base64,{data}'></p>")
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        tmp.write_text("<!doctype html><html><head><meta charset='utf-8'>"
                       f"<title>PAR sheet: {html.escape(sheet.label)}</title><style>{_CSS}</style></head>"
                       "<body>" + "\n".join(parts) + "</body></html>", encoding="utf-8")
    return path


# -- PDF --------------------------------------------------------------------------------------

_PAGE = (8.27, 11.69)  # A4, inches
_MARGIN = 0.6
_BODY, _SMALL, _MIN = 9.5, 7.5, 6.0


@functools.lru_cache(maxsize=None)
def _advance(char: str, bold: bool) -> float:
    """Width of one character at 100 points, inches (its advance: a space counts)."""
    prop = {"weight": "bold"} if bold else None
    pair = TextPath((0, 0), f"x{char}x", size=100, prop=prop).get_extents().width
    return (pair - TextPath((0, 0), "xx", size=100, prop=prop).get_extents().width) / 72


def _width(text: str, size: float, bold: bool = False) -> float:
    """Width of ``text`` in inches at ``size`` points (DejaVu Sans, matplotlib's default), from
    the cached width of each character (kerning left out: a few hundredths of an inch)."""
    return sum(_advance(c, bold) for c in str(text)) * size / 100


def _wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` inches."""
    lines = []
    for paragraph in str(text).split("\n"):
        words, line = paragraph.split(" "), ""
        for word in words:
            trial = f"{line} {word}".strip()
            if line and _width(trial, size, bold) > width + 1e-6:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


class _Pdf:
    """A cursor over A4 pages: headings, paragraphs, tables and images flow down and break."""

    def __init__(self, pdf: PdfPages, footer: str):
        self.pdf, self.footer, self.page, self.fig, self.y = pdf, footer, 0, None, 0.0
        self.new_page()

    @property
    def width(self) -> float:
        return _PAGE[0] - 2 * _MARGIN

    def new_page(self) -> None:
        self.close_page()
        self.page += 1
        self.fig = Figure(figsize=_PAGE)
        self.y = _MARGIN
        self.fig.text(0.5, 0.35 / _PAGE[1], f"{self.footer} · page {self.page}", ha="center",
                      fontsize=7, color="#718096")

    def close_page(self) -> None:
        if self.fig is not None:
            self.pdf.savefig(self.fig)
            self.fig = None

    def room(self, height: float) -> bool:
        return self.y + height <= _PAGE[1] - _MARGIN

    def text(self, x: float, text: str, size: float, **kw) -> None:
        """Draw at ``x`` inches from the left, baseline one line below the cursor."""
        self.fig.text(x / _PAGE[0], 1 - (self.y + size / 72) / _PAGE[1], text, fontsize=size,
                      va="baseline", **kw)

    def heading(self, text: str, size: float = 13) -> None:
        if not self.room(2.2):  # a heading never ends a page: it keeps some of its section with it
            self.new_page()
        self.y += size / 72 * 0.6
        self.text(_MARGIN, text, size, weight="bold", color="#1a365d")
        self.y += size / 72 * 1.5

    def paragraph(self, text: str, size: float = _BODY, color: str = "#1a202c") -> None:
        for line in _wrap(text, size, self.width):
            if not self.room(size / 72 * 1.4):
                self.new_page()
            self.text(_MARGIN, line, size, color=color)
            self.y += size / 72 * 1.4
        self.y += size / 72 * 0.5

    def image(self, fig) -> None:
        data = imread(io.BytesIO(_png(fig, dpi=200)))
        h, w = data.shape[:2]
        width = self.width * 0.9
        height = width * h / w
        if not self.room(height):
            self.new_page()
        ax = self.fig.add_axes([(_MARGIN + self.width * 0.05) / _PAGE[0],
                                1 - (self.y + height) / _PAGE[1], width / _PAGE[0], height / _PAGE[1]])
        ax.imshow(data, interpolation="lanczos")
        ax.axis("off")
        self.y += height + 0.15


def _natural_widths(headers, rows, size: float, pad: float, floor: float = 1.2) -> tuple[list[float], list[float]]:
    """(natural width, narrowest wrapped width: ``floor`` inches or the longest word) of each
    column at ``size`` points, inches."""
    columns = list(zip(*rows)) if rows else [[] for _ in headers]
    natural, least = [], []
    for h, col in zip(headers, columns):
        words = [_width(w, size) for c in col for w in str(c).split()]
        longest = max(words + [_width(w, size, True) for w in h.split()] + [0.0])
        natural.append(max([_width(c, size) for c in col] + [longest]) + pad)
        least.append(max(longest + pad, min(natural[-1], floor)))
    return natural, least


def _layout(headers, rows, right, width: float) -> tuple[float, list[float], list[list[list[str]]]]:
    """(font size, column widths, wrapped cells incl. the header row) fitting ``width`` inches.

    Text columns wrap first (down to about 1.2 inches or their longest word); only a table that
    still does not fit gets a smaller font, 7.5 down to 6 points, and at 6 points its text columns
    wrap down to their longest word. Headers wrap to their column."""
    pad = 0.18
    for size, floor in ((_SMALL, 1.2), (7.0, 1.2), (6.5, 1.2), (_MIN, 1.2), (_MIN, 0.0)):
        natural, least = _natural_widths(headers, rows, size, pad, floor)
        fixed = sum(w for w, r in zip(natural, right) if r)
        if fixed + sum(w for w, r in zip(least, right) if not r) <= width:
            break
    widths = list(natural)
    excess = sum(widths) - width
    slack = [natural[i] - least[i] if not right[i] else 0.0 for i in range(len(widths))]
    if excess > 0 and sum(slack) > 0:
        share = min(excess / sum(slack), 1.0)
        widths = [w - share * sl for w, sl in zip(widths, slack)]
    elif excess < 0 and len(headers) > 3 and not all(right):
        grow = [i for i, r in enumerate(right) if not r]
        for i in grow:
            widths[i] += -excess / len(grow) * 0.3
    cells = [[_wrap(h, size, w - pad, True) for h, w in zip(headers, widths)]]
    cells += [[_wrap(c, size, w - pad) if not r else [c] for c, w, r in zip(row, widths, right)]
              for row in rows]
    return size, widths, cells


def _table(doc: _Pdf, caption: str, frame: pd.DataFrame, note: str, intro: str = "") -> None:
    headers, rows, right = display_frame(frame)
    size, widths, cells = _layout(headers, rows, right, doc.width)
    line = size / 72 * 1.3
    header, body = cells[0], cells[1:]
    head_h = line * max(len(c) for c in header) + 0.06
    lead = len(_wrap(intro, _BODY, doc.width)) * _BODY / 72 * 1.4 + _BODY / 72 * 0.5 if intro else 0.0
    if not doc.room(lead + 0.3 + head_h + line * 3):  # the intro stays with its table
        doc.new_page()
    if intro:
        doc.paragraph(intro)

    def draw_header(title: str) -> None:
        doc.text(_MARGIN, title, 8.5, weight="bold", color="#2d3748")
        doc.y += 8.5 / 72 * 1.6
        _row(doc, header, widths, right, size, line, bold=True, shade="#e2e8f0")
        doc.y += 0.03

    draw_header(caption)
    for i, row in enumerate(body):
        height = line * max(len(c) for c in row) + 0.04
        if not doc.room(height):
            doc.new_page()
            draw_header(f"{caption} (continued)")
        _row(doc, row, widths, right, size, line, shade="#f7fafc" if i % 2 else None)
    doc.y += 0.08
    if note:
        doc.paragraph(note, size=7.5, color="#4a5568")
    doc.y += 0.1


def _row(doc: _Pdf, row, widths, right, size, line, bold=False, shade=None) -> None:
    height = line * max(len(c) for c in row) + 0.04
    if shade:
        doc.fig.patches.append(Rectangle((_MARGIN / _PAGE[0], 1 - (doc.y + height) / _PAGE[1]),
                                         sum(widths) / _PAGE[0], height / _PAGE[1], color=shade,
                                         transform=doc.fig.transFigure, zorder=0, lw=0))
    x = _MARGIN
    top = doc.y
    for lines, w, r in zip(row, widths, right):
        for k, text in enumerate(lines):
            doc.y = top + 0.02 + k * line
            at = x + w - 0.06 if r else x + 0.06
            doc.text(at, text, size, ha="right" if r else "left", weight="bold" if bold else "normal")
        x += w
    doc.y = top + height


def _pdf_cover(doc: _Pdf, cover: Any) -> None:
    """The cover on the first page (below the title), then a new page for the sections."""
    colour = "#c53030" if cover.status == "DRAFT" else "#2f855a"
    doc.y += 0.05
    doc.text(_MARGIN, cover.status, 16, weight="bold", color=colour)
    doc.y += 16 / 72 * 1.5
    doc.paragraph(cover.status_words)
    _table(doc, "The game and the run", cover.identity, "")
    doc.paragraph("Summary: " + cover.summary_line)
    _table(doc, "Precision: the targets and what this run reached", cover.precision, "")
    doc.paragraph("Certification. " + cover.statement, size=8.5)
    _table(doc, "Sign-off", _signoff_frame(cover), "")
    doc.new_page()


def write_pdf(sheet: Any, path: Path) -> Path:
    """Write ``sheet`` as an A4 PDF: a title block, then every section; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, PdfPages(tmp, metadata={"Title": f"PAR sheet: {sheet.label}",
                                                           "Creator": "cpstats"}) as pdf:
        doc = _Pdf(pdf, sheet.footer)
        doc.text(_MARGIN, f"PAR sheet: {sheet.label}", 20, weight="bold", color="#1a365d")
        doc.y += 20 / 72 * 1.6
        for line in textwrap.wrap(sheet.subtitle, 110):
            doc.paragraph(line, size=8.5, color="#4a5568")
        if sheet.cover is not None:
            _pdf_cover(doc, sheet.cover)
        for section in sheet.sections:
            doc.heading(section.title)
            for text in section.paragraphs:
                doc.paragraph(text)
            for table in section.tables:
                _table(doc, table.caption, table.frame, table.note, table.intro)
            for name in section.charts:
                doc.image(sheet.chart(name))
        doc.close_page()
    return path
