"""One QuestionWidget displayed twice, in every host: an answer in either view resolves it once,
and both views show the same resolved block; a draft typed in one shows in the other. In VS Code
each view is a renderer output of its own.
"""

from __future__ import annotations

from playwright.sync_api import expect
from support.ask_widget import PRINT_RESULT, AskWidget
from support.hosts import Host

QUESTION = "Which metric decides the winner?"


def _cell(var: str) -> str:
    questions = [{"question": QUESTION, "header": "Metric", "options": [{"label": "F1 score"}, {"label": "ROC AUC"}]}]
    return (
        f"{var} = nbask.QuestionWidget(questions={questions!r})\n"
        f"display({var})\ndisplay({var})\n"
        f"ans = await {var}.await_answer(timeout=None)\n" + PRINT_RESULT
    )


def _run_two_views(host: Host, cell: int) -> tuple[AskWidget, AskWidget]:
    """Start `cell` (one widget displayed twice) and return its two views once both are pending."""
    host.run_cell(cell, wait=False)
    expect(host.widgets(cell)).to_have_count(2)
    views = AskWidget(host.widget(cell, 0)), AskWidget(host.widget(cell, 1))
    for view in views:
        view.expect_pending()
    return views


def test_same_widget_twice_resolves_once_and_both_views_show_it(host: Host):
    host.open(["import json, nbask", _cell("w"), _cell("w2"), "print('done')"])
    first_count = host.run_cell(0)
    assert first_count is not None

    # An answer in the second view.
    first, second = _run_two_views(host, 1)
    first.choose(QUESTION, "F1 score")  # a draft in the other view is not sent
    second.choose(QUESTION, "ROC AUC")
    second.submit()
    result = host.read_line(1, "RESULT")  # exactly one RESULT line
    assert result["answers"] == {QUESTION: "ROC AUC"}
    for view in (first, second):
        view.expect_resolved("answered", {QUESTION: "ROC AUC"})
        expect(view.root).not_to_contain_text("F1 score")
    host.wait_done(1)
    assert not host.failed(1)

    # Both views submit in the same instant: one answer wins, everywhere.
    a, b = _run_two_views(host, 2)
    a.choose(QUESTION, "F1 score")
    b.choose(QUESTION, "ROC AUC")
    host.output(2).get_by_role("button", name="Submit", exact=True).evaluate_all(
        "buttons => buttons.forEach(button => button.click())"
    )
    result = host.read_line(2, "RESULT")
    winner = result["answers"][QUESTION]
    assert winner in ("F1 score", "ROC AUC")
    loser = "ROC AUC" if winner == "F1 score" else "F1 score"
    for view in (a, b):
        view.expect_resolved("answered", {QUESTION: winner})
        expect(view.root).not_to_contain_text(loser)
    assert host.wait_done(2) == first_count + 2
    assert host.printed(2).count("RESULT ") == 1


def test_a_second_view_shows_the_draft_as_it_is_typed(host: Host):
    host.open(["import json, nbask", _cell("w"), "print('done')"])
    host.run_cell(0)
    first, second = _run_two_views(host, 1)

    first.choose(QUESTION, "F1 score")
    expect(second.option(QUESTION, "F1 score")).to_be_checked()
    first.option(QUESTION, "Other", exact=True).check()  # its textbox appears once chosen
    first.other(QUESTION).press_sequentially("Top-5 accuracy")
    expect(second.other(QUESTION)).to_have_value("Top-5 accuracy")
    # Other is chosen in both views; focus stayed where the person types.
    expect(second.option(QUESTION, "Other")).to_be_checked()
    expect(first.other(QUESTION)).to_be_focused()
    host.page.keyboard.press("!")
    expect(first.other(QUESTION)).to_have_value("Top-5 accuracy!")
    expect(second.other(QUESTION)).to_have_value("Top-5 accuracy!")

    # And back: a change in the second view shows in the first.
    second.choose(QUESTION, "ROC AUC")
    expect(first.option(QUESTION, "ROC AUC")).to_be_checked()
    first.submit()
    result = host.read_line(1, "RESULT")
    assert result["answers"] == {QUESTION: "ROC AUC"}
    for view in (first, second):
        view.expect_resolved("answered", {QUESTION: "ROC AUC"})


def test_in_vscode_each_view_is_a_renderer_output_of_its_own(open_host):
    """VS Code renders each display of a widget in an output of its own, with the extension's
    widget background (the other hosts share one output area).
    """
    host = open_host()
    host.run_ok("import json, nbask")
    cell = host.run(_cell("w"))
    expect(host.cell(cell).locator(".output .cell-output-ipywidget-background .nbask")).to_have_count(2)
    first, second = AskWidget(host.widget(cell, 0)), AskWidget(host.widget(cell, 1))
    first.expect_pending()
    second.choose(QUESTION, "ROC AUC")
    second.submit()
    assert host.read_result(cell)["answers"] == {QUESTION: "ROC AUC"}
    first.expect_resolved("answered", {QUESTION: "ROC AUC"})
    assert host.wait_done(cell) == "ok"
