"""nbask.integrations.langgraph inside LangGraph's and LangChain's own code, offline: a StateGraph
whose nodes call ``interrupt()`` (a string, AskUserQuestion's arguments, a ``response_schema``,
several at once) and a ``create_agent`` agent gated by ``HumanInTheLoopMiddleware`` (batched and
per-call) driven by a scripted tool-calling chat model, both with an InMemorySaver. Each test
checks what the graph state holds, what the tool ran with, what the model read back, and that a
rejected tool never ran.
"""

from __future__ import annotations

import asyncio
import json
import operator
import sys
from typing import Annotated, Any

import pytest

pytest.importorskip("langgraph")
pytest.importorskip("langchain")

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command, interrupt
from pydantic import BaseModel
from support.person import REPO, Person, approve, edit, pick, reject, through_the_kernels_check
from typing_extensions import TypedDict

import nbask
from integrations.langchain_scripted import Scripted, calling
from nbask.core.lifecycle import Request
from nbask.core.manager import manager
from nbask.errors import ApprovalRejected
from nbask.integrations import langgraph as nl
from nbask.kinds import FormRequest, QuestionRequest

DB = {
    "questions": [
        {
            "question": "Which database should the app use?",
            "header": "DB",
            "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
        }
    ]
}


class Deploy(BaseModel):
    region: str = "eu"
    replicas: int = 2


class State(TypedDict, total=False):
    out: Annotated[list[Any], operator.add]


def graph_of(**nodes: Any) -> Any:
    """Nodes all started from START, so their interrupts come in one step, side by side."""
    builder = StateGraph(State)
    for name, node in nodes.items():
        builder.add_node(name, node)
        builder.add_edge(START, name)
    return builder.compile(checkpointer=InMemorySaver())


def ask_name(state: State) -> State:
    return {"out": [("name", interrupt("What is the release called?"))]}


def ask_db(state: State) -> State:
    return {"out": [("db", interrupt(DB))]}


def ask_deploy(state: State) -> State:
    return {"out": [("deploy", interrupt("Deployment settings", response_schema=Deploy))]}


def ask_json_schema(state: State) -> State:
    schema = {"type": "object", "properties": {"count": {"type": "integer", "title": "How many?"}}}
    return {"out": [("count", interrupt({"why": "batch size"}, response_schema=schema))]}


def outputs(state: dict[str, Any]) -> dict[str, Any]:
    return dict(state["out"])


def fill(values: dict[str, Any]) -> Any:
    return lambda request: request.decide(values)


def by_kind(**decide: Any) -> Any:
    """A person who answers questions with ``decide["question"]`` and forms by their message."""

    def answer(request: Request[Any]) -> Any:
        if isinstance(request, QuestionRequest):
            return decide["question"](request)
        assert isinstance(request, FormRequest)
        return decide[request.form.message](request)

    return answer


# -- interrupt() in a StateGraph -----------------------------------------------------------------


def test_recommended_answers_questions_and_fills_defaults():
    nbask.configure(policy="recommended")
    state = nl.run_sync(graph_of(db=ask_db, deploy=ask_deploy), {"out": []})
    out = outputs(state)
    assert out["db"]["answers"] == {"Which database should the app use?": "PostgreSQL (Recommended)"}
    assert out["db"]["answered_by"] == "policy"
    assert out["deploy"] == Deploy(region="eu", replicas=2)  # validated by LangGraph into the model


def test_recommended_declines_a_text_question_and_the_graph_stays_paused():
    nbask.configure(policy="recommended")
    graph = graph_of(name=ask_name)
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(nl.InterruptNotAnswered, match="required field 'answer' has no default"):
        nl.run_sync(graph, {"out": []}, config)
    assert [i.value for i in graph.get_state(config).interrupts] == ["What is the release called?"]


def test_a_person_answers_parallel_interrupts_of_every_shape(person: Person):
    person.answers(
        by_kind(
            question=pick("SQLite"),
            **{
                "What is the release called?": fill({"answer": "v1.2"}),
                "Deployment settings": fill({"region": "us", "replicas": 3}),
                '{\n  "why": "batch size"\n}': fill({"count": 7}),
            },
        )
    )
    graph = graph_of(name=ask_name, db=ask_db, deploy=ask_deploy, count=ask_json_schema)
    out = outputs(asyncio.run(nl.run(graph, {"out": []}, {"configurable": {"thread_id": "p"}})))
    assert out == {
        "name": "v1.2",
        "db": {"answers": {"Which database should the app use?": "SQLite"}},
        "deploy": Deploy(region="us", replicas=3),
        "count": {"count": 7},
    }
    shown = {r.form.message: r.form.fields[0].title for r in person.asked if isinstance(r, FormRequest)}
    assert shown["What is the release called?"] == "What is the release called?"
    assert len(person.asked) == 4


