"""nbask.integrations.claude_agent_sdk through the SDK's own control protocol (``query()`` against
fixtures/claude_code_cli.py): a replay miss stops the run (a deny with ``interrupt=True``, since
the SDK keeps a callback's exception to itself) and is raised to the caller by nbask's ``query``
and ``raise_replay_misses``; the ``error`` policy's refusal kept in the history;
``can_use_tool_with``'s time limit and rules; and a caller's own permission rules handing
only the rest to nbask.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

import pytest
from support.person import FIXTURES, Person, approve, pick

import nbask
from nbask.errors import ReplayMissing

from .test_claude_agent_sdk import ASK_INPUT, BASH, DO_NOT_RETRY, SUGGESTION, WRITE, allowed

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

READ = {"file_path": "README.md"}


def run(calls: list[ToolCall], callback: Any = integration.can_use_tool) -> ClaudeCodeCLI:
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
        run([ToolCall("Bash", BASH)])
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
    cli = run([ToolCall("Bash", BASH), ToolCall("AskUserQuestion", ASK_INPUT)])
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
    run([ToolCall("AskUserQuestion", ASK_INPUT), ToolCall("Bash", BASH, suggestions=[SUGGESTION])], callback)
    assert [request.timeout for request in person.asked] == [5, 5, 5]
    assert [request.kind for request in person.asked] == ["question", "approval", "question"]


def outside_the_project(tool_name: str, tool_input: dict[str, Any]) -> bool:
    return tool_name == "Write" and str(tool_input.get("file_path", "")).startswith("/etc/")


def test_rules_allow_and_deny_before_anyone_is_asked(person: Person):
    person.answers(approve())
    callback = integration.can_use_tool_with(
        allow=["Read", "Write", "mcp__docs__*"], deny=["Bash", outside_the_project]
    )
    cli = run(
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

    cli = run(
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
