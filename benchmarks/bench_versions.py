"""Two versions of cpstats timed side by side: settlement, ev setting, greedy and ev simulation,
the open-face rollout and open-face simulation.

Run ``python benchmarks/bench_versions.py BEFORE [AFTER]`` (git refs; AFTER defaults to the working
tree). Each ref is checked out into a temporary folder; every case runs in a fresh interpreter
that imports that folder's copy, alternating before / after ``--rounds`` times so both see the same
machine load (this machine is shared and noisy), after one warm-up round that compiles the numba
kernels. Prints the median seconds of each case for both versions and the ratio after / before
(below 1 is faster).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Who sets the hands, in the keyword the version reads: setter= where it has it, else the
# strategy= it replaced (an older version's only one).
SETTER = """
import inspect
import cpstats
SETTER = "setter" if "setter" in inspect.signature(cpstats.simulate).parameters else "strategy"
"""

# The shared verb where it plays open face; a version from before it has only simulate_ofc.
OFC_SIMULATE = SETTER + """
try:
    is_open_face = cpstats.load_variant("ofc-pineapple").game == "open-face"
except Exception:
    is_open_face = False
simulate = cpstats.simulate if is_open_face else cpstats.simulate_ofc
SETTER = "setter" if "setter" in inspect.signature(simulate).parameters else "strategy"
"""

# Each case is timed inside the child interpreter after one untimed call (numba compiles there);
# the snippets use names both versions have.
CASES = {
    "settlement 200k deals": """
import numpy as np
from cpstats.cards import deal
from cpstats.settlement import settle_many
from cpstats.rules import load_variant
v = load_variant("2-4(royalties=R-FUTUREBET)")
hands = np.sort(deal(np.random.default_rng(1), 200_000, 4), axis=-1)
def run():
    settle_many(v, hands)
""",
    "ev setting 4k hands": """
import numpy as np
from cpstats.cards import deal
from cpstats.strategies import set_hands
hands = deal(np.random.default_rng(2), 1_000, 4).reshape(-1, 13)
def run():
    set_hands(hands, "2-4", strategy="ev")
""",
    "greedy simulate 100k": SETTER + """
def run():
    cpstats.simulate("2-4", 100_000, rng=3, **{SETTER: "greedy"})
""",
    "ev simulate 10k": SETTER + """
def run():
    cpstats.simulate("2-4", 10_000, rng=4, **{SETTER: "ev"})
""",
    "ofc rollout simulate 40 hands": OFC_SIMULATE + """
def run():
    simulate("ofc-pineapple", 40, rng=5)
""",
    "ofc greedy simulate 2k hands": OFC_SIMULATE + """
def run():
    simulate("ofc-pineapple", 2_000, rng=6, **{SETTER: "greedy"})
""",
}

CHILD = """
import json, sys, time
sys.path.insert(0, {src!r})
{case}
import cpstats
assert cpstats.__file__.startswith({src!r}), cpstats.__file__  # this tree's copy, not the installed one
run()
start = time.perf_counter()
run()
print(json.dumps(time.perf_counter() - start))
"""


def checkout(ref: str | None, into: Path) -> Path:
    """The tree of ``ref`` (or the working tree, ``None``) as a folder holding ``cpstats/``."""
    if ref is None:
        return ROOT
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "cpstats"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def time_case(src: Path, case: str) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD.format(src=str(src), case=case)], cwd=src,
                         capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("before")
    parser.add_argument("after", nargs="?")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    args = parser.parse_args()
    cases = {k: c for k, c in CASES.items() if not args.only or args.only in k}
    with tempfile.TemporaryDirectory() as tmp:
        trees = [checkout(args.before, Path(tmp) / "before"), checkout(args.after, Path(tmp) / "after")]
        print(f"{'case':32} {'before s':>9} {'after s':>9} {'ratio':>6}")
        for name, case in cases.items():
            for tree in trees:  # warm-up: compiles and caches the kernels of each tree
                time_case(tree, case)
            times = [[], []]
            for _ in range(args.rounds):
                for i, tree in enumerate(trees):
                    times[i].append(time_case(tree, case))
            before, after = (statistics.median(t) for t in times)
            print(f"{name:32} {before:9.3f} {after:9.3f} {after / before:6.2f}", flush=True)


if __name__ == "__main__":
    main()
