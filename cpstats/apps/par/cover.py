"""A PAR sheet's cover, any game's: what a regulator's reviewer reads first (CASINO-MATH, "A sheet for
submission"): the game and its rules' identity, the software, the run's identity (seed, deals and a
digest of its results, from which a reviewer re-runs and compares), the precision asked and reached
(a sheet below a submission's precision is a DRAFT), one summary line of the headline figures with
their intervals, a certification statement and blank analyst and sign-off fields.

- Decision: the digest (:func:`results_digest`) is SHA-256 of the run's tidy figures (every metric's
  estimate and interval, :func:`~cpstats.engine.lookup.figure_table`) written to 10 significant
  digits: a re-run of the same variant, setter, seed and deals gives the same blocks and so the same
  digest, while the last bits of a float sum, which may differ between machines, do not count. The
  digest covers every figure the software reports, so it is compared under the same cpstats version
  (the cover names it): a version that adds a figure or rewords a method's numbers gives another.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from cpstats.engine.describe import describe_rules
from cpstats.engine.registry import game_of
from cpstats.engine.sheet import PRECISION_LEVELS, SheetContent

__all__ = ["Cover", "cover_of", "results_digest", "reached_level", "rulebook_ids", "rerun_command",
           "DIGEST_DIGITS"]

#: Significant digits each figure is written to before the digest hashes it.
DIGEST_DIGITS = 10
#: A rulebook ID as the rules' words name it, in brackets: ``(SC-2-4)``, ``(H1)``, ``(OFC-R-STANDARD)``.
_RULE_ID = re.compile(r"\(([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)\)")


@dataclass
class Cover:
    """The cover as data: ``status`` (``DRAFT`` or ``For submission``), the identity rows (item,
    value), the summary line and its figures, the precision table, the certification statement, the
    results digest (:func:`results_digest`) and the sign-off fields (each printed blank)."""

    title: str
    status: str
    status_words: str
    identity: pd.DataFrame
    summary_line: str
    summary_figures: pd.DataFrame
    precision: pd.DataFrame
    statement: str
    digest: str = ""
    signoff: list[str] = field(default_factory=lambda: ["Analyst", "Analyst's signature and date",
                                                        "Reviewer (sign-off)", "Reviewer's signature and date"])


def results_digest(result: Any) -> str:
    """SHA-256 (first 16 hex digits) of ``result``'s tidy figures, each estimate and interval written
    to :data:`DIGEST_DIGITS` significant digits (module docstring)."""
    from cpstats.engine.lookup import figure_table

    table = figure_table(result, 0.95).sort_values("metric", kind="stable")
    lines = []
    for metric, *numbers in table[["metric", "estimate", "ci_low", "ci_high"]].itertuples(index=False):
        lines.append(metric + "," + ",".join(_rounded(x) for x in numbers))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def _rounded(x: Any) -> str:
    x = float(x)
    if not math.isfinite(x):
        return "nan"
    return "0" if x == 0 else f"{x:.{DIGEST_DIGITS}g}"


def rerun_command(content: SheetContent) -> str:
    """The command that plays the sheet's run again: its variant, setter, seed and length."""
    setter = str(content.result.metadata.get("strategy", "")).split("/")[0].split("(")[0]
    return (f"cpstats par '{content.variant}' --deals {content.result.deals} --seed {content.seed}"
            + (f" --setter {setter}" if setter else ""))


def rulebook_ids(v: Any) -> list[str]:
    """The rulebook IDs the variant's rules name in their words, in order, each once."""
    found = [m for _, text in describe_rules(v) for m in _RULE_ID.findall(text)]
    return list(dict.fromkeys(found))


def reached_level(content: SheetContent) -> tuple[str | None, dict[str, float | None]]:
    """The tightest precision level whose every target (and strength target) the sheet's run meets,
    or None; and the half-widths it was judged on."""
    half = content.half_widths()
    strength = content.strength_half_width()
    reached = None
    for name in PRECISION_LEVELS:
        level = content.levels.get(name)
        if level is None or not level.met(half):
            break
        if level.strength and (strength is None or strength > level.strength):
            break
        reached = name
    return reached, half


def _interval(row: pd.Series) -> str:
    from cpstats.apps.par.render import format_cell

    kind = "row"
    cells = [format_cell(row[c], kind, row["unit"]) for c in ("estimate", "ci_low", "ci_high")]
    if row["ci_low"] == row["ci_high"] == row["estimate"]:
        return f"{cells[0]} (exact)"
    return f"{cells[0]} ({cells[1]} to {cells[2]})"


