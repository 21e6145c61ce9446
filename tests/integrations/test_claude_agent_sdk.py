"""nbask.integrations.claude_agent_sdk inside the Claude Agent SDK's own code, offline: ``query()``
and ``ClaudeSDKClient`` talk to fixtures/claude_code_cli.py, a ``Transport`` playing Claude Code's
side of the control protocol (it answers ``initialize``, sends ``can_use_tool`` requests, records
the SDK's control responses and runs a tool only when it was allowed). Each test checks the
control responses the SDK sent back: allow with ``updatedInput`` (and ``updatedPermissions``), or
deny with the message; and that a denied tool never ran.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.person import FIXTURES, REPO, Person, approve, dismiss, edit, pick, reject, time_out

import nbask
from nbask.errors import NoOneCanAnswer, ReplayMissing

pytest.importorskip("claude_agent_sdk")
from claude_agent_sdk import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    PermissionResult,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    ToolPermissionContext,
    query,
)

from nbask.integrations import claude_agent_sdk as integration

sys.path.insert(0, str(FIXTURES))
from claude_code_cli import ClaudeCodeCLI, ToolCall

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CommInfo, KernelHarness, kernel_fixture

QUESTION = "Which database should the app use?"
ASK_INPUT = {
    "questions": [
        {
            "question": QUESTION,
            "header": "DB",
            "multiSelect": False,
            "options": [
                {"label": "PostgreSQL (Recommended)", "description": "Relational, robust."},
                {"label": "SQLite", "description": "A file, no server.", "preview": "sqlite3 app.db"},
            ],
        }
    ],
    "metadata": {"source": "test"},
}
BASH = {"command": "rm -rf build/", "description": "Remove the build directory"}
WRITE = {"file_path": "notes/résumé.md", "content": "héllo"}
SUGGESTION = {
    "type": "addRules",
    "rules": [{"toolName": "Bash", "ruleContent": "rm -rf build/"}],
    "behavior": "allow",
    "destination": "localSettings",
}
REMEMBER = "Don't ask again"
REMEMBER_QUESTION = "Allow Bash(rm -rf build/) from now on?"
DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."


def run(calls: list[ToolCall]) -> tuple[ClaudeCodeCLI, list[Any]]:
    """One ``query()`` turn against the scripted CLI; the CLI and the messages the SDK yielded."""
    cli = ClaudeCodeCLI(calls)
    options = ClaudeAgentOptions(can_use_tool=integration.can_use_tool)

    async def main() -> list[Any]:
        return [message async for message in query(prompt="Clean up the build.", options=options, transport=cli)]

    messages = asyncio.run(asyncio.wait_for(main(), 20))
    assert isinstance(messages[-1], ResultMessage)
    assert len(cli.responses) == len(calls), cli.responses
    return cli, messages


def allowed(updated_input: dict[str, Any]) -> dict[str, Any]:
    return {"behavior": "allow", "updatedInput": updated_input}


# -- headless: the recommended policy -------------------------------------------------------------


def test_recommended_policy_answers_the_question_and_denies_the_command():
    nbask.configure(policy="recommended")
    cli, _ = run([ToolCall("AskUserQuestion", ASK_INPUT), ToolCall("Bash", BASH)])
    note = "Answered by nbask's 'recommended' policy, not by a person: no one was asked."
    assert cli.responses[0] == allowed(
        {**ASK_INPUT, "answers": {QUESTION: "PostgreSQL (Recommended)"}, "annotations": {QUESTION: {"notes": note}}}
    )
    denied = cli.responses[1]
    assert denied["behavior"] == "deny"
    assert denied["message"].startswith(
        "Not approved: Call Bash did not run. It was rejected by policy, not by a person."
    )
    assert "an unattended run does not approve actions on its own" in denied["message"]
    assert [name for name, _ in cli.ran] == ["AskUserQuestion"]  # the command never ran
    assert [(e.kind, e.answered_by) for e in nbask.history()] == [("question", "policy"), ("approval", "policy")]


# -- headless: a scripted person ----------------------------------------------------------------------


def test_person_answers_the_question_with_a_choice_and_typed_text(person: Person):
    person.answers(pick("SQLite", other="with WAL on"))
    cli, _ = run(
        [ToolCall("AskUserQuestion", {**ASK_INPUT, "questions": [{**ASK_INPUT["questions"][0], "multiSelect": True}]})]
    )
    (asked,) = person.questions
    assert asked["questions"][0]["multi_select"] is True
    assert [o["label"] for o in asked["questions"][0]["options"]] == ["PostgreSQL (Recommended)", "SQLite"]
    response = cli.responses[0]
    assert response["updatedInput"]["answers"] == {QUESTION: "SQLite, with WAL on"}
    assert "annotations" not in response["updatedInput"]  # a person answered everything: no note
    assert response["updatedInput"]["metadata"] == {"source": "test"}


def test_person_notes_and_the_chosen_preview_go_back_in_annotations(person: Person):
    person.answers(pick("SQLite", notes={0: "Only for the demo."}, note="Revisit next sprint."))
    cli, _ = run([ToolCall("AskUserQuestion", ASK_INPUT)])
    (asked,) = person.questions
    # The preview reaches the person (shown beside the options); the other option has none.
    assert asked["questions"][0]["options"][1]["preview"] == "sqlite3 app.db"
    assert "preview" not in asked["questions"][0]["options"][0]
    assert cli.responses[0] == allowed(
        {
            **ASK_INPUT,
            "answers": {QUESTION: "SQLite"},
            "annotations": {
                QUESTION: {"notes": "Only for the demo.\n\nRevisit next sprint.", "preview": "sqlite3 app.db"}
            },
        }
    )


@pytest.mark.parametrize(
    ("decide", "why"),
    [(dismiss(), "dismissed the question(s) without answering"), (time_out(), "No answer within")],
    ids=["dismiss", "timeout"],
)
def test_no_answer_is_a_deny_that_says_so(person: Person, decide: Any, why: str):
    person.answers(decide)
    cli, _ = run([ToolCall("AskUserQuestion", ASK_INPUT)])
    assert cli.responses[0]["behavior"] == "deny"
    assert cli.responses[0]["message"].startswith("No one answered the question(s).")
    assert why in cli.responses[0]["message"]
    assert cli.ran == []


def test_invalid_questions_are_denied_naming_the_field(person: Person):
    bad = {"questions": [{**ASK_INPUT["questions"][0], "options": [{"label": "Yes"}, {"label": "Other"}]}]}
    cli, _ = run([ToolCall("AskUserQuestion", bad)])
    message = cli.responses[0]["message"]
    assert message.startswith("Error: Invalid arguments for AskUserQuestion: questions[0].options")
    assert "'Other' is not allowed" in message
    assert person.asked == []


def test_person_approves_the_command_as_it_is(person: Person):
    person.answers(approve())
    cli, _ = run([ToolCall("Bash", BASH, title="Claude wants to run rm -rf build/")])
    (approval,) = person.approvals
    assert (approval.approval.action, approval.approval.details) == (
        "Claude wants to run rm -rf build/",
        "rm -rf build/",
    )
    assert approval.tool_call_id == "toolu_1"
    assert cli.responses == [allowed(BASH)]
    assert cli.ran == [("Bash", BASH)]


def test_person_edits_the_command(person: Person):
    person.answers(edit("rm -rf build/cache/"))
    cli, _ = run([ToolCall("Bash", BASH)])
    assert person.approvals[0].approval.action == "Call Bash"
    edited = {**BASH, "command": "rm -rf build/cache/"}
    assert cli.responses == [allowed(edited)]
    assert cli.ran == [("Bash", edited)]


def test_person_rejects_with_a_reason(person: Person):
    person.answers(reject("keep the build for the audit"))
    cli, _ = run([ToolCall("Bash", BASH)])
    assert cli.responses == [
        {
            "behavior": "deny",
            "message": "Not approved: Call Bash did not run. The person rejected it. "
            f"Reason: keep the build for the audit. {DO_NOT_RETRY}",
        }
    ]
    assert cli.ran == []


def test_other_tools_show_and_take_their_input_as_json(person: Person):
    person.answers(edit({"file_path": "notes/résumé.md", "content": "hello, edited"}), edit("not json"))
    cli, _ = run([ToolCall("Write", WRITE), ToolCall("Write", WRITE)])
    assert json.loads(person.approvals[0].approval.details) == WRITE
    assert person.approvals[0].approval.details == json.dumps(WRITE, indent=2, ensure_ascii=False)
    assert cli.responses[0] == allowed({"file_path": "notes/résumé.md", "content": "hello, edited"})
    assert cli.responses[1]["behavior"] == "deny"
    assert cli.responses[1]["message"].startswith(
        "Not approved: Call Write did not run. The person edited its arguments, but the edited arguments are "
        "not valid JSON (Expecting value: line 1 column 1 (char 0))."
    )
    assert cli.ran == [("Write", {"file_path": "notes/résumé.md", "content": "hello, edited"})]


def test_no_one_to_ask_denies(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    cli, _ = run([ToolCall("Bash", BASH)])
    assert cli.responses[0]["behavior"] == "deny"
    assert cli.responses[0]["message"] == (
        "Not approved: Call Bash did not run. It was rejected by policy, not by a person. "
        f"Reason: No one could be asked: no front end here. {DO_NOT_RETRY}"
    )
    assert cli.ran == []
    (entry,) = nbask.history()  # the refusal is kept, as any other outcome
    assert (entry.kind, entry.answered_by, entry.tool_call_id) == ("approval", "policy", "toolu_1")


@pytest.mark.parametrize(("choice", "remembered"), [("Don't ask again", True), ("Just this once (Recommended)", False)])
def test_dont_ask_again_returns_the_suggested_rules(person: Person, choice: str, remembered: bool):
    """Through ClaudeSDKClient: after an approval, one question offers Claude Code's suggestion."""
    person.answers(approve(), pick(choice))
    cli = ClaudeCodeCLI([ToolCall("Bash", BASH, suggestions=[SUGGESTION])])

    async def main() -> list[Any]:
        options = ClaudeAgentOptions(can_use_tool=integration.can_use_tool)
        async with ClaudeSDKClient(options=options, transport=cli) as client:
            await client.query("Clean up the build.")
            return [message async for message in client.receive_response()]

    messages = asyncio.run(asyncio.wait_for(main(), 20))
    assert isinstance(messages[-1], ResultMessage)
    (question,) = person.questions
    assert question["questions"][0]["question"] == REMEMBER_QUESTION
    assert [o["label"] for o in question["questions"][0]["options"]] == [
        "Just this once (Recommended)",
        "Don't ask again",
    ]
    expected = allowed(BASH) | ({"updatedPermissions": [SUGGESTION]} if remembered else {})
    assert cli.responses == [expected]


