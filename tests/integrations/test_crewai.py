"""nbask.integrations.crewai inside CrewAI's own crews and flows, offline: agents on a scripted
``BaseLLM`` (crewai_scripted.py) call a recording tool, a ``Task(human_input=True)`` is reviewed,
and flows ask with ``@human_feedback`` and ``Flow.ask``; ``install()`` is the one line. Each test
checks what the model read next, what the tool really ran (nothing when not approved), and which
flow listener ran.

Headless under the policies and a scripted person; then in a real kernel (nbask-agents-more)
whose requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from support.person import REPO, Person, approve, edit, pick, reject

import nbask

sys.path.insert(0, str(Path(__file__).parent))
pytest.importorskip("crewai_scripted")  # sets CrewAI's offline environment, then imports CrewAI
from crewai import Agent, Crew, Task
from crewai.core.providers.human_input import get_provider
from crewai.flow import Flow, HumanFeedbackPending, flow_config, human_feedback, listen, or_, start
from crewai_scripted import Files, ScriptedLLM, act, final, observation

import nbask.integrations.crewai as nbask_crewai
from nbask.errors import NoOneCanAnswer
from nbask.kinds import FormRequest
from nbask.replies import QuestionResponse
from nbask.resolvers.console import ConsoleResolver

pytestmark = pytest.mark.agents_more

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
ARGS = {"path": "notes.txt", "text": "hello"}


@pytest.fixture(autouse=True)
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # where a paused flow's state is kept
    nbask_crewai.install(timeout=30)
    yield
    nbask_crewai.uninstall()


def submit(**values: Any) -> Any:
    return lambda request: request.decide(values)


def decline() -> Any:
    return lambda request: request.decide(None)


# -- tool calls: the before-tool-call hook ---------------------------------------------------------


def write_crew(*replies: str, human_input: bool = False) -> tuple[ScriptedLLM, Files, Crew]:
    files = Files()
    llm = ScriptedLLM(*(replies or (act("write_file", ARGS), final("done"))))
    agent = Agent(role="Writer", goal="Write files", backstory="Careful.", llm=llm, tools=[files.tool])
    task = Task(description="Write notes.txt", expected_output="a confirmation", agent=agent, human_input=human_input)
    return llm, files, Crew(agents=[agent], tasks=[task])


def test_an_approved_call_runs_as_the_model_asked(person: Person):
    person.answers(approve())
    llm, files, crew = write_crew()
    result = crew.kickoff()
    (asked,) = person.approvals
    assert asked.approval.action == "Call write_file"
    assert json.loads(asked.approval.details) == ARGS
    assert set(asked.approval.details_schema["properties"]) == {"path", "text"}  # the tool's own schema
    assert files.written == [("notes.txt", "hello")]
    assert observation(llm) == "wrote 5 characters to notes.txt"
    assert result.raw == "done"


def test_an_edited_call_runs_with_the_edited_input(person: Person):
    person.answers(edit({"path": "notes.txt", "text": "hello, edited"}))
    llm, files, _crew = write_crew()
    _crew.kickoff()
    assert files.written == [("notes.txt", "hello, edited")]
    assert observation(llm) == "wrote 13 characters to notes.txt"


def test_a_rejected_call_never_runs_and_the_model_reads_why(person: Person):
    person.answers(reject("not that file"))
    llm, files, crew = write_crew()
    crew.kickoff()
    assert files.written == []
    assert observation(llm) == (
        f"Not approved: Call write_file did not run. The person rejected it. Reason: not that file. {DO_NOT_RETRY}"
    )


def test_an_edit_that_is_not_an_object_does_not_run(person: Person):
    person.answers(edit('["notes.txt"]'))
    llm, files, crew = write_crew()
    crew.kickoff()
    assert files.written == []
    assert "the edited arguments are a JSON array, not an object of argument names" in observation(llm)


def test_unattended_a_call_is_rejected_never_approved():
    nbask.configure(policy="recommended")
    llm, files, crew = write_crew()
    crew.kickoff()
    assert files.written == []
    assert "It was rejected by policy, not by a person." in observation(llm)
    assert nbask.history()[-1].outcome.answered_by == "policy"


def test_no_one_to_ask_blocks_the_call_with_nbasks_reason(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    llm, files, crew = write_crew()
    crew.kickoff()
    assert files.written == []
    assert "No one could be asked: no front end here" in observation(llm)
    assert nbask.history()[-1].outcome.decision == "reject"


def test_a_replay_miss_blocks_the_call(tmp_path: Path):
    """CrewAI runs a tool whose hook raised: a miss must block it instead (and say so)."""
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "empty.jsonl"))
    llm, files, crew = write_crew()
    crew.kickoff()
    assert files.written == []
    assert "was blocked" in observation(llm)
    assert "replay: no recorded decision for the approval 'Call write_file'" in observation(llm)


def test_only_the_named_tools_are_asked(person: Person):
    nbask_crewai.install(tools=["delete_file"])
    llm, files, crew = write_crew()
    crew.kickoff()
    assert person.asked == []
    assert files.written == [("notes.txt", "hello")]
    assert observation(llm) == "wrote 5 characters to notes.txt"


@pytest.mark.parametrize("style", ["kickoff_async", "akickoff"])
def test_an_async_kickoff_asks_the_same(person: Person, style: str):
    person.answers(reject("no"))
    llm, files, crew = write_crew()
    asyncio.run(getattr(crew, style)())
    assert files.written == []
    assert "Reason: no." in observation(llm)


# -- Task(human_input=True) -------------------------------------------------------------------------


def review_crew() -> tuple[ScriptedLLM, Crew]:
    llm, _files, crew = write_crew(final("Draft one."), final("Draft two, shorter."), human_input=True)
    return llm, crew


def test_feedback_on_a_task_reworks_it_until_left_blank(person: Person):
    person.answers(submit(feedback="Make it shorter."), submit())
    llm, crew = review_crew()
    result = crew.kickoff()
    first, second = person.asked
    assert isinstance(first, FormRequest)
    assert first.form.message == "Review Writer's result. Leave the feedback blank to accept it.\n\nDraft one."
    assert [(f.name, f.required) for f in first.form.fields] == [("feedback", False)]
    assert second.form.message.endswith("Draft two, shorter.")
    assert "Make it shorter." in llm.last_text()  # the model read the feedback
    assert result.raw == "Draft two, shorter."


@pytest.mark.parametrize("unattended", ["policy", "no one"])
def test_unattended_a_task_is_accepted_as_it_is(request: pytest.FixtureRequest, unattended: str):
    if unattended == "policy":
        nbask.configure(policy="recommended")
    else:
        person: Person = request.getfixturevalue("person")
        person.unavailable = NoOneCanAnswer("no front end here")
    llm, crew = review_crew()
    assert crew.kickoff().raw == "Draft one."
    assert len(llm.seen) == 1  # not reworked
    assert nbask.history()[-1].outcome.answered_by == "policy"


def test_the_provider_survives_a_new_context_and_thread(person: Person):
    """A notebook cell runs in a fresh context: what install() set must still be read there."""
    person.answers(submit())
    _llm, crew = review_crew()
    results: list[Any] = []
    worker = threading.Thread(target=lambda: results.append(contextvars.Context().run(crew.kickoff)))
    worker.start()
    worker.join()
    assert results[0].raw == "Draft one."
    assert len(person.asked) == 1


def test_a_replay_miss_in_a_review_raises(tmp_path: Path):
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "empty.jsonl"))
    _llm, crew = review_crew()
    with pytest.raises(nbask.ReplayMissing):
        crew.kickoff()


# -- flows: @human_feedback and Flow.ask --------------------------------------------------------------


def review_flow(
    default: str | None = None, emit: tuple[str, ...] = ("approved", "rejected")
) -> tuple[Any, ScriptedLLM]:
    collapse = ScriptedLLM("rejected")

    class Review(Flow):  # type: ignore[type-arg]
        ran: ClassVar[list[str]] = []

        @start()
        @human_feedback(message="Publish this draft?", emit=list(emit), llm=collapse, default_outcome=default)
        def draft(self) -> str:
            return "The draft."

        @listen("approved")
        def publish(self) -> str:
            self.ran.append("publish")
            return "published"

        @listen("rejected")
        def revise(self) -> str:
            self.ran.append("revise:" + self.last_human_feedback.feedback)
            return "revised"

    return Review(), collapse


def test_outcomes_are_a_question_and_the_choice_routes_the_flow(person: Person):
    person.answers(pick("rejected"))
    flow, collapse = review_flow()
    assert flow.kickoff() == "revised"
    (asked,) = person.questions
    question = asked["questions"][0]
    assert question["question"] == "Publish this draft?\n\nThe draft."
    assert [o["label"] for o in question["options"]] == ["approved", "rejected"]
    assert flow.ran == ["revise:rejected"]
    assert "Feedback: rejected" in collapse.texts()[0]  # CrewAI's own collapse read the choice


def test_other_is_free_feedback_that_crewai_collapses(person: Person):
    person.answers(pick([], other="Too long, cut it."))
    flow, collapse = review_flow()
    flow.kickoff()
    assert flow.ran == ["revise:Too long, cut it."]
    assert "Feedback: Too long, cut it." in collapse.texts()[0]


def test_unattended_the_recommended_default_outcome_routes_without_the_model():
    nbask.configure(policy="recommended")
    flow, collapse = review_flow(default="rejected")
    assert flow.kickoff() == "revised"
    assert flow.ran == ["revise:"]  # CrewAI's "no feedback": its default_outcome
    assert collapse.seen == []
    asked = nbask.history()[-1]
    assert asked.outcome.answered_by == "policy"


def test_no_one_to_ask_pauses_the_flow_in_crewais_terms(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    flow, _collapse = review_flow()
    paused = flow.kickoff()
    assert isinstance(paused, HumanFeedbackPending)
    assert "No one could be asked: no front end here" in paused.callback_info["nbask"]
    assert flow.ran == []


def test_a_dismissed_feedback_pauses_the_flow(person: Person):
    person.answers(lambda request: request.decide(QuestionResponse("dismiss")))
    flow, _collapse = review_flow()
    assert isinstance(flow.kickoff(), HumanFeedbackPending)


def test_many_outcomes_are_a_form_with_a_choice(person: Person):
    person.answers(submit(outcome="rejected", feedback="Cut it."))
    flow, _collapse = review_flow(emit=("approved", "rejected", "later", "never", "maybe"))
    flow.kickoff()
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert [f.name for f in asked.form.fields] == ["outcome", "feedback"]
    assert flow.ran == ["revise:rejected\n\nCut it."]


def test_a_replay_miss_in_feedback_raises(tmp_path: Path):
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "empty.jsonl"))
    flow, _collapse = review_flow()
    with pytest.raises(nbask.ReplayMissing):
        flow.kickoff()


class Asking(Flow):  # type: ignore[type-arg]
    @start()
    def topic(self) -> Any:
        return self.ask("Which topic?")


def test_flow_ask_is_a_text_form(person: Person):
    person.answers(submit(answer="Tide pools"))
    flow = Asking()
    assert flow.kickoff() == "Tide pools"
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == "Which topic?"


def test_unattended_flow_ask_is_no_input_with_the_reason():
    nbask.configure(policy="recommended")
    flow = Asking()
    assert flow.kickoff() is None
    assert "policy" in flow._input_history[-1]["response_metadata"]["nbask"]


def test_flow_kickoff_async_asks_the_same(person: Person):
    person.answers(submit(answer="Kelp"))
    assert asyncio.run(Asking().kickoff_async()) == "Kelp"


def test_uninstall_puts_crewais_providers_back():
    nbask_crewai.uninstall()
    assert flow_config.hitl_provider is None
    assert flow_config.input_provider is None
    assert type(get_provider()).__name__ == "SyncHumanInputProvider"


# -- unattended runs end: a review that goes round, asked again --------------------------------------


def content_flow(message: str = "Is this content ready to publish?", collapse: ScriptedLLM | None = None) -> Any:
    """CrewAI's content-approval flow: review, revise on "needs_revision", review again."""

    class Content(Flow):  # type: ignore[type-arg]
        rounds: ClassVar[list[str]] = []

        @start()
        def write(self) -> str:
            return "A first draft."

        @listen(or_("write", "revise"))
        @human_feedback(
            message=message,
            emit=["approved", "needs_revision"],
            llm=collapse or ScriptedLLM("needs_revision"),
            default_outcome="needs_revision",
        )
        def review(self) -> str:
            self.rounds.append("review")
            return f"Draft number {self.rounds.count('review')}."  # the draft differs each round

        @listen("needs_revision")
        def revise(self) -> str:
            self.rounds.append("revise")
            return "revised"

        @listen("approved")
        def publish(self) -> str:
            self.rounds.append("publish")
            return "published"

    Content.rounds = []
    return Content()


