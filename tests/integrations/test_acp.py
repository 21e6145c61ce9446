"""nbask.integrations.acp as the client of a real ACP agent process: the scripted agent
(tests/integrations/acp_scripted_agent.py, written with the ACP SDK's own agent side) runs as a
subprocess over stdio, streams, asks ``session/request_permission`` with four options, and logs
what it received. Each test reads that log: the option id the agent got, its cancels, its files.

Headless under a scripted person and the unattended policies; then in a real kernel whose
question the test answers through the widget's comm, and interrupts.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, dismiss, edit, pick, raises, reject, time_out

import nbask

pytest.importorskip("acp")
from nbask.errors import NoOneCanAnswer
from nbask.kinds import ApprovalRequest, QuestionRequest

nbask_acp = importlib.import_module("nbask.integrations.acp")

AGENT = REPO / "tests" / "integrations" / "acp_scripted_agent.py"
QUESTION = "Allow Edit tests/test_1.py?"
#: The agent's options as the person sees them: its names, in its order, reject marked.
LABELS = ["Allow once", "Always allow edits", "Reject (Recommended)", "Never allow edits"]
IDS = ["allow-once", "allow-always", "reject-once", "reject-always"]


def command(log: Path) -> list[str]:
    return [sys.executable, str(AGENT), "--log", str(log)]


def received(log: Path, key: str) -> list[Any]:
    """Every entry ``key`` the agent logged, in order."""
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [line[key] for line in lines if key in line]


def pid_of(log: Path) -> int:
    return int(json.loads(log.read_text(encoding="utf-8").splitlines()[0])["pid"])


def ended(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def run(log: Path, text: str = "permission", **kwargs: Any) -> Any:
    return asyncio.run(nbask_acp.prompt(command(log), text, **kwargs))


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "agent.jsonl"


# -- a scripted person picks each of the agent's options -----------------------------------------


@pytest.mark.parametrize(("label", "option_id"), list(zip(LABELS, IDS, strict=True)), ids=IDS)
def test_the_person_picks_an_option_and_the_agent_receives_its_id(
    person: Person, log: Path, capsys: pytest.CaptureFixture[str], label: str, option_id: str
):
    person.answers(pick(label))
    reply = run(log)
    assert received(log, "permission") == [{"call": "call-1", "outcome": "selected", "option_id": option_id}]
    (asked,) = person.asked
    assert isinstance(asked, QuestionRequest)
    assert asked.tool_call_id == "call-1"
    (question,) = asked.question_set.questions
    assert (question.question, question.header) == (QUESTION, "edit")
    assert [o.label for o in question.options] == LABELS
    assert [o.description for o in question.options] == [
        "Allow this time",
        "Allow, and do not ask again",
        "Reject this time",
        "Reject, and do not ask again",
    ]
    preview = question.options[0].preview
    assert preview.startswith("kind: edit\n\n--- /work/tests/test_1.py\n+++ /work/tests/test_1.py\n")
    assert "-assert add(1, 2) == -3\n+assert add(1, 2) == 3" in preview
    assert reply.stop_reason == "end_turn"
    assert reply.text == f"I will fix the failing test.\nThe client sent option {option_id}."
    assert reply.thoughts == "The test fails on a sign."
    assert [(e.content, e.status) for e in reply.plan] == [("Read the test", "completed"), ("Fix the sign", "pending")]
    name = label.removesuffix(" (Recommended)")
    assert [(p.option_id, p.option_name, p.answered_by) for p in reply.permissions] == [(option_id, name, "person")]
    status = "completed" if option_id.startswith("allow") else "failed"
    assert reply.tool_calls["call-1"].status == status
    printed = capsys.readouterr().out
    assert printed.startswith(
        "thinking: The test fails on a sign.\n"
        "plan:\n  [x] Read the test (medium)\n  [ ] Fix the sign (high)\n"
        "I will fix the failing test.\n"
        "tool: Edit tests/test_1.py [edit] (pending)\n"
        f"permission: Edit tests/test_1.py -> {name} ({option_id}), answered by person\n"
        f"tool: Edit tests/test_1.py [edit] ({status})\n"
    )
    assert printed.endswith(f"The client sent option {option_id}.\n")
    (entry,) = nbask.history()
    assert (entry.kind, entry.answered_by, entry.tool_call_id) == ("question", "person", "call-1")
    assert ended(pid_of(log)), "the agent process is ended after the prompt"


@pytest.mark.parametrize(
    "decide",
    [dismiss(), time_out(), pick([], other="only the test file, please")],
    ids=["dismissed", "timed-out", "other-text"],
)
def test_anything_but_an_option_sends_the_reject_option(person: Person, log: Path, decide: Any):
    person.answers(decide)
    run(log)
    assert received(log, "permission") == [{"call": "call-1", "outcome": "selected", "option_id": "reject-once"}]


# -- unattended ------------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["recommended", "dismiss"])
def test_a_policy_sends_the_reject_option(log: Path, policy: str):
    nbask.configure(policy=policy)
    reply = run(log)
    assert received(log, "permission") == [{"call": "call-1", "outcome": "selected", "option_id": "reject-once"}]
    assert reply.text.endswith("The client sent option reject-once.")
    (entry,) = nbask.history()
    assert entry.answered_by == "policy"


def test_no_one_to_ask_sends_the_reject_option_and_is_in_the_history(person: Person, log: Path):
    person.unavailable = NoOneCanAnswer("no front end here")
    run(log)
    assert received(log, "permission") == [{"call": "call-1", "outcome": "selected", "option_id": "reject-once"}]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.status) == ("policy", "dismissed")
    assert entry.outcome.note == "No one could be asked: no front end here"


def test_without_a_reject_option_a_policy_sends_cancelled(log: Path):
    """Only allow options: a policy never allows, and ACP's one refusal is "cancelled"."""
    nbask.configure(policy="recommended")
    run(log, "options 2")
    assert received(log, "permission") == [{"call": "call-1", "outcome": "cancelled", "option_id": None}]


