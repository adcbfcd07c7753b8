"""``cpstats dashboard``: the rule designer served as a web page by Voila on localhost.

Voila runs the dashboard notebook shipped with the package, ``cpstats/data/dashboard.ipynb``
(the :class:`~cpstats.apps.widgets.VariantComparer` and the :class:`~cpstats.apps.widgets.RakeExplorer` in
tabs, built by :func:`build_dashboard`), and shows its widgets without the code; a wheel install
serves it as well as a checkout.

- Decision: the tab titles are the apps' names in full ("House edge and rake"), and a page style
  (:func:`cpstats.apps.widgets._common.page_style`) lets each tab be as wide as its title: the
  widgets' tab bar otherwise cuts every title at a fixed width.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from cpstats._resources import DASHBOARD_NOTEBOOK

__all__ = ["DASHBOARD_NOTEBOOK", "TAB_TITLES", "build_dashboard", "voila_command", "serve",
           "start", "wait_until_up"]

#: The dashboard's tabs, in order.
TAB_TITLES = ("Compare variants", "House edge and rake", "Rule sweep", "Open face")


def build_dashboard(deals: int = 20_000, *, cache=None):
    """The dashboard's widget: the comparer, the rake explorer, a rule sweep and the open-face
    app in tabs (the first two sharing one cache),
    with the page style that shows the tab titles whole. Returns an ipywidgets ``VBox``."""
    import ipywidgets as W

    from cpstats.apps.widgets import OpenFaceApp, RakeExplorer, ResultCache, SweepView, VariantComparer
    from cpstats.apps.widgets._common import page_style

    cache = cache or ResultCache()
    comparer = VariantComparer(("2-4", "1-6"), deals=deals, cache=cache)
    rake = RakeExplorer("pagat-casino", deals=deals, cache=cache)
    sweep = SweepView(deals=deals)
    tabs = W.Tab(children=[comparer.widget, rake.widget, sweep.widget, OpenFaceApp().widget],
                 titles=TAB_TITLES)
    return W.VBox([page_style(), tabs])


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
            "--Voila.ip=127.0.0.1", "--show_tracebacks=False",
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

    Returns Voila's exit code (0 after Ctrl-C or SIGTERM, either of which stops Voila, and Voila
    its kernels, before returning: nothing is left running).
    """
    proc = start(port, notebook=notebook, open_browser=open_browser)
    print(f"cpstats dashboard: http://127.0.0.1:{port}/  (Ctrl-C stops it)", flush=True)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # kill stops Voila and its kernels too
    try:
        return proc.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
