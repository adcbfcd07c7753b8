"""Adding a game is a folder: a toy third game defined here only (a few lines of rules, a block
function, a summary and a result) registers itself and plays through simulate, compare, sweep,
figures() and solve with no edit of shared code (docs/architecture.md, "Adding a game").

The toy: each of two seats draws a card (0 to 12); the higher wins one unit from the other, and
``bonus`` more when it wins with an ace (12); ties push. Its figures have exact values, so the
verbs' numbers are checked against them within 5 standard errors.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest

import cpstats
from cpstats.cards.blocks import block_seed
from cpstats.errors import OptionError
from cpstats.engine.registry import Game, game_of, load_variant, register_game, unregister_game
from cpstats.engine.setter import Setter
from cpstats.engine.additive import Additive, summed
from cpstats.engine.base import FigureBatches, Result
from cpstats.engine.batches import batch_of, by_batch
from cpstats.engine.defaults import block_run
from cpstats.engine.files import load_result, save_result
from cpstats.engine.games import GameRuns, RunSizes
from cpstats.engine.paired import half_width
from cpstats.engine.runner import BlockOutput

TOY = "toy"


# -- the rules: a frozen dataclass and its string ------------------------------------------------

@dataclass(frozen=True)
class ToyVariant:
    game: ClassVar[str] = TOY
    name: str = "toy-cards"
    players: int = 2
    bonus: float = 1.0

    def __post_init__(self) -> None:
        if self.players != 2 or not 0 <= self.bonus <= 10:
            raise OptionError(f"players={self.players}, bonus={self.bonus} is invalid: 2 players, bonus 0 to 10")

    def __str__(self) -> str:
        return self.name if self.bonus == 1.0 else f"{self.name}(bonus={self.bonus:g})"

    def replace(self, **changes) -> ToyVariant:
        return dataclasses.replace(self, **{k: float(x) if k == "bonus" else x for k, x in changes.items()})

    def to_dict(self) -> dict:
        return {"name": self.name, "players": self.players, "bonus": self.bonus}


def parse_toy(text: str) -> ToyVariant:
    name, _, body = text.partition("(")
    pairs = dict(item.split("=") for item in body.rstrip(")").split(",") if item)
    if set(pairs) - {"bonus"}:
        raise OptionError(f"unknown option in {text!r}: the toy game's only key is bonus")
    return ToyVariant(name.strip(), bonus=float(pairs.get("bonus", 1.0)))


# -- the setter, the block function, the summary and the result ------------------------------------

@dataclass(frozen=True)
class ToyDraw(Setter):
    """No decision to take: the cards play themselves."""

    name: ClassVar[str] = "random"
    game: ClassVar[str] = TOY


@dataclass(frozen=True)
class ToySummary(Additive):
    deals: np.ndarray = summed("deals")  # ()
    batch_sizes: np.ndarray = summed("batch_sizes")  # (B,)
    net_by_batch: np.ndarray = summed("batch_net")  # (B, 2)
    pay_by_batch: np.ndarray = summed("batch_pay")  # (B,) units changing hands
    aces_by_batch: np.ndarray = summed("batch_aces")  # (B,) deals won with an ace


def play(spec, block: int, size: int) -> BlockOutput:
    v = parse_toy(spec.variant)
    cards = np.random.default_rng(block_seed(spec.root(), block)).integers(0, 13, size=(size, 2))
    win = np.sign(cards[:, 0] - cards[:, 1])
    ace = (cards.max(axis=1) == 12) & (win != 0)
    net0 = win * (1 + v.bonus * ace)
    net = np.stack([net0, -net0], axis=1).astype(float)
    batch = batch_of(block * spec.block_deals, size, spec.deals, spec.batches)
    summary = ToySummary(np.array(size), np.bincount(batch, minlength=spec.batches), by_batch(net, batch, spec.batches),
                         by_batch(np.abs(net0).astype(float), batch, spec.batches),
                         by_batch(ace.astype(float), batch, spec.batches))
    kept = pd.DataFrame({"deal": np.arange(size) + block * spec.block_deals, "net": net0}) if spec.keep_hands else None
    return BlockOutput(summary, None, kept)


@dataclass
class ToyResult(Result):
    variant: ToyVariant
    summary: ToySummary
    metadata: dict
    kept: list | None = None
    out: object = None

    def figure_batches(self, confidence: float = 0.95) -> dict[str, FigureBatches]:
        s, out = self.summary, {}
        for name, sums in (("mean_seat0", s.net_by_batch[:, 0]), ("pay_per_deal", s.pay_by_batch),
                           ("ace_rate", s.aces_by_batch)):
            batches = sums / s.batch_sizes
            estimate, half = float(sums.sum() / s.batch_sizes.sum()), half_width(batches, confidence)
            out[name] = FigureBatches(estimate, estimate - half, estimate + half, batches, "batch t")
        return out

    def rows(self) -> pd.DataFrame:
        if not self.kept:
            raise OptionError("rows are not kept: run simulate(..., keep_hands=True)")
        return pd.concat(self.kept, ignore_index=True)

    def distribution(self) -> pd.DataFrame:
        net = self.rows()["net"]
        return net.value_counts().sort_index().rename("seat_0").rename_axis("net").reset_index()


def toy_setter(setter, v, *, tables=None) -> ToyDraw:
    if tables is not None or (setter not in ("ev", "random") and not isinstance(setter, ToyDraw)):
        raise OptionError(f"setter={setter!r} is invalid for the toy game: random (or ev, the same)")
    return ToyDraw()


GAME = Game(name=TOY, variant_type=ToyVariant, parse=parse_toy, presets={"toy-cards": "high card, ace bonus"},
            get_preset=lambda name: parse_toy(name), keys=("bonus",),
            key_of=lambda name: SimpleNamespace(name=name, path=(name,)), key_name=lambda p: str(p).strip(),
            describe_rules=lambda v: [("bonus", f"an ace wins {v.bonus:g} more")],
            short_label=lambda v, max_parts=4: str(v), unit="deals", default_preset="toy-cards",
            runs=GameRuns(simulate=block_run(play, ToySummary, ToyResult, block_deals=500, dealer="toy"),
                          setter=toy_setter, summary=ToySummary, result=ToyResult,
                          sizes=RunSizes(solve=3_000, pilot=1_000, probe=30, least=2)))


@pytest.fixture(scope="module", autouse=True)
def toy_game():
    register_game(GAME)
    yield GAME
    unregister_game(TOY)


# -- exact values ----------------------------------------------------------------------------------

P_WIN = 78 / 169  # seat 0's card higher (78 of the 169 pairs of cards)
P_ACE_WIN = 12 / 169  # the higher card is an ace: an ace against any of the 12 lower cards, either seat


def pay_per_deal(bonus: float) -> float:
    return 2 * P_WIN + bonus * 2 * P_ACE_WIN


def test_the_toy_loads_by_its_string_and_is_in_every_listing():
    v = load_variant("toy-cards(bonus=2)")
    assert isinstance(v, ToyVariant) and v.bonus == 2.0 and game_of(v) is GAME
    assert load_variant(str(v)) == v
    assert "toy-cards" in set(cpstats.presets()["name"])
    assert cpstats.describe(v).splitlines()[1].startswith("bonus:")


def test_simulate_gives_the_toys_exact_figures_within_their_intervals():
    r = cpstats.simulate("toy-cards(bonus=2)", 6_000, rng=1)
    table = r.figures().set_index("metric")
    assert list(table.columns[:4]) == ["estimate", "ci_low", "ci_high", "method"]
    pay = table.loc["pay_per_deal"]
    se = (pay["ci_high"] - pay["ci_low"]) / 2 / 2.045  # the t half-width over its quantile (30 batches)
    assert abs(pay["estimate"] - pay_per_deal(2.0)) < 5 * se  # 5 standard errors: fails 1 in 1.7 million
    assert r.metadata["run_digest"] and r.deals == 6_000 and r.batches == 30


def test_the_toys_runs_are_the_same_serial_in_threads_and_resumed(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    serial = cpstats.simulate("toy-cards", 2_000, rng=2, block_deals=300)
    with ThreadPoolExecutor(2) as pool:
        threaded = cpstats.simulate("toy-cards", 2_000, rng=2, block_deals=300, executor=pool)
    pd.testing.assert_frame_equal(serial.figures(), threaded.figures())
    first = cpstats.simulate("toy-cards", 2_000, rng=2, block_deals=300, out=tmp_path)
    again = cpstats.simulate("toy-cards", 2_000, rng=2, block_deals=300, out=tmp_path, resume=True)
    assert again.metadata["blocks_redone"] == 0
    pd.testing.assert_frame_equal(first.figures(), again.figures())
    pd.testing.assert_frame_equal(first.figures(), serial.figures())
    saved = save_result(first, tmp_path / "saved")
    pd.testing.assert_frame_equal(load_result(saved).figures(), serial.figures())
    kept = cpstats.simulate("toy-cards", 600, rng=2, keep_hands=True)
    assert len(kept.rows()) == 600 and kept.distribution()["seat_0"].sum() == 600


def test_compare_pairs_the_toys_variants_on_common_deals():
    table = cpstats.compare(["toy-cards", "toy-cards(bonus=3)"], 3_000, rng=3)
    pay = table.set_index(["run", "metric"]).loc[(1, "pay_per_deal")]
    assert pay["diff"] == pytest.approx(2 * (pay_per_deal(3) - pay_per_deal(1)) / 2, abs=0.05)
    assert pay["diff_ci_low"] > 0  # the bonus pays more on the same deals
    same = table.set_index(["run", "metric"]).loc[(1, "mean_seat0")]
    assert same["diff"] == pytest.approx(same["estimate"] - table.set_index(["run", "metric"]).loc[(0, "mean_seat0"), "estimate"])


def test_sweep_walks_the_toys_parameter_on_common_deals():
    table = cpstats.sweep("toy-cards", "bonus", [0, 1, 2], deals=2_000, rng=4, metrics=["pay_per_deal"])
    assert table["value"].tolist() == [0, 1, 2] and table.attrs["unit"] == "deals"
    diffs = table["diff"].to_numpy()
    assert diffs[0] == 0 and np.all(np.diff(diffs) > 0)
    # on common deals the figure is exactly linear in the bonus: the aces won are the same deals
    assert diffs[2] == pytest.approx(2 * diffs[1])
    with pytest.raises(OptionError, match="bonus=1.0 is given twice|the same rules"):
        cpstats.sweep("toy-cards", "bonus", [1, 1.0], deals=100, rng=4)


def test_solve_finds_the_bonus_for_a_target_pay():
    target = pay_per_deal(2.5)
    s = cpstats.solve("toy-cards", "bonus", "pay_per_deal", target, bounds=(0.0, 5.0), deals=4_000, rng=5)
    assert s.ci_low <= s.value <= s.ci_high
    width = s.ci_high - s.ci_low  # about 4 standard errors of the answer: the truth lies inside
    assert s.ci_low - width < 2.5 < s.ci_high + width  # the widened band (fails 1 in ~10^8)
    assert s.method.startswith(("linear on common deals", "Brent's method on common deals"))
    assert s.unit == "deals" and "common deals" in s.sentence()


def test_the_toy_has_no_skill_table_and_says_so():
    with pytest.raises(OptionError, match="the toy game has no skill table"):
        cpstats.skill("toy-cards", deals=10)
    with pytest.raises(OptionError, match="setter='greedy' is invalid for the toy game"):
        cpstats.simulate("toy-cards", 10, setter="greedy")
