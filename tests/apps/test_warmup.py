"""Whether numba still has to compile the package's kernels, and why (cpstats.apps._warmup): an index
file current by numba's own key (its numba version, the source's stamp, the Python in its name), in
the source's __pycache__ or numba's folder for it under NUMBA_CACHE_DIR; the modules the CLI asks
about exist; and the test suite's own warm-up (tests/helpers/warmup.py) names kernel modules only."""

import hashlib
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from cpstats.apps import _warmup


def test_compile_message_text():
    assert _warmup.COMPILE_MESSAGE == "compiling kernels, once until numba or cpstats' kernels change (a few minutes)"


def _package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "plain.py").write_text("x = 1  # njit(cache=True) in a comment is not a kernel\n")
    (package / "sub" / "kern.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef f():\n"
                                             "    return 1\n")
    return package


def _index(folder: Path, source: Path, *, version: str = numba.__version__, python: str = _warmup._PYTHON,
           stamp: object = None) -> Path:
    """An index file as numba writes it: its version, then (the source's SHA-256, overloads)."""
    folder.mkdir(parents=True, exist_ok=True)
    index = folder / f"{source.stem}.f-4.{python}.nbi"
    stamp = hashlib.sha256(source.read_bytes()).digest() if stamp is None else stamp
    index.write_bytes(pickle.dumps(version, protocol=-1) + pickle.dumps((stamp, {}), protocol=-1))
    return index


def test_needs_compiling_until_every_kernel_module_has_a_cache(tmp_path, monkeypatch):
    """True while a kernel module has no current numba index file (``*.nbi``) in its __pycache__."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    source = package / "sub" / "kern.py"
    assert _warmup.compile_reason("kern", package=package) == "their first run here"
    assert not _warmup.needs_compiling("plain", "other", package=package)  # not kernel modules
    _index(package / "sub" / "__pycache__", source)
    assert not _warmup.needs_compiling("kern", package=package)
    assert _warmup.compile_notice("kern", package=package) is None
    source.write_text(source.read_text() + "# an edit\n")  # the source changed after compiling
    assert _warmup.compile_reason("kern", package=package) == "kern.py changed since the last compile"


def test_a_touched_but_unchanged_source_needs_no_compiling(tmp_path, monkeypatch):
    """numba 0.68 stamps a source by its bytes: a reinstall or checkout that only moves the
    modification time keeps the cache. The check before compared times and announced a compile."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    source = package / "sub" / "kern.py"
    index = _index(package / "sub" / "__pycache__", source)
    os.utime(source, (index.stat().st_mtime + 100,) * 2)
    assert not _warmup.needs_compiling("kern", package=package)


def test_a_numba_upgrade_is_named(tmp_path, monkeypatch):
    """numba discards an index another version wrote, so every kernel compiles again: the notice
    says which change caused it (issue 50: a compile after an install that did not touch cpstats).
    The check before missed it (the index newer than its source)."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    _index(package / "sub" / "__pycache__", package / "sub" / "kern.py", version="0.61.2")
    assert _warmup.needs_compiling("kern", package=package)
    assert _warmup.compile_notice("kern", package=package) == (
        f"compiling kernels: numba 0.61.2 changed to {numba.__version__} since the last compile "
        "(a few minutes, once)")


def test_other_pythons_and_older_stamps(tmp_path, monkeypatch):
    """An index for another Python does not count; before numba 0.68 the stamp was the source's
    (mtime, size), compared exactly; an unreadable index is a reason to compile, not an error."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    source, cache = package / "sub" / "kern.py", package / "sub" / "__pycache__"
    _index(cache, source, python="py27")
    assert _warmup.compile_reason("kern", package=package).startswith(f"Python {sys.version_info[0]}.")
    st = source.stat()
    old = _index(cache, source, stamp=(st.st_mtime, st.st_size))
    assert not _warmup.needs_compiling("kern", package=package)
    os.utime(source, (st.st_mtime + 5,) * 2)
    assert _warmup.compile_reason("kern", package=package) == "kern.py changed since the last compile"
    old.write_bytes(b"not a pickle")
    assert _warmup.compile_reason("kern", package=package) == "their cache is unreadable"


