"""nbask.integrations.pydantic_ai inside pydantic-ai's own agent loop, offline: an ``Agent`` driven
by ``FunctionModel`` calls a ``requires_approval=True`` tool or one raising ``ApprovalRequired``,
and the deferred call is answered through ``HandleDeferredToolCalls(handler=handle_deferred)`` or
through ``resolve`` and a resumed run. Each test checks what the model read back (the
ToolReturnPart), and what the tool ran with, or that it never ran.

Headless under the recommended policy and a scripted person; then in a real kernel whose
approvals the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, edit, reject, through_the_kernels_check

import nbask

pydantic_ai = pytest.importorskip("pydantic_ai")
from fastmcp.client.transports import StdioTransport  # noqa: E402
from pydantic_ai import Agent, Tool  # noqa: E402
from pydantic_ai.capabilities import HandleDeferredToolCalls  # noqa: E402
from pydantic_ai.exceptions import (  # noqa: E402
    ApprovalRequired,
    CallDeferred,
    UserError,
)
from pydantic_ai.mcp import MCPToolset  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.tools import (  # noqa: E402
    DeferredToolRequests,
    DeferredToolResults,
    RunContext,
    ToolApproved,
    ToolDenied,
)

import nbask.integrations.pydantic_ai as nbask_pydantic_ai  # noqa: E402
from nbask.errors import NoOneCanAnswer, ReplayMissing  # noqa: E402
from nbask.integrations.pydantic_ai import approval_result, handle_deferred, handle_deferred_with, resolve, resolve_sync  # noqa: E402  # noqa: E402
from nbask.models import Decision  # noqa: E402

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
POLICY_DENIAL = (
    "It was rejected by policy, not by a person. Reason: Not approved: this run is unattended (policy "
    "'recommended'), and an unattended run does not approve actions on its own. Ask again where a person "
    "can decide, or replay a recorded decision."
)


@dataclass
class Warehouse:
    """The tools, and a record of every call that really ran."""

    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def tools(self) -> list[Tool[Any]]:
        def drop_table(name: str) -> str:
            """Drop a warehouse table (irreversible).

            Args:
                name: The table to drop.

            """
            self.ran.append(("drop_table", {"name": name}))
            return f"dropped {name}"

        def refund(ctx: RunContext[None], order: str, amount: int) -> str:
            """Refund an order; refunds over 100 need approval.

            Args:
                ctx: The run's context.
                order: The order id.
                amount: The amount to refund.

            """
            if amount > 100 and not ctx.tool_call_approved:
                raise ApprovalRequired(metadata={"reason": "over 100"})
            self.ran.append(("refund", {"order": order, "amount": amount}))
            return f"refunded {amount} on {order}"

        def ship(order: str) -> str:
            """Ship an order (done by the warehouse system, outside the agent).

            Args:
                order: The order id.

            """
            raise CallDeferred(metadata={"queue": "shipping"})

        return [Tool(drop_table, requires_approval=True), Tool(refund), Tool(ship)]


@dataclass
class Script:
    """A FunctionModel that makes one response of tool calls, then answers with what it read."""

    calls: list[tuple[str, dict[str, Any]]]
    seen: list[ToolReturnPart | RetryPromptPart] = field(default_factory=list)

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        del info
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        results = [p for p in last.parts if isinstance(p, ToolReturnPart | RetryPromptPart)]
        if not results:
            parts = [ToolCallPart(name, args, tool_call_id=f"call_{i}") for i, (name, args) in enumerate(self.calls, 1)]
            return ModelResponse(parts=parts)
        self.seen.extend(results)
        return ModelResponse(parts=[TextPart("done")])

    def contents(self) -> list[Any]:
        return [p.content if isinstance(p, ToolReturnPart) else p.model_response() for p in self.seen]


DROP = ("drop_table", {"name": "events_2023"})
REFUND = ("refund", {"order": "A-1", "amount": 500})
#: Each approval's title: the refund's says the reason its tool gave (ApprovalRequired metadata).
TITLES = {"drop_table": "Call drop_table", "refund": "Call refund (over 100)"}


def handler_agent(script: Script, warehouse: Warehouse, **kwargs: Any) -> Agent[None, Any]:
    return Agent(
        FunctionModel(script.respond),
        tools=warehouse.tools(),
        capabilities=[HandleDeferredToolCalls(handler=handle_deferred)],
        **kwargs,
    )


def run_handler_style(script: Script, warehouse: Warehouse) -> Any:
    return handler_agent(script, warehouse).run_sync("Clean up.").output


def run_resolve_style(script: Script, warehouse: Warehouse) -> Any:
    agent = Agent(FunctionModel(script.respond), tools=warehouse.tools(), output_type=[str, DeferredToolRequests])
    first = agent.run_sync("Clean up.")
    assert isinstance(first.output, DeferredToolRequests)
    assert script.seen == []  # nothing ran and nothing was read back before the decision
    results = asyncio.run(resolve(first.output))
    return agent.run_sync(message_history=first.all_messages(), deferred_tool_results=results).output


STYLES = {"handler": run_handler_style, "resolve": run_resolve_style}


def rejected(tool: str, reason: str) -> str:
    return f"Not approved: Call {tool} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


# -- headless: the recommended policy -----------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("call", [DROP, REFUND], ids=["requires_approval", "ApprovalRequired"])
def test_recommended_policy_denies_and_the_tool_never_runs(style: str, call: tuple[str, dict[str, Any]]):
    nbask.configure(policy="recommended")
    script, warehouse = Script([call]), Warehouse()
    assert STYLES[style](script, warehouse) == "done"
    assert warehouse.ran == []
    (part,) = script.seen
    assert isinstance(part, ToolReturnPart)
    assert (part.tool_name, part.tool_call_id, part.outcome) == (call[0], "call_1", "denied")
    assert part.content == f"Not approved: Call {call[0]} did not run. {POLICY_DENIAL} {DO_NOT_RETRY}"
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.tool_call_id) == ("policy", "call_1")


@pytest.mark.parametrize(
    ("policy", "says"),
    [
        ("dismiss", "Reason: Dismissed by the 'dismiss' policy: no one was asked, so do not assume an answer."),
        ("error", "It was rejected by policy, not by a person. Reason: No one could be asked: "),
    ],
)
def test_other_unattended_policies_deny_too(policy: str, says: str):
    nbask.configure(policy=policy)
    script, warehouse = Script([DROP]), Warehouse()
    run_handler_style(script, warehouse)
    assert warehouse.ran == []
    (part,) = script.seen
    assert isinstance(part, ToolReturnPart)
    assert part.outcome == "denied"
    assert part.content.startswith("Not approved: Call drop_table did not run")
    assert says in part.content
    (entry,) = nbask.history()  # the denial is kept, and says who decided
    assert (entry.answered_by, entry.tool_call_id, entry.outcome.decision) == ("policy", "call_1", "reject")


def test_a_refund_under_the_limit_runs_without_asking(person: Person):
    script, warehouse = Script([("refund", {"order": "A-1", "amount": 50})]), Warehouse()
    run_handler_style(script, warehouse)
    assert person.asked == []
    assert warehouse.ran == [("refund", {"order": "A-1", "amount": 50})]
    assert script.contents() == ["refunded 50 on A-1"]


# -- headless: a scripted person -----------------------------------------------------------------

DECISIONS = {
    "drop_table": [
        (approve(), ("drop_table", {"name": "events_2023"}), "dropped events_2023"),
        (edit({"name": "events_2022"}), ("drop_table", {"name": "events_2022"}), "dropped events_2022"),
        (reject("keep it for the audit"), None, rejected("drop_table", "keep it for the audit")),
    ],
    "refund": [
        (approve(), ("refund", {"order": "A-1", "amount": 500}), "refunded 500 on A-1"),
        (edit({"order": "A-1", "amount": 120}), ("refund", {"order": "A-1", "amount": 120}), "refunded 120 on A-1"),
        (reject("too much"), None, rejected("refund", "too much")),
    ],
}
CASES = [
    pytest.param((call, decide, ran, seen), id=f"{call[0]}-{kind}")
    for call in (DROP, REFUND)
    for (decide, ran, seen), kind in zip(DECISIONS[call[0]], ("approve", "edit", "reject"), strict=True)
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("case", CASES)
def test_person_decides(person: Person, style: str, case: Any):
    call, decide, ran, seen = case
    person.answers(decide)
    script, warehouse = Script([call]), Warehouse()
    assert STYLES[style](script, warehouse) == "done"
    assert warehouse.ran == ([ran] if ran else [])
    assert script.contents() == [seen]
    assert script.seen[0].tool_call_id == "call_1"
    (asked,) = person.approvals
    assert asked.approval.action == TITLES[call[0]]
    assert asked.approval.details == json.dumps(call[1], indent=2)
    assert asked.tool_call_id == "call_1"


@pytest.mark.parametrize(
    ("edited", "why"),
    [
        ('{"name": ', "the edited arguments are not valid JSON (Expecting value: line 1 column 10 (char 9))"),
        ('["events_2022"]', "the edited arguments are a JSON array, not an object of argument names"),
    ],
    ids=["not-json", "not-an-object"],
)
def test_an_edit_that_is_not_a_json_object_is_a_denial(person: Person, edited: str, why: str):
    person.answers(edit(edited))
    script, warehouse = Script([DROP]), Warehouse()
    run_handler_style(script, warehouse)
    assert warehouse.ran == []
    (part,) = script.seen
    assert isinstance(part, ToolReturnPart)
    assert part.outcome == "denied"
    assert part.content == (
        f"Not approved: Call drop_table did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    )


def test_an_edit_that_does_not_fit_the_tool_is_sent_back_for_a_retry(person: Person):
    """pydantic-ai validates ``override_args`` against the tool's schema: the tool does not run."""
    person.answers(edit({"table": "events_2022"}))
    script, warehouse = Script([DROP]), Warehouse()
    run_handler_style(script, warehouse)
    assert warehouse.ran == []
    (part,) = script.seen
    assert part.outcome == "retried"  # a validation error the model is asked to fix
    assert "Field required" in json.dumps(part.content)