def test_resume_answers_each_interrupt_by_its_id(person: Person):
    person.answers(by_kind(question=pick("SQLite"), **{"What is the release called?": fill({"answer": "v2"})}))
    graph = graph_of(name=ask_name, db=ask_db)
    config = {"configurable": {"thread_id": "r"}}
    first = graph.invoke({"out": []}, config)
    ids = {i.id for i in first["__interrupt__"]}
    command = asyncio.run(nl.resolve(first))
    assert isinstance(command, Command)
    assert set(command.resume) == ids
    assert outputs(graph.invoke(command, config)) == {
        "name": "v2",
        "db": {"answers": {"Which database should the app use?": "SQLite"}},
    }


def test_a_value_nbask_cannot_ask_is_named():
    graph = graph_of(db=lambda state: interrupt({"questions": [{"question": "Q?"}]}))
    with pytest.raises(ValueError, match=r"as AskUserQuestion: .*questions\[0\]\.options"):
        nl.run_sync(graph, {"out": []})
    with pytest.raises(TypeError, match="its value is int"):
        nl.run_sync(graph_of(n=lambda state: interrupt(3)), {"out": []})
    with pytest.raises(ValueError, match=r"config: needs configurable\.thread_id"):
        nl.run_sync(graph, {"out": []}, {"configurable": {}})


# -- HumanInTheLoopMiddleware in a create_agent agent -------------------------------------------

ran: list[str] = []


