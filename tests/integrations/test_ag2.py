"""nbask.integrations.ag2 inside AG2's own Agent loop, offline: an ``ag2.Agent`` driven by AG2's
scripted model (``ag2.testing.TestConfig``, tests/integrations/ag2_scripted.py) calls a tool
gated by nbask's (or AG2's own) ``approval_required``, or a tool that asks ``context.input``,
and nbask's ``hitl_hook`` answers. Each test checks what the tool really ran with (or that it
never ran) and what the model read back.

Headless under a scripted person and the unattended policies; then in a real kernel whose
requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import Callable
from copy import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, dismiss, edit, reject, through_the_kernels_check

import nbask

pytest.importorskip("ag2")
from ag2 import Agent, Context, tool
from ag2.exceptions import HumanInputError, HumanInputFailedError, HumanInputNotProvidedError, HumanInputTimeoutError
from ag2.middleware.builtin.tools import approval_required as ag2_approval_required

from integrations.ag2_scripted import call, read_in_order, results_read, scripted
from nbask.core.lifecycle import Resolution
from nbask.errors import NoOneCanAnswer
from nbask.kinds import ApprovalRequest, FormRequest

nbask_ag2 = importlib.import_module("nbask.integrations.ag2")

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
POLICY_REJECTION = (
    "It was rejected by policy, not by a person. Reason: Not approved: this run is unattended (policy "
    "'recommended'), and an unattended run does not approve actions on its own. Ask again where a person "
    "can decide, or replay a recorded decision."
)


def rejected(name: str, reason: str) -> str:
    return f"Not approved: Call {name} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


def submit(**values: Any) -> Any:
    return lambda request: request.decide(values)


@dataclass
class Warehouse:
    """The AG2 tools, and a record of every call that really ran."""

    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def tools(self, gate: str = "nbask") -> list[Any]:
        def drop_table(name: str) -> str:
            """Drop a warehouse table (irreversible)."""
            self.ran.append(("drop_table", {"name": name}))
            return f"dropped {name}"

        @tool
        async def rename(context: Context, table: str) -> str:
            """Rename a table to a name the person gives."""
            new = await context.input(f"New name for {table}?")
            self.ran.append(("rename", {"table": table, "new": new}))
            return f"renamed {table} to {new}"

        if gate == "ag2":
            gated = tool(drop_table, middleware=[ag2_approval_required()])
        elif gate == "ag2 behind a copy":  # a middleware in front of AG2's gate hands on a copy of the call
            copying = lambda call_next, event, context: call_next(copy(event), context)  # noqa: E731
            gated = tool(drop_table, middleware=[copying, ag2_approval_required()])
        else:
            gated = nbask_ag2.requires_approval(drop_table)
        return [gated, rename]


DROP = call("drop_table", name="events_2023")
RENAME = call("rename", table="events_2023")


def agent_for(turns: list[Any], warehouse: Warehouse, gate: str = "nbask", **kwargs: Any) -> tuple[Agent, Any]:
    config = scripted(*turns, "done")
    return Agent("ops", config=config, tools=warehouse.tools(gate), **kwargs), config


def by_hook(agent: Agent) -> Any:
    """The one line: nbask's hitl_hook given to AG2, the turn awaited as usual."""
    return asyncio.run(agent.ask("Clean up.", hitl_hook=nbask_ag2.hitl_hook))


def by_run(agent: Agent) -> Any:
    return asyncio.run(nbask_ag2.run(agent, "Clean up."))


def by_run_sync(agent: Agent) -> Any:
    return nbask_ag2.run_sync(agent, "Clean up.")


STYLES: dict[str, Callable[[Agent], Any]] = {"hitl_hook": by_hook, "run": by_run, "run_sync": by_run_sync}


# -- tool approvals: a scripted person ----------------------------------------------------------

