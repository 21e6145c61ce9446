"""Strands Agents: an ``Agent`` on the scripted ``Model`` of tests/integrations/strands_scripted.py
with the ``Warehouse`` tools of test_strands.py, ``drop_table`` gated by nbask's
``Approvals(interrupt=True)`` and a tool raising its own ``tool_context.interrupt`` (the
framework's question: free text, no options), run by nbask's ``run_sync``, which answers every
interrupt of a stop together and resumes the agent once. An edit is carried.
"""

from __future__ import annotations

from typing import Any

from strands import Agent, ToolContext, tool
from strands.hooks import BeforeInvocationEvent

from integrations.strands_scripted import ScriptedModel, Turn
from integrations.test_strands import Warehouse
from nbask.integrations import strands

from .contract import ARGS, BATCH, QUESTION, TOOL, BatchRun, Integration, ToolRun, entry_kw


class Invocations:
    """A hook provider counting the agent's invocations: the first call, then each resume."""

    def __init__(self) -> None:
        self.count = 0

    def register_hooks(self, registry: Any, **kwargs: Any) -> None:
        del kwargs
        registry.add_callback(BeforeInvocationEvent, self.invoked)

    def invoked(self, event: BeforeInvocationEvent) -> None:
        del event
        self.count += 1


def _run(
    turns: list[Turn], tools: list[Any], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[ScriptedModel, int]:
    """Run the agent through ``turns``; the model (what it read) and how often it was resumed."""
    model, invocations = ScriptedModel(*turns, "done"), Invocations()
    hooks = [strands.Approvals(tools=[TOOL], interrupt=True), invocations]
    agent = Agent(model=model, tools=tools, hooks=hooks, callback_handler=None)
    strands.run_sync(agent, "Clean up the warehouse.", **entry_kw(timeout, approvers))
    return model, invocations.count - 1


def _drops(
    turns: list[Turn], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[list[dict[str, Any]], ScriptedModel, int]:
    warehouse = Warehouse()
    model, resumed = _run(turns, warehouse.tools, timeout, approvers)
    return [{"name": value} for name, value in warehouse.ran if name == TOOL], model, resumed


class Adapter(Integration):
    framework = "strands"
    has_questions = True
    has_batches = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        ran, model, _ = _drops([[(TOOL, args)]] * calls, timeout, approvers)
        return ToolRun(ran=ran, read=[text for _, _, text in model.seen])

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        received: list[Any] = []

        @tool(context=True)
        def ask_user(question: str, tool_context: ToolContext) -> str:
            """Ask the person a question and return their reply.

            Args:
                question: What to ask.
                tool_context: Strands' context of this call.

            """
            received.append(tool_context.interrupt("question", reason=question))
            return str(received[-1])

        _run([[("ask_user", {"question": question})]] * rounds, [ask_user], timeout, approvers)
        return received[-1] if received else None

    def run_batch(self) -> BatchRun:
        ran, _, resumed = _drops([[(TOOL, args) for args in BATCH]])
        return BatchRun(ran=ran, resumed=resumed)
