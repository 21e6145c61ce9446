"""Pydantic AI: an ``Agent`` on ``FunctionModel`` with the ``Warehouse`` tools and ``Script`` of
test_pydantic_ai.py, its deferred approvals answered by ``HandleDeferredToolCalls`` with
nbask's ``handle_deferred_with``. An edit is carried (``ToolApproved(override_args=...)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from integrations.test_pydantic_ai import Script, Warehouse
from nbask.integrations.pydantic_ai import handle_deferred_with

from .contract import ARGS, BATCH, TOOL, BatchRun, Integration, ToolRun, entry_kw


@dataclass
class Rounds(Script):
    """``Script``, making its calls again after reading their results, ``rounds`` times in all."""

    rounds: int = 1
    made: int = 0

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        answered = super().respond(messages, info)
        if any(isinstance(part, ToolCallPart) for part in answered.parts):
            self.made = 1
        elif self.made < self.rounds:
            self.made += 1
            ids = range(len(self.seen) + 1, len(self.seen) + 1 + len(self.calls))
            return ModelResponse(
                parts=[ToolCallPart(n, a, tool_call_id=f"call_{i}") for i, (n, a) in zip(ids, self.calls, strict=True)]
            )
        return answered


class Adapter(Integration):
    framework = "pydantic_ai"
    has_batches = True

    def _run(
        self, script: Rounds, timeout: float | None = None, approvers: list[str] | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        warehouse, pauses = Warehouse(), []
        handle = handle_deferred_with(**entry_kw(timeout, approvers))

        async def handler(ctx: Any, requests: Any) -> Any:
            pauses.append(requests)
            return await handle(ctx, requests)

        agent = Agent(
            FunctionModel(script.respond),
            tools=warehouse.tools(),
            capabilities=[HandleDeferredToolCalls(handler=handler)],
        )
        agent.run_sync("Clean up the warehouse.")
        return [args for name, args in warehouse.ran if name == TOOL], len(pauses)

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        script = Rounds([(TOOL, args)], rounds=calls)
        ran, _ = self._run(script, timeout, approvers)
        return ToolRun(ran=ran, read=[str(content) for content in script.contents()])

    def run_batch(self) -> BatchRun:
        ran, pauses = self._run(Rounds([(TOOL, args) for args in BATCH]))
        return BatchRun(ran=ran, resumed=pauses)
