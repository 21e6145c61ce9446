"""nbask.integrations.semantic_kernel inside Semantic Kernel's own code, offline: a
``ChatCompletionAgent`` on a scripted ``ChatCompletionClientBase`` (semantic_kernel_scripted.py)
calls a plugin's functions through SK's auto function invocation loop, nbask's filter added with
``kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, ...)``; and SK's GroupChat and Handoff
orchestrations ask the person through nbask's ``human_response_function``. Each test checks what
the function really received (nothing when not approved) and what the model read next.

Headless under a scripted person and the unattended policies; then in a real kernel whose
requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest
from support.person import REPO, Person, approve, edit, reject, through_the_kernels_check

import nbask

pytest.importorskip("semantic_kernel")
from semantic_kernel.agents import (
    ChatCompletionAgent,
    GroupChatOrchestration,
    HandoffOrchestration,
    OrchestrationHandoffs,
    RoundRobinGroupChatManager,
)
from semantic_kernel.agents.orchestration.group_chat import BooleanResult
from semantic_kernel.agents.runtime import InProcessRuntime
from semantic_kernel.contents import ChatHistory
from semantic_kernel.filters import FilterTypes
from semantic_kernel.functions import kernel_function

import nbask.integrations.semantic_kernel as nbask_sk
from nbask.errors import NoOneCanAnswer
from nbask.kinds import FormRequest

sys.path.insert(0, str(Path(__file__).parent))
from semantic_kernel_scripted import ScriptedChat

pytestmark = pytest.mark.agents_more

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
POLICY_REJECTION = (
    "It was rejected by policy, not by a person. Reason: Not approved: this run is unattended (policy "
    "'recommended'), and an unattended run does not approve actions on its own. Ask again where a person "
    "can decide, or replay a recorded decision."
)
DELETE = ("Files-delete_file", {"path": "a.txt"})


def rejected(name: str, reason: str) -> str:
    return f"Not approved: Call {name} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


class Files:
    """An SK plugin recording every call that really ran."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, dict[str, Any]]] = []

    @kernel_function(description="Delete a file.")
    def delete_file(self, path: Annotated[str, "The file to delete."], force: bool = False) -> str:
        self.ran.append(("delete_file", {"path": path, "force": force}))
        return f"deleted {path}"

    @kernel_function(description="List the files.")
    def list_files(self) -> str:
        self.ran.append(("list_files", {}))
        return "a.txt b.txt"


def agent_for(
    *turns: Any, approval_filter: Any = nbask_sk.approval_filter
) -> tuple[ChatCompletionAgent, ScriptedChat, Files]:
    model, files = ScriptedChat(*turns, "done"), Files()
    agent = ChatCompletionAgent(service=model, name="ops", plugins=[files])
    agent.kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, approval_filter)
    return agent, model, files


def ask(agent: ChatCompletionAgent) -> str:
    return str(asyncio.run(agent.get_response(messages="Clean up.")))


# -- the filter, a scripted person ------------------------------------------------------------------

CASES = [
    pytest.param(approve(), [("delete_file", {"path": "a.txt", "force": False})], "deleted a.txt", id="approve"),
    pytest.param(
        edit({"path": "b.txt", "force": True}),
        [("delete_file", {"path": "b.txt", "force": True})],
        "deleted b.txt",
        id="edit",
    ),
    pytest.param(reject("keep it"), [], rejected("Files-delete_file", "keep it"), id="reject"),
]


@pytest.mark.parametrize(("decide", "ran", "read"), CASES)
def test_person_decides_a_call(person: Person, decide: Any, ran: list[Any], read: str):
    person.answers(decide)
    agent, model, files = agent_for([DELETE])
    assert ask(agent) == "done"
    assert files.ran == ran  # what the function really received; nothing when rejected
    assert model.results == [("Files-delete_file", read)]  # what the model read back
    (asked,) = person.approvals
    assert (asked.approval.action, asked.tool_call_id) == ("Call Files-delete_file", "call_1_1")
    assert json.loads(asked.approval.details) == {"path": "a.txt"}
    assert asked.approval.details_schema == {
        "type": "object",
        "properties": {"path": {"type": "string", "description": "The file to delete."}, "force": {"type": "boolean"}},
        "required": ["path"],
        "additionalProperties": False,
    }
    assert nbask.history()[-1].answered_by == "person"


def test_an_edit_that_drops_an_argument_drops_it_from_the_call(person: Person):
    person.answers(edit({"path": "c.txt"}))
    agent, _, files = agent_for([("Files-delete_file", {"path": "a.txt", "force": True})])
    ask(agent)
    assert files.ran == [("delete_file", {"path": "c.txt", "force": False})]  # force: its default again


