"""Going on from a paused run under the ``later`` policy, each framework through its own code,
in real processes: run 1 stops with ``nbask.AnswerLater`` and the request waits in the inbox;
the answer is given there; run 2 of the same code resumes the paused run, and a counter proves
the work before the pause did not run again. Another input never resumes it.

- LangGraph: a graph with a persistent checkpointer (``SqliteSaver``), a thread paused at
  ``interrupt()``.
- OpenAI Agents SDK: the paused ``RunState`` kept in the inbox; a scripted ``Model`` counts its
  turns in a file, so run 2 proves the model was not asked again for the call it already made.
- pydantic-ai: the paused run's messages and deferred requests kept in the inbox; a
  ``FunctionModel`` counts its turns the same way.
- agno: the paused run kept in the agent's own ``db`` (``SqliteDb``), the inbox keeping where.
"""

from __future__ import annotations

import json
import os
import pathlib
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from nbask.inbox_store import open_inbox
from nbask.replies import ApprovalResponse

pytest.importorskip("langgraph.checkpoint.sqlite")

LANGGRAPH = """
import json, pathlib, sqlite3, sys
from typing import TypedDict
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
import nbask.integrations.langgraph as nbask_langgraph

counter = pathlib.Path(sys.argv[2])

class State(TypedDict, total=False):
    table: str
    plan: str
    done: str

def plan(state):
    counter.write_text(str(int(counter.read_text()) + 1) if counter.exists() else "1")  # the costly step
    return {"plan": f"DROP TABLE {state['table']}"}

def drop(state):
    ok = interrupt({"question": f"Drop {state['table']}?", "details": state["plan"]})
    return {"done": "dropped" if ok else "kept"}

graph = StateGraph(State)
graph.add_node("plan", plan)
graph.add_node("drop", drop)
graph.add_edge(START, "plan")
graph.add_edge("plan", "drop")
graph.add_edge("drop", END)
saver = SqliteSaver(sqlite3.connect(sys.argv[1], check_same_thread=False))
app = graph.compile(checkpointer=saver)
state = nbask_langgraph.run_sync(app, {"table": sys.argv[3]}, {"configurable": {"thread_id": "nightly"}})
print("RESULT " + json.dumps(state))
"""


OPENAI_AGENTS = """
import json, pathlib, sys
from agents import Agent, function_tool
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText
import nbask.integrations.openai_agents as nbask_openai

turns, dropped = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

class Counting(Model):
    async def get_response(self, system_instructions, input, *args, **kwargs):
        turns.write_text(str(int(turns.read_text()) + 1) if turns.exists() else "1")
        outputs = [i["output"] for i in input if isinstance(i, dict) and i.get("type") == "function_call_output"]
        if outputs:
            text = ResponseOutputText(text="done: " + outputs[-1], type="output_text", annotations=[])
            said = ResponseOutputMessage(id="m1", content=[text], role="assistant", status="completed", type="message")
            return ModelResponse(output=[said], usage=Usage(), response_id=None)
        arguments = json.dumps({"name": sys.argv[3]})
        call = ResponseFunctionToolCall(id="fc1", call_id="call1", name="drop_table", arguments=arguments,
                                        type="function_call", status="completed")
        return ModelResponse(output=[call], usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError

@function_tool(needs_approval=True)
def drop_table(name: str) -> str:
    \"\"\"Drop a table.\"\"\"
    dropped.write_text(name)
    return f"dropped {name}"

agent = Agent(name="janitor", model=Counting(), tools=[drop_table])
result = nbask_openai.run_sync(agent, f"Drop the table {sys.argv[3]}.")
print("RESULT " + json.dumps(result.final_output))
"""


PYDANTIC_AI = """
import json, pathlib, sys
from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel
import nbask.integrations.pydantic_ai as nbask_pydantic_ai

turns, dropped = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

def respond(messages, info):
    turns.write_text(str(int(turns.read_text()) + 1) if turns.exists() else "1")
    returned = [p.content for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
    if returned:
        return ModelResponse(parts=[TextPart("done: " + str(returned[-1]))])
    return ModelResponse(parts=[ToolCallPart("drop_table", {"name": sys.argv[3]}, tool_call_id="call_1")])

agent = Agent(FunctionModel(respond), name="janitor")

@agent.tool_plain(requires_approval=True)
def drop_table(name: str) -> str:
    dropped.write_text(name)
    return f"dropped {name}"

result = nbask_pydantic_ai.run_sync(agent, f"Drop the table {sys.argv[3]}.")
print("RESULT " + json.dumps(result.output))
"""


AGNO = """
import json, pathlib, sys
from agno.agent import Agent
from agno.db.sqlite import SqliteDb
from agno.models.message import MessageMetrics
from agno.models.response import ModelResponse
from agno.tools import tool
sys.path.insert(0, sys.argv[4])
from agno_scripted import ScriptedModel
import nbask.integrations.agno as nbask_agno

turns, dropped = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

class Counting(ScriptedModel):
    def _play(self, messages):
        turns.write_text(str(int(turns.read_text()) + 1) if turns.exists() else "1")
        if any(m.role == "tool" for m in messages):
            return ModelResponse(role="assistant", content="done", response_usage=MessageMetrics())
        self.turns = [[("drop_table", {"name": sys.argv[3]})]]
        return super()._play(messages)

@tool(requires_confirmation=True)
def drop_table(name: str) -> str:
    \"\"\"Drop a table.\"\"\"
    dropped.write_text(name)
    return f"dropped {name}"

db = SqliteDb(db_file=sys.argv[5])
agent = Agent(name="janitor", model=Counting(), tools=[drop_table], db=db, session_id="nightly")
result = nbask_agno.run_sync(agent, f"Drop the table {sys.argv[3]}.")
print("RESULT " + json.dumps(result.content))
"""


