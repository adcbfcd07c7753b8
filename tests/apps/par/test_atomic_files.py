"""A PAR sheet's files are written whole or not at all: a write that fails part-way (a full disk)
leaves no partial ``par.html`` or ``par.pdf`` and no temporary file, an older sheet stays as it
was, and ``cpstats par`` says so in one line."""

from __future__ import annotations

import errno
import pathlib

import pytest

from cpstats.apps.cli import main
from cpstats.apps.par import par_sheet
from cpstats.apps.par import render
from cpstats.workbench import simulate


def _full_disk_after_half(monkeypatch) -> None:
    """Every HTML file written from now on gets half its text, then the disk is full."""
    write = pathlib.Path.write_text

    def half(self, text, *args, **kwargs):
        if self.suffix != ".html":
            return write(self, text, *args, **kwargs)
        write(self, text[: len(text) // 2], *args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "write_text", half)


@pytest.fixture(scope="module")
def sheet():
    return par_sheet("2-4", result=simulate("2-4", 1000, setter="greedy", rng=4), rng=4, sensitivity=False)


def test_a_failed_html_write_leaves_no_partial_file_and_keeps_the_old_one(sheet, tmp_path, monkeypatch):
    old = tmp_path / "par.html"
    old.write_text("the last sheet, whole")
    _full_disk_after_half(monkeypatch)
    with pytest.raises(OSError, match="No space left on device"):
        sheet.to_html(old)
    assert old.read_text() == "the last sheet, whole"
    assert [p.name for p in tmp_path.iterdir()] == ["par.html"]
    with pytest.raises(OSError):
        sheet.to_html(tmp_path / "new" / "par.html")
    assert list((tmp_path / "new").iterdir()) == []


def test_a_failed_pdf_write_leaves_no_partial_file(sheet, tmp_path, monkeypatch):
    """The disk fills after the first page: no par.pdf, no temporary file beside it."""
    close = render._Pdf.close_page
    pages = []

    def second_page_fails(self):
        if self.fig is not None:
            pages.append(self.page)
            if len(pages) == 2:
                raise OSError(errno.ENOSPC, "No space left on device")
        close(self)

    monkeypatch.setattr(render._Pdf, "close_page", second_page_fails)
    with pytest.raises(OSError, match="No space left on device"):
        sheet.to_pdf(tmp_path / "par.pdf")
    assert list(tmp_path.iterdir()) == []


def test_cpstats_par_onto_a_full_disk_is_one_line_and_leaves_no_file(tmp_path, monkeypatch, capsys):
    _full_disk_after_half(monkeypatch)
    out = tmp_path / "par"
    assert main(["par", "2-4", "--deals", "1,000", "--setter", "greedy", "--no-sensitivity", "--quiet",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cpstats par: error: ") and "No space left on device" in err
    assert list(out.iterdir()) == []
