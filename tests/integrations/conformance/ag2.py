"""AG2: an ``ag2.Agent`` on AG2's scripted model (``TestConfig``, tests/integrations/ag2_scripted.py)
with the ``Warehouse`` tools of test_ag2.py (``drop_table`` gated by nbask's
``requires_approval``) and a tool asking ``context.input`` (the framework's question: free text,
no options, a plain string), run by nbask's ``run_sync``. An edit is carried; calls made together
run side by side, so their approvals are asked together.
"""

from __future__ import annotations

from typing import Any

from ag2 import Agent, Context, tool

from integrations.ag2_scripted import call, results_read, scripted
from integrations.test_ag2 import Warehouse
from nbask.integrations import ag2

from .contract import ARGS, BATCH, QUESTION, TOOL, BatchRun, Integration, ToolRun, entry_kw


def _run(
    turns: list[Any], tools: list[Any], timeout: float | None = None, approvers: list[str] | None = None
) -> list[list[tuple[str, str]]]:
    """Run the agent through ``turns``; what the model read back, per model call."""
    config = scripted(*turns, "done")
    ag2.run_sync(Agent("ops", config=config, tools=tools), "Clean up the warehouse.", **entry_kw(timeout, approvers))
    return results_read(config)


def _drops(
    turns: list[Any], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[list[dict[str, Any]], list[list[Any]]]:
    warehouse = Warehouse()
    read = _run(turns, warehouse.tools()[:1], timeout, approvers)
    return [args for name, args in warehouse.ran if name == TOOL], read


class Adapter(Integration):
    framework = "ag2"
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
        ran, read = _drops([call(TOOL, **args)] * calls, timeout, approvers)
        return ToolRun(ran=ran, read=[text for turn in read for _, text in turn])

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        received: list[str] = []

        @tool
        async def ask_user(context: Context, question: str) -> str:
            """Ask the person a question and return their reply."""
            received.append(await context.input(question))
            return received[-1]

        _run([call("ask_user", question=question)] * rounds, [ask_user], timeout, approvers)
        return received[-1] if received else None

    def run_batch(self) -> BatchRun:
        ran, read = _drops([[call(TOOL, **args) for args in BATCH]])
        return BatchRun(ran=ran, resumed=len(read))
