"""nbask.integrations.agent_framework inside Microsoft Agent Framework's own loop, offline: an
``Agent`` whose chat client is the framework's own ``BaseChatClient`` with its function-invocation
and middleware layers, scripted (tests/integrations/agent_framework_scripted.py), calls
``approval_mode="always_require"`` tools; the run returns function approval requests, nbask
answers them and the agent runs again in the same session. A ``Workflow`` whose executor calls
``ctx.request_info`` is answered the same way. Each test checks what the tool really ran with
(or that it never ran) and what the model read back.

Headless under a scripted person and the unattended policies; then in a real kernel whose
requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field
from support.person import REPO, Person, approve, edit, raises, reject

import nbask

pytest.importorskip("agent_framework")
from agent_framework import (
    Agent,
    AgentResponse,
    Executor,
    Message,
    WorkflowBuilder,
    WorkflowContext,
    handler,
    response_handler,
    tool,
)

from integrations.agent_framework_scripted import ScriptedChatClient, Turn
from nbask.errors import NoOneCanAnswer
from nbask.kinds import ApprovalRequest, FormRequest

nbask_af = importlib.import_module("nbask.integrations.agent_framework")

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
POLICY_REJECTION = (
    "It was rejected by policy, not by a person. Reason: Not approved: this run is unattended (policy "
    "'recommended'), and an unattended run does not approve actions on its own. Ask again where a person "
    "can decide, or replay a recorded decision."
)


def rejected(name: str, reason: str) -> str:
    return f"Not approved: Call {name} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


@dataclass
class Warehouse:
    """The agent's tools, and a record of every call that really ran."""

    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def tools(self) -> list[Any]:
        @tool(approval_mode="always_require")
        def drop_table(name: str) -> str:
            """Drop a warehouse table (irreversible)."""
            self.ran.append(("drop_table", {"name": name}))
            return f"dropped {name}"

        @tool
        def count_rows(name: str) -> str:
            """Count a table's rows."""
            self.ran.append(("count_rows", {"name": name}))
            return f"{name}: 12 rows"

        return [drop_table, count_rows]


DROP = ("drop_table", {"name": "events_2023"})


def agent_for(turns: list[Turn], warehouse: Warehouse, **kwargs: Any) -> tuple[Agent, ScriptedChatClient]:
    client = ScriptedChatClient([*turns, "done"])
    return Agent(client=client, tools=warehouse.tools(), **kwargs), client


def by_run(agent: Agent) -> AgentResponse:
    return asyncio.run(nbask_af.run(agent, "Clean up."))


def by_run_sync(agent: Agent) -> AgentResponse:
    return nbask_af.run_sync(agent, "Clean up.")  # type: ignore[no-any-return]


def by_resolve(agent: Agent) -> AgentResponse:
    async def go() -> AgentResponse:
        session = agent.create_session()
        response = await agent.run("Clean up.", session=session)
        while response.user_input_requests:
            answers = await nbask_af.resolve(response, agent=agent)
            response = await agent.run(Message(role="user", contents=answers), session=session)
        return response

    return asyncio.run(go())


def by_resolve_sync(agent: Agent) -> AgentResponse:
    async def go() -> AgentResponse:
        session = agent.create_session()
        response = await agent.run("Clean up.", session=session)
        while response.user_input_requests:
            answers = await asyncio.to_thread(nbask_af.resolve_sync, response, agent=agent)
            response = await agent.run(Message(role="user", contents=answers), session=session)
        return response

    return asyncio.run(go())


STYLES: dict[str, Callable[[Agent], AgentResponse]] = {
    "run": by_run,
    "run_sync": by_run_sync,
    "resolve": by_resolve,
    "resolve_sync": by_resolve_sync,
}


def with_middleware(style: str) -> dict[str, Any]:
    """Resolve applies an edit only on an agent carrying nbask's middleware; run brings its own."""
    return {"middleware": nbask_af.middleware()} if style.startswith("resolve") else {}


# -- a scripted person: approvals -----------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_approve_runs_the_tool_as_called(person: Person, style: str):
    person.answers(approve())
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse, **with_middleware(style))
    assert STYLES[style](agent).text == "done"
    (asked,) = person.approvals
    assert (asked.approval.action, json.loads(asked.approval.details)) == ("Call drop_table", {"name": "events_2023"})
    assert asked.tool_call_id == "call_1_1"
    assert asked.approval.details_schema is not None
    assert asked.approval.details_schema["required"] == ["name"]
    assert warehouse.ran == [DROP]
    assert client.seen == [("drop_table", "dropped events_2023")]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.decision) == ("person", "approve")


