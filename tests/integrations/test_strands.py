"""nbask.integrations.strands inside Strands' own Agent loop, offline: an ``Agent`` on a scripted
Strands ``Model`` (strands_scripted.py) calls recording tools; ``Approvals`` (the one line, a
``BeforeToolCallEvent`` hook provider) asks before each call, ``run`` / ``resolve`` answer an
interrupted result's interrupts (``Approvals(interrupt=True)``, ``HumanInTheLoop``, a hook's
own ``event.interrupt``) together and resume the agent once, and ``ask`` serves
``HumanInTheLoop(ask=...)``. Each test checks what the tool really ran with (nothing when not
approved) and what the model read back.

Headless under a scripted person and the unattended policies; then in a real kernel
(nbask-agents-more) whose requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, edit, reject

import nbask

pytest.importorskip("strands")
sys.path.insert(0, str(Path(__file__).parent))
from strands import Agent, tool
from strands.agent import AgentResult
from strands.hooks import BeforeToolCallEvent
from strands.types.exceptions import EventLoopException
from strands.vended_interventions.hitl import HumanInTheLoop
from strands_scripted import ScriptedModel, Turn

import nbask.integrations.strands as nbask_strands
from nbask.errors import NoOneCanAnswer
from nbask.kinds import FormRequest

pytestmark = pytest.mark.agents_more

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
POLICY_REJECTION = (
    "It was rejected by policy, not by a person. Reason: Not approved: this run is unattended (policy "
    "'recommended'), and an unattended run does not approve actions on its own. Ask again where a person "
    "can decide, or replay a recorded decision."
)
DROP_A = ("drop_table", {"name": "events_2023"})
DROP_B = ("drop_table", {"name": "tmp_scratch"})


def rejected(reason: str) -> str:
    return f"Not approved: Call drop_table did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


class Warehouse:
    """The Strands tools, and a record of every call that really ran."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, str]] = []

        @tool
        def drop_table(name: str) -> str:
            """Drop a warehouse table (irreversible).

            Args:
                name: The table to drop.

            """
            self.ran.append(("drop_table", name))
            return f"dropped {name}"

        @tool
        def list_tables() -> str:
            """List the tables."""
            self.ran.append(("list_tables", ""))
            return "events_2023, tmp_scratch"

        self.tools = [drop_table, list_tables]


def agent_for(*turns: Turn, hooks: Any = (), interventions: Any = ()) -> tuple[Agent, ScriptedModel, Warehouse]:
    model, warehouse = ScriptedModel(*turns, "done"), Warehouse()
    agent = Agent(
        model=model,
        tools=warehouse.tools,
        hooks=list(hooks),
        interventions=list(interventions),
        callback_handler=None,
    )
    return agent, model, warehouse


def inline(*turns: Turn, **kwargs: Any) -> tuple[AgentResult, ScriptedModel, Warehouse]:
    """The one line: ``Agent(hooks=[Approvals()])``, called as the code already does."""
    agent, model, warehouse = agent_for(*turns, hooks=[nbask_strands.Approvals(**kwargs)])
    return agent("Clean up."), model, warehouse


# -- the one line: Approvals, asked inline ---------------------------------------------------------


def test_an_approved_call_runs_as_the_model_asked(person: Person):
    person.answers(approve())
    result, model, warehouse = inline([DROP_A])
    (asked,) = person.approvals
    assert (asked.approval.action, asked.tool_call_id) == ("Call drop_table", "call_1_1")
    assert json.loads(asked.approval.details) == {"name": "events_2023"}
    assert asked.approval.details_schema is not None
    assert asked.approval.details_schema["required"] == ["name"]  # the tool's own input schema
    assert warehouse.ran == [("drop_table", "events_2023")]
    assert model.seen == [("call_1_1", "success", "dropped events_2023")]
    assert str(result).strip() == "done"