def _summary(content: SheetContent, headline: pd.DataFrame) -> tuple[str, pd.DataFrame]:
    rows = headline.set_index("name")
    names = [n for n in content.summary_names if n in rows.index]
    shown = rows.loc[names].reset_index()
    parts = [f"{row['figure']}: {_interval(row)}" for _, row in shown.iterrows()]
    return "; ".join(parts) + " (95% intervals).", shown


def _precision_table(content: SheetContent, half: dict[str, float | None]) -> pd.DataFrame:
    from cpstats.engine.catalogue import figures_of, find_figure
    from cpstats.engine.figures_text import figure_words
    from cpstats.engine.games import runs_of

    catalogue = figures_of(runs_of(content.variant))
    names = list(dict.fromkeys(m for level in content.levels.values() for m in level.targets))
    rows = []
    for m in names:
        figure = find_figure(m, catalogue) if catalogue else None
        label = figure_words(figure, m) if figure is not None else m
        row = {"figure": label[:1].upper() + label[1:], "name": m}
        for name in PRECISION_LEVELS:
            level = content.levels.get(name)
            row[f"target_{name}"] = "–" if level is None or m not in level.targets else _width(level.targets[m], m)
        h = half.get(m)
        row["reached"] = "no interval" if h is None else _width(h, m)
        rows.append(row)
    strength = content.strength_half_width()
    if strength is not None:
        row = {"figure": "Strength table: widest field's interval (units a hand)", "name": "strength"}
        for name in PRECISION_LEVELS:
            level = content.levels.get(name)
            row[f"target_{name}"] = (f"±{level.strength:g}" if level is not None and level.strength
                                     else f"{level.strength_pilot:,} hands a seat" if level is not None else "–")
        row["reached"] = f"±{strength:.3g}"
        rows.append(row)
    frame = pd.DataFrame(rows)
    return frame.drop(columns="name").rename(columns={f"target_{n}": f"{n} target (95% half-width)"
                                                      for n in PRECISION_LEVELS}
                                             | {"reached": "this run's half-width"})


def _width(w: float, metric: str) -> str:
    """A half-width as a reader takes it: a rate's in percentage points, else in its units."""
    if metric.endswith(("_rate", "_frequency")) or metric in ("house_edge", "element_of_risk"):
        return f"±{100 * w:.3g} points"
    return f"±{w:.3g}"


def cover_of(content: SheetContent, headline: pd.DataFrame, command: str = "") -> Cover:
    """The cover of ``content``'s sheet (its ``headline`` table gives the summary line; ``command``
    re-runs the sheet's run)."""
    from cpstats._version import __version__

    v, r = content.variant, content.result
    game = game_of(v)
    reached, half = reached_level(content)
    final = reached == PRECISION_LEVELS[-1]
    asked = content.level or "none (a run of given length)"
    status = "For submission" if final else "DRAFT"
    status_words = ("For submission: every target of a submission's precision is met (below)." if final else
                    "DRAFT: below a submission's precision"
                    + (f" (the {reached} precision is reached)" if reached else " (no level's targets are all met)")
                    + "; not for submission.")
    digest = results_digest(r)
    meta = r.metadata
    ids = rulebook_ids(v)
    identity = [("Game", f"{getattr(game, 'label', game.name)} ({game.name})"),
                ("Variant", str(v) if content.label == str(v) else f"{content.label}: {v}"),
                ("Rulebook IDs", ", ".join(ids) if ids else "–"),
                ("Software", f"cpstats {__version__}"),
                ("Strategy", content.played_by),
                ("Run", f"seed {content.seed}, {r.deals:,} {content.unit} (root entropy {meta.get('entropy')}, "
                        f"{meta.get('batches', '?')} batches)"),
                ("Results digest", f"{digest} (SHA-256 of the run's figures to {DIGEST_DIGITS} significant digits)"),
                ("Re-run", command or rerun_command(content)),
                ("Precision", f"asked: {asked}; reached: {reached or 'below every level'}"),
                ("Date", f"{datetime.date.today():%d %B %Y}")]
    summary, figures = _summary(content, headline)
    statement = (f"I certify that the theoretical figures in this sheet were computed by cpstats {__version__} "
                 f"from the run identified above (variant {v}, seed {content.seed}, {r.deals:,} {content.unit}, "
                 f"results digest {digest}); that a re-run from that seed and length with this version reproduces "
                 "the digest; "
                 "and that each figure is accurate to within its stated 95% interval, under the assumptions "
                 "listed in the methodology.")
    return Cover(f"PAR sheet: {content.label}", status, status_words,
                 pd.DataFrame(identity, columns=["item", "value"]), summary, figures,
                 _precision_table(content, half), statement, digest)