@pytest.mark.parametrize(
    ("edited", "why"),
    [
        ('{"path": ', "the edited arguments are not valid JSON (Expecting value: line 1 column 10 (char 9))"),
        ('["b.txt"]', "the edited arguments are a JSON array, not an object of argument names"),
        (
            '{"path": "b.txt", "recursive": true}',
            (
                'they do not fit the parameters of Files-delete_file: unknown argument "recursive" (the arguments are: '
                "path, force)"
            ),
        ),
    ],
    ids=["not-json", "not-an-object", "unknown-argument"],
)
def test_an_edit_that_does_not_fit_is_a_rejection(person: Person, edited: str, why: str):
    person.answers(edit(edited))
    agent, model, files = agent_for([DELETE])
    ask(agent)
    assert files.ran == []
    text = (
        f"Not approved: Call Files-delete_file did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    )
    assert model.results == [("Files-delete_file", text)]


def test_an_edit_is_checked_against_the_parameters_before_it_runs(person: Person):
    refused: list[str] = []
    person.answers(through_the_kernels_check({"path": 7}, {"path": "b.txt"}, refused=refused))
    agent, _, files = agent_for([DELETE])
    ask(agent)
    assert refused == [
        (
            'The edit was not accepted: argument "path" must be a string, not an integer. '
            "Fix the Details, then approve again."
        )
    ]
    assert files.ran == [("delete_file", {"path": "b.txt", "force": False})], "only the fixed edit ran"


def test_parallel_calls_are_one_batch_answered_in_any_order(person: Person):
    """The model asks for three calls at once; SK refuses the unknown one before any filter, and
    gathers the other two: both approvals are one batch, each decided on its own.
    """
    person.answers(reject("keep it"), approve())
    calls = [DELETE, ("Files-nope", {}), ("Files-delete_file", {"path": "tmp.txt"})]
    agent, model, files = agent_for(calls)
    assert ask(agent) == "done"
    assert [json.loads(a.approval.details) for a in person.approvals] == [{"path": "a.txt"}, {"path": "tmp.txt"}]
    assert files.ran == [("delete_file", {"path": "tmp.txt", "force": False})]
    assert model.results[0][0] == "Files-nope"  # SK answers it at once, before the gathered calls end
    assert model.results[1:] == [
        ("Files-delete_file", rejected("Files-delete_file", "keep it")),
        ("Files-delete_file", "deleted tmp.txt"),
    ]
    first, second = nbask.history()
    assert first.outcome.batch_id is not None
    assert first.outcome.batch_id == second.outcome.batch_id
    assert model.calls == 2  # one message of calls, one answer


def test_only_the_functions_named_are_asked(person: Person):
    person.answers(reject("no"))
    only = nbask_sk.approval_filter_with(timeout=9, tools=["Files-delete_file"])
    agent, model, files = agent_for([("Files-list_files", {}), DELETE], approval_filter=only)
    ask(agent)
    assert [a.approval.action for a in person.approvals] == ["Call Files-delete_file"]
    assert person.approvals[0].timeout == 9
    assert files.ran == [("list_files", {})]
    assert model.results == [
        ("Files-list_files", "a.txt b.txt"),
        ("Files-delete_file", rejected("Files-delete_file", "no")),
    ]


# -- the filter, unattended ----------------------------------------------------------------------------


def test_recommended_policy_rejects_and_the_function_never_runs():
    nbask.configure(policy="recommended")
    agent, model, files = agent_for([DELETE])
    assert ask(agent) == "done"
    assert files.ran == []
    text = f"Not approved: Call Files-delete_file did not run. {POLICY_REJECTION} {DO_NOT_RETRY}"
    assert model.results == [("Files-delete_file", text)]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.tool_call_id, entry.outcome.decision) == ("policy", "call_1_1", "reject")


def test_no_one_to_ask_is_a_rejection_with_nbasks_reason(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    agent, model, files = agent_for([DELETE])
    ask(agent)
    assert files.ran == []
    ((name, text),) = model.results
    assert name == "Files-delete_file"
    assert text.startswith(
        "Not approved: Call Files-delete_file did not run. It was rejected by policy, not by a person."
    )
    assert "No one could be asked: no front end here" in text
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.reason) == ("policy", "No one could be asked: no front end here")


