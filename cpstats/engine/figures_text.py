"""A run's figures as a designer reads them, the same layout for every game: the headline figures
first, then one section per scope (per seat, per hand, royalties, naturals, per board, house...),
a family of figures (``mean_seat{seat}``, ...) as one table with a row per member.

Each figure is printed as ``estimate (low..high)`` in its catalogue display (units with 3-4
decimals, a percent with 3 significant digits, "1 in N" for a rare event, a count), never in
scientific notation; a figure without an interval says why. Its label says its basis (before or
after house charges). The figures of rules the game says are not in play (``absent``) are left
out where every one of them is exactly 0, and one line says what was left out.

The module reads only a result's ``figures()`` frame and the game's catalogue
(:mod:`cpstats.engine.catalogue`): it knows no game.

- Decision: it sits in the engine beside the catalogue whose ``display`` it applies, not in
  ``apps/cli``: each game's ``simulate`` text (its package, below the apps) calls it, and the
  apps' tables (``compare``, ``sweep``) may call it too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from cpstats.engine.catalogue import Figure, find_figure

__all__ = ["figures_text", "compare_text", "figure_label", "catalogue_labels", "figure_words", "unit_words", "format_value",
           "format_interval", "HEADLINE", "WIDTH"]

#: The headline figures both games report, in the order printed (a game adds its own after them).
HEADLINE = ("sd", "sd_after_charges", "mean_after_charges", "hit_frequency", "push_rate", "foul_rate",
            "scoop_rate", "rake_per_seat_per_hand", "rake_per_seat_per_hour", "rake_share")
#: The widest line a table is split to stay under.
WIDTH = 108

_WORDS = {"sd": "SD", "per": "per", "vs": "vs"}
_BASIS = {"before charges": "before house charges", "after charges": "after house charges",
          "house": "the house's take"}
_SCOPE_TITLE = {"seat": "per seat", "hand": "per hand", "pair": "per pair of hands", "row": "per row",
                "board": "per board", "table": "the table", "match": "per match", "position": "positions", "run": "the run"}


def _decimals_percent(value: float) -> int:
    """Decimals giving a percent 3 significant digits (at least 2, at most 6)."""
    if value == 0 or not math.isfinite(value):
        return 2
    return int(min(6, max(2, 2 - math.floor(math.log10(abs(value))))))


def _one_in(p: float) -> str:
    """``1 in N``, N = 1/p rounded to 3 significant figures; 0 is "none"."""
    if p <= 0:
        return "none"
    n = 1.0 / p
    digits = math.floor(math.log10(n))
    if digits >= 2:
        return f"1 in {round(n, 2 - digits):,.0f}"
    return f"1 in {n:.{2 - digits}f}"


def _plain(x: float, display: str, decimals: int) -> str:
    if display == "percent":
        return f"{100 * x:,.{decimals}f}%"
    if display == "one in n":
        return _one_in(x)
    return f"{x:,.{decimals}f}"


def _decimals(display: str, values: Iterable[float]) -> int:
    """The decimals of a figure's estimate and bounds (one count for all three)."""
    finite = [abs(v) for v in values if math.isfinite(v) and v != 0]
    big = finite[0] if finite else 0.0
    if display == "percent":
        return _decimals_percent(100 * big)
    if display == "count":
        return 0 if big >= 100 or all(float(v).is_integer() for v in finite) else 1
    return 4 if big < 10 else 3


def format_value(x: float, display: str) -> str:
    """One number in its catalogue ``display`` (no interval)."""
    if not math.isfinite(x):
        return "n/a"
    return _plain(x, display, _decimals(display, [x]))


def format_interval(estimate: float, low: float, high: float, display: str, method: str = "") -> str:
    """``estimate (low..high)`` in ``display``; ``(no interval: method)`` when the bounds are NaN.
    A "1 in N" interval runs from the smaller N to the larger; a rate seen 0 times is "none seen
    (at most 1 in N)"."""
    if not math.isfinite(estimate):
        return "n/a"
    decimals = _decimals(display, [estimate, high, low])
    shown = _plain(estimate, display, decimals)
    if not (math.isfinite(low) and math.isfinite(high)):
        why = method.strip()
        return f"{shown} (no interval{': ' + why if why and not why.startswith('no interval') else ''})"
    if display == "one in n":
        if estimate == 0:
            return f"none seen (at most {_one_in(high)})"
        return f"{shown} ({_one_in(high)}..{_one_in(low) if low > 0 else 'none'})"
    return f"{shown} ({_plain(low, display, decimals)}..{_plain(high, display, decimals)})"


def _unit_words(figure: Figure) -> str:
    """The unit named beside a figure: empty for a percent or "1 in N" (the number says it)."""
    if figure.display in ("percent", "one in n"):
        return ""
    return {"number": "a pure number", "share": "a share"}.get(figure.unit, figure.unit)


def _words(stem: str) -> str:
    text = re.sub(r"([a-z])(\d)", r"\1 \2", stem.replace("after_charges", "after house charges"))
    return " ".join(_WORDS.get(w, w) for w in text.split("_") if w)