def test_an_edit_runs_the_tool_with_the_edited_input(person: Person):
    person.answers(edit({"name": "tmp_old"}))
    _, model, warehouse = inline([DROP_A])
    assert warehouse.ran == [("drop_table", "tmp_old")]
    assert model.seen == [("call_1_1", "success", "dropped tmp_old")]


def test_a_rejected_call_never_runs_and_the_model_reads_the_reason(person: Person):
    person.answers(reject("keep it"))
    _, model, warehouse = inline([DROP_A])
    assert warehouse.ran == []
    assert model.seen == [("call_1_1", "error", rejected("keep it"))]


def test_an_edit_that_is_not_an_object_is_a_rejection_saying_so(person: Person):
    person.answers(edit('["tmp_old"]'))
    _, model, warehouse = inline([DROP_A])
    assert warehouse.ran == []
    ((_, status, text),) = model.seen
    assert status == "error"
    assert "the edited arguments are a JSON array, not an object of argument names" in text


def test_parallel_calls_are_each_asked_and_each_decided(person: Person):
    person.answers(reject("keep it"), approve())
    _, model, warehouse = inline([DROP_A, DROP_B])
    assert sorted(a.tool_call_id or "" for a in person.approvals) == ["call_1_1", "call_1_2"]
    first, second = person.approvals
    kept = json.loads(first.approval.details)["name"]
    dropped = json.loads(second.approval.details)["name"]
    assert warehouse.ran == [("drop_table", dropped)]
    assert sorted(model.seen) == sorted(
        [(first.tool_call_id, "error", rejected("keep it")), (second.tool_call_id, "success", f"dropped {dropped}")]
    )
    assert kept != dropped


def test_tools_names_the_calls_asked_about(person: Person):
    person.answers(reject("no"))
    _, _, warehouse = inline([("list_tables", {}), DROP_A], tools=["drop_table"])
    assert [a.approval.action for a in person.approvals] == ["Call drop_table"]
    assert warehouse.ran == [("list_tables", "")]
    with pytest.raises(TypeError, match="tools must be a list of tool names"):
        nbask_strands.Approvals(tools="drop_table")


def test_invoke_async_asks_the_same(person: Person):
    person.answers(approve())
    agent, _, warehouse = agent_for([DROP_A], hooks=[nbask_strands.Approvals()])
    result = asyncio.run(agent.invoke_async("Clean up."))
    assert str(result).strip() == "done"
    assert warehouse.ran == [("drop_table", "events_2023")]


# -- unattended, no one to ask, replay -------------------------------------------------------------


def test_recommended_policy_rejects_and_strands_reads_the_policys_reason():
    nbask.configure(policy="recommended")
    _, model, warehouse = inline([DROP_A])
    assert warehouse.ran == []
    text = f"Not approved: Call drop_table did not run. {POLICY_REJECTION} {DO_NOT_RETRY}"
    assert model.seen == [("call_1_1", "error", text)]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.tool_call_id, entry.outcome.decision) == ("policy", "call_1_1", "reject")


def test_no_one_to_ask_is_strands_cancellation_with_nbasks_reason(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    _, model, warehouse = inline([DROP_A])
    assert warehouse.ran == []
    ((_, status, text),) = model.seen
    assert status == "error"
    assert text.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert "No one could be asked: no front end here" in text
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.reason) == ("policy", "No one could be asked: no front end here")


def test_a_replay_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        inline([DROP_A])
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    _, _, warehouse = inline([DROP_A])  # the recorded approval
    assert warehouse.ran == [("drop_table", "events_2023")]
    assert nbask.history()[-1].answered_by == "replay"
    with pytest.raises(EventLoopException) as raised:  # Strands wraps what a hook raises
        inline([("drop_table", {"name": "users"})])
    assert isinstance(raised.value.__cause__, nbask.ReplayMissing)
    agent, _, warehouse = agent_for(
        [("drop_table", {"name": "users"})], hooks=[nbask_strands.Approvals(interrupt=True)]
    )
    with pytest.raises(nbask.ReplayMissing):  # asked by run, between Strands' calls: raised as it is
        by_run_sync(agent)
    assert warehouse.ran == []


