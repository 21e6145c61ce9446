"""The interrupt patterns LangGraph's docs teach, run by ``nbask.integrations.langgraph.run`` in a
real kernel and answered through the widget: the test plays the front end with
tests/support/kernel.py, sending the comm messages the widget sends, and the cell prints what
``interrupt()`` returned in the node.

Runs on the ipykernel 7.4 kernel, which uses the project environment's python (where LangGraph
is installed).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from support.person import REPO

pytest.importorskip("langgraph")
pytestmark = pytest.mark.kernel

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CellResult, CommInfo, KernelHarness, kernel_fixture  # noqa: E402

KERNEL = "nbask-ipykernel-7.4"
QUESTION = "Do you want to proceed with this action?"
INSTRUCTION = "Review and edit this content"
DRAFT = "Release notes\n\n- faster start\n- fewer prompts"

SETUP = r"""
import json
from typing import Any, Literal
from typing_extensions import TypedDict
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from nbask.integrations.langgraph import run

class State(TypedDict, total=False):
    action_details: Any
    status: str
    answer: Any
    generated_text: str
    age: Any
    pending_question: Any

def approval_node(state) -> Command[Literal["proceed", "cancel"]]:
    is_approved = interrupt({"question": "Do you want to proceed with this action?",
                             "details": state["action_details"]})
    return Command(goto="proceed" if is_approved else "cancel", update={"answer": is_approved})

def review_node(state):
    return {"generated_text": interrupt({"instruction": "Review and edit this content",
                                         "content": state["generated_text"]})}

def get_age_node(state):
    answer = interrupt(state.get("pending_question") or "What is your age?")
    if isinstance(answer, int) and answer > 0:
        return {"age": answer, "pending_question": None}
    return {"pending_question": f"'{answer}' is not a valid age. Please enter a positive number."}

def get_age_loop_node(state):
    # the docs' own form: the loop inside the node, one interrupt per try
    prompt, answers = "What is your age?", []
    while True:
        answer = interrupt(prompt)
        answers.append(answer)
        if isinstance(answer, int) and answer > 0:
            break
        prompt = f"'{answer}' is not a valid age. Please enter a positive number."
    return {"age": answer, "answer": answers}

def string_approval_node(state):
    return {"answer": interrupt("Do you approve this action?")}

from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.graph import MessagesState
from langgraph.prebuilt import ToolNode
from pydantic import BaseModel

@tool
def send_email(to: str, subject: str, body: str):
    'Send an email to a recipient.'
    response = interrupt({"action": "send_email", "to": to, "subject": subject, "body": body,
                          "message": "Approve sending this email?"})
    if response.get("action") == "approve":
        return f"Email sent to {response.get('to', to)} with subject '{response.get('subject', subject)}'"
    return "Email cancelled by user"

def email_graph():
    call = {"name": "send_email", "id": "call_1",
            "args": {"to": "alice@example.com", "subject": "Meeting", "body": "See you at 10."}}
    builder = StateGraph(MessagesState)
    builder.add_node("agent", lambda state: {"messages": [AIMessage("", tool_calls=[call])]})
    builder.add_node("tools", ToolNode([send_email]))
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "tools")
    return builder.compile(checkpointer=InMemorySaver())

class Decision(BaseModel):
    approved: bool
    note: str | None = None

def decision_node(state):
    return {"answer": interrupt({"question": "Approve the release?"}, response_schema=Decision).model_dump()}

def graph(name):
    builder = StateGraph(State)
    if name == "approval":
        builder.add_node("approval", approval_node)
        builder.add_node("proceed", lambda state: {"status": "approved"})
        builder.add_node("cancel", lambda state: {"status": "rejected"})
        builder.add_edge(START, "approval")
    elif name == "review":
        builder.add_node("review", review_node)
        builder.add_edge(START, "review")
    elif name == "age":
        builder.add_node("get_age", get_age_node)
        builder.add_edge(START, "get_age")
        builder.add_conditional_edges("get_age", lambda state: END if state.get("age") is not None else "get_age")
    elif name == "age-loop":
        builder.add_node("get_age", get_age_loop_node)
        builder.add_edge(START, "get_age")
    elif name == "decision":
        builder.add_node("decision", decision_node)
        builder.add_edge(START, "decision")
    else:
        builder.add_node("approval_node", string_approval_node)
        builder.add_edge(START, "approval_node")
    return builder.compile(checkpointer=InMemorySaver())
