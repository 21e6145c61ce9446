"""Validating human input as LangGraph's docs ("Interrupts") write it: a loop inside one node,
``while True: answer = interrupt(question); if valid: break; question = f"... {answer} ..."``.

On each resume LangGraph runs the node again from its start and hands its earlier interrupts the
answers they had, matched by their index within the node: the second and third ``interrupt()``
of the same node each get an id of their own, and ``run`` / ``resume`` must answer each by it.
Answered by a scripted person (``run``, ``run_sync``, ``resume`` in a loop of one's own, a
resume type by node name), by a JSONL replay (the re-asks in order; a recording of only invalid
answers ends with ``ReplayMissing``, not a loop) and by the policies. The kernel twin, answered
through the widget, is in test_langgraph_kernel.py.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph")

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import interrupt
from support.person import Decide, Person, cancel
from typing_extensions import TypedDict

import nbask
from nbask.core.manager import manager
from nbask.errors import ReplayMissing
from nbask.integrations import langgraph as nl
from nbask.kinds import FormRequest

FIRST = "What is your age?"


def not_valid(answer: object) -> str:
    return f"'{answer}' is not a valid age. Please enter a positive number."


class State(TypedDict, total=False):
    age: int
    answers: list[Any]


def age_loop_graph(runs: list[int] | None = None) -> Any:
    """The docs' node: re-asks in a loop until the answer is a positive int. It returns every
    answer its interrupts gave in its last run (``answers``), and counts its runs in ``runs``.
    """

    def get_age_node(state: State) -> State:
        if runs is not None:
            runs.append(len(runs) + 1)
        prompt = FIRST
        answers = []
        while True:
            answer = interrupt(prompt)
            answers.append(answer)
            if isinstance(answer, int) and not isinstance(answer, bool) and answer > 0:
                break
            prompt = not_valid(answer)
        return {"age": answer, "answers": answers}

    builder = StateGraph(State)
    builder.add_node("get_age", get_age_node)
    builder.add_edge(START, "get_age")
    return builder.compile(checkpointer=InMemorySaver())


def thread(name: str = "t") -> dict[str, Any]:
    return {"configurable": {"thread_id": name}}


def fill(value: Any) -> Decide:
    return lambda request: request.decide({"answer": value})


def messages(person: Person) -> list[str]:
    return [request.form.message for request in person.asked if isinstance(request, FormRequest)]


def answered_by() -> list[str]:
    return [entry.outcome.answered_by for entry in nbask.history()]


@pytest.mark.parametrize("how", ["run_sync", "run", "resume_sync"])
@pytest.mark.parametrize("resume_type", [int, {"get_age": int}], ids=["one-type", "by-node"])
def test_the_third_interrupt_of_one_node_is_answered(person: Person, how: str, resume_type: Any):
    person.answers(fill(-5), fill(0), fill(30))
    runs: list[int] = []
    graph = age_loop_graph(runs)
    if how == "run_sync":
        state = nl.run_sync(graph, {}, thread(), resume_type=resume_type)
    elif how == "run":
        state = asyncio.run(nl.run(graph, {}, thread(), resume_type=resume_type))
    else:  # one's own loop: invoke, then resume with nbask's Command while the graph is paused
        state = graph.invoke({}, thread())
        while graph.get_state(thread()).interrupts:
            state = graph.invoke(nl.resolve_sync(graph.get_state(thread()), resume_type=resume_type), thread())
    assert state["age"] == 30
    assert type(state["age"]) is int
    # the node's last run: each interrupt returned its own answer, in order
    assert state["answers"] == [-5, 0, 30]
    assert messages(person) == [FIRST, not_valid(-5), not_valid(0)]
    assert len(runs) == 4  # the first run, then again from its start on each of the three resumes
    assert not graph.get_state(thread()).interrupts


def test_each_interrupt_of_the_node_has_its_own_id_and_is_resumed_by_it(person: Person):
    """What LangGraph shows at each pause, and the Command ``resume`` builds for it."""
    person.answers(fill(-5), fill(0), fill(30))
    graph = age_loop_graph()
    graph.invoke({}, thread())
    ids = []
    for expected in (FIRST, not_valid(-5), not_valid(0)):
        (pending,) = graph.get_state(thread()).interrupts
        assert pending.value == expected
        command = nl.resolve_sync(pending, resume_type=int)
        assert list(command.resume) == [pending.id]
        ids.append(pending.id)
        graph.invoke(command, thread())
    assert len(set(ids)) == 3
    assert graph.get_state(thread()).values["answers"] == [-5, 0, 30]


def test_the_same_re_ask_twice_is_asked_twice(person: Person):
    """The same invalid answer twice: the third interrupt repeats the second's prompt, and is
    asked again all the same (not answered from the second's answer).
    """
    person.answers(fill(-5), fill(-5), fill(7))
    state = nl.run_sync(age_loop_graph(), {}, thread(), resume_type=int)
    assert state["answers"] == [-5, -5, 7]
    assert messages(person) == [FIRST, not_valid(-5), not_valid(-5)]


def test_a_re_ask_not_answered_leaves_the_graph_paused_at_it(person: Person):
    person.answers(fill(-5), cancel())
    graph = age_loop_graph()
    with pytest.raises(nl.InterruptNotAnswered):
        nl.run_sync(graph, {}, thread(), resume_type=int)
    assert [i.value for i in graph.get_state(thread()).interrupts] == [not_valid(-5)]
    person.answers(fill(30))  # run(graph, None, config) asks the re-ask again
    assert nl.run_sync(graph, None, thread(), resume_type=int)["answers"] == [-5, 30]


def test_with_no_one_to_answer_the_loop_stays_paused():
    nbask.configure(policy="recommended")
    graph = age_loop_graph()
    with pytest.raises(nl.InterruptNotAnswered):
        nl.run_sync(graph, {}, thread(), resume_type=int)
    assert [i.value for i in graph.get_state(thread()).interrupts] == [FIRST]


# -- replay ---------------------------------------------------------------------------------------


def recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, decisions: list[Decide]) -> None:
    """Run the loop once answered by a scripted person, save the history, then replay from it."""
    person = Person().answers(*decisions)
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        with contextlib.suppress(nl.InterruptNotAnswered):  # a recording may end on a request not answered
            nl.run_sync(age_loop_graph(), {}, thread("recorded"), resume_type=int)
    saved = nbask.save_history(tmp_path / "answers.jsonl")
    manager().clear_history()
    nbask.configure(policy="replay", replay_file=saved)


def test_the_re_asks_replay_in_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    recorded(monkeypatch, tmp_path, [fill(-5), fill(0), fill(30)])
    runs: list[int] = []
    state = nl.run_sync(age_loop_graph(runs), {}, thread("replayed"), resume_type=int)
    assert state["answers"] == [-5, 0, 30]
    assert answered_by() == ["replay", "replay", "replay"]
    assert [entry.asked["message"] for entry in nbask.history()] == [FIRST, not_valid(-5), not_valid(0)]
    assert len(runs) == 4


def test_a_recording_of_only_invalid_answers_misses_instead_of_looping(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Recorded: -5, -5, then the form closed. Replayed: the first two, then the third interrupt
    repeats the second's prompt, whose one recorded answer is used: a miss, not a loop.
    """
    recorded(monkeypatch, tmp_path, [fill(-5), fill(-5), cancel()])
    graph = age_loop_graph()
    with pytest.raises(ReplayMissing, match="asked again"):
        nl.run_sync(graph, {}, thread("replayed"), resume_type=int)
    assert answered_by() == ["replay", "replay"]
    assert [i.value for i in graph.get_state(thread("replayed")).interrupts] == [not_valid(-5)]
