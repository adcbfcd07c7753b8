"""Argument types the command line shares (``cpstats.apps.cli`` and the commands kept in their own
modules, ``par`` and ``sweep_cli``): whole numbers, a seed, a pace, an output folder, and the
parser whose errors are one line. Each refuses bad input with argparse's one-line error or an
:class:`~cpstats.errors.OptionError`."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from cpstats.errors import OptionError

__all__ = ["OneLineErrorParser", "whole_number", "positive_int", "count", "seed", "pace",
           "out_folder"]


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
