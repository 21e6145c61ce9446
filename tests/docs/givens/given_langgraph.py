"""``graph`` and ``input`` for the README's LangGraph line: a StateGraph with an InMemorySaver
whose node calls ``interrupt()`` with AskUserQuestion's arguments, and the graph's input;
``config``, the run's config (a thread of its own); and ``interrupts``, what another thread of
that graph stopped on (``result["__interrupt__"]``).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import interrupt
from typing_extensions import TypedDict

__all__ = ["config", "graph", "input", "interrupts"]

DB = {
    "questions": [
        {
            "question": "Which database should the app use?",
            "header": "DB",
            "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
        }
    ]
}


class State(TypedDict, total=False):
    out: Annotated[list[Any], operator.add]


def choose_db(state: State) -> State:
    del state
    return {"out": [interrupt(DB)]}


_builder = StateGraph(State)
_builder.add_node("db", choose_db)
_builder.add_edge(START, "db")
graph = _builder.compile(checkpointer=InMemorySaver())
input = {"out": []}  # noqa: A001 - LangGraph's own name, as the README line uses it
config = {"configurable": {"thread_id": "1"}}
interrupts = graph.invoke({"out": []}, {"configurable": {"thread_id": "paused"}})["__interrupt__"]