@pytest.mark.parametrize("style", STYLES)
def test_edit_runs_the_tool_with_the_edited_arguments(person: Person, style: str):
    person.answers(edit({"name": "tmp_scratch"}))
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse, **with_middleware(style))
    assert STYLES[style](agent).text == "done"
    assert warehouse.ran == [("drop_table", {"name": "tmp_scratch"})]  # what the tool received
    assert client.seen == [("drop_table", "dropped tmp_scratch")]
    assert len(person.asked) == 1  # the framework's replacement approval of the edit is not asked again
    assert client.calls == 2


@pytest.mark.parametrize("style", STYLES)
def test_reject_never_runs_the_tool_and_the_model_reads_the_reason(person: Person, style: str):
    person.answers(reject("keep it"))
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse, **with_middleware(style))
    assert STYLES[style](agent).text == "done"
    assert warehouse.ran == []
    assert client.seen == [("drop_table", rejected("drop_table", "keep it"))]


def test_without_nbasks_middleware_an_edit_is_a_rejection(person: Person):
    """Resolve on an agent without nbask's middleware: the edited call does not run (the framework's
    approval cannot change arguments), and the original call does not run either.
    """
    person.answers(edit({"name": "tmp_scratch"}))
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse)
    by_resolve(agent)
    assert warehouse.ran == []
    assert client.seen == [("drop_table", "Error: Tool call invocation was rejected by user.")]


def test_with_middleware_resolve_without_agent_still_never_runs_an_unapproved_edit(person: Person):
    person.answers(edit({"name": "tmp_scratch"}))
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse, middleware=nbask_af.middleware())

    async def go() -> None:
        session = agent.create_session()
        response = await agent.run("Clean up.", session=session)
        answers = await nbask_af.resolve(response)  # no agent=: nbask cannot know the middleware is there
        await agent.run(Message(role="user", contents=answers), session=session)

    asyncio.run(go())
    assert warehouse.ran == []
    ((name, text),) = client.seen
    assert name == "drop_table"
    assert text.startswith("Not approved: Call drop_table did not run. The person edited its arguments, but an edited")
    assert '{"name": "tmp_scratch"}' in text


def test_a_batch_is_asked_together_and_the_run_continues_once(person: Person):
    """Two approvals and a call needing none, in one model turn: both approvals are asked at once,
    the second is edited and the first rejected; the run goes on once with every answer.
    """
    person.answers(reject("keep it"), edit({"name": "tmp_old"}))
    warehouse = Warehouse()
    turn = [DROP, ("count_rows", {"name": "orders"}), ("drop_table", {"name": "tmp_scratch"})]
    agent, client = agent_for([turn], warehouse)
    assert by_run(agent).text == "done"
    assert [json.loads(a.approval.details) for a in person.approvals] == [
        {"name": "events_2023"},
        {"name": "tmp_scratch"},
    ]
    assert sorted(warehouse.ran) == [("count_rows", {"name": "orders"}), ("drop_table", {"name": "tmp_old"})]
    assert sorted(client.seen) == sorted(
        [
            ("count_rows", "orders: 12 rows"),
            ("drop_table", "dropped tmp_old"),
            ("drop_table", rejected("drop_table", "keep it")),
        ]
    )
    first, second = nbask.history()
    assert first.outcome.batch_id is not None
    assert first.outcome.batch_id == second.outcome.batch_id
    assert client.calls == 2  # one pause, one continuation


def test_run_keeps_the_callers_session_and_refuses_stream(person: Person):
    person.answers(approve())
    warehouse = Warehouse()
    agent, client = agent_for([[DROP], "first done", [("drop_table", {"name": "b"})]], warehouse)
    session = agent.create_session()
    assert asyncio.run(nbask_af.run(agent, "Clean up.", session=session)).text == "first done"
    assert asyncio.run(nbask_af.run(agent, "And b.", session=session)).text == "done"
    assert warehouse.ran == [DROP, ("drop_table", {"name": "b"})]
    assert client.seen == [("drop_table", "dropped events_2023"), ("drop_table", "dropped b")]
    assert client.history[-1] == 7  # the second run's last call read the first run's messages too
    with pytest.raises(TypeError, match="stream=True"):
        asyncio.run(nbask_af.run(agent, "Clean up.", stream=True))


