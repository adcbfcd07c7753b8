"""Rules as frozen data (rulebook sections 1-6): one :class:`Variant` holds every option.

The top of :mod:`cpstats.rules`: the choices are the enums of :mod:`cpstats.thirteen.rules.ids`, the
components are checked frozen dataclasses (:mod:`cpstats.thirteen.rules.components`,
:mod:`cpstats.rules.house`), the presets are data (:mod:`cpstats.engine.registry.presets`) that
:func:`get_preset` turns into variants here. A variant is also a string, a preset name followed
by the options that differ from it, e.g. ``2-4(royalties=R-FUTUREBET,surrender=2)`` or
``2-4(scoring.scoop_bonus=5)``; see :func:`parse_variant`. The string and dict codec
(:mod:`cpstats.thirteen.rules.text`) works on plain dicts; this module hands it the dicts and builds the
variants it returns.

For kernels, :meth:`Variant.kernel_tables` returns every rule as plain numpy arrays.

Decisions (where the rulebook leaves a choice open):

- Decision: a home run (SC-1-6-HR, SC-TW) needs at least 3 players, SC-MANDARIN's needs 4 (004
  "only in a four-handed game"), any other's ``scoring.home_run_players``; ``home_run=False``
  turns a home run off (SC-1-6-HR excepted: it *is* the 1-6 game with a home run).
- Decision: the bank is seat 0 (the dealer) and plays every other seat; seat 0 also starts the
  clockwise settlement order (S-CHIPS).
- Decision: a banked game's bank sets by the house way unless ``bank.setter=ev`` (S-HOUSE-WAY).
  The house way has no rules for a low middle: a banked H5 variant still builds (its rules can
  be described, its hands set by ``ev``), and a run of it is refused unless ``bank.setter=ev``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from cpstats.errors import OptionError, shown
from cpstats.rules.check import as_bool, as_component, as_enum, as_number, invalid, suggest, unknown_key
from cpstats.engine.variant_files import write_file
from cpstats.engine.registry import as_variant
from cpstats.thirteen.rules.components import (STANDARD_SURRENDER, Naturals, Royalties, ScoringParams,
                                      ScoringRules)
from cpstats.rules.house import AcesBet, Bank, Misset, Rake, Stakes, Surrender
from cpstats.thirteen.rules.ids import Deal, HandOrdering, NaturalSettlement, RoyaltyMode, Scoring
from cpstats.thirteen.rules.presets import PRESETS, preset_names
from cpstats.rules.codec import plain, split_variant
from cpstats.thirteen.rules.text import apply_overrides, apply_text, format_variant

__all__ = ["GAME", "Variant", "parse_variant", "get_preset", "presets", "resolve_variant"]

#: The game these rules are of, as the registry names it (:mod:`cpstats.engine.registry`).
GAME = "13-card"


# -- the variant ------------------------------------------------------------------------------

_FORBIDDEN_NAME = set("(),=%")




@dataclass(frozen=True, kw_only=True)
class Variant:
    """A complete rule set: every option of rulebook sections 1-6, plus the preset ``name``.

    ``Variant()`` is the ``basic`` preset. Components may be given loosely: a rulebook ID for
    ``scoring``/``royalties``/``naturals``, a mapping for any component, a nested list for
    ``stakes``.
    ``str(v)`` is ``name(overrides)`` and :func:`load_variant` reads it back.

    Parameters
    ----------
    name
        The preset the variant derives from (or any label without ``(),=%``).
    scoring
        The scoring system (section 3): its ID and numbers (:class:`ScoringRules`).
    players
        2, 3 or 4 (D2).
    home_run
        Whether the scoring's home run is in play (SC-1-6-HR always has it).
    royalties, naturals, surrender, misset, aces, bank, rake, stakes
        The components; ``stakes=None`` plays every pair for 1 unit.
    chips_limit
        S-CHIPS: nobody wins or loses more than their stack; settle in :meth:`pair_order`.
    ranking, deal
        Five-card ordering (H1, H4, H5) and deal format (D2, D3).
    """

    #: The game this variant plays (:data:`cpstats.engine.registry.GAMES`).
    game: ClassVar[str] = GAME
    name: str = "basic"
    scoring: ScoringRules = field(default_factory=ScoringRules)
    players: int = 4
    home_run: bool = True
    royalties: Royalties = field(default_factory=Royalties)
    naturals: Naturals = field(default_factory=Naturals)
    surrender: Surrender = field(default_factory=Surrender)
    misset: Misset = field(default_factory=Misset)
    chips_limit: bool = False
    aces: AcesBet = field(default_factory=AcesBet)
    bank: Bank = field(default_factory=Bank)
    rake: Rake = field(default_factory=Rake)
    stakes: Stakes | None = None
    ranking: HandOrdering = HandOrdering.STANDARD
    deal: Deal = Deal.STANDARD

    def __post_init__(self) -> None:
        put = lambda key, value: object.__setattr__(self, key, value)  # noqa: E731
        name = self.name
        if not isinstance(name, str) or not name.strip() or _FORBIDDEN_NAME & set(name):
            raise invalid("name", self.name, "a non-empty label without ( ) , = %")
        put("name", self.name.strip())
        put("scoring", as_component("scoring", ScoringRules, self.scoring,
                                  lambda s: ScoringRules(system=s)))
        players = as_number("players", self.players, integer=True, minimum=-math.inf)
        if players not in (2, 3, 4):
            raise invalid("players", self.players, "2, 3 or 4 players")
        put("players", players)
        put("home_run", as_bool("home_run", self.home_run))
        put("royalties", as_component("royalties", Royalties, self.royalties,
                                    lambda s: Royalties(schedule=s)))
        put("naturals", as_component("naturals", Naturals, self.naturals,
                                   lambda s: Naturals(schedule=s)))
        for key, cls in (("surrender", Surrender), ("misset", Misset), ("aces", AcesBet),
                         ("bank", Bank), ("rake", Rake)):
            put(key, as_component(key, cls, getattr(self, key)))
        put("chips_limit", as_bool("chips_limit", self.chips_limit))
        if self.stakes is not None and not isinstance(self.stakes, Stakes):
            put("stakes", Stakes(self.stakes))
        put("ranking", as_enum("ranking", HandOrdering, self.ranking))
        put("deal", as_enum("deal", Deal, self.deal))
        self._check_contradictions()

    def _check_contradictions(self) -> None:
        scoring, players = self.scoring.system, self.players
        if scoring is Scoring.ONE_SIX_HOME_RUN and not self.home_run:
            raise invalid("home_run", False,
                          "scoring=SC-1-6-HR is the 1-6 game with a home run; use scoring=SC-1-6")
        need = self.scoring.fewest_players
        if self.home_run and players < need:
            raise invalid("players", players, f"the home run of scoring={scoring.value} needs at "
                          f"least {need} players; set home_run=false or choose another system")
        surrender = self.surrender
        if surrender.enabled and surrender.amount is None and scoring not in STANDARD_SURRENDER:
            raise invalid("surrender", "standard", f"scoring={scoring.value} has no standard "
                          "surrender amount (2 in the 2-4 family, 3 in 1-6); give the amount")
        if self.stakes is not None and self.stakes.size != players:
            raise invalid("stakes", f"{self.stakes.size}x{self.stakes.size}",
                          f"the stakes matrix must be {players}x{players} for players={players}")
        if self.deal is Deal.CRISS_CROSS and players != 2:
            raise invalid("players", players, "criss-cross (deal=D3) is heads-up: players=2")

    # -- numbers for kernels ------------------------------------------------------------------

    def scoring_params(self) -> ScoringParams:
        """The scoring system's numbers for this table (home run and race scoop resolved)."""
        params = self.scoring.params()
        changes: dict[str, Any] = {}
        if not self.home_run:
            changes.update(home_run_bonus=0.0, home_run_multiplier=1.0)
        if params.race_target:
            # 000: "if a player wins all 3 hands and there are 4 players, ... a 4th point".
            changes.update(scoop_bonus=params.scoop_bonus if self.players == 4 else 0.0)
        return ScoringParams(**{**asdict(params), **changes})

    @property
    def hands_per_player(self) -> int:
        """1, or 2 in criss-cross (D3)."""
        return 2 if self.deal is Deal.CRISS_CROSS else 1

    def pair_order(self) -> np.ndarray:
        """``uint8[k, 2]`` hand pairs in settlement order, clockwise from the dealer (seat 0).

        Hand ``h`` belongs to seat ``h // hands_per_player``. Banked: seat 0 against each other
        seat. Criss-cross: each of seat 0's hands against each of seat 1's.
        """
        if self.deal is Deal.CRISS_CROSS:
            pairs = [(0, 2), (0, 3), (1, 2), (1, 3)]
        elif self.bank.banked:
            pairs = [(0, j) for j in range(1, self.players)]
        else:
            pairs = [(i, j) for i in range(self.players) for j in range(i + 1, self.players)]
        return np.array(pairs, dtype=np.uint8).reshape(-1, 2)

    def stakes_array(self) -> np.ndarray:
        """``float64[players, players]`` unit values (all 1 without a stakes matrix)."""
        if self.stakes is None:
            return np.ones((self.players, self.players), dtype=np.float64)
        return self.stakes.array()

    def surrender_amount(self) -> float | None:
        """Units a surrendering player pays each opponent, or None if surrender is not allowed."""
        if not self.surrender.enabled:
            return None
        if self.surrender.amount is not None:
            return self.surrender.amount
        return STANDARD_SURRENDER[self.scoring.system]

    def misset_points(self) -> float:
        """Units a mis-set hand pays each opponent (a scoop unless a fixed amount is set)."""
        if self.misset.points is not None:
            return self.misset.points
        return self.scoring_params().scoop_value

    def kernel_tables(self) -> dict[str, np.ndarray]:
        """Every rule as plain arrays for a numba kernel (no strings, no Python objects).

        Keys: ``scoring`` (:meth:`ScoringParams.to_array`), ``royalty_row_value`` and
        ``royalty_bonus`` (``float64[6]``, :data:`ROYALTY_ROWS` order), ``royalty_by_category``
        (``float64[3, 9]``), ``royalty_mode`` (index in :class:`RoyaltyMode`), ``natural_payout``
        and ``natural_rank`` (:data:`NATURAL_NAMES` order), ``natural_settlement`` (0 NAT-1,
        1 NAT-2), ``surrender`` (amount, or -1 if not allowed), ``misset``, ``aces``
        (``float64[5]``, 0 if the bet is off), ``bank`` (banked, wins_ties, commission, fee),
        ``rake`` (:meth:`Rake.to_array`), ``stakes`` and ``pairs`` (:meth:`pair_order`).
        """
        params = self.scoring_params()
        payout, rank = self.naturals.arrays(params.scoop_value)
        surrender = self.surrender_amount()
        return {
            "scoring": params.to_array(),
            "royalty_row_value": self.royalties.row_values(),
            "royalty_bonus": self.royalties.bonuses(),
            "royalty_by_category": self.royalties.by_category(),
            "royalty_mode": np.array(list(RoyaltyMode).index(self.royalties.mode), dtype=np.uint8),
            "natural_payout": payout,
            "natural_rank": rank,
            "natural_settlement": np.array(
                list(NaturalSettlement).index(self.naturals.settlement), dtype=np.uint8),
            "surrender": np.array(-1.0 if surrender is None else surrender, dtype=np.float64),
            "misset": np.array(self.misset_points(), dtype=np.float64),
            "aces": self.aces.values() if self.aces.enabled else np.zeros(5, dtype=np.float64),
            "bank": np.array([self.bank.banked, self.bank.wins_ties, self.bank.commission,
                              self.bank.fee], dtype=np.float64),
            "rake": self.rake.to_array(),
            "stakes": self.stakes_array(),
            "pairs": self.pair_order(),
        }

    # -- conversions --------------------------------------------------------------------------

    def __str__(self) -> str:
        base = self.name if self.name in preset_names() else "basic"
        return format_variant(base, self.to_dict(), get_preset(base).to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of every option (enums as their IDs)."""
        return plain(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """Inverse of :meth:`to_dict`; missing keys take their defaults, unknown keys are errors."""
        if not isinstance(data, Mapping):
            raise OptionError(f"a variant's rules must be a mapping of option to value (a JSON "
                              f"object), not {type(data).__name__} {shown(data)}")
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise unknown_key(key, known)
        return cls(**data)

    def to_json(self, **kwargs: Any) -> str:
        """:meth:`to_dict` as JSON (``kwargs`` go to :func:`json.dumps`)."""
        import json

        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Variant:
        """Inverse of :meth:`to_json`."""
        import json

        try:
            data = json.loads(text)
        except (TypeError, ValueError) as err:
            raise OptionError(f"text={shown(text)} is invalid: not JSON ({err})") from None
        return cls.from_dict(data)

    def to_file(self, path: str | os.PathLike, *, label: str | None = None,
                description: str | None = None) -> Path:
        """Save the variant as TOML or JSON (by the suffix of ``path``); :func:`load_variant` reads
        it back equal.

        The file holds ``variant``, the string ``str(self)`` (the identity the variant is loaded
        from), an optional ``label`` and ``description``, and ``rules``, every option in full
        (:meth:`to_dict`) for a reader; see :mod:`cpstats.engine.variant_files`. Returns the path written.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> from cpstats import load_variant
        >>> v = load_variant("2-4(royalties=R-TW)")
        >>> path = v.to_file(pathlib.Path(tempfile.mkdtemp()) / "tw.toml", label="2-4 with TW royalties")
        >>> load_variant(path) == v
        True
        """
        return write_file(path, str(self), self.to_dict(), label=label, description=description)

    def replace(self, **overrides: Any) -> Variant:
        """A validated copy with options changed.

        Keys are field names (given a component, an enum or a value) or any key of the variant
        string, with ``__`` for ``.``: ``v.replace(players=3, royalties__middle_quads=8)``,
        ``v.replace(**{"royalties": "R-TW", "royalty_mode": "RM-CANCEL"})``.
        """
        changes = {k.replace("__", "."): v for k, v in overrides.items()}
        return apply_overrides(self.to_dict(), changes, make=Variant.from_dict)


def parse_variant(text: str) -> Variant:
    """Read a 13-card variant string: a preset name, optionally with ``(key=value,...)`` overrides
    (:func:`cpstats.engine.registry.load_variant` reads either game's strings and variant files).

    Keys are those ``str(variant)`` writes (``scoring``, ``scoring.scoop_bonus``, ``players``,
    ``royalties``, ``royalties.middle_quads``, ``royalty_mode``, ``naturals``, ``naturals.dragon``,
    ``surrender``, ``misset``, ``stakes``, ...); IDs are case-insensitive and may drop their
    prefix. Overrides apply in a fixed order (a system or schedule before its numbers), whatever
    order they are written in. The scoring's numbers are ``scoring.front``, ``scoring.middle``,
    ``scoring.back`` (or ``scoring.row`` for all three), ``scoring.majority``,
    ``scoring.scoop_bonus``, ``scoring.scoop_multiplier``, ``scoring.home_run_bonus``,
    ``scoring.home_run_multiplier``, ``scoring.home_run_players``, ``scoring.totals_first`` and
    ``scoring.race_target`` (also ``race_target``).

    Raises
    ------
    OptionError
        For an unknown preset, key or value (with close matches), or a contradiction.

    Examples
    --------
    >>> v = parse_variant("2-4(royalties=R-PAGAT-TYPICAL,royalty_mode=RM-CANCEL)")
    >>> v.royalties.middle_full_house, v.royalties.payment.value, v.royalties.mode.value
    (2, 'instead', 'RM-CANCEL')
    >>> str(v)
    '2-4(royalties=R-PAGAT-TYPICAL,royalty_mode=RM-CANCEL)'
    >>> parse_variant(str(v)) == v
    True
    >>> parse_variant("futurebet-1-6").surrender_amount()
    3
    >>> v = parse_variant("1-6(scoring.front=1,scoring.middle=2,scoring.back=3)")
    >>> str(v), v.scoring_params().scoop_value
    ('1-6(scoring.middle=2,scoring.back=3)', 9)
    """
    name, body = split_variant(text)
    return apply_text(get_preset(name).to_dict(), body, text, make=Variant.from_dict)


@lru_cache(maxsize=1)
def _registry() -> dict[str, Variant]:
    # Built on first use, once: every preset's variant, checked like any other.
    return {name: Variant(name=name, **preset.options) for name, preset in PRESETS.items()}


def get_preset(name: str) -> Variant:
    """The preset called ``name`` (case-insensitive).

    Raises
    ------
    OptionError
        For an unknown name, listing close matches and every preset.

    Examples
    --------
    >>> get_preset("taiwanese").naturals.payouts[-1]
    ('clean_dragon', 108)
    """
    key = str(name).strip().lower()
    registry = _registry()
    if key not in registry:
        raise OptionError(f"unknown preset {name!r}{suggest(key, registry)}; "
                          f"presets: {', '.join(registry)}")
    return registry[key]


def presets() -> pd.DataFrame:
    """Every preset: ``name``, ``description`` (one line), ``seed`` and ``variant`` (its string).

    Examples
    --------
    >>> presets().set_index("name").loc["futurebet-1-6", "seed"]
    '002'
    """
    return pd.DataFrame(
        [(name, preset.description, preset.seed, str(_registry()[name]))
         for name, preset in PRESETS.items()],
        columns=["name", "description", "seed", "variant"],
    )


def resolve_variant(variant: Variant | str) -> Variant:
    """A 13-card :class:`Variant` from itself, a preset name, a variant string or a variant file;
    another game's variant is refused in one line (the caller plays the 13-card game)."""
    return as_variant(variant, Variant)