@pytest.mark.parametrize("message", ["Is this content ready to publish?", ""])
def test_unattended_the_review_loop_stops_after_one_policy_answer(message: str):
    nbask.configure(policy="recommended")
    flow = content_flow(message)
    with pytest.raises(nbask.AskedAgain, match="nbask stopped this run: it asked again"):
        flow.kickoff()
    assert flow.rounds == ["review", "revise", "review"]
    assert [(e.kind, e.answered_by) for e in nbask.history()] == [("question", "policy")]


def test_a_person_goes_round_the_review_until_approved(person: Person):
    person.answers(pick("needs_revision (Recommended)"), pick("approved"))
    collapse = ScriptedLLM("needs_revision", "approved")  # CrewAI collapses each choice with its llm
    flow = content_flow(collapse=collapse)
    assert flow.kickoff() == "published"
    assert flow.rounds == ["review", "revise", "review", "publish"]
    assert "Feedback: needs_revision" in collapse.texts()[0]
    assert "Feedback: approved" in collapse.texts()[1]
    assert [q["questions"][0]["question"].split("\n\n")[1] for q in person.questions] == [
        "Draft number 1.",
        "Draft number 2.",
    ]


def test_unattended_each_kickoff_is_a_run_of_its_own():
    """Two flows, two crews in one cell: each asks once, none is taken for asking again."""
    nbask.configure(policy="recommended")
    assert [review_flow(default="rejected")[0].kickoff() for _ in range(2)] == ["revised", "revised"]
    assert [review_crew()[1].kickoff().raw for _ in range(2)] == ["Draft one.", "Draft one."]
    assert [e.answered_by for e in nbask.history()] == ["policy"] * 4


