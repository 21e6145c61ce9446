"""``nbask.tools.function``: a typed, documented async function per dialect, and
``function_sync``, its blocking twin (LangChain's ``StructuredTool(func=...).invoke``);
``nbask.tools.gate``: ``@nbask.requires_approval`` whose rejections the model reads as the tool's
result.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import pathlib
import typing

import pytest
from support.person import Person, approve, dismiss, edit, pick, reject, time_out

import nbask
from nbask.errors import NoFrontEnd, NoOneCanAnswer, ReplayMissing
from nbask.models import Decision, Question
from nbask.tools import TOOL_NAMES, function, function_sync, gate


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_function_is_named_typed_and_documented(tool_name: str):
    tool = function(tool_name)
    assert tool.__name__ == tool_name
    assert inspect.iscoroutinefunction(tool)
    hints = typing.get_type_hints(tool)
    assert hints["return"] is str
    signature = inspect.signature(tool)
    assert list(signature.parameters) == [name for name in hints if name != "return"]
    doc = inspect.getdoc(tool) or ""
    assert "only when the answer changes what you do next" in doc
    assert "Args:" in doc
    for name in signature.parameters:
        assert f"    {name}: " in doc


def test_ask_user_question_function_signature():
    tool = function()
    assert typing.get_type_hints(tool)["questions"] == list[Question]
    annotated = typing.get_type_hints(tool, include_extras=True)["questions"]
    limits = {type(m).__name__: m for m in annotated.__metadata__}
    assert (limits["MinLen"].min_length, limits["MaxLen"].max_length) == (1, 4)
    assert limits["FieldInfo"].description == "1-4 questions to ask together."
    assert inspect.signature(tool).parameters["questions"].kind is inspect.Parameter.KEYWORD_ONLY


def test_ask_user_signature_keeps_defaults():
    parameters = inspect.signature(function("ask_user")).parameters
    assert parameters["allow_freeform"].default is True
    assert parameters["choices"].default is inspect.Parameter.empty


def test_function_asks_and_returns_the_dialect_reply(person: Person):
    person.answers(pick("SQLite"))
    tool = function()
    question = Question(question="Which DB?", options=[{"label": "PostgreSQL"}, {"label": "SQLite"}])
    output = asyncio.run(tool(questions=[question]))
    assert output == '{"answers": {"Which DB?": "SQLite"}}'
    output = asyncio.run(function("ask_followup_question")(question="Which DB?", follow_up=["PostgreSQL", "SQLite"]))
    assert output == "<answer>\nSQLite\n</answer>"


def test_function_returns_errors_as_text_never_raises():
    output = asyncio.run(function()(questions=[{"question": "Q?", "options": [{"label": "A"}]}]))
    assert output.startswith("Error: Invalid arguments for AskUserQuestion: questions[0].options")
    output = asyncio.run(function("ask_user")(question="Q?", choices=["A", "B"]))  # no one to ask in pytest
    assert output.startswith("Error: ask_user cannot ask the user here")


def test_function_timeout_is_passed_on(person: Person):
    person.answers(time_out())
    output = asyncio.run(function("ask_user", timeout=5)(question="Q?", choices=["A", "B"]))
    assert output == "No answer within 5 seconds; no one answered, so do not assume an answer."
    assert person.asked[0].timeout == 5


# -- function_sync --------------------------------------------------------------------------------

DB_ARGS = {
    "questions": [
        {
            "question": "Which database should the app use?",
            "header": "DB",
            "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
        }
    ]
}


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_function_sync_is_the_blocking_twin(tool_name: str):
    tool, twin = function_sync(tool_name), function(tool_name)
    assert not inspect.iscoroutinefunction(tool)
    assert tool.__name__ == tool_name
    assert str(inspect.signature(tool)) == str(inspect.signature(twin))  # each builds its own FieldInfo
    assert typing.get_type_hints(tool) == typing.get_type_hints(twin)
    assert tool.__doc__ == twin.__doc__


def test_function_sync_timeout_and_errors(person: Person):
    person.answers(time_out())
    assert function_sync("ask_user", timeout=5)(question="Q?", choices=["A", "B"]) == (
        "No answer within 5 seconds; no one answered, so do not assume an answer."
    )
    assert person.asked[0].timeout == 5
    output = function_sync()(questions=[{"question": "Q?", "options": [{"label": "A"}]}])
    assert output.startswith("Error: Invalid arguments for AskUserQuestion: questions[0].options")
    assert len(person.asked) == 1


def test_function_sync_with_no_one_to_ask_returns_the_error_as_text():
    assert function_sync("ask_user")(question="Q?", choices=["A", "B"]).startswith(
        "Error: ask_user cannot ask the user here"
    )


def test_langchain_structured_tool_invoke_under_the_recommended_policy():
    tools = pytest.importorskip("langchain_core.tools")
    nbask.configure(policy="recommended")
    tool = tools.StructuredTool.from_function(func=function_sync())
    assert tool.name == "AskUserQuestion"
    assert "only when the answer changes what you do next" in tool.description
    output = tool.invoke(DB_ARGS)
    assert json.loads(output) == {
        "answers": {"Which database should the app use?": "PostgreSQL (Recommended)"},
        "answered_by": "policy",
        "note": "Answered by nbask's 'recommended' policy, not by a person: no one was asked.",
    }
    assert nbask.history()[-1].answered_by == "policy"


def test_langchain_structured_tool_invoke_asks_the_person(person: Person):
    tools = pytest.importorskip("langchain_core.tools")
    person.answers(pick("SQLite"), pick("No, plan it first"))
    tool = tools.StructuredTool.from_function(func=function_sync())
    assert json.loads(tool.invoke(DB_ARGS)) == {"answers": {"Which database should the app use?": "SQLite"}}
    followup = tools.StructuredTool.from_function(func=function_sync("ask_followup_question"))
    suggestions = [{"text": "Yes, implement it now", "mode": "code"}, {"text": "No, plan it first", "mode": None}]
    output = followup.invoke({"question": "Add the cache now?", "follow_up": suggestions})
    assert output == "<answer>\nNo, plan it first\n</answer>"
    assert [o["label"] for o in person.questions[1]["questions"][0]["options"]] == [
        "Yes, implement it now",
        "No, plan it first",
    ]


# -- gate ---------------------------------------------------------------------------------------


def drop_table(name: str, cascade: bool = False) -> str:
    """Drop a table from the warehouse."""
    return f"dropped {name}" + (" with cascade" if cascade else "")


async def drop_table_async(name: str) -> str:
    """Drop a table from the warehouse."""
    return f"dropped {name}"


def test_gate_keeps_signature_and_docstring():
    gated = gate(drop_table)
    assert inspect.signature(gated) == inspect.signature(drop_table)
    assert gated.__doc__ == drop_table.__doc__
    assert gated.__name__ == "drop_table"
    assert inspect.iscoroutinefunction(gate(drop_table_async))
    assert typing.get_type_hints(gated) == typing.get_type_hints(drop_table)


def test_gate_approve_edit_reject(person: Person):
    person.answers(approve(), edit({"name": "events_2022", "cascade": True}), reject("keep it for the audit"))
    gated = gate(drop_table)
    assert gated("events_2023") == "dropped events_2023"
    assert gated("events_2023") == "dropped events_2022 with cascade"
    rejected = gated("events_2023")
    assert rejected == (
        "Not approved: Call drop_table did not run. The person rejected it. Reason: keep it for the audit. "
        "Do not retry the same call; choose another way, or ask the person what they want instead."
    )
    shown = person.approvals[0].approval
    assert shown.action == "Call drop_table"
    assert json.loads(shown.details) == {"name": "events_2023", "cascade": False}


def test_gate_async_with_a_title(person: Person):
    person.answers(approve(), dismiss(), time_out())
    gated = gate(action="Drop a warehouse table")(drop_table_async)
    assert asyncio.run(gated("t")) == "dropped t"
    dismissed = asyncio.run(gated("t"))
    assert dismissed.startswith("Not approved: Drop a warehouse table did not run. The person dismissed the approval")
    timed_out = asyncio.run(gated("t"))
    assert "No one approved it in time. Reason: No answer within 600 seconds" in timed_out


def test_gate_under_the_recommended_policy_never_approves():
    nbask.configure(policy="recommended")
    text = gate(drop_table)("t")
    assert text.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert "unattended" in text


def test_gate_with_no_one_to_ask():
    nbask.configure(policy="error")
    assert "no one could be asked to approve it" in gate(drop_table)("t")
    (entry,) = nbask.history()
    assert (entry.kind, entry.asked["action"]) == ("approval", "Call drop_table")
    decision = entry.outcome
    assert isinstance(decision, Decision)
    assert (decision.decision, decision.answered_by) == ("reject", "policy")
    assert decision.reason.startswith("No one could be asked: nbask's policy is 'error'")


def test_async_gate_with_no_one_to_ask_keeps_the_refusal(person: Person):
    person.unavailable = NoFrontEnd("nbclient.")
    text = asyncio.run(gate(drop_table_async)("t"))
    assert text.startswith("Not approved: Call drop_table_async did not run, because no one could be asked")
    (entry,) = nbask.history()
    assert entry.outcome.answered_by == "policy"


@pytest.mark.parametrize("blocking", [True, False], ids=["sync", "async"])
def test_gate_raises_a_replay_miss(tmp_path: pathlib.Path, blocking: bool):
    recording = tmp_path / "empty.jsonl"
    recording.write_text("", encoding="utf-8")
    nbask.configure(policy="replay", replay_file=recording)
    ran: list[str] = []

    def tool(name: str) -> str:
        ran.append(name)
        return name

    async def async_tool(name: str) -> str:
        ran.append(name)
        return name

    with pytest.raises(ReplayMissing) as missing:
        gate(tool)("t") if blocking else asyncio.run(gate(async_tool)("t"))
    assert missing.value.asked in ("Call tool", "Call async_tool")
    assert ran == []
    assert nbask.history() == []


@pytest.mark.parametrize("make", [function, function_sync], ids=["function", "function_sync"])
def test_function_raises_a_replay_miss(tmp_path: pathlib.Path, make: typing.Any):
    recording = tmp_path / "empty.jsonl"
    recording.write_text("", encoding="utf-8")
    nbask.configure(policy="replay", replay_file=recording)
    question = Question(question="Which DB?", options=[{"label": "PostgreSQL"}, {"label": "SQLite"}])
    tool = make()

    def run_tool() -> object:
        output = tool(questions=[question])
        return asyncio.run(output) if inspect.iscoroutine(output) else output

    with pytest.raises(ReplayMissing):
        run_tool()
    assert nbask.history() == []


def test_gate_passes_the_tools_own_errors_through(person: Person):
    """No one to answer a question the approved tool asks is the tool's error, not a refused approval."""
    person.answers(approve())

    def asks_inside(name: str) -> str:
        raise NoOneCanAnswer("nothing to ask with inside the tool")

    with pytest.raises(NoOneCanAnswer, match="inside the tool"):
        gate(asks_inside)("t")


def test_gate_in_a_sub_agent(person: Person):
    with nbask.no_questions():
        text = gate(drop_table)("t")
    assert "No approval may be asked here" in text
    assert person.asked == []


def test_gate_refuses_an_edit_that_no_longer_fits(person: Person):
    person.answers(edit("{not json"))
    text = gate(drop_table)("t")
    assert text.startswith("Not approved: Call drop_table did not run.")
    assert "not valid JSON" in text
