"""Same numbers before and after a restructuring: record the result frames of a dozen small runs of
both games through the public top-level API only, and check a later checkout against them.

    python benchmarks/same_numbers.py record DIR   # run them, write DIR/NAME.pkl and DIR/digests.json
    python benchmarks/same_numbers.py check DIR    # run them again, compare, exit 1 on any difference

Each run is a small function returning a DataFrame or a dict of DataFrames; every run names its
setter and seed. Frames are compared as returned (no sorting) with
``pandas.testing.assert_frame_equal(check_exact=True)``; ``attrs`` are neither pickled nor
compared (they may hold objects of cpstats' own modules, whose import paths move), so a recording
made before a move still loads after it. ``digests.json`` holds the
identity of every shipped reference run (``load_reference(name).metadata``: run digest, the
13-card row tables' fingerprint, the open-face street models' digest), compared as equal dicts.

About 2 minutes on 2 cores. 13-card ``ev`` runs only play variants whose tables are shipped (a
rake moves no setting), so nothing is trained and no cache is written.
"""

from __future__ import annotations

import json
import pickle
import sys
import time
from pathlib import Path

import pandas as pd

import cpstats

OFC_SENSITIVITY_RUNS = ["pineapple-stay-a", "pineapple-no-stay", "pineapple-no-fantasyland",
                        "pineapple-middle-as-back"]  # shipped open-face runs that are no preset


def thirteen_tables(result) -> dict[str, pd.DataFrame]:
    return {"figures": result.figures(), **result.tables()}


def ofc_tables(result) -> dict[str, pd.DataFrame]:
    return {"figures": result.figures(), "entry_cards": result.entry_cards(),
            "distribution": result.distribution()}


def par_tables(sheet) -> dict[str, pd.DataFrame]:
    """The sheet's tables and sweeps, without the rows naming package versions (the Python and
    library versions of whoever runs the check, not numbers of the package)."""
    tables = {k: f[~f["item"].str.startswith("Versions")] if k == "methodology" else f
              for k, f in sheet.tables.items()}
    return {**tables, **{f"sweep {k}": f for k, f in sheet.sweeps.items()}}


RUNS = {
    # 13-card
    "2-4 ev": lambda: thirteen_tables(cpstats.simulate("2-4", 20_000, setter="ev", rng=1)),
    "2-4 rake ev": lambda: thirteen_tables(cpstats.simulate(
        "2-4(rake=percent,rake.percent=0.05,rake.cap=3)", 20_000, setter="ev", rng=2)),
    "banked ev": lambda: thirteen_tables(cpstats.simulate("banked", 20_000, setter="ev", rng=3)),
    "2-4 greedy 3 seats": lambda: thirteen_tables(
        cpstats.simulate("2-4", 20_000, players=3, setter="greedy", rng=4)),
    "compare 2-4 1-6 ev tidy": lambda: cpstats.compare(["2-4", "1-6"], 10_000, setter="ev", rng=5,
                                                       tidy=True),
    "compare 2-4 scoop greedy": lambda: cpstats.compare(
        ["2-4", "2-4(scoring.scoop_bonus=3)"], 10_000, setter="greedy", rng=6),
    "sweep front trips greedy": lambda: cpstats.sweep("2-4", "royalties.front_trips", [0, 3, 6],
                                                      deals=10_000, setter="greedy", rng=7),
    "skill 2-4": lambda: cpstats.skill("2-4", deals=2_000, rng=8, setter="ev"),
    "par 2-4": lambda: par_tables(cpstats.par_sheet(
        "2-4", deals=20_000, rng=9, setter="ev", sensitivity={"players": [4, 3]},
        sensitivity_deals=5_000)),
    # open face
    "ofc-pineapple fast": lambda: ofc_tables(cpstats.simulate("ofc-pineapple", 3_000, setter="fast", rng=1)),
    "compare ofc fast": lambda: cpstats.compare(["ofc-pineapple", "ofc-pineapple-progressive"], 2_000,
                                                setter="fast", rng=2),
    "sweep front QQ fast": lambda: cpstats.sweep("ofc-pineapple", "royalties.front.QQ", [7, 9],
                                                 deals=2_000, setter="fast", rng=1),
    "par ofc-pineapple": lambda: par_tables(cpstats.par_sheet(
        "ofc-pineapple", deals=2_000, rng=3, setter="fast", sensitivity=False)),
}


