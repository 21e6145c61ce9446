"""The OpenAI Agents SDK: its ``Runner`` with the scripted ``Model`` of test_openai_agents.py and
its ``needs_approval`` tool, driven by ``openai_agents.run``. An edit cannot be carried (the SDK
approves or rejects a call as it was made): the model reads the edited arguments and calls again.
"""

from __future__ import annotations

import asyncio
from typing import Any

import agents

from integrations.test_openai_agents import ScriptedModel, drop_table
from nbask.integrations import openai_agents

from .contract import ARGS, BATCH, TOOL, BatchRun, Integration, ToolRun, entry_kw


class Adapter(Integration):
    framework = "openai_agents"
    carries_edits = False
    has_batches = True

    @staticmethod
    def _run(model: ScriptedModel, timeout: float | None = None, approvers: list[str] | None = None) -> list[str]:
        context: dict[str, list[str]] = {"dropped": []}
        agent = agents.Agent(name="janitor", model=model, tools=[drop_table])
        asyncio.run(
            openai_agents.run(agent, "Clean up the warehouse.", context=context, **entry_kw(timeout, approvers))
        )
        return context["dropped"]

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        model = ScriptedModel(*[(TOOL, args)] * calls)
        dropped = self._run(model, timeout, approvers)
        return ToolRun(ran=[{"name": name} for name in dropped], read=[str(r) for turn in model.read for r in turn])

    def run_batch(self) -> BatchRun:
        model = ScriptedModel(*[(TOOL, args) for args in BATCH], parallel=True)
        dropped = self._run(model)
        return BatchRun(ran=[{"name": name} for name in dropped], resumed=len(model.read))
