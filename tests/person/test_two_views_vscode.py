"""One QuestionWidget displayed twice in a VS Code cell: two renderer outputs, one model. An
answer in either view resolves it once and both views show the same resolved block.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import AskWidget
from support.vscode.host import PRINT_RESULT

pytestmark = pytest.mark.vscode

QUESTION = "Which metric decides the winner?"


def one_widget_shown_twice(open_host):
    """A running cell that displays one question widget twice and awaits it: the host, the
    cell, and the two views.
    """
    host = open_host()
    host.run_ok("import json, nbask")
    questions = [{"question": QUESTION, "header": "Metric", "options": [{"label": "F1 score"}, {"label": "ROC AUC"}]}]
    cell = host.run(
        f"w = nbask.QuestionWidget(questions={questions!r})\n"
        "display(w)\ndisplay(w)\n"
        "ans = await w.await_answer(timeout=None)\n" + PRINT_RESULT
    )
    expect(host.cell(cell).locator(".nbask")).to_have_count(2)
    first, second = AskWidget(host.widget(cell, 0)), AskWidget(host.widget(cell, 1))
    return host, cell, first, second


def test_one_widget_twice_resolves_once(open_host):
    host, cell, first, second = one_widget_shown_twice(open_host)
    for view in (first, second):
        view.expect_pending()
    # Each view sits in its own renderer output with the extension's widget background.
    expect(host.cell(cell).locator(".output .cell-output-ipywidget-background .nbask")).to_have_count(2)

    first.choose(QUESTION, "F1 score")  # a draft in the other view is not sent
    second.choose(QUESTION, "ROC AUC")
    second.submit()
    result = host.read_result(cell)
    assert result["answers"] == {QUESTION: "ROC AUC"}
    for view in (first, second):
        view.expect_resolved("answered", {QUESTION: "ROC AUC"})
        expect(view.root).not_to_contain_text("F1 score")
    assert host.wait_done(cell) == "ok"
    assert host.stdout(cell).count("RESULT ") == 1


def test_a_second_view_shows_the_draft_as_it_is_typed(open_host):
    host, cell, first, second = one_widget_shown_twice(open_host)
    first.expect_pending()
    first.choose(QUESTION, "F1 score")
    expect(second.option(QUESTION, "F1 score")).to_be_checked()
    first.option(QUESTION, "Other", exact=True).check()  # its textbox appears once chosen
    first.other(QUESTION).press_sequentially("Top-5 accuracy")
    expect(second.other(QUESTION)).to_have_value("Top-5 accuracy")
    expect(first.other(QUESTION)).to_be_focused()
    second.choose(QUESTION, "ROC AUC")
    expect(first.option(QUESTION, "ROC AUC")).to_be_checked()
    first.submit()
    assert host.read_result(cell)["answers"] == {QUESTION: "ROC AUC"}
    assert host.wait_done(cell) == "ok"
