#!/usr/bin/env bash
# What tests/apps/test_dashboard_browser.py needs: Debian's chromium (never a Playwright browser
# download) and the Python packages that serve and drive the dashboard.
set -euo pipefail
# and poppler's pdftotext/pdftoppm, which the PAR sheet tests read the PDF pages with
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/pdftotext ]; then
    apt-get update
    apt-get install -y chromium poppler-utils
fi
python -m pip install --quiet "playwright>=1.40" "voila>=0.5" "ipywidgets>=8" "nbmake>=1.5"