CASES = [
    pytest.param(approve(), [("drop_table", {"name": "events_2023"})], "dropped events_2023", id="approve"),
    pytest.param(
        edit({"name": "events_2022"}), [("drop_table", {"name": "events_2022"})], "dropped events_2022", id="edit"
    ),
    pytest.param(reject("keep it for the audit"), [], rejected("drop_table", "keep it for the audit"), id="reject"),
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("decide", "ran", "read"), CASES)
def test_person_decides_a_gated_call(person: Person, style: str, decide: Any, ran: list[Any], read: str):
    person.answers(decide)
    warehouse = Warehouse()
    agent, config = agent_for([DROP], warehouse)
    assert STYLES[style](agent).body == "done"
    assert warehouse.ran == ran  # what the tool received; a rejected call never ran
    assert results_read(config) == [[("drop_table", read)]]  # what the model read
    (asked,) = person.approvals
    assert (asked.approval.action, json.loads(asked.approval.details)) == ("Call drop_table", {"name": "events_2023"})
    assert asked.tool_call_id == DROP.id
    assert asked.approval.details_schema == {
        "properties": {"name": {"title": "Name", "type": "string"}},
        "required": ["name"],
        "type": "object",
    }
    (entry,) = nbask.history()
    assert (entry.kind, entry.answered_by, entry.tool_call_id) == ("approval", "person", DROP.id)


UNUSABLE_EDITS = [
    ("[1, 2]", "the edited arguments are a JSON array, not an object of argument names"),
    ("{", "not valid JSON"),
]


@pytest.mark.parametrize(("edited", "why"), UNUSABLE_EDITS)
def test_an_edit_that_is_not_a_json_object_never_runs(person: Person, edited: str, why: str):
    person.answers(edit(edited))
    warehouse = Warehouse()
    agent, config = agent_for([DROP], warehouse)
    by_run(agent)
    assert warehouse.ran == []
    ((name, text),) = results_read(config)[0]
    assert name == "drop_table"
    assert text.startswith("Not approved: Call drop_table did not run. The person edited its arguments, but ")
    assert why in text


def test_an_edit_that_does_not_fit_the_tools_schema_is_refused_before_the_call(person: Person):
    refused: list[str] = []
    person.answers(through_the_kernels_check({"name": 7}, {"name": "events_2022"}, refused=refused))
    warehouse = Warehouse()
    by_run(agent_for([DROP], warehouse)[0])
    assert len(refused) == 1
    assert "name" in refused[0]
    assert warehouse.ran == [("drop_table", {"name": "events_2022"})]


class Together:
    """A person who answers only once ``count`` requests wait at once (shown together)."""

    def __init__(self, count: int, decide: Callable[[Any], Any]) -> None:
        self.count, self.decide = count, decide
        self.waiting: list[Resolution[Any]] = []
        self.all_waiting = asyncio.Event()

    def check_available(self, request: Any) -> None:
        del request

    async def resolve(self, resolution: Resolution[Any]) -> Any:
        self.waiting.append(resolution)
        if len(self.waiting) == self.count:
            self.all_waiting.set()
        await self.all_waiting.wait()
        resolution.settle(self.decide(resolution.request))
        return resolution.outcome

    def resolve_sync(self, resolution: Resolution[Any]) -> Any:
        del resolution
        raise AssertionError("the turn's requests are awaited on its loop")


@pytest.mark.parametrize("style", STYLES)
def test_calls_made_together_are_approved_together(monkeypatch: pytest.MonkeyPatch, style: str):
    """The model calls the tool twice at once: AG2 runs both calls side by side, so both
    approvals wait together (one batch); one is edited, the other rejected, in any order.
    """

    def decide(request: ApprovalRequest) -> Any:
        name = json.loads(request.approval.details)["name"]
        return (edit({"name": "tmp_old"}) if name == "tmp_scratch" else reject("keep it"))(request)

    person = Together(2, decide)
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
    warehouse = Warehouse()
    agent, config = agent_for([[DROP, call("drop_table", name="tmp_scratch")]], warehouse)
    STYLES[style](agent)
    assert warehouse.ran == [("drop_table", {"name": "tmp_old"})]
    assert results_read(config) == [
        [("drop_table", rejected("drop_table", "keep it")), ("drop_table", "dropped tmp_old")]
    ]
    batches = {entry.outcome.batch_id for entry in nbask.history()}
    assert len(nbask.history()) == 2
    assert len(batches) == 1
    assert None not in batches