def test_the_approval_carries_the_tools_schema_and_a_bad_edit_is_refused_before_the_run(person: Person):
    refused: list[str] = []
    person.answers(
        through_the_kernels_check({"order": "A-1", "amount": "lots"}, {"order": "A-1", "amount": 120}, refused=refused)
    )
    script, warehouse = Script([REFUND]), Warehouse()
    assert run_handler_style(script, warehouse) == "done"
    (asked,) = person.approvals
    schema = asked.approval.details_schema
    assert schema is not None
    assert schema["properties"]["amount"]["type"] == "integer"
    assert schema["required"] == ["order", "amount"]
    refusal = 'The edit was not accepted: argument "amount" must be an integer, not a string.'
    assert refused == [refusal + " Fix the Details, then approve again."]
    assert warehouse.ran == [("refund", {"order": "A-1", "amount": 120})], "only the fixed edit ran"
    assert nbask.history()[-1].asked["details_schema"] == schema


def test_resolve_without_tools_asks_without_a_schema(person: Person):
    person.answers(approve())
    run_resolve_style(Script([DROP]), Warehouse())
    (asked,) = person.approvals
    assert asked.approval.details_schema is None


def test_no_one_to_ask_is_a_denial(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    script, warehouse = Script([DROP]), Warehouse()
    run_handler_style(script, warehouse)
    assert warehouse.ran == []
    assert script.contents() == [
        (
            "Not approved: Call drop_table did not run. It was rejected by policy, not by a person. "
            f"Reason: No one could be asked: no front end here. {DO_NOT_RETRY}"
        )
    ]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.reason) == ("policy", "No one could be asked: no front end here")