def shipped_digests() -> dict[str, dict]:
    """The identity of every shipped reference run, by name."""
    out = {}
    for name in [*cpstats.presets()["name"], *OFC_SENSITIVITY_RUNS]:
        meta = cpstats.load_reference(name).metadata
        out[name] = {"run_digest": meta["run_digest"],
                     "tables": (meta.get("tables") or {}).get("sha256"),
                     "street_models": (meta.get("street_models") or {}).get("digest"),
                     "deals": meta["deals"], "entropy": meta["entropy"]}
    return out


def frames_of(value) -> dict[str, pd.DataFrame]:
    frames = value if isinstance(value, dict) else {"": value}
    for frame in frames.values():
        frame.attrs = {}
    return frames


def first_cell(old: pd.DataFrame, new: pd.DataFrame) -> str | None:
    """The first cell whose value differs, column by column, when both frames have one shape."""
    if old.shape != new.shape or list(old.columns) != list(new.columns):
        return None
    for i, column in enumerate(old.columns):
        a, b = old.iloc[:, i], new.iloc[:, i]
        differs = (a.to_numpy() != b.to_numpy()) & ~(a.isna().to_numpy() & b.isna().to_numpy())
        if differs.any():
            row = differs.argmax()
            return f"row {old.index[row]!r}, column {column!r}: {a.iloc[row]!r} -> {b.iloc[row]!r}"
    return None


def first_difference(old: dict[str, pd.DataFrame], new: dict[str, pd.DataFrame]) -> str | None:
    if list(old) != list(new):
        return f"tables {list(old)} -> {list(new)}"
    for key in old:
        try:
            pd.testing.assert_frame_equal(old[key], new[key], check_exact=True)
        except AssertionError as e:
            return f"{key or 'frame'}: {first_cell(old[key], new[key]) or ' '.join(str(e).split())[:300]}"
    return None


def main(mode: str, folder: str) -> int:
    folder = Path(folder)
    print(f"cpstats {cpstats.__version__} from {Path(cpstats.__file__).parent}")
    failed = False
    if mode == "record":
        folder.mkdir(parents=True, exist_ok=True)
    for name, run in RUNS.items():
        path = folder / f"{name.replace(' ', '_')}.pkl"
        start = time.perf_counter()
        if mode == "record":
            path.write_bytes(pickle.dumps(frames_of(run())))
            print(f"{name:28s} recorded  {time.perf_counter() - start:5.1f} s")
            continue
        try:  # a run that no longer runs is a difference too, and the others still get checked
            diff = first_difference(pickle.loads(path.read_bytes()), frames_of(run()))
        except Exception as e:
            diff = f"raised {type(e).__name__}: {e}"
        seconds = time.perf_counter() - start
        failed |= diff is not None
        print(f"{name:28s} {'same' if diff is None else 'DIFFERENT: first difference ' + diff}  {seconds:5.1f} s")
    path = folder / "digests.json"
    if mode == "record":
        path.write_text(json.dumps(shipped_digests(), indent=1) + "\n")
        print(f"{'shipped digests':28s} recorded")
        return 0
    try:
        old, new = json.loads(path.read_text()), shipped_digests()
        diff = next((f"{k}: {old.get(k)} != {new.get(k)}" for k in sorted({*old, *new})
                     if old.get(k) != new.get(k)), None)
    except Exception as e:
        diff = f"raised {type(e).__name__}: {e}"
    failed |= diff is not None
    print(f"{'shipped digests':28s} {'same' if diff is None else 'DIFFERENT: first difference ' + diff}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "check"):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