def test_an_edited_call_is_not_offered_a_rule(person: Person):
    person.answers(edit("rm -rf build/cache/"))
    cli, _ = run([ToolCall("Bash", BASH, suggestions=[SUGGESTION])])
    assert person.questions == []
    assert "updatedPermissions" not in cli.responses[0]


# -- in a real kernel, answered through the widget ------------------------------------------------

KERNEL = "nbask-ipykernel-7.4"
KERNEL_SETUP = f"""
import json, sys
sys.path.insert(0, {str(FIXTURES)!r})
from claude_agent_sdk import ClaudeAgentOptions, query
from claude_code_cli import ClaudeCodeCLI, ToolCall
import nbask.integrations.claude_agent_sdk

ASK = {ASK_INPUT!r}
BASH = {BASH!r}
options = ClaudeAgentOptions(can_use_tool=nbask.integrations.claude_agent_sdk.can_use_tool)

async def turn(*calls):
    cli = ClaudeCodeCLI(list(calls))
    messages = [m async for m in query(prompt="Clean up the build.", options=options, transport=cli)]
    print(json.dumps({{"responses": cli.responses, "ran": cli.ran, "last": type(messages[-1]).__name__}}))
"""


k = kernel_fixture(KERNEL_SETUP)


def widget(k: KernelHarness, shows: Callable[[dict[str, Any]], bool]) -> CommInfo:
    return k.wait_for_comm_open(predicate=lambda comm: shows(comm.state), timeout=30)


