"""nbask.integrations.haystack inside Haystack's own Agent loop, offline: an ``Agent`` driven by
Haystack's ``MockChatGenerator`` playing a script (tests/integrations/haystack_scripted.py) calls a
tool; its ``before_tool`` ``ConfirmationHook`` asks nbask before the tool runs. Each test checks
what the tool really ran with (or that it never ran) and what the model read back.

Headless under a scripted person and the unattended policies; then in a real kernel whose
requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, edit, reject, through_the_kernels_check

import nbask

pytest.importorskip("haystack")
from haystack.components.agents import Agent
from haystack.dataclasses import ChatMessage
from haystack.hooks.human_in_the_loop import AskOncePolicy, BlockingConfirmationStrategy, ConfirmationHook
from haystack.tools import Tool, tool

from integrations.haystack_scripted import Script, Turn, scripted
from nbask.core.lifecycle import Resolution
from nbask.errors import NoOneCanAnswer

nbask_haystack = importlib.import_module("nbask.integrations.haystack")

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
    """The Haystack tools, and a record of every call that really ran."""

    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def tools(self) -> list[Tool]:
        @tool
        def drop_table(name: str) -> str:
            """Drop a warehouse table (irreversible).

            :param name: The table to drop.
            """
            self.ran.append(("drop_table", {"name": name}))
            return f"dropped {name}"

        @tool
        def count_rows(name: str) -> str:
            """Count a table's rows."""
            self.ran.append(("count_rows", {"name": name}))
            return f"{name}: 12 rows"

        return [drop_table, count_rows]


DROP = ("drop_table", {"name": "events_2023"})
COUNT = ("count_rows", {"name": "events_2023"})


def hook_of(style: str, tools: list[Tool]) -> Any:
    if style.startswith("hook"):
        return nbask_haystack.confirmation_hook(tools=["drop_table"])
    return ConfirmationHook(
        {"drop_table": nbask_haystack.AskInCell(tool_definitions=tools)}
    )  # Haystack's hook, one at a time


def running(style: str, turns: list[Turn], warehouse: Warehouse) -> tuple[dict[str, Any], Script]:
    tools = warehouse.tools()
    generator, script = scripted([*turns, "done"])
    agent = Agent(chat_generator=generator, tools=tools, hooks={"before_tool": [hook_of(style, tools)]})
    messages = [ChatMessage.from_user("Clean up.")]
    if style.endswith("async"):
        return asyncio.run(agent.run_async(messages)), script
    return agent.run(messages), script


STYLES = ["hook", "hook_async", "strategy", "strategy_async"]
EDITED_NOTE = "The parameters for tool 'drop_table' were updated by the user to:\n{'name': 'events_2022'}"

CASES = [
    pytest.param(approve("fine"), [DROP], (("dropped events_2023", False), []), id="approve"),
    pytest.param(
        edit({"name": "events_2022"}, reason="the older one"),
        [("drop_table", {"name": "events_2022"})],
        (("dropped events_2022", False), [f"{EDITED_NOTE} With user feedback: the older one"]),
        id="edit",
    ),
    pytest.param(
        reject("keep it for the audit"), [], ((rejected("drop_table", "keep it for the audit"), True), []), id="reject"
    ),
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("decide", "ran", "heard"), CASES)
def test_person_decides_a_call(person: Person, style: str, decide: Any, ran: Any, heard: Any):
    """``heard``: the call's result as the model reads it, and the user notes it is sent."""
    person.answers(decide)
    seen, notes = heard
    warehouse = Warehouse()
    result, script = running(style, [[DROP]], warehouse)
    assert result["last_message"].text == "done"
    assert warehouse.ran == ran  # what the tool really received; nothing when rejected
    assert script.seen == [("drop_table", *seen)]  # what the model read back
    assert script.notes == notes  # an edit is told to the model, as Haystack does
    (asked,) = person.approvals
    assert (asked.approval.action, asked.tool_call_id) == ("Call drop_table", "call_1_1")
    assert json.loads(asked.approval.details) == {"name": "events_2023"}
    schema = asked.approval.details_schema
    assert schema is not None
    assert (schema["properties"]["name"]["type"], schema["required"]) == ("string", ["name"])
    assert nbask.history()[-1].answered_by == "person"


@pytest.mark.parametrize(
    ("edited", "why"),
    [
        ('{"name": ', "the edited arguments are not valid JSON (Expecting value: line 1 column 10 (char 9))"),
        ('["events_2022"]', "the edited arguments are a JSON array, not an object of argument names"),
    ],
    ids=["not-json", "not-an-object"],
)
def test_an_edit_that_is_not_a_json_object_is_a_rejection(person: Person, edited: str, why: str):
    person.answers(edit(edited))
    warehouse = Warehouse()
    _, script = running("hook", [[DROP]], warehouse)
    assert warehouse.ran == []
    text = f"Not approved: Call drop_table did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    assert script.seen == [("drop_table", text, True)]