def test_the_handler_leaves_external_calls_as_the_runs_output(person: Person):
    person.answers(approve())
    script, warehouse = Script([DROP, ("ship", {"order": "A-1"})]), Warehouse()
    agent = handler_agent(script, warehouse, output_type=[str, DeferredToolRequests])
    result = agent.run_sync("Clean up and ship.")
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]
    pending = result.output
    assert isinstance(pending, DeferredToolRequests)
    assert [(c.tool_name, c.tool_call_id) for c in pending.calls] == [("ship", "call_2")]
    assert pending.approvals == []
    assert pending.metadata == {"call_2": {"queue": "shipping"}}
    assert len(person.approvals) == 1
    # The caller runs the external call and resumes; the model then reads both results.
    results = pending.build_results(calls={"call_2": "shipped A-1"})
    final = agent.run_sync(message_history=result.all_messages(), deferred_tool_results=results)
    assert final.output == "done"
    assert script.contents() == ["dropped events_2023", "shipped A-1"]


def by_tool(**decisions: Any) -> Any:
    """The person decides each approval by the tool it names."""
    return lambda request: decisions[request.approval.action.removeprefix("Call ").split(" ")[0]](request)


def test_resolve_answers_the_approvals_one_by_one_and_leaves_external_calls(person: Person):
    person.answers(by_tool(drop_table=approve(), refund=reject("too much")))
    script, warehouse = Script([DROP, REFUND, ("ship", {"order": "A-1"})]), Warehouse()
    agent = Agent(FunctionModel(script.respond), tools=warehouse.tools(), output_type=[str, DeferredToolRequests])
    first = agent.run_sync("go")
    assert isinstance(first.output, DeferredToolRequests)
    results = asyncio.run(resolve(first.output))
    # asked one after another, in the order pydantic-ai lists them
    assert [a.tool_call_id for a in person.approvals] == [c.tool_call_id for c in first.output.approvals]
    assert results.approvals["call_1"] is True
    assert isinstance(results.approvals["call_2"], ToolDenied)
    assert results.calls == {}
    assert results.answered_by == {"call_1": "person", "call_2": "person"}
    results.calls["call_3"] = "shipped A-1"  # the caller's part: the external call's result
    agent.run_sync(message_history=first.all_messages(), deferred_tool_results=results)
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]
    assert script.contents() == ["dropped events_2023", rejected("refund", "too much"), "shipped A-1"]