def test_a_replay_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        ask(agent_for([DELETE])[0])
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    agent, _, files = agent_for([DELETE])
    ask(agent)  # the recorded approval
    assert files.ran == [("delete_file", {"path": "a.txt", "force": False})]
    assert nbask.history()[-1].answered_by == "replay"
    agent, _, files = agent_for([("Files-delete_file", {"path": "users.db"})])
    with pytest.raises(nbask.ReplayMissing):
        ask(agent)
    assert files.ran == []


# -- human_response_function ------------------------------------------------------------------------


class AskAfterWriter(RoundRobinGroupChatManager):
    """SK's group chat sample's manager: the person replies after the writer speaks."""

    async def should_request_user_input(self, chat_history: ChatHistory) -> BooleanResult:
        last = chat_history.messages[-1] if chat_history.messages else None
        return BooleanResult(result=last is not None and last.name == "Writer", reason="after the writer")


async def orchestrate(orchestration: Any, task: str) -> str:
    runtime = InProcessRuntime()
    runtime.start()
    try:
        result = await orchestration.invoke(task=task, runtime=runtime)
        return str(await result.get(timeout=30))  # a failure must end the result, never leave it waiting
    finally:
        await runtime.stop_when_idle()


def group_chat(
    human: Any = nbask_sk.human_response_function, max_rounds: int = 2
) -> tuple[GroupChatOrchestration, ScriptedChat]:
    writer = ChatCompletionAgent(
        service=ScriptedChat("Draft: Fresh. Which tone do you want?"), name="Writer", description="writes"
    )
    reviewer_model = ScriptedChat("Reviewed.")
    reviewer = ChatCompletionAgent(service=reviewer_model, name="Reviewer", description="reviews")
    manager = AskAfterWriter(max_rounds=max_rounds, human_response_function=human)
    return GroupChatOrchestration(members=[writer, reviewer], manager=manager), reviewer_model


def handoff(*turns: Any) -> tuple[HandoffOrchestration, ScriptedChat, Files]:
    """Triage hands nothing off: it asks the person, then completes the task (SK's own function)."""
    model, files = ScriptedChat(*turns), Files()
    triage = ChatCompletionAgent(service=model, name="Triage", description="triage", plugins=[files])
    triage.kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, nbask_sk.approval_filter)
    refunds = ChatCompletionAgent(service=ScriptedChat("Refunded."), name="Refunds", description="refunds")
    handoffs = OrchestrationHandoffs().add(source_agent="Triage", target_agent="Refunds", description="refunds")
    orchestration = HandoffOrchestration(
        members=[triage, refunds], handoffs=handoffs, human_response_function=nbask_sk.human_response_function
    )
    return orchestration, model, files


COMPLETE = [("Handoff-complete_task", {"task_summary": "asked"})]


def submit(**values: Any) -> Any:
    return lambda request: request.decide(values)


def test_a_group_chat_asks_the_person_after_the_writer(person: Person):
    person.answers(submit(reply="Playful, please."))
    orchestration, reviewer = group_chat(nbask_sk.human_response_function_with(timeout=11))
    assert asyncio.run(orchestrate(orchestration, "Write a slogan.")) == "Reviewed."
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == "Draft: Fresh. Which tone do you want?"  # the agent's last message, as text
    assert [(f.name, f.title, f.required) for f in asked.form.fields] == [("reply", "Your reply to Writer", False)]
    assert asked.timeout == 11
    assert reviewer.user_texts == ["Write a slogan.", "Playful, please."]  # the next agent read the reply


def test_a_handoff_asks_with_the_agents_response_and_the_agent_reads_the_reply(person: Person):
    person.answers(submit(reply="Order 42."))
    orchestration, model, _ = handoff("Which order do you mean?", COMPLETE)
    assert asyncio.run(orchestrate(orchestration, "Refund please.")) == "Task is completed with summary: asked"
    (asked,) = person.asked  # SK's handoff functions are not asked about
    assert asked.form.message == "Which order do you mean?"
    assert asked.form.fields[0].title == "Your reply to Triage"
    assert model.user_texts == ["Refund please.", "Order 42."]


def test_in_a_handoff_the_agents_own_calls_are_approved_while_it_streams(person: Person):
    """HandoffOrchestration streams its agents (SK's streaming function calling loop): the filter
    on the agent's kernel asks about the plugin's call, never about SK's complete_task.
    """
    person.answers(approve(), submit(reply="Order 42."))
    orchestration, model, files = handoff([DELETE], "Which order do you mean?", COMPLETE)
    assert asyncio.run(orchestrate(orchestration, "Refund please.")) == "Task is completed with summary: asked"
    assert [a.approval.action for a in person.approvals] == ["Call Files-delete_file"]
    assert files.ran == [("delete_file", {"path": "a.txt", "force": False})]
    assert model.results == [("Files-delete_file", "deleted a.txt")]
    assert model.user_texts == ["Refund please.", "Order 42."]


