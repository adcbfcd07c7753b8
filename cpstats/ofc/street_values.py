"""The learned open-face play's street models: one file, conditioned on the rules, for every variant.

The default ``rollout`` (kernel code 6) and ``fast`` (code 7) value partial boards by street models
(:mod:`cpstats.ofc._value_kernel`): gradient-boosted trees of each street's board, fitted to the
exact-endgame values of ``rollout-exact``'s self-play over rule draws around the
presets (:mod:`cpstats.ofc.street_training`, :mod:`cpstats.ofc.rule_features`). Every row the
trees read holds the variant's rule numbers beside the board's features, so one file plays any
variant a designer writes, with no fitting at run time.

Decisions:

- One file, :data:`SHIPPED_PATH` (``cpstats/data/ofc/street_models.npz``), with a set of trees for
  each deal (classic and Pineapple have different streets) and a record: its seed, draws, hands,
  features, tree settings, seconds, the command that makes it again and the trained ranges of
  every rule feature. The per-variant files of earlier releases and the cache folder of models
  fitted for a designer's rules are gone: nothing is fitted for a variant any more.
- A variant outside the trained ranges plays by the models all the same; :func:`model_identity`
  says so in one line (:func:`cpstats.ofc.rule_features.range_note`), which a run's metadata and
  the PAR sheet carry.
- ``rollout-exact`` stays a named setter (the previous default, a yardstick). It is also what
  ``rollout`` and ``fast`` play when the file cannot be read (missing, truncated, empty, an array
  missing, arrays that do not fit together, features of another version, a record that is not an
  object of the right types, values that are not finite or past :data:`MAX_MAGNITUDE`, trees whose
  walk would leave the arrays or turn back; the record states no digest, so a run's identity is
  the file's own SHA-256, :func:`model_identity`): one warning names the file, how to make it
  again (reinstall cpstats, or ``cpstats train-ofc --street-values HANDS --out FILE``) and that
  the play falls back, and the run's metadata says ``street models none (plays as
  rollout-exact)``. Nothing is refitted at run time: the shipped file takes about 23 minutes on
  2 cores.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from cpstats.ofc import _value_kernel as _vk
from cpstats.ofc.rule_features import range_note, rule_vector
from cpstats.ofc.rules import Deal, Variant

__all__ = ["Trees", "StreetModel", "FEATURES", "SHIPPED_PATH", "StreetModelWarning", "street_model",
           "model_identity", "models_line", "read_models", "models_record", "MODEL_ARRAYS", "MAX_MAGNITUDE"]

FEATURES = _vk.FEATURES
SHIPPED_PATH = Path(__file__).resolve().parents[1] / "data" / "ofc" / "street_models.npz"
MODEL_ARRAYS = ("nodes", "values", "roots", "base")  # of each deal, as "<deal>_<array>" in the file
#: The largest threshold, leaf or base a model file may hold: a board's features, the rule numbers and
#: the objective stay far below it (the shipped file's largest is under 10,000), so a larger one is damage.
MAX_MAGNITUDE = 1e6
_LOAD_FAILED: set[str] = set()


class StreetModelWarning(UserWarning):
    """The street-model file could not be read: ``rollout`` and ``fast`` play as ``rollout-exact``."""


class Trees(NamedTuple):
    """Flat trees of every street's model of one deal (the kernel's layout, :mod:`cpstats.ofc._value_kernel`)."""

    nodes: np.ndarray  # int32[nodes, 2]: feature (-1 for a leaf), right child (the left is the next node)
    values: np.ndarray  # float64[nodes]: threshold, or the leaf value
    roots: np.ndarray  # int64[streets, trees]: first node of each tree, -1 padding
    base: np.ndarray  # float64[streets]: baseline prediction, NaN where the street has no model


class StreetModel(NamedTuple):
    """What the kernels play by: a deal's :class:`Trees` and the variant's rule numbers."""

    nodes: np.ndarray
    values: np.ndarray
    roots: np.ndarray
    base: np.ndarray
    rules: np.ndarray  # float64[len(RULE_FEATURES)]: :func:`cpstats.ofc.rule_features.rule_vector`

    @classmethod
    def of(cls, trees: Trees, rules: np.ndarray) -> StreetModel:
        return cls(*trees, np.ascontiguousarray(rules, dtype=np.float64))


class _Models(NamedTuple):
    trees: dict[str, Trees]
    record: dict[str, Any]
    digest: str


def _check(trees: Trees, deal: Deal) -> str | None:
    """What is wrong with one deal's arrays, or None: their types and shapes, values that are not
    finite or past :data:`MAX_MAGNITUDE`, and trees whose walk could leave the arrays or turn back."""
    n = trees.values.shape[0] if trees.values.ndim else 0
    streets = len(Variant(deal=deal).cards_dealt)
    for name in ("nodes", "roots"):
        if getattr(trees, name).dtype.kind not in "iu":
            return f"{deal} {name} are {getattr(trees, name).dtype}, not whole numbers"
    for name in ("values", "base"):
        if getattr(trees, name).dtype.kind not in "iuf":
            return f"{deal} {name} are {getattr(trees, name).dtype}, not numbers"
    if trees.nodes.ndim != 2 or trees.nodes.shape != (n, 2) or trees.values.ndim != 1:
        return f"{deal} nodes {trees.nodes.shape} and values {trees.values.shape} do not match"
    if trees.roots.ndim != 2 or trees.roots.shape[0] != streets or trees.base.shape != (streets,):
        return f"{deal} roots {trees.roots.shape} and base {trees.base.shape} are not {streets} streets"
    if not np.isfinite(trees.values).all() or np.isinf(trees.base).any():
        return f"{deal} values or base are not finite numbers"
    if max(np.abs(trees.values).max(initial=0), np.abs(np.nan_to_num(trees.base)).max(initial=0)) > MAX_MAGNITUDE:
        return f"{deal} values or base exceed {MAX_MAGNITUDE:.0e} in size (no feature or objective comes near)"
    feature, right = trees.nodes[:, 0], trees.nodes[:, 1]
    inner = np.flatnonzero(feature >= 0)
    if (trees.roots >= n).any() or (feature >= len(FEATURES)).any() or (right[inner] >= n).any() \
            or (inner + 1 >= n).any():
        return f"{deal} trees point past their {n} nodes or {len(FEATURES)} features"
    if (trees.roots < -1).any() or (feature < -1).any() or (right[inner] <= inner + 1).any():
        return f"{deal} trees point before their start (a walk would not reach a leaf)"
    if np.isnan(trees.base).all():
        return f"{deal} has no street with a model"
    return None


def _check_record(record: object) -> str | None:
    """What is wrong with the record's types (an object; its features a list; its trained ranges an
    object of ``[low, high]`` finite numbers, and of player counts by deal), or None."""
    if not isinstance(record, dict):
        return f"its 'record' is a JSON {type(record).__name__}, not an object"
    if not isinstance(record.get("features", []), list):
        return "its record's 'features' are not a list"
    ranges = record.get("ranges", {})
    if not isinstance(ranges, dict):
        return "its record's 'ranges' are not an object"
    for name, pair in ranges.items():
        if name == "players":
            ok = isinstance(pair, dict) and all(isinstance(c, list) and all(type(p) is int for p in c)
                                                for c in pair.values())
        else:
            ok = (isinstance(pair, list) and len(pair) == 2 and all(_is_number(x) for x in pair)
                  and pair[0] <= pair[1])
        if not ok:
            allowed = "player counts by deal" if name == "players" else "two finite numbers, low then high"
            return f"its record's range of {name!r} is not {allowed}"
    return None


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and bool(np.isfinite(x))


def read_models(path: Path | str) -> _Models:
    """Read and check a street-model file; any damage is one ``ValueError`` line saying what."""
    path = Path(path)
    data = path.read_bytes()
    if not data:
        raise ValueError("the file is empty")
    try:
        with np.load(path, allow_pickle=False) as f:
            arrays = {k: f[k] for k in f.files}
    except Exception as err:  # noqa: BLE001 - a truncated zip raises any of several errors
        raise ValueError(f"it does not read as a .npz file ({type(err).__name__}: {err})") from None
    if "record" not in arrays:
        raise ValueError("its 'record' is missing")
    try:
        record = json.loads(str(arrays["record"]))
    except ValueError as err:
        raise ValueError(f"its 'record' does not read as JSON ({err})") from None
    problem = _check_record(record)
    if problem:
        raise ValueError(problem)
    if list(record.get("features", ())) != list(FEATURES):
        raise ValueError("its trees read other features than this version's (made by another cpstats)")
    trees = {}
    for deal in Deal:
        names = [f"{deal}_{a}" for a in MODEL_ARRAYS]
        missing = [n for n in names if n not in arrays]
        if missing:
            raise ValueError(f"the arrays {', '.join(missing)} are missing")
        problem = _check(Trees(*(arrays[name] for name in names)), deal)
        if problem:
            raise ValueError(problem)
        trees[str(deal)] = Trees(arrays[names[0]].astype(np.int32), arrays[names[1]].astype(np.float64),
                                 arrays[names[2]].astype(np.int64), arrays[names[3]].astype(np.float64))
    return _Models(trees, record, hashlib.sha256(data).hexdigest()[:12])


@lru_cache(maxsize=4)
def _load(path: Path, stamp: int) -> _Models | None:
    try:
        return read_models(path)
    except (OSError, ValueError) as err:
        if str(path) not in _LOAD_FAILED:
            _LOAD_FAILED.add(str(path))
            warnings.warn(f"the open-face street models {str(path)!r} cannot be read ({err}): rollout and fast "
                          "play as rollout-exact until it is made again (reinstall cpstats, or cpstats train-ofc "
                          f"--street-values HANDS --out {shlex.quote(str(path))})", StreetModelWarning,
                          stacklevel=4)
        return None


def _models(path: Path | str | None) -> _Models | None:
    path = SHIPPED_PATH if path is None else Path(path)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return _load(path, -1)
    return _load(path, stamp)


def street_model(variant: Variant, path: Path | str | None = None) -> StreetModel | None:
    """The street models ``variant`` plays by (its deal's trees, its rule numbers) from ``path``
    (default :data:`SHIPPED_PATH`), None when the file cannot be read (with a
    :class:`StreetModelWarning`, once a file)."""
    models = _models(path)
    if models is None:
        return None
    return StreetModel.of(models.trees[str(variant.deal)], rule_vector(variant))


def models_record(path: Path | str | None = None) -> dict[str, Any] | None:
    """The record of the street-model file (None when it cannot be read)."""
    models = _models(path)
    return None if models is None else models.record


def model_identity(variant: Variant, path: Path | str | None = None) -> dict[str, Any]:
    """What a run records of the models it plays by: ``file`` (its name), ``digest`` (SHA-256, 12
    hex digits; ``none`` when it cannot be read), ``in_range`` and ``note`` (the one line of
    :func:`cpstats.ofc.rule_features.range_note` when the variant's rules lie outside the trained
    ranges, else None)."""
    models = _models(path)
    name = Path(SHIPPED_PATH if path is None else path).name
    if models is None:
        return {"file": name, "digest": "none", "in_range": None,
                "note": "street models none: rollout and fast play as rollout-exact"}
    note = range_note(variant, models.record.get("ranges", {}))
    return {"file": name, "digest": models.digest, "in_range": note is None, "note": note}


def models_line(identity: dict[str, Any]) -> str:
    """One line for a reader (the PAR sheet) from a run's ``metadata["street_models"]``
    (:func:`model_identity`): which models played and whether the rules lie in their trained ranges."""
    if identity.get("digest", "none") == "none":
        return f"No street models ({identity.get('file', SHIPPED_PATH.name)} cannot be read): played as rollout-exact."
    where = identity["note"] if identity.get("note") else "the rules lie inside its trained ranges"
    return (f"Street models {identity['digest']} ({identity['file']}), one file conditioned on the rules for "
            f"every variant: {where}.")