# -- interrupts: answered together, the agent resumed once -----------------------------------------


def by_run(agent: Agent) -> AgentResult:
    return asyncio.run(nbask_strands.run(agent, "Clean up."))


def by_run_sync(agent: Agent) -> AgentResult:
    return nbask_strands.run_sync(agent, "Clean up.")


def by_resolve(agent: Agent) -> AgentResult:
    interrupted = agent("Clean up.")
    assert interrupted.stop_reason == "interrupt"
    responses = asyncio.run(nbask_strands.resolve(interrupted))
    assert [r["interruptResponse"]["interruptId"] for r in responses] == [i.id for i in interrupted.interrupts or []]
    return agent(responses)


def by_resolve_sync(agent: Agent) -> AgentResult:
    return agent(nbask_strands.resolve_sync(agent("Clean up.")))


STYLES: dict[str, Callable[[Agent], AgentResult]] = {
    "run": by_run,
    "run_sync": by_run_sync,
    "resolve": by_resolve,
    "resolve_sync": by_resolve_sync,
}


@pytest.mark.parametrize("style", STYLES)
def test_two_interrupts_are_one_batch_and_one_resume(person: Person, style: str):
    person.answers(lambda r: (reject("keep it") if "events" in r.approval.details else edit({"name": "tmp_old"}))(r))
    agent, model, warehouse = agent_for([DROP_A, DROP_B], hooks=[nbask_strands.Approvals(interrupt=True)])
    result = STYLES[style](agent)
    assert str(result).strip() == "done"
    assert warehouse.ran == [("drop_table", "tmp_old")]
    assert sorted(model.seen) == [
        ("call_1_1", "error", rejected("keep it")),
        ("call_1_2", "success", "dropped tmp_old"),
    ]
    assert model.calls == 2  # the tool calls' turn, then the final answer: the model was not asked again
    batches = {entry.outcome.batch_id for entry in nbask.history()}
    assert len(nbask.history()) == 2
    assert len(batches) == 1
    assert None not in batches


def test_recommended_policy_rejects_an_interrupted_call():
    nbask.configure(policy="recommended")
    agent, model, warehouse = agent_for([DROP_A], hooks=[nbask_strands.Approvals(interrupt=True)])
    assert str(by_run_sync(agent)).strip() == "done"
    assert warehouse.ran == []
    assert model.seen == [
        ("call_1_1", "error", f"Not approved: Call drop_table did not run. {POLICY_REJECTION} {DO_NOT_RETRY}")
    ]


def test_the_hooks_approvers_travel_in_its_interrupt_and_come_before_the_runs(person: Person):
    person.answers(approve())
    hooks = [nbask_strands.Approvals(interrupt=True, approvers=["alice"])]
    agent, _, _ = agent_for([DROP_A], [DROP_B], hooks=hooks)
    nbask_strands.run_sync(agent, "Clean up.", approvers=["bob"])
    assert [request.approvers for request in person.approvals] == [("alice",), ("alice",)]


def test_the_runs_approvers_hold_an_interrupt_that_names_none(person: Person):
    person.answers(approve())
    agent, _, _ = agent_for([DROP_A], hooks=[nbask_strands.Approvals(interrupt=True)])
    nbask_strands.run_sync(agent, "Clean up.", approvers=["bob"])
    assert [request.approvers for request in person.approvals] == [("bob",)]


