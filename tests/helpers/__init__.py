"""What several test files share, importable as ``helpers`` (``pythonpath = ["tests"]`` in
pyproject.toml): the checkout's folders, found from here rather than from each test file's depth."""

from pathlib import Path

#: The checkout's root folder (README.md, cpstats/, docs/, notebooks/, benchmarks/).
ROOT = Path(__file__).resolve().parents[2]
#: The package's source folder in the checkout.
PACKAGE = ROOT / "cpstats"