def turn(k: KernelHarness, calls: str) -> str:
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this one's
    return k.execute(f"await turn({calls})")


def printed(k: KernelHarness, cell: str) -> dict[str, Any]:
    result = k.result(cell, 60)
    assert result.ok, f"{result.error_text}\n{result.stderr}"
    out: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["last"] == "ResultMessage"
    return out


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ({"action": "approve", "edited_details": None, "reason": ""}, allowed(BASH)),
        (
            {"action": "approve", "edited_details": "rm -rf build/cache/", "reason": ""},
            allowed({**BASH, "command": "rm -rf build/cache/"}),
        ),
        (
            {"action": "reject", "edited_details": None, "reason": "keep the build for the audit"},
            {
                "behavior": "deny",
                "message": "Not approved: Call Bash did not run. The person rejected it. "
                f"Reason: keep the build for the audit. {DO_NOT_RETRY}",
            },
        ),
    ],
    ids=["approve", "edit", "reject"],
)
def test_kernel_the_command_is_approved_edited_or_rejected_in_the_widget(
    k: KernelHarness, response: dict[str, Any], expected: dict[str, Any]
):
    cell = turn(k, 'ToolCall("Bash", BASH)')
    approval = widget(k, lambda state: state.get("_kind") == "approval" and state.get("_title") == "Call Bash")
    assert approval.state["_details"] == "rm -rf build/"
    k.update_widget(approval.comm_id, {"_response": {**response, "view_id": "t", "sent_at_ms": 0}})
    out = printed(k, cell)
    assert out["responses"] == [expected]
    assert out["ran"] == ([["Bash", expected["updatedInput"]]] if expected["behavior"] == "allow" else [])


