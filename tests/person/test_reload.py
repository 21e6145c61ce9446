"""A page reload while a question waits, in every host (VS Code's on every ipykernel): the
question is shown again, still answerable, with the person's unsent draft (choices, Other text;
an approval's edited details and reason), and the next cell reads the answer the waiting cell
received.

A notebook's outputs reach a reloaded JupyterLab or Notebook 7 page only from the saved file, so
the person saves (toolbar) before reloading, as they would (VS Code's notebook keeps them itself).
The draft is typed after the save and the page is reloaded right after the last keystroke: it
lives in the widget model, not in the file. In JupyterLab and Notebook 7 the reloaded page no
longer owns the running cell's output stream, so the cell's own print is not shown in the cell:
the widget shows it once the request ended. In VS Code the window keeps the running cell's
output; a cell queued before the reload runs after the answer, and an interrupt still ends the wait.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect
from support.ask_widget import (
    ANSWER_ANYWAY,
    ANSWERED_LATE,
    PRINT_DECISION,
    PRINT_RESULT,
    ApprovalView,
    AskWidget,
    read_result,
)
from support.hosts import Host
from support.vscode.host import open_asking

HOSTS = ("lab", "notebook7", "vscode", "vscode-7.3", "vscode-6.29")

QUESTION = "Which optimizer should the sweep use?"
LOGS = "What should each run log?"
RUN_LABEL = "The cell after the answer"  # js/reload/cellrun.ts RUN_TEXT.label


def test_reload_while_waiting_shows_the_question_again_with_its_draft(host: Host):
    host.open(
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
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    host.save()

    ask.choose(QUESTION, "SGD")
    ask.choose(LOGS, "Loss")
    ask.choose(LOGS, "Samples")
    ask.option(LOGS, "Other", exact=True).check()  # its textbox appears once chosen
    ask.other(LOGS).fill("learning rate")
    ask.other(LOGS).press("s")  # the last keystroke, right before the reload
    host.reload()

    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    expect(ask.option(QUESTION, "SGD")).to_be_checked()
    expect(ask.option(QUESTION, "AdamW")).not_to_be_checked()
    expect(ask.option(LOGS, "Loss")).to_be_checked()
    expect(ask.option(LOGS, "Gradients")).not_to_be_checked()
    expect(ask.option(LOGS, "Samples")).to_be_checked()
    expect(ask.other(LOGS)).to_have_value("learning rates")
    ask.submit()
    ask.expect_resolved("answered", {QUESTION: "SGD"})

    host.run_cell(2, wait=False)
    result = host.read_line(2, "RESULT")
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "SGD", LOGS: "Loss, Samples, learning rates"}
    host.wait_done(2)
    assert not host.failed(2)


def test_an_approvals_edited_details_and_reason_survive_a_reload(host: Host):
    details = '{"replicas": 2}'
    host.open(
        [
            "import json, nbask",
            (
                f"d = await nbask.approve('Scale the web service', {details!r}, timeout=None)\n"
                "print('DECIDED', flush=True)"
            ),
            PRINT_DECISION,
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    view = ApprovalView(host.widget(1))
    view.expect_status("pending")
    host.save()

    view.button("Edit").click()
    view.textbox("Details").fill('{"replicas": 3}')
    view.textbox("Reason").fill("traffic doubles tonight")
    host.reload()

    view = ApprovalView(host.widget(1))
    view.expect_status("pending")
    expect(view.textbox("Details")).to_have_value('{"replicas": 3}')
    expect(view.textbox("Reason")).to_have_value("traffic doubles tonight")
    view.button("Approve").click()
    view.expect_status("answered")

    host.run_cell(2, wait=False)
    decision = host.read_line(2, "DECISION")
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


# -- VS Code: the window keeps the running cell --------------------------------------------------------

VSCODE_QUESTION = "Retrain the model on the new data?"


def test_in_vscode_a_cell_queued_before_the_reload_runs_only_after_the_answer(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask({VSCODE_QUESTION!r}, ['Yes', 'No'], timeout=None)")
    queued = host.run("print('QUEUED ran', flush=True)")
    host.reload()
    # The window reconnected: the kernel answered its kernel_info_request, the cell is restored.
    assert host.page.evaluate("() => window.vscodeHost.kernelInfoAt()") is not None
    expect(host.cell(cell)).to_have_attribute("data-restored", "true")
    assert host.is_running(cell)
    ask = AskWidget(host.widget(cell))
    ask.expect_pending()
    assert host.is_running(queued)
    assert host.stdout(queued) == ""
    ask.choose(VSCODE_QUESTION, "Yes")
    ask.submit()
    assert host.read_result(cell)["answers"] == {VSCODE_QUESTION: "Yes"}
    host.wait_output(queued, "QUEUED ran")
    host.wait_done(queued)


def test_in_vscode_after_reload_an_interrupt_still_ends_the_wait(open_host):
    host, cell, _ask = open_asking(open_host, f"nbask.ask({VSCODE_QUESTION!r}, ['Yes', 'No'], timeout=None)")
    host.reload()
    ask = AskWidget(host.widget(cell))
    ask.expect_pending()
    host.interrupt()
    ask.expect_status("cancelled")
    host.wait_output(cell, "KeyboardInterrupt")
    host.wait_done(cell)
    assert "RESULT" not in host.stdout(cell)
