"""Semantic Kernel: a ``ChatCompletionAgent`` on the scripted chat model of
tests/integrations/semantic_kernel_scripted.py, its ``Warehouse-drop_table`` behind nbask's
``approval_filter_with`` (SK's auto function invocation filter); the framework's question is a
``GroupChatOrchestration`` whose manager (test_semantic_kernel.py's ``AskAfterWriter``) asks the
person through nbask's ``human_response_function_with`` (free text, no options). An edit is
carried; the calls of one model message are asked together.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from semantic_kernel.agents import ChatCompletionAgent, GroupChatOrchestration
from semantic_kernel.filters import FilterTypes
from semantic_kernel.functions import kernel_function

from integrations.semantic_kernel_scripted import ScriptedChat, Turn
from integrations.test_semantic_kernel import AskAfterWriter, orchestrate
from nbask.integrations import semantic_kernel

from .contract import ARGS, BATCH, QUESTION, TOOL, BatchRun, Integration, ToolRun, entry_kw

#: The name the model calls the gated tool by: SK's "<plugin>-<function>".
CALLED = f"Warehouse-{TOOL}"


class Warehouse:
    """An SK plugin recording every call of ``drop_table`` that really ran."""

    def __init__(self) -> None:
        self.ran: list[dict[str, Any]] = []

    @kernel_function(name=TOOL, description="Drop a warehouse table (irreversible).")
    def drop_table(self, name: Annotated[str, "The table to drop."]) -> str:
        self.ran.append({"name": name})
        return f"dropped {name}"


def _run(
    turns: list[Turn], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[Warehouse, ScriptedChat]:
    model, warehouse = ScriptedChat(*turns, "done"), Warehouse()
    agent = ChatCompletionAgent(service=model, name="ops", plugins=[warehouse])
    gate = semantic_kernel.approval_filter_with(tools=[CALLED], **entry_kw(timeout, approvers))
    agent.kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, gate)
    asyncio.run(agent.get_response(messages="Clean up the warehouse."))
    return warehouse, model


class Adapter(Integration):
    framework = "semantic_kernel"
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
        warehouse, model = _run([[(CALLED, args)]] * calls, timeout, approvers)
        return ToolRun(ran=warehouse.ran, read=[text for _, text in model.results])

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        """The writer says ``question``; the person replies after each of its ``rounds`` turns, and
        the reviewer, speaking next, reads the reply: what it read last is returned.
        """
        writer = ChatCompletionAgent(service=ScriptedChat(question), name="Writer", description="writes")
        reviewer_model = ScriptedChat("Reviewed.")
        reviewer = ChatCompletionAgent(service=reviewer_model, name="Reviewer", description="reviews")
        human = semantic_kernel.human_response_function_with(**entry_kw(timeout, approvers))
        manager = AskAfterWriter(max_rounds=2 * rounds, human_response_function=human)
        orchestration = GroupChatOrchestration(members=[writer, reviewer], manager=manager)
        asyncio.run(orchestrate(orchestration, "Set up the app."))
        replies = reviewer_model.user_texts[1:]  # after the task
        return replies[-1] if replies else None

    def run_batch(self) -> BatchRun:
        warehouse, model = _run([[(CALLED, args) for args in BATCH]])
        return BatchRun(ran=warehouse.ran, resumed=model.calls - 1)
