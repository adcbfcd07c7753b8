"""The Solve view (cpstats.apps.widgets.solve) driven as a user would, and its tab in the dashboard."""


def test_solve_view_shows_the_solution_its_progress_and_the_curve():
    from cpstats.apps.widgets import SolveView

    app = SolveView("banked(bank.setter=ev)", deals=1_000, setter="greedy")
    app.run_button.click()
    s = app.solution
    assert s is not None and s.ci_low < s.value < s.ci_high
    assert app.progress.bar_style == "success" and "bank.commission = " in app.answer.value
    assert app.output.outputs and "image/png" in app.output.outputs[0]["data"]
    app.bounds.value = "0.1,0"
    app.run_button.click()
    assert "bounds=(0.1, 0) is invalid" in app.status.value and app.progress.bar_style == "danger"


def test_the_dashboard_has_a_solve_tab():
    from cpstats.apps.dashboard import build_dashboard, tab_titles

    tabs = build_dashboard(deals=1_000).children[1]
    assert "Solve for a target" in tabs.titles and tabs.titles == tab_titles() and len(tabs.children) == len(tab_titles())