@pytest.mark.parametrize("unanswered", ["policy", "no one"])
def test_unanswered_the_agent_reads_that_the_person_did_not_reply(request: pytest.FixtureRequest, unanswered: str):
    if unanswered == "policy":
        nbask.configure(policy="recommended")
    else:
        request.getfixturevalue("person").unavailable = NoOneCanAnswer("no front end here")
    orchestration, model, _ = handoff("Which order do you mean?", COMPLETE)
    asyncio.run(orchestrate(orchestration, "Refund please."))
    reply = model.user_texts[-1]
    assert reply.startswith("The person did not reply: ")
    assert ("'recommended' policy" if unanswered == "policy" else "No one could be asked: no front end here") in reply
    entry = nbask.history()[-1]
    assert entry.answered_by == "policy"
    # The history says what the agent was told: no one replied (not "answered / accept").
    assert (entry.outcome.status, entry.outcome.action) == ("dismissed", "decline")


def test_unattended_a_group_chat_that_asks_again_ends_after_one_policy_answer():
    """The manager turns to the person after each of the writer's turns: under a policy the
    second identical round stops the orchestration with nbask's reason (SK's ``result.get()``).
    """
    nbask.configure(policy="recommended")
    orchestration, reviewer = group_chat(max_rounds=10)  # room for many rounds: only nbask ends it early
    with pytest.raises(nbask.AskedAgain, match="nbask stopped this run: it asked again"):
        asyncio.run(orchestrate(orchestration, "Write a slogan."))
    assert [(e.kind, e.answered_by) for e in nbask.history()] == [("form", "policy")]
    assert reviewer.user_texts[1].startswith("The person did not reply: ")


def test_a_replay_miss_ends_the_orchestration_with_it(tmp_path: Path):
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    orchestration, model, _ = handoff("Which order do you mean?", COMPLETE)
    with pytest.raises(nbask.ReplayMissing):
        asyncio.run(orchestrate(orchestration, "Refund please."))
    assert model.user_texts == ["Refund please."]


# -- a real kernel, answered through the widget -------------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import (  # noqa: E402
    AGENTS_MORE_KERNEL,
    KernelHarness,
    approval_response,
    kernel_fixture,
    next_approval,
    printed_json,
)

SETUP = rf"""
import json, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
import nbask
import nbask.integrations.semantic_kernel as nbask_sk
from semantic_kernel.agents import ChatCompletionAgent
from semantic_kernel.filters import FilterTypes
from semantic_kernel.functions import kernel_function
from semantic_kernel_scripted import ScriptedChat

ran = []

class Files:
    @kernel_function(description="Delete a file.")
    def delete_file(self, path: str) -> str:
        ran.append(path)
        return f"deleted {{path}}"

def agent(*calls):
    model = ScriptedChat(list(calls), "done")
    a = ChatCompletionAgent(service=model, name="ops", plugins=[Files()])
    a.kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, nbask_sk.approval_filter)
    return a, model

async def handoff():
    from semantic_kernel.agents import HandoffOrchestration, OrchestrationHandoffs
    from semantic_kernel.agents.runtime import InProcessRuntime
    model = ScriptedChat("Which order do you mean?", [("Handoff-complete_task", {{"task_summary": "asked"}})])
    triage = ChatCompletionAgent(service=model, name="Triage", description="triage")
    refunds = ChatCompletionAgent(service=ScriptedChat("Refunded."), name="Refunds", description="refunds")
    handoffs = OrchestrationHandoffs().add(source_agent="Triage", target_agent="Refunds", description="refunds")
    orchestration = HandoffOrchestration(
        members=[triage, refunds], handoffs=handoffs, human_response_function=nbask_sk.human_response_function
    )
    runtime = InProcessRuntime()
    runtime.start()
    try:
        result = await orchestration.invoke(task="Refund please.", runtime=runtime)
        value = await result.get(timeout=60)
    finally:
        await runtime.stop_when_idle()
    print(json.dumps({{"read": model.user_texts, "result": str(value)}}))

async def run(*calls):
    ran.clear()
    a, model = agent(*calls)
    reply = await a.get_response(messages="Clean up.")
    print(json.dumps({{"ran": ran, "read": model.results, "reply": str(reply)}}))
"""

