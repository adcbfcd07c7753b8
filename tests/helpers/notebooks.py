"""Running a notebook once a session and the checks every notebook's claims pass.

Each notebook writes its claims from code: ``say(template, name=figure(value, low, high, claim=...))``
fills the template's ``{name}`` and ``{name_ci}`` fields and records the figures in ``CLAIMS``.
:func:`execute` runs a notebook (nbclient, the checkout's cpstats on the kernel's path) and reads
``CLAIMS`` and the texts of every chart drawn back from the kernel; each of :data:`CHECKS` takes
``run = (path, executed notebook, claims, seconds)`` and fails on a notebook that breaks its rule.
Refresh stored outputs with ``PYTHONPATH=. jupyter nbconvert --to notebook --execute --inplace
notebooks/0*.ipynb``.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import nbclient
import nbformat

from helpers import ROOT

FIELD = re.compile(r"\{[a-z0-9_]+\}")
CODE_SPAN = re.compile(r"`[^`]*`")
EXPONENT = re.compile(r"(?<![0-9a-fx])\d+(?:\.\d+)?[eE][+-]\d+")  # 1e+06, 2.5e-05; not 0x7f8e15e4
RULE_ID = re.compile(r"(?<![\w-])[A-Z]+-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w-])")  # NS-TW, SC-2-4, R-PAGAT-EXTRA-B
VARIANT_STRING = re.compile(r"\([a-z_.]+=")  # 2-4(royalties=..., 1-6(rake=...
HEADER = re.compile(r"<(th|caption)\b[^>]*>(.*?)</\1>", re.S)
# Prepended to each run: every figure IPython shows (a cell's chart, a widget's) leaves its texts (titles,
# axis and tick labels, legends, annotations) in _CHART_TEXT, read once the figure is drawn. Files the
# notebook writes (a PAR sheet's PDF, exports) are not charts on the page and are not read.
RECORD_CHARTS = """\
import traceback as _traceback

import matplotlib.backend_bases as _backend_bases
from matplotlib.text import Text as _Text

_CHART_TEXT = []
_print_figure = _backend_bases.FigureCanvasBase.print_figure


def _recording_print_figure(self, *args, **kwargs):
    out = _print_figure(self, *args, **kwargs)
    if any(f.filename.endswith("pylabtools.py") for f in _traceback.extract_stack()):
        _CHART_TEXT.extend(t.get_text() for t in self.figure.findobj(_Text) if t.get_visible() and t.get_text())
    return out


_backend_bases.FigureCanvasBase.print_figure = _recording_print_figure
"""
_RUNS: dict[str, tuple] = {}
_CHART_TEXTS: dict[str, list[str]] = {}


def execute(path: Path) -> tuple:
    """(executed notebook, claims, seconds): the notebook run once per session, with a first cell
    that records the texts of every chart drawn and a last that prints them and ``CLAIMS`` as JSON."""
    if path.name not in _RUNS:
        nb = nbformat.read(path, as_version=4)
        nb.cells.insert(0, nbformat.v4.new_code_cell(RECORD_CHARTS))
        nb.cells.append(nbformat.v4.new_code_cell(
            "import json\nprint(json.dumps({'claims': CLAIMS, 'charts': _CHART_TEXT}))"))
        old = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *([old] if old else [])])
        try:
            start = time.perf_counter()
            nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                    resources={"metadata": {"path": str(path.parent)}}).execute()
            seconds = time.perf_counter() - start
        finally:
            if old is None:
                os.environ.pop("PYTHONPATH")
            else:
                os.environ["PYTHONPATH"] = old
        said = json.loads(nb.cells.pop()["outputs"][0]["text"])
        nb.cells.pop(0)
        _RUNS[path.name] = (nb, said["claims"], seconds)
        _CHART_TEXTS[path.name] = said["charts"]
    return _RUNS[path.name]


def figures(claims: list[dict]) -> dict[str, dict]:
    """Every cited figure by name; a name cited twice must be the same figure."""
    out: dict[str, dict] = {}
    for c in claims:
        for name, f in c["figures"].items():
            assert out.get(name, f) == f, f"figure {name!r} is cited with two different values"
            out[name] = f
    return out


def written(f: dict) -> list[str]:
    return [format(f[k], f["fmt"]) for k in ("value", "low", "high") if f[k] is not None]


def every_cited_number_comes_from_the_run(run):
    """A sentence's numbers are all recorded figures; its template writes none itself."""
    path, _, claims, _ = run
    assert claims, f"{path.name} cites no figure from code"
    for c in claims:
        literal = CODE_SPAN.sub("", FIELD.sub("", c["template"])).replace("95%", "")
        assert not re.search(r"\d", literal), f"{path.name}: a number is typed into the text: {c['template']!r}"
        rest = CODE_SPAN.sub("", c["text"]).replace("95%", "")
        for piece in sorted({w for f in c["figures"].values() for w in written(f)}, key=len, reverse=True):
            rest = rest.replace(piece, "")
        assert not re.search(r"\d", rest), f"{path.name}: {c['text']!r} cites a number not recorded"
        for name, f in c["figures"].items():
            assert format(f["value"], f["fmt"]) in c["text"], (path.name, name)
            if f["low"] is not None:
                assert f"{name}_ci" in c["template"], f"{path.name}: {name}'s interval is not shown"


