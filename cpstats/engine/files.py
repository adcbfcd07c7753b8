"""Simulation files: a run's folder (its identity ``run.json``, finished blocks, resume) and saved
results (:func:`save_result`, :func:`load_result`, the shipped reference results).

A run is identified by a digest of everything that decides its numbers: variant, strategy (and
ev tables), root seed, deals, block and batch plan, dealer. ``run.json`` holds the identity and
every ``block-NNNNNN.npz`` carries the digest of the run that wrote it, so a resume merges only
blocks of its own run: a block of another run, or one that does not read (truncated, empty, bad
CRC), is done again and counted in the result's ``blocks_redone``.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from pathlib import Path

import numpy as np

from cpstats._atomic import atomic_path, writable_folder
from cpstats._resources import REFERENCE_DIR
from cpstats.errors import OptionError
from cpstats.rules.check import suggest
from cpstats.engine.registry import game_of, load_variant
from cpstats.rules.house import Rake
from cpstats.engine.additive import Additive
from cpstats.engine.base import Result

__all__ = ["IDENTITY_KEYS", "identity_keys", "run_digest", "prepare_out", "write_block", "read_block", "save_result",
           "load_result", "load_reference", "REFERENCE_DIR"]

#: What every run's numbers depend on; a resume with any of these changed is another run. Each game
#: adds what its setter plays by where the setter's name alone does not say it
#: (:attr:`~cpstats.engine.games.GameRuns.identity`, :func:`identity_keys`).
IDENTITY_KEYS = ("variant", "strategy", "entropy", "spawn_key", "deals", "block_deals", "batches",
                 "dealer", "summary_format")


_STAMPS = frozenset({"run_digest", "content_sha256"})


def identity_keys() -> dict[str, bool]:
    """Every identity key -> whether it counts in a run that has none (its value None): the engine's
    always; each registered game's as the game says (a key a game added later counts only when a
    run gives it, so the runs that have none keep their digests)."""
    from cpstats.engine.registry import GAMES

    keys = dict.fromkeys(IDENTITY_KEYS, True)
    for game in GAMES.values():
        for key, always in getattr(game.runs, "identity", {}).items():
            keys[key] = keys.get(key, False) or always
    return keys


def run_digest(meta: dict) -> str:
    """SHA-256 (hex, 16 characters) of the run's identity keys (:func:`identity_keys`)."""
    identity = {k: meta.get(k) for k, always in identity_keys().items() if always or meta.get(k) is not None}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def prepare_out(out, meta: dict, resume: bool) -> Path | None:
    """Check and create the run folder; refuse a folder holding another run.

    Without ``resume`` a folder that already holds a run is refused; with it, the folder's
    ``run.json`` must describe the same run (a missing or unreadable one is rewritten: every
    block is checked against the run's digest anyway).
    """
    if out is None:
        if resume:
            raise OptionError("resume=True needs out=DIR, the folder of the run to resume")
        return None
    if str(out).strip() == "":
        raise OptionError("out='' is invalid: name a folder for the run's blocks")
    if not isinstance(out, (str, os.PathLike)):
        raise OptionError(f"out={out!r} is invalid: a folder path (str or pathlib.Path)")
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise OptionError(f"out={str(path)!r} is a file: name a folder for the run's blocks")
    writable_folder("out", path)
    run_file = path / "run.json"
    if run_file.exists():
        try:
            old = json.loads(run_file.read_text())
            if not isinstance(old, dict):
                raise ValueError("not a JSON object")
        except (ValueError, UnicodeDecodeError) as err:
            if not resume:
                raise OptionError(f"out={str(path)!r} holds a run.json that does not read ({err}): pass "
                                  "resume=True (--resume) to check its blocks, or another folder") from None
            old = None
        differ = None if old is None else [k for k in identity_keys() if old.get(k) != meta.get(k)]
        if not resume and differ == []:
            raise OptionError(f"out={str(path)!r} already holds blocks of this run: pass resume=True "
                              "(--resume) to keep them, or another folder")
        if not resume:
            raise OptionError(f"out={str(path)!r} holds blocks of another run: pass resume=True "
                              "(--resume) with the same variant, seed, deals and strategy, or another "
                              "folder")
        if differ:
            raise OptionError(
                f"out={str(path)!r} holds blocks of another run (differs in {', '.join(differ)}): "
                "resume with the same variant, seed, deals and strategy (and what it plays by), "
                "or another folder")
    with atomic_path(run_file) as tmp:
        tmp.write_text(json.dumps(meta, indent=2))
    return path