def test_an_edit_that_does_not_fit_the_tools_parameters_is_refused_before_the_run(person: Person):
    refused: list[str] = []
    person.answers(through_the_kernels_check({"name": 7}, {"name": "events_2022"}, refused=refused))
    warehouse = Warehouse()
    running("hook_async", [[DROP]], warehouse)
    refusal = 'The edit was not accepted: argument "name" must be a string, not an integer.'
    assert refused == [f"{refusal} Fix the Details, then approve again."]
    assert warehouse.ran == [("drop_table", {"name": "events_2022"})], "only the fixed edit ran"


@pytest.mark.parametrize("style", ["hook", "hook_async"])
def test_the_calls_of_one_step_are_asked_together(person: Person, style: str):
    """The model calls drop_table twice and count_rows once: both drop_table approvals form one
    batch, each decided on its own; count_rows has no strategy and runs; the model is called again once.
    """
    person.answers(reject("keep it"), approve())
    warehouse = Warehouse()
    result, script = running(style, [[DROP, COUNT, ("drop_table", {"name": "tmp_scratch"})]], warehouse)
    assert result["last_message"].text == "done"
    assert [json.loads(a.approval.details) for a in person.approvals] == [
        {"name": "events_2023"},
        {"name": "tmp_scratch"},
    ]
    assert sorted(warehouse.ran) == [COUNT, ("drop_table", {"name": "tmp_scratch"})]
    assert sorted(script.seen) == sorted(
        [
            ("drop_table", rejected("drop_table", "keep it"), True),
            ("count_rows", "events_2023: 12 rows", False),
            ("drop_table", "dropped tmp_scratch", False),
        ]
    )
    first, second = nbask.history()
    assert first.outcome.batch_id is not None
    assert first.outcome.batch_id == second.outcome.batch_id
    assert script.calls == 2


class WaitingPerson(Person):
    """A person who answers only once another task on the same event loop has run."""

    def __init__(self) -> None:
        super().__init__()
        self.asking = asyncio.Event()
        self.go = asyncio.Event()

    async def resolve(self, resolution: Resolution[Any]) -> Any:
        self.asking.set()
        await self.go.wait()
        return self.resolve_sync(resolution)


@pytest.mark.parametrize("style", ["hook_async", "strategy_async"])
def test_run_async_leaves_the_event_loop_free_while_the_person_decides(monkeypatch: pytest.MonkeyPatch, style: str):
    waiting = WaitingPerson().answers(approve())
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: waiting)
    warehouse = Warehouse()
    tools = warehouse.tools()
    generator, _ = scripted([[DROP], "done"])
    agent = Agent(chat_generator=generator, tools=tools, hooks={"before_tool": [hook_of(style, tools)]})

    async def other_work() -> str:
        await waiting.asking.wait()  # the approval is waiting, and this task still runs
        assert warehouse.ran == []
        waiting.go.set()
        return "ran meanwhile"

    async def both() -> Any:
        return await asyncio.wait_for(
            asyncio.gather(agent.run_async([ChatMessage.from_user("Clean up.")]), other_work()), 20
        )

    result, other = asyncio.run(both())
    assert (result["last_message"].text, other) == ("done", "ran meanwhile")
    assert warehouse.ran == [DROP]


def test_blocking_strategys_ui_with_its_policy(person: Person):
    """``CellConfirmationUI`` in Haystack's ``BlockingConfirmationStrategy``: ``AskOncePolicy``
    asks once for a confirmed call; a rejection carries Haystack's template and nbask's text.
    """
    person.answers(approve(), reject("not that one"))
    warehouse = Warehouse()
    tools = warehouse.tools()
    strategy = BlockingConfirmationStrategy(
        confirmation_policy=AskOncePolicy(), confirmation_ui=nbask_haystack.CellConfirmationUI(tool_definitions=tools)
    )
    generator, script = scripted([[DROP], [DROP], [("drop_table", {"name": "users"})], "done"])
    agent = Agent(
        chat_generator=generator, tools=tools, hooks={"before_tool": [ConfirmationHook({"drop_table": strategy})]}
    )
    agent.run([ChatMessage.from_user("Clean up.")])
    assert len(person.approvals) == 2  # the repeated call was confirmed once
    assert warehouse.ran == [DROP, DROP]
    prefix = "Tool execution for 'drop_table' was rejected by the user. With user feedback: "
    assert script.seen[-1] == ("drop_table", prefix + rejected("drop_table", "not that one"), True)


# -- unattended ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["recommended", "dismiss", "error"])
def test_unattended_policies_reject_and_the_tool_never_runs(policy: str):
    nbask.configure(policy=policy)
    warehouse = Warehouse()
    result, script = running("hook", [[DROP]], warehouse)
    assert result["last_message"].text == "done"
    assert warehouse.ran == []
    ((name, text, error),) = script.seen
    assert (name, error) == ("drop_table", True)
    assert text.startswith("Not approved: Call drop_table did not run.")
    assert text.endswith(DO_NOT_RETRY)
    if policy == "recommended":
        assert text == f"Not approved: Call drop_table did not run. {POLICY_REJECTION} {DO_NOT_RETRY}"
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.tool_call_id, entry.outcome.decision) == ("policy", "call_1_1", "reject")


