"""Whether numba still has to compile the package's kernels (cpstats.apps._warmup): index files at
least as new as their source, in a __pycache__ or under NUMBA_CACHE_DIR; the modules the CLI asks
about exist; and the test suite's own warm-up (tests/helpers/warmup.py) names kernel modules only."""

import os
from pathlib import Path

from cpstats.apps import _warmup


def test_compile_message_text():
    assert _warmup.COMPILE_MESSAGE == "compiling kernels, once after install (a few minutes)"


def _package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "plain.py").write_text("x = 1  # njit(cache=True) in a comment is not a kernel\n")
    (package / "sub" / "kern.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef f():\n"
                                             "    return 1\n")
    return package


def test_needs_compiling_until_every_kernel_module_has_a_cache(tmp_path, monkeypatch):
    """True while a kernel module has no numba index file (``*.nbi``) at least as
    new as its source, in a __pycache__ below the package or under NUMBA_CACHE_DIR."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    assert _warmup.needs_compiling("kern", package=package)
    assert not _warmup.needs_compiling("plain", "other", package=package)  # not kernel modules
    cache = package / "sub" / "__pycache__"
    cache.mkdir()
    index = cache / "kern.f-4.py311.nbi"
    index.write_bytes(b"")
    assert not _warmup.needs_compiling("kern", package=package)
    source = package / "sub" / "kern.py"
    os.utime(source, (index.stat().st_mtime + 10,) * 2)  # the source changed after compiling
    assert _warmup.needs_compiling("kern", package=package)


def test_needs_compiling_reads_numba_cache_dir(tmp_path, monkeypatch):
    """With NUMBA_CACHE_DIR set, numba writes its index files there (in folders
    named after the source's path)."""
    package = _package(tmp_path)
    cache_dir = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache_dir))
    assert _warmup.needs_compiling("kern", package=package)
    nested = cache_dir / str(package / "sub").lstrip(os.sep)
    nested.mkdir(parents=True)
    (nested / "kern.f-4.py311.nbi").write_bytes(b"")
    assert not _warmup.needs_compiling("kern", package=package)


def test_a_package_without_kernels_needs_no_compiling(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    package = _package(tmp_path)
    (package / "sub" / "kern.py").unlink()
    assert not _warmup.needs_compiling("kern", package=package)


def test_the_named_kernel_modules_exist():
    """Every module the CLI asks about is a kernel module of cpstats, so moving one
    cannot silence the notice unnoticed."""
    stems = {p.stem for p in _warmup._kernel_sources(_warmup._PACKAGE)}
    assert {*_warmup.simulation_kernels("greedy", "ev"), "review"} <= stems
    assert _warmup.simulation_kernels("ev", "ev", print) == (*_warmup.SIMULATION_KERNELS, "_ev_kernel")
    assert _warmup.simulation_kernels("ev", low_middle=True)[-1] == "_ev_low_kernel" in stems
    assert "_ev_low_kernel" not in _warmup.simulation_kernels("greedy", low_middle=True)


def test_needs_compiling_defaults_to_the_simulation_kernels(tmp_path, monkeypatch):
    """With no module named, a fresh cache of the simulation kernels is enough."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    package = tmp_path / "pkg"
    package.mkdir()
    for stem in (*_warmup.SIMULATION_KERNELS, "_greedy_kernel"):
        (package / f"{stem}.py").write_text("@njit(cache=True)\ndef f():\n    pass\n")
    assert _warmup.needs_compiling(package=package)
    for stem in _warmup.SIMULATION_KERNELS:
        (tmp_path / f"{stem}.f-1.py311.nbi").write_bytes(b"")
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
