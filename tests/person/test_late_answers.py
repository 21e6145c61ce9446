"""Late answers and who answered.

In every host: a question times out, the next cell runs, then the person presses "Answer
anyway", answers in the same widget, and the resolved block says "Answered late"; an approval
likewise; a later cell reads both from ``nbask.late_answers()``, and what the calls returned
stays "timeout". In JupyterLab and Notebook 7: the saved notebook keeps both outcomes, and two
browsers (two contexts, two identities the server gave them) on one kernel record the account
the kernel runs as, not the server's made-up names.
"""

from __future__ import annotations

import getpass
import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect
from support.ask_widget import (
    ANSWER_ANYWAY,
    ANSWERED_LATE,
    PRINT_DECISION,
    PRINT_RESULT,
    ApprovalView,
    AskWidget,
    run_axe_serious,
)
from support.hosts import Host, JupyterHost
from support.notebook_page import NotebookPage

from .conftest import DEFAULT_TIMEOUT_MS, VIEWPORT

QUESTION = "Deploy to production now?"
LATE_CELL = (
    "print('LATE ' + json.dumps({'late': [{'kind': e.kind, "
    "'answers': e.outcome.answers if e.kind == 'question' else None, 'late': e.outcome.late, "
    "'user': e.outcome.answered_by_user, 'timed_out_before': e.outcome.timed_out_at < e.outcome.resolved_at} "
    "for e in nbask.late_answers()], 'returned': [ans.status, d.status]}), flush=True)"
)

# The identity the page's Jupyter server knows this browser by.
SERVER_IDENTITY = """async () => {
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const headers = config.token ? { Authorization: 'token ' + config.token } : {};
  const response = await fetch(new URL('api/me', new URL(config.baseUrl, location.href)), { headers });
  return (await response.json()).identity;
}"""


def server_username(page: Page) -> str:
    """The name the page's server made up for this browser. The test server logs in by one
    token, so it makes up an identity per browser session (a hex username, a name like
    "Anonymous Io"); the kernel records neither, but the account it runs as (``getpass``: the
    account of these tests).
    """
    identity = page.evaluate(SERVER_IDENTITY)
    assert re.fullmatch(r"[0-9a-f]{32}", identity["username"]), identity
    assert identity["display_name"].startswith("Anonymous "), identity
    return str(identity["display_name"])


def status_line(ask: AskWidget):
    return ask.root.locator(".nbask-status-line")


def _expect_answer_anyway(host: Host, ask: AskWidget, axe_source: str) -> None:
    """The timed-out question in cell 1 answered late, "Yes", after the notebook moved on."""
    page = host.page
    page.add_script_tag(content=axe_source)
    answer_anyway = ask.button(ANSWER_ANYWAY)
    expect(answer_anyway).to_be_visible()
    assert run_axe_serious(page, ask.root) == []
    answer_anyway.click()
    expect(ask.root).to_have_attribute("data-late", "answering")
    expect(ask.root).to_contain_text("Answering late: the agent has already gone on without an answer")
    expect(ask.option(QUESTION, "Yes")).to_be_focused()
    assert run_axe_serious(page, ask.root) == []
    ask.choose(QUESTION, "Yes")
    ask.submit()
    expect(ask.root).to_have_attribute("data-late", "answered")
    # One identity answers in this kernel: the widget names no one.
    expect(status_line(ask)).to_have_text(ANSWERED_LATE)
    expect(ask.root).to_contain_text("Yes")
    expect(ask.root).to_have_attribute("data-status", "timeout")
    expect(ask.controls).to_have_count(0)
    assert run_axe_serious(page, ask.root) == []


def _time_out_question(host: Host) -> AskWidget:
    """Cell 1's question times out and cell 2 runs: the notebook has moved on."""
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    ask.expect_status("timeout", timeout=15_000)
    assert host.read_line(1, "RESULT")["status"] == "timeout"
    host.wait_done(1)
    assert not host.failed(1)
    host.run_cell(2)
    return ask


