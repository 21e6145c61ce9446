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
import sys
from typing import Any

import pytest

import nbask
from nbask.errors import NoOneCanAnswer

from .tool_helpers import FIXTURES, Person, approve, dismiss, edit, pick, reject, time_out

pytest.importorskip("claude_agent_sdk")
from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, ResultMessage, query

from nbask.integrations import claude_agent_sdk as integration

sys.path.insert(0, str(FIXTURES))
from claude_code_cli import ClaudeCodeCLI, ToolCall

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
        "Not approved: Call Write did not run: the person's edit of its input is not valid JSON"
    )
    assert cli.ran == [("Write", {"file_path": "notes/résumé.md", "content": "hello, edited"})]


def test_no_one_to_ask_denies(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    cli, _ = run([ToolCall("Bash", BASH)])
    assert cli.responses[0]["behavior"] == "deny"
    assert "no one could be asked to approve it: no front end here" in cli.responses[0]["message"]
    assert cli.ran == []


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