def test_approval_result_maps_each_decision():
    base = {"status": "answered", "request_id": "r", "asked_at": 0.0, "resolved_at": 0.0}
    assert approval_result(Decision(decision="approve", **base), "Call t") is True
    edited = approval_result(Decision(decision="edit", edited='{"a": 1}', **base), "Call t")
    assert edited == ToolApproved(override_args={"a": 1})
    denied = approval_result(Decision(decision="reject", reason="no", **base), "Call t")
    assert isinstance(denied, ToolDenied)
    assert denied.message.startswith("Not approved: Call t did not run. The person rejected it. Reason: no.")


# -- a real kernel, answered through the widget ------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import KernelHarness, approval_response, kernel_fixture, next_approval, printed_json  # noqa: E402

KERNEL = "nbask-ipykernel-7.4"

SETUP = r'''
import json, nbask
from pydantic_ai import Agent, Tool
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.exceptions import ApprovalRequired
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart, RetryPromptPart
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.tools import DeferredToolRequests
from nbask.integrations.pydantic_ai import handle_deferred, resolve, resolve_sync

ran, seen = [], []
CALLS = [("drop_table", {"name": "events_2023"}), ("refund", {"order": "A-1", "amount": 500})]

def respond(messages, info):
    results = [p for p in messages[-1].parts if isinstance(p, (ToolReturnPart, RetryPromptPart))]
    if not results:
        return ModelResponse(parts=[ToolCallPart(n, a, tool_call_id=f"call_{i}") for i, (n, a) in enumerate(CALLS, 1)])
    seen.extend([p.tool_name, p.content, p.outcome] for p in results)
    return ModelResponse(parts=[TextPart("done")])

def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible)."""
    ran.append(["drop_table", {"name": name}])
    return f"dropped {name}"

def refund(ctx, order: str, amount: int) -> str:
    """Refund an order; refunds over 100 need approval."""
    if amount > 100 and not ctx.tool_call_approved:
        raise ApprovalRequired()
    ran.append(["refund", {"order": order, "amount": amount}])
    return f"refunded {amount} on {order}"

tools = [Tool(drop_table, requires_approval=True), Tool(refund, takes_ctx=True)]
inline = Agent(FunctionModel(respond), tools=tools, capabilities=[HandleDeferredToolCalls(handler=handle_deferred)])
stopping = Agent(FunctionModel(respond), tools=tools, output_type=[str, DeferredToolRequests])
'''