@pytest.mark.kernel
def test_kernel_the_question_is_answered_in_the_widget(k: KernelHarness):
    cell = turn(k, 'ToolCall("AskUserQuestion", ASK)')
    question = widget(k, lambda state: any(q.get("question") == QUESTION for q in state.get("_questions", [])))
    # The widget shows the option's preview; the person adds a note to the question and the set.
    assert question.state["_questions"][0]["options"][1]["preview"] == "sqlite3 app.db"
    entry = {"selected": ["SQLite"], "other": None, "note": "Turn on WAL."}
    answer = {"action": "submit", "answers": [entry], "note": "Demo only.", "view_id": "t", "sent_at_ms": 0}
    k.update_widget(question.comm_id, {"_response": answer})
    out = printed(k, cell)
    annotations = {QUESTION: {"notes": "Turn on WAL.\n\nDemo only.", "preview": "sqlite3 app.db"}}
    updated = {**ASK_INPUT, "answers": {QUESTION: "SQLite"}, "annotations": annotations}
    assert out["responses"] == [allowed(updated)]
    assert out["ran"] == [["AskUserQuestion", updated]]


@pytest.mark.kernel
def test_kernel_dont_ask_again_is_a_question_after_the_approval(k: KernelHarness):
    cell = turn(k, f"ToolCall('Bash', BASH, suggestions=[{SUGGESTION!r}])")
    approval = widget(k, lambda state: state.get("_kind") == "approval" and state.get("_title") == "Call Bash")
    approve_it = {"action": "approve", "edited_details": None, "reason": "", "view_id": "t", "sent_at_ms": 0}
    k.update_widget(approval.comm_id, {"_response": approve_it})
    question = widget(k, lambda state: any(q.get("question") == REMEMBER_QUESTION for q in state.get("_questions", [])))
    answer = {"action": "submit", "answers": [{"selected": [REMEMBER], "other": None}], "view_id": "t", "sent_at_ms": 0}
    k.update_widget(question.comm_id, {"_response": answer})
    out = printed(k, cell)
    assert out["responses"] == [{**allowed(BASH), "updatedPermissions": [SUGGESTION]}]


