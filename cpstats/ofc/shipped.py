"""Shipped open-face reference results: finished :func:`~cpstats.ofc.simulation.simulate`
runs in the package data (``cpstats/data/reference/ofc``), so notebooks and the dashboard open
at once.

Each run is stored as the 13-card references are (:func:`cpstats.engine.files.save_result`:
``NAME.npz`` holds the block summaries, ``NAME.json`` the metadata, with the command that made
it), plus ``NAME-nets.npz``, every hand's net per seat (int16), from which any rake is charged
again exactly (:func:`rerake`).

- Decision: the runs are the three presets and four Pineapple sensitivity runs
  (:data:`OFC_REFERENCE_RUNS`), all with the ``rollout`` strategy, the CLI's seed
  (:data:`REFERENCE_SEED`) and the same hand count: the sensitivity runs share the Pineapple
  preset's decks, so :func:`ofc_sensitivity` pairs them as :func:`cpstats.compare` would.
- Decision: rake never moves play (the placement objective has no rake) nor the nets, so a
  variant that differs from a shipped run only in its rake is that run charged again
  (:func:`find_ofc_reference`); every other rule moves play and needs a live run.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from concurrent.futures import Executor
from pathlib import Path

import numpy as np
import pandas as pd

from cpstats._resources import REFERENCE_DIR
from cpstats.errors import OptionError
from cpstats.ofc.result import SimulationResult, SimulationSummary, paired_figures
from cpstats.ofc.rules import Variant, parse_ofc_variant, resolve_ofc_variant
from cpstats.ofc.simulation import simulate
from cpstats.rules.check import suggest
from cpstats.rules.house import Rake
from cpstats.engine.files import save_result

__all__ = ["OFC_REFERENCE_DIR", "OFC_REFERENCE_RUNS", "SENSITIVITY_RUNS", "REFERENCE_SEED",
           "REFERENCE_STRATEGY", "FULL_HANDS", "load_shipped", "write_ofc_reference",
           "find_ofc_reference", "rerake", "ofc_sensitivity"]

OFC_REFERENCE_DIR = REFERENCE_DIR / "ofc"
REFERENCE_SEED = 2026  # the CLI's default seed
REFERENCE_STRATEGY = "rollout"
FULL_HANDS = 20_000  # hands a run for the release (the checkout may ship fewer: see metadata)
_MIDDLE_AS_BACK = ",".join(f"royalties.middle.{c}={x}" for c, x in zip(
    ("three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush",
     "royal_flush"), (0, 2, 4, 6, 10, 15, 25)))

#: Every shipped run: name -> variant string. The presets, then the Pineapple sensitivity runs.
OFC_REFERENCE_RUNS = {
    "ofc-classic": "ofc-classic",
    "ofc-pineapple": "ofc-pineapple",
    "ofc-pineapple-progressive": "ofc-pineapple-progressive",
    "pineapple-stay-a": "ofc-pineapple(fantasyland.stay=A)",
    "pineapple-no-stay": "ofc-pineapple(fantasyland.stay=none)",
    "pineapple-no-fantasyland": "ofc-pineapple(fantasyland.cards=0/0/0/0)",
    "pineapple-middle-as-back": f"ofc-pineapple({_MIDDLE_AS_BACK})",
}
#: The paired sensitivity comparison (on the Pineapple preset's decks): name -> label.
SENSITIVITY_RUNS = {
    "ofc-pineapple": "Pineapple (stay B)",
    "pineapple-stay-a": "stay A (adds full house+ middle)",
    "pineapple-no-stay": "no stay",
    "pineapple-no-fantasyland": "no Fantasyland",
    "pineapple-middle-as-back": "middle royalties as the back's",
}


def _check_name(name: str) -> str:
    key = str(name).strip().lower()
    if key not in OFC_REFERENCE_RUNS:
        raise OptionError(f"name={name!r} is invalid: no shipped OFC run of that name"
                          f"{suggest(key, OFC_REFERENCE_RUNS)}; runs: {', '.join(OFC_REFERENCE_RUNS)}")
    return key


def load_shipped(name: str, *, rake: Rake | None = None,
                 folder: str | os.PathLike | None = None) -> SimulationResult:
    """The shipped run ``name`` (a key of :data:`OFC_REFERENCE_RUNS`) as an
    :class:`~cpstats.ofc.result.SimulationResult`; with ``rake``, charged that rake (:func:`rerake`).
    :func:`cpstats.load_reference` opens these runs (and the 13-card ones).

    Examples
    --------
    >>> r = load_shipped("ofc-pineapple")
    >>> str(r.variant), r.metadata["strategy"]
    ('ofc-pineapple', 'rollout/rollout')
    """
    key = _check_name(name)
    path = Path(folder or OFC_REFERENCE_DIR) / f"{key}.npz"
    if not path.exists():
        raise OptionError(f"no shipped OFC run at {str(path)!r}: write it with write_ofc_reference")
    meta = json.loads(path.with_suffix(".json").read_text())
    with np.load(path, allow_pickle=False) as data:
        summary = SimulationSummary.from_arrays({k: data[k] for k in data.files})
    result = SimulationResult(parse_ofc_variant(meta["variant"]), summary, meta)
    return result if rake is None else rerake(result, rake, folder=folder)


def _key_of(v: Variant) -> str | None:
    """The shipped run playing ``v``'s rules, its rake and label aside; None if there is none."""
    for key, text in OFC_REFERENCE_RUNS.items():
        shipped = parse_ofc_variant(text)
        if shipped == dataclasses.replace(v, rake=Rake(), name=shipped.name):
            return key
    return None


