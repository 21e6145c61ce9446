"""The interrupt patterns LangGraph's docs teach ("Interrupts": approve or reject, review and edit,
validating human input, and a plain string prompt used as an approval), each in a real
StateGraph with an InMemorySaver, answered by a scripted person, by the headless policies and
by a JSONL replay. Each test checks the exact value ``interrupt()`` returned in the node (its
type too), where the graph went, and what nbask showed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any, Literal

import pytest

pytest.importorskip("langgraph")

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from pydantic import BaseModel
from support.person import Decide, Person, approve, cancel, dismiss, edit, reject
from typing_extensions import TypedDict

import nbask
from nbask.core.manager import manager
from nbask.errors import ReplayMissing
from nbask.integrations import langgraph as nl
from nbask.integrations.langgraph import _values as nl_values
from nbask.kinds import ApprovalRequest, FormRequest

QUESTION = "Do you want to proceed with this action?"
INSTRUCTION = "Review and edit this content"
DRAFT = "Release notes\n\n- faster start\n- fewer prompts"


class State(TypedDict, total=False):
    action_details: Any
    status: str
    answer: Any
    generated_text: str
    age: int | None
    pending_question: str | None
    tries: int


def compiled(builder: StateGraph[Any]) -> Any:
    return builder.compile(checkpointer=InMemorySaver())


# -- the docs' graphs ---------------------------------------------------------------------------


def approval_graph() -> Any:
    """Approve or reject: route on the truth of what interrupt() returned."""

    def approval_node(state: State) -> Command[Literal["proceed", "cancel"]]:
        is_approved = interrupt({"question": QUESTION, "details": state["action_details"]})
        if is_approved:
            return Command(goto="proceed", update={"answer": is_approved})
        return Command(goto="cancel", update={"answer": is_approved})

    builder = StateGraph(State)
    builder.add_node("approval", approval_node)
    builder.add_node("proceed", lambda state: {"status": "approved"})
    builder.add_node("cancel", lambda state: {"status": "rejected"})
    builder.add_edge(START, "approval")
    builder.add_edge("proceed", END)
    builder.add_edge("cancel", END)
    return compiled(builder)


def review_graph() -> Any:
    """Review and edit: the node keeps whatever text interrupt() returned."""

    def review_node(state: State) -> State:
        edited_content = interrupt({"instruction": INSTRUCTION, "content": state["generated_text"]})
        return {"generated_text": edited_content}

    builder = StateGraph(State)
    builder.add_node("review", review_node)
    builder.add_edge(START, "review")
    builder.add_edge("review", END)
    return compiled(builder)


def age_graph() -> Any:
    """Validating human input, the docs' way: one interrupt per run of the node, the re-ask's
    question kept in state, a conditional edge back until the answer is a positive int.
    """

    def get_age_node(state: State) -> State:
        question = state.get("pending_question") or "What is your age?"
        answer = interrupt(question)
        if isinstance(answer, int) and not isinstance(answer, bool) and answer > 0:
            return {"age": answer, "pending_question": None}
        return {"pending_question": f"'{answer}' is not a valid age. Please enter a positive number."}

    builder = StateGraph(State)
    builder.add_node("get_age", get_age_node)
    builder.add_edge(START, "get_age")
    builder.add_conditional_edges("get_age", lambda state: END if state.get("age") is not None else "get_age")
    return compiled(builder)


def same_prompt_age_graph() -> Any:
    """A node that re-asks with the very same prompt until the answer is valid."""

    def ask(state: State) -> State:
        answer = interrupt("What is your age?")
        tries = state.get("tries", 0) + 1
        return {"age": answer, "tries": tries} if isinstance(answer, int) and answer > 0 else {"tries": tries}

    builder = StateGraph(State)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    builder.add_conditional_edges("ask", lambda state: END if state.get("age") else "ask")
    return compiled(builder)


def string_approval_graph() -> Any:
    """The docs' first example: a plain string prompt whose answer the node treats as approval."""

    def approval_node(state: State) -> State:
        approved = interrupt("Do you approve this action?")
        return {"answer": approved, "status": "approved" if approved else "rejected"}

    builder = StateGraph(State)
    builder.add_node("approval_node", approval_node)
    builder.add_edge(START, "approval_node")
    return compiled(builder)