@pytest.mark.kernel
def test_kernel_an_interrupt_denies_and_stops_the_run(k: KernelHarness):
    """The SDK runs the callback in a task of its own; the interrupt must still answer Claude
    Code (deny, interrupt), or it would wait for the answer and the cell would never end.
    """
    cell = turn(k, 'ToolCall("Bash", BASH), ToolCall("Bash", BASH)')
    approval = widget(k, lambda state: state.get("_kind") == "approval" and state.get("_title") == "Call Bash")
    k.wait_until_waiting(approval)
    k.interrupt()
    out = printed(k, cell)
    assert out["responses"] == [{"behavior": "deny", "message": integration.INTERRUPTED, "interrupt": True}]
    assert out["ran"] == []
    status = k.run_ok("import nbask; print(nbask.history()[-1].outcome.status)").stdout.strip()
    assert status == "cancelled"


# -- through the SDK's control protocol: replay misses, the error policy, time limits, a caller's own rules --


READ = {"file_path": "README.md"}


def run_with(calls: list[ToolCall], callback: Any = integration.can_use_tool) -> ClaudeCodeCLI:
    """One ``query()`` turn against the scripted CLI with ``callback`` as ``can_use_tool``."""
    cli = ClaudeCodeCLI(calls)
    options = ClaudeAgentOptions(can_use_tool=callback)

    async def main() -> list[Any]:
        return [message async for message in query(prompt="Clean up the build.", options=options, transport=cli)]

    messages = asyncio.run(asyncio.wait_for(main(), 20))
    assert isinstance(messages[-1], ResultMessage)
    assert len(cli.responses) == len(calls), cli.responses
    return cli


# -- a replay miss, and no one to ask ---------------------------------------------------------------


@pytest.fixture
def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A recording of one approved Bash call, replayed from now on."""
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        run_with([ToolCall("Bash", BASH)])
    saved = nbask.save_history(tmp_path / "answers.jsonl")
    nbask.configure(policy="replay", replay_file=saved)
    return saved


def a_miss(response: dict[str, Any]) -> bool:
    """A deny that stops Claude Code's run, with nbask's replay-miss message."""
    return (
        response["behavior"] == "deny"
        and response["interrupt"] is True
        and response["message"].startswith("replay:")
        and response["message"].endswith(" Stop here.")
    )


THREE_CALLS = [ToolCall("Bash", BASH), ToolCall("Bash", BASH), ToolCall("Bash", BASH)]


def test_a_replay_miss_stops_the_run_and_is_logged(recording: Path, caplog: pytest.LogCaptureFixture):
    """With the SDK's own query(): the run stops at the miss, nothing after it is asked or run."""
    del recording
    caplog.set_level(logging.ERROR, logger="nbask.integrations")
    cli = ClaudeCodeCLI(THREE_CALLS)
    options = ClaudeAgentOptions(can_use_tool=integration.can_use_tool)

    async def main() -> list[Any]:
        return [message async for message in query(prompt="Clean up the build.", options=options, transport=cli)]

    messages = asyncio.run(asyncio.wait_for(main(), 20))
    assert isinstance(messages[-1], ResultMessage)
    # The recorded approval is replayed once; the second call has no recorded answer.
    first, miss = cli.responses  # the third call was never asked: the run stopped
    assert first == allowed(BASH)
    assert a_miss(miss), miss
    assert "Call Bash" in miss["message"]
    assert cli.ran == [("Bash", BASH)]  # the second call did not run
    assert nbask.history()[-1].answered_by == "replay"  # the miss is not an outcome
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "nbask.ReplayMissing" in record.getMessage()
    assert "toolu_2" in record.getMessage()
    assert "rm -rf" not in record.getMessage()  # ids only, never what was asked


