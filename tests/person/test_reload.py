"""A page reload while a question waits: the question is shown again, still answerable, with
the person's unsent draft (choices, Other text; an approval's edited details and reason).

A notebook's outputs reach a reloaded page only from the saved file, so the person saves
(toolbar) before reloading, as they would. The draft is typed after the save and the page is
reloaded right after the last keystroke: it lives in the widget model, not in the file. The
reloaded page no longer owns the running cell's output stream, so the cell's own print is not
shown in the cell: the widget shows it once the request ended, and the next cell reads the answer
the waiting cell received.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from support.ask_widget import (
    ANSWER_ANYWAY,
    ANSWERED_LATE,
    PRINT_DECISION,
    PRINT_RESULT,
    ApprovalView,
    AskWidget,
    read_decision,
    read_result,
)

pytestmark = pytest.mark.browser

QUESTION = "Which optimizer should the sweep use?"
LOGS = "What should each run log?"
RUN_LABEL = "The cell after the answer"  # js/reload/cellrun.ts RUN_TEXT.label


def test_reload_while_waiting_shows_the_question_again_with_its_draft(open_notebook):
    nb = open_notebook(
        [
            "import json, nbask",
            (
                f"ans = await nbask.ask_questions([{{'question': {QUESTION!r}, 'options': ["
                "{'label': 'AdamW (Recommended)'}, {'label': 'SGD'}]},\n"
                f"    {{'question': {LOGS!r}, 'multi_select': True, 'options': ["
                "{'label': 'Loss'}, {'label': 'Gradients'}, {'label': 'Samples'}]}], timeout=None)\n"
                "print('ANSWERED', flush=True)"
            ),
            PRINT_RESULT,
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    nb.save()

    ask.choose(QUESTION, "SGD")
    ask.choose(LOGS, "Loss")
    ask.choose(LOGS, "Samples")
    ask.option(LOGS, "Other", exact=True).check()  # its textbox appears once chosen
    ask.other(LOGS).fill("learning rate")
    ask.other(LOGS).press("s")  # the last keystroke, right before the reload
    nb.reload()
    nb.wait_kernel_connected()

    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    expect(ask.option(QUESTION, "SGD")).to_be_checked()
    expect(ask.option(QUESTION, "AdamW")).not_to_be_checked()
    expect(ask.option(LOGS, "Loss")).to_be_checked()
    expect(ask.option(LOGS, "Gradients")).not_to_be_checked()
    expect(ask.option(LOGS, "Samples")).to_be_checked()
    expect(ask.other(LOGS)).to_have_value("learning rates")
    ask.submit()
    ask.expect_resolved("answered", {QUESTION: "SGD"})

    nb.run_cell(2, wait=False)
    result = read_result(nb, 2)
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "SGD", LOGS: "Loss, Samples, learning rates"}


def test_an_approvals_edited_details_and_reason_survive_a_reload(open_notebook):
    details = '{"replicas": 2}'
    nb = open_notebook(
        [
            "import json, nbask",
            (
                f"d = await nbask.approve('Scale the web service', {details!r}, timeout=None)\n"
                "print('DECIDED', flush=True)"
            ),
            PRINT_DECISION,
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    view = ApprovalView(nb.widget(1))
    expect(view.root).to_be_visible()
    view.expect_status("pending")
    nb.save()

    view.button("Edit").click()
    view.textbox("Details").fill('{"replicas": 3}')
    view.textbox("Reason").fill("traffic doubles tonight")
    nb.reload()
    nb.wait_kernel_connected()

    view = ApprovalView(nb.widget(1))
    expect(view.root).to_be_visible()
    view.expect_status("pending")
    expect(view.textbox("Details")).to_have_value('{"replicas": 3}')
    expect(view.textbox("Reason")).to_have_value("traffic doubles tonight")
    view.button("Approve").click()
    view.expect_status("answered")

    nb.run_cell(2, wait=False)
    decision = read_decision(nb, 2)
    assert decision["decision"] == "edit"
    assert decision["edited"] == '{"replicas": 3}'
    assert decision["reason"] == "traffic doubles tonight"


def test_what_was_typed_before_a_timeout_is_there_for_answer_anyway_after_a_reload(open_notebook):
    nb = open_notebook(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['AdamW (Recommended)', 'SGD'], timeout=12)\n" + PRINT_RESULT,
            "print('LATE ' + json.dumps([e.outcome.answers for e in nbask.late_answers()]), flush=True)",
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    ask.option(QUESTION, "Other", exact=True).check()
    ask.other(QUESTION).fill("Lion")  # typed, not sent, when the time limit comes
    ask.expect_status("timeout", timeout=30_000)
    assert read_result(nb, 1)["status"] == "timeout"
    nb.wait_done(1)
    nb.save()
    nb.reload()
    nb.wait_kernel_connected()

    ask = AskWidget.in_cell(nb, 1)
    ask.expect_status("timeout")
    ask.button(ANSWER_ANYWAY).click()
    expect(ask.other(QUESTION)).to_have_value("Lion")
    ask.submit()
    expect(ask.root).to_have_attribute("data-late", "answered")
    expect(ask.root).to_contain_text(ANSWERED_LATE)
    nb.run_cell(2)
    assert nb.stream_text(2).split("LATE ", 1)[1].splitlines()[0] == json.dumps([{QUESTION: "Lion"}])


def test_after_a_reload_the_widget_shows_what_the_cell_prints_after_the_answer(open_notebook, page):
    # The reloaded page did not send the cell's execute request, so the notebook routes the run's
    # output nowhere and its prompt stays as saved: the widget shows the run from the answer on.
    # Focus goes to the cell after the asking one, not to the notebook's first cell.
    nb = open_notebook(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['AdamW', 'SGD'], timeout=None)\n"
            "print('AFTER', ans.answers[" + repr(QUESTION) + "], flush=True)",
            "print('next')",
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    AskWidget.in_cell(nb, 1).expect_pending()
    nb.save()
    nb.reload()
    nb.wait_kernel_connected()

    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    expect(ask.root.get_by_role("region", name=RUN_LABEL)).to_have_count(0)  # nothing to say yet
    ask.choose(QUESTION, "SGD")
    ask.submit()
    ask.expect_resolved("answered", {QUESTION: "SGD"})
    run = ask.root.get_by_role("region", name=RUN_LABEL)
    expect(run).to_contain_text("The cell has finished; what it printed after the answer is below.")
    expect(run).to_contain_text("AFTER SGD")

    expect(nb.cell(2)).to_be_focused()
    expect(nb.cell(0)).not_to_have_class(re.compile(r"\bjp-mod-active\b"))
    page.keyboard.press("Shift+Enter")
    nb.wait_output(2, "next")
