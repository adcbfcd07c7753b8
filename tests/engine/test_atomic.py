"""A write that fails (a full disk) leaves no temporary file behind: a run's blocks and rows,
its run.json, a saved result. Each test makes the writer fail half-way with ENOSPC."""

from __future__ import annotations

import errno

import numpy as np
import pandas as pd
import pytest

import cpstats.apps.cli
from cpstats._atomic import atomic_path
from cpstats.apps.cli import main
from cpstats.ofc import simulation as ofc_sim
from cpstats.engine import files
from cpstats.workbench import simulate


def _full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def _partial_parquet(self, path, **kwargs):
    with open(path, "wb") as fh:  # what a real writer leaves when the disk fills mid-file
        fh.write(b"PAR1" * 1000)
    _full()


def _left(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_atomic_path_removes_its_temporary_on_any_failure(tmp_path):
    target = tmp_path / "a.npz"
    with pytest.raises(KeyboardInterrupt), atomic_path(target) as tmp:
        tmp.write_bytes(b"half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with atomic_path(target) as tmp:
        np.savez(tmp, x=np.arange(3))  # the suffix is kept: savez adds none
    assert [p.name for p in tmp_path.iterdir()] == ["a.npz"]


def test_a_full_disk_while_writing_rows_leaves_no_temporary(tmp_path, monkeypatch):
    monkeypatch.setattr(pd.DataFrame, "to_parquet", _partial_parquet)
    with pytest.raises(OSError, match="No space left"):
        simulate("2-4", 200, setter="greedy", rng=1, out=tmp_path / "run", keep_hands=True,
                 block_deals=100)
    assert _left(tmp_path / "run") == []
    assert not list((tmp_path / "run").glob("hands-*"))


def test_a_full_disk_while_writing_a_block_leaves_no_temporary(tmp_path, monkeypatch):
    def half(fh, **arrays):
        fh.write(b"PK" * 1000)
        _full()

    monkeypatch.setattr(files.np, "savez", half)
    with pytest.raises(OSError, match="No space left"):
        simulate("2-4", 200, setter="greedy", rng=1, out=tmp_path / "run", block_deals=100)
    assert _left(tmp_path / "run") == [] and not list((tmp_path / "run").glob("block-*"))


def test_open_face_rows_on_a_full_disk_leave_no_temporary(tmp_path, monkeypatch):
    monkeypatch.setattr(pd.DataFrame, "to_parquet", _partial_parquet)
    with pytest.raises(OSError, match="No space left"):
        ofc_sim.simulate("ofc-pineapple", 20, setter="greedy", rng=1, out=tmp_path / "run",
                         block_deals=10, keep_hands=True)
    assert _left(tmp_path / "run") == []


def test_a_saved_result_on_a_full_disk_leaves_no_file(tmp_path, monkeypatch):
    result = simulate("2-4", 100, setter="greedy", rng=1)
    monkeypatch.setattr(files.np, "savez_compressed", lambda fh, **a: (fh.write(b"PK"), _full()))
    with pytest.raises(OSError, match="No space left"):
        files.save_result(result, tmp_path / "r")
    assert list(tmp_path.iterdir()) == []


def test_the_cli_says_the_disk_is_full_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cpstats.apps.cli.commands, "compile_notice", lambda *modules: None)
    monkeypatch.setattr(pd.DataFrame, "to_parquet", _partial_parquet)
    out = tmp_path / "run"
    assert main(["simulate", "--preset", "2-4", "--deals", "200", "--setter", "greedy",
                 "--quiet", "--out", str(out), "--keep-hands"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cpstats simulate: error: ") and err.count("\n") == 1, err
    assert "No space left on device" in err and _left(out) == []