# -- unattended --------------------------------------------------------------------------------------


def test_recommended_policy_rejects_and_the_tool_never_runs():
    nbask.configure(policy="recommended")
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse)
    assert by_run(agent).text == "done"
    assert warehouse.ran == []
    assert client.seen == [
        ("drop_table", f"Not approved: Call drop_table did not run. {POLICY_REJECTION} {DO_NOT_RETRY}")
    ]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.tool_call_id, entry.outcome.decision) == ("policy", "call_1_1", "reject")


def test_no_one_to_ask_is_the_frameworks_rejection_with_nbasks_reason(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse)
    assert by_run_sync(agent).text == "done"
    assert warehouse.ran == []
    ((name, text),) = client.seen
    assert name == "drop_table"
    assert text.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert "No one could be asked: no front end here" in text
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.reason) == ("policy", "No one could be asked: no front end here")


@pytest.mark.parametrize("style", ["run", "run_sync"])
def test_an_interrupt_while_asking_stops_the_run_and_the_tool_never_runs(person: Person, style: str):
    person.answers(raises(KeyboardInterrupt()))
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse)
    with pytest.raises(KeyboardInterrupt):
        STYLES[style](agent)
    assert warehouse.ran == []
    assert client.calls == 1  # the agent was not run again


def test_a_replay_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        by_run(agent_for([[DROP]], Warehouse())[0])
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    warehouse = Warehouse()
    by_run(agent_for([[DROP]], warehouse)[0])  # the recorded approval
    assert warehouse.ran == [DROP]
    assert nbask.history()[-1].answered_by == "replay"
    with pytest.raises(nbask.ReplayMissing):
        by_run(agent_for([[("drop_table", {"name": "users"})]], warehouse)[0])
    assert warehouse.ran == [DROP]


# -- workflows: request_info ---------------------------------------------------------------------------


class Budget(BaseModel):
    amount: int = Field(description="How much to spend.")
    currency: str = "EUR"


@dataclass
class Slot:
    day: str
    hour: int