def test_human_in_the_loop_interrupts_are_approvals(person: Person):
    person.answers(lambda r: (reject("keep it") if "events" in r.approval.details else approve())(r))
    agent, model, warehouse = agent_for([DROP_A, DROP_B], interventions=[HumanInTheLoop()])
    assert str(by_run(agent)).strip() == "done"
    assert {a.approval.action for a in person.approvals} == {"Call drop_table"}
    assert warehouse.ran == [("drop_table", "tmp_scratch")]
    # Strands' own refusal: the model reads its prompt, not the person's reason
    refusal = 'CONFIRMATION_FAILED: Approve "drop_table"?\n  Input: {"name": "events_2023"}'
    assert sorted(model.seen) == [("call_1_1", "error", refusal), ("call_1_2", "success", "dropped tmp_scratch")]


def test_human_in_the_loop_ask_is_answered_inline(person: Person):
    person.answers(edit({"name": "other"}), approve())
    agent, model, warehouse = agent_for([DROP_A], [DROP_B], interventions=[HumanInTheLoop(ask=nbask_strands.ask)])
    assert str(agent("Clean up.")).strip() == "done"
    assert [json.loads(a.approval.details) for a in person.approvals] == [
        {"name": "events_2023"},
        {"name": "tmp_scratch"},
    ]
    assert warehouse.ran == [("drop_table", "tmp_scratch")]  # an edit cannot be applied there: not run
    assert model.seen[0] == (
        "call_1_1",
        "error",
        'CONFIRMATION_FAILED: Approve "drop_table"?\n  Input: {"name": "events_2023"}',
    )
    assert nbask.history()[0].outcome.decision == "edit"


class Budget:
    """A hook of the user's own raising ``event.interrupt`` with a free-form reason."""

    def __init__(self) -> None:
        self.responses: list[Any] = []

    def register_hooks(self, registry: Any, **kwargs: Any) -> None:
        del kwargs
        registry.add_callback(BeforeToolCallEvent, self.check)

    def check(self, event: BeforeToolCallEvent) -> None:
        response = event.interrupt("budget", reason={"limit": 100, "tool": event.tool_use["name"]})
        self.responses.append(response)
        if response != "A":
            event.cancel_tool = f"not authorised: {response}"


def test_a_hooks_own_interrupt_is_a_text_form_and_its_text_the_response(person: Person):
    person.answers(lambda request: request.decide({"response": "A"}))
    budget = Budget()
    agent, _, warehouse = agent_for([DROP_A], hooks=[budget])
    assert str(by_run_sync(agent)).strip() == "done"
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == 'budget\n\n{\n  "limit": 100,\n  "tool": "drop_table"\n}'
    assert budget.responses == ["A"]
    assert warehouse.ran == [("drop_table", "events_2023")]


def test_an_interrupt_left_open_returns_the_interrupted_result_for_the_caller():
    nbask.configure(policy="recommended")  # a text field without a default: declined, left open
    budget = Budget()
    agent, model, warehouse = agent_for([DROP_A], hooks=[budget, nbask_strands.Approvals(interrupt=True)])
    result = by_run_sync(agent)
    assert result.stop_reason == "interrupt"
    open_ones = [i for i in result.interrupts or [] if i.response is None]
    assert [i.name for i in open_ones] == ["budget"]  # Approvals' one is answered (rejected) in place
    assert warehouse.ran == []
    (open_one,) = open_ones
    done = agent([{"interruptResponse": {"interruptId": open_one.id, "response": "A"}}])
    assert str(done).strip() == "done"
    assert warehouse.ran == []  # the policy's rejection, answered in place, still holds
    assert model.seen[0][1] == "error"
    assert POLICY_REJECTION in model.seen[0][2]


# -- a real kernel, answered through the widget ----------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import (  # noqa: E402
    AGENTS_MORE_KERNELS,
    KernelHarness,
    approval_response,
    kernel_fixture,
    next_approval,
    printed_json,
)