def _says_basis(figure: Figure) -> bool:
    """Whether a label names the figure's basis: a player's money (a mean, SD or variance of a seat's
    result per hand, position or match, the share of hands that win or push) reads differently before and after house charges;
    a count of events (fouls, scoops, royalties) and the house's own take do not."""
    if figure.basis == "after charges":
        return True
    return figure.basis == "before charges" and (
        (figure.scope in ("seat", "position", "match") and figure.kind in ("mean", "sd", "variance", "index"))
        or figure.name.startswith(("hit_frequency", "push_rate")))


def _label(figure: Figure, name: str, *, basis: bool = True) -> str:
    """A short label: the figure's own words (its ``label``, or its name's words; a family member's
    placeholders spelt out, ``seat 0``), with its basis where that matters (:func:`_says_basis`)."""
    if figure.label and figure.family:
        text = figure.label.format(**figure.pattern_values(name))
    else:
        text = figure.label or _words(name)
    said = _BASIS.get(figure.basis)
    if basis and said and _says_basis(figure) and said not in text:
        text += f", {said}"
    return text


def figure_words(figure: Figure, name: str) -> str:
    """A figure's short label with its basis, without its unit (a table that writes the unit apart)."""
    return _label(figure, name)


def unit_words(figure: Figure) -> str:
    """The unit a label names beside a figure: empty for a percent or "1 in N" (the number says it)."""
    return _unit_words(figure)


def figure_label(figure: Figure, name: str) -> str:
    """A figure's short label with its basis (``SD, before house charges``) and unit."""
    unit, label = _unit_words(figure), _label(figure, name)
    return label + (f" ({unit})" if unit and unit not in label else "")


def catalogue_labels(names: Iterable[str], catalogue: Sequence[Figure]) -> dict[str, str]:
    """Each name's :func:`figure_label` in ``catalogue`` (a view's words for its figures, declared once);
    a name the catalogue lacks is refused."""
    out = {}
    for name in names:
        figure = find_figure(name, catalogue)
        if figure is None:
            raise KeyError(f"figure {name!r} is not in the catalogue")
        out[name] = figure_label(figure, name)
    return out


def compare_text(table: pd.DataFrame, catalogue: Sequence[Figure]) -> str:
    """A tidy compare table (``label, metric, estimate, ci_low, ci_high, diff, diff_ci_low,
    diff_ci_high``, ``diff_note``) as text: a figure a block, headed by its label with its basis and
    unit, a line a run with its estimate and its paired difference to the first run, both
    ``estimate (low..high)`` in the figure's display."""
    catalogue = tuple(catalogue)
    width = max(len(str(x)) for x in table["label"])
    lines = []
    for metric, rows in table.groupby("metric", sort=False):
        figure = find_figure(metric, catalogue) or Figure(metric, metric, "units", "run", "none", "mean", "none",
                                                          "units")
        lines.append(figure_label(figure, metric))
        for _, row in rows.iterrows():
            note = str(row.get("diff_note", "") or "").split(":")[0]
            diff = format_interval(float(row["diff"]), float(row["diff_ci_low"]), float(row["diff_ci_high"]),
                                   figure.display, note)
            shown = format_interval(float(row["estimate"]), float(row["ci_low"]), float(row["ci_high"]),
                                    figure.display)
            lines.append(f"  {str(row['label']):<{width}}  {shown:<30}  diff {diff}")
    return "\n".join(lines)


def _cell(row: pd.Series, figure: Figure) -> str:
    return format_interval(float(row["estimate"]), float(row["ci_low"]), float(row["ci_high"]), figure.display,
                           str(row.get("method", "")))


def _line(row: pd.Series, figure: Figure, width: int, title: str = "") -> str:
    unit = _unit_words(figure)
    label = _label(figure, row["metric"], basis=_BASIS.get(figure.basis, "-") not in title)
    label += f" ({unit})" if unit else ""
    return f"  {label:<{width}}  {_cell(row, figure)}"


def _zero(row: pd.Series) -> bool:
    """A figure of a rule not in play: exactly 0, its interval from 0 (or none)."""
    low = float(row["ci_low"])
    return float(row["estimate"]) == 0 and (not math.isfinite(low) or low == 0)


def _dropped(frame: pd.DataFrame, figures: Sequence[Figure],
             absent: Mapping[str, Sequence[str]]) -> tuple[set[str], list[str]]:
    """The metrics left out (every figure of an absent rule exactly 0) and the rules named."""
    out: set[str] = set()
    said: list[str] = []
    for rule, names in absent.items():
        wanted = [f for f in figures if f.name in names]
        rows = frame[[any(f.matches(m) for f in wanted) for m in frame["metric"]]]
        kinds = [find_figure(m, wanted).kind for m in rows["metric"]]
        measured = [r for (_, r), kind in zip(rows.iterrows(), kinds) if kind != "parameter"]
        if measured and all(_zero(r) for r in measured):
            out |= set(rows["metric"])
            said.append(rule)
    return out, said


