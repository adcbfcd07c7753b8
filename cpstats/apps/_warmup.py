"""Whether numba still has to compile the package's kernels, and why, so a first run can say
why it pauses.

The kernels are ``@njit(cache=True)``: numba compiles a kernel on its first call and writes an
index file, ``<module>.<function>-<line>.py<XY>.nbi``, into the ``__pycache__`` beside the source
(or, where that is not writable, numba's user-wide cache folder; under ``NUMBA_CACHE_DIR`` when
it is set, in a sub-folder named after the source's folder). The CLI and the widgets print a
notice (:func:`compile_notice`, or :data:`COMPILE_MESSAGE`) before running kernels when
:func:`needs_compiling` is true, so a silent pause is not mistaken for a hang.

The check reads what numba itself keys its cache on, without importing numba: an index file
holds the numba version that wrote it and the source's stamp (numba 0.68 and later: the SHA-256
of the source's bytes; earlier: its modification time and size); its name holds the Python
version. numba discards an index whose version or stamp differs, and so does this check, naming
the reason: a numba upgrade (a dependency changed: the compile is legitimate), a changed kernel
source, a Python with no compile yet, or a kernel never run here. Decision: a file touched but
unchanged (a reinstall, a checkout) is no reason under numba 0.68's content stamp; the former
check compared modification times and announced a compile numba did not do, and
missed a numba upgrade that recompiled everything. Measured: ``pip install -e ".[notebooks]"``
changes no file of cpstats and no index (its first ``review`` compiled because ``review``'s own
kernel had never run, or its dependencies moved numba).

Decision: only the modules the coming work compiles are checked, not every kernel module:
numba compiles a kernel on its first call, and (measured) an ``ev`` simulation compiles no
``greedy`` kernel and ``review`` no settlement kernel, so checking them all would repeat the
notice forever for a user who never runs one of them. With no module named, the check is on the
kernels every run of a registered game compiles whatever its setter (:func:`default_kernels`: each
game names its own, :attr:`cpstats.engine.views.CommandLine.kernels`).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
import pickletools
import re
import sys
from pathlib import Path

__all__ = ["COMPILE_MESSAGE", "compile_notice", "compile_reason", "needs_compiling", "default_kernels"]

COMPILE_MESSAGE = "compiling kernels, once until numba or cpstats' kernels change (a few minutes)"


_PACKAGE = Path(__file__).resolve().parent.parent  # the cpstats package folder
_CACHED_KERNEL = re.compile(r"^\s*@njit\([^)]*\bcache\s*=", re.MULTILINE)
_PYTHON = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"


def _kernel_sources(package: Path) -> list[Path]:
    """Source files below ``package`` that declare at least one cached numba kernel."""
    sources = []
    for path in sorted(package.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if _CACHED_KERNEL.search(text):
            sources.append(path)
    return sources


def _cache_folders(source: Path) -> list[Path]:
    """Where numba may keep ``source``'s index files: its ``__pycache__``, and numba's
    sub-folder for the source's folder under ``NUMBA_CACHE_DIR`` and the user-wide cache."""
    folder = os.path.dirname(os.path.abspath(source))
    subpath = f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    roots = [os.environ.get("NUMBA_CACHE_DIR", ""),
             os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "numba")]
    return [source.parent / "__pycache__", *(Path(root) / subpath for root in roots if root)]


def _numba_version() -> str | None:
    """The numba that would compile: the one imported, else the one installed."""
    if "numba" in sys.modules:
        return getattr(sys.modules["numba"], "__version__", None)
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return None


def _read_index(index: Path) -> tuple[str, object]:
    """The numba version and the source stamp an index file holds, read without unpickling
    numba's types: the version is the file's first pickle, the stamp the first value of the
    second (bytes, or an ``(mtime, size)`` tuple before numba 0.68)."""
    with index.open("rb") as f:
        version = pickle.load(f)
        data = f.read()
    values: list[object] = []
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("SHORT_BINBYTES", "BINBYTES", "BINBYTES8"):
            return str(version), arg
        if op.name == "BINFLOAT" or op.name.startswith("BININT") or op.name in ("LONG1", "INT", "FLOAT"):
            values.append(arg)
        if op.name == "TUPLE2" and len(values) == 2:
            return str(version), tuple(values)
        if op.name in ("EMPTY_DICT", "DICT"):
            break
    raise ValueError(f"no source stamp in {index}")


def _stamp_matches(stamp: object, source: Path) -> bool:
    if isinstance(stamp, bytes):
        return stamp == hashlib.sha256(source.read_bytes()).digest()
    st = source.stat()
    return stamp == (st.st_mtime, st.st_size)


def _module_reason(source: Path, numba_version: str | None) -> str | None:
    """Why ``source``'s kernels must compile (None: one of its index files is current). A
    module counts as compiled when any of its functions has a current index: a command may
    compile only some of a module's kernels."""
    indexes = [f for folder in _cache_folders(source) if folder.is_dir()
               for f in folder.glob(f"{source.stem}.*.nbi")]
    ours = [f for f in indexes if f.name.endswith(f".{_PYTHON}.nbi")]
    if not ours:
        if indexes:
            return f"Python {sys.version_info[0]}.{sys.version_info[1]} has no compile of them yet"
        return "their first run here"
    reasons = []
    for index in ours:
        try:
            version, stamp = _read_index(index)
            if version != numba_version:
                reasons.append(f"numba {version} changed to {numba_version} since the last compile")
            elif not _stamp_matches(stamp, source):
                reasons.append(f"{source.name} changed since the last compile")
            else:
                return None
        except (OSError, ValueError, EOFError, pickle.UnpicklingError):
            reasons.append("their cache is unreadable")
    return reasons[0]


def default_kernels() -> tuple[str, ...]:
    """The kernel modules every run of a registered game compiles, whatever its rules and setter
    (each game's ``kernels(None)``; a game that names none adds none)."""
    from cpstats.engine.registry import games

    found: list[str] = []
    for game in games().values():
        kernels = None if game.runs is None else game.runs.views.command_line.kernels
        found += [] if kernels is None else list(kernels(None))
    return tuple(dict.fromkeys(found))


def compile_reason(*modules: str, package: Path | None = None) -> str | None:
    """Why numba has to compile one of the kernel ``modules`` (file stems, default
    :func:`default_kernels`) of ``package`` (default: cpstats), or None when each has a
    current cache. A numba upgrade is named first (it recompiles every kernel). A name that is
    not a kernel module of the package is ignored. Never raises: an unreadable folder or index
    reads as a reason to compile."""
    package = _PACKAGE if package is None else Path(package)
    wanted = set(modules or default_kernels())
    numba_version = _numba_version()
    reasons = [r for src in _kernel_sources(package) if src.stem in wanted
               if (r := _module_reason(src, numba_version)) is not None]
    return next((r for r in reasons if r.startswith("numba ")), reasons[0] if reasons else None)


def compile_notice(*modules: str, package: Path | None = None) -> str | None:
    """The line to print before the kernel ``modules`` run, with the reason they compile
    (``compiling kernels: numba 0.67.0 changed to 0.68.1 since the last compile (a few
    minutes, once)``), or None when nothing compiles."""
    reason = compile_reason(*modules, package=package)
    return None if reason is None else f"compiling kernels: {reason} (a few minutes, once)"


def needs_compiling(*modules: str, package: Path | None = None) -> bool:
    """True when one of the kernel ``modules`` has no current numba cache
    (:func:`compile_reason` gives why)."""
    return compile_reason(*modules, package=package) is not None
