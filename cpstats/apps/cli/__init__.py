"""The command line, ``cpstats CMD``: one module per command family, shaped like
:mod:`cpstats.apps.widgets`.

``entry`` (the parser and :func:`main`, the console script) <- ``commands`` (simulate, compare,
figures, presets, presets-table, report, reference, naturals, dashboard, train, match, skill, review),
``open_face`` (an open-face simulate's text, and the line saying a run's rules lie outside the street
models' trained ranges),
``par`` (``cpstats par``), ``sweep``, ``solve`` (``solve`` and ``design``), ``skill`` (its table's
text) and ``train_ofc`` (open face's street models), on ``args`` (option types, the executor of
``--scheduler``, the setter of ``--setter``/``--tables``).
"""

from cpstats.apps.cli.commands import ReportPlan, report_plan, split_systems
from cpstats.apps.cli.entry import build_parser, main

__all__ = ["main", "build_parser", "report_plan", "split_systems", "ReportPlan"]
