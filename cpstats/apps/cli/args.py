"""Argument types the command line's modules share (:mod:`cpstats.apps.cli`): whole numbers, a
seed, a pace, an output folder, the ``--scheduler``/``--workers`` pair and the executor it names,
the parser whose errors are one line, and the kernels each game's runs compile on first use
(:data:`KERNELS`). Each refuses bad input with argparse's one-line error or an
:class:`~cpstats.errors.OptionError`."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path

from cpstats.apps._warmup import simulation_kernels
from cpstats.errors import CpstatsError, OptionError
from cpstats.thirteen import GAME as THIRTEEN

__all__ = ["KERNELS", "OneLineErrorParser", "whole_number", "positive_int", "count", "seed", "pace",
           "out_folder", "add_scheduler_options", "executor_for", "setter_of", "CONNECT_TIMEOUT"]

#: Seconds to wait for a ``tcp://`` scheduler before giving up.
CONNECT_TIMEOUT = 10
#: The numba kernels a game's runs compile on first use, by the registered game's name: a function
#: of the strategies giving the kernel modules (:func:`cpstats.apps._warmup.simulation_kernels`),
#: so a command says the first run pauses to compile before it does.
KERNELS: dict[str, Callable[..., tuple[str, ...]]] = {THIRTEEN.name: simulation_kernels}


class OneLineErrorParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit status 2, pointing to
    ``--help`` rather than printing the usage block (subparsers made by ``add_subparsers`` are of
    the same class, so every command's errors read alike)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def whole_number(text: str, least: int) -> int:
    """``text`` as a whole number >= ``least`` (``_`` and ``,`` may group digits), or argparse's error."""
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is invalid: must be a whole number >= {least}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{value} is invalid: must be >= {least} (a whole number)")
    return value


def positive_int(text: str) -> int:
    """A whole number >= 1 (deals, workers, rounds)."""
    return whole_number(text, 1)


def count(text: str) -> int:
    """A whole number >= 0 (``review --top``, ``train --refine``)."""
    return whole_number(text, 0)


def seed(text: str) -> int:
    """A random seed: a whole number >= 0 (numpy's seeds are never negative)."""
    return whole_number(text, 0)


def setter_of(args: argparse.Namespace):
    """The setter that ``--strategy`` and ``--tables`` name: ``EvSetter(tables=T)`` for ev with
    ``--tables T``, else the strategy's name (each game reads its own names; open face refuses
    tables; None, no ``--strategy``, leaves the game's default). ``--tables`` with another strategy
    is one line."""
    from cpstats.strategies.setters import EvSetter

    strategy, tables = getattr(args, "strategy", "ev"), getattr(args, "tables", None)
    if tables is None:
        return strategy
    if strategy not in ("ev", None):
        raise OptionError(f"--tables {tables} is invalid with strategy {strategy!r}: only ev plays row "
                          "tables")
    return EvSetter(tables=tables)


def pace(text: str) -> float:
    """A finite number of hands an hour above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is invalid: a pace above 0 hands an hour")
    return value


def out_folder(text: str | None) -> Path | None:
    """The ``--out`` folder, refused when empty or when a file is in the way; created now, so an
    unwritable place is reported before a long simulation, not after."""
    if text is None:
        return None
    if not text.strip():
        raise OptionError("--out='' is invalid: --out must name a folder (--out . for this one)")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise OptionError(f"--out={text!r} is invalid: {text} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OptionError(f"--out={text!r} is invalid: the folder cannot be created "
                          f"({err.strerror or err})") from None
    if not os.access(path, os.W_OK):
        raise OptionError(f"--out={text!r} is invalid: {text} is not writable")
    return path


def add_scheduler_options(p: argparse.ArgumentParser, default: str = "none") -> None:
    """``--scheduler`` (where the blocks run) and ``--workers`` (how many run at once)."""
    p.add_argument("--scheduler", default=default,
                   help=f"none (serial), threads (a pool of --workers threads), local (a dask "
                        f"LocalCluster of --workers processes) or tcp://HOST:8786 (default {default})")
    p.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                   help="threads or LocalCluster workers, at least 1 (default: the cores)")


def executor_for(args: argparse.Namespace):
    """(executor, closer) for ``args.scheduler``: none (serial: None), threads (a thread pool: the
    kernels release the GIL), local (a dask LocalCluster of ``args.workers`` one-thread
    processes), tcp://HOST:PORT (a running dask scheduler). The numbers are the same on each."""
    scheduler = getattr(args, "scheduler", None)
    if not scheduler or scheduler == "none":
        return None, lambda: None
    if scheduler == "threads":
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(args.workers)
        return pool, pool.shutdown
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise CpstatsError("--scheduler needs dask: pip install 'cpstats[dask]'") from None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
        return client.get_executor(), lambda: (client.close(), cluster.close())
    if scheduler.startswith("tcp://"):
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except OSError as err:  # refused, timed out (dask's TimeoutError is an OSError), no host
            raise CpstatsError(f"cannot reach the scheduler at {scheduler}: {err}") from None
        except ValueError as err:  # dask could not read the address (a port that is no number)
            raise CpstatsError(f"--scheduler={scheduler!r} is invalid: expected tcp://HOST:PORT "
                               f"({err})") from None
        return client.get_executor(), client.close
    raise CpstatsError(f"--scheduler={scheduler!r} is invalid: use none, threads, local or tcp://HOST:PORT")
