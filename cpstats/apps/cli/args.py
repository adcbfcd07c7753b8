"""Argument types the command line's modules share (:mod:`cpstats.apps.cli`): whole numbers, a
seed, a pace, an output folder, the ``--scheduler``/``--workers`` pair and the executor it names,
the parser whose errors are one line, and what each game adds through its registration
(:class:`cpstats.engine.views.CommandLine`): its own options of who sets the hands and the setter
they name (:func:`setter_options`, :func:`setter_of`), the kernels its runs compile
(:func:`kernels_of`). Each refuses bad input with argparse's one-line error or an
:class:`~cpstats.errors.OptionError`."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Any

from cpstats.engine.games import runs_of
from cpstats.engine.registry import games
from cpstats.errors import CpstatsError, OptionError

__all__ = ["OneLineErrorParser", "whole_number", "positive_int", "count", "seed", "pace",
           "out_folder", "key_values", "until_pairs", "half_width", "add_scheduler_options", "executor_for",
           "setter_option", "setter_options", "setter_of", "kernels_of", "command_lines", "SETTER_HELP",
           "CONNECT_TIMEOUT"]

#: Options renamed before the first release, named in the line refusing the old one.
RENAMED_OPTIONS = {"--strategy": "--setter"}
#: Seconds to wait for a ``tcp://`` scheduler before giving up.
CONNECT_TIMEOUT = 10


def command_lines() -> dict[str, Any]:
    """Every registered game's command-line words (:class:`~cpstats.engine.views.CommandLine`), by name."""
    return {name: game.runs.views.command_line for name, game in games().items() if game.runs is not None}


def kernels_of(v: Any, *setters: object, by_rules: bool = True) -> tuple[str, ...]:
    """The numba kernel modules a run of ``v`` with ``setters`` compiles on first use, as its game
    names them (none for a game that names none), for the compile notice; ``by_rules`` False
    leaves out those only some of the game's rules compile (a command of several variants)."""
    kernels = runs_of(v).views.command_line.kernels
    return () if kernels is None else kernels(v if by_rules else None, *setters)


class OneLineErrorParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit status 2, pointing to
    ``--help`` rather than printing the usage block (subparsers made by ``add_subparsers`` are of
    the same class, so every command's errors read alike)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_args(self, args=None, namespace=None):
        """argparse's, but an unknown option is refused by the command it was given to, so the line
        points at that command's ``--help`` (``cpstats compare --help``, not ``cpstats --help``)."""
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            renamed = [f"{old} is now {new}" for old, new in RENAMED_OPTIONS.items()
                       if any(x.split("=")[0] == old for x in extra)]
            self._command(parsed).error(f"unrecognized arguments: {' '.join(extra)}"
                                        + (f" ({'; '.join(renamed)})" if renamed else ""))
        return parsed

    def _command(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The subcommand's parser ``parsed`` went through (this parser when it has none)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
                return chosen._command(parsed) if isinstance(chosen, OneLineErrorParser) else self
        return self


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


#: ``--setter``'s words, as every command's help says them: the API's ``setter=``.
SETTER_HELP = ("who sets the hands: ev (the strong setter; open face: rollout), greedy or random (baselines), or "
               "open face's fast, rollout-exact")


def setter_option(p: argparse.ArgumentParser, *, bulk: bool = False) -> None:
    """``--setter``, the API's ``setter=``; without it the game's default setter plays (``bulk``:
    the game's setter for bulk runs), as the verbs' ``setter=None``; the help names each game's."""
    shown = "; ".join(f"{name} {_default_setter(game.runs, bulk)}" for name, game in games().items())
    p.add_argument("--setter", default=None, help=f"{SETTER_HELP} (default the game's: {shown})")


def _default_setter(runs: Any, bulk: bool) -> str:
    chosen = runs.bulk_setter if bulk and runs.bulk_setter is not None else runs.default_setter
    return chosen if isinstance(chosen, str) else "chosen by the rules"


def setter_options(p: argparse.ArgumentParser, command: str) -> None:
    """Add every game's own options of who sets the hands to ``command``'s parser (the 13-card
    game's ``--tables``); each game's setter reads its own (:func:`setter_of`)."""
    for words in command_lines().values():
        if words.setter_options is not None:
            words.setter_options(p, command)


def setter_of(args: argparse.Namespace, v: Any = None):
    """The setter that ``--setter`` and the games' own options name (``EvSetter(tables=T)`` for
    the 13-card ``--setter ev --tables T``), else ``--setter`` as given (None, no ``--setter``,
    leaves the game's default). ``v``'s game reads them first; an option of another game still
    names that game's setter, which the run then refuses in one line, as it refuses any setter of
    another game."""
    plain = getattr(args, "setter", None)
    own = [] if v is None else [runs_of(v).views.command_line]
    for words in own + [w for w in command_lines().values() if all(w is not o for o in own)]:
        setter = plain if words.setter is None else words.setter(args)
        if setter is not plain:
            return setter
    return plain


def key_values(items: list[str] | str, option: str, form: str) -> dict[str, str]:
    """``KEY=VALUE`` items (a list, or one comma-separated text) as a dict, keys stripped; one line
    for an item without ``=`` or a key given twice (the second would silently replace the first)."""
    if isinstance(items, str):
        items = [item for item in items.split(",") if item.strip()]
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"{option} {item!r} is invalid: {form}")
        if key.lower() in {k.lower() for k in out}:
            first = next(k for k in out if k.lower() == key.lower())
            raise OptionError(f"{option} {key} is given twice ({first}={out[first]}, {key}={value}): give "
                              "each once")
        out[key] = value
    return out


def until_pairs(text: str) -> dict[str, float]:
    """``--until FIGURE=HALF_WIDTH[,FIGURE=HALF_WIDTH]`` as ``{figure: half-width}``, a figure given
    twice refused (the figures and widths are then checked by the run, naming ``until``)."""
    try:
        pairs = key_values(text, "--until", "FIGURE=HALF_WIDTH pairs such as sd=0.01")
    except OptionError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("--until ")) from None
    if not pairs:
        raise argparse.ArgumentTypeError(f"{text!r} is invalid: FIGURE=HALF_WIDTH pairs such as sd=0.01")
    try:
        return {key: float(value) for key, value in pairs.items()}
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is invalid: each half-width a number, e.g. sd=0.01") from None


def _positive(text: str, allowed: str) -> float:
    """``text`` as a finite number above 0; otherwise one line ending in ``allowed``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is invalid: {allowed}")
    return value


def half_width(text: str) -> float:
    """A finite half-width above 0 (``solve --precision``)."""
    return _positive(text, "a half-width above 0, in the figure's units")


def pace(text: str) -> float:
    """A finite number of hands an hour above 0."""
    return _positive(text, "a pace above 0 hands an hour")


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