def _member(figure: Figure, name: str) -> str:
    """A family member's row label: its placeholder values (``seat 0``, ``hand 0 vs hand 1``, ``front trips``)."""
    fixed = figure.name[:figure.name.index("{")]
    fixed = fixed[:fixed.rfind("_") + 1]
    rest = name[len(fixed):] if name.startswith(fixed) else name
    return re.sub(r"([a-z])(\d)", r"\1 \2", rest).replace("_", " ")


def _family_title(figure: Figure) -> str:
    keys = re.findall(r"\{(\w+)\}", figure.name)
    if figure.scope in ("seat", "hand", "pair") and keys and set(keys) <= {"seat", "hand", "a", "b"}:
        title = _SCOPE_TITLE[figure.scope]
    else:
        title = keys[0] + "s" if not keys[0].endswith("y") else keys[0][:-1] + "ies"
    return title + (f", {_BASIS[figure.basis]}" if _says_basis(figure) else "")


def _column(figure: Figure) -> str:
    stem = re.sub(r"_?[a-z]*\{\w+\}", "", figure.name).replace("_hand_vs_hand", "").replace("_vs", "")
    unit, words = _unit_words(figure), _words(stem.replace("after_charges", "")).strip()
    return words + (f", {unit}" if unit and not words.endswith(unit) else "")


def _table(title: str, columns: list[tuple[Figure, dict[str, pd.Series]]]) -> list[str]:
    """One family table (columns split to stay under :data:`WIDTH`)."""
    members = list(dict.fromkeys(m for _, rows in columns for m in rows))
    cells = {(i, m): _cell(rows[m], f) if m in rows else "" for i, (f, rows) in enumerate(columns) for m in members}
    heads = [_column(f) for f, _ in columns]
    widths = [max([len(heads[i])] + [len(cells[i, m]) for m in members]) for i in range(len(columns))]
    first = max(len(m) for m in members)
    chunks: list[list[int]] = [[]]
    for i, w in enumerate(widths):
        used = first + sum(widths[j] + 3 for j in chunks[-1])
        if chunks[-1] and used + w + 3 > WIDTH:
            chunks.append([])
        chunks[-1].append(i)
    lines = [title]
    for chunk in chunks:
        lines.append("  " + " " * first + "".join(f"   {heads[i]:>{widths[i]}}" for i in chunk))
        for m in members:
            lines.append("  " + f"{m:<{first}}" + "".join(f"   {cells[i, m]:>{widths[i]}}" for i in chunk))
    return lines


def figures_text(figures: pd.DataFrame, catalogue: Sequence[Figure], *,
                 absent: Mapping[str, Sequence[str]] | None = None, extra: Sequence[str] = (),
                 headline: Sequence[str] = HEADLINE) -> str:
    """A ``figures()`` frame (``metric, estimate, ci_low, ci_high, method``) as text (module
    docstring). ``catalogue`` is the game's figures (:func:`cpstats.engine.catalogue.figures_of`);
    ``absent`` maps a rule not in play ("surrender: not in these rules") to the catalogue names of
    its figures, left out where all are exactly 0; ``extra`` are lines printed after the figures;
    ``headline`` the names printed first, in order (a game's own appended to :data:`HEADLINE`)."""
    catalogue = tuple(catalogue)
    drop, said = _dropped(figures, catalogue, absent or {})
    rows = [(r, find_figure(r["metric"], catalogue)) for _, r in figures.iterrows() if r["metric"] not in drop]
    known = [(r, f) for r, f in rows if f is not None]
    head = sorted((p for p in known if p[0]["metric"] in headline), key=lambda p: list(headline).index(p[0]["metric"]))
    rest = [p for p in known if p[0]["metric"] not in headline]
    sections: dict[str, list] = {}
    for row, figure in rest:
        if figure.family:
            title = _family_title(figure)
        elif figure.basis == "house" or figure.kind == "parameter":  # the pace sits with the take an hour
            title = "house"
        else:
            title = _SCOPE_TITLE[figure.scope] + (f", {_BASIS[figure.basis]}" if _says_basis(figure)
                                                  and figure.scope != "seat" else "")
        sections.setdefault(title, []).append((row, figure))
    width = max([len(_label(f, r["metric"])) + len(_unit_words(f)) + 3 for r, f in known] + [20])
    width = min(width, 60)
    lines = ["headline (95% intervals)"] + [_line(r, f, width) for r, f in head]
    for title, pairs in sections.items():
        lines.append("")
        singles = [(r, f) for r, f in pairs if not f.family]
        families: dict[str, tuple[Figure, dict[str, pd.Series]]] = {}
        for r, f in pairs:
            if f.family:
                families.setdefault(f.name, (f, {}))[1][_member(f, r["metric"])] = r
        table = _table(title, list(families.values())) if families else [title]
        lines += [table[0], *(_line(r, f, width, title) for r, f in singles), *table[1:]]  # figures, then tables
    unknown = [r["metric"] for r, f in rows if f is None]
    if unknown:
        lines += ["", "not in the catalogue: " + ", ".join(unknown)]
    if said:
        lines += ["", "left out (not in these rules, their figures all 0): " + ", ".join(said)]
    if extra:
        lines += ["", *extra]
    return "\n".join(lines)
