"""Haystack: an ``Agent`` on ``MockChatGenerator`` playing the ``Script`` of
tests/integrations/haystack_scripted.py, with the ``Warehouse`` tools of test_haystack.py behind
nbask's ``confirmation_hook``. An edit is carried; the calls of one step are asked together.
"""

from __future__ import annotations

from typing import Any

from haystack.components.agents import Agent
from haystack.dataclasses import ChatMessage

from integrations.haystack_scripted import Turn, scripted
from integrations.test_haystack import Warehouse
from nbask.integrations import haystack

from .contract import ARGS, BATCH, TOOL, BatchRun, Integration, ToolRun, entry_kw


def _run(
    turns: list[Turn], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[list[dict[str, Any]], list[str], int]:
    """The tool's runs, what the model read (tool results, then user notes), and its turns."""
    warehouse = Warehouse()
    generator, script = scripted([*turns, "done"])
    hook = haystack.confirmation_hook(tools=[TOOL], **entry_kw(timeout, approvers))
    agent = Agent(chat_generator=generator, tools=warehouse.tools(), hooks={"before_tool": [hook]})
    agent.run([ChatMessage.from_user("Clean up the warehouse.")])
    read = [result for _, result, _ in script.seen] + script.notes
    return [args for name, args in warehouse.ran if name == TOOL], read, script.calls


class Adapter(Integration):
    framework = "haystack"
    has_batches = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        ran, read, _ = _run([[(TOOL, args)]] * calls, timeout, approvers)
        return ToolRun(ran=ran, read=read)

    def run_batch(self) -> BatchRun:
        ran, _, turns = _run([[(TOOL, args) for args in BATCH]])
        return BatchRun(ran=ran, resumed=turns - 1)
