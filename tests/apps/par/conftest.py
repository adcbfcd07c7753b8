"""What the PAR sheet's tests share: ``no_strength_match``, the open-face sheet's strength match
(a duplicate match of rollout against four fields, about 10 s of CPU at its smallest) replaced by a
table of its shape, for the tests whose assertions are not about it (tests/apps/par/test_open_face.py
plays the real one)."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest


@contextmanager
def strength_stub():
    """Within it, every open-face sheet's strength table is a stand-in: each field's row with no
    interval, the player and the interval named as the real table names them."""
    from cpstats.ofc.par import sheet
    from cpstats.ofc.skill import OFC_SKILL_FIELDS

    def stand_in(made, deals, executor):
        fields = [(f, label) for f, label in OFC_SKILL_FIELDS if f != "rollout"]
        frame = pd.DataFrame({"field": [f for f, _ in fields], "label": [label for _, label in fields],
                              "mean": 0.0, "ci_low": np.nan, "ci_high": np.nan, "deals": deals}).set_index("field")
        frame.attrs.update(interval="a stand-in: no match played", player=made.strategy)
        return frame

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sheet, "_strength", stand_in)
        yield


@pytest.fixture
def no_strength_match():
    with strength_stub():
        yield


@pytest.fixture(scope="module")
def no_strength_match_in_module():
    """:func:`no_strength_match` for a whole module (its module-scoped sheets too)."""
    with strength_stub():
        yield
