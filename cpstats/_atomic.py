"""Atomic file writes: a file a reader finds is whole, and a failed write leaves nothing behind;
and the checks, before any work, that a folder or file can be written (one OptionError line
instead of the operating system's error after a long run).

Decision: the temporary file sits beside its target (the same folder, so the rename is atomic
on one file system), keeps the target's suffix (``np.savez`` appends ``.npz`` to a name without
it) and starts with a dot (the readers glob ``block-*``, ``hands-*``, ``*.npz`` and never see it);
its name carries the process and thread, so two writers of one target never share it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cpstats.errors import OptionError

__all__ = ["atomic_path", "writable_folder", "writable_file"]


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path for the caller to write ``path`` to: renamed onto ``path`` when the
    ``with`` block ends, removed when the block or the rename fails in any way (a full disk, an
    interrupt), the error then raised as it was.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with atomic_path(folder / "a.txt") as tmp:
    ...     _ = tmp.write_text("whole")
    >>> sorted(p.name for p in folder.iterdir())
    ['a.txt']
    """
    path = Path(path)
    tmp = path.with_name(f".{path.stem}-{os.getpid()}-{threading.get_ident()}{path.suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:  # the folder itself went away or refuses: nothing more can be done
            pass
        raise


def writable_folder(name: str, path: object) -> Path:
    """``path`` as a folder that exists (created with its parents if missing) and can be written;
    else one :class:`~cpstats.errors.OptionError` line naming the option ``name``."""
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise OptionError(f"{name}={path!r} is invalid: a folder path (str or pathlib.Path)")
    problem = _folder_problem(Path(path))
    if problem:
        raise OptionError(f"{name}={str(path)!r} is invalid: {problem}")
    return Path(path)


def writable_file(name: str, path: object) -> Path:
    """``path`` as a file that can be written (its folder created if missing), never a folder;
    else one OptionError line naming ``name``."""
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise OptionError(f"{name}={path!r} is invalid: a file path (str or pathlib.Path)")
    file = Path(path)
    problem = ("it is a folder; name a file in it" if file.is_dir()
               else _folder_problem(file.parent, "its folder")
               or ("the file is not writable" if file.exists() and not os.access(file, os.W_OK)
                   else None))
    if problem:
        raise OptionError(f"{name}={str(path)!r} is invalid: {problem}")
    return file


def _folder_problem(folder: Path, what: str = "the folder") -> str | None:
    """Why ``folder`` cannot be written to (creating it if missing), or None."""
    if folder.exists() and not folder.is_dir():
        return f"{what} {str(folder)!r} is a file" if what != "the folder" else "it is a file, not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return f"{what} cannot be created ({err.strerror or err})"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{what} is not writable"
    return None