RUN = {
    "handler": """\
ran.clear(); seen.clear()
result = await inline.run("Clean up.")
print(json.dumps({"ran": ran, "seen": seen, "output": result.output}))
""",
    "resolve": """\
ran.clear(); seen.clear()
first = await stopping.run("Clean up.")
results = await resolve(first.output)
result = await stopping.run(message_history=first.all_messages(), deferred_tool_results=results)
print(json.dumps({"ran": ran, "seen": seen, "output": result.output, "by": results.answered_by}))
""",
    # the blocking twin, inside the cell's running event loop (where asyncio.run cannot run)
    "resolve_sync": """\
ran.clear(); seen.clear()
first = await stopping.run("Clean up.")
results = resolve_sync(first.output)
result = await stopping.run(message_history=first.all_messages(), deferred_tool_results=results)
print(json.dumps({"ran": ran, "seen": seen, "output": result.output, "by": results.answered_by}))
""",
}


k = kernel_fixture(SETUP)


KERNEL_CASES = [
    pytest.param(
        (
            approval_response("approve"),
            approval_response("approve"),
            [["drop_table", {"name": "events_2023"}], ["refund", {"order": "A-1", "amount": 500}]],
            [["drop_table", "dropped events_2023", "success"], ["refund", "refunded 500 on A-1", "success"]],
        ),
        id="approve",
    ),
    pytest.param(
        (
            approval_response("approve", {"name": "events_2022"}),
            approval_response("approve", {"order": "A-1", "amount": 120}),
            [["drop_table", {"name": "events_2022"}], ["refund", {"order": "A-1", "amount": 120}]],
            [["drop_table", "dropped events_2022", "success"], ["refund", "refunded 120 on A-1", "success"]],
        ),
        id="edit",
    ),
    pytest.param(
        (
            approval_response("reject", reason="keep it for the audit"),
            approval_response("reject", reason="too much"),
            [],
            [
                ["drop_table", rejected("drop_table", "keep it for the audit"), "denied"],
                ["refund", rejected("refund", "too much"), "denied"],
            ],
        ),
        id="reject",
    ),
]


@pytest.mark.kernel
@pytest.mark.parametrize("style", RUN)
@pytest.mark.parametrize("case", KERNEL_CASES)
def test_in_a_kernel_through_the_widget(k: KernelHarness, style: str, case: Any):
    """Both approvals answered through their widgets; the model reads the results or the denials."""
    drop, refund, ran, seen = case
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN[style])
    shown: dict[str, Any] = {}
    for _ in range(2):
        widget = next_approval(k, {c.comm_id for c in shown.values()})
        shown[widget.state["_title"]] = widget
        reply = drop if widget.state["_title"] == "Call drop_table" else refund
        k.update_widget(widget.comm_id, {"_response": reply})
    assert {title: json.loads(w.state["_details"]) for title, w in shown.items()} == {
        "Call drop_table": {"name": "events_2023"},
        "Call refund": {"order": "A-1", "amount": 500},
    }
    out = printed_json(k.result(cell, 60))
    assert sorted(out["ran"]) == ran  # what each tool really ran with (none when rejected)
    assert out["seen"] == seen  # what the model read back, in its calls' order
    assert out["output"] == "done"
    if style != "handler":
        assert out["by"] == {"call_1": "person", "call_2": "person"}