def every_interval_supports_its_sentence(run):
    """An estimate lies in its interval; a difference said to be above or below 0 has its
    interval on that side, one said to be unresolved holds 0; only exact figures go without one."""
    path, _, claims, _ = run
    for name, f in figures(claims).items():
        where = f"{path.name}: {name}={f}"
        if f["claim"] == "exact":
            assert f["low"] is None and f["high"] is None, where
            continue
        assert f["low"] is not None and f["high"] is not None, f"{where} has no interval"
        assert f["low"] <= f["value"] <= f["high"] and f["low"] < f["high"], where
        assert f["claim"] in (None, "above 0", "below 0", "holds 0"), where
        if f["claim"] == "above 0":
            assert f["low"] > 0, where
        elif f["claim"] == "below 0":
            assert f["high"] < 0, where
        elif f["claim"] == "holds 0":
            assert f["low"] <= 0 <= f["high"], where


def static_text_states_no_measured_number(run):
    """Figures live only in generated sentences; the notebook's own Markdown cites none."""
    path, nb, _, _ = run
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text = CODE_SPAN.sub("", cell.source).replace("95%", "")
            assert not re.search(r"\d\.\d|\d\s*%", text), f"{path.name}: {text[:120]!r}"


def outputs(nb):
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            yield i, out


def outputs_read_as_numbers_for_people(run):
    """No exponent notation, no raw <span>, no NaN in the text, no error output."""
    path, nb, _, _ = run
    for i, out in outputs(nb):
        assert out["output_type"] != "error", f"{path.name} cell {i}: {out.get('evalue')}"
        texts = [out.get("text", "")] + [out.get("data", {}).get(k, "")
                                         for k in ("text/plain", "text/markdown", "text/html")]
        for text in texts:
            text = "".join(text) if isinstance(text, list) else text
            assert not EXPONENT.search(text), f"{path.name} cell {i}: {EXPONENT.search(text)[0]!r}"
        for text in texts[:3] + [out.get("data", {}).get("text/markdown", "")]:
            assert "<span" not in text, f"{path.name} cell {i} prints raw HTML"
        markdown = out.get("data", {}).get("text/markdown", "")
        assert "nan" not in markdown.lower().split(), f"{path.name} cell {i}: {markdown!r}"


def stored_outputs_are_a_fresh_run(run):
    """The sentences stored in the notebooks (what the docs render) are this code's."""
    path, nb, _, _ = run
    stored = nbformat.read(path, as_version=4)
    said = [[o["data"]["text/markdown"] for _, o in outputs(n) if "text/markdown" in o.get("data", {})]
            for n in (stored, nb)]
    assert said[0] == said[1], (f"{path.name}'s stored outputs are stale: re-execute it "
                                "(PYTHONPATH=. jupyter nbconvert --to notebook --execute --inplace)")


def raw_labels(texts) -> list[str]:
    """The texts among ``texts`` that hold a raw rule ID or a variant string."""
    return [t for t in texts if RULE_ID.search(t) or VARIANT_STRING.search(t)]


def charts_and_tables_use_readable_labels(run):
    """Chart titles, axes, ticks and legends, and table headers, index and captions, name
    rules in words (``cpstats.short_label``, ``RULES[id].short``), never by a raw ID or a variant string."""
    path, nb, _, _ = run
    charts = _CHART_TEXTS[path.name]
    assert charts, f"{path.name}: no chart text was recorded"
    assert not raw_labels(charts), f"{path.name}: raw labels on a chart: {raw_labels(charts)[:5]}"
    for i, out in outputs(nb):
        html = out.get("data", {}).get("text/html", "")
        headers = [re.sub(r"<[^>]+>", "", m[1]).strip() for m in HEADER.findall("".join(html))]
        assert not raw_labels(headers), f"{path.name} cell {i}: raw table labels {raw_labels(headers)[:5]}"


#: The checks every notebook passes, in the order they are reported.
CHECKS = (every_cited_number_comes_from_the_run, every_interval_supports_its_sentence,
          static_text_states_no_measured_number, outputs_read_as_numbers_for_people,
          stored_outputs_are_a_fresh_run, charts_and_tables_use_readable_labels)