def test_answer_anyway_after_a_timeout_is_a_late_answer(host: Host, axe_source):
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=3)\n" + PRINT_RESULT,
            "print('after', flush=True)",
            "d = await nbask.approve('Drop table', 'users', timeout=3)\n" + PRINT_DECISION,
            LATE_CELL,
        ]
    )
    ask = _time_out_question(host)
    _expect_answer_anyway(host, ask, axe_source)

    host.run_cell(3, wait=False)
    view = ApprovalView(host.widget(3))
    view.expect_status("timeout", timeout=15_000)
    assert host.read_line(3, "DECISION")["decision"] == "reject"
    view.button(ANSWER_ANYWAY).click()
    view.button("Approve").click()
    expect(view.root.locator(".nbask-status-line")).to_have_text("Approved late")
    assert run_axe_serious(host.page, view.root) == []

    host.run_cell(4)
    # Every host: the kernel records the account it runs as (VS Code's host sends no name at all).
    user = getpass.getuser()
    assert host.read_line(4, "LATE") == {
        "late": [
            {"kind": "question", "answers": {QUESTION: "Yes"}, "late": True, "user": user, "timed_out_before": True},
            {"kind": "approval", "answers": None, "late": True, "user": user, "timed_out_before": True},
        ],
        "returned": ["timeout", "timeout"],  # what the calls returned is unchanged
    }


def test_a_late_answer_is_saved_beside_what_the_call_returned(host: Host, axe_source):
    """Jupyter saves the notebook: its output metadata keeps the call's own outcome and the late one."""
    if not isinstance(host, JupyterHost):
        pytest.skip("only JupyterLab and Notebook 7 save the notebook's outputs here")
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=3)\n" + PRINT_RESULT,
            "print('after', flush=True)",
        ]
    )
    nb = host.notebook
    ask = _time_out_question(host)
    # The server made up a name for this browser; the kernel records its own account instead.
    assert server_username(nb.page).startswith("Anonymous ")
    _expect_answer_anyway(host, ask, axe_source)

    nb.save()
    saved = [output.get("metadata", {}) for output in nb.disk_notebook()["cells"][1]["outputs"]]
    (record,) = [m for m in saved if "nbask" in m]
    assert record["nbask"]["status"] == "timeout", "replay reads what the call returned"
    late = record["nbask_late"]["outcome"]
    assert (late["late"], late["answers"], late["answered_by_user"]) == (True, {QUESTION: "Yes"}, getpass.getuser())


def open_second_browser(browser: Browser, nb: NotebookPage) -> tuple[NotebookPage, Page]:
    """The same notebook, on the same running kernel, in a browser of its own (a new context:
    its own cookies, so the server gives it its own identity).
    """
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    other = NotebookPage(page, nb.server, nb.path)
    page.goto(nb.server.login_url(other.url))
    other.wait_loaded()
    other.wait_kernel_connected()
    return other, page


def test_two_browsers_of_one_token_login_record_the_account_not_a_made_up_name(
    open_notebook, page, browser, axe_source
):
    """The server makes up a different name for each browser (and each session); the record of
    an answer from either names the account the kernel runs as, so yesterday's notebook names
    the same person it names today.
    """
    nb = open_notebook(
        [
            "import json, nbask",
            (
                f"ans = await nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)\n"
                "print('BY ' + json.dumps(ans.answered_by_user), flush=True)"
            ),
            "print('BY ' + json.dumps(nbask.history()[-1].outcome.answered_by_user), flush=True)",
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    AskWidget.in_cell(nb, 1).expect_pending()
    nb.save()  # the second browser gets the output from the saved file, the widget from the kernel

    first_user = server_username(page)
    for _ in range(5):  # the server names anonymous browsers after 57 moons: two may share one
        other, other_page = open_second_browser(browser, nb)
        second_user = server_username(other_page)
        if second_user != first_user:
            break
        other_page.context.close()
    try:
        assert first_user != second_user, "the server gave the two browsers different names"
        theirs = AskWidget.in_cell(other, 1)
        theirs.expect_pending()
        theirs.choose(QUESTION, "No")
        theirs.submit()
        for view in (theirs, AskWidget.in_cell(nb, 1)):
            # One identity has answered in this kernel, the kernel's own account: the widget does
            # not show it (it names someone once a second identity answers).
            expect(status_line(view)).to_have_text("Answered")
        other_page.add_script_tag(content=axe_source)
        assert run_axe_serious(other_page, theirs.root) == []
        nb.wait_output(1, re.compile(r"BY "))
        account = getpass.getuser()
        assert json.loads(nb.stream_text(1).split("BY ", 1)[1].splitlines()[0]) == account
        nb.run_cell(2)
        assert json.loads(nb.stream_text(2).split("BY ", 1)[1].splitlines()[0]) == account
    finally:
        other_page.context.close()
