"""The ``later`` policy and the ``nbask inbox`` command, in real processes, on SQLite and on a
real PostgreSQL server: a run stops with ``nbask.AnswerLater`` naming what waits and the
command that answers it; the person answers at a terminal (pexpect drives the command's own
prompts); the same run again goes on with the answer, which the history says came from the
inbox, by whom. A batch is kept whole before the run stops; running again unanswered keeps one
request waiting, not two; an expired request ends as a timeout, then waits again.
"""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import sys
import textwrap
import time

import nbformat
import pexpect
import pytest

import nbask
from nbask.inbox_store import open_inbox
from nbask.kinds.approval.request import approval_request

ASK = """
import json, nbask
ans = nbask.ask_sync("Which database should the app use?", ["PostgreSQL (Recommended)", "SQLite"], header="DB")
entry = nbask.history()[-1]
print("RESULT " + json.dumps({
    "answers": ans.answers, "by": ans.answered_by, "user": ans.answered_by_user,
    "recorded_by": ans.recorded_by, "summary": entry.outcome.answered_by,
    "waited": ans.resolved_at >= ans.asked_at and ans.seconds_waited > 0,
}))
"""

BATCH = """
import json, nbask
from nbask.kinds.approval.request import approval_request
from nbask.kinds.form.request import form_request
from nbask.resolvers.run import run_requests_sync
from nbask.kinds.question.request import one_question_request
reqs = [
    one_question_request(
        "Which region?", ["eu-west", "us-east"], header="Region", multi_select=False, timeout=600, tool_call_id=None
    ),
    approval_request("Drop table events", "DROP TABLE events"),
    form_request("Who owns the report?", {"type": "object", "properties": {"owner": {"type": "string"}}}),
]
outcomes = run_requests_sync(reqs)
print("RESULT " + json.dumps([[o.status, o.answered_by] for o in outcomes]))
"""


def env_for(location: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("NBASK_")}
    env.pop("JPY_SESSION_NAME", None)
    return {**env, "NBASK_POLICY": "later", "NBASK_INBOX": location}