def test_nbasks_query_raises_the_replay_miss_once_the_stream_has_ended(recording: Path):
    del recording
    cli = ClaudeCodeCLI(THREE_CALLS)
    options = ClaudeAgentOptions(can_use_tool=integration.can_use_tool)
    messages: list[Any] = []

    async def main() -> None:
        async for message in integration.query(prompt="Clean up the build.", options=options, transport=cli):
            messages.append(message)  # noqa: PERF401 - kept one by one: the stream raises at its end

    with pytest.raises(ReplayMissing, match="Call Bash"):
        asyncio.run(asyncio.wait_for(main(), 20))
    assert isinstance(messages[-1], ResultMessage)  # every message came through first
    assert len(cli.responses) == 2
    assert a_miss(cli.responses[1])
    assert cli.ran == [("Bash", BASH)]


def test_nbasks_query_without_a_miss_is_the_sdks_query(recording: Path):
    del recording
    cli = ClaudeCodeCLI([ToolCall("Bash", BASH)])
    options = ClaudeAgentOptions(can_use_tool=integration.can_use_tool)

    async def main() -> list[Any]:
        stream = integration.query(prompt="Clean up the build.", options=options, transport=cli)
        return [message async for message in stream]

    assert isinstance(asyncio.run(asyncio.wait_for(main(), 20))[-1], ResultMessage)
    assert cli.responses == [allowed(BASH)]


def test_raise_replay_misses_around_a_client(recording: Path):
    del recording
    cli = ClaudeCodeCLI([ToolCall("AskUserQuestion", ASK_INPUT), ToolCall("Bash", BASH)])
    options = ClaudeAgentOptions(can_use_tool=integration.can_use_tool)
    messages: list[Any] = []

    async def main() -> None:
        with integration.raise_replay_misses():
            async with ClaudeSDKClient(options=options, transport=cli) as client:
                await client.query("Clean up the build.")
                messages.extend([message async for message in client.receive_response()])

    with pytest.raises(ReplayMissing):
        asyncio.run(asyncio.wait_for(main(), 20))
    assert isinstance(messages[-1], ResultMessage)
    (miss,) = cli.responses  # the question has no recorded answer: the run stopped there
    assert a_miss(miss)
    assert cli.ran == []


@pytest.mark.parametrize(("tool", "tool_input"), [("Bash", BASH), ("AskUserQuestion", ASK_INPUT)])
def test_a_replay_miss_in_the_callback_denies_and_stops(recording: Path, tool: str, tool_input: dict[str, Any]):
    """The callback called as a caller's own callback calls it: it returns the deny that stops
    the run; inside ``raise_replay_misses`` the miss is raised on leaving the block.
    """
    del recording
    context = ToolPermissionContext(tool_use_id="toolu_9")
    if tool == "Bash":  # the one recorded approval is used up first
        assert asyncio.run(integration.can_use_tool(tool, tool_input, context)) == PermissionResultAllow(
            updated_input=BASH
        )

    async def ask() -> PermissionResult:
        return await integration.can_use_tool(tool, tool_input, context)

    denied = asyncio.run(ask())
    assert isinstance(denied, PermissionResultDeny)
    assert denied.interrupt is True
    assert denied.message.startswith("replay:")
    results: list[PermissionResult] = []
    with pytest.raises(ReplayMissing), integration.raise_replay_misses():
        results.append(asyncio.run(ask()))
    assert results == [denied]