def _content_digest(arrays: dict) -> str:
    """SHA-256 of a block's arrays (names, dtypes, shapes and bytes): damage that the zip
    container does not catch (its headers carry no checksum) is caught here."""
    h = hashlib.sha256()
    for key in sorted(arrays):
        value = np.ascontiguousarray(arrays[key])
        h.update(f"{key}:{value.dtype.str}:{value.shape}".encode())
        h.update(value.tobytes())
    return h.hexdigest()


def write_block(out: Path, block: int, summary: Additive, digest: str) -> None:
    """Write a finished block atomically (temporary file, then rename): its presence marks it
    done, and a write that fails (a full disk) leaves no file behind. The arrays go under their
    keys on disk (:meth:`~cpstats.engine.additive.Additive.to_arrays`)."""
    arrays = summary.to_arrays()
    with atomic_path(out / f"block-{block:06d}.npz") as tmp, open(tmp, "wb") as fh:
        np.savez(fh, run_digest=np.array(digest), content_sha256=np.array(_content_digest(arrays)),
                 **arrays)


def read_block(out: Path, block: int, digest: str, keys: frozenset[str]) -> tuple[dict | None, bool]:
    """(arrays, redo): the block's summary arrays if it belongs to this run and reads whole; otherwise
    None, with ``redo`` true when a file was there (of another run, or damaged)."""
    path = out / f"block-{block:06d}.npz"
    if not path.exists():
        return None, False
    try:
        with np.load(path, allow_pickle=False) as data:
            if set(data.files) != keys | _STAMPS or str(data["run_digest"]) != digest:
                return None, True
            summary = {k: data[k] for k in keys}
            if _content_digest(summary) != str(data["content_sha256"]):
                return None, True
            return summary, False
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
        return None, True


def save_result(result: Result, path: str | os.PathLike) -> Path:
    """Save a result's summaries (``.npz``) and metadata (``.json`` beside it), any game's."""
    path = Path(path).with_suffix(".npz")
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez_compressed(fh, **result.summary.to_arrays())
    with atomic_path(path.with_suffix(".json")) as tmp:
        tmp.write_text(json.dumps(result.metadata, indent=2))
    return path


def load_result(path: str | os.PathLike) -> Result:
    """Load a result written by :func:`save_result` (summaries only: nothing kept to rescore), as
    the result type its variant's game registered."""
    from cpstats.engine.games import runs_of

    path = Path(path).with_suffix(".npz")
    if not path.exists():
        raise OptionError(f"no saved result at {str(path)!r}")
    meta = json.loads(path.with_suffix(".json").read_text())
    v = load_variant(meta["variant"])
    runs = runs_of(v)
    with np.load(path, allow_pickle=False) as data:
        summary = runs.summary.from_arrays({k: data[k] for k in data.files})
    return runs.result(v, summary, meta)


def load_reference(preset: str, *, rake: Rake | None = None) -> Result:
    """The shipped reference result ``preset`` of any game (the runs each game registered,
    :attr:`~cpstats.engine.games.GameRuns.references`); opens instantly for notebooks and
    widgets. 13-card: ``cpstats/data/reference/PRESET.npz``, made by ``cpstats reference``. Open
    face: a shipped rollout run (its presets, and the Pineapple sensitivity runs such as
    ``pineapple-stay-a``, :data:`cpstats.ofc.shipped.OFC_REFERENCE_RUNS`) as an open-face ``SimulationResult``;
    with ``rake``, charged that rake exactly from its stored nets (rake never moves play). A game
    whose references keep no nets refuses ``rake``.

    Examples
    --------
    >>> str(load_reference("ofc-pineapple").variant), load_reference("2-4").variant.game
    ('ofc-pineapple', '13-card')
    """
    from cpstats.engine.games import reference_runs

    key = str(preset).strip().lower()
    shipped = reference_runs()
    if key in shipped:
        return shipped[key](key, rake=rake)
    game = game_of(key)  # an unknown preset gets the close-match error
    runs = list(game.runs.references) if game.runs is not None else []
    raise OptionError(f"name={preset!r} is invalid: no shipped {game.name} reference run of that name"
                      f"{suggest(key, runs)}; runs: {', '.join(runs) or 'none'}")