def test_a_single_option_cannot_be_asked_and_is_not_allowed(person: Person, log: Path):
    run(log, "options 1")
    assert person.asked == []
    assert received(log, "permission") == [{"call": "call-1", "outcome": "cancelled", "option_id": None}]


def test_two_permissions_at_once_are_each_asked_and_answered(person: Person, log: Path):
    person.answers(pick("Allow once"), pick("Never allow edits"))
    run(log, "two permissions")
    got = {entry["call"]: entry["option_id"] for entry in received(log, "permission")}
    assert got == {"call-1": "allow-once", "call-2": "reject-always"}
    assert [r.tool_call_id for r in person.asked] == ["call-1", "call-2"]
    assert [e.answered_by for e in nbask.history()] == ["person", "person"]


# -- an interrupt, a replay ------------------------------------------------------------------------


def test_an_interrupted_wait_cancels_the_turn_answers_cancelled_and_ends_the_agent(person: Person, log: Path):
    """The wait raises CancelledError in the connection's task, as a kernel interrupt does there."""
    person.answers(raises(asyncio.CancelledError()))
    with pytest.raises(asyncio.CancelledError):
        run(log)
    assert received(log, "cancel") == ["s-1"]  # session/cancel, before the permission's answer
    assert received(log, "permission") == [{"call": "call-1", "outcome": "cancelled", "option_id": None}]
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [next(iter(set(json.loads(line)) - {"pid"})) for line in lines][-2:] == ["cancel", "permission"]
    assert ended(pid_of(log))


