"""Whether numba still has to compile the package's kernels, so a first
run can say why it pauses.

The kernels are ``@njit(cache=True)``: the first call after install compiles them (about a
minute on a small machine) and writes numba's cache, an ``*.nbi`` index file per compiled
function, into a ``__pycache__`` folder beside the source or under ``NUMBA_CACHE_DIR``. The CLI
and the widgets print :data:`COMPILE_MESSAGE` once before running kernels when
:func:`needs_compiling` is true, so a silent pause is not mistaken for a hang.

The check is per kernel module and reads the file system only (numba is not imported): a module
needs compiling when no index file of its functions exists that is at least as new as its
source (numba discards an index written for an older source).

Decision: only the modules the coming work compiles are checked, not every kernel module:
numba compiles a kernel on its first call, and (measured) an ``ev`` simulation compiles no
``greedy`` kernel and ``review`` no settlement kernel, so checking them all would repeat the
notice forever for a user who never runs one of them. With no module named, the check is on the
kernels every simulation compiles (:data:`SIMULATION_KERNELS`); :func:`simulation_kernels`
adds those of a setting strategy.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["COMPILE_MESSAGE", "SIMULATION_KERNELS", "needs_compiling", "simulation_kernels"]

COMPILE_MESSAGE = "compiling kernels, once after install (a few minutes)"

#: Kernel modules every simulation compiles: dealing, ranking, naturals, settlement.
SIMULATION_KERNELS = ("_bits", "_deal_kernel", "_rank_kernel", "_natural_kernel", "_settle_kernel")
_SETTER_KERNELS = {"greedy": ("_greedy_kernel",), "random": ("_greedy_kernel",), "ev": ("_ev_kernel",)}

_PACKAGE = Path(__file__).resolve().parent.parent  # the cpstats package folder
_CACHED_KERNEL = re.compile(r"^\s*@njit\([^)]*\bcache\s*=", re.MULTILINE)


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


def _index_files(package: Path) -> list[Path]:
    """Every ``*.nbi`` file in a ``__pycache__`` below ``package`` and below ``NUMBA_CACHE_DIR``."""
    found = [f for folder in package.rglob("__pycache__") for f in folder.glob("*.nbi")]
    cache_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    if cache_dir and Path(cache_dir).is_dir():
        found.extend(Path(cache_dir).rglob("*.nbi"))
    return found


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


def simulation_kernels(*strategies: object, low_middle: bool = False) -> tuple[str, ...]:
    """Kernel modules a simulation with these setting strategies compiles (a callable or an
    unknown name adds none); ``low_middle`` (an H5 variant) adds ev's low-middle search."""
    extra = [m for s in strategies if isinstance(s, str) for m in _SETTER_KERNELS.get(s, ())]
    if low_middle and "ev" in strategies:
        extra.append("_ev_low_kernel")
    return SIMULATION_KERNELS + tuple(dict.fromkeys(extra))


def needs_compiling(*modules: str, package: Path | None = None) -> bool:
    """True when one of the kernel ``modules`` (file stems, default :data:`SIMULATION_KERNELS`)
    of ``package`` (default: cpstats) has no up-to-date numba cache.

    An index file ``<module>.<function>-<line>.py<version>.nbi`` counts for the module when it is
    at least as new as the module's source; a name that is not a kernel module of the package is
    ignored. Never raises: an unreadable folder reads as missing.
    """
    package = _PACKAGE if package is None else Path(package)
    wanted = set(modules or SIMULATION_KERNELS)
    sources = [src for src in _kernel_sources(package) if src.stem in wanted]
    if not sources:
        return False
    newest: dict[str, float] = {}
    for index in _index_files(package):
        module = index.name.split(".", 1)[0]
        newest[module] = max(newest.get(module, -1.0), _mtime(index))
    return any(newest.get(src.stem, -1.0) < _mtime(src) for src in sources)