class AskingUntilAnswered(Flow):  # type: ignore[type-arg]
    @start()
    def topic(self) -> Any:
        return [self.ask("Which topic?") for _ in range(3)]


def test_unattended_flow_ask_asked_again_is_no_input_with_nbasks_reason():
    """CrewAI keeps an input provider's errors to itself: asked again, ask() is None with why."""
    nbask.configure(policy="recommended")
    flow = AskingUntilAnswered()
    assert flow.kickoff() == [None, None, None]
    reasons = [entry["response_metadata"]["nbask"] for entry in flow._input_history]
    assert "policy" in reasons[0]
    assert all(reason.startswith("nbask stopped this run: it asked again") for reason in reasons[1:])
    assert len(nbask.history()) == 1


# -- what a person reads: line breaks, not JSON's escaped ones -------------------------------------


class Article(Flow):  # type: ignore[type-arg]
    @start()
    @human_feedback(message="Review this article:", emit=["approved", "rejected"], llm=ScriptedLLM("approved"))
    def write(self) -> dict[str, str]:  # CrewAI's own example reviews a dict
        return {"title": "Tides", "body": "First paragraph.\n\nSecond paragraph."}


def test_a_structured_output_is_shown_with_real_line_breaks(monkeypatch: pytest.MonkeyPatch):
    typed, shown = io.StringIO("1\n"), io.StringIO()
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: ConsoleResolver(typed, shown))
    Article().kickoff()
    (entry,) = nbask.history()
    assert '"body": "First paragraph.\n\nSecond paragraph."' in next(iter(entry.outcome.answers))
    assert "    Second paragraph." in shown.getvalue()  # at the terminal, its own line
    assert "\\n" not in shown.getvalue()  # not the two characters backslash-n