@pytest.mark.parametrize("style", STYLES)
def test_no_one_to_ask_is_haystacks_rejection_with_nbasks_reason(person: Person, style: str):
    person.unavailable = NoOneCanAnswer("no front end here")
    warehouse = Warehouse()
    _, script = running(style, [[DROP]], warehouse)
    assert warehouse.ran == []
    ((name, text, error),) = script.seen
    assert (name, error) == ("drop_table", True)
    assert text.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert "No one could be asked: no front end here" in text
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.reason) == ("policy", "No one could be asked: no front end here")


@pytest.mark.parametrize("style", ["hook", "hook_async"])
def test_a_replay_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, style: str):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        running(style, [[DROP]], Warehouse())
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    warehouse = Warehouse()
    running(style, [[DROP]], warehouse)  # the recorded approval
    assert warehouse.ran == [DROP]
    assert nbask.history()[-1].answered_by == "replay"
    with pytest.raises(nbask.ReplayMissing):
        running(style, [[("drop_table", {"name": "users"})]], warehouse)
    assert warehouse.ran == [DROP]


def test_the_hook_and_strategy_serialize_as_haystack_components(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HAYSTACK_DESERIALIZATION_ALLOWLIST", "nbask.integrations.haystack")  # Haystack's allowlist
    hook = nbask_haystack.confirmation_hook(tools=["drop_table", "count_rows"], timeout=30, approvers=["alice"])
    data = hook.to_dict()
    assert data["type"] == "nbask.integrations.haystack.CellConfirmationHook"
    again = nbask_haystack.CellConfirmationHook.from_dict(data)
    (strategy,) = again.confirmation_strategies.values()
    assert list(again.confirmation_strategies) == [("drop_table", "count_rows")]
    assert isinstance(strategy, nbask_haystack.AskInCell)
    assert strategy.timeout == 30
    assert strategy.approvers == ("alice",)


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
import asyncio, json, sys
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
import nbask
from haystack.components.agents import Agent
from haystack.dataclasses import ChatMessage
from haystack.tools import tool
from haystack_scripted import scripted
from nbask.integrations.haystack import confirmation_hook

ran = []

@tool
def drop_table(name: str) -> str:
    '''Drop a warehouse table (irreversible).'''
    ran.append(["drop_table", name])
    return f"dropped {{name}}"

def agent():
    calls = [("drop_table", {{"name": "events_2023"}}), ("drop_table", {{"name": "tmp_scratch"}})]
    generator, script = scripted([calls, "done"])
    return Agent(chat_generator=generator, tools=[drop_table], hooks={{"before_tool": [confirmation_hook()]}}), script

def report(result, script):
    print(json.dumps({{"ran": ran, "seen": script.seen, "content": result["last_message"].text}}))

task = [ChatMessage.from_user("Clean up.")]
"""

RUN = {
    "run": "ran.clear(); a, s = agent(); report(a.run(task), s)",
    "run_async": "ran.clear(); a, s = agent(); report(await a.run_async(task), s)",
}

k = kernel_fixture(SETUP, kernels=FRAMEWORK_KERNELS)


@pytest.mark.kernel
@pytest.mark.parametrize("style", RUN)
def test_in_a_kernel_both_approvals_wait_together_and_are_answered_through_the_widget(k: KernelHarness, style: str):
    """The model calls drop_table twice: both widgets wait at once, even while the blocking
    ``Agent.run`` holds the cell; the second is edited first, the first rejected, and the tools
    run once: the edited call runs, the rejected one never does.
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
        ["drop_table", rejected("drop_table", "keep it"), True],
        ["drop_table", "dropped tmp_old", False],
    ]
    assert out["content"] == "done"
    history = k.run_ok("print(json.dumps([[e.answered_by, e.outcome.batch_id] for e in nbask.history()[-2:]]))")
    (by_1, batch_1), (by_2, batch_2) = json.loads(history.stdout)
    assert (by_1, by_2) == ("person", "person")
    assert batch_1 is not None
    assert batch_1 == batch_2


@pytest.mark.kernel
@pytest.mark.parametrize("style", RUN)
def test_in_a_kernel_an_interrupt_stops_the_run_and_no_tool_runs(k: KernelHarness, style: str):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN[style])
    widget = next_approval(k, set())
    k.wait_until_waiting(widget)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    assert result.ename in {"KeyboardInterrupt", "CancelledError"}
    after = k.run_ok("print(json.dumps({'ran': ran, 'status': [e.outcome.status for e in nbask.history()[-2:]]}))")
    out = json.loads(after.stdout.strip().splitlines()[-1])
    assert out == {"ran": [], "status": ["cancelled", "cancelled"]}
