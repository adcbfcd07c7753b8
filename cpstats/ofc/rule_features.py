"""The rules the default ``rollout``'s street models are conditioned on, and the rule draws they are trained over.

One set of street models plays every variant (:mod:`cpstats.ofc.street_values`): beside a
board's features, each row the models read holds the numbers of the rules that move play
(:data:`RULE_FEATURES`, :func:`rule_vector`): the value of a Fantasyland entry the play is told
for each front that enters (:func:`cpstats.ofc.entry_value.default_entry_values`, which carries
the entry threshold, the cards dealt, progressive or not, the stay rule and its cards), the front
royalties of the fronts that matter most, the middle's and back's royalties of the hands a row
is built towards, the value of a foul and of a scoop (scoring and the foul penalty) and the
number of players. The deal (classic or Pineapple) is not a feature: each deal has its own
models in the one file, since its streets differ.

The training distribution (:func:`draw_variant`, :func:`training_variants`): the shipped runs'
variants (:data:`ANCHORS`, the presets among them) and rule draws around the presets, each a
preset with its royalties scaled and jittered, its Fantasyland threshold, cards, stay rule and
stay cards redrawn, its scoop and row points redrawn, and 2 to 4 players, as
:func:`draw_variant` says in numbers. The trained ranges are the span of each rule feature over
the variants trained (recorded in the model file); :func:`range_note` names the rule numbers of
a variant that lie outside them, and the variant still plays (the trees extend their outermost
leaves).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from cpstats.ofc import _place_kernel as _pk
from cpstats.ofc._value_kernel import RULE_FEATURES
from cpstats.ofc.rules import (FantasylandRules, Deal, Royalties, Scoring, Variant, StayRule,
                                     get_preset, parse_ofc_variant)

__all__ = ["RULE_FEATURES", "RULE_WORDS", "rule_vector", "draw_variant", "training_variants", "ANCHORS",
           "trained_ranges", "range_note"]

#: Each rule feature in words, for the line that says a variant lies outside the trained ranges.
RULE_WORDS = {"entry_qq": "entry value told for a QQ front", "entry_kk": "entry value told for a KK front",
              "entry_aa": "entry value told for an AA front", "entry_trips": "entry value told for trips in front",
              "front_qq": "royalties.front.QQ", "front_kk": "royalties.front.KK", "front_aa": "royalties.front.AA",
              "front_low_pairs": "mean of royalties.front.66..JJ", "front_trips": "mean front trips royalty",
              "foul": "foul value (row and scoop points)", "scoop": "scoop value (scoring.scoop)",
              "players": "players"}
for _row in ("middle", "back"):
    for _hand in ("trips", "straight", "flush", "full_house", "quads", "straight_flush"):
        RULE_WORDS[f"{_row}_{_hand}"] = f"royalties.{_row}.{_hand}"
N_RULES = len(RULE_FEATURES)
_FIVE = {"trips": 3, "straight": 4, "flush": 5, "full_house": 6, "quads": 7, "straight_flush": 8}

#: The variants trained with more hands: the shipped runs' (the presets first).
ANCHORS = ("ofc-pineapple", "ofc-pineapple-progressive", "ofc-classic", "ofc-pineapple(fantasyland.stay=A)",
           "ofc-pineapple(fantasyland.stay=none)", "ofc-pineapple(fantasyland.cards=0/0/0/0)",
           "ofc-pineapple(royalties.middle.three_of_a_kind=0,royalties.middle.straight=2,royalties.middle.flush=4,"
           "royalties.middle.full_house=6,royalties.middle.four_of_a_kind=10,royalties.middle.straight_flush=15,"
           "royalties.middle.royal_flush=25)")


def rule_vector(variant: Variant) -> np.ndarray:
    """float64[N_RULES]: the :data:`RULE_FEATURES` of ``variant`` (cached per variant; a rake
    never enters, so it never moves the play)."""
    return _rule_vector(variant)


@lru_cache(maxsize=64)
def _rule_vector(v: Variant) -> np.ndarray:
    from cpstats.ofc.entry_value import default_entry_values, rollout_args

    entry = default_entry_values(v)
    cards = v.fantasyland.cards
    r = v.royalties
    prm = rollout_args(v).prm
    out = [entry[n] if n else 0.0 for n in cards]
    out += [r.front_pairs[10], r.front_pairs[11], r.front_pairs[12], np.mean(r.front_pairs[4:10]),
            np.mean(r.front_trips)]
    for row in (r.middle, r.back):
        out += [row[i] for i in _FIVE.values()]
    out += [prm[_pk.FOUL], prm[_pk.SCOOP], v.players]
    vec = np.array(out, dtype=np.float64)
    vec.setflags(write=False)
    return vec


# -- the training distribution ----------------------------------------------------------------

def _monotone(values: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in np.maximum.accumulate(np.maximum(np.rint(values), 0)))


def _scaled(gen: np.random.Generator, standard: tuple[int, ...], keep: float, lo: float, hi: float,
            jitter: float) -> tuple[int, ...]:
    """``standard``, or (with probability ``1 - keep``) scaled by a draw in ``lo..hi``, each entry
    also scaled by 0.8..1.25 and moved by one unit with probability ``jitter``; never decreasing."""
    base = np.asarray(standard, dtype=float)
    if gen.random() < keep:
        return tuple(standard)
    scale = gen.uniform(lo, hi) * gen.uniform(0.8, 1.25, size=base.size)
    moved = np.where(gen.random(base.size) < jitter, gen.integers(-1, 2, size=base.size), 0)
    return _monotone(np.where(base > 0, base * scale + moved, 0.0))


def draw_variant(gen: np.random.Generator) -> Variant:
    """One rule draw around the presets (module docstring), from ``gen``:

    - deal: classic with probability 0.25 (players 2, 3, 4 at 0.6, 0.25, 0.15), else Pineapple
      (players 2, 3 at 0.75, 0.25), from the Pineapple or the progressive preset (even odds);
    - royalties: each row's schedule kept with probability 0.5 (front pairs, middle) or 0.6
      (front trips, back), else scaled by 0.5..1.6 (pairs), 0.5..1.5 (others), each entry by
      0.8..1.25 more and moved one unit with probability 0.3, never decreasing; a middle paying
      the back's schedule with probability 0.1;
    - Fantasyland: entry from QQ (0.75), KK (0.12), AA (0.05), or none (0.08); cards the preset's
      (0.55), flat 14 (0.15; 13 in classic), progressive 14/15/16/17 (0.15) or four sorted draws of
      13..17; stay B, A or none (0.45, 0.35, 0.2), stay cards the preset's (0.7) or 13..17;
    - scoring: scoop 3 (0.6) or 0..6, row points 1 (0.9) or 2;
    - fewer Fantasyland cards where the players' hands would need more than 52 cards.
    """
    classic = gen.random() < 0.25
    if classic:
        base = get_preset("ofc-classic")
        players = int(gen.choice([2, 3, 4], p=[0.6, 0.25, 0.15]))
    else:
        base = get_preset("ofc-pineapple" if gen.random() < 0.5 else "ofc-pineapple-progressive")
        players = int(gen.choice([2, 3], p=[0.75, 0.25]))
    std = base.royalties
    middle = _scaled(gen, std.middle, 0.5, 0.5, 1.5, 0.3)
    back = _scaled(gen, std.back, 0.6, 0.5, 1.5, 0.3)
    if gen.random() < 0.1:
        middle = (0, 0, 0) + back[3:]
    royalties = Royalties(front_pairs=_scaled(gen, std.front_pairs, 0.5, 0.5, 1.6, 0.3),
                             front_trips=_scaled(gen, std.front_trips, 0.6, 0.5, 1.5, 0.3),
                             middle=middle, back=back)
    fl = base.fantasyland
    kind = gen.choice(4, p=[0.55, 0.15, 0.15, 0.15])
    flat = 13 if classic else 14
    cards = (fl.cards, (flat,) * 4, (14, 15, 16, 17), tuple(sorted(int(c) for c in gen.integers(13, 18, 4))))[kind]
    threshold = int(gen.choice(4, p=[0.75, 0.12, 0.05, 0.08]))
    cards = tuple(0 if i < threshold or threshold == 3 else int(c) for i, c in enumerate(cards))
    stay = (StayRule.B, StayRule.A, StayRule.NONE)[gen.choice(3, p=[0.45, 0.35, 0.2])]
    stay_cards = fl.stay_cards if gen.random() < 0.7 else int(gen.integers(13, 18))
    most = 52 // players
    cards = tuple(min(c, most) for c in cards)
    stay_cards = max(13, min(stay_cards, most))
    scoring = Scoring(row=1 if gen.random() < 0.9 else 2, scoop=3 if gen.random() < 0.6 else int(gen.integers(0, 7)))
    return Variant(name=base.name, deal=Deal.CLASSIC if classic else Deal.PINEAPPLE, players=players,
                      royalties=royalties, fantasyland=FantasylandRules(cards=cards, stay=stay, stay_cards=stay_cards),
                      scoring=scoring)


def training_variants(draws: int, seed: int) -> list[Variant]:
    """The variants trained: :data:`ANCHORS`, then ``draws`` :func:`draw_variant` draws (draw ``i``
    from SeedSequence child ``i`` of ``seed``)."""
    children = np.random.SeedSequence(seed).spawn(draws)
    return [parse_ofc_variant(a) for a in ANCHORS] + [draw_variant(np.random.default_rng(c)) for c in children]


def trained_ranges(variants: list[Variant], vectors: np.ndarray) -> dict[str, Any]:
    """The span of every rule feature over ``variants`` (their :func:`rule_vector`, ``vectors``)
    and the player counts of each deal: what a model file records as the ranges it was trained on."""
    out: dict[str, Any] = {name: [float(vectors[:, i].min()), float(vectors[:, i].max())]
                           for i, name in enumerate(RULE_FEATURES)}
    out["players"] = {str(d): sorted({v.players for v in variants if v.deal is d}) for d in Deal}
    return out


def range_note(variant: Variant, ranges: dict[str, Any]) -> str | None:
    """One line naming the rule numbers of ``variant`` outside ``ranges`` (:func:`trained_ranges`),
    None when every one lies inside (within 1e-9)."""
    vec = rule_vector(variant)
    outside = []
    players = ranges.get("players", {}).get(str(variant.deal), [])
    if variant.players not in players:
        outside.append(f"{variant.players} players in {variant.deal} (trained {'/'.join(map(str, players)) or 'none'})")
    for i, name in enumerate(RULE_FEATURES):
        if name == "players" or name not in ranges:
            continue
        lo, hi = ranges[name]
        if not lo - 1e-9 <= vec[i] <= hi + 1e-9:
            outside.append(f"{RULE_WORDS[name]} {vec[i]:.4g} (trained {lo:.4g}..{hi:.4g})")
    if not outside:
        return None
    return f"outside the street models' trained ranges: {'; '.join(outside)}; played by the models all the same"