# -- a real kernel, answered through the widget -----------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import (  # noqa: E402
    AGENTS_MORE_KERNELS,
    KernelHarness,
    approval_response,
    kernel_fixture,
    printed_json,
)

SETUP = rf"""
import asyncio, json, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from crewai_scripted import Files, ScriptedLLM, act, final, observation
from crewai import Agent, Crew, Task
from crewai.flow import Flow, human_feedback, listen, start
import nbask
import nbask.integrations.crewai as nbask_crewai

ARGS = {ARGS!r}

def crew():
    global llm, files
    files = Files()
    llm = ScriptedLLM(act("write_file", ARGS), final("done"))
    agent = Agent(role="Writer", goal="Write files", backstory="Careful.", llm=llm, tools=[files.tool])
    return Crew(agents=[agent], tasks=[Task(description="Write", expected_output="ok", agent=agent)])

class Writing(Flow):
    @start()
    def write(self):  # CrewAI's own pattern: a crew kicked off inside a flow's step
        return crew().kickoff().raw

class Review(Flow):
    @start()
    @human_feedback(message="Publish?", emit=["approved", "rejected"], llm=ScriptedLLM("approved"))
    def draft(self):
        return "The draft."

    @listen("approved")
    def publish(self):
        return "published"

    @listen("rejected")
    def revise(self):
        return "revised"
"""

k = kernel_fixture(SETUP, kernels=AGENTS_MORE_KERNELS)