def _nets(name: str, folder: str | os.PathLike | None) -> np.ndarray:
    with np.load(Path(folder or OFC_REFERENCE_DIR) / f"{name}-nets.npz", allow_pickle=False) as data:
        return data["net"].astype(np.int64)


def rerake(result: SimulationResult, rake: Rake, *, folder: str | os.PathLike | None = None) -> SimulationResult:
    """A shipped run charged ``rake`` instead of its own: exact, from every hand's nets
    (``NAME-nets.npz``), as :func:`~cpstats.ofc.settlement.seat_rake` charges a live run."""
    if not isinstance(rake, Rake):
        raise OptionError(f"rake={rake!r} is invalid: a cpstats.rules.house.Rake")
    key = _key_of(result.variant)
    if key is None:
        raise OptionError(f"variant={str(result.variant)!r} is not a shipped OFC run: no nets to "
                          "charge a rake on")
    v = dataclasses.replace(result.variant, rake=rake)
    return result.charged(v, _nets(key, folder), rake_charged="again, from the shipped nets")


def find_ofc_reference(variant: Variant | str, strategy: str = REFERENCE_STRATEGY, *,
                       folder: str | os.PathLike | None = None) -> SimulationResult | None:
    """The shipped run that plays ``variant``'s rules with ``strategy`` at every seat, charged
    ``variant``'s rake (rake never moves play); None when no shipped run fits."""
    v = resolve_ofc_variant(variant)
    key = _key_of(v)
    if key is None:
        return None
    try:
        result = load_shipped(key, folder=folder)
    except OptionError:
        return None
    if result.metadata.get("strategy") != "/".join([strategy] * v.players):
        return None
    return result if v.rake == Rake() else rerake(result, v.rake, folder=folder)


def ofc_sensitivity(confidence: float = 0.95, *, hands_per_hour: float | None = None,
                    folder: str | os.PathLike | None = None) -> pd.DataFrame:
    """The paired comparison of the shipped Pineapple sensitivity runs (:data:`SENSITIVITY_RUNS`,
    on common decks): :func:`~cpstats.ofc.result.paired_figures`' table, differences to stay B."""
    results = [load_shipped(k, folder=folder) for k in SENSITIVITY_RUNS]
    same = {(r.metadata["entropy"], r.metadata["deals"], r.metadata["block_deals"]) for r in results}
    if len(same) != 1:
        raise OptionError("the shipped sensitivity runs were not played on common decks: "
                          "write them again together with write_ofc_reference")
    return paired_figures(results, list(SENSITIVITY_RUNS.values()), confidence, hands_per_hour)


def write_ofc_reference(folder: str | os.PathLike | None = None, hands: int = FULL_HANDS, *,
                        names=None, rng: int = REFERENCE_SEED, strategy: str = REFERENCE_STRATEGY,
                        executor: Executor | None = None, progress: bool = False) -> list[Path]:
    """Play and store the shipped runs (``names``, default all of :data:`OFC_REFERENCE_RUNS`)
    into ``folder`` (default the package data folder); returns the ``.npz`` paths.

    The metadata's ``command`` says how to make the run again.
    """
    out = Path(folder or OFC_REFERENCE_DIR)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names or OFC_REFERENCE_RUNS:
        key = _check_name(name)
        with tempfile.TemporaryDirectory(prefix="ofc-reference-") as tmp:
            result = simulate(OFC_REFERENCE_RUNS[key], hands, setter=strategy, rng=rng,
                              executor=executor, out=tmp, keep_hands=True, progress=progress)
            rows = result.rows().sort_values(["hand", "seat"])
            net = rows["net"].to_numpy().reshape(result.deals, result.variant.players)
        result.out = None
        result.metadata["command"] = (f"python -c \"from cpstats.ofc.shipped import write_ofc_reference; "
                                      f"write_ofc_reference(hands={hands}, names=[{key!r}], "
                                      f"rng={rng}, strategy={strategy!r})\"")
        paths.append(save_result(result, out / key))
        with open(out / f"{key}-nets.npz", "wb") as fh:
            np.savez_compressed(fh, net=net.astype(np.int16))
    return paths