def test_a_replay_answers_as_recorded_and_a_miss_raises(tmp_path: Path, log: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(pick("Always allow edits"))
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        run(log)
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    again = tmp_path / "again.jsonl"
    reply = run(again)
    assert received(again, "permission")[0]["option_id"] == "allow-always"
    assert reply.permissions[0].answered_by == "replay"
    missed = tmp_path / "missed.jsonl"
    with pytest.raises(nbask.ReplayMissing):
        run(missed, "two permissions")  # call-2's question was never recorded
    assert "cancel" in {key for line in missed.read_text().splitlines() for key in json.loads(line)}
    assert ended(pid_of(missed))


# -- one session, several prompts ------------------------------------------------------------------


def test_a_session_keeps_one_agent_process_for_several_prompts(person: Person, log: Path):
    person.answers(pick("Allow once"), pick("Reject (Recommended)"))

    async def two() -> list[str]:
        async with nbask_acp.Session(command(log), show=False) as agent:
            first = await agent.prompt("permission")
            second = await agent.prompt("permission")
            return [first.permissions[0].option_id, second.permissions[0].option_id]

    assert asyncio.run(two()) == ["allow-once", "reject-once"]
    assert received(log, "prompt") == ["permission", "permission"]
    assert len({json.loads(line)["pid"] for line in log.read_text().splitlines()}) == 1
    assert ended(pid_of(log))


# -- files and terminals ---------------------------------------------------------------------------


def test_capabilities_advertise_files_but_no_terminal(person: Person, log: Path):
    run(log, "terminal")
    (init,) = received(log, "initialize")
    assert init["client"] == "nbask"
    assert init["capabilities"]["fs"] == {"readTextFile": True, "writeTextFile": True}
    assert init["capabilities"]["terminal"] is False
    ((terminal),) = received(log, "terminal")
    assert terminal["code"] == -32601  # method not found: nbask runs no terminal
    assert person.asked == []


@pytest.mark.parametrize(
    ("decide", "written"),
    [(approve(), "fixed = True\n"), (edit("fixed = False\n"), "fixed = False\n"), (reject("not now"), None)],
    ids=["approve", "edit", "reject"],
)
def test_a_file_write_is_an_approval_of_its_path_and_content(
    person: Person, log: Path, tmp_path: Path, decide: Any, written: str | None
):
    person.answers(decide)
    target = tmp_path / "fix.py"
    run(log, f"write {target}")
    (asked,) = person.asked
    assert isinstance(asked, ApprovalRequest)
    assert (asked.approval.action, asked.approval.details) == (f"Write {target}", "fixed = True\n")
    (answer,) = received(log, "write")
    if written is None:
        assert not target.exists()
        assert "The person rejected it. Reason: not now." in answer["error"]
    else:
        assert target.read_text() == written
        assert answer == {"ok": True}


def notes(folder: Path) -> Path:
    """``notes/todo.md`` in ``folder``, holding the line the scripted agent's edit fixes."""
    target = folder / "notes" / "todo.md"
    target.parent.mkdir(parents=True)
    target.write_text("fixed = False\n")
    return target


@pytest.mark.parametrize("allow", ["Allow once", "Always allow edits"])
def test_an_allowed_edit_is_one_decision_and_the_read_and_write_carrying_it_out_are_not_asked(
    person: Person, log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], allow: str
):
    """The agent titles its call with the absolute path, then reads and writes the file (as
    Claude Code's ACP adapter does): one question, shown with the path relative to the cwd.
    """
    target = notes(tmp_path)
    person.answers(pick(allow), approve())  # were the read or the write asked, they would be approved
    reply = run(log, "edit notes/todo.md", cwd=tmp_path)
    (asked,) = person.asked
    assert isinstance(asked, QuestionRequest)
    (question,) = asked.question_set.questions
    assert question.question == "Allow Edit `notes/todo.md`?"
    assert question.options[0].preview.startswith("kind: edit\nfile: notes/todo.md\n\n--- notes/todo.md\n")
    assert target.read_text() == "fixed = True\n"
    assert received(log, "write") == [{"ok": True}]
    assert [entry.kind for entry in nbask.history()] == ["question"]
    assert reply.permissions[0].title == "Edit `notes/todo.md`"
    assert reply.tool_calls["edit-1"].status == "completed"
    printed = capsys.readouterr().out
    assert "file: wrote notes/todo.md (13 characters), allowed with Edit `notes/todo.md`\n" in printed


def test_a_rejected_edit_writes_nothing_and_a_write_not_allowed_is_still_asked(
    person: Person, log: Path, tmp_path: Path
):
    target = notes(tmp_path)
    person.answers(pick("Reject (Recommended)"))
    run(log, "edit notes/todo.md", cwd=tmp_path)
    assert target.read_text() == "fixed = False\n"
    assert received(log, "write") == []
    person.answers(approve())
    run(tmp_path / "second.jsonl", f"write {tmp_path / 'notes' / 'todo.md'}", cwd=tmp_path)
    assert isinstance(person.asked[-1], ApprovalRequest)
    assert person.asked[-1].approval.action == "Write notes/todo.md"  # under the cwd: relative


def test_allowing_a_read_does_not_allow_writing_that_file(person: Person, log: Path, tmp_path: Path):
    target = notes(tmp_path)
    person.answers(pick("Allow once"), reject("only look"))
    run(log, "look notes/todo.md", cwd=tmp_path)
    question, approval = person.asked
    assert isinstance(question, QuestionRequest)
    assert question.question_set.questions[0].question == "Allow Read notes/todo.md?"
    assert isinstance(approval, ApprovalRequest)
    assert approval.approval.action == "Write notes/todo.md"
    assert target.read_text() == "fixed = False\n"
    assert "only look" in received(log, "write")[0]["error"]