def python(location: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python *args`` under the later policy with the inbox at ``location``, no terminal."""
    return subprocess.run(
        [sys.executable, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=env_for(location),
        check=False,
    )


def run(code: str, location: str) -> subprocess.CompletedProcess[str]:
    return python(location, "-c", textwrap.dedent(code))


def result(done: subprocess.CompletedProcess[str]) -> object:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.split("RESULT ", 1)[1])


def nbask_command(location: str, *args: str) -> subprocess.CompletedProcess[str]:
    return python(location, "-m", "nbask", "inbox", *args)


def answering(location: str, *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "nbask", "inbox", "answer", *args],
        env=env_for(location),
        encoding="utf-8",
        timeout=30,
        echo=False,
    )


def test_a_question_waits_then_the_same_run_goes_on_with_the_answer_given_at_a_terminal(location: str):
    stopped = run(ASK, location)
    assert stopped.returncode != 0
    assert "AnswerLater" in stopped.stderr
    (item,) = open_inbox(location).pending()
    assert f"1 request waits for an answer in the inbox ({open_inbox(location).name})" in stopped.stderr
    assert f"{item.short_id}  question: Which database should the app use?" in stopped.stderr
    assert f"`nbask inbox answer {item.short_id}`" in stopped.stderr

    listed = json.loads(nbask_command(location, "--json").stdout)
    assert [(entry["id"], entry["headline"]) for entry in listed] == [(item.id, "Which database should the app use?")]

    child = answering(location, item.short_id)
    child.expect_exact("Which database should the app use?")
    child.expect_exact("(d dismisses): ")
    child.sendline("2")
    child.expect_exact(f"{item.short_id} answered")
    child.expect(pexpect.EOF)

    got = result(run(ASK, location))
    assert got == {
        "answers": {"Which database should the app use?": "SQLite"},
        "by": "inbox",
        "user": getpass.getuser(),
        "recorded_by": "person",
        "summary": "inbox",
        "waited": True,  # from when the inbox kept it to when it was answered there
    }
    again = answering(location, item.short_id)
    again.expect_exact(f"{item.short_id} is answered, not waiting for an answer")
    again.expect(pexpect.EOF)


def test_a_batch_is_kept_whole_before_the_run_stops_and_answered_in_one_sitting(location: str):
    stopped = run(BATCH, location)
    assert "3 requests wait for an answer" in stopped.stderr
    assert "`nbask inbox answer --all`" in stopped.stderr
    items = open_inbox(location).pending()
    assert [item.kind for item in items] == ["question", "approval", "form"]
    assert len({item.batch_id for item in items}) == 1
    assert items[0].batch_id is not None

    child = answering(location, "--all")
    child.expect_exact("Which region?")
    child.expect_exact("(d dismisses): ")
    child.sendline("1")
    child.expect_exact("Drop table events")
    child.expect_exact("Choose 1-3: ")
    child.sendline("3")
    child.expect_exact("Reason (optional): ")
    child.sendline("keep it")
    child.expect_exact("Who owns the report?")
    child.expect_exact(">")
    child.sendline("ana")
    child.expect(pexpect.EOF)
    assert open_inbox(location).pending() == []
    assert result(run(BATCH, location)) == [["answered", "inbox"]] * 3


def test_running_again_unanswered_keeps_one_request_waiting(location: str):
    for _ in range(2):
        assert "1 request waits" in run(ASK, location).stderr
    assert len(open_inbox(location).pending()) == 1


def test_an_expired_request_ends_as_a_timeout_then_waits_again(location: str):
    store = open_inbox(location)
    request = approval_request("Drop table events", "DROP TABLE events")
    store.add(request, expires=0.05)
    time.sleep(0.1)  # past its expiry: the store reads it back as expired
    code = """
        import json, nbask
        d = nbask.approve_sync("Drop table events", "DROP TABLE events")
        print("RESULT " + json.dumps([d.status, d.decision, d.reason]))
    """
    status, decision, reason = result(run(code, location))  # type: ignore[misc]
    assert (status, decision) == ("timeout", "reject")
    assert "expired" in reason
    assert "1 request waits" in run(code, location).stderr  # asked again in the inbox, for later


def test_the_command_says_when_nothing_waits_and_refuses_an_unknown_id(location: str):
    assert "Nothing waits for an answer" in nbask_command(location).stdout
    missing = nbask_command(location, "answer", "abcdef12")
    assert missing.returncode == 1
    assert "abcdef12" in missing.stderr


@pytest.mark.parametrize("args", [["answer"], ["answer", "abcdef12", "--all"]])
def test_answer_needs_one_id_or_all(location: str, args: list[str]):
    done = nbask_command(location, *args)
    assert done.returncode == 2
    assert "name one request" in done.stderr


def test_a_notebook_run_by_papermill_says_in_its_output_what_waits_then_goes_on(tmp_path):
    """Papermill runs the notebook: the asking cell's output says what waits and how to answer
    it; answered in the inbox, the same notebook run again goes on, and its output says the
    answer came from the inbox.
    """
    location = str(tmp_path / "inbox.sqlite3")  # one backend is enough for what a notebook shows
    source = tmp_path / "nightly.ipynb"
    cells = [
        "import nbask",
        'd = nbask.approve_sync("Drop table events", "DROP TABLE events")\nprint("DECIDED", d.decision)',
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, source)

    def papermill(out: str) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
        done = subprocess.run(
            [sys.executable, "-m", "papermill", str(source), str(tmp_path / out), "-k", "python3"],
            capture_output=True,
            text=True,
            timeout=120,
            env=env_for(location),
            check=False,
        )
        ran = nbformat.read(tmp_path / out, as_version=4).cells  # papermill adds cells where it failed
        return done, next(cell for cell in ran if cell.source.startswith("d = ")).outputs

    stopped, outputs = papermill("first.ipynb")
    assert stopped.returncode != 0
    (item,) = open_inbox(location).pending()
    shown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    assert "Drop table events" in shown
    assert f"Waiting in the inbox as `{item.short_id}`: answer it with `nbask inbox answer {item.short_id}`" in shown
    assert any(o.get("ename") == "AnswerLater" for o in outputs)

    child = answering(location, item.short_id)  # the person, at a terminal
    child.expect_exact("Drop table events")
    child.expect_exact("Choose 1-3: ")
    child.sendline("1")
    child.expect_exact(f"{item.short_id} answered")
    child.expect(pexpect.EOF)
    done, outputs = papermill("second.ipynb")
    assert done.returncode == 0, done.stderr
    text = "".join(o.get("text", "") for o in outputs)
    assert "DECIDED approve" in text
    shown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    assert f"Approved from the inbox by {getpass.getuser()}" in shown


def test_how_long_a_request_waits_is_a_setting(location: str):
    """``inbox_expires`` (or NBASK_INBOX_EXPIRES): the request kept by ``later`` expires after it;
    a value that is not a positive number of seconds is refused naming the setting.
    """
    try:
        nbask.configure(policy="later", inbox=location, inbox_expires=90)
        with pytest.raises(nbask.AnswerLater):
            nbask.approve_sync("Drop table events", "DROP TABLE events")
        (item,) = open_inbox(location).pending()
        assert item.expires_at is not None
        assert item.expires_at - item.asked_at == pytest.approx(90, abs=1)
        with pytest.raises(ValueError, match="inbox_expires='-1' is not a positive number of seconds"):
            nbask.configure(inbox_expires=-1)
    finally:
        nbask.configure(policy=None, inbox=None, inbox_expires=None)


APPROVE = """
import json, sys, nbask
d = nbask.approve_sync(sys.argv[1], "make deploy", approvers=sys.argv[2:])
print("RESULT " + json.dumps({"decision": d.decision, "user": d.answered_by_user, "identity": d.identity}))
"""


def test_at_a_terminal_the_account_answers_verified_and_only_if_it_is_an_approver(location: str):
    me = getpass.getuser()
    assert python(location, "-c", APPROVE, "Deploy", "someone-else").returncode != 0
    (item,) = open_inbox(location).pending()
    refused = answering(location, item.short_id)
    refused.expect_exact(f"{item.short_id} cannot be answered here: {me} is not one of the approvers (someone-else)")
    refused.expect(pexpect.EOF)
    assert open_inbox(location).get(item.id).status == "pending"

    assert python(location, "-c", APPROVE, "Restart", me).returncode != 0
    mine = next(pending for pending in open_inbox(location).pending() if pending.approvers == (me,))
    child = answering(location, mine.short_id)
    child.expect_exact("Choose 1-3: ")
    child.sendline("1")
    child.expect_exact(f"{mine.short_id} answered")
    child.expect(pexpect.EOF)
    assert result(python(location, "-c", APPROVE, "Restart", me)) == {
        "decision": "approve",
        "user": me,
        "identity": "verified",
    }