def test_ag2s_own_approval_middleware_is_an_nbask_approval(person: Person):
    """AG2's ``approval_required()`` names only the call's id: nbask reads the call from the
    stream's history. Approve runs it; a rejection is AG2's fixed denied message.
    """
    person.answers(approve(), reject("not that one"))
    warehouse = Warehouse()
    agent, config = agent_for([DROP, call("drop_table", name="users")], warehouse, gate="ag2")
    by_hook(agent)
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]
    assert results_read(config) == [
        [("drop_table", "dropped events_2023")],
        [("drop_table", "User denied the tool call request")],
    ]
    assert [(a.approval.action, json.loads(a.approval.details)) for a in person.approvals] == [
        ("Call drop_table", {"name": "events_2023"}),
        ("Call drop_table", {"name": "users"}),
    ]


@pytest.mark.parametrize("gate", ["ag2", "ag2 behind a copy"])
@pytest.mark.parametrize("style", STYLES)
def test_an_edit_under_ag2s_own_middleware_reaches_the_tool(person: Person, style: str, gate: str):
    """AG2's ``approval_required()`` hands the tool the call object it holds once answered yes:
    nbask's ``CarryEdits`` (``run`` and ``run_sync`` add it) holds that object, and the hook sets
    the person's edit on it. The tool runs with the edit, never the original.
    """
    person.answers(edit({"name": "events_2022"}))
    warehouse = Warehouse()
    carrying = {"middleware": [nbask_ag2.CarryEdits]} if style == "hitl_hook" else {}
    agent, config = agent_for([DROP], warehouse, gate=gate, **carrying)
    assert STYLES[style](agent).body == "done"
    assert warehouse.ran == [("drop_table", {"name": "events_2022"})]
    assert results_read(config) == [[("drop_table", "dropped events_2022")]]
    (asked,) = person.approvals
    assert json.loads(asked.approval.details) == {"name": "events_2023"}  # what the model made
    (entry,) = nbask.history()
    assert entry.outcome.decision == "edit"


@pytest.mark.parametrize(("edited", "why"), UNUSABLE_EDITS)
def test_an_unusable_edit_under_ag2s_own_middleware_never_runs_and_the_model_reads_why(
    person: Person, edited: str, why: str
):
    person.answers(edit(edited))
    warehouse = Warehouse()
    agent, config = agent_for([DROP], warehouse, gate="ag2")
    by_run(agent)
    assert warehouse.ran == []
    ((name, text),) = results_read(config)[0]  # in place of AG2's denied message
    assert name == "drop_table"
    assert text.startswith("Not approved: Call drop_table did not run. The person edited its arguments, but ")
    assert why in text


@pytest.mark.parametrize(
    ("edited", "says"),
    [
        pytest.param(
            {"name": "events_2022"},
            'The person edited its arguments to {"name": "events_2022"}, but this approval cannot pass an edit '
            "to the tool. Do not retry the call as it was; make it with those arguments if they are what is needed.",
            id="edited",
        ),
        pytest.param(
            "{", "The person edited its arguments, but the edited arguments are not valid JSON", id="unusable"
        ),
    ],
)
def test_an_edit_under_ag2s_own_middleware_without_carry_edits_is_refused_and_the_model_reads_it(
    person: Person, edited: Any, says: str
):
    """A bare ``hitl_hook`` under AG2's ``approval_required()``: nothing can carry the edit to
    the tool, so the call does not run (AG2's denied message is its result) and the model reads
    the edit, or why it could not be used, right after it.
    """
    person.answers(edit(edited))
    warehouse = Warehouse()
    agent, config = agent_for([DROP], warehouse, gate="ag2")
    reply = by_hook(agent)
    assert warehouse.ran == []
    result, (kind, told) = asyncio.run(read_in_order(reply))
    assert result == ("result", "User denied the tool call request")
    assert kind == "message"
    assert told.startswith(f"About your call {DROP.id} of drop_table: Not approved: Call drop_table did not run. ")
    assert says in told
    assert config.mock.call_args_list[-1].args[0].parts[0].content == told  # handed to the model


