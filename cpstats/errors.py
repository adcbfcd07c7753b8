"""Exception types. Every error cpstats raises on bad input is a ``ValueError``."""

from __future__ import annotations

__all__ = ["CpstatsError", "CardError", "OptionError"]


class CpstatsError(ValueError):
    """Base class of every input error raised by cpstats."""


class CardError(CpstatsError):
    """A card, a hand or a setting is malformed (unknown token, duplicate, wrong count)."""


class OptionError(CpstatsError):
    """An option, a name or a numeric argument is not one of the allowed values."""