def test_an_edit_recorded_in_one_folder_replays_in_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    first, second = tmp_path / "one", tmp_path / "two"
    notes(first)
    target = notes(second)
    person = Person().answers(pick("Allow once"), approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        run(tmp_path / "one.jsonl", "edit notes/todo.md", cwd=first)
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    reply = run(tmp_path / "two.jsonl", "edit notes/todo.md", cwd=second)  # no ReplayMissing
    assert [(p.title, p.option_id, p.answered_by) for p in reply.permissions] == [
        ("Edit `notes/todo.md`", "allow-once", "replay")
    ]
    assert target.read_text() == "fixed = True\n"
    assert received(tmp_path / "two.jsonl", "write") == [{"ok": True}]


def test_a_recording_replays_from_another_folder(
    person: Person, log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    person.answers(approve())
    run(log, f"write {first / 'fix.py'}", cwd=first)
    assert person.asked[-1].approval.action == "Write fix.py"
    recording = nbask.save_history(tmp_path / "answers.jsonl")
    monkeypatch.undo()  # the policy decides now, not the scripted person
    nbask.configure(policy="replay", replay_file=str(recording))
    run(tmp_path / "again.jsonl", f"write {second / 'fix.py'}", cwd=second)
    assert (second / "fix.py").read_text() == "fixed = True\n"
    assert nbask.history()[-1].answered_by == "replay"


def test_a_file_read_is_an_approval_and_a_rejection_is_an_error(person: Person, log: Path, tmp_path: Path):
    target = tmp_path / "notes.txt"
    target.write_text("one\ntwo\nthree\n")
    person.answers(approve(), reject("private"))
    run(log, f"read {target}")
    assert received(log, "read") == [{"content": "two\n"}]  # line 2, limit 1
    run(log, f"read {target}")
    assert "private" in received(log, "read")[-1]["error"]
    assert [r.approval.action for r in person.approvals] == [f"Read {target}"] * 2


def test_files_false_advertises_and_answers_no_file_requests(person: Person, log: Path, tmp_path: Path):
    target = tmp_path / "fix.py"
    run(log, f"write {target}", files=False)
    assert received(log, "initialize")[0]["capabilities"]["fs"] == {"readTextFile": False, "writeTextFile": False}
    assert received(log, "write")[0]["code"] == -32601
    assert person.asked == []
    assert not target.exists()


def test_the_stream_is_text_with_control_characters_escaped(capsys: pytest.CaptureFixture[str]):
    from acp import update_agent_message_text  # noqa: PLC0415

    from nbask.integrations.acp._text import Transcript  # noqa: PLC0415

    transcript = Transcript()
    transcript.update(update_agent_message_text("<b>bold</b> \x1b[31mred\x1b[0m"))
    transcript.end()
    assert capsys.readouterr().out == "<b>bold</b> \\x1b[31mred\\x1b[0m\n"
    assert transcript.text == "<b>bold</b> \x1b[31mred\x1b[0m"


# -- a real kernel, answered through the widget ----------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import KernelHarness, kernel_fixture, printed_json  # noqa: E402

SETUP = rf"""
import json, sys
import nbask
import nbask.integrations.acp as nbask_acp
AGENT = [sys.executable, {str(AGENT)!r}, "--log"]
"""

k = kernel_fixture(SETUP)


def question_widget(k: KernelHarness) -> Any:
    return k.wait_for_comm_open(
        predicate=lambda comm: any(q.get("question") == QUESTION for q in comm.state.get("_questions", [])),
        timeout=30,
    )


@pytest.mark.kernel
def test_in_a_kernel_the_person_picks_the_agents_option_through_the_widget(k: KernelHarness, tmp_path: Path):
    log = tmp_path / "kernel.jsonl"
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(
        f"reply = await nbask_acp.prompt(AGENT + [{str(log)!r}], 'permission')\n"
        "print(json.dumps({'stop': reply.stop_reason, 'sent': [p.option_id for p in reply.permissions]}))"
    )
    widget = question_widget(k)
    (shown,) = widget.state["_questions"]
    assert [o["label"] for o in shown["options"]] == LABELS
    k.wait_until_waiting(widget)
    answer = {"action": "submit", "answers": [{"selected": ["Never allow edits"], "other": None}]}
    k.update_widget(widget.comm_id, {"_response": {**answer, "view_id": "t", "sent_at_ms": 0}})
    result = k.result(cell, 60)
    assert printed_json(result) == {"stop": "end_turn", "sent": ["reject-always"]}
    assert "I will fix the failing test." in result.stdout
    assert "The client sent option reject-always." in result.stdout
    assert received(log, "permission") == [{"call": "call-1", "outcome": "selected", "option_id": "reject-always"}]
    assert ended(pid_of(log))


@pytest.mark.kernel
def test_in_a_kernel_an_interrupt_cancels_the_turn_and_ends_the_agent(k: KernelHarness, tmp_path: Path):
    log = tmp_path / "interrupted.jsonl"
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(f"reply = await nbask_acp.prompt(AGENT + [{str(log)!r}], 'permission')")
    widget = question_widget(k)
    k.wait_until_waiting(widget)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    assert result.ename == "KeyboardInterrupt"
    assert received(log, "cancel") == ["s-1"]
    assert received(log, "permission") == [{"call": "call-1", "outcome": "cancelled", "option_id": None}]
    assert ended(pid_of(log)), "no agent process is left behind"
    after = k.run_ok("print(json.dumps([nbask.history()[-1].outcome.status]))")
    assert json.loads(after.stdout.strip().splitlines()[-1]) == ["cancelled"]