@pytest.mark.kernel
@pytest.mark.parametrize("style", ["resolve", "resolve_sync"])
def test_both_deferred_approvals_are_shown_together_and_answered_in_any_order(k: KernelHarness, style: str):
    """pydantic-ai defers both calls at once: both approvals wait together (one batch), the second
    is answered first, and the agent resumes once with both results.
    """
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN[style])
    first = next_approval(k, set())
    second = next_approval(k, {first.comm_id})
    for widget in (first, second):  # both waiting before either is answered
        k.wait_until_waiting(widget)
    by_title = {widget.state["_title"]: widget for widget in (first, second)}
    drop, refund = by_title["Call drop_table"], by_title["Call refund"]
    k.update_widget(refund.comm_id, {"_response": approval_response("approve")})
    k.update_widget(drop.comm_id, {"_response": approval_response("reject", reason="keep it")})
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == [["refund", {"order": "A-1", "amount": 500}]]
    assert [status for _, _, status in out["seen"]] == ["denied", "success"]
    batch_ids = k.run_ok("print(json.dumps([e.outcome.batch_id for e in nbask.history()[-2:]]))").stdout
    first, second = json.loads(batch_ids)
    assert first is not None
    assert first == second


# -- beside the caller's own handling: external calls, reasons, replay misses, an MCP server's hints --


SHIP = ("ship", {"order": "A-1"})


class Shipping:
    """The caller's handler of external calls: ships each order it is given, records what it saw."""

    def __init__(self) -> None:
        self.saw: list[DeferredToolRequests] = []

    def __call__(self, ctx: RunContext[Any], requests: DeferredToolRequests) -> DeferredToolResults:
        del ctx
        self.saw.append(requests)
        return requests.build_results(
            calls={c.tool_call_id: f"shipped {c.args_as_dict()['order']}" for c in requests.calls}
        )


async def shipping_later(ctx: RunContext[Any], requests: DeferredToolRequests) -> DeferredToolResults:
    """The same, as an async handler."""
    await asyncio.sleep(0)
    return Shipping()(ctx, requests)


def agent_with(script: Script, warehouse: Warehouse, *capabilities: Any) -> Agent[None, str]:
    """An agent whose output is text only: a deferred call left unanswered fails the run."""
    return Agent(FunctionModel(script.respond), tools=warehouse.tools(), capabilities=list(capabilities))


def test_without_a_handler_for_external_calls_pydantic_ai_stops_the_run(person: Person):
    """What the composition below fixes: nbask's handler alone leaves the external call pending."""
    person.answers(approve())
    agent = agent_with(Script([DROP, SHIP]), Warehouse(), HandleDeferredToolCalls(handler=handle_deferred))
    with pytest.raises(UserError, match="DeferredToolRequests` is not among output types"):
        agent.run_sync("Clean up and ship.")


@pytest.mark.parametrize("order", ["nbask-first", "caller-first"])
def test_the_callers_handler_beside_nbasks_answers_the_external_call(person: Person, order: str):
    person.answers(approve())
    script, warehouse, shipping = Script([DROP, SHIP]), Warehouse(), Shipping()
    ours, theirs = HandleDeferredToolCalls(handler=handle_deferred), HandleDeferredToolCalls(handler=shipping)
    agent = agent_with(script, warehouse, *((ours, theirs) if order == "nbask-first" else (theirs, ours)))
    assert agent.run_sync("Clean up and ship.").output == "done"
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]
    assert script.contents() == ["dropped events_2023", "shipped A-1"]
    assert [a.tool_call_id for a in person.approvals] == ["call_1"]  # nbask asked only the approval
    (saw,) = shipping.saw
    assert [c.tool_call_id for c in saw.calls] == ["call_2"]
    assert saw.metadata["call_2"] == {"queue": "shipping"}