class Planner(Executor):
    """Asks four things at once, and yields what it was answered."""

    def __init__(self) -> None:
        super().__init__(id="planner")
        self.got: dict[str, Any] = {}

    @handler
    async def start(self, topic: str, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await ctx.request_info(f"Name the {topic}.", str)
        await ctx.request_info(f"The budget of the {topic}.", Budget)
        await ctx.request_info(Slot(day="fri", hour=9), Slot)
        await ctx.request_info(f"Announce the {topic} publicly?", bool)

    @response_handler
    async def named(self, _request: str, answer: str, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await self._got("name", answer, ctx)

    @response_handler
    async def budgeted(self, _request: str, answer: Budget, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await self._got("budget", answer, ctx)

    @response_handler
    async def slotted(self, _request: Slot, answer: Slot, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await self._got("slot", answer, ctx)

    @response_handler
    async def announced(self, _request: str, answer: bool, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await self._got("announce", answer, ctx)

    async def _got(self, key: str, value: Any, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        self.got[key] = value
        if len(self.got) == 4:
            await ctx.yield_output(dict(self.got))


def answer_by_kind(request: Any) -> Any:
    if isinstance(request, FormRequest):
        names = [f.name for f in request.form.fields]
        if names == ["response"]:
            return request.decide({"response": "Aurora"})
        if names == ["amount", "currency"]:
            return request.decide({"amount": 900, "currency": "USD"})
        return request.decide({"day": "mon", "hour": 10})
    return approve()(request)


def test_a_workflows_requests_are_asked_together_by_their_response_type(person: Person):
    person.answers(answer_by_kind)
    planner = Planner()
    workflow = WorkflowBuilder(start_executor=planner).build()
    result = asyncio.run(nbask_af.run(workflow, "launch"))
    (out,) = result.get_outputs()
    assert out == {
        "name": "Aurora",
        "budget": Budget(amount=900, currency="USD"),
        "slot": Slot("mon", 10),
        "announce": True,
    }
    kinds = [(type(r).__name__, getattr(r, "form", None) and r.form.message) for r in person.asked]
    assert kinds == [
        ("FormRequest", "Name the launch."),
        ("FormRequest", "The budget of the launch."),
        ("FormRequest", '{\n  "day": "fri",\n  "hour": 9\n}'),
        ("ApprovalRequest", None),
    ]
    assert person.approvals[0].approval.action == "Announce the launch publicly?"
    budget = person.asked[1]
    assert isinstance(budget, FormRequest)
    assert [(f.name, f.type, f.required) for f in budget.form.fields] == [
        ("amount", "integer", True),
        ("currency", "string", False),
    ]
    assert len({e.outcome.batch_id for e in nbask.history()}) == 1  # asked together


@dataclass
class HumanFeedbackRequest:
    """The request data of the framework's own human-in-the-loop samples: a prompt, and context."""

    prompt: str
    draft: str = ""
    attempt: int = 0


class Reviewer(Executor):
    """Asks for feedback on a draft (the samples' shape), and for approval to publish it."""

    def __init__(self) -> None:
        super().__init__(id="reviewer")
        self.got: dict[str, Any] = {}

    @handler
    async def start(self, draft: str, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await ctx.request_info(HumanFeedbackRequest(prompt="How should the draft change?", draft=draft), str)
        await ctx.request_info("Publish the post", bool)

    @response_handler
    async def feedback(self, _request: HumanFeedbackRequest, answer: str, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await self._got("feedback", answer, ctx)

    @response_handler
    async def publish(self, _request: str, answer: bool, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        await self._got("publish", answer, ctx)

    async def _got(self, key: str, value: Any, ctx: WorkflowContext[None, dict]) -> None:  # type: ignore[type-arg]
        self.got[key] = value
        if len(self.got) == 2:
            await ctx.yield_output(dict(self.got))


def test_a_request_with_a_prompt_shows_the_prompt_as_text_and_an_approval_no_repeated_title(person: Person):
    person.answers(
        lambda request: (
            request.decide({"response": "Shorter, please."}) if isinstance(request, FormRequest) else approve()(request)
        )
    )
    workflow = WorkflowBuilder(start_executor=Reviewer()).build()
    result = asyncio.run(nbask_af.run(workflow, "Our new release is out."))
    assert result.get_outputs() == [{"feedback": "Shorter, please.", "publish": True}]
    form, approval = person.asked
    assert isinstance(form, FormRequest)
    assert form.form.message == "How should the draft change?\n\ndraft: Our new release is out.\nattempt: 0"
    assert "{" not in form.form.message
    assert isinstance(approval, ApprovalRequest)
    assert approval.approval.action == "Publish the post"
    assert approval.approval.details == ""  # the title is not repeated (and there is nothing to edit)
    assert approval.approval.edits == "off"  # a bool carries no edit: none is offered


class ReviewRequest(BaseModel):
    """Request data as a pydantic model whose question is in ``question``, with context."""

    question: str
    draft: str
    tags: list[str] = Field(default_factory=list)
    note: str = ""


class Verdict(BaseModel):
    score: int = Field(description="From 1 to 5.")
    comment: str = ""


class Scorer(Executor):
    """Asks for a typed verdict on a draft, with a prompt in a pydantic request."""

    def __init__(self) -> None:
        super().__init__(id="scorer")

    @handler
    async def start(self, draft: str, ctx: WorkflowContext[None, Any]) -> None:
        await ctx.request_info(ReviewRequest(question="How good is the draft?", draft=draft, tags=["blog"]), Verdict)

    @response_handler
    async def scored(self, _request: ReviewRequest, answer: Verdict, ctx: WorkflowContext[None, Any]) -> None:
        await ctx.yield_output(answer)


def test_a_pydantic_request_with_a_question_shows_it_as_text_and_the_reply_is_the_declared_type(person: Person):
    person.answers(lambda request: request.decide({"score": 4, "comment": "Tighter intro."}))
    workflow = WorkflowBuilder(start_executor=Scorer()).build()
    result = asyncio.run(nbask_af.run(workflow, "Release notes v2"))
    (out,) = result.get_outputs()
    assert type(out) is Verdict  # what the response handler received: the type request_info declared
    assert out == Verdict(score=4, comment="Tighter intro.")
    (form,) = person.asked
    assert isinstance(form, FormRequest)
    # The question first, then the context that is not empty, as lines a person reads.
    assert form.form.message == 'How good is the draft?\n\ndraft: Release notes v2\ntags: ["blog"]'
    assert '"question"' not in form.form.message


def test_a_call_without_arguments_is_asked_with_no_details_and_nothing_to_edit(person: Person):
    person.answers(approve())
    ran: list[str] = []

    @tool(approval_mode="always_require")
    def restart_service() -> str:
        """Restart the service."""
        ran.append("restart_service")
        return "restarted"

    client = ScriptedChatClient([[("restart_service", {})], "done"])
    asyncio.run(nbask_af.run(Agent(client=client, tools=[restart_service]), "Restart it."))
    assert ran == ["restart_service"]
    (approval,) = person.approvals
    assert approval.approval.action == "Call restart_service"
    assert approval.approval.details == ""  # not "{}": the card then offers no Edit


def test_a_workflow_under_a_policy_rejects_and_leaves_forms_without_defaults_pending():
    nbask.configure(policy="recommended")
    workflow = WorkflowBuilder(start_executor=Planner()).build()
    result = asyncio.run(nbask_af.run(workflow, "launch"))
    assert result.get_outputs() == []
    assert len(result.get_request_info_events()) == 4  # none sent: the pause is left to the caller
    by_kind = {(e.kind, e.outcome.status) for e in nbask.history()}
    assert ("approval", "answered") in by_kind
    assert [e.outcome.decision for e in nbask.history() if e.kind == "approval"] == ["reject"]


def test_an_agents_approval_inside_a_workflow_is_answered(person: Person):
    person.answers(edit({"name": "tmp_scratch"}))
    warehouse = Warehouse()
    agent, client = agent_for([[DROP]], warehouse)
    workflow = WorkflowBuilder(start_executor=agent).build()
    asyncio.run(nbask_af.run(workflow, "Clean up."))
    assert warehouse.ran == [("drop_table", {"name": "tmp_scratch"})]
    assert client.seen == [("drop_table", "dropped tmp_scratch")]


# -- a real kernel, answered through the widget -------------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import (  # noqa: E402
    FRAMEWORK_KERNELS,
    KernelHarness,
    approval_response,
    kernel_fixture,
    next_approval,
    printed_json,
)

SETUP = rf"""
import json, sys
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
import nbask
from agent_framework import Agent, tool
from agent_framework_scripted import ScriptedChatClient
import nbask.integrations.agent_framework as nbask_af

ran = []

@tool(approval_mode="always_require")
def drop_table(name: str) -> str:
    '''Drop a warehouse table (irreversible).'''
    ran.append(["drop_table", name])
    return f"dropped {{name}}"

def agent():
    calls = [("drop_table", {{"name": "events_2023"}}), ("drop_table", {{"name": "tmp_scratch"}})]
    return Agent(client=ScriptedChatClient([calls, "done"]), tools=[drop_table])

def report(result, a):
    print(json.dumps({{"ran": ran, "seen": a.client.seen, "text": result.text}}))
"""

RUN = {
    "run": "ran.clear(); a = agent(); report(await nbask_af.run(a, 'Clean up.'), a)",
    "run_sync": "ran.clear(); a = agent(); report(nbask_af.run_sync(a, 'Clean up.'), a)",
}

k = kernel_fixture(SETUP, kernels=FRAMEWORK_KERNELS)


@pytest.mark.kernel
@pytest.mark.parametrize("style", RUN)
def test_in_a_kernel_both_approvals_wait_together_and_are_answered_through_the_widget(k: KernelHarness, style: str):
    """Two approval requests: both widgets wait at once; the second is edited first, the first
    rejected, and the agent runs once more: the edited call runs, the rejected one never does.
    """
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN[style])
    first = next_approval(k, set())
    second = next_approval(k, {first.comm_id})
    for widget in (first, second):  # both waiting before either is answered
        k.wait_until_waiting(widget)
    by_table = {json.loads(w.state["_details"])["name"]: w for w in (first, second)}
    assert {w.state["_title"] for w in by_table.values()} == {"Call drop_table"}
    k.update_widget(by_table["tmp_scratch"].comm_id, {"_response": approval_response("approve", {"name": "tmp_old"})})
    k.update_widget(by_table["events_2023"].comm_id, {"_response": approval_response("reject", reason="keep it")})
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == [["drop_table", "tmp_old"]]  # what the tool received: the edit
    assert out["seen"] == [
        ["drop_table", rejected("drop_table", "keep it")],
        ["drop_table", "dropped tmp_old"],
    ]
    assert out["text"] == "done"
    history = k.run_ok("print(json.dumps([[e.answered_by, e.outcome.batch_id] for e in nbask.history()[-2:]]))")
    (by_1, batch_1), (by_2, batch_2) = json.loads(history.stdout)
    assert (by_1, by_2) == ("person", "person")
    assert batch_1 is not None
    assert batch_1 == batch_2