"""


k = kernel_fixture(SETUP)


def start(k: KernelHarness, cell: str) -> str:
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    return k.execute(cell)


def widget(k: KernelHarness, **state: Any) -> CommInfo:
    """The comm_open of the nbask widget whose wire state has ``state`` (names without their "_")."""
    wanted = {f"_{name}": value for name, value in state.items()}  # the wire's private names
    return k.wait_for_comm_open(predicate=lambda c: all(c.state.get(n) == v for n, v in wanted.items()), timeout=30)


def send(k: KernelHarness, comm: CommInfo, response: dict[str, Any]) -> None:
    k.update_widget(comm.comm_id, {"_response": {**response, "view_id": "t", "sent_at_ms": 0}})


def decide(action: str, edited: str | None = None, reason: str = "") -> dict[str, Any]:
    return {"action": action, "edited_details": edited, "reason": reason}


def printed(result: CellResult) -> Any:
    assert result.ok, f"{result.error_text}\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("action", "expected"), [("approve", [True, "approved"]), ("reject", [False, "rejected"])])
def test_approve_or_reject_through_the_widget(k: KernelHarness, action: str, expected: list[Any]):
    cell = start(
        k,
        'state = await run(graph("approval"), {"action_details": "Transfer $500"})\n'
        'print(json.dumps([state["answer"], state["status"]]))',
    )
    approval = widget(k, kind="approval", title=QUESTION)
    assert approval.state["_details"] == "Transfer $500"
    send(k, approval, decide(action, reason="" if action == "approve" else "not now"))
    assert printed(k.result(cell, 60)) == expected


def test_review_and_edit_through_the_widget(k: KernelHarness):
    cell = start(
        k,
        f'state = await run(graph("review"), {{"generated_text": {DRAFT!r}}})\n'
        'print(json.dumps(state["generated_text"]))',
    )
    review = widget(k, kind="approval", title=INSTRUCTION)
    assert review.state["_details"] == DRAFT
    send(k, review, decide("approve", "Release notes\n\n- faster start"))
    assert printed(k.result(cell, 60)) == "Release notes\n\n- faster start"


def test_validate_and_re_ask_through_the_widget(k: KernelHarness):
    cell = start(k, 'print(json.dumps((await run(graph("age"), {"age": None}, resume_type=int))["age"]))')
    first = widget(k, kind="form", message="What is your age?")
    assert [(f["name"], f["type"]) for f in first.state["_fields"]] == [("answer", "integer")]
    send(k, first, {"action": "submit", "values": {"answer": -5}})
    again = widget(k, kind="form", message="'-5' is not a valid age. Please enter a positive number.")
    send(k, again, {"action": "submit", "values": {"answer": 30}})
    assert printed(k.result(cell, 60)) == 30


def test_validate_in_a_loop_inside_the_node_through_the_widget(k: KernelHarness):
    """The docs' in-node loop: its second and third interrupt (each a form of its own, the node
    run again from its start on each resume) are answered through the widget, in order.
    """
    cell = start(k, 'state = await run(graph("age-loop"), {}, resume_type=int)\nprint(json.dumps(state["answer"]))')
    first = widget(k, kind="form", message="What is your age?")
    assert [(f["name"], f["type"]) for f in first.state["_fields"]] == [("answer", "integer")]
    send(k, first, {"action": "submit", "values": {"answer": -5}})
    second = widget(k, kind="form", message="'-5' is not a valid age. Please enter a positive number.")
    send(k, second, {"action": "submit", "values": {"answer": 0}})
    third = widget(k, kind="form", message="'0' is not a valid age. Please enter a positive number.")
    assert len({first.comm_id, second.comm_id, third.comm_id}) == 3
    send(k, third, {"action": "submit", "values": {"answer": 30}})
    assert printed(k.result(cell, 60)) == [-5, 0, 30]


@pytest.mark.parametrize(("action", "expected"), [("approve", True), ("reject", False)])
def test_a_string_approval_with_resume_type_bool_through_the_widget(k: KernelHarness, action: str, expected: bool):
    cell = start(k, 'print(json.dumps((await run(graph("string"), {}, resume_type=bool))["answer"]))')
    send(k, widget(k, kind="approval", title="Do you approve this action?"), decide(action))
    assert printed(k.result(cell, 60)) is expected


def test_a_string_approval_as_the_docs_write_it_is_a_yes_or_no_through_the_widget(k: KernelHarness):
    """No resume_type: the prompt asks for approval, so the card is an approval and No resumes False."""
    cell = start(k, 'print(json.dumps((await run(graph("string"), {}))["answer"]))')
    send(k, widget(k, kind="approval", title="Do you approve this action?"), decide("reject"))
    assert printed(k.result(cell, 60)) is False


def test_an_interrupt_inside_a_tool_through_the_widget(k: KernelHarness):
    """The docs' send_email tool run by a ToolNode: the fields shown as JSON, an edit with a field
    the tool did not ask about refused by the kernel (the approval stays open), then an edit of
    the subject reaching the tool as {"action": "approve", ...}.
    """
    cell = start(k, 'print(json.dumps((await run(email_graph(), {"messages": []}))["messages"][-1].content))')
    comm = widget(k, kind="approval", title="Approve sending this email?")
    email = {"to": "alice@example.com", "subject": "Meeting", "body": "See you at 10."}
    assert json.loads(comm.state["_details"]) == email
    assert comm.state["_details_schema"]["required"] == ["to", "subject", "body"]
    send(k, comm, decide("approve", json.dumps({**email, "cc": "bob@example.com"})))
    error = k.wait_for_state(comm.comm_id, lambda state: bool(state.get("_error")))["_error"]
    assert '"cc"' in error
    assert not k.has_reply(cell)
    send(k, comm, decide("approve", json.dumps({**email, "subject": "Updated subject"})))
    assert printed(k.result(cell, 60)) == "Email sent to alice@example.com with subject 'Updated subject'"


def test_the_docs_decision_form_with_its_optional_note_through_the_widget(k: KernelHarness):
    """``note: str | None = None`` is a text field that is not required: left blank (js/kinds/form/fields.ts
    leaves the key out), the node's Decision has note None.
    """
    cell = start(k, 'print(json.dumps((await run(graph("decision"), {}))["answer"]))')
    comm = widget(k, kind="form", message="Approve the release?")
    fields = [(f["name"], f["type"], f["required"]) for f in comm.state["_fields"]]
    assert fields == [("approved", "boolean", True), ("note", "string", False)]
    send(k, comm, {"action": "submit", "values": {"approved": True}})
    assert printed(k.result(cell, 60)) == {"approved": True, "note": None}


PARALLEL = r"""
import operator
from typing import Annotated