@tool
def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible)."""
    ran.append(name)
    return f"dropped {name}"


def call(name: str, call_id: str = "c1") -> dict[str, Any]:
    return {"name": "drop_table", "args": {"name": name}, "id": call_id}


def agent_of(allowed: list[str], mode: str, *calls: dict[str, Any]) -> tuple[Any, Scripted]:
    ran.clear()
    model = calling(*(calls or [call("events_2023")]), then="ok")
    middleware = HumanInTheLoopMiddleware(
        interrupt_on={"drop_table": {"allowed_decisions": allowed}},  # type: ignore[typeddict-item]
        interrupt_mode=mode,  # type: ignore[arg-type]
    )
    agent = create_agent(model, tools=[drop_table], middleware=[middleware], checkpointer=InMemorySaver())
    return agent, model


def tool_results(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m.content, m.status) for m in state["messages"] if isinstance(m, ToolMessage)]


USER = {"messages": [{"role": "user", "content": "Clean up the warehouse."}]}
ALL = ["approve", "edit", "reject", "respond"]
MODES = ["batched", "per_call"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "case",
    [
        (approve(), ALL, ["events_2023"], "dropped events_2023"),
        (edit({"name": "events_2022"}), ALL, ["events_2022"], "dropped events_2022"),
        (reject("keep it for the audit"), ALL, [], "with reason: keep it for the audit"),
        (reject("Use the archive table instead."), ["approve", "respond"], [], "Use the archive table instead."),
        (edit({"name": "x"}), ["approve", "reject"], [], "editing drop_table is not allowed here"),
        (edit("name = events_2022"), ALL, [], "the edited arguments are not valid JSON"),
        (edit('["events_2022"]'), ALL, [], "are a JSON array, not an object of argument names"),
        (approve(), ["edit", "reject"], ["events_2023"], "dropped events_2023"),
    ],
    ids=["approve", "edit", "reject", "respond", "edit-not-allowed", "edit-not-json", "edit-not-object", "as-edit"],
)
def test_a_person_decides_a_gated_tool_call(person: Person, mode, case):
    decide, allowed, expected_ran, expected = case
    person.answers(decide)
    agent, model = agent_of(allowed, mode)
    state = nl.run_sync(agent, USER, {"configurable": {"thread_id": "a"}})
    assert ran == expected_ran
    ((content, status),) = tool_results(state)
    assert expected in content
    assert status == ("success" if expected_ran or "reject" not in allowed else "error")
    assert content in [m.content for m in model.seen[-1]]  # what the model read in its next turn
    (asked,) = person.approvals
    assert asked.approval.action == "Call drop_table"
    details = asked.approval.details
    assert json.loads(details.split("\n\n")[0]) == {"name": "events_2023"}
    assert ("Editing is not allowed" in details) == ("edit" not in allowed)
    assert asked.tool_call_id == ("c1" if mode == "per_call" else None)


@pytest.mark.parametrize("mode", MODES)
def test_recommended_rejects_and_the_tool_never_runs(mode):
    nbask.configure(policy="recommended")
    agent, _ = agent_of(ALL, mode)
    state = asyncio.run(nl.run(agent, USER, {"configurable": {"thread_id": "h"}}))
    assert ran == []
    ((content, status),) = tool_results(state)
    assert status == "error"
    assert "rejected by policy, not by a person" in content
    assert nbask.history()[-1].outcome.answered_by == "policy"


@pytest.mark.parametrize("mode", MODES)
def test_several_calls_of_one_turn_are_decided_one_by_one(person: Person, mode):
    def decide(request: Request[Any]) -> Any:  # per-call interrupts come in no fixed order
        keep = json.loads(request.approval.details.split("\n\n")[0])["name"] == "events_2023"
        return (reject("not that one") if keep else approve())(request)

    person.answers(decide)
    agent, _ = agent_of(ALL, mode, call("events_2021", "c1"), call("events_2023", "c2"))
    state = asyncio.run(nl.run(agent, USER, {"configurable": {"thread_id": "b"}}))
    assert ran == ["events_2021"]
    assert sorted(c for c, _ in tool_results(state)) == [  # batched adds the rejection first
        "User rejected the tool call for `drop_table` with reason: not that one",
        "dropped events_2021",
    ]
    assert len(person.approvals) == 2


@pytest.mark.parametrize("mode", MODES)
def test_the_calls_of_one_turn_wait_together_as_one_batch(person: Person, mode):
    waiting_when_asked: list[list[str]] = []

    def decide(request: Request[Any]) -> Any:
        waiting_when_asked.append([r.request.request_id for r in manager().waiting()])
        return approve()(request)

    person.answers(decide)
    agent, _ = agent_of(ALL, mode, call("events_2021", "c1"), call("events_2023", "c2"))
    asyncio.run(nl.run(agent, USER, {"configurable": {"thread_id": "t"}}))
    assert sorted(ran) == ["events_2021", "events_2023"]
    ids = [request.request_id for request in person.approvals]
    assert len(ids) == 2
    # Both were shown before either was decided, and the history keeps them as one batch.
    assert sorted(waiting_when_asked[0]) == sorted(ids)
    entries = {entry.request_id: entry for entry in nbask.history()}
    batch_ids = {entries[request_id].outcome.batch_id for request_id in ids}
    assert len(batch_ids) == 1
    assert None not in batch_ids


def test_a_rejection_the_tool_cannot_take_stops_the_run(person: Person):
    person.answers(reject("no"))
    agent, _ = agent_of(["approve"], "batched")
    config = {"configurable": {"thread_id": "x"}}
    with pytest.raises(ApprovalRejected, match="no"):
        nl.run_sync(agent, USER, config)
    assert ran == []
    assert agent.get_state(config).interrupts  # still paused, for a later decision
    assert "Editing is not allowed" in person.approvals[0].approval.details


def test_a_per_call_edit_the_tool_schema_refuses_stops_the_run(person: Person):
    person.answers(edit({"name": 5}))  # LangGraph checks a per-call edit against the tool's arguments
    agent, _ = agent_of(ALL, "per_call")
    config = {"configurable": {"thread_id": "v"}}
    with pytest.raises(ValueError, match="response_schema refused the answer"):
        nl.run_sync(agent, USER, config)
    assert ran == []
    assert agent.get_state(config).interrupts


def test_a_per_call_approval_carries_the_tools_schema_and_a_bad_edit_is_refused(person: Person):
    refused: list[str] = []
    person.answers(through_the_kernels_check({"name": 5}, {"name": "events_2022"}, refused=refused))
    agent, _ = agent_of(ALL, "per_call")
    state = nl.run_sync(agent, USER, {"configurable": {"thread_id": "s"}})
    (asked,) = person.approvals
    schema = asked.approval.details_schema
    assert schema is not None
    assert schema["$ref"] == "#/$defs/drop_table"
    assert schema["$defs"]["drop_table"]["properties"]["name"]["type"] == "string"
    refusal = 'The edit was not accepted: argument "name" must be a string, not an integer.'
    assert refused == [refusal + " Fix the Details, then approve again."]
    assert ran == ["events_2022"], "only the fixed edit ran"
    ((content, status),) = tool_results(state)
    assert content.endswith("dropped events_2022")
    assert status == "success"


def test_an_edit_only_tool_carries_the_schema_too(person: Person):
    """With one decision the response_schema is the plain EditDecision, not a union."""
    person.answers(approve())
    agent, _ = agent_of(["edit"], "per_call")
    nl.run_sync(agent, USER, {"configurable": {"thread_id": "e"}})
    (asked,) = person.approvals
    assert asked.approval.details_schema is not None
    assert asked.approval.details_schema["$ref"] == "#/$defs/drop_table"
    assert ran == ["events_2023"]


@pytest.mark.parametrize(("mode", "allowed"), [("batched", ALL), ("per_call", ["approve", "reject"])])
def test_no_schema_where_the_middleware_gives_none_or_no_edit_is_allowed(person: Person, mode: str, allowed: list[str]):
    person.answers(approve())
    agent, _ = agent_of(allowed, mode)
    nl.run_sync(agent, USER, {"configurable": {"thread_id": "n"}})
    (asked,) = person.approvals
    assert asked.approval.details_schema is None


# -- in a real kernel, answered through the widget -------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import kernel_fixture, printed_json  # noqa: E402

KERNEL_SETUP = (
    f"""
