"""Reloading the window while a question waits, as VS Code does it: the notebook keeps the
cell and its outputs, the running cell keeps receiving its execute request's output, and the
reloaded window reconnects to the kernel, which answers its kernel_info_request and hands over
its live widgets while the cell still waits (nbask.waiting). The question comes back with the
person's unsent draft, answering it resumes the cell, and queued cells run after it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import PRINT_DECISION, ApprovalView, AskWidget
from support.vscode.host import open_asking
from support.vscode.server import ALL_KERNELS

pytestmark = pytest.mark.vscode

QUESTION = "Retrain the model on the new data?"


@pytest.mark.parametrize("kernel_name", ALL_KERNELS)
def test_after_reload_the_question_comes_back_with_its_draft_and_answering_resumes_the_cell(open_host, kernel_name):
    host, cell, ask = open_asking(
        open_host, f"nbask.ask({QUESTION!r}, ['Yes', 'No', 'Only the last week'], timeout=None)"
    )
    ask.choose(QUESTION, "No")
    ask.option(QUESTION, "Other", exact=True).check()  # its textbox appears once chosen
    ask.other(QUESTION).press_sequentially("wait for the labels")  # reloaded right after typing
    host.reload()

    restored = host.cell(cell)
    expect(restored).to_have_attribute("data-restored", "true")
    assert host.is_running(cell)
    assert host.page.evaluate("() => window.vscodeHost.kernelInfoAt()") is not None
    ask = AskWidget(host.widget(cell))
    expect(ask.root).to_be_visible()
    ask.expect_pending()
    expect(ask.option(QUESTION, "No")).not_to_be_checked()  # choosing Other unchose it
    expect(ask.other(QUESTION)).to_have_value("wait for the labels")
    expect(ask.option(QUESTION, "Other")).to_be_checked()
    ask.choose(QUESTION, "No")
    ask.submit()

    result = host.read_result(cell)
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "No"}
    ask.expect_resolved("answered", {QUESTION: "No"})
    host.wait_done(cell)  # no execute_reply reaches a reloaded window; its idle ends the cell
    assert host.run_ok("print('next cell')") == cell + 1


def test_after_reload_an_approvals_edit_is_still_there(open_host):
    host = open_host()
    host.run_ok("import json, nbask")
    ask_approval = "d = await nbask.approve('Scale the web service', '{\"replicas\": 2}', timeout=None)\n"
    cell = host.run(ask_approval + PRINT_DECISION)
    view = ApprovalView(host.widget(cell))
    view.expect_status("pending")
    view.button("Edit").click()
    view.textbox("Details").fill('{"replicas": 3}')
    view.textbox("Reason").fill("traffic doubles tonight")
    host.reload()

    view = ApprovalView(host.widget(cell))
    view.expect_status("pending")
    expect(view.textbox("Details")).to_have_value('{"replicas": 3}')
    expect(view.textbox("Reason")).to_have_value("traffic doubles tonight")
    view.button("Approve").click()
    decision = host.read_decision(cell)
    assert (decision["decision"], decision["edited"], decision["reason"]) == (
        "edit",
        '{"replicas": 3}',
        "traffic doubles tonight",
    )


def test_a_cell_queued_before_the_reload_runs_only_after_the_answer(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)")
    queued = host.run("print('QUEUED ran', flush=True)")
    host.reload()
    ask = AskWidget(host.widget(cell))
    ask.expect_pending()
    assert host.is_running(queued)
    assert host.stdout(queued) == ""
    ask.choose(QUESTION, "Yes")
    ask.submit()
    assert host.read_result(cell)["answers"] == {QUESTION: "Yes"}
    host.wait_output(queued, "QUEUED ran")
    host.wait_done(queued)


def test_after_reload_an_interrupt_still_ends_the_wait(open_host):
    host, cell, _ask = open_asking(open_host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)")
    host.reload()
    ask = AskWidget(host.widget(cell))
    ask.expect_pending()
    host.interrupt()
    ask.expect_status("cancelled")
    host.wait_output(cell, "KeyboardInterrupt")
    host.wait_done(cell)
    assert "RESULT" not in host.stdout(cell)
