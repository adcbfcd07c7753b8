"""The PAR sheet in the dashboard: :class:`ParView` builds :func:`cpstats.par_sheet` of a preset or
variant string of either game, shows the sheet (its sections, every figure with its interval)
and offers it as HTML and PDF downloads.

- Decision: the 13-card sheet's sensitivity section is off unless ticked: its sweeps play the
  main rule numbers around the variant's values (several minutes at the sheet's deals), where
  the rest of the sheet takes seconds on the shipped reference run. Open face has no such
  section, so the box is off and disabled for an open-face variant.
- Decision: the sheet is written by its own writers (:meth:`~cpstats.apps.par.ParSheet.to_html`,
  ``to_pdf``) into a temporary folder; the page shows that HTML and the links are ``data:`` URIs
  of the same files (:func:`~cpstats.apps.widgets._common.download_link`), so what is shown is
  what is downloaded. The PDF is made when its button is clicked: typesetting the A4 pages takes
  longer than building the sheet from a shipped run.
- Decision: the progress bar counts the deals of the blocks the sheet's runs play (its live
  run's, and the sweeps' when ticked), capped at the live run's size; the status line names
  the stage.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import ipywidgets as W

from cpstats.apps.widgets._common import _App, _message, _running, download_link, opening
from cpstats.apps.widgets.cache import SEED, _InlineExecutor
from cpstats.errors import CpstatsError, OptionError
from cpstats.engine.describe import short_label
from cpstats.engine.games import runs_of
from cpstats.engine.registry import GAMES, game_of, load_variant

__all__ = ["ParView", "PAR_DEAL_CHOICES"]

#: Deals of the sheet's live run offered (hands in open face); 0 is the sheet's own default.
PAR_DEAL_CHOICES = (0, 100, 200, 400, 1_000, 5_000, 20_000, 200_000)
_SHEET_SETTERS = {"default": None}  # the dropdown's default: par_sheet's own setter (None)
_SETTERS = (("the sheet's default (ev; fast in open face, rollout in classic)", "default"),
            ("ev (good play; rollout in open face)", "ev"),
            ("greedy (baseline: a weak field)", "greedy"),
            ("random (baseline: no skill)", "random"))


def _scoped(css: str) -> str:
    """The sheet's style kept to the sheet: every selector under ``.cpstats-par`` (its ``body``
    rule becomes the sheet's box), so showing it never restyles the dashboard around it."""
    rules = []
    for rule in filter(None, css.split("}")):
        selectors, decls = rule.split("{", 1)
        scoped = ",".join(".cpstats-par" if x.strip() == "body" else f".cpstats-par {x.strip()}"
                          for x in selectors.split(","))
        rules.append(f"{scoped}{{{decls}}}")
    return "".join(rules)


def _body(page: str) -> str:
    """The sheet's HTML between its body tags, with its style scoped to it, to show in the page."""
    style = re.search(r"<style>(.*?)</style>", page, re.DOTALL)
    body = re.search(r"<body>(.*)</body>", page, re.DOTALL)
    css = f"<style>{_scoped(style.group(1))}</style>" if style else ""
    return f"{css}<div class='cpstats-par'>{body.group(1) if body else page}</div>"


def _sweeps(v: Any) -> bool:
    """Whether ``v``'s game's sheet sweeps rule numbers by default (it registered ``par_sweeps``)."""
    return runs_of(v).views.par_sweeps is not None


