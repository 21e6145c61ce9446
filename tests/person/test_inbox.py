"""``nbask.inbox()`` in a real browser (JupyterLab and Notebook 7): a run under the ``later``
policy, in a process of its own, left a question and two approvals waiting in the inbox; a
notebook whose kernel never ran that code shows all three together in one cell, as a batch
(Approve all for the approvals), and each answer is kept in the inbox as it is given, recorded
as the person; the run that asked, run again, goes on with the answers.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest
from playwright.sync_api import expect
from support.ask_widget import ApprovalView, AskWidget
from support.notebook_page import RUN_TIMEOUT_MS

from nbask.inbox_store import open_inbox
from nbask.replies import ApprovalResponse

pytestmark = pytest.mark.browser

QUESTION = "Which region should the nightly job use?"

#: The unattended run: one question and two approvals, asked together.
NIGHTLY = f"""
import json, nbask
from nbask.kinds.approval.request import approval_request
from nbask.resolvers.run import run_requests_sync
from nbask.kinds.question.request import one_question_request
reqs = [
    one_question_request({QUESTION!r}, ["eu-west", "us-east"], header="Region", multi_select=False,
                          timeout=600, tool_call_id=None),
    approval_request("Drop table events_2023", "DROP TABLE events_2023"),
    approval_request("Drop table events_2024", "DROP TABLE events_2024"),
]
outcomes = run_requests_sync(reqs)
print("RESULT " + json.dumps([[o.status, o.answered_by, o.answered_by_user] for o in outcomes]))
"""


def nightly(location: pathlib.Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NBASK_", "JPY_"))}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(NIGHTLY)],
        env={**env, "NBASK_POLICY": "later", "NBASK_INBOX": str(location)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_inbox_is_answered_in_a_notebook_and_the_run_goes_on(open_notebook, tmp_path: pathlib.Path):
    location = tmp_path / "inbox.sqlite3"
    assert "3 requests wait for an answer" in nightly(location).stderr
    assert len(open_inbox(str(location)).pending()) == 3

    cell = f"import json, nbask\nanswered = nbask.inbox({str(location)!r})\n"
    nb = open_notebook([cell + "print('KEPT ' + json.dumps([a.kept for a in answered]))"])
    nb.run_cell(0, wait=False)
    question = AskWidget(nb.widget(0, 0))
    question.expect_pending()
    heading = nb.widget(0, 0).locator(".nbask-batch")
    expect(heading).to_contain_text("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    # Approve all decides both approvals (behind its confirmation); the question is answered on its own.
    nb.widget(0, 0).get_by_role("button", name="Approve all (2)").click()
    nb.widget(0, 0).get_by_role("button", name="Approve 2").click()
    for nth in (1, 2):
        ApprovalView(nb.widget(0, nth)).expect_status("answered")
    question.choose(QUESTION, "us-east")
    question.submit()
    nb.wait_output(0, "KEPT ")
    assert json.loads(nb.stream_text(0).split("KEPT ", 1)[1].splitlines()[0]) == [True, True, True]

    assert open_inbox(str(location)).pending() == []
    done = nightly(location)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.split("RESULT ", 1)[1])
    assert [status for status, _, _ in got] == ["answered"] * 3
    assert {by for _, by, _ in got} == {"inbox"}
    assert all(user for _, _, user in got), "each answer names who gave it"


def test_a_waiting_cell_resumes_when_its_request_is_answered_in_the_inbox(open_notebook, tmp_path: pathlib.Path):
    """``inbox=True``: the card waits in the cell and the request in the inbox; answered at the
    inbox (by another process, as ``nbask inbox answer`` does), the card shows the decision and
    the cell goes on.
    """
    location = tmp_path / "inbox.sqlite3"
    cell = (
        f"import nbask\nnbask.configure(inbox={str(location)!r})\n"
        "d = await nbask.approve('Drop table events', 'DROP TABLE events', inbox=True)\n"
        "print('DECIDED', d.decision, d.answered_by, d.answered_by_user)"
    )
    nb = open_notebook([cell])
    nb.run_cell(0, wait=False)
    card = ApprovalView(nb.widget(0))
    expect(card.button("Approve")).to_be_visible(timeout=RUN_TIMEOUT_MS)
    store = open_inbox(str(location))
    (item,) = store.pending()
    request = item.asked_again()
    store.answer(item.id, request.decide(ApprovalResponse(action="approve")), by="ana")
    card.expect_status("answered")
    nb.wait_output(0, "DECIDED approve inbox ana")
    expect(card.root).to_contain_text("Approved")
