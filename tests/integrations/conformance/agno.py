"""Agno: an ``Agent`` on the scripted ``Model`` of tests/integrations/agno_scripted.py with the
``Warehouse`` tools of test_agno.py (``drop_table`` is ``requires_confirmation``, ``ask_user`` of
``UserFeedbackTools`` the framework's question), run by nbask's ``run_sync``. An edit is carried;
the confirmations of one pause are asked together.
"""

from __future__ import annotations

from typing import Any

from agno.agent import Agent

from integrations.agno_scripted import ScriptedModel, Turn
from integrations.test_agno import Warehouse
from nbask.integrations import agno

from .contract import ARGS, BATCH, OPTIONS, QUESTION, TOOL, BatchRun, Integration, ToolRun, entry_kw


def _run(
    turns: list[Turn], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[list[dict[str, Any]], ScriptedModel]:
    warehouse = Warehouse()
    model = ScriptedModel(turns=[*turns, "done"])
    agno.run_sync(
        Agent(model=model, tools=warehouse.tools()), "Clean up the warehouse.", **entry_kw(timeout, approvers)
    )
    return [args for name, args in warehouse.ran if name == TOOL], model


class Adapter(Integration):
    framework = "agno"
    has_questions = True
    question_options = True
    has_batches = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        ran, model = _run([[(TOOL, args)]] * calls, timeout, approvers)
        return ToolRun(ran=ran, read=[content for _, content, _ in model.seen])

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        options = [{"label": label} for label in OPTIONS]
        ask = ("ask_user", {"questions": [{"question": question, "header": "DB", "options": options}]})
        _, model = _run([[ask]] * rounds, timeout, approvers)
        return model.seen[-1][1] if model.seen else None

    def run_batch(self) -> BatchRun:
        ran, model = _run([[(TOOL, args) for args in BATCH]])
        return BatchRun(ran=ran, resumed=model.calls - 1)
