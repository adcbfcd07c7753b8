"""Atomic file writes: a file a reader finds is whole, and a failed write leaves nothing behind.

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

__all__ = ["atomic_path"]


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
