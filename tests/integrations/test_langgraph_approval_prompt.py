"""A plain string interrupt that asks for approval, as LangGraph's docs write it
(``approved = interrupt("Do you approve this action?")``, then routing on ``if approved``): a
person's "no" resumes ``False`` and the graph takes its cancel path, whatever card the person was
shown; a policy never approves it; other prompts, and ``resume_type=str``, keep the typed text.
Each runs LangGraph's own StateGraph with an InMemorySaver through ``run`` or ``run_sync``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import pytest

pytest.importorskip("langgraph")

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from support.person import Decide, Person, approve, reject
from typing_extensions import TypedDict

import nbask
from nbask.kinds import ApprovalRequest, FormRequest
from nbask.models import Decision


class State(TypedDict, total=False):
    answer: Any
    status: str


def routed_graph(prompt: str = "Do you approve this action?") -> Any:
    """The docs' node: the interrupt's answer read as approval, routing to proceed or cancel."""

    def approval_node(state: State) -> Command[Literal["proceed", "cancel"]]:
        approved = interrupt(prompt)
        return Command(goto="proceed" if approved else "cancel", update={"answer": approved})

    builder = StateGraph(State)
    builder.add_node("approval_node", approval_node)
    builder.add_node("proceed", lambda state: {"status": "proceeded"})
    builder.add_node("cancel", lambda state: {"status": "cancelled"})
    builder.add_edge(START, "approval_node")
    builder.add_edge("proceed", END)
    builder.add_edge("cancel", END)
    return builder.compile(checkpointer=InMemorySaver())


def says(word: Literal["yes", "no"]) -> Decide:
    """A person who says ``word`` to whatever card is shown: types it into a text field, or
    clicks Yes (approve) / No (reject) on an approval.
    """

    def decide(request: Any) -> Any:
        if isinstance(request, FormRequest):
            return request.decide({"answer": word})
        return (approve() if word == "yes" else reject())(request)

    return decide


def run(graph: Any, **kwargs: Any) -> Any:
    return asyncio.run(nbask.integrations.langgraph.run(graph, {}, {"configurable": {"thread_id": "1"}}, **kwargs))


def run_sync(graph: Any, **kwargs: Any) -> Any:
    return nbask.integrations.langgraph.run_sync(graph, {}, {"configurable": {"thread_id": "1"}}, **kwargs)


@pytest.mark.parametrize("runner", [run, run_sync], ids=["run", "run_sync"])
def test_a_persons_no_resumes_false_and_takes_the_cancel_path(person: Person, runner: Any):
    person.answers(says("no"))
    state = runner(routed_graph())
    assert (state["answer"], state["status"]) == (False, "cancelled")
    (asked,) = person.asked
    assert isinstance(asked, ApprovalRequest)
    assert asked.approval.action == "Do you approve this action?"


@pytest.mark.parametrize("runner", [run, run_sync], ids=["run", "run_sync"])
def test_a_persons_yes_resumes_true_and_proceeds(person: Person, runner: Any):
    person.answers(says("yes"))
    state = runner(routed_graph())
    assert (state["answer"], state["status"]) == (True, "proceeded")


def test_a_prompt_whose_last_sentence_asks_for_approval_is_an_approval(person: Person):
    person.answers(says("no"))
    state = run_sync(routed_graph("This deletes 3 files from the build folder.\n\nProceed?"))
    assert (state["answer"], state["status"]) == (False, "cancelled")
    assert isinstance(person.asked[0], ApprovalRequest)
    assert person.asked[0].approval.edits == "off"  # the node gets a bool: no edit to carry


@pytest.mark.parametrize("runner", [run, run_sync], ids=["run", "run_sync"])
def test_under_recommended_it_resumes_false_decided_by_the_policy(runner: Any):
    nbask.configure(policy="recommended")
    state = runner(routed_graph())
    assert (state["answer"], state["status"]) == (False, "cancelled")
    (entry,) = nbask.history()
    assert entry.kind == "approval"
    assert isinstance(entry.outcome, Decision)
    assert (entry.outcome.answered_by, entry.outcome.decision) == ("policy", "reject")


def test_another_prompt_still_resumes_the_typed_text(person: Person):
    def name_node(state: State) -> State:
        return {"answer": interrupt("What is your name?")}

    builder = StateGraph(State)
    builder.add_node("name", name_node)
    builder.add_edge(START, "name")
    person.answers(says("no"))
    state = run_sync(builder.compile(checkpointer=InMemorySaver()))
    assert state["answer"] == "no"
    assert isinstance(person.asked[0], FormRequest)


def test_resume_type_str_keeps_an_approval_prompt_as_free_text(person: Person):
    person.answers(says("yes"))
    state = run_sync(routed_graph(), resume_type=str)
    assert (state["answer"], state["status"]) == ("yes", "proceeded")
    assert isinstance(person.asked[0], FormRequest)