@pytest.mark.parametrize("external", [Shipping(), shipping_later], ids=["sync", "async"])
def test_handler_with_external_answers_every_deferred_call_in_one_capability(person: Person, external: Any):
    person.answers(reject("keep it"))
    script, warehouse = Script([DROP, SHIP, REFUND]), Warehouse()
    agent = agent_with(script, warehouse, HandleDeferredToolCalls(handler=handle_deferred_with(external=external)))
    assert agent.run_sync("Clean up and ship.").output == "done"
    assert warehouse.ran == []
    assert script.contents() == [
        rejected("drop_table", "keep it"),
        "shipped A-1",
        rejected("refund", "keep it"),
    ]
    assert sorted(a.tool_call_id for a in person.approvals) == ["call_1", "call_3"]  # not the external call


def test_handler_without_external_calls_leaves_the_external_handler_unasked(person: Person):
    person.answers(approve())
    shipping = Shipping()
    agent = agent_with(
        Script([DROP]), Warehouse(), HandleDeferredToolCalls(handler=handle_deferred_with(external=shipping))
    )
    assert agent.run_sync("Clean up.").output == "done"
    assert shipping.saw == []


def test_handler_waits_as_long_as_it_was_told(person: Person):
    person.answers(approve())
    agent = agent_with(Script([DROP]), Warehouse(), HandleDeferredToolCalls(handler=handle_deferred_with(timeout=7)))
    agent.run_sync("Clean up.")
    (asked,) = person.approvals
    assert asked.timeout == 7
    assert nbask.history()[-1].answered_by == "person"


# -- the reason a tool gives ----------------------------------------------------------------


def reasoned(reason: object) -> Tool[Any]:
    def purge(ctx: RunContext[None], scope: str) -> str:
        """Purge a cache.

        Args:
            ctx: The run's context.
            scope: What to purge.

        """
        if not ctx.tool_call_approved:
            raise ApprovalRequired(metadata={"reason": reason, "cost": 3})
        return f"purged {scope}"

    return Tool(purge)


@pytest.mark.parametrize(
    ("reason", "title"),
    [
        ("it empties <b>every</b> region", "Call purge (it empties <b>every</b> region)"),
        ("two\n  lines", "Call purge (two lines)"),
        ("x" * 300, f"Call purge ({'x' * 119}…)"),
        (42, "Call purge"),
        ("", "Call purge"),
    ],
    ids=["markup-as-text", "one-line", "shortened", "not-text", "empty"],
)
def test_the_tools_reason_is_in_the_approvals_title(person: Person, reason: object, title: str):
    person.answers(approve())
    script = Script([("purge", {"scope": "all"})])
    agent = Agent(
        FunctionModel(script.respond),
        tools=[reasoned(reason)],
        capabilities=[HandleDeferredToolCalls(handler=handle_deferred)],
    )
    assert agent.run_sync("Purge.").output == "done"
    (asked,) = person.approvals
    assert asked.approval.action == title  # plain text: the widget shows the title as text
    assert asked.approval.details == '{\n  "scope": "all"\n}'
    assert script.contents() == ["purged all"]


def test_the_model_reads_the_plain_title_when_the_reasoned_call_is_rejected(person: Person):
    person.answers(reject("not today"))
    script = Script([("purge", {"scope": "all"})])
    agent = Agent(
        FunctionModel(script.respond),
        tools=[reasoned("it is slow")],
        capabilities=[HandleDeferredToolCalls(handler=handle_deferred)],
    )
    agent.run_sync("Purge.")
    assert script.contents() == [rejected("purge", "not today")]


# -- replay, and the sync twin ------------------------------------------------------------------