def _fresh(k: KernelHarness) -> None:
    k.drain(0.1)
    k.iopub_log.clear()


@pytest.mark.kernel
@pytest.mark.parametrize(
    "call",
    [
        "Writing().kickoff()",
        "await Writing().kickoff_async()",
        "(await crew().kickoff_async()).raw",
        "crew().kickoff().raw",  # sync in the cell: CrewAI alone refuses it inside the kernel's loop
    ],
)
def test_in_a_kernel_the_install_of_one_cell_answers_the_next_cells_tool_call(k: KernelHarness, call: str):
    """install() in one cell, kickoff in the next (a sync kickoff blocks its cell): the approval
    widget shows, the person's edit goes through its comm, and the tool runs with it.
    """
    _fresh(k)
    k.run_ok("nbask_crewai.install(timeout=60)")
    cell = k.execute(f"r = {call}\nprint(json.dumps({{'ran': files.written, 'read': observation(llm), 'raw': r}}))")
    comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_kind") == "approval", timeout=60)
    assert comm.state["_title"] == "Call write_file"
    k.wait_until_waiting(comm)  # a front end draws the widget from the display that follows
    k.update_widget(comm.comm_id, {"_response": approval_response("approve", {"path": "x.txt", "text": "edited"})})
    out = printed_json(k.result(cell, 90))
    assert out == {"ran": [["x.txt", "edited"]], "read": "wrote 6 characters to x.txt", "raw": "done"}


@pytest.mark.kernel
@pytest.mark.parametrize("call", ["Review().kickoff()", "await Review().kickoff_async()"])
def test_in_a_kernel_a_feedback_question_routes_the_flow(k: KernelHarness, call: str):
    _fresh(k)
    k.run_ok("nbask_crewai.install(timeout=60)")
    cell = k.execute(f"print(json.dumps({{'result': {call}}}))")
    comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_kind") == "question", timeout=60)
    (question,) = comm.state["_questions"]
    assert question["question"] == "Publish?\n\nThe draft."
    assert [o["label"] for o in question["options"]] == ["approved", "rejected"]
    k.wait_until_waiting(comm)
    reply = {"action": "submit", "answers": [{"selected": ["approved"], "other": None}]}
    k.update_widget(comm.comm_id, {"_response": {**reply, "view_id": "t", "sent_at_ms": 0}})
    assert printed_json(k.result(cell, 90)) == {"result": "published"}


@pytest.mark.kernel
def test_in_a_kernel_an_interrupt_stops_an_awaited_run(k: KernelHarness):
    """The hook waits in CrewAI's worker thread while the cell awaits: the interrupt cancels the
    wait at once, the tool never runs, and the run ends with KeyboardInterrupt.
    """
    _fresh(k)
    k.run_ok("nbask_crewai.install(timeout=60)")
    cell = k.execute("await crew().kickoff_async()")
    comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_kind") == "approval", timeout=60)
    k.wait_until_waiting(comm)
    k.interrupt()
    result = k.result(cell, 30)
    assert not result.ok
    assert "KeyboardInterrupt" in (result.ename or "") + result.error_text
    after = k.run_ok("print(json.dumps({'ran': files.written, 'status': nbask.history()[-1].outcome.status}))")
    assert printed_json(after) == {"ran": [], "status": "cancelled"}


@pytest.mark.kernel
@pytest.mark.parametrize("call", ["Writing().kickoff()", "crew().kickoff()"])
def test_in_a_kernel_an_interrupt_of_a_sync_kickoff_stops_it_at_once(k: KernelHarness, call: str):
    """A sync Flow.kickoff() (or crew.kickoff(), run by nbask in a worker) in a cell blocks the
    main thread on a thread pool while the hook waits in the worker: the interrupt still reaches
    that wait (nbask chains the kernel's SIGINT handler), which ends cancelled long before its
    time limit; the tool never runs, the worker ends, and the cell ends with KeyboardInterrupt.
    """
    _fresh(k)
    k.run_ok("nbask_crewai.install(timeout=600)")
    cell = k.execute(call)
    comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_kind") == "approval", timeout=60)
    k.wait_until_waiting(comm)
    k.interrupt()
    result = k.result(cell, 30)
    assert not result.ok
    assert "KeyboardInterrupt" in (result.ename or "") + result.error_text
    after = k.run_ok("print(json.dumps({'ran': files.written, 'status': nbask.history()[-1].outcome.status}))")
    assert printed_json(after) == {"ran": [], "status": "cancelled"}