@pytest.mark.parametrize("style", list(STYLES))
def test_an_edit_under_nbasks_middleware_reaches_the_tool(person: Person, style: str):
    person.answers(edit({"name": "events_2022"}))
    warehouse = Warehouse()
    agent, config = agent_for([DROP], warehouse)
    STYLES[style](agent)
    assert warehouse.ran == [("drop_table", {"name": "events_2022"})]
    assert results_read(config) == [[("drop_table", "dropped events_2022")]]


def test_nbasks_middleware_under_another_hook_reads_ag2s_yes(person: Person):
    warehouse = Warehouse()

    async def says(event: Any) -> str:
        return "yes" if "events_2023" in event.content else "nope"

    agent, config = agent_for([DROP, call("drop_table", name="users")], warehouse)
    asyncio.run(agent.ask("Clean up.", hitl_hook=says))
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]
    not_run = f"Not approved: Call drop_table did not run. The reply was 'nope'. {DO_NOT_RETRY}"
    assert results_read(config)[1] == [("drop_table", not_run)]
    assert person.asked == []


# -- context.input inside a tool ---------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_context_input_is_a_text_form_and_the_tool_gets_the_reply(person: Person, style: str):
    person.answers(submit(reply="events_archive"))
    warehouse = Warehouse()
    agent, config = agent_for([RENAME], warehouse)
    assert STYLES[style](agent).body == "done"
    assert warehouse.ran == [("rename", {"table": "events_2023", "new": "events_archive"})]
    assert results_read(config) == [[("rename", "renamed events_2023 to events_archive")]]
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == "New name for events_2023?"  # the prompt, shown as text
    assert [(f.name, f.title, f.type, f.required) for f in asked.form.fields] == [
        ("reply", "Your reply", "string", True)
    ]
    assert asked.tool_call_id == RENAME.id


def test_hitl_takes_a_time_limit_and_the_requests_own_comes_first(person: Person):
    person.answers(submit(reply="x"))
    agent, _ = agent_for([RENAME], Warehouse())
    asyncio.run(agent.ask("Clean up.", hitl_hook=nbask_ag2.hitl_hook_with(timeout=7)))
    by_run(agent_for([RENAME], Warehouse())[0])

    @tool
    async def ask(context: Context) -> str:
        """Ask with AG2's own time limit."""
        return await context.input("Which one?", timeout=30)

    asyncio.run(nbask_ag2.run(Agent("x", config=scripted(call("ask"), "done"), tools=[ask]), "go", timeout=5))
    assert [request.timeout for request in person.asked] == [7, nbask_ag2.DEFAULT_TIMEOUT, 30]


@pytest.mark.parametrize(
    ("unanswered", "error", "says"),
    [
        (dismiss(), HumanInputNotProvidedError, "No reply from the person"),
        ("no one", HumanInputNotProvidedError, "No one could be asked: no front end here"),
    ],
    ids=["dismissed", "no-one-to-ask"],
)
def test_no_reply_is_ag2s_own_refusal_and_the_turn_ends(person: Person, unanswered: Any, error: type, says: str):
    if unanswered == "no one":
        person.unavailable = NoOneCanAnswer("no front end here")
    else:
        person.answers(lambda request: request.decide(None))
    warehouse = Warehouse()
    agent, config = agent_for([RENAME], warehouse)
    with pytest.raises(error, match=says):
        by_run(agent)
    assert warehouse.ran == []
    assert results_read(config) == []  # the model was not called again
    (entry,) = nbask.history()
    assert entry.outcome.status == "dismissed"


def test_a_timeout_is_ag2s_timeout(person: Person):
    person.answers(lambda request: request.ended("timeout", "No answer within 7 seconds."))
    agent, _ = agent_for([RENAME], Warehouse())
    with pytest.raises(HumanInputTimeoutError):
        asyncio.run(nbask_ag2.run(agent, "Clean up.", timeout=7))