import sys
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
from langchain_scripted import calling
"""
    r'''
import json, operator
from typing import Annotated
from typing_extensions import TypedDict
from pydantic import BaseModel
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import interrupt
from nbask.integrations.langgraph import run

ran = []

@tool
def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible)."""
    ran.append(name)
    return f"dropped {name}"

def agent(mode):
    ran.clear()
    gate = HumanInTheLoopMiddleware(interrupt_on={"drop_table": True}, interrupt_mode=mode)
    model = calling({"name": "drop_table", "args": {"name": "events_2023"}, "id": "c1"}, then="ok")
    return create_agent(model, tools=[drop_table], middleware=[gate], checkpointer=InMemorySaver())

class Deploy(BaseModel):
    region: str = "eu"
    replicas: int = 2

class State(TypedDict, total=False):
    out: Annotated[list, operator.add]

DB = {"questions": [{"question": "Which database should the app use?", "header": "DB",
                     "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}]}]}
builder = StateGraph(State)
builder.add_node("db", lambda state: {"out": [interrupt(DB)]})
deploy = lambda state: {"out": [interrupt("Deployment settings", response_schema=Deploy).model_dump()]}
builder.add_node("deploy", deploy)
builder.add_edge(START, "db")
builder.add_edge("db", "deploy")
graph = builder.compile(checkpointer=InMemorySaver())
'''
)
AGENT_CELL = """\
state = await run(agent({mode!r}), {{"messages": [{{"role": "user", "content": "Clean up."}}]}})
print(json.dumps({{"ran": ran, "tool": [m.content for m in state["messages"] if isinstance(m, ToolMessage)]}}))
"""
GRAPH_CELL = 'print(json.dumps((await run(graph, {"out": []}))["out"]))'


k = kernel_fixture(KERNEL_SETUP)


def widget(k: Any, **state: Any) -> Any:
    """The comm_open of the nbask widget whose state has ``state``."""
    wanted = {f"_{name}": value for name, value in state.items()}  # the wire's private names
    return k.wait_for_comm_open(predicate=lambda c: all(c.state.get(n) == v for n, v in wanted.items()), timeout=30)


def send(k: Any, comm: Any, response: dict[str, Any]) -> None:
    k.update_widget(comm.comm_id, {"_response": {**response, "view_id": "t", "sent_at_ms": 0}})


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("mode", "response", "expected"),
    [
        ("per_call", {"action": "approve", "edited_details": None, "reason": ""}, (["events_2023"], "dropped")),
        (
            "batched",
            {"action": "approve", "edited_details": '{"name": "events_2022"}', "reason": ""},
            (["events_2022"], "dropped"),
        ),
        ("batched", {"action": "reject", "edited_details": None, "reason": "keep it"}, ([], "with reason: keep it")),
    ],
    ids=["approve", "edit", "reject"],
)
def test_the_widget_decides_a_gated_tool_call(k: Any, mode: str, response: dict[str, Any], expected: Any):
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(AGENT_CELL.format(mode=mode))
    approval = widget(k, kind="approval", title="Call drop_table")
    assert json.loads(approval.state["_details"]) == {"name": "events_2023"}
    send(k, approval, response)
    out = printed_json(k.result(cell, 60))
    expected_ran, said = expected
    assert out["ran"] == expected_ran
    (tool_result,) = out["tool"]
    assert said in tool_result
    if expected_ran:
        assert tool_result.endswith(f"dropped {expected_ran[0]}")


@pytest.mark.kernel
def test_the_widget_answers_a_question_then_a_form(k: Any):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(GRAPH_CELL)
    question = k.wait_for_comm_open(predicate=lambda c: bool(c.state.get("_questions")), timeout=30)
    assert question.state["_questions"][0]["question"] == "Which database should the app use?"
    send(k, question, {"action": "submit", "answers": [{"selected": ["SQLite"], "other": None}]})
    form = widget(k, kind="form", message="Deployment settings")
    assert [f["name"] for f in form.state["_fields"]] == ["region", "replicas"]
    send(k, form, {"action": "submit", "values": {"region": "us", "replicas": 3}})
    assert printed_json(k.result(cell, 60)) == [
        {"answers": {"Which database should the app use?": "SQLite"}},
        {"region": "us", "replicas": 3},
    ]
