"""Assertions several test files use."""

from __future__ import annotations

import re
from typing import ContextManager

import pytest

from cpstats.errors import OptionError


def option_error(message: str) -> ContextManager[pytest.ExceptionInfo[OptionError]]:
    """``pytest.raises(OptionError, match=...)`` for a literal piece of the message."""
    return pytest.raises(OptionError, match=re.escape(message))