def test_a_tool_may_carry_on_without_a_reply(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")

    @tool
    async def greet(context: Context) -> str:
        """Greet the person by name, if they give one."""
        try:
            return "hello " + await context.input("Your name?")
        except HumanInputError as error:
            return f"hello, whoever you are ({error})"

    config = scripted(call("greet"), "done")
    assert by_run(Agent("x", config=config, tools=[greet])).body == "done"
    ((name, text),) = results_read(config)[0]
    assert (name, text.startswith("hello, whoever you are (No reply from the person:")) == ("greet", True)


# -- unattended ---------------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_recommended_policy_rejects_and_the_tool_never_runs(style: str):
    nbask.configure(policy="recommended")
    warehouse = Warehouse()
    agent, config = agent_for([DROP], warehouse)
    assert STYLES[style](agent).body == "done"
    assert warehouse.ran == []
    text = f"Not approved: Call drop_table did not run. {POLICY_REJECTION} {DO_NOT_RETRY}"
    assert results_read(config) == [[("drop_table", text)]]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.tool_call_id, entry.outcome.decision) == ("policy", DROP.id, "reject")


def test_recommended_policy_makes_up_no_reply():
    nbask.configure(policy="recommended")
    warehouse = Warehouse()
    with pytest.raises(HumanInputNotProvidedError, match="No reply from the person"):
        by_run(agent_for([RENAME], warehouse)[0])
    assert warehouse.ran == []
    assert [(e.kind, e.answered_by, e.outcome.status) for e in nbask.history()] == [("form", "policy", "dismissed")]


def test_no_one_to_ask_is_a_rejection_the_model_reads(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    warehouse = Warehouse()
    agent, config = agent_for([DROP], warehouse)
    by_run_sync(agent)
    assert warehouse.ran == []
    ((name, text),) = results_read(config)[0]
    assert name == "drop_table"
    assert text.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert "No one could be asked: no front end here" in text
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.reason) == ("policy", "No one could be asked: no front end here")


@pytest.mark.parametrize("style", STYLES)
def test_a_replay_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, style: str):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        by_run(agent_for([DROP], Warehouse())[0])
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    warehouse = Warehouse()
    STYLES[style](agent_for([DROP], warehouse)[0])  # the recorded approval
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]
    assert nbask.history()[-1].answered_by == "replay"
    expected = HumanInputFailedError if style == "hitl_hook" else nbask.ReplayMissing
    with pytest.raises(expected) as raised:
        STYLES[style](agent_for([call("drop_table", name="users")], warehouse)[0])
    if style == "hitl_hook":  # AG2 wraps what a hook raises; the miss is its cause
        assert isinstance(raised.value.cause, nbask.ReplayMissing)
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]


def test_run_sync_interrupted_ends_the_turn_and_no_gated_call_runs(monkeypatch: pytest.MonkeyPatch):
    """An interrupt reaching the wait (as nbask's wait raises it) ends AG2's turn with
    ``Interrupted``; the gated call never runs.
    """

    class Interrupting:
        def check_available(self, request: Any) -> None:
            del request

        async def resolve(self, resolution: Resolution[Any]) -> Any:
            del resolution
            raise KeyboardInterrupt

    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: Interrupting())
    warehouse = Warehouse()
    with pytest.raises(nbask_ag2.Interrupted, match="interrupted"):
        by_run_sync(agent_for([DROP], warehouse)[0])
    assert warehouse.ran == []


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
from ag2 import Agent, Context, tool
from ag2_scripted import call, results_read, scripted
import nbask.integrations.ag2 as nbask_ag2
from ag2.middleware.builtin.tools import approval_required as ag2_approval_required

ran = []

def drop_table(name: str) -> str:
    '''Drop a warehouse table (irreversible).'''
    ran.append(["drop_table", name])
    return f"dropped {{name}}"

@tool
async def rename(context: Context, table: str) -> str:
    '''Rename a table to a name the person gives.'''
    new = await context.input(f"New name for {{table}}?")
    ran.append(["rename", table, new])
    return f"renamed {{table}} to {{new}}"

def agent(*turns):
    global config
    config = scripted(*turns, "done")
    return Agent("ops", config=config, tools=[nbask_ag2.requires_approval(drop_table), rename],
                 hitl_hook=nbask_ag2.hitl_hook)

TWO = [call("drop_table", name="events_2023"), call("drop_table", name="tmp_scratch")]

def gated_by_ag2(*turns):
    global config
    config = scripted(*turns, "done")
    return Agent("ops", config=config, tools=[tool(drop_table, middleware=[ag2_approval_required()])])

