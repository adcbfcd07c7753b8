"""``cpstats simulate --preset ofc-...``: an open-face run's text (a header naming the variant, hands
and setter, then its figures), its default length, and the line every command prints when open
face's street models play rules outside their trained ranges (:func:`range_warnings`: ``simulate``,
``compare`` and ``sweep``).

- Decision: ``--setter ev`` (every command's default) means open face's strong setter, ``rollout``.
- Decision: the default length is what the setter plays in about a minute on one core
  (:func:`default_hands`): a rollout setter plays about 24 hands a second (44 ms a hand,
  docs/measurements.md), so 1,500 hands; ``fast``, ``greedy`` and ``random`` 20,000 (fast: about
  2 ms a hand). The 13-card default, 100,000 deals, is as quick. ``--deals`` sets any length.
- Decision: a play is called strong only where it was measured strong: the street models were
  trained on rules inside their trained ranges, so a run outside them says so (stderr, the header,
  the JSON's ``run``) and names its play's strength as not measured.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from cpstats.errors import OptionError

__all__ = ["simulate_text", "default_hands", "range_warnings", "play_warnings"]

_ROLLOUT_HANDS, _QUICK_HANDS = 1_500, 20_000


def default_hands(setter: Any) -> int:
    """The hands of an open-face ``simulate`` without ``--deals``: about a minute on one core
    (module docstring)."""
    return _ROLLOUT_HANDS if str(getattr(setter, "name", setter)).startswith("rollout") else _QUICK_HANDS


def range_warnings(models: Mapping[str, Any] | Sequence[Mapping[str, Any] | None] | None,
                   labels: Sequence[str] = ()) -> list[str]:
    """The lines saying which runs' rules lie outside the street models' trained ranges, from a
    run's ``metadata["street_models"]`` (one identity), a sweep's ``attrs["street_models"]`` (one
    a point, each line led by its point's ``labels``) or a comparison's (label -> identity); empty
    when every run is inside, or played no models."""
    if not models:
        return []
    if isinstance(models, Mapping):  # one run's identity, or a comparison's by label
        models, labels = ([models], [""]) if "in_range" in models else (list(models.values()), list(models))
    labels = list(labels) + [""] * (len(models) - len(labels))
    return [f"{label}: {m['note']}" if label else m["note"]
            for label, m in zip(labels, models) if m and m.get("in_range") is False]


def play_warnings(attrs: Mapping[str, Any], labels: Sequence[str] = ()) -> list[str]:
    """:func:`range_warnings` of a run's metadata, a comparison's or a sweep's ``attrs``."""
    return range_warnings(attrs.get("street_models"), labels)


def _refuse(args: argparse.Namespace, v) -> None:
    """The options that do not apply to an open-face run, refused in one line before any play."""
    if args.players is not None and args.players != v.players and "players" in str(args.preset).lower():
        raise OptionError(f"--players {args.players} contradicts the variant's players={v.players}: "
                          "give the player count once")
    if getattr(args, "tables", None) is not None:
        raise OptionError("--tables does not apply to open-face presets: their setters need no trained tables")
    if args.keep_hands and args.out is None:
        raise OptionError("--keep-hands needs --out: the rows are written there (the printed figures do "
                          "not show them)")


def simulate_text(args: argparse.Namespace, kit: Any) -> str:
    """What ``cpstats simulate --preset ofc-...`` prints: a header (variant, hands, setter and what
    its play is, whether ``--until`` was reached, whether the rules lie inside the street models'
    trained ranges; warnings on stderr too), then the figures as a table or CSV; JSON is
    ``{"run": {...}, "figures": [...]}``. The run is played through ``kit.simulate``."""
    executor, close = kit.executor(args)
    try:
        return _played_text(args, kit, executor)
    finally:
        close()


def _played_text(args: argparse.Namespace, kit: Any, executor: Any) -> str:
    from cpstats.engine.games import runs_of
    from cpstats.engine.registry import load_variant
    from cpstats.engine.sequential import until_record
    from cpstats.ofc.placement import strategy_note
    from cpstats.ofc.setters import as_ofc_setter

    v = load_variant(args.preset)
    _refuse(args, v)
    setter = as_ofc_setter(runs_of(v).default_setter if args.setter is None else args.setter, "--setter")
    hands = args.deals if args.deals is not None else default_hands(setter)
    result = kit.simulate(v, hands, players=args.players, setter=setter, rng=args.seed,
                          executor=executor, out=kit.out_folder(args.out), resume=args.resume,
                          keep_hands=args.keep_hands, progress=not args.quiet, until=args.until)
    meta = result.metadata
    stop = until_record(meta, "hands")
    outside = range_warnings(meta.get("street_models"))
    for line in ([stop["note"]] if stop is not None and not stop["reached"] else []) + outside:
        print(f"cpstats simulate: warning: {line}", file=sys.stderr, flush=True)
    note = strategy_note(setter.name, meta.get("street_models"))
    default = "" if args.deals is not None else f" (the default for {setter.name}, about a minute; --deals for more)"
    figures = result.figures()
    if args.format == "json":
        run = {"variant": str(result.variant), "hands": result.deals, "strategy": meta["strategy"],
               "setter": meta["setter"], "strategy_note": note, "confidence": 0.95}
        run.update({"until": stop} if stop else {})
        run.update({"street_models": meta["street_models"]} if "street_models" in meta else {})
        return json.dumps({"run": run, "figures": json.loads(figures.to_json(orient="records"))}, indent=2)
    settings = f", setter {setter!r}" if len(setter.params()) > 1 else ""  # the rollout budget
    head = (f"{result.variant}: {result.deals:,} hands{default}, strategy {meta['strategy']} ({note}){settings}; "
            f"intervals 95%, rake_per_seat_per_hour at {result.variant.rake.hands_per_hour:g} hands an hour"
            + (f"\n{stop['note']}" if stop else "") + "".join(f"\n{line}" for line in outside))
    if args.format == "csv":
        return head + "\n\n" + figures.to_csv(index=False)
    return head + "\n\n" + _figures_text(figures, v)


def _figures_text(figures: Any, v: Any) -> str:
    """The figures in the layout every game prints; Fantasyland and house figures left out (and
    said so) where the rules have neither."""
    from cpstats.engine.figures_text import figures_text
    from cpstats.engine.catalogue import figures_of
    from cpstats.engine.games import runs_of

    catalogue = figures_of(runs_of(v))
    absent: dict[str, list[str]] = {}
    if not any(v.fantasyland.cards):
        absent["Fantasyland"] = [f.name for f in catalogue if f.name.startswith("fl_")]
    absent["house charges"] = [f.name for f in catalogue if f.basis == "house"]
    return figures_text(figures, catalogue, absent=absent)
