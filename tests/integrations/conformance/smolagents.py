"""smolagents: a ``ToolCallingAgent`` on the scripted ``Model`` of
tests/integrations/smolagents_scripted.py, the ``DropTable`` tool of test_smolagents.py behind
nbask's ``approving`` and nbask's ``UserInputTool`` (the framework's ``user_input``), run by
nbask's ``run`` (``agent.run`` raising a replay miss). An edit is carried. smolagents runs a
step's calls one after another, each asked on its own: no batches.
"""

from __future__ import annotations

from typing import Any

from smolagents import ToolCallingAgent

from integrations.smolagents_scripted import ScriptedModel, Turn
from integrations.test_smolagents import DropTable
from nbask.integrations import smolagents

from .contract import ARGS, QUESTION, TOOL, Integration, ToolRun, entry_kw


def _run(
    turns: list[Turn], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[DropTable, ScriptedModel]:
    model = ScriptedModel([*turns, "done"])
    drop = DropTable()
    listed = [drop, smolagents.UserInputTool(**entry_kw(timeout, approvers))]
    tools = smolagents.approving(listed, tools=[TOOL], **entry_kw(timeout, approvers))
    agent = ToolCallingAgent(tools=tools, model=model, verbosity_level=0, max_steps=len(turns) + 2)
    smolagents.run(agent, "Clean up the warehouse.")
    return drop, model


class Adapter(Integration):
    framework = "smolagents"
    has_questions = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        drop, model = _run([[(TOOL, args)]] * calls, timeout, approvers)
        return ToolRun(ran=drop.ran, read=model.seen)

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        _, model = _run([[("user_input", {"question": question})]] * rounds, timeout, approvers)
        return model.seen[-1] if model.seen else None
