"""Every test session trains ev tables (a rule set with none trains them on the fly) into its own
folder, never the user's cache; ``quick_tables`` cuts that training to about a second for tests of
the apps' live runs; ``dask_executor`` is a LocalCluster for the serial-equals-Dask checks."""

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _tables_cache(tmp_path_factory):
    os.environ.setdefault("CPSTATS_CACHE_DIR", str(tmp_path_factory.mktemp("cpstats-cache")))


#: Training on the fly cut to a second (issue 15.2 trains ev's tables for rules with none).
TINY_TRAINING = {"deals": 1_000, "rounds": 1, "refine": 0, "check_deals": 0, "removal_deals": 0}


@pytest.fixture(scope="module")
def quick_tables(tmp_path_factory):
    """Tables ev trains for a variant without shipped ones go to a temporary cache folder (the
    user's is never touched) and train in about a second: the apps' live runs use ev."""
    from cpstats.strategies import row_tables

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