def report(reply):
    print(json.dumps({{"ran": ran, "read": results_read(config), "body": reply.body}}))
"""

RUN = {
    "hitl_hook": "ran.clear(); report(await agent(TWO).ask('Clean up.'))",
    "run": "ran.clear(); report(await nbask_ag2.run(agent(TWO), 'Clean up.'))",
    "run_sync": "ran.clear(); report(nbask_ag2.run_sync(agent(TWO), 'Clean up.'))",
}

k = kernel_fixture(SETUP, kernels=FRAMEWORK_KERNELS)


@pytest.mark.kernel
@pytest.mark.parametrize("style", RUN)
def test_in_a_kernel_both_approvals_wait_together_and_are_answered_through_the_widget(k: KernelHarness, style: str):
    """The model calls the gated tool twice at once: both widgets wait at once; the second is
    edited first, the first rejected; the edited call runs, the rejected one never does.
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
    assert out["read"] == [[["drop_table", rejected("drop_table", "keep it")], ["drop_table", "dropped tmp_old"]]]
    assert out["body"] == "done"
    history = k.run_ok("print(json.dumps([[e.answered_by, e.outcome.batch_id] for e in nbask.history()[-2:]]))")
    (by_1, batch_1), (by_2, batch_2) = json.loads(history.stdout)
    assert (by_1, by_2) == ("person", "person")
    assert batch_1 is not None
    assert batch_1 == batch_2


@pytest.mark.kernel
def test_in_a_kernel_an_edit_under_ag2s_own_middleware_reaches_the_tool(k: KernelHarness):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(
        "ran.clear(); report(await nbask_ag2.run(gated_by_ag2(call('drop_table', name='events_2023')), 'Go.'))"
    )
    widget = next_approval(k, set())
    k.wait_until_waiting(widget)
    assert json.loads(widget.state["_details"]) == {"name": "events_2023"}
    k.update_widget(widget.comm_id, {"_response": approval_response("approve", {"name": "events_2022"})})
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == [["drop_table", "events_2022"]]  # the edit, never the original
    assert out["read"] == [[["drop_table", "dropped events_2022"]]]


@pytest.mark.kernel
@pytest.mark.parametrize("style", ["run", "run_sync"])
def test_in_a_kernel_context_input_is_answered_through_the_form(k: KernelHarness, style: str):
    k.drain(0.1)
    k.iopub_log.clear()
    turn = "agent(call('rename', table='events_2023'))"
    run = f"await nbask_ag2.run({turn}, 'Go.')" if style == "run" else f"nbask_ag2.run_sync({turn}, 'Go.')"
    cell = k.execute(f"ran.clear(); report({run})")
    form = k.wait_for_comm_open(predicate=lambda comm: comm.state.get("_kind") == "form", timeout=30)
    assert form.state["_message"] == "New name for events_2023?"
    k.wait_until_waiting(form)
    reply = {"action": "submit", "values": {"reply": "events_archive"}, "view_id": "t", "sent_at_ms": 0}
    k.update_widget(form.comm_id, {"_response": reply})
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == [["rename", "events_2023", "events_archive"]]
    assert out["read"] == [[["rename", "renamed events_2023 to events_archive"]]]


@pytest.mark.kernel
@pytest.mark.parametrize("style", ["hitl_hook", "run_sync"])
def test_in_a_kernel_an_interrupt_ends_the_turn(k: KernelHarness, style: str):
    """The approval waits inside AG2's turn: the interrupt ends the turn (not left waiting for
    an answer that never comes), and the gated call never ran.
    """
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN[style].replace("TWO", "call('drop_table', name='users')"))
    widget = next_approval(k, set())
    k.wait_until_waiting(widget)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    # awaited: AG2's turn ends with Interrupted; blocking: the turn ended, then the cell's interrupt
    assert (nbask_ag2.INTERRUPTED if style == "hitl_hook" else "KeyboardInterrupt") in result.error_text
    after = k.run_ok("print(json.dumps({'ran': ran, 'status': nbask.history()[-1].outcome.status}))")
    assert json.loads(after.stdout.strip().splitlines()[-1]) == {"ran": [], "status": "cancelled"}