def test_the_error_policy_denies_with_its_reason_and_keeps_it():
    nbask.configure(policy="error")
    cli = run_with([ToolCall("Bash", BASH), ToolCall("AskUserQuestion", ASK_INPUT)])
    denied, unanswered = cli.responses
    assert denied["behavior"] == "deny"
    assert denied["message"].startswith(
        "Not approved: Call Bash did not run. It was rejected by policy, not by a person. "
        "Reason: No one could be asked:"
    )
    assert denied["message"].endswith(DO_NOT_RETRY)
    assert unanswered["behavior"] == "deny"
    assert unanswered["message"].startswith("No one answered the question(s).")
    assert cli.ran == []
    assert [(e.kind, e.answered_by, e.outcome.status) for e in nbask.history()] == [
        ("approval", "policy", "answered"),
        ("question", "policy", "dismissed"),
    ]


# -- can_use_tool_with: a time limit and rules ----------------------------------------------------


def test_permission_callback_waits_as_long_as_it_was_told(person: Person):
    person.answers(pick("SQLite"), approve(), pick("Just this once (Recommended)"))
    callback = integration.can_use_tool_with(timeout=5)
    run_with([ToolCall("AskUserQuestion", ASK_INPUT), ToolCall("Bash", BASH, suggestions=[SUGGESTION])], callback)
    assert [request.timeout for request in person.asked] == [5, 5, 5]
    assert [request.kind for request in person.asked] == ["question", "approval", "question"]


def outside_the_project(tool_name: str, tool_input: dict[str, Any]) -> bool:
    return tool_name == "Write" and str(tool_input.get("file_path", "")).startswith("/etc/")


def test_rules_allow_and_deny_before_anyone_is_asked(person: Person):
    person.answers(approve())
    callback = integration.can_use_tool_with(
        allow=["Read", "Write", "mcp__docs__*"], deny=["Bash", outside_the_project]
    )
    cli = run_with(
        [
            ToolCall("Read", READ),
            ToolCall("mcp__docs__search", {"q": "nbask"}),
            ToolCall("Bash", BASH),
            ToolCall("Write", {"file_path": "/etc/hosts", "content": "x"}),  # deny wins over allow
            ToolCall("Write", WRITE),
            ToolCall("Edit", {"file_path": "a.py"}),  # no rule: asked
        ],
        callback,
    )
    refused = f"is denied by this notebook's permission rules. {DO_NOT_RETRY}"
    assert cli.responses == [
        allowed(READ),
        allowed({"q": "nbask"}),
        {"behavior": "deny", "message": f"Not allowed: Bash {refused}"},
        {"behavior": "deny", "message": f"Not allowed: Write {refused}"},
        allowed(WRITE),
        allowed({"file_path": "a.py"}),
    ]
    assert [a.approval.action for a in person.approvals] == ["Call Edit"]  # only the call no rule covers


def test_the_callers_own_rules_hand_only_the_rest_to_nbask(person: Person):
    """The SDK example's shape: the caller's callback decides by its rules, nbask asks the rest."""
    person.answers(approve())

    async def my_permission_callback(
        tool_name: str, input_data: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResult:
        if tool_name in ["Read", "Glob", "Grep"]:
            return PermissionResultAllow()
        if tool_name == "Bash" and "sudo" in input_data.get("command", ""):
            return PermissionResultDeny(message="No sudo here")
        return await integration.can_use_tool(tool_name, input_data, context)

    cli = run_with(
        [ToolCall("Read", READ), ToolCall("Bash", {"command": "sudo rm -rf /"}), ToolCall("Bash", BASH)],
        my_permission_callback,
    )
    assert cli.responses == [
        allowed(READ),
        {"behavior": "deny", "message": "No sudo here"},
        allowed(BASH),
    ]
    (asked,) = person.approvals
    assert (asked.approval.action, asked.approval.details, asked.tool_call_id) == (
        "Call Bash",
        "rm -rf build/",
        "toolu_3",
    )