ONE = "await run(('Files-delete_file', {'path': 'a.txt'}))"
TWO = "await run(('Files-delete_file', {'path': 'a.txt'}), ('Files-delete_file', {'path': 'tmp.txt'}))"

k = kernel_fixture(SETUP, kernel=AGENTS_MORE_KERNEL)


def fresh(k: KernelHarness) -> None:
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("response", "ran", "read"),
    [
        (approval_response("approve"), ["a.txt"], "deleted a.txt"),
        (approval_response("approve", {"path": "b.txt"}), ["b.txt"], "deleted b.txt"),
        (approval_response("reject", reason="keep it"), [], rejected("Files-delete_file", "keep it")),
    ],
    ids=["approve", "edit", "reject"],
)
def test_in_a_kernel_a_call_is_decided_through_the_widget(k: KernelHarness, response: Any, ran: Any, read: str):
    fresh(k)
    cell = k.execute(ONE)
    widget = next_approval(k, set())
    state = widget.state
    assert (state["_title"], json.loads(state["_details"])) == ("Call Files-delete_file", {"path": "a.txt"})
    k.update_widget(widget.comm_id, {"_response": response})
    out = printed_json(k.result(cell, 60))
    assert out == {"ran": ran, "read": [["Files-delete_file", read]], "reply": "done"}


@pytest.mark.kernel
def test_in_a_kernel_parallel_calls_wait_together_and_are_answered_in_any_order(k: KernelHarness):
    """Both approvals wait at once; the second is edited first, then the first rejected: the
    edited call runs, the rejected one never does.
    """
    fresh(k)
    cell = k.execute(TWO)
    first = next_approval(k, set())
    second = next_approval(k, {first.comm_id})
    for widget in (first, second):  # both waiting before either is answered
        k.wait_until_waiting(widget)
    by_path = {json.loads(w.state["_details"])["path"]: w for w in (first, second)}
    k.update_widget(by_path["tmp.txt"].comm_id, {"_response": approval_response("approve", {"path": "tmp_old.txt"})})
    k.update_widget(by_path["a.txt"].comm_id, {"_response": approval_response("reject", reason="keep it")})
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == ["tmp_old.txt"]
    assert out["read"] == [
        ["Files-delete_file", rejected("Files-delete_file", "keep it")],
        ["Files-delete_file", "deleted tmp_old.txt"],
    ]
    history = k.run_ok("print(json.dumps([[e.answered_by, e.outcome.batch_id] for e in nbask.history()[-2:]]))")
    (by_1, batch_1), (by_2, batch_2) = json.loads(history.stdout)
    assert (by_1, by_2) == ("person", "person")
    assert batch_1 is not None
    assert batch_1 == batch_2


@pytest.mark.kernel
def test_in_a_kernel_an_interrupt_stops_the_run_and_nothing_runs(k: KernelHarness):
    fresh(k)
    cell = k.execute(TWO)
    first = next_approval(k, set())
    second = next_approval(k, {first.comm_id})
    for widget in (first, second):
        k.wait_until_waiting(widget)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    assert nbask_sk.INTERRUPTED in result.error_text
    after = k.run_ok("print(json.dumps({'ran': ran, 'status': [e.outcome.status for e in nbask.history()[-2:]]}))")
    assert json.loads(after.stdout.strip().splitlines()[-1]) == {"ran": [], "status": ["cancelled", "cancelled"]}


@pytest.mark.kernel
@pytest.mark.parametrize("how", ["reply", "interrupt"])
def test_in_a_kernel_a_handoffs_human_response_is_a_form_widget(k: KernelHarness, how: str):
    """The agent's response is the form's message; the reply reaches the agent. An interrupt
    ends the orchestration's result with Interrupted (SK would otherwise wait for it forever).
    """
    fresh(k)
    cell = k.execute("await handoff()")
    form = k.wait_for_comm_open(predicate=lambda comm: comm.state.get("_kind") == "form", timeout=30)
    assert form.state["_message"] == "Which order do you mean?"
    if how == "reply":
        reply = {"action": "submit", "values": {"reply": "Order 42."}, "view_id": "t", "sent_at_ms": 0}
        k.update_widget(form.comm_id, {"_response": reply})
        out = printed_json(k.result(cell, 60))
        assert out == {"read": ["Refund please.", "Order 42."], "result": "Task is completed with summary: asked"}
        return
    k.wait_until_waiting(form)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    assert nbask_sk.INTERRUPTED in result.error_text