SETUP = rf"""
import json, sys, threading
sys.path.insert(0, {str(Path(__file__).parent)!r})
from strands import Agent, tool
from strands_scripted import ScriptedModel
import nbask
import nbask.integrations.strands as nbask_strands

ran = []

@tool
def drop_table(name: str) -> str:
    '''Drop a warehouse table (irreversible).

    Args:
        name: The table to drop.
    '''
    ran.append(name)
    return f"dropped {{name}}"

def agent(interrupt=False):
    global model
    ran.clear()
    calls = [("drop_table", {{"name": "events_2023"}}), ("drop_table", {{"name": "tmp_scratch"}})]
    model = ScriptedModel(calls, "done")
    return Agent(model=model, tools=[drop_table], callback_handler=None,
                 hooks=[nbask_strands.Approvals(timeout=60, interrupt=interrupt)])

def report(result):
    print(json.dumps({{"ran": ran, "seen": sorted(model.seen), "text": str(result).strip()}}))
"""

RUN = {
    "agent(...)": "report(agent()('Clean up.'))",
    "await invoke_async": "report(await agent().invoke_async('Clean up.'))",
    "run_sync, interrupts": "report(nbask_strands.run_sync(agent(interrupt=True), 'Clean up.', timeout=60))",
}

k = kernel_fixture(SETUP, kernels=AGENTS_MORE_KERNELS)


@pytest.mark.kernel
@pytest.mark.parametrize("call", RUN)
def test_in_a_kernel_both_approvals_show_and_resume_through_the_widget(k: KernelHarness, call: str):
    """The agent's two parallel calls: both widgets wait at once (the sync ``agent(...)`` runs
    Strands' loop in a worker thread while the cell blocks); one is edited, the other rejected
    with a reason, and the agent goes on: the edited call runs, the rejected one never does.
    """
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN[call])
    first = next_approval(k, set())
    second = next_approval(k, {first.comm_id})
    for widget in (first, second):  # both waiting before either is answered
        k.wait_until_waiting(widget)
    by_table = {json.loads(w.state["_details"])["name"]: w for w in (first, second)}
    assert {w.state["_title"] for w in by_table.values()} == {"Call drop_table"}
    k.update_widget(by_table["tmp_scratch"].comm_id, {"_response": approval_response("approve", {"name": "tmp_old"})})
    k.update_widget(by_table["events_2023"].comm_id, {"_response": approval_response("reject", reason="keep it")})
    out = printed_json(k.result(cell, 60))
    assert out == {
        "ran": ["tmp_old"],  # what the tool received: the edit
        "seen": [["call_1_1", "error", rejected("keep it")], ["call_1_2", "success", "dropped tmp_old"]],
        "text": "done",
    }
    history = k.run_ok("print(json.dumps([[e.answered_by, e.outcome.batch_id] for e in nbask.history()[-2:]]))")
    (by_1, batch_1), (by_2, batch_2) = json.loads(history.stdout)
    assert (by_1, by_2) == ("person", "person")
    if "interrupts" in call:  # Strands' interrupts: one nbask batch
        assert batch_1 is not None
        assert batch_1 == batch_2


@pytest.mark.kernel
def test_in_a_kernel_an_interrupt_stops_a_sync_call_and_leaves_no_thread(k: KernelHarness):
    k.drain(0.1)
    k.iopub_log.clear()
    before = k.run_ok("print(json.dumps(sorted(t.name for t in threading.enumerate())))")
    cell = k.execute("agent()('Clean up.')")
    first = next_approval(k, set())
    k.wait_until_waiting(first)
    k.interrupt()
    result = k.result(cell, 30)
    assert not result.ok
    assert "KeyboardInterrupt" in (result.ename or "") + result.error_text
    after = k.run_ok("print(json.dumps({'ran': ran, 'threads': sorted(t.name for t in threading.enumerate())}))")
    assert printed_json(after) == {"ran": [], "threads": printed_json(before)}
    statuses = k.run_ok("print(json.dumps([e.outcome.status for e in nbask.history()[-2:]]))")
    assert "cancelled" in json.loads(statuses.stdout)
