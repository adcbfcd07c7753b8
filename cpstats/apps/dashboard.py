"""``cpstats dashboard``: the rule designer served as a web page by Voila on localhost.

Voila runs the dashboard notebook shipped with the package, ``cpstats/data/dashboard.ipynb``
(the apps in tabs, built by :func:`build_dashboard`), and shows its widgets without the code; a
wheel install serves it as well as a checkout.

- Decision: the tabs come from the registry: the comparer first, then each game's own tab in the
  order the games registered (:attr:`cpstats.engine.views.GameViews.dashboard_tab`: its title, the
  app that shows it, what each app opens on), then the apps every game shares (a rule sweep, solve
  for a target, the PAR sheet). A game's tab is drawn by one of the dashboard's apps
  (:data:`APPS`), named by what it shows, never by the game.
- Decision: Voila dies with the process that started it, however that ends (even SIGKILL):
  on Linux it is started with a parent-death signal (``prctl(PR_SET_PDEATHSIG, SIGTERM)``, set by
  a few lines of Python that then ``exec`` Voila), on
  which Voila stops; its kernels run in sessions of their own but watch their parent (ipykernel's
  parent poller, ``JPY_PARENT_PID``) and exit when Voila is gone. Elsewhere only Ctrl-C and
  SIGTERM are handled (:func:`serve`).
- Decision: a taken port is refused before Voila starts, naming the process that listens on it
  when Linux's ``/proc`` shows it (:func:`port_holder`); Voila itself is told not to move to
  another port (``port_retries=0``), which would leave the printed address wrong.
- Decision: the tab titles are the apps' names in full ("House edge and rake"), and a page style
  (:func:`cpstats.apps.widgets._common.page_style`) lets each tab be as wide as its title: the
  widgets' tab bar otherwise cuts every title at a fixed width.
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from cpstats._resources import DASHBOARD_NOTEBOOK
from cpstats.errors import OptionError, check_whole

__all__ = ["DASHBOARD_NOTEBOOK", "APPS", "tab_titles", "build_dashboard", "voila_command", "serve",
           "start", "wait_until_up", "check_port", "port_holder"]

_PR_SET_PDEATHSIG = 1
_LISTEN = "0A"

#: The tabs every game shares, after the comparer and the games' own.
_SHARED_TITLES = ("Rule sweep", "Solve for a target", "PAR sheet")


def _house(tab, deals: int, cache):
    from cpstats.apps.widgets import RakeExplorer

    return RakeExplorer(tab.opens.get("dashboard_house"), deals=deals, cache=cache)


def _rules(tab, deals: int, cache):
    from cpstats.apps.widgets import OpenFaceApp

    return OpenFaceApp(tab.opens.get("rules"))


#: The apps that draw a game's own tab, by the :attr:`~cpstats.engine.views.DashboardTab.app` it
#: names: ``house`` the house money of a run (:class:`~cpstats.apps.widgets.RakeExplorer`),
#: ``rules`` a rule explorer (:class:`~cpstats.apps.widgets.OpenFaceApp`); each is given the tab,
#: the deals of a live run and the shared cache.
APPS = {"house": _house, "rules": _rules}


def tab_titles() -> tuple[str, ...]:
    """The dashboard's tabs, in order: the comparer, each registered game's own, the shared ones."""
    from cpstats.apps.widgets._common import dashboard_tabs

    return ("Compare variants", *(tab.title for tab in dashboard_tabs().values()), *_SHARED_TITLES)


def build_dashboard(deals: int = 20_000, *, cache=None):
    """The dashboard's widget: the comparer, each game's own tab (:data:`APPS`), a rule sweep,
    solve for a target and the PAR sheet in tabs (the comparer and the games' tabs sharing one
    cache), with the page style that shows the tab titles whole. Returns an ipywidgets ``VBox``."""
    import ipywidgets as W

    from cpstats.apps.widgets import ResultCache, SolveView, SweepView, VariantComparer
    from cpstats.apps.widgets._common import dashboard_tabs, opening, page_style
    from cpstats.apps.widgets.par_view import ParView

    cache = cache or ResultCache()
    comparer = VariantComparer(opening("dashboard_compare"), deals=deals, cache=cache)
    games = [APPS[tab.app](tab, deals, cache) for tab in dashboard_tabs().values()]
    shared = [SweepView(deals=deals), SolveView(deals=deals), ParView()]
    tabs = W.Tab(children=[app.widget for app in (comparer, *games, *shared)], titles=tab_titles())
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
            "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--show_tracebacks=False",
            *([] if open_browser else ["--no-browser"])]


def start(port: int = 8866, *, notebook: str | os.PathLike = DASHBOARD_NOTEBOOK,
          open_browser: bool = False, log: str | os.PathLike | None = None) -> subprocess.Popen:
    """Start Voila in the background and return its process (stop it with ``.terminate()``);
    on Linux it gets SIGTERM when the calling thread's process dies, however it dies."""
    command = voila_command(port, notebook=notebook, open_browser=open_browser)
    if sys.platform.startswith("linux"):
        command = [sys.executable, "-c", _DIE_WITH_PARENT, str(os.getpid()), *command]
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115 - Voila's, kept open
    return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                            cwd=Path(notebook).parent)


#: Run by the child before it becomes Voila (``exec`` keeps the request): SIGTERM when its parent
#: dies (Linux's PR_SET_PDEATHSIG), and at once if the parent died before the request was made.
#: A separate program rather than a ``preexec_fn``, which is unsafe in a process with threads.
_DIE_WITH_PARENT = f"""
import ctypes, os, signal, sys
ctypes.CDLL(None).prctl({_PR_SET_PDEATHSIG}, signal.SIGTERM)
if os.getppid() != int(sys.argv[1]):
    sys.exit(0)
os.execv(sys.argv[2], sys.argv[2:])
"""


def check_port(port: object) -> int:
    """``port`` if it is a TCP port free on 127.0.0.1; else one OptionError line saying it is
    taken and, when it can be found, by what (:func:`port_holder`)."""
    port = check_whole("port", port, 1)
    if port > 65535:
        raise OptionError(f"port={port} is invalid: a TCP port from 1 to 65535")
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Voila's server binds
        try:
            s.bind(("127.0.0.1", port))
        except OSError as err:
            if err.errno != errno.EADDRINUSE:
                raise
            holder = port_holder(port)
            by = f" by {holder}" if holder else ""
            raise OptionError(f"port={port} is taken{by}: stop it or choose another "
                              "port") from None
    return port


def port_holder(port: int) -> str | None:
    """``pid N (command)`` of the process listening on TCP ``port``, from Linux's
    ``/proc/net/tcp*`` and ``/proc/*/fd``; None when that cannot be seen (another OS, or a
    process of another user)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for fields in (line.split() for line in lines):
            if len(fields) > 9 and fields[3] == _LISTEN and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    for pid in (p for p in Path("/proc").glob("[0-9]*") if inodes):
        try:
            if any(os.readlink(fd) in inodes for fd in (pid / "fd").iterdir()):
                argv = (pid / "cmdline").read_bytes().decode(errors="replace").split("\0")
                return f"pid {pid.name} ({_short([Path(argv[0]).name, *argv[1:]])})"
        except OSError:  # gone meanwhile, or another user's
            continue
    return None


def _short(argv: list[str], width: int = 80) -> str:
    """The command line, its program without its folder, cut to ``width`` characters."""
    command = " ".join(a for a in argv if a)
    return command if len(command) <= width else command[: width - 3] + "..."


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
    port = check_port(port)
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
