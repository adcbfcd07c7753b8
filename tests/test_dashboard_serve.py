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


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_sigterm_stops_voila_too(tmp_path):
    from cpstats.apps.dashboard import wait_until_up

    port = _free_port()
    cli = subprocess.Popen([sys.executable, "-m", "cpstats.apps.cli", "dashboard", "--port", str(port)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=tmp_path)
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
