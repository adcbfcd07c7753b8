"""The command line, ``cpstats CMD``: one module per command family, shaped like
:mod:`cpstats.apps.widgets`.

``entry`` (the parser and :func:`main`, the console script) <- ``commands`` (simulate, compare,
presets, presets-table, report, reference, naturals, dashboard, train, match, skill, review),
``par`` (``cpstats par``), ``sweep``, ``solve`` (``solve`` and ``design``), ``skill`` (its table's
text) and ``train_ofc`` (open face's street models), on ``args`` (option types, the executor of
``--scheduler``, the setter of ``--setter``/``--tables``).
"""

from cpstats.apps.cli.commands import ReportPlan, report_plan, split_systems
from cpstats.apps.cli.entry import build_parser, main

__all__ = ["main", "build_parser", "report_plan", "split_systems", "ReportPlan"]
