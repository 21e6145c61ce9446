"""Microsoft Agent Framework: an ``Agent`` on the ``ScriptedChatClient`` of
tests/integrations/agent_framework_scripted.py with the ``Warehouse`` tools of
test_agent_framework.py (``drop_table`` is ``approval_mode="always_require"``), run by nbask's
``run_sync``; an edit is carried (nbask's middleware gives the approved call the edited
arguments), the approvals of one turn are asked together. The framework's question is a
``Workflow`` whose executor calls ``ctx.request_info`` (``str``: a text reply, ``int``: typed).
"""

from __future__ import annotations

import importlib
from typing import Any

from agent_framework import Executor, WorkflowBuilder, WorkflowContext, handler, response_handler

from integrations.agent_framework_scripted import Turn
from integrations.test_agent_framework import Warehouse, agent_for

from .contract import ARGS, BATCH, NUMBER_QUESTION, QUESTION, TOOL, BatchRun, Integration, ToolRun, entry_kw

nbask_af = importlib.import_module("nbask.integrations.agent_framework")


class Asker(Executor):
    """Asks ``question`` for a ``kind`` (asking again after each reply, ``rounds`` times in all)
    and yields the replies it got.
    """

    def __init__(self, question: str, kind: type, rounds: int = 1) -> None:
        super().__init__(id="asker")
        self.question, self.kind, self.rounds = question, kind, rounds
        self.got: list[Any] = []

    @handler
    async def start(self, topic: str, ctx: WorkflowContext[None, list]) -> None:  # type: ignore[type-arg]
        del topic
        await ctx.request_info(self.question, self.kind)

    @response_handler
    async def replied(self, _request: str, reply: Any, ctx: WorkflowContext[None, list]) -> None:  # type: ignore[type-arg]
        self.got.append(reply)
        if len(self.got) < self.rounds:
            await ctx.request_info(self.question, self.kind)
        else:
            await ctx.yield_output(list(self.got))


def _run(
    turns: list[Turn], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[list[dict[str, Any]], Any]:
    warehouse = Warehouse()
    agent, client = agent_for(turns, warehouse)
    nbask_af.run_sync(agent, "Clean up the warehouse.", **entry_kw(timeout, approvers))
    return [args for name, args in warehouse.ran if name == TOOL], client


def _asked(
    question: str, kind: type, rounds: int = 1, timeout: float | None = None, approvers: list[str] | None = None
) -> Any:
    asker = Asker(question, kind, rounds)
    nbask_af.run_sync(WorkflowBuilder(start_executor=asker).build(), "the app", **entry_kw(timeout, approvers))
    return asker.got[-1] if asker.got else None


class Adapter(Integration):
    framework = "agent_framework"
    has_questions = True
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
        ran, client = _run([[(TOOL, args)]] * calls, timeout, approvers)
        return ToolRun(ran=ran, read=[text for _, text in client.seen])

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        return _asked(question, str, rounds, timeout, approvers)

    def run_typed(self) -> Any:
        return _asked(NUMBER_QUESTION, int)

    def run_batch(self) -> BatchRun:
        ran, client = _run([[(TOOL, args) for args in BATCH]])
        return BatchRun(ran=ran, resumed=client.calls - 1)
