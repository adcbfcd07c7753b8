"""The rule designer in a real browser: Voila serves the packaged dashboard notebook
(cpstats/data/dashboard.ipynb), headless Chromium
(Debian's package, driven by Playwright; never a downloaded browser) changes variant B, clicks
Simulate and sees the table and the chart change."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytest.importorskip("voila", reason="voila is not installed (bash .ci/install-browser.sh)")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is not installed (bash .ci/install-browser.sh)")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (bash .ci/install-browser.sh)",
                allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from cpstats.apps.dashboard import start, wait_until_up

    port = free_port()
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    proc = start(port, log=log)
    try:
        if not wait_until_up(port, timeout=60):
            pytest.fail(f"voila did not answer on port {port}:\n{log.read_text()[-3000:]}")
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except Exception:
            proc.kill()


def test_change_a_variant_and_simulate(server, tmp_path):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(server, timeout=90_000)
            table = page.locator("table.cpstats-compare").first
            table.wait_for(timeout=90_000)
            chart = page.locator(".widget-output img").first
            chart.wait_for(timeout=30_000)
            before_table, before_chart = table.inner_text(), chart.get_attribute("src")
            assert "B: 1-6" in before_table

            # variant B three-handed: live runs use ev, and 1-6 at three seats plays 1-6's shipped tables
            players = page.locator(".widget-dropdown:has(label:text-is('players')) select")
            players.nth(1).select_option("3")
            page.get_by_role("button", name="Simulate").first.click()
            page.wait_for_function(
                "() => [...document.querySelectorAll('table.cpstats-compare')]"
                ".some(t => t.innerText.includes('1-6, 3 players'))", timeout=60_000)
            page.wait_for_function(
                "(old) => { const i = document.querySelector('.widget-output img');"
                " return i && i.src !== old; }", arg=before_chart, timeout=30_000)
            after = table.inner_text()
            assert after != before_table and "20,000" in after
            # the bar turns to success just after the table and chart are shown: wait for it (under load it lags)
            page.locator(".progress-bar-success, .widget-progress .progress-bar").first.wait_for(timeout=30_000)
            page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
        finally:
            browser.close()
