"""Compiling the package's numba kernels once before the test workers start.

The kernels are ``@njit(cache=True)``: on a clean clone every process that calls one compiles it
(xdist's workers, each notebook's kernel, Voila's, the CLI's subprocesses) unless another has
written numba's cache first. The root conftest runs :func:`compile_kernels` in the xdist controller
(or the only process) before any worker starts: one subprocess a game, side by side, each playing
a few deals through every kernel its tests reach, so everything after loads the kernels from the
cache. A kernel the warm-up misses (another argument type, a rarely used path) still compiles where
it is first called, as it would without the warm-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The kernel modules (file stems) each game's warm-up compiles; the warm-up runs while one of them
#: has no up-to-date cache (:func:`cpstats.apps._warmup.needs_compiling`).
KERNELS = {
    "13-card": ("_bits", "_deal_kernel", "_rank_kernel", "_natural_kernel", "_settle_kernel", "_greedy_kernel",
                "_ev_kernel", "review", "_house_way_kernel"),
    "open-face": ("_board_kernel", "_place_kernel", "_place_exact", "_place_hindsight", "_value_kernel",
                  "_fantasy_kernel", "_train_kernel", "_stakes_kernel"),
}


def _thirteen() -> None:
    import cpstats

    hand = "As Ad Kc Kd Qh Qs Jc Jd 9h 7s 5c 4d 2h"
    for setter in ("greedy", "random", "ev"):
        cpstats.simulate("2-4", 60, setter=setter, rng=0, block_deals=30)
    cpstats.simulate("banked", 60, setter="greedy", rng=0, block_deals=30)  # the house way's bank
    cpstats.rank5(["As Ks Qs Js Ts"])
    cpstats.rank3(["As Ks Qs"])
    cpstats.natural_mask(hand)
    cpstats.legal_settings(hand)
    decision = cpstats.set_hand(hand, "2-4", setter="ev")
    cpstats.review(hand, decision.setting, "2-4")


def _open_face() -> None:
    import cpstats
    from cpstats.ofc.street_training import label_hands, off_policy_rows, self_play

    for setter in ("random", "greedy", "fast", "rollout"):
        cpstats.simulate("ofc-pineapple", 4, setter=setter, rng=0)
    cpstats.simulate("ofc-pineapple(button=rotate,match=round,stakes.buy_in=50)", 4, setter="random", rng=0)
    cpstats.play_hands("ofc-classic", 2, rng=0, strategies="rollout", samples=4)
    cpstats.fantasyland_table("ofc-pineapple", hands_per_size=2, batches=2, rng=0)
    play = self_play("ofc-pineapple", 1, 0)
    label_hands("ofc-pineapple", play)
    off_policy_rows("ofc-pineapple", play, play.discards.shape[2] - 2, None, 0)


WORKLOADS = {"13-card": _thirteen, "open-face": _open_face}


def needs_warming(package: Path) -> bool:
    """True when a kernel module of a warm-up has no up-to-date numba cache (file system only)."""
    from cpstats.apps._warmup import needs_compiling

    return needs_compiling(*(m for modules in KERNELS.values() for m in modules), package=package)


def compile_kernels(package: Path) -> float:
    """Run every game's warm-up in its own subprocess (side by side) on the cpstats in ``package``;
    return the seconds taken. A warm-up that fails is reported, never raised: the tests then
    compile as they go and say what is wrong themselves."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(package.parent), str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")])}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cpstats-warmup-") as cache:  # never the user's tables cache
        env["CPSTATS_CACHE_DIR"] = cache
        runs = {game: subprocess.Popen(
            [sys.executable, "-c", f"from helpers.warmup import WORKLOADS; WORKLOADS[{game!r}]()"],
            env=env, cwd=package.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for game in WORKLOADS}
        for game, run in runs.items():
            _, err = run.communicate()
            if run.returncode:
                print(f"numba warm-up of {game} failed (the tests compile as they go):\n{err[-2000:]}",
                      file=sys.stderr)
    return time.perf_counter() - start
