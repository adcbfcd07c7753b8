"""The command line, ``cpstats CMD``: one module per command family, shaped like
:mod:`cpstats.apps.widgets`, knowing no game.

``entry`` (the parser and :func:`main`, the console script) <- ``commands`` (simulate, compare,
figures, presets, dashboard, skill), ``par`` (``cpstats par``), ``sweep``, ``solve`` (``solve`` and
``design``), ``skill`` (its table's text), on ``args`` (option types, the executor of
``--scheduler``, the setter of ``--setter`` and the games' own options) and ``kit`` (what a game's
command-line words are handed: :class:`~cpstats.apps.cli.kit.Kit`).

Each game registers the rest as its views (:class:`cpstats.engine.views.GameViews`): the text
``simulate`` prints of its run, its own options, kernels and warnings, and its own commands
(``cpstats.thirteen.cli``: naturals, presets-table, report, reference, train, match, review;
``cpstats.ofc.cli``: train-ofc), which :func:`build_parser` adds after its own.
"""

from cpstats.apps.cli.entry import build_parser, main

__all__ = ["main", "build_parser"]
