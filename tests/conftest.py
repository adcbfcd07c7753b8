"""Every test session trains ev tables (a rule set with none trains them on the fly) into its own
folder, one for all of its xdist workers, never the user's cache; ``quick_tables`` cuts that training to about a second for tests of
the apps' live runs; ``dask_executor`` is a LocalCluster for the serial-equals-Dask checks.

Before any test (in xdist's controller, before its workers start) numba's kernels are compiled
once into its cache when they are not there yet (a clean clone: ``helpers/warmup.py``), so the
workers, notebook kernels and subprocesses load them instead of each compiling them again;
``CPSTATS_WARMUP=0`` skips that. Where the package's folder is read-only (an installed wheel),
numba's cache goes to the user's cache folder instead (``NUMBA_CACHE_DIR``)."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest


#: The toy game's package is a game, not tests: importing it registers the game (the registry is
#: global), so pytest never collects it; the tests that play it register it while they run
#: (``helpers.toy.toy_registered``).
collect_ignore = ["toy_showdown"]


def _package() -> Path:
    """The cpstats folder the tests import, found without importing it (numba reads
    ``NUMBA_CACHE_DIR`` once, on import)."""
    return Path(importlib.util.find_spec("cpstats").origin).parent


def pytest_configure(config):
    package = _package()
    if "NUMBA_CACHE_DIR" not in os.environ and not os.access(package, os.W_OK):
        import platformdirs

        os.environ["NUMBA_CACHE_DIR"] = str(Path(platformdirs.user_cache_dir("cpstats")) / "numba")
    if hasattr(config, "workerinput") or config.option.collectonly or os.environ.get("CPSTATS_WARMUP") == "0":
        return
    from helpers.warmup import compile_kernels, needs_warming

    if needs_warming(package):
        seconds = compile_kernels(package)
        print(f"numba kernels compiled into the cache in {seconds:.0f} s", file=sys.stderr)


@pytest.fixture(scope="session", autouse=True)
def _tables_cache(tmp_path_factory, request):
    """One cache folder for the whole session: under xdist the workers' base folders share a
    parent, so the ev tables a rule set trains on the fly are trained once, not once a worker
    (and each notebook kernel and subprocess a worker starts reads them). The package writes its
    cache files atomically (cpstats._atomic), so two workers training the same tables at once
    each write a whole file and a reader never sees half of one."""
    base = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):
        base = base.parent
    folder = base / "cpstats-cache"
    folder.mkdir(exist_ok=True)
    os.environ.setdefault("CPSTATS_CACHE_DIR", str(folder))


#: Training on the fly cut to a second (issue 15.2 trains ev's tables for rules with none).
TINY_TRAINING = {"deals": 1_000, "rounds": 1, "refine": 0, "check_deals": 0, "removal_deals": 0}


@pytest.fixture(scope="module")
def quick_tables(tmp_path_factory):
    """Tables ev trains for a variant without shipped ones go to a temporary cache folder (the
    user's is never touched) and train in about a second: the apps' live runs use ev."""
    from cpstats.thirteen.play import row_tables

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(row_tables.CACHE_ENV, str(tmp_path_factory.mktemp("tables")))
        mp.setattr(row_tables, "QUICK_TRAINING", {**row_tables.QUICK_TRAINING, **TINY_TRAINING})
        yield


@pytest.fixture(scope="module")
def dask_executor():
    """A Dask LocalCluster's executor (two in-process workers), for serial-equals-Dask checks."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client.get_executor()