def test_needs_compiling_reads_numba_cache_dir(tmp_path, monkeypatch):
    """With NUMBA_CACHE_DIR set, numba writes its index files there, in a folder named after the
    source's folder and the SHA-1 of its path."""
    package = _package(tmp_path)
    cache_dir = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache_dir))
    assert _warmup.needs_compiling("kern", package=package)
    folder = str(package / "sub")
    _index(cache_dir / f"sub_{hashlib.sha1(folder.encode()).hexdigest()}", package / "sub" / "kern.py")
    assert not _warmup.needs_compiling("kern", package=package)


@pytest.mark.parametrize("touch", [False, True])
def test_the_index_numba_writes_reads_as_current(tmp_path, monkeypatch, touch):
    """A kernel compiled by the installed numba in a fresh interpreter: its real index file reads
    as current, also after the source is touched (and numba then loads it from the cache)."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    source = package / "sub" / "kern.py"
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(source.parent)!r})
        import kern
        kern.f()
        print(kern.f.stats.cache_hits and 1 or 0)
    """)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

    def run() -> str:
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env=env).stdout.strip()

    assert _warmup.needs_compiling("kern", package=package)
    assert run() == "0"
    assert _warmup.compile_reason("kern", package=package) is None
    if touch:
        os.utime(source, (source.stat().st_mtime + 100,) * 2)
        assert _warmup.compile_reason("kern", package=package) is None
        assert run() == "1"  # numba agrees: loaded, not compiled


def test_a_package_without_kernels_needs_no_compiling(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    (package / "sub" / "kern.py").unlink()
    assert not _warmup.needs_compiling("kern", package=package)


def test_the_named_kernel_modules_exist():
    """Every module the CLI asks about is a kernel module of cpstats, so moving one
    cannot silence the notice unnoticed; the 13-card game names its own (its command line's
    ``kernels``), a deuce-to-seven middle adding ev's low-middle search."""
    from cpstats.engine.registry import get_preset
    from cpstats.thirteen.cli.options import SIMULATION_KERNELS, kernels, simulation_kernels

    stems = {p.stem for p in _warmup._kernel_sources(_warmup._PACKAGE)}
    assert {*simulation_kernels("greedy", "ev"), "review"} <= stems
    assert simulation_kernels("ev", "ev", print) == (*SIMULATION_KERNELS, "_ev_kernel")
    assert simulation_kernels("ev", low_middle=True)[-1] == "_ev_low_kernel" in stems
    assert "_ev_low_kernel" not in simulation_kernels("greedy", low_middle=True)
    assert kernels(get_preset("2-4"), "ev") == (*SIMULATION_KERNELS, "_ev_kernel")
    assert kernels(None, "ev") == (*SIMULATION_KERNELS, "_ev_kernel")
    assert kernels(get_preset("2-4").replace(ranking="H5"), "ev")[-1] == "_ev_low_kernel"
    assert _warmup.default_kernels() == SIMULATION_KERNELS  # open face names none


def test_needs_compiling_defaults_to_the_simulation_kernels(tmp_path, monkeypatch):
    """With no module named, a fresh cache of the kernels every game's runs compile is enough."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = tmp_path / "pkg"
    package.mkdir()
    for stem in (*_warmup.default_kernels(), "_greedy_kernel"):
        (package / f"{stem}.py").write_text("@njit(cache=True)\ndef f():\n    pass\n")
    assert _warmup.needs_compiling(package=package)
    for stem in _warmup.default_kernels():
        _index(package / "__pycache__", package / f"{stem}.py")
    assert not _warmup.needs_compiling(package=package)
    assert _warmup.needs_compiling("_greedy_kernel", package=package)


def test_the_suites_warm_up_compiles_every_kernel_module_but_the_low_middle_search():
    """The warm-up the root conftest runs before the test workers start names kernel modules of
    cpstats only, and all of them but ev's low-middle search (H5, which needs tables trained for it:
    its tests compile it where they first call it)."""
    from helpers.warmup import KERNELS

    stems = {p.stem for p in _warmup._kernel_sources(_warmup._PACKAGE)}
    warmed = {m for modules in KERNELS.values() for m in modules}
    assert warmed <= stems, warmed - stems
    assert stems - warmed == {"_ev_low_kernel"}
