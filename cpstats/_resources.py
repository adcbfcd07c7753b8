"""Where the files shipped inside the package are, so a regular install finds them as an editable
one does.

The library needs three kinds of data at run time, so they are package data under
``cpstats/data`` and install with the wheel: the ev setter's row tables (``strategies/*.npz``,
written by ``cpstats train``), the reference results (``reference/*.npz`` and ``*.json``,
written by ``cpstats reference``) and the dashboard notebook that ``cpstats dashboard`` serves.
The notebook sits in ``data/`` rather than beside the modules because Voila and nbmake run it
with its folder as the working directory, and a kernel started beside ``cards.py`` or
``stats.py`` could import those as top-level modules.

Decision: the folders are found with :func:`importlib.resources.files` and converted to plain
:class:`~pathlib.Path` objects (``Path(str(...))``). setuptools installs packages as real
files (a wheel install or an editable checkout), the writers need a real folder to write into
(a source checkout's ``cpstats/data``), and Voila needs a real notebook file;
``importlib.resources.as_file`` would hand out a temporary copy, which serves reading only.
A zip-imported cpstats is not supported: its paths do not exist and the loaders say so.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

__all__ = ["DATA_DIR", "STRATEGIES_DIR", "REFERENCE_DIR", "DASHBOARD_NOTEBOOK", "CACHE_ENV", "cache_root"]

DATA_DIR = Path(str(files("cpstats") / "data"))
STRATEGIES_DIR = DATA_DIR / "strategies"
REFERENCE_DIR = DATA_DIR / "reference"
DASHBOARD_NOTEBOOK = DATA_DIR / "dashboard.ipynb"

#: Environment variable naming cpstats' cache folder (default ``platformdirs.user_cache_dir("cpstats")``):
#: what is trained for a designer's own rules goes there, never into the installed package.
CACHE_ENV = "CPSTATS_CACHE_DIR"


def cache_root() -> Path:
    """cpstats' cache folder: ``$CPSTATS_CACHE_DIR`` when set, else the user's cache folder
    (``platformdirs``); the 13-card row tables use its ``tables`` subfolder, the open-face
    street models its ``ofc`` subfolder."""
    root = os.environ.get(CACHE_ENV, "").strip()
    if not root:
        import platformdirs

        root = platformdirs.user_cache_dir("cpstats")
    return Path(root).expanduser()
