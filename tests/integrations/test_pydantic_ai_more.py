"""nbask.integrations.pydantic_ai beside the caller's own handling, through pydantic-ai's own
``Agent`` and ``FunctionModel``: one run with a tool that needs approval and one that raises
``CallDeferred`` (answered by the caller's handler, beside nbask's or inside it); the reason a
tool gives in ``ApprovalRequired(metadata={"reason": ...})`` shown to the person; ``handler``'s
time limit; a replay miss raising out of the run; ``resolve_sync`` in synchronous code.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from support.person import Person, approve, reject

import nbask

from .test_pydantic_ai import DROP, REFUND, Script, Warehouse, by_tool, rejected

pytest.importorskip("pydantic_ai")
from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent, Tool
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.exceptions import ApprovalRequired, UserError
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults, RunContext

import nbask.integrations.pydantic_ai as nbask_pydantic_ai
from nbask.errors import ReplayMissing
from nbask.integrations.pydantic_ai import handle_deferred, handle_deferred_with, resolve_sync

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
