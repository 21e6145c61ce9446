"""One QuestionWidget displayed twice: an answer in either view resolves it once, and both
views show the same resolved block.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import PRINT_RESULT, AskWidget, read_result

pytestmark = pytest.mark.browser

QUESTION = "Which metric decides the winner?"


def _cell(var: str) -> str:
    questions = [{"question": QUESTION, "header": "Metric", "options": [{"label": "F1 score"}, {"label": "ROC AUC"}]}]
    return (
        f"{var} = nbask.QuestionWidget(questions={questions!r})\n"
        f"display({var})\ndisplay({var})\n"
        f"ans = await {var}.await_answer(timeout=None)\n" + PRINT_RESULT
    )


def _run_two_views(nb, cell: int) -> tuple[AskWidget, AskWidget]:
    """Start `cell` (one widget displayed twice) and return its two views once both are pending."""
    nb.run_cell(cell, wait=False)
    expect(nb.output_area(cell).locator(".nbask")).to_have_count(2)
    views = AskWidget.in_cell(nb, cell, 0), AskWidget.in_cell(nb, cell, 1)
    for view in views:
        view.expect_pending()
    return views


def test_same_widget_twice_resolves_once_and_both_views_show_it(open_notebook):
    nb = open_notebook(["import json, nbask", _cell("w"), _cell("w2"), "print('done')"])
    nb.run_cell(0)

    # An answer in the second view.
    first, second = _run_two_views(nb, 1)
    first.choose(QUESTION, "F1 score")  # a draft in the other view is not sent
    second.choose(QUESTION, "ROC AUC")
    second.submit()
    result = read_result(nb, 1)  # exactly one RESULT line
    assert result["answers"] == {QUESTION: "ROC AUC"}
    for view in (first, second):
        view.expect_resolved("answered", {QUESTION: "ROC AUC"})
        expect(view.root).not_to_contain_text("F1 score")
    nb.wait_done(1)

    # Both views submit in the same instant: one answer wins, everywhere.
    a, b = _run_two_views(nb, 2)
    a.choose(QUESTION, "F1 score")
    b.choose(QUESTION, "ROC AUC")
    nb.output_area(2).get_by_role("button", name="Submit", exact=True).evaluate_all(
        "buttons => buttons.forEach(button => button.click())"
    )
    result = read_result(nb, 2)
    winner = result["answers"][QUESTION]
    assert winner in ("F1 score", "ROC AUC")
    loser = "ROC AUC" if winner == "F1 score" else "F1 score"
    for view in (a, b):
        view.expect_resolved("answered", {QUESTION: winner})
        expect(view.root).not_to_contain_text(loser)
    assert nb.wait_done(2) == 3
    assert nb.stream_text(2).count("RESULT ") == 1


def test_a_second_view_shows_the_draft_as_it_is_typed(open_notebook, page):
    nb = open_notebook(["import json, nbask", _cell("w"), "print('done')"])
    nb.run_cell(0)
    first, second = _run_two_views(nb, 1)

    first.choose(QUESTION, "F1 score")
    expect(second.option(QUESTION, "F1 score")).to_be_checked()
    first.option(QUESTION, "Other", exact=True).check()  # its textbox appears once chosen
    first.other(QUESTION).press_sequentially("Top-5 accuracy")
    expect(second.other(QUESTION)).to_have_value("Top-5 accuracy")
    # Other is chosen in both views; focus stayed where the person types.
    expect(second.option(QUESTION, "Other")).to_be_checked()
    expect(first.other(QUESTION)).to_be_focused()
    page.keyboard.press("!")
    expect(first.other(QUESTION)).to_have_value("Top-5 accuracy!")
    expect(second.other(QUESTION)).to_have_value("Top-5 accuracy!")

    # And back: a change in the second view shows in the first.
    second.choose(QUESTION, "ROC AUC")
    expect(first.option(QUESTION, "ROC AUC")).to_be_checked()
    first.submit()
    result = read_result(nb, 1)
    assert result["answers"] == {QUESTION: "ROC AUC"}
    for view in (first, second):
        view.expect_resolved("answered", {QUESTION: "ROC AUC"})
