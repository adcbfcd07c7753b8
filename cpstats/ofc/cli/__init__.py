"""Open face on the command line: what ``cpstats simulate`` prints of a run
(:func:`~cpstats.ofc.cli.simulate.simulate_text`), its default length, the lines saying a run's
rules lie outside the street models' trained ranges, and its own command ``train-ofc``, registered as
the game's views (:data:`COMMAND_LINE`, :class:`cpstats.engine.views.CommandLine`). The command
line hands every hook its kit, so nothing here imports an app.

Inside: ``simulate`` (the run's text, :func:`~cpstats.ofc.cli.simulate.default_hands`,
:func:`~cpstats.ofc.cli.simulate.range_warnings`) beside ``train`` (``train-ofc``).
"""

from cpstats.engine.views import CommandLine
from cpstats.ofc.cli.simulate import default_hands, play_warnings, simulate_text
from cpstats.ofc.cli.train import add_train_ofc_command

__all__ = ["COMMAND_LINE", "simulate_text"]


def _metrics_help() -> str:
    from cpstats.ofc.sweep import OFC_SWEEP_METRICS

    return f"open face: from {', '.join(OFC_SWEEP_METRICS)}"


def _no_charge(table) -> str:
    """One line naming a sweep's figures that are exactly 0 because the rules charge nothing
    (their ``method`` says so), so a column of zeros is not left unexplained."""
    from cpstats.ofc.result import NO_CHARGE

    if "method" not in table:
        return ""
    names = list(dict.fromkeys(table.loc[table["method"] == NO_CHARGE, "metric"]))
    return f"\n{', '.join(names)}: 0, {NO_CHARGE}" if names else ""


#: What the command line reads and says of open face beside its run's text.
COMMAND_LINE = CommandLine(run_length=default_hands, warnings=play_warnings, table_notes=_no_charge,
                           metrics_help=_metrics_help, preset_note=" (play: cpstats simulate --preset {name})",
                           commands=(add_train_ofc_command,))