def run(code: str, inbox: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NBASK_", "JPY_"))}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        env={**env, "NBASK_POLICY": "later", "NBASK_INBOX": str(inbox)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def approve_waiting(inbox: pathlib.Path) -> None:
    """What the person does at a terminal or in a notebook: approve the one waiting approval."""
    store = open_inbox(str(inbox))
    (item,) = store.pending()
    request = item.asked_again()
    store.answer(item.id, request.decide(ApprovalResponse(action="approve")), by="ana")


def test_langgraph_resumes_the_paused_thread_and_the_step_before_the_pause_runs_once(tmp_path: pathlib.Path):
    inbox, checkpoints, counter = tmp_path / "inbox.sqlite3", tmp_path / "graph.sqlite3", tmp_path / "count"
    first = run(LANGGRAPH, inbox, str(checkpoints), str(counter), "events")
    assert "AnswerLater" in first.stderr, first.stderr
    assert counter.read_text() == "1"
    approve_waiting(inbox)

    second = run(LANGGRAPH, inbox, str(checkpoints), str(counter), "events")
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout.split("RESULT ", 1)[1])["done"] == "dropped"
    assert counter.read_text() == "1", "the step before the pause ran again"


def test_langgraph_never_resumes_a_thread_paused_for_another_input(tmp_path: pathlib.Path):
    inbox, checkpoints, counter = tmp_path / "inbox.sqlite3", tmp_path / "graph.sqlite3", tmp_path / "count"
    assert "AnswerLater" in run(LANGGRAPH, inbox, str(checkpoints), str(counter), "events").stderr
    approve_waiting(inbox)
    other = run(LANGGRAPH, inbox, str(checkpoints), str(counter), "customers")
    assert "AnswerLater" in other.stderr  # its own approval, asked anew: the events one is not taken for it
    assert counter.read_text() == "2"
    (waiting,) = open_inbox(str(inbox)).pending()
    assert waiting.asked["details"] == "DROP TABLE customers"


def test_openai_agents_resumes_the_kept_run_state_without_asking_the_model_again(tmp_path: pathlib.Path):
    inbox, turns, dropped = tmp_path / "inbox.sqlite3", tmp_path / "turns", tmp_path / "dropped"
    first = run(OPENAI_AGENTS, inbox, str(turns), str(dropped), "events")
    assert "AnswerLater" in first.stderr, first.stderr
    assert turns.read_text() == "1"
    assert not dropped.exists()
    approve_waiting(inbox)

    second = run(OPENAI_AGENTS, inbox, str(turns), str(dropped), "events")
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout.split("RESULT ", 1)[1]) == "done: dropped events"
    assert dropped.read_text() == "events"
    assert turns.read_text() == "2", "the model was asked again for the call it had made"
    with sqlite3.connect(inbox) as kept:  # the run went on to its end: its kept state is gone
        assert kept.execute("SELECT count(*) FROM nbask_inbox_runs").fetchone() == (0,)
    third = run(OPENAI_AGENTS, inbox, str(turns), str(dropped), "customers")
    assert "AnswerLater" in third.stderr  # another input: a run of its own, asked anew
    assert turns.read_text() == "3"


def test_pydantic_ai_resumes_the_kept_messages_without_asking_the_model_again(tmp_path: pathlib.Path):
    inbox, turns, dropped = tmp_path / "inbox.sqlite3", tmp_path / "turns", tmp_path / "dropped"
    first = run(PYDANTIC_AI, inbox, str(turns), str(dropped), "events")
    assert "AnswerLater" in first.stderr, first.stderr
    assert (turns.read_text(), dropped.exists()) == ("1", False)
    approve_waiting(inbox)

    second = run(PYDANTIC_AI, inbox, str(turns), str(dropped), "events")
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout.split("RESULT ", 1)[1]) == "done: dropped events"
    assert dropped.read_text() == "events"
    assert turns.read_text() == "2", "the model was asked again for the call it had made"
    with sqlite3.connect(inbox) as kept:
        assert kept.execute("SELECT count(*) FROM nbask_inbox_runs").fetchone() == (0,)


def test_agno_goes_on_from_the_run_its_db_keeps_without_asking_the_model_again(tmp_path: pathlib.Path):
    inbox, turns, dropped, db = (
        tmp_path / "inbox.sqlite3",
        tmp_path / "turns",
        tmp_path / "dropped",
        tmp_path / "agno.db",
    )
    here = str(pathlib.Path(__file__).parent)
    first = run(AGNO, inbox, str(turns), str(dropped), "events", here, str(db))
    assert "AnswerLater" in first.stderr, first.stderr
    assert (turns.read_text(), dropped.exists()) == ("1", False)
    approve_waiting(inbox)

    second = run(AGNO, inbox, str(turns), str(dropped), "events", here, str(db))
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout.split("RESULT ", 1)[1]) == "done"
    assert dropped.read_text() == "events"
    assert turns.read_text() == "2", "the model was asked again for the call it had made"