class ParView(_App):
    """The PAR sheet of a preset or variant string of either game, with its downloads.

    Parameters
    ----------
    variant
        The preset or variant string shown first.
    deals
        Deals of the sheet's live run (hands in open face); None or 0: the sheet's default (the
        shipped reference run of a 13-card preset set by ev, else a live run).
    setter
        ``default`` (the sheet's own: ``ev`` for 13-card, ``fast`` for open face, whose precision-grown
        run would take minutes at rollout's pace, ``rollout`` under the classic deal), ``ev`` (good
        play; rollout in open face) or a baseline, ``greedy`` or ``random``.
    sensitivity
        Whether the sheet includes its sensitivity section (slow).

    Attributes
    ----------
    sheet
        The sheet on show (:class:`~cpstats.apps.par.ParSheet`, one class for every game).
    files
        The bytes of the sheet on show: ``{"html": ...}``, and ``"pdf"`` once made
        (:meth:`make_pdf`, the *Make PDF* button).
    """

    def __init__(self, variant: str | None = None, *, deals: int | None = None, setter: str = "default",
                 sensitivity: bool = False) -> None:
        variant = variant or opening("par")
        self.sheet = None
        self.files: dict[str, bytes] = {}
        style = {"description_width": "90px"}
        self.variant = W.Combobox(options=tuple(p for game in GAMES.values() for p in game.presets), value=variant, description="variant",
                                  placeholder="a preset or variant string of either game",
                                  ensure_option=False, layout=W.Layout(width="520px"), style=style)
        choices = sorted(set(PAR_DEAL_CHOICES) | {int(deals or 0)})
        self.deals = W.Dropdown(options=[("the sheet's default", 0) if d == 0 else (f"{d:,}", d) for d in choices],
                                value=int(deals or 0), description="deals", style=style,
                                tooltip="deals of the live run (hands in open face)")
        self.setter = W.Dropdown(options=_SETTERS, value=setter, description="setter", style=style)
        self.sensitivity = W.Checkbox(value=bool(sensitivity), description="sensitivity section (slow)")
        self.build_button = W.Button(description="Build", button_style="primary", icon="file",
                                     tooltip="build the PAR sheet")
        self.run_button = self.build_button  # the name the shared run guard turns off and on
        self.pdf_button = W.Button(description="Make PDF", icon="download", disabled=True,
                                   tooltip="typeset the sheet as an A4 PDF and offer it as a download")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="progress", bar_style="info")
        self.status = W.HTML(_message("note", "pick a variant and click Build"))
        self.links = W.HTML()
        self.sheet_html = W.HTML()
        self.variant.observe(lambda _: self._variant_changed(), names="value")
        self.build_button.on_click(lambda _: self.build())
        self.pdf_button.on_click(lambda _: self._pdf_clicked())
        self.widget = W.VBox([
            W.HBox([W.VBox([self.variant, self.sensitivity]), W.VBox([self.deals, self.setter, self.build_button])]),
            W.HBox([self.progress, self.status]), W.HBox([self.pdf_button, self.links]), self.sheet_html,
        ], layout=W.Layout(width="100%"))
        self._variant_changed()

    def _variant_changed(self) -> None:
        """Say at once when the variant typed is not one; the sensitivity box is that of a sheet that sweeps."""
        try:
            v = load_variant(self.variant.value.strip())
        except CpstatsError as err:
            self.build_button.disabled = True
            self.status.value = _message("error", f"variant={self.variant.value!r} is not valid: {err}")
            return
        self.build_button.disabled = False
        self.sensitivity.disabled = not _sweeps(v)
        self.status.value = _message("note", f"{short_label(v)} ({v.game}): click Build")

    def build(self) -> None:
        """Build the sheet the controls describe, show it and make its download links."""
        from cpstats.apps.par import par_sheet

        with self._guarded_run():
            v = load_variant(self.variant.value.strip())
            deals = int(self.deals.value) or None
            options: dict[str, Any] = {}
            if _sweeps(v):
                options["sensitivity"] = bool(self.sensitivity.value)
            self.progress.max, self.progress.value, self.progress.bar_style = deals or 1, 0, "info"
            run = f"a live run of {deals:,} {game_of(v).unit}" if deals else \
                "the sheet's default run"
            extra = ", then the sensitivity sweeps" if options.get("sensitivity") else ""
            self.status.value = _running(f"building the PAR sheet of {short_label(v)}: {run}{extra}, "
                                         "then its tables and charts")
            self.pdf_button.disabled = True
            setter = _SHEET_SETTERS.get(self.setter.value, self.setter.value)
            sheet = par_sheet(v, deals=deals, setter=setter, rng=SEED,
                              executor=_InlineExecutor(self._advance), **options)
            self.status.value = _message("note", "drawing the charts and writing the sheet")
            self._show(sheet)
            self.progress.value, self.progress.bar_style = self.progress.max, "success"

    def _write(self, sheet, kind: str) -> bytes:
        with tempfile.TemporaryDirectory(prefix="cpstats-par-view-") as tmp:
            path = getattr(sheet, f"to_{kind}")(Path(tmp) / f"par.{kind}")
            return path.read_bytes()

    def _links(self) -> str:
        stem = "par-" + re.sub(r"[^A-Za-z0-9.+-]+", "-", str(self.sheet.variant)).strip("-")
        mime = {"html": "text/html", "pdf": "application/pdf"}
        return "download: " + "".join(download_link(data, f"{stem}.{kind}", mime[kind])
                                      for kind, data in sorted(self.files.items(), reverse=True))

    def _show(self, sheet) -> None:
        self.sheet, self.files = sheet, {"html": self._write(sheet, "html")}
        self.links.value = self._links()
        self.pdf_button.disabled = False
        self.sheet_html.value = _body(self.files["html"].decode("utf-8"))
        unit = sheet.unit
        self.status.value = _message("ok", f"PAR sheet of {sheet.label}: {len(sheet.sections)} sections, "
                                     f"{sheet.result.deals:,} {unit}, seed {sheet.result.metadata.get('entropy')}")

    def make_pdf(self) -> bytes:
        """Typeset the sheet on show as an A4 PDF, add its download link and return its bytes."""
        if self.sheet is None:
            raise OptionError("no PAR sheet to typeset: click Build first")
        if "pdf" not in self.files:
            self.pdf_button.disabled = True
            self.files["pdf"] = self._write(self.sheet, "pdf")
            self.links.value = self._links()
        return self.files["pdf"]

    def _pdf_clicked(self) -> None:
        """The Make PDF button: a failure is the status line, and the button comes back."""
        self.status.value = _message("note", "typesetting the PDF (A4)")
        try:
            self.make_pdf()
            self.status.value = _message("ok", f"PAR sheet of {self.sheet.label}: the PDF is ready to download")
        except Exception as err:  # shown in the app, never a dead output
            self.status.value = _message("error", f"the PDF failed: {type(err).__name__}: {err}")
            self.pdf_button.disabled = False

    def save(self, folder) -> list[Path]:
        """Write the sheet on show as ``par.html`` and ``par.pdf`` into ``folder``; returns the paths."""
        if self.sheet is None:
            raise OptionError("no PAR sheet to save: click Build first")
        self.make_pdf()
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "par.html", out / "par.pdf"]
        for path in paths:
            path.write_bytes(self.files[path.suffix[1:]])
        return paths

