"""A2A: the scripted ``AgentExecutor`` of tests/integrations/a2a_scripted_agent.py behind a2a-sdk's
own server (in process, over ``httpx.ASGITransport``), reached by a2a-sdk's client through nbask's
``send_sync``. A2A has no tool approvals: its one gate is a task going ``input-required``, asked as
a form. So the framework asks questions only: a text question (one text box, no options), and a
JSON Schema form with an integer field (the typed reply, one data part). What the framework
received is what the agent got back in the task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from a2a.types import Part

from integrations.a2a_scripted_agent import Agent, form, text
from nbask.integrations import a2a

from .contract import ARGS, NUMBER_QUESTION, QUESTION, Integration, ToolRun, entry_kw

REPLICAS = {"type": "object", "properties": {"replicas": {"type": "integer", "minimum": 1}}, "required": ["replicas"]}


def _received(
    asks: Sequence[Sequence[Part]], timeout: float | None = None, approvers: list[str] | None = None
) -> list[dict[str, Any]]:
    """Send a task to an agent asking each of ``asks`` in turn; the parts of each reply it got."""
    agent = Agent(asks=asks)
    a2a.send_sync(agent.client(), "Set up the app.", show=False, **entry_kw(timeout, approvers))
    return [part for got in agent.received[1:] for part in got["parts"]]


class Adapter(Integration):
    framework = "a2a"
    has_approvals = False
    has_questions = True
    has_typed = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        msg = "A2A has no tool approvals: a task's input-required is asked as a question (run_question)"
        raise NotImplementedError(msg)

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        replies = _received([[text(question)]] * rounds, timeout, approvers)
        return replies[-1]["text"] if replies else None

    def run_typed(self) -> Any:
        replies = _received([form(NUMBER_QUESTION, REPLICAS)])
        return replies[-1]["data"]["replicas"] if replies else None