def thread(name: str = "t") -> dict[str, Any]:
    return {"configurable": {"thread_id": name}}


def fill(values: dict[str, Any]) -> Decide:
    return lambda request: request.decide(values)


def recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, decisions: list[Decide], run: Any) -> Person:
    """Run once answered by a scripted person, save the history as JSONL, then replay from it."""
    person = Person().answers(*decisions)
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        with contextlib.suppress(nl.InterruptNotAnswered):  # a recording may end on a request not answered
            run()
    saved = nbask.save_history(tmp_path / "answers.jsonl")
    manager().clear_history()
    nbask.configure(policy="replay", replay_file=saved)
    return person


def answered_by() -> list[str]:
    return [entry.outcome.answered_by for entry in nbask.history()]


# -- approve or reject --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decide", "expected"),
    [(approve(), True), (reject("too much"), False), (dismiss(), False), (edit("Transfer $50"), False)],
    ids=["approve", "reject", "dismiss", "edit"],
)
def test_approve_or_reject_resumes_with_a_bool(person: Person, decide: Decide, expected: bool):
    person.answers(decide)
    state = nl.run_sync(approval_graph(), {"action_details": "Transfer $500"}, thread())
    assert state["answer"] is expected
    assert state["status"] == ("approved" if expected else "rejected")
    (asked,) = person.asked
    assert isinstance(asked, ApprovalRequest)
    assert (asked.approval.action, asked.approval.details) == (QUESTION, "Transfer $500")


def test_approval_details_that_are_not_text_are_shown_as_json(person: Person):
    person.answers(approve())
    details = {"amount": 500, "to": "ACME"}
    state = asyncio.run(nl.run(approval_graph(), {"action_details": details}, thread()))
    assert state["answer"] is True
    assert json.loads(person.approvals[0].approval.details) == details


@pytest.mark.parametrize("policy", ["recommended", "dismiss", "error"])
def test_no_one_to_approve_is_a_rejection_kept_in_the_history(policy: str):
    nbask.configure(policy=policy)
    state = nl.run_sync(approval_graph(), {"action_details": "Transfer $500"}, thread())
    assert (state["answer"], state["status"]) == (False, "rejected")
    (entry,) = nbask.history()
    assert entry.kind == "approval"
    assert entry.outcome.decision == "reject"


