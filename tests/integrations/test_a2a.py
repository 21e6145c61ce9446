"""nbask.integrations.a2a against a2a-sdk's own server, in process: a scripted ``AgentExecutor``
behind ``DefaultRequestHandler`` and the JSON-RPC routes (tests/integrations/a2a_scripted_agent.py),
reached by a2a-sdk's own client over ``httpx.ASGITransport``. The agent goes to
``input-required`` with a text question or a JSON Schema form, several times in one task; each
test checks what the agent really received (the parts, the task and context ids, the metadata),
the JSON-RPC calls the client made (a cancel, its reason) and the task that came back.

Headless with a scripted person and under the policies; then in a real kernel whose requests
the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, raises

import nbask

pytest.importorskip("a2a")
from a2a.client import ClientConfig
from a2a.types import Message, SendMessageRequest, Task, TaskState

import nbask.integrations.a2a as nbask_a2a
from integrations.a2a_scripted_agent import BOOKING_FORM, Agent, data, form, text
from nbask.errors import NoOneCanAnswer
from nbask.kinds import FormRequest

HOW_MANY = [text("For how many people?")]
DETAILS = form("Which date, and where would you like to sit?", BOOKING_FORM)
DECLINED = "The person declined: they dismissed the form without submitting it."


def answer(value: str) -> Any:
    return lambda request: request.decide({"answer": value})


def submit(**values: Any) -> Any:
    return lambda request: request.decide(values)


def decline() -> Any:
    return lambda request: request.decide(None)


def by_send(agent: Agent, **kwargs: Any) -> Task | Message:
    return asyncio.run(nbask_a2a.send(agent.client(), "Book a table", **kwargs))


def by_send_sync(agent: Agent, **kwargs: Any) -> Task | Message:
    return nbask_a2a.send_sync(agent.client(), "Book a table", **kwargs)  # type: ignore[no-any-return]


STYLES: dict[str, Callable[..., Task | Message]] = {"send": by_send, "send_sync": by_send_sync}


def one_task(agent: Agent) -> tuple[str, str]:
    """Every message the agent received is in one task and one context: their ids."""
    ids = {(got["task_id"], got["context_id"]) for got in agent.received}
    assert len(ids) == 1, ids
    ((task_id, context_id),) = ids
    assert task_id
    assert context_id
    return task_id, context_id


def cancel_call(agent: Agent) -> dict[str, Any]:
    (call,) = [call for call in agent.calls if call["method"] == "CancelTask"]
    return call["params"]  # type: ignore[no-any-return]


# -- a scripted person ---------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_a_text_question_then_a_form_are_answered_in_the_same_task(
    person: Person, style: str, capsys: pytest.CaptureFixture[str]
):
    person.answers(answer("two"), submit(date="2026-07-01", guests=2, terrace=True))
    agent = Agent(asks=[HOW_MANY, DETAILS])
    task = STYLES[style](agent)
    assert isinstance(task, Task)
    assert task.status.state == TaskState.TASK_STATE_COMPLETED
    assert [(a.name, a.parts[0].text) for a in task.artifacts] == [("booking", "Booked after 2 answers.")]
    # what the agent received: the text as a text part, the form's values as one data part
    assert [got["parts"] for got in agent.received] == [
        [{"text": "Book a table"}],
        [{"text": "two"}],
        [{"data": {"date": "2026-07-01", "guests": 2.0, "terrace": True}}],  # protobuf: numbers are doubles
    ]
    assert [got["metadata"] for got in agent.received[1:]] == [{"nbask": {"answered_by": "person"}}] * 2
    assert one_task(agent) == (task.id, task.context_id)
    assert "CancelTask" not in agent.methods
    # what the person was asked
    question, details = person.asked
    assert isinstance(question, FormRequest)
    assert isinstance(details, FormRequest)
    assert question.form.message == "For how many people?"
    assert [(f.name, f.type, f.required) for f in question.form.fields] == [("answer", "string", True)]
    assert details.form.message == "Which date, and where would you like to sit?"
    assert [(f.name, f.type, f.required, f.default) for f in details.form.fields] == [
        ("date", "string", True, None),
        ("guests", "integer", True, 2),  # the schema's 2, not protobuf's 2.0
        ("terrace", "boolean", False, False),
    ]
    assert [(e.answered_by, e.tool_call_id) for e in nbask.history()] == [("person", task.id)] * 2
    # the streamed status text, shown as text
    assert capsys.readouterr().out.splitlines() == [
        "Working on step 1.",
        "Working on step 2.",
        "Working on step 3.",
        "Your table is booked.",
    ]


@pytest.mark.parametrize(
    ("part", "message", "defaults"),
    [
        pytest.param(data({"message": "When?", "requestedSchema": BOOKING_FORM}), "When?", [None, 2, False], id="mcp"),
        pytest.param(
            data(
                {
                    "type": "form",
                    "form": BOOKING_FORM,
                    "form_data": {"date": "2026-08-01", "guests": 4},
                    "instructions": "Check the booking.",
                }
            ),
            "Check the booking.",
            ["2026-08-01", 4, False],
            id="a2a-samples",
        ),
    ],
)
def test_the_other_form_shapes_are_typed_forms(person: Person, part: Any, message: str, defaults: list[Any]):
    person.answers(submit(date="2026-08-01", guests=3))
    agent = Agent(asks=[[part]])
    by_send(agent, show=False)
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == message
    assert [f.default for f in asked.form.fields] == defaults
    assert agent.received[1]["parts"] == [{"data": {"date": "2026-08-01", "guests": 3.0, "terrace": False}}]


def test_a_schema_nbask_cannot_show_is_asked_as_text_saying_so(person: Person):
    nested = {"type": "object", "properties": {"party": {"type": "object", "properties": {}}}}
    person.answers(answer("four of us"))
    agent = Agent(asks=[[text("Who is coming?"), data(nested)]])
    by_send(agent, show=False)
    (asked,) = person.asked
    assert asked.form.message.startswith("Who is coming?\n\n{")
    assert "(The agent sent a form nbask cannot show: " in asked.form.message
    assert agent.received[1]["parts"] == [{"text": "four of us"}]


def test_reply_sends_a_refusal_and_the_agent_asks_again(person: Person):
    person.answers(decline(), answer("two"))
    agent = Agent(asks=[HOW_MANY, HOW_MANY])
    task = by_send(agent, unanswered="reply", show=False)
    assert isinstance(task, Task)
    assert task.status.state == TaskState.TASK_STATE_COMPLETED
    refusal, answered = agent.received[1:]
    assert refusal["parts"] == [{"text": f"Not answered: {DECLINED}"}]
    assert refusal["metadata"] == {
        "nbask": {"answered_by": "person", "answered": False, "status": "dismissed", "reason": DECLINED}
    }
    assert answered["parts"] == [{"text": "two"}]
    one_task(agent)


def test_a_declined_question_cancels_the_task(person: Person):
    person.answers(decline())
    agent = Agent(asks=[HOW_MANY])
    task = by_send(agent, show=False)
    assert isinstance(task, Task)
    assert task.status.state == TaskState.TASK_STATE_CANCELED
    assert len(agent.received) == 1  # nothing was sent back in the task
    assert agent.cancelled == [task.id]
    assert cancel_call(agent) == {
        "id": task.id,
        "metadata": {"nbask": {"reason": DECLINED, "status": "dismissed", "answered_by": "person"}},
    }


# -- unattended ----------------------------------------------------------------------------------


def test_recommended_policy_sends_a_forms_defaults_and_cancels_at_a_text_question():
    nbask.configure(policy="recommended")
    defaults_only = {**BOOKING_FORM, "required": ["guests"]}
    agent = Agent(asks=[[data(defaults_only)], HOW_MANY])
    task = by_send(agent, show=False)
    assert isinstance(task, Task)
    assert task.status.state == TaskState.TASK_STATE_CANCELED
    assert agent.received[1]["parts"] == [{"data": {"guests": 2.0, "terrace": False}}]
    assert agent.received[1]["metadata"] == {"nbask": {"answered_by": "policy"}}
    assert len(agent.received) == 2  # the text question got no answer: cancelled
    reason = "Declined by the 'recommended' policy: the required field 'answer' has no default, and no one was asked."
    assert cancel_call(agent)["metadata"] == {
        "nbask": {"reason": reason, "status": "dismissed", "answered_by": "policy"}
    }
    assert [(e.answered_by, e.outcome.status) for e in nbask.history()] == [
        ("policy", "answered"),
        ("policy", "dismissed"),
    ]


def test_reply_refuses_once_then_cancels_when_the_agent_asks_again_unattended():
    nbask.configure(policy="recommended")
    agent = Agent(asks=[HOW_MANY, HOW_MANY, HOW_MANY])
    task = by_send(agent, unanswered="reply", show=False)
    assert isinstance(task, Task)
    assert task.status.state == TaskState.TASK_STATE_CANCELED
    assert [got["parts"][0]["text"][:14] for got in agent.received] == ["Book a table", "Not answered: "]
    assert agent.methods.count("CancelTask") == 1


@pytest.mark.parametrize("style", STYLES)
def test_no_one_to_ask_cancels_with_nbasks_reason(person: Person, style: str):
    person.unavailable = NoOneCanAnswer("no front end here")
    agent = Agent(asks=[DETAILS])
    task = STYLES[style](agent, show=False)
    assert isinstance(task, Task)
    assert task.status.state == TaskState.TASK_STATE_CANCELED
    reason = "No one could be asked: no front end here"
    assert cancel_call(agent)["metadata"]["nbask"] == {"reason": reason, "status": "dismissed", "answered_by": "policy"}
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.note, entry.tool_call_id) == ("policy", reason, task.id)


def test_a_replay_miss_raises_and_cancels_the_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(answer("two"))
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        by_send(Agent(asks=[HOW_MANY]), show=False)
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    replayed = Agent(asks=[HOW_MANY])
    by_send(replayed, show=False)
    assert replayed.received[1]["parts"] == [{"text": "two"}]
    assert replayed.received[1]["metadata"] == {"nbask": {"answered_by": "replay"}}
    agent = Agent(asks=[[text("Any allergies?")]])
    with pytest.raises(nbask.ReplayMissing):
        by_send(agent, show=False)
    assert len(agent.received) == 1
    assert agent.cancelled == [cancel_call(agent)["id"]]


@pytest.mark.parametrize("style", STYLES)
def test_an_interrupt_cancels_the_task_and_propagates(person: Person, style: str):
    person.answers(raises(KeyboardInterrupt()))
    agent = Agent(asks=[HOW_MANY])
    with pytest.raises(KeyboardInterrupt):
        STYLES[style](agent, show=False)
    (task_id, _) = one_task(agent)
    assert agent.cancelled == [task_id]
    assert cancel_call(agent)["metadata"]["nbask"]["reason"] == nbask_a2a.INTERRUPTED


# -- other ways in -------------------------------------------------------------------------------


def test_the_agents_url_and_a_non_streaming_agent(person: Person):
    """A URL: the card is read from /.well-known/agent-card.json with the config's httpx client;
    an agent without streaming is sent ``message/send`` and answered all the same.
    """
    person.answers(answer("two"))
    agent = Agent(asks=[HOW_MANY], streaming=False)
    config = ClientConfig(httpx_client=agent.http())
    task = asyncio.run(nbask_a2a.send("http://testserver", "Book a table", client_config=config, show=False))
    assert isinstance(task, Task)
    assert task.status.state == TaskState.TASK_STATE_COMPLETED
    assert agent.methods == ["SendMessage", "GetTask", "SendMessage", "GetTask"]
    assert agent.received[1]["parts"] == [{"text": "two"}]


def test_resolve_answers_one_input_required_for_a_caller_that_streams(person: Person):
    person.answers(answer("two"), decline())
    agent = Agent(asks=[HOW_MANY, HOW_MANY])

    async def go() -> tuple[Message | None, Message | None]:
        client = agent.client()
        first = nbask_a2a._first("Book a table", None)  # the same first message send makes
        events = [event async for event in client.send_message(SendMessageRequest(message=first))]
        reply = await nbask_a2a.resolve(events[-1].status_update)
        assert reply is not None
        events = [event async for event in client.send_message(SendMessageRequest(message=reply))]
        return reply, await nbask_a2a.resolve(events[-1].status_update)

    reply, declined = asyncio.run(go())
    assert reply is not None
    assert declined is None  # not answered: the caller cancels
    task_id, context_id = one_task(agent)
    assert (reply.task_id, reply.context_id) == (task_id, context_id)
    assert agent.received[1]["parts"] == [{"text": "two"}]


def test_wrong_arguments_name_what_is_wrong():
    with pytest.raises(ValueError, match="unanswered must be one of 'cancel', 'reply', got 'ignore'"):
        by_send(Agent(), unanswered="ignore")
    with pytest.raises(TypeError, match="agent must be an a2a Client, an AgentCard or the agent's URL, got int"):
        asyncio.run(nbask_a2a.send(42, "hi"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="message must not be empty"):
        asyncio.run(nbask_a2a.send("http://testserver", " "))


# -- a real kernel, answered through the widget ----------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import FRAMEWORK_KERNELS, CommInfo, KernelHarness, kernel_fixture, printed_json  # noqa: E402

SETUP = rf"""
import json, sys
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
import nbask
import nbask.integrations.a2a as nbask_a2a
from a2a_scripted_agent import BOOKING_FORM, Agent, form, text

