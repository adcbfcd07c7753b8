"""``cpstats dashboard`` stops what it started: stopped by SIGTERM (``kill``) as by Ctrl-C, it takes
Voila (and Voila its kernels) down with it, so nothing is left running on a shared machine."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import ROOT

pytest.importorskip("voila", reason="voila is not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text().split()
        found += [int(x) for x in text]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _dashboard(port: int, folder: Path) -> subprocess.Popen:
    """``cpstats dashboard`` run from ``folder`` with this checkout's cpstats (not whichever
    copy is installed)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "cpstats.apps.cli", "dashboard", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=folder, env=env)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_sigterm_stops_voila_too(tmp_path):
    from cpstats.apps.dashboard import wait_until_up

    port = _free_port()
    cli = _dashboard(port, tmp_path)
    try:
        assert wait_until_up(port, timeout=90), cli.stdout.read().decode()[-2000:]
        voila = _children(cli.pid)
        assert voila and all(_alive(p) for p in voila)
        os.kill(cli.pid, signal.SIGTERM)
        assert cli.wait(timeout=30) == 0
        deadline = time.monotonic() + 20
        while any(_alive(p) for p in voila) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(p) for p in voila)
    finally:
        if cli.poll() is None:
            cli.kill()


def _wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.2)
    return condition()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux's prctl and /proc")
def test_sigkill_leaves_neither_voila_nor_its_kernel_nor_the_port(tmp_path):
    """Killed outright (SIGKILL, no handler runs), the command still takes Voila down (a
    parent-death signal), and Voila's kernel follows Voila; the port is free again."""
    from cpstats.apps.dashboard import check_port, wait_until_up

    port = _free_port()
    cli = _dashboard(port, tmp_path)
    voila, kernels = [], []
    try:
        assert wait_until_up(port, timeout=90), cli.stdout.read().decode()[-2000:]
        voila = _children(cli.pid)
        assert _wait_for(lambda: any(_children(p) for p in voila), 60)  # the page's kernel
        kernels = [k for p in voila for k in _children(p)]
        os.kill(cli.pid, signal.SIGKILL)
        cli.wait(timeout=10)
        assert _wait_for(lambda: not any(_alive(p) for p in voila + kernels), 30), \
            [p for p in voila + kernels if _alive(p)]
        assert _wait_for(lambda: _port_is_free(port), 15)  # the OS frees the socket shortly after
        assert check_port(port) == port
    finally:
        for pid in voila + kernels:  # never leave them behind, even when the test fails
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if cli.poll() is None:
            cli.kill()


def test_a_taken_port_is_one_line_naming_its_holder(capsys):
    """The next start on a port still held says so in one line, naming the listening process
    (here this test's own), and starts nothing; status 2."""
    from cpstats.apps.cli import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["dashboard", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    holder = f" by pid {os.getpid()} (" if Path("/proc/net/tcp").exists() else ""
    assert err.startswith(f"cpstats dashboard: error: port={port} is taken{holder}"), err
    assert err.endswith(": stop it or choose another port\n")


@pytest.mark.parametrize("port, allowed", [(0, "a whole number >= 1"),
                                           (70000, "a TCP port from 1 to 65535")])
def test_a_port_outside_the_range_is_refused(port, allowed, capsys):
    from cpstats.apps.cli import main

    assert main(["dashboard", "--port", str(port)]) == 2
    assert f"port={port} is invalid: {allowed}" in capsys.readouterr().err


def _port_is_free(port: int) -> bool:
    from cpstats.apps.dashboard import check_port
    from cpstats.errors import OptionError

    try:
        return check_port(port) == port
    except OptionError:
        return False
