"""The PAR sheet's "How this rule was chosen" section (cpstats.apps.par.solution): a solved rule's
interval, its evaluations and curve; a solution of other rules refused."""

import pytest

from cpstats.errors import OptionError


def test_par_sheet_says_how_a_solved_rule_was_chosen():
    from cpstats import par_sheet
    from cpstats.workbench.solve import solve

    # the bank plays as the players (greedy): against the house way greedy players lose about 23%
    s = solve("banked(bank.setter=ev)", "bank.commission", "house_edge", 0.015, bounds=(0.0, 0.1), deals=1_000,
              setter="greedy", rng=1)
    sheet = par_sheet(s.variant, deals=2_000, setter="greedy", rng=1, sensitivity=False, seat_deals=600,
                      solution=s)
    section = sheet.sections[-1]
    assert section.title == "How this rule was chosen"
    assert f"{s.ci_low:.4g} to {s.ci_high:.4g}" in section.paragraphs[1] and "1,000 deals" in section.paragraphs[2]
    assert len(sheet.tables["solution_curve"]) == len(s.evaluations)
    with pytest.raises(OptionError, match=r"solution is of banked\(bank.commission=.*not of banked"):
        par_sheet("banked(bank.setter=ev)", deals=2_000, setter="greedy", rng=1, sensitivity=False, seat_deals=600, solution=s)