def test_approve_or_reject_replays(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    recorded(monkeypatch, tmp_path, [approve()], lambda: nl.run_sync(approval_graph(), {"action_details": "x"}))
    state = nl.run_sync(approval_graph(), {"action_details": "x"}, thread("replayed"))
    assert (state["answer"], state["status"]) == (True, "approved")
    assert answered_by() == ["replay"]


# -- review and edit ----------------------------------------------------------------------------


def test_review_shows_the_content_to_edit_and_resumes_with_the_edited_text(person: Person):
    person.answers(edit("Release notes\n\n- faster start"))
    state = nl.run_sync(review_graph(), {"generated_text": DRAFT}, thread())
    assert state["generated_text"] == "Release notes\n\n- faster start"
    (asked,) = person.approvals
    assert (asked.approval.action, asked.approval.details) == (INSTRUCTION, DRAFT)


def test_review_approved_unchanged_resumes_with_the_content(person: Person):
    person.answers(approve())
    state = nl.run_sync(review_graph(), {"generated_text": DRAFT}, thread())
    assert state["generated_text"] == DRAFT


@pytest.mark.parametrize("decide", [reject("start over"), dismiss()], ids=["reject", "dismiss"])
def test_review_not_accepted_leaves_the_graph_paused(person: Person, decide: Decide):
    person.answers(decide)
    graph = review_graph()
    with pytest.raises(nl.InterruptNotAnswered, match="was not answered"):
        nl.run_sync(graph, {"generated_text": DRAFT}, thread())
    assert [i.value["content"] for i in graph.get_state(thread()).interrupts] == [DRAFT]


def test_review_with_no_one_to_ask_does_not_go_on_unreviewed():
    nbask.configure(policy="recommended")
    with pytest.raises(nl.InterruptNotAnswered, match="rejected by policy"):
        nl.run_sync(review_graph(), {"generated_text": DRAFT}, thread())
    assert answered_by() == ["policy"]


def test_review_replays_the_edit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    run = lambda: nl.run_sync(review_graph(), {"generated_text": DRAFT})  # noqa: E731
    recorded(monkeypatch, tmp_path, [edit("Shorter notes")], run)
    assert run()["generated_text"] == "Shorter notes"
    assert answered_by() == ["replay"]


# -- validating human input ---------------------------------------------------------------------


@pytest.mark.parametrize("resume_type", [int, {"get_age": int}], ids=["one-type", "by-node"])
def test_a_typed_answer_ends_the_re_asking(person: Person, resume_type: Any):
    person.answers(fill({"answer": -5}), fill({"answer": 30}))
    state = nl.run_sync(age_graph(), {"age": None}, thread(), resume_type=resume_type)
    assert state["age"] == 30
    assert type(state["age"]) is int
    messages = [r.form.message for r in person.asked if isinstance(r, FormRequest)]
    assert messages == ["What is your age?", "'-5' is not a valid age. Please enter a positive number."]
    assert [r.form.fields[0].type for r in person.asked] == ["integer", "integer"]


def test_without_a_resume_type_a_string_prompt_resumes_with_the_text(person: Person):
    """The default is str, as typed: "30" is not the int the docs' node checks for, so it re-asks."""
    person.answers(fill({"answer": "30"}), cancel())
    with pytest.raises(nl.InterruptNotAnswered):
        nl.run_sync(age_graph(), {"age": None}, thread())
    assert person.asked[1].form.message == "'30' is not a valid age. Please enter a positive number."
    assert person.asked[0].form.fields[0].type == "string"


def test_a_typed_prompt_with_no_one_to_answer_stays_paused():
    nbask.configure(policy="recommended")
    graph = age_graph()
    with pytest.raises(nl.InterruptNotAnswered, match="required field 'answer' has no default"):
        nl.run_sync(graph, {"age": None}, thread(), resume_type=int)
    assert [i.value for i in graph.get_state(thread()).interrupts] == ["What is your age?"]


def test_a_re_asking_run_replays_its_answers_in_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    run = lambda: nl.run_sync(same_prompt_age_graph(), {}, resume_type=int)  # noqa: E731
    recorded(monkeypatch, tmp_path, [fill({"answer": -5}), fill({"answer": 30})], run)
    state = run()
    assert (state["age"], state["tries"]) == (30, 2)
    assert answered_by() == ["replay", "replay"]


def test_a_replay_of_only_invalid_answers_misses_instead_of_looping(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    run = lambda: nl.run_sync(same_prompt_age_graph(), {}, thread("r"), resume_type=int)  # noqa: E731
    recorded(monkeypatch, tmp_path, [fill({"answer": -5}), fill({"answer": -7}), cancel()], run)
    with pytest.raises(ReplayMissing, match="asked again"):
        nl.run_sync(same_prompt_age_graph(), {}, thread("replayed"), resume_type=int)
    assert answered_by() == ["replay", "replay"]


def test_a_docs_re_ask_replays_to_the_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    run = lambda: nl.run_sync(age_graph(), {"age": None}, resume_type={"get_age": int})  # noqa: E731
    recorded(monkeypatch, tmp_path, [fill({"answer": -5}), fill({"answer": 30})], run)
    assert run()["age"] == 30


def test_resume_type_names_are_checked():
    with pytest.raises(ValueError, match=r"resume_type: 'age' is not a node of this graph \(its nodes: 'get_age'\)"):
        nl.run_sync(age_graph(), {"age": None}, thread(), resume_type={"age": int})
    with pytest.raises(TypeError, match="resume_type: must be str, bool, int, float or a pydantic model class"):
        nl.run_sync(age_graph(), {"age": None}, thread(), resume_type=list)
    graph = age_graph()
    first = graph.invoke({"age": None}, thread("m"))
    with pytest.raises(ValueError, match=r"pass graph\.get_state\(config\)"):
        nl.resolve_sync(first, resume_type={"get_age": int})


def test_resume_reads_the_node_of_each_interrupt_from_the_state(person: Person):
    person.answers(fill({"answer": 41}))
    graph = age_graph()
    graph.invoke({"age": None}, thread("s"))
    command = nl.resolve_sync(graph.get_state(thread("s")), resume_type={"get_age": int})
    assert list(command.resume.values()) == [41]
    assert graph.invoke(command, thread("s"))["age"] == 41


# -- a string prompt used as an approval ----------------------------------------------------------


@pytest.mark.parametrize(("decide", "expected"), [(approve(), True), (reject("no"), False)], ids=["yes", "no"])
def test_a_string_approval_with_resume_type_bool(person: Person, decide: Decide, expected: bool):
    person.answers(decide)
    state = nl.run_sync(string_approval_graph(), {}, thread(), resume_type=bool)
    assert state["answer"] is expected
    assert person.approvals[0].approval.action == "Do you approve this action?"


def test_a_string_approval_is_false_with_no_one_to_ask_and_replays(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    nbask.configure(policy="recommended")
    assert nl.run_sync(string_approval_graph(), {}, resume_type=bool)["answer"] is False
    manager().clear_history()
    recorded(monkeypatch, tmp_path, [approve()], lambda: nl.run_sync(string_approval_graph(), {}, resume_type=bool))
    assert nl.run_sync(string_approval_graph(), {}, resume_type=bool)["answer"] is True
    assert answered_by() == ["replay"]


@pytest.mark.parametrize(("decide", "expected"), [(approve(), True), (reject("no"), False)], ids=["yes", "no"])
def test_a_string_approval_as_the_docs_write_it_resumes_a_bool(person: Person, decide: Decide, expected: bool):
    """The docs' node, run as written (no resume_type): a person's "no" never resumes as approval."""
    person.answers(decide)
    state = nl.run_sync(string_approval_graph(), {}, thread())
    assert state["answer"] is expected
    assert state["status"] == ("approved" if expected else "rejected")
    (asked,) = person.asked
    assert isinstance(asked, ApprovalRequest)
    assert asked.approval.action == "Do you approve this action?"


def test_a_string_approval_as_the_docs_write_it_is_never_approved_unattended():
    nbask.configure(policy="recommended")
    state = nl.run_sync(string_approval_graph(), {}, thread())
    assert (state["answer"], state["status"]) == (False, "rejected")
    assert answered_by() == ["policy"]


def test_resume_type_str_keeps_a_string_approval_as_text(person: Person):
    person.answers(fill({"answer": "only on Fridays"}))
    state = nl.run_sync(string_approval_graph(), {}, thread(), resume_type=str)
    assert state["answer"] == "only on Fridays"
    assert isinstance(person.asked[0], FormRequest)


@pytest.mark.parametrize(
    ("prompt", "approving"),
    [
        ("Do you approve this action?", True),
        ("Proceed with the deletion?", True),
        ("Should I continue?", True),
        ("Are you sure?", True),
        ("OK to send the email to the whole team?", True),
        ("What is your name?", False),
        ("What should the approval step be called?", False),
        ("Do you want tea or coffee?", False),
        ("Approve this", False),
        ("This deletes 3 files from the build folder. Proceed?", True),
        ("Send the report to a.b@example.com?\n\nAre you sure?", True),
        ("Do you approve? Say why.", False),
        ("The plan is ready. What should I name it?", False),
    ],
)
def test_which_plain_prompts_ask_for_approval(prompt: str, approving: bool):
    assert nl_values.asks_for_approval(prompt) is approving


def test_another_plain_prompt_still_gets_the_typed_text(person: Person):
    def name_node(state: State) -> State:
        return {"answer": interrupt("What is your name?")}

    builder = StateGraph(State)
    builder.add_node("name", name_node)
    builder.add_edge(START, "name")
    person.answers(fill({"answer": "no"}))
    assert nl.run_sync(compiled(builder), {}, thread())["answer"] == "no"
    assert isinstance(person.asked[0], FormRequest)


# -- typed values and schemas -------------------------------------------------------------------


class Deploy(BaseModel):
    region: str = "eu"
    replicas: int = 2


def one_interrupt_graph(node: Any) -> Any:
    builder = StateGraph(State)
    builder.add_node("node", lambda state: {"answer": node()})
    builder.add_edge(START, "node")
    return compiled(builder)


def test_a_pydantic_resume_type_resumes_with_the_models_json_values(person: Person):
    """The values the model validated (its defaults filled in), as JSON data any checkpointer keeps."""
    person.answers(fill({"region": "us"}))
    state = nl.run_sync(one_interrupt_graph(lambda: interrupt("Deployment settings")), {}, resume_type=Deploy)
    assert state["answer"] == {"region": "us", "replicas": 2}
    assert [f.name for f in person.asked[0].form.fields] == ["region", "replicas"]


def test_a_float_resume_type_resumes_with_a_float(person: Person):
    person.answers(fill({"answer": 2}))
    state = nl.run_sync(one_interrupt_graph(lambda: interrupt("Scale factor?")), {}, resume_type=float)
    assert state["answer"] == 2.0
    assert type(state["answer"]) is float


@pytest.mark.parametrize(
    ("schema", "decide", "expected", "kind"),
    [
        (int, fill({"answer": 7}), 7, FormRequest),
        (bool, approve(), True, ApprovalRequest),
        (bool, reject(), False, ApprovalRequest),
        (Literal["eu", "us"], fill({"answer": "us"}), "us", FormRequest),
    ],
    ids=["int", "bool-yes", "bool-no", "choice"],
)
def test_a_scalar_response_schema(person: Person, schema: Any, decide: Decide, expected: Any, kind: type):
    person.answers(decide)
    graph = one_interrupt_graph(lambda: interrupt("How many?", response_schema=schema))
    state = nl.run_sync(graph, {})
    assert state["answer"] == expected
    assert type(state["answer"]) is type(expected)
    assert isinstance(person.asked[0], kind)


class Decision(BaseModel):  # the docs' own model
    approved: bool
    note: str | None = None


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"approved": True}, Decision(approved=True, note=None)),
        ({"approved": True, "note": ""}, Decision(approved=True, note=None)),
        ({"approved": False, "note": "next week"}, Decision(approved=False, note="next week")),
    ],
    ids=["note-left-out", "note-blank", "with-a-note"],
)
def test_the_docs_approval_with_a_response_schema_asks_the_question_as_a_form(
    person: Person, values: dict[str, Any], expected: Decision
):
    """The optional note (``str | None``, pydantic's anyOf [string, null]) is a text field that
    is not required; left blank it reaches the node as None.
    """
    person.answers(fill(values))
    state = nl.run_sync(one_interrupt_graph(lambda: interrupt({"question": "approve?"}, response_schema=Decision)), {})
    assert state["answer"] == expected
    assert type(state["answer"]) is Decision
    (asked,) = person.asked
    assert asked.form.message == "approve?"
    assert [(f.name, f.type, f.required) for f in asked.form.fields] == [
        ("approved", "boolean", True),
        ("note", "string", False),
    ]


# -- shapes nbask does not read -------------------------------------------------------------------


def test_an_unknown_dict_names_the_shapes_nbask_reads():
    value = {"question": "Enter user details", "fields": ["name", "email"], "current_values": {}}
    with pytest.raises(ValueError, match="not in a shape nbask can ask") as raised:
        nl.run_sync(one_interrupt_graph(lambda: interrupt(value)), {})
    message = str(raised.value)
    assert "its keys: 'question', 'fields', 'current_values'" in message
    for shape in ("HumanInTheLoopMiddleware", '"question"', '"instruction"', '"action"', "AskUserQuestion"):
        assert shape in message
    assert "response_schema" in message
    assert "options" not in message  # no dialect's field complaints about a value that is no dialect's


def test_a_review_of_content_that_is_not_text_is_not_read_as_a_review():
    value = {"instruction": "Check", "content": {"a": 1}}
    with pytest.raises(ValueError, match=r"its keys: 'instruction', 'content'"):
        nl.run_sync(one_interrupt_graph(lambda: interrupt(value)), {})
