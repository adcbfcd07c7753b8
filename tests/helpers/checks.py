"""Assertions several test files use."""

from __future__ import annotations

import re
from typing import ContextManager

import numpy as np
import pytest

from cpstats.errors import OptionError


def option_error(message: str) -> ContextManager[pytest.ExceptionInfo[OptionError]]:
    """``pytest.raises(OptionError, match=...)`` for a literal piece of the message."""
    return pytest.raises(OptionError, match=re.escape(message))


def same_cards(hands: np.ndarray, settings: np.ndarray) -> bool:
    """Whether each setting holds exactly the cards of its hand (in any order)."""
    return bool((np.sort(hands, axis=1) == np.sort(settings, axis=1)).all())
