"""LangGraph / LangChain: a ``create_agent`` agent on the scripted chat model of
tests/integrations/langchain_scripted.py, its ``drop_table`` (test_langgraph.py) gated by
LangChain's ``HumanInTheLoopMiddleware`` (batched), and a ``StateGraph`` node calling
``interrupt()`` (the framework's question, AskUserQuestion's shape), both run by ``run_sync``.
An edit is carried; the calls of one turn are one interrupt.
"""

from __future__ import annotations

import uuid
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import interrupt

from integrations import test_langgraph
from integrations.langchain_scripted import Scripted
from integrations.test_langgraph import State
from nbask.integrations import langgraph

from .contract import ARGS, BATCH, NUMBER_QUESTION, OPTIONS, QUESTION, TOOL, BatchRun, Integration, ToolRun, entry_kw

USER = {"messages": [{"role": "user", "content": "Clean up the warehouse."}]}


def _config() -> dict[str, Any]:
    return {"configurable": {"thread_id": uuid.uuid4().hex}}


def _agent(
    turns: list[list[dict[str, Any]]], timeout: float | None = None, approvers: list[str] | None = None
) -> tuple[list[str], Scripted]:
    """Run the agent through ``turns`` of calls; the tool's runs and what the model saw."""
    test_langgraph.ran.clear()
    calls = [
        [{"name": TOOL, "args": args, "id": f"c{t}_{i}"} for i, args in enumerate(turn)] for t, turn in enumerate(turns)
    ]
    model = Scripted(turns=[*(AIMessage("", tool_calls=c) for c in calls), AIMessage("ok")])
    middleware = HumanInTheLoopMiddleware(interrupt_on={TOOL: True}, interrupt_mode="batched")
    agent = create_agent(
        model, tools=[test_langgraph.drop_table], middleware=[middleware], checkpointer=InMemorySaver()
    )
    state = langgraph.run_sync(agent, USER, _config(), **entry_kw(timeout, approvers))
    del state
    return list(test_langgraph.ran), model


def _asking(question: Any, rounds: int, **kwargs: Any) -> Any:
    def node(state: State) -> State:
        return {"out": [interrupt(question) for _ in range(rounds)]}

    builder = StateGraph(State)
    builder.add_node("ask", node)
    builder.add_edge(START, "ask")
    state = langgraph.run_sync(builder.compile(checkpointer=InMemorySaver()), {"out": []}, _config(), **kwargs)
    return state["out"][-1] if state.get("out") else None


class Adapter(Integration):
    framework = "langgraph"
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
        ran, model = _agent([[args]] * calls, timeout, approvers)
        read = [str(m.content) for m in model.seen[-1] if isinstance(m, ToolMessage)]
        return ToolRun(ran=[{"name": name} for name in ran], read=read)

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        options = [{"label": label} for label in OPTIONS]
        asked = {"questions": [{"question": question, "header": "DB", "options": options}]}
        return _asking(asked, rounds, **entry_kw(timeout, approvers))

    def run_typed(self) -> Any:
        return _asking(NUMBER_QUESTION, 1, resume_type=int)

    def run_batch(self) -> BatchRun:
        ran, model = _agent([list(BATCH)])
        return BatchRun(ran=[{"name": name} for name in ran], resumed=len(model.seen) - 1)
