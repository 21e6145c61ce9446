"""LangGraph's "Interrupts in tools": the docs' ``send_email`` tool calls ``interrupt({"action":
"send_email", "to": ..., "subject": ..., "body": ..., "message": "Approve sending this email?"})``
and reads ``response.get("action")`` and the edited fields. Run as the docs run it, offline: the
tool in a ``create_agent`` agent and in a StateGraph whose ``ToolNode`` runs it, each with an
InMemorySaver and a scripted tool-calling chat model; answered by a scripted person, by the
headless policies and by a JSONL replay. Each test checks what the tool sent (or that it sent
nothing), what the model read back and what nbask showed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph")
pytest.importorskip("langchain")

from langchain.agents import create_agent
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import interrupt
from support.person import Decide, Person, approve, dismiss, edit, reject, time_out

import nbask
from integrations.langchain_scripted import Scripted, calling
from nbask.core.manager import manager
from nbask.integrations import langgraph as nl

MESSAGE = "Approve sending this email?"
EMAIL = {"to": "alice@example.com", "subject": "Meeting", "body": "See you at 10."}
sent_emails: list[dict[str, Any]] = []  # what the tool really sent, in order


@tool
def send_email(to: str, subject: str, body: str) -> str:
    """Send an email to a recipient."""
    response = interrupt({"action": "send_email", "to": to, "subject": subject, "body": body, "message": MESSAGE})
    if response.get("action") == "approve":
        final = {
            "to": response.get("to", to),
            "subject": response.get("subject", subject),
            "body": response.get("body", body),
        }
        sent_emails.append(final)
        return f"Email sent to {final['to']} with subject '{final['subject']}'"
    return "Email cancelled by user"


def model(calls: tuple[dict[str, Any], ...]) -> Scripted:
    """The scripted model: first the calls of send_email (``EMAIL`` if none), then a closing reply."""
    tool_calls = [{"name": "send_email", "args": args, "id": f"call_{i}"} for i, args in enumerate(calls or [EMAIL])]
    return calling(*tool_calls, then="Done.")


@pytest.fixture(autouse=True)
def _nothing_sent() -> None:
    sent_emails.clear()


def agent(*calls: dict[str, Any]) -> Any:
    """The docs' tool in LangChain's create_agent (its ToolNode runs the tool)."""
    return create_agent(model(calls), tools=[send_email], checkpointer=InMemorySaver())


def tool_node_graph(*calls: dict[str, Any]) -> Any:
    """The docs' full example: an agent node and a node running the tool, looping until done."""
    scripted = model(calls)
    builder = StateGraph(MessagesState)
    builder.add_node("agent", lambda state: {"messages": [scripted.invoke(state["messages"])]})
    builder.add_node("tools", ToolNode([send_email]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=InMemorySaver())


ASK = {"messages": [{"role": "user", "content": "Send an email to alice@example.com about the meeting"}]}


def tool_results(state: dict[str, Any]) -> list[str]:
    return [str(m.content) for m in state["messages"] if isinstance(m, ToolMessage)]


@pytest.mark.parametrize("build", [agent, tool_node_graph], ids=["create_agent", "ToolNode"])
def test_an_approval_resumes_with_approve_and_the_fields(person: Person, build: Any):
    person.answers(approve())
    state = nl.run_sync(build(), ASK)
    assert sent_emails == [EMAIL]
    assert tool_results(state) == ["Email sent to alice@example.com with subject 'Meeting'"]
    assert state["messages"][-1].content == "Done."
    (asked,) = person.approvals
    assert asked.approval.action == MESSAGE
    assert json.loads(asked.approval.details) == EMAIL  # action and message are not fields
    assert asked.approval.details_schema == {
        "type": "object",
        "properties": {"to": {"type": "string"}, "subject": {"type": "string"}, "body": {"type": "string"}},
        "required": ["to", "subject", "body"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize("build", [agent, tool_node_graph], ids=["create_agent", "ToolNode"])
def test_an_edit_resumes_with_approve_and_the_edited_fields(person: Person, build: Any):
    person.answers(edit({**EMAIL, "subject": "Updated subject"}))
    state = nl.run_sync(build(), ASK)
    assert sent_emails == [{**EMAIL, "subject": "Updated subject"}]
    assert tool_results(state) == ["Email sent to alice@example.com with subject 'Updated subject'"]


@pytest.mark.parametrize(
    "decide", [reject("wrong person"), dismiss(), time_out()], ids=["reject", "dismiss", "timeout"]
)
def test_anything_but_an_approval_resumes_with_reject_and_nothing_is_sent(person: Person, decide: Decide):
    person.answers(decide)
    state = nl.run_sync(agent(), ASK)
    assert sent_emails == []
    assert tool_results(state) == ["Email cancelled by user"]


@pytest.mark.parametrize(
    "edited",
    [
        {**EMAIL, "cc": "bob@example.com"},  # a field the tool did not ask about
        {"to": "alice@example.com", "subject": "Meeting"},  # a field left out
        {**EMAIL, "subject": 42},  # a field of another type
        "not json",
        '["a list"]',
    ],
    ids=["unknown-field", "missing-field", "wrong-type", "not-json", "not-an-object"],
)
def test_an_edit_that_is_not_an_object_of_those_fields_is_a_rejection(person: Person, edited: Any):
    person.answers(edit(edited))
    state = nl.run_sync(agent(), ASK)
    assert sent_emails == []
    assert tool_results(state) == ["Email cancelled by user"]


@pytest.mark.parametrize("policy", ["recommended", "dismiss", "error"])
def test_no_one_to_ask_is_a_rejection_kept_in_the_history(policy: str):
    nbask.configure(policy=policy)
    state = nl.run_sync(tool_node_graph(), ASK)
    assert sent_emails == []
    assert tool_results(state) == ["Email cancelled by user"]
    (entry,) = nbask.history()
    assert (entry.kind, entry.outcome.decision, entry.outcome.answered_by) == ("approval", "reject", "policy")


def test_parallel_tool_calls_are_each_asked_and_resumed_by_id(person: Person):
    """Two calls in one model turn interrupt side by side (in either order): each is answered on
    its own, and each tool reads its own answer.
    """
    other = {"to": "bob@example.com", "subject": "Lunch", "body": "Noon?"}

    def by_recipient(request: Any) -> Any:
        shown = json.loads(request.approval.details)
        return (reject() if shown["to"] == EMAIL["to"] else edit({**other, "body": "1pm?"}))(request)

    person.answers(by_recipient)
    state = nl.run_sync(agent(EMAIL, other), ASK)
    assert sorted(json.loads(a.approval.details)["to"] for a in person.approvals) == [EMAIL["to"], other["to"]]
    assert sent_emails == [{**other, "body": "1pm?"}]
    assert tool_results(state) == ["Email cancelled by user", "Email sent to bob@example.com with subject 'Lunch'"]


def test_a_replay_resumes_with_the_recorded_edit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    person = Person().answers(edit({**EMAIL, "body": "See you at 11."}))
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        nl.run_sync(agent(), ASK)
    saved = nbask.save_history(tmp_path / "answers.jsonl")
    manager().clear_history()
    sent_emails.clear()
    nbask.configure(policy="replay", replay_file=saved)
    nl.run_sync(tool_node_graph(), ASK)
    assert sent_emails == [{**EMAIL, "body": "See you at 11."}]
    assert [entry.outcome.answered_by for entry in nbask.history()] == ["replay"]


def test_a_message_too_long_for_a_title_is_shown_below_the_fields_and_an_edit_still_reads(person: Person):
    long = "Approve sending this email? " + "It goes to the whole company list. " * 8
    value = {"action": "send_email", **EMAIL, "message": long}
    person.answers(lambda request: edit(request.approval.details.replace("Meeting", "All hands"))(request))
    graph = StateGraph(MessagesState)
    answers: list[Any] = []
    graph.add_node("ask", lambda state: answers.append(interrupt(value)) or {"messages": []})
    graph.add_edge(START, "ask")
    nl.run_sync(graph.compile(checkpointer=InMemorySaver()), {"messages": []})
    assert answers == [{"action": "approve", **EMAIL, "subject": "All hands"}]
    (asked,) = person.approvals
    assert asked.approval.action.endswith("…")
    assert asked.approval.details.endswith(long.strip())
    assert asked.approval.details_schema is None  # the details are not JSON alone


def test_a_dict_with_action_but_no_message_is_not_read_as_a_tool_approval():
    graph = StateGraph(MessagesState)
    graph.add_node("ask", lambda state: {"messages": [], "x": interrupt({"action": "edit", "content": "draft"})})
    graph.add_edge(START, "ask")
    with pytest.raises(ValueError, match="not in a shape nbask can ask") as raised:
        nl.run_sync(graph.compile(checkpointer=InMemorySaver()), {"messages": []})
    assert '{"action": "<tool>", ...its fields, "message": ...}' in str(raised.value)