def test_a_replay_miss_raises_out_of_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        agent_with(Script([DROP]), Warehouse(), HandleDeferredToolCalls(handler=handle_deferred)).run_sync("go")
    saved = nbask.save_history(tmp_path / "answers.jsonl")

    nbask.configure(policy="replay", replay_file=saved)
    script, warehouse = Script([DROP]), Warehouse()
    agent_with(script, warehouse, HandleDeferredToolCalls(handler=handle_deferred)).run_sync("go")
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]  # the recorded approval
    assert nbask.history()[-1].answered_by == "replay"

    # Asked once more than recorded: the run stops with the miss instead of a denial.
    script, warehouse = Script([DROP]), Warehouse()
    with pytest.raises(ReplayMissing, match="Call drop_table"):
        agent_with(script, warehouse, HandleDeferredToolCalls(handler=handle_deferred)).run_sync("go")
    assert warehouse.ran == []
    assert script.seen == []


def test_resolve_sync_answers_the_batch_in_synchronous_code(person: Person):
    person.answers(by_tool(drop_table=approve(), refund=reject("too much")))
    script, warehouse = Script([DROP, REFUND]), Warehouse()
    agent = Agent(FunctionModel(script.respond), tools=warehouse.tools(), output_type=[str, DeferredToolRequests])
    first = agent.run_sync("go")
    assert isinstance(first.output, DeferredToolRequests)
    results = resolve_sync(first.output, timeout=30)
    assert [a.timeout for a in person.approvals] == [30, 30]
    assert results.answered_by == {"call_1": "person", "call_2": "person"}
    agent.run_sync(message_history=first.all_messages(), deferred_tool_results=results)
    assert warehouse.ran == [("drop_table", {"name": "events_2023"})]
    assert script.contents() == ["dropped events_2023", rejected("refund", "too much")]


def test_a_real_mcp_servers_hints_set_each_approvals_risk(person: Person):
    """Through pydantic-ai's own MCPToolset, over stdio, a server written with the MCP SDK: the
    tool that declares ``destructiveHint`` is asked as high risk, the one that declares
    ``readOnlyHint`` as low, and the one that declares neither with no risk at all.
    """
    person.answers(approve(), approve(), approve())
    server = Path(__file__).with_name("hinted_tools_server.py")
    toolset = MCPToolset(StdioTransport(command=sys.executable, args=[str(server)])).approval_required()
    script = Script([DROP, ("count_rows", {"name": "events_2023"}), ("tag_table", {"name": "t", "tag": "x"})])
    agent = Agent(
        FunctionModel(script.respond),
        toolsets=[toolset],
        capabilities=[HandleDeferredToolCalls(handler=handle_deferred)],
    )
    assert agent.run_sync("Clean up.").output == "done"
    risks = {a.approval.action: a.approval.risk for a in person.approvals}
    assert risks == {"Call drop_table": "high", "Call count_rows": "low", "Call tag_table": None}
    assert script.contents() == ["dropped events_2023", "events_2023 has 3 rows", "tagged t x"]


@pytest.mark.parametrize("style", ["run", "run_sync"])
def test_run_answers_each_pause_and_the_agent_goes_on_to_its_own_output(person: Person, style: str):
    """``run`` / ``run_sync``: the run stops with DeferredToolRequests, nbask asks, and the run
    goes on with the answers until the agent's own output (a str here), the rejected call unrun.
    """
    person.answers(by_tool(drop_table=approve(), refund=reject("too much")))
    script, warehouse = Script([DROP, REFUND]), Warehouse()
    agent = Agent(FunctionModel(script.respond), tools=warehouse.tools())
    if style == "run":
        result = asyncio.run(nbask_pydantic_ai.run(agent, "Clean up."))
    else:
        result = nbask_pydantic_ai.run_sync(agent, "Clean up.")
    assert result.output == "done"
    assert warehouse.ran == [DROP]
    assert script.contents() == ["dropped events_2023", rejected("refund", "too much")]
