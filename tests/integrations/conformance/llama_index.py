"""LlamaIndex: a ``FunctionAgent`` on llama_index.core's own ``MockFunctionCallingLLM`` (scripted
as tests/integrations/llama_index_scripted.py scripts it, calling again after each result) whose
``drop_table`` waits for a ``HumanResponseEvent`` (``ctx.wait_for_event`` with an approval's
``InputRequiredEvent``), run by nbask's ``run``. The step decides: it drops only when
``approved``, the person's edited arguments when there are some (the response carries them).
Parallel waiters are asked together. The framework's question and typed reply are the ``Asks``
workflow of llama_index_scripted.py (``options``; a ``schema`` with an integer field).
"""

# No ``from __future__ import annotations``: LlamaIndex finds the tool's ``ctx: Context`` by its
# annotation, which must be the class itself.
import asyncio
import json
from collections.abc import Sequence
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.llms import ChatMessage, MessageRole
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool, ToolSelection
from workflows import Context
from workflows.events import HumanResponseEvent, InputRequiredEvent

from integrations.llama_index_scripted import Asks
from nbask.integrations import llama_index

from .contract import (
    ARGS,
    BATCH,
    NUMBER_QUESTION,
    OPTIONS,
    QUESTION,
    TOOL,
    BatchRun,
    Integration,
    ToolRun,
    entry_kw,
)


class Scenario:
    """The scripted model's ``turn`` of calls, made ``rounds`` times (each after reading the
    results of the last), then the results as its answer; and the tool's real runs.
    """

    def __init__(self, turn: Sequence[dict[str, Any]], rounds: int = 1) -> None:
        self.turn, self.rounds = list(turn), rounds
        self.ran: list[dict[str, Any]] = []
        self.read: list[str] = []
        self.replies = 0
        self.made = 0

    def reply(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        del kwargs
        self.replies += 1
        self.read = [str(m.content) for m in messages if m.role == MessageRole.TOOL]
        made = self.made = len(self.read) // len(self.turn)
        if made >= self.rounds:
            return ChatMessage(role="assistant", content="\n".join(self.read))
        selections = [
            ToolSelection(tool_id=f"call_{made}_{i}", tool_name=TOOL, tool_kwargs=args)
            for i, args in enumerate(self.turn)
        ]
        return ChatMessage(role="assistant", content="", additional_kwargs={"tool_calls": selections})

    async def drop_table(self, ctx: Context, name: str) -> str:
        """Drop a warehouse table (irreversible)."""
        asked = InputRequiredEvent(action=f"Drop table {name}", details={"name": name}, risk="high", table=name)
        # LlamaIndex runs the step again once the response arrives: the same waiter, round by round.
        waiter = f"drop-{name}-{self.made}"
        reply = await ctx.wait_for_event(
            HumanResponseEvent, waiter_id=waiter, waiter_event=asked, requirements={"table": name}
        )
        if not reply.approved:
            return f"not dropped {name}: {reply.reason}"
        args = json.loads(reply.edited) if reply.edited else {"name": name}
        self.ran.append(args)
        return f"dropped {args['name']}"

    def run(self, timeout: float | None = None, approvers: list[str] | None = None) -> None:
        llm = MockFunctionCallingLLM(response_generator=self.reply)
        tools = [FunctionTool.from_defaults(async_fn=self.drop_table, name=TOOL)]
        agent = FunctionAgent(llm=llm, tools=tools, streaming=False, timeout=60)

        async def go() -> Any:  # the handler needs a running loop
            return await llama_index.run(agent.run("Clean up the warehouse."), **entry_kw(timeout, approvers))

        asyncio.run(go())


def _asked(ask: dict[str, Any], timeout: float | None = None, approvers: list[str] | None = None) -> Any:
    async def go() -> Any:
        return await llama_index.run(Asks(timeout=60), ask=ask, **entry_kw(timeout, approvers))

    return asyncio.run(go())["response"]


class Adapter(Integration):
    framework = "llama_index"
    has_questions = True
    question_options = True
    has_typed = True
    has_batches = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        scenario = Scenario([args], rounds=calls)
        scenario.run(timeout, approvers)
        return ToolRun(ran=scenario.ran, read=scenario.read)

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        del rounds  # the workflow asks once
        return _asked({"prompt": question, "options": list(OPTIONS), "header": "DB"}, timeout, approvers)

    def run_typed(self) -> Any:
        schema = {"type": "object", "properties": {"replicas": {"type": "integer"}}, "required": ["replicas"]}
        return _asked({"message": NUMBER_QUESTION, "schema": schema})["replicas"]

    def run_batch(self) -> BatchRun:
        scenario = Scenario(BATCH)
        scenario.run()
        return BatchRun(ran=scenario.ran, resumed=scenario.replies - 1)