def agent():
    return Agent(asks=[[text("For how many people?")], form("Which date?", BOOKING_FORM)])

def report(task, agent):
    print(json.dumps({{"state": task.status.state, "received": agent.received, "methods": agent.methods,
                      "artifacts": [a.parts[0].text for a in task.artifacts]}}))
"""

RUN = {
    "send": "a = agent(); report(await nbask_a2a.send(a.client(), 'Book a table'), a)",
    "send_sync": "a = agent(); report(nbask_a2a.send_sync(a.client(), 'Book a table'), a)",
}

k = kernel_fixture(SETUP, kernels=FRAMEWORK_KERNELS)


def next_form(k: KernelHarness, message: str) -> CommInfo:
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == "form" and comm.state.get("_message") == message, timeout=30
    )


def submitted(values: dict[str, Any]) -> dict[str, Any]:
    return {"_response": {"action": "submit", "values": values, "view_id": "t", "sent_at_ms": 0}}


@pytest.mark.kernel
@pytest.mark.parametrize("style", RUN)
def test_in_a_kernel_each_input_required_is_answered_through_the_widget(k: KernelHarness, style: str):
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN[style])
    question = next_form(k, "For how many people?")
    k.wait_until_waiting(question)
    k.update_widget(question.comm_id, submitted({"answer": "two"}))
    details = next_form(k, "Which date?")
    assert [(f["name"], f["type"]) for f in details.state["_fields"]] == [
        ("date", "string"),
        ("guests", "integer"),
        ("terrace", "boolean"),
    ]
    k.wait_until_waiting(details)
    k.update_widget(details.comm_id, submitted({"date": "2026-07-01", "guests": 3, "terrace": True}))
    result = k.result(cell, 60)
    out = printed_json(result)
    assert out["state"] == TaskState.TASK_STATE_COMPLETED
    assert out["artifacts"] == ["Booked after 2 answers."]
    assert [got["parts"] for got in out["received"]] == [
        [{"text": "Book a table"}],
        [{"text": "two"}],
        [{"data": {"date": "2026-07-01", "guests": 3.0, "terrace": True}}],
    ]
    assert len({(got["task_id"], got["context_id"]) for got in out["received"]}) == 1
    assert "CancelTask" not in out["methods"]
    assert "Working on step 2.\n" in result.stdout  # the streamed status, as text in the cell


@pytest.mark.kernel
def test_in_a_kernel_an_interrupt_cancels_the_task(k: KernelHarness):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute("a = agent(); task = await nbask_a2a.send(a.client(), 'Book a table')")
    question = next_form(k, "For how many people?")
    k.wait_until_waiting(question)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    assert result.ename == "KeyboardInterrupt"
    after = k.run_ok(
        "print(json.dumps({'methods': a.methods, 'cancelled': a.cancelled, 'task': a.received[0]['task_id'],"
        " 'status': nbask.history()[-1].outcome.status}))"
    )
    out = json.loads(after.stdout.strip().splitlines()[-1])
    assert out["methods"][-1] == "CancelTask"
    assert out["cancelled"] == [out["task"]]
    assert out["status"] == "cancelled"
