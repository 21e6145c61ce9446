"""Late answers in the VS Code host: a question and an approval time out, the next cell runs,
"Answer anyway" reopens each in the same widget, and the resolved block says it came late. VS
Code's host has no Jupyter server page and sends no username, so no one is named.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from support.ask_widget import ANSWER_ANYWAY, ANSWERED_LATE, PRINT_DECISION, ApprovalView, run_axe_serious
from support.vscode.host import open_asking

pytestmark = pytest.mark.vscode

QUESTION = "Deploy to production now?"
LATE = (
    "print('LATE ' + json.dumps({'late': [[e.kind, e.outcome.late, e.outcome.answered_by_user] "
    "for e in nbask.late_answers()], 'returned': [e.status for e in nbask.history() if not e.outcome.late]}))"
)


def test_a_late_answer_to_a_question_and_to_an_approval(open_host, axe_source):
    host, cell, ask = open_asking(open_host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=3)")
    ask.expect_status("timeout", timeout=15_000)
    assert host.read_result(cell)["status"] == "timeout"
    assert host.wait_done(cell) == "ok"
    host.run_ok("print('after')")  # the notebook moved on

    host.page.add_script_tag(content=axe_source)
    ask.button(ANSWER_ANYWAY).click()
    expect(ask.root).to_have_attribute("data-late", "answering")
    expect(ask.root).to_contain_text("Answering late: the agent has already gone on without an answer")
    ask.choose(QUESTION, "No")
    ask.submit()
    expect(ask.root).to_have_attribute("data-late", "answered")
    expect(ask.root.locator(".nbask-status-line")).to_have_text(ANSWERED_LATE)  # no username in VS Code
    expect(ask.root).to_contain_text("No")
    assert run_axe_serious(host.page, ask.root) == []

    approval = host.run("d = await nbask.approve('Drop table', 'users', timeout=3)\n" + PRINT_DECISION)
    view = ApprovalView(host.widget(approval))
    view.expect_status("timeout", timeout=15_000)
    assert host.read_decision(approval)["decision"] == "reject"
    view.button(ANSWER_ANYWAY).click()
    view.button("Approve").click()
    expect(view.root.locator(".nbask-status-line")).to_have_text("Approved late")
    assert run_axe_serious(host.page, view.root) == []

    check = host.run_ok(LATE)
    line = next(text for text in host.stdout(check).splitlines() if text.startswith("LATE "))
    seen = json.loads(line[len("LATE ") :])
    assert seen["late"] == [["question", True, None], ["approval", True, None]]
    assert seen["returned"][-2:] == ["timeout", "timeout"], "what the calls returned is unchanged"
