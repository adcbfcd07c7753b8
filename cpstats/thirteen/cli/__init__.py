"""The 13-card game on the command line: what ``cpstats simulate`` prints of a run
(:func:`~cpstats.thirteen.cli.simulate.simulate_text`), its own options (``--tables``), kernels and
commands (``naturals``, ``presets-table``, ``report``, ``reference``, ``train``, ``match``,
``review``), registered as the game's views (:data:`COMMAND_LINE`,
:class:`cpstats.engine.views.CommandLine`). Plain data, strings and argparse: the command line
hands every hook its kit, so nothing here imports an app.

Inside: ``options`` (``--tables``, the setter it names, the kernels, ``--quiet``) <- ``simulate``,
``commands`` and ``report``.
"""

from cpstats.engine.views import CommandLine
from cpstats.thirteen.cli import options
from cpstats.thirteen.cli.commands import (add_match_command, add_naturals_command, add_presets_table_command,
                                           add_reference_command, add_review_command, add_train_command)
from cpstats.thirteen.cli.report import add_report_command
from cpstats.thirteen.cli.simulate import simulate_text

__all__ = ["COMMAND_LINE", "simulate_text"]

#: What the command line reads and says of the 13-card game beside its run's text.
COMMAND_LINE = CommandLine(
    setter_options=options.setter_options, setter=options.setter_of, kernels=options.kernels,
    metrics_help=options.metrics_help, check=options.check, quiet=options.quiet,
    commands=(add_naturals_command, add_presets_table_command, add_report_command, add_reference_command,
              add_train_command, add_match_command, add_review_command))