class Votes(TypedDict, total=False):
    votes: Annotated[list, operator.add]

def voter(name):
    return lambda state: {"votes": [[name, interrupt(f"Approve the {name} migration?")]]}

builder = StateGraph(Votes)
for name in ("billing", "search"):
    builder.add_node(name, voter(name))
    builder.add_edge(START, name)
parallel = builder.compile(checkpointer=InMemorySaver())
state = await run(parallel, {}, resume_type=bool)
print(json.dumps({"votes": sorted(state["votes"]),
                  "batches": len({e.outcome.batch_id for e in nbask.history()[-2:]} - {None})}))
"""


def test_parallel_interrupts_are_shown_together_and_resumed_once(k: KernelHarness):
    """Two nodes interrupt in the same step: both questions wait together (one batch), are
    answered in any order, and the graph resumes once with both answers.
    """
    cell = start(k, "import nbask\n" + PARALLEL)
    billing = widget(k, kind="approval", title="Approve the billing migration?")
    search = widget(k, kind="approval", title="Approve the search migration?")
    for comm in (billing, search):
        k.wait_until_waiting(comm)
    send(k, search, decide("reject", reason="not today"))
    send(k, billing, decide("approve"))
    assert printed(k.result(cell, 60)) == {"votes": [["billing", True], ["search", False]], "batches": 1}
