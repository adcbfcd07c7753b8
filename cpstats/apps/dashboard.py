"""``cpstats dashboard``: the rule designer served as a web page by Voila on localhost.

Voila runs the dashboard notebook shipped with the package, ``cpstats/data/dashboard.ipynb``
(the :class:`~cpstats.apps.widgets.VariantComparer` and the :class:`~cpstats.apps.widgets.RakeExplorer` in
tabs), and shows its widgets without the code; a wheel install serves it as well as a checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from cpstats._resources import DASHBOARD_NOTEBOOK

__all__ = ["DASHBOARD_NOTEBOOK", "voila_command", "serve", "start", "wait_until_up"]


def voila_command(port: int = 8866, *, notebook: str | os.PathLike = DASHBOARD_NOTEBOOK,
                  open_browser: bool = False) -> list[str]:
    """The command line that serves ``notebook`` with Voila on ``127.0.0.1:port``."""
    from cpstats.errors import CpstatsError

    path = Path(notebook)
    if not path.exists():
        raise CpstatsError(f"notebook={str(path)!r} is invalid: no such file")
    try:
        import voila  # noqa: F401
    except ImportError:
        raise CpstatsError("the dashboard needs voila: pip install voila") from None
    return [sys.executable, "-m", "voila", str(path), f"--port={int(port)}",
            "--Voila.ip=127.0.0.1", "--show_tracebacks=True",
            *([] if open_browser else ["--no-browser"])]


def start(port: int = 8866, *, notebook: str | os.PathLike = DASHBOARD_NOTEBOOK,
          open_browser: bool = False, log: str | os.PathLike | None = None) -> subprocess.Popen:
    """Start Voila in the background and return its process (stop it with ``.terminate()``)."""
    out = open(log, "wb") if log else subprocess.DEVNULL
    return subprocess.Popen(voila_command(port, notebook=notebook, open_browser=open_browser),
                            stdout=out, stderr=subprocess.STDOUT, cwd=Path(notebook).parent)


def wait_until_up(port: int, timeout: float = 60.0) -> bool:
    """True once ``http://127.0.0.1:port/`` answers, False after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5):
                return True
        except OSError:
            time.sleep(0.3)
    return False


def serve(port: int = 8866, open_browser: bool = False,
          notebook: str | os.PathLike = DASHBOARD_NOTEBOOK) -> int:
    """Serve the rule designer on ``http://127.0.0.1:port/`` until interrupted (Ctrl-C).

    Returns Voila's exit code (0 after Ctrl-C).
    """
    proc = start(port, notebook=notebook, open_browser=open_browser)
    print(f"cpstats dashboard: http://127.0.0.1:{port}/  (Ctrl-C stops it)", flush=True)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        return 0
