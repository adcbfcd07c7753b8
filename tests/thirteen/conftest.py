"""Hands several play tests set: 10,000 hands of four decks, dealt once a module."""

import numpy as np
import pytest

from cpstats.cards import deal


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return deal(np.random.default_rng(20261129), 2_500, 4).reshape(-1, 13)
