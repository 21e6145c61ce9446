"""nbask.integrations.llama_index inside LlamaIndex's own workflow runtime, offline: plain
``Workflow``s whose steps return an ``InputRequiredEvent`` or wait for a ``HumanResponseEvent``
(``ctx.wait_for_event`` with requirements), and a ``FunctionAgent`` driven by llama_index.core's
``MockFunctionCallingLLM`` whose tool waits for the person's approval (llama_index_scripted.py).
Each test checks what the workflow got back, and what really ran.

Headless with a scripted person and under the policies; then in a real kernel whose requests
the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, pick, reject

import nbask

pytest.importorskip("llama_index.core")
from workflows.errors import WorkflowTimeoutError
from workflows.events import HumanResponseEvent, InputRequiredEvent

import nbask.integrations.llama_index as nbask_llama_index
from integrations.llama_index_scripted import Approves, Asks, HumanInTheLoopWorkflow, Parallel, agent
from nbask.core.lifecycle import timeout_note
from nbask.errors import NoOneCanAnswer
from nbask.kinds import ApprovalRequest, FormRequest, QuestionRequest

#: How long a test waits for each answer, within its workflows' own 60 s: a response that missed
#: its waiter ends the run with LlamaIndex's WorkflowTimeoutError instead of hanging the test.
WAIT = 50
UNATTENDED = (
    "Not approved: this run is unattended (policy 'recommended'), and an unattended run does not approve "
    "actions on its own. Ask again where a person can decide, or replay a recorded decision."
)


def noted(text: str, seconds: int = 60) -> str:
    """A form's message or a question's text as the card of a workflow with ``seconds`` shows it."""
    return f"{text}\n\nLlamaIndex stops this workflow {seconds} s after it starts."


def titled(action: str, seconds: int = 60) -> str:
    """An approval's title as the card of a workflow with ``seconds`` shows it."""
    return f"{action} (LlamaIndex stops this workflow {seconds} s after it starts)"


def run(workflow: Any, **kwargs: Any) -> Any:
    """``nbask_llama_index.run`` to the end, waiting ``WAIT`` seconds for each answer unless told."""
    kwargs.setdefault("timeout", WAIT)
    return asyncio.run(nbask_llama_index.run(workflow, **kwargs))


def run_agent(calls: list[tuple[str, dict[str, Any]]], ran: list[str], message: str) -> Any:
    """Start the scripted FunctionAgent (its handler needs a running loop) and run it to the end."""

    async def go() -> Any:
        return await nbask_llama_index.run(agent(calls, ran).run(message), timeout=WAIT)

    return asyncio.run(go())


def submit(**values: Any) -> Any:
    return lambda request: request.decide(values)


def decline() -> Any:
    return lambda request: request.decide(None)


def by_kind(**decide: Any) -> Any:
    """The person decides each request by its kind (approval, question, form)."""
    kinds = {ApprovalRequest: "approval", QuestionRequest: "question", FormRequest: "form"}
    return lambda request: decide[kinds[type(request)]](request)


# -- what each event asks, and what the workflow gets back ---------------------------------------


def test_a_prefix_is_a_text_field_and_the_response_echoes_the_events_fields(person: Person):
    person.answers(submit(response="Laurie"))
    got = run(Asks(timeout=60), ask={"prefix": "What's your name? ", "user": "u1"})
    assert got == {"prefix": "What's your name? ", "user": "u1", "answered_by": "person", "response": "Laurie"}
    (form,) = person.asked
    assert isinstance(form, FormRequest)
    assert form.form.message == noted("What's your name?")
    assert [(f.name, f.required, f.default) for f in form.form.fields] == [("response", False, "")]


def test_options_are_a_question_with_other(person: Person):
    person.answers(pick([], other="Lisbon"))
    got = run(Asks(timeout=60), ask={"prompt": "Which city?", "options": ["Paris", "Rome"], "header": "City"})
    assert got["response"] == "Lisbon"
    (asked,) = person.questions
    assert asked["questions"][0]["question"] == noted("Which city?")
    assert [o["label"] for o in asked["questions"][0]["options"]] == ["Paris", "Rome"]
    assert asked["questions"][0]["header"] == "City"


def test_questions_are_asked_together_and_answered_by_question(person: Person):
    questions = [
        {"question": "Which database?", "options": [{"label": "PostgreSQL"}, {"label": "SQLite"}]},
        {"question": "Which cloud?", "options": [{"label": "AWS"}, {"label": "GCP"}]},
    ]
    person.answers(pick("SQLite", "GCP", notes={1: "cheaper"}))
    got = run(Asks(timeout=60), ask={"questions": questions})
    assert got["response"] == {"Which database?": "SQLite", "Which cloud?": "GCP"}
    assert got["notes"] == {"Which cloud?": "cheaper"}
    assert len(person.asked) == 1


def test_a_schema_is_a_typed_form(person: Person):
    schema = {"type": "object", "properties": {"days": {"type": "integer", "minimum": 1}}, "required": ["days"]}
    person.answers(submit(days=3))
    got = run(Asks(timeout=60), ask={"message": "How many days off?", "schema": schema})
    assert got["response"] == {"days": 3}
    assert isinstance(got["response"]["days"], int)


@pytest.mark.parametrize(
    ("decide", "ran", "result"),
    [
        (approve(), ["events_2023"], "dropped events_2023"),
        (reject("keep it for the audit"), [], "kept events_2023: keep it for the audit"),
    ],
    ids=["approve", "reject"],
)
def test_an_approval_decides_whether_the_dangerous_step_runs(person: Person, decide: Any, ran: list[str], result: str):
    person.answers(decide)
    workflow = Approves(timeout=60)
    assert run(workflow, table="events_2023") == result
    assert workflow.ran == ran  # a rejected step never dropped the table
    (asked,) = person.approvals
    assert asked.approval.action == titled("Drop table events_2023")
    assert json.loads(asked.approval.details) == {"table": "events_2023"}
    assert asked.approval.risk == "high"


def test_a_declined_text_stops_the_run_and_says_why(person: Person):
    person.answers(decline())
    with pytest.raises(nbask_llama_index.InputNotAnswered, match=r"'Name\?' was not answered \(declined\)"):
        run(Asks(timeout=60), ask={"prefix": "Name?"})


# -- several waiting at once: one batch --------------------------------------------------------


def test_parallel_waiters_are_asked_together_and_each_answer_meets_its_requirement(person: Person):
    person.answers(by_kind(approval=reject("not now"), question=pick("B"), form=submit(response="seven")))
    asks = {
        "deploy": {"action": "Deploy to production"},
        "flavour": {"prefix": "Which flavour?", "options": ["A", "B"]},
        "count": {"prefix": "How many?"},
    }
    got = run(Parallel(timeout=60), asks=asks, timeout=WAIT)
    assert got == {"deploy": "reject", "flavour": "B", "count": "seven"}
    entries = nbask.history()
    assert len(entries) == 3
    assert len({e.outcome.batch_id for e in entries}) == 1
    assert entries[0].outcome.batch_id is not None


def test_a_function_agents_parallel_tool_calls_wait_together(person: Person):
    def decide(request: Any) -> Any:
        keep = request.approval.action.startswith("Drop table events_2022 ")
        return reject("keep it for the audit")(request) if keep else approve()(request)

    person.answers(decide)
    ran: list[str] = []
    calls = [("drop_table", {"name": "events_2022"}), ("drop_table", {"name": "events_2023"})]
    output = run_agent(calls, ran, "Clean up.")
    assert ran == ["events_2023"]  # the rejected call's table was never dropped
    assert str(output) == "not dropped events_2022: keep it for the audit\ndropped events_2023"
    actions = sorted(a.approval.action for a in person.approvals)
    assert actions == [titled("Drop table events_2022"), titled("Drop table events_2023")]
    assert len({e.outcome.batch_id for e in nbask.history()}) == 1


def test_a_function_agents_tool_asks_the_person_a_question_in_text(person: Person):
    person.answers(submit(response="ship on Friday"))
    output = run_agent([("ask_person", {"question": "When should we ship?"})], [], "Plan.")
    assert str(output) == "the person said ship on Friday"
    (form,) = person.asked
    assert isinstance(form, FormRequest)
    assert form.form.message == noted("When should we ship?")


def test_resolve_sync_answers_events_the_caller_streams_itself(person: Person):
    person.answers(pick("Rome"))
    asked = InputRequiredEvent(prefix="Which city?", options=["Paris", "Rome"], ticket=7)
    (reply,) = nbask_llama_index.resolve_sync([asked])
    assert isinstance(reply, HumanResponseEvent)
    assert (reply.response, reply.ticket, reply.answered_by) == ("Rome", 7, "person")


# -- unattended, no one to ask, replay ------------------------------------------------------------


def test_headless_under_the_recommended_policy_never_hangs():
    nbask.configure(policy="recommended")
    workflow = Approves(timeout=60)
    assert run(workflow, table="events_2023") == f"kept events_2023: {UNATTENDED}"
    assert workflow.ran == []
    asks = {"flavour": {"prefix": "Which flavour?", "options": ["A", "B (Recommended)"]}, "go": {"action": "Go"}}
    assert run(Parallel(timeout=60), asks=asks, timeout=WAIT) == {"flavour": "B (Recommended)", "go": "reject"}
    assert run(Asks(timeout=60), ask={"prefix": "Name?"})["response"] == ""  # the text's empty default
    assert [e.answered_by for e in nbask.history()] == ["policy"] * 4


def test_no_one_to_ask_is_a_rejection_with_nbasks_reason(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    workflow = Approves(timeout=60)
    assert run(workflow, table="t") == "kept t: No one could be asked: no front end here"
    assert workflow.ran == []
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.decision) == ("policy", "reject")


def test_a_replay_miss_raises_and_stops_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as patched:
        person = Person().answers(approve())
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        run(Approves(timeout=60), table="recorded")
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    workflow = Approves(timeout=60)

    async def go() -> Any:
        handler = workflow.run(table="another")
        with pytest.raises(nbask.ReplayMissing, match="Drop table another"):
            await nbask_llama_index.run(handler, timeout=WAIT)
        return handler

    handler = asyncio.run(go())
    assert handler.is_done()  # stopped, not left waiting
    assert workflow.ran == []


# -- the workflow's own timeout ------------------------------------------------------------------


def test_the_docs_workflow_with_its_45_s_runs_as_written_under_a_policy():
    nbask.configure(policy="recommended")
    assert HumanInTheLoopWorkflow()._timeout == 45  # LlamaIndex's own default, as the docs leave it
    assert asyncio.run(nbask_llama_index.run(HumanInTheLoopWorkflow())) == ""  # nbask's 600 s
    assert run(HumanInTheLoopWorkflow(), timeout=None) == ""
    assert nbask_llama_index.run_sync(HumanInTheLoopWorkflow()) == ""
    entries = nbask.history()
    assert [(e.answered_by, e.outcome.status) for e in entries] == [("policy", "answered")] * 3


def test_with_a_person_a_request_waits_within_the_workflows_time_and_says_so(person: Person):
    person.answers(submit(response="42"))
    assert asyncio.run(nbask_llama_index.run(HumanInTheLoopWorkflow())) == "42"  # nbask's default 600 s
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.timeout is not None
    assert 30 < asked.timeout <= 44  # what is left of the 45 s, less a second's margin
    assert asked.form.message == noted("Enter a number:", 45)


def test_a_question_and_an_approval_say_it_too(person: Person):
    person.answers(by_kind(approval=approve(), question=pick("A")))
    asks = {"flavour": {"prefix": "Which flavour?", "options": ["A", "B"]}, "go": {"action": "Go", "details": "now"}}
    assert run(Parallel(timeout=30), asks=asks, timeout=None) == {"flavour": "A", "go": "approve"}
    question, approval = sorted(person.asked, key=lambda request: request.kind, reverse=True)
    assert question.question_set.questions[0].question == noted("Which flavour?", 30)
    assert (approval.approval.action, approval.approval.details) == (titled("Go", 30), "now")
    assert all(request.timeout is not None and request.timeout <= 29 for request in person.asked)


def test_an_edit_goes_back_as_the_person_wrote_it_without_the_note(person: Person):
    schema = {"type": "object", "properties": {"table": {"type": "string"}}, "required": ["table"]}

    def edit_as_shown(request: Any) -> Any:
        # What the card's Edit starts from: the details as shown, changed by the person.
        edited = request.approval.details.replace("events_2023", "events_2024")
        raw = {"action": "approve", "edited_details": edited, "reason": "", "view_id": "t", "sent_at_ms": 0}
        return request.parse_and_decide(raw)

    person.answers(edit_as_shown)
    ask = {"action": "Drop table", "details": {"table": "events_2023"}, "details_schema": schema}
    got = run(Asks(timeout=60), ask=ask, timeout=None)
    assert (got["response"], got["approved"]) == ("edit", True)
    assert json.loads(got["edited"]) == {"table": "events_2024"}


def test_a_recording_replays_whatever_the_wait(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as patched:
        person = Person().answers(pick("B"))
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        ask = {"prefix": "Which flavour?", "options": ["A", "B"]}
        assert run(Asks(), ask=ask, timeout=None)["response"] == "B"  # the workflow's 45 s cut the wait
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    got = run(Asks(), ask=ask, timeout=30)  # nbask's own 30 s is the shorter wait this time
    assert (got["response"], got["answered_by"]) == ("B", "replay")


class NoAnswer:
    """A person who never answers: each request waits out its own timeout, as the widget does."""

    def __init__(self) -> None:
        self.asked: list[Any] = []

    def check_available(self, request: Any) -> None:
        del request  # always someone to ask

    async def resolve(self, resolution: Any) -> Any:
        request = resolution.request
        self.asked.append(request)
        await asyncio.sleep(request.timeout)
        return resolution.end("timeout", timeout_note(request.timeout))


@pytest.mark.parametrize("ask", [{"prefix": "Name?"}, {"action": "Deploy", "details": "now"}], ids=["text", "approval"])
def test_no_answer_in_a_short_workflow_time_ends_with_llama_indexs_own_timeout(
    monkeypatch: pytest.MonkeyPatch, ask: dict[str, Any]
):
    silent = NoAnswer()
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: silent)
    started = time.monotonic()
    with pytest.raises(WorkflowTimeoutError, match="timed out after 2"):
        asyncio.run(asyncio.wait_for(nbask_llama_index.run(Asks(timeout=2), ask=ask), 30))  # never a hang
    assert time.monotonic() - started < 15
    (asked,) = silent.asked
    assert asked.timeout <= 2
    (entry,) = nbask.history()
    assert (entry.outcome.status, entry.answered_by) == ("timeout", "person")


def test_run_sync_runs_the_workflow_on_a_loop_of_its_own(person: Person):
    person.answers(submit(response="7"))
    assert nbask_llama_index.run_sync(HumanInTheLoopWorkflow()) == "7"


class Counted(Approves):
    """``Approves``, counting the runs started."""

    started = 0

    def run(self, *args: Any, **kwargs: Any) -> Any:
        self.started += 1
        return super().run(*args, **kwargs)


@pytest.mark.parametrize("entry", ["run", "run_sync"])
def test_approvers_are_checked_before_the_workflow_starts(person: Person, entry: str):
    workflow = Counted(timeout=60)
    running = {"run": run, "run_sync": nbask_llama_index.run_sync}[entry]
    with pytest.raises(TypeError, match="approvers"):
        running(workflow, table="events_2023", approvers="alice")
    assert (workflow.started, person.asked) == (0, [])


def test_approvers_hold_every_request_of_the_run(person: Person):
    person.answers(approve())
    assert run(Approves(timeout=60), table="events_2023", approvers=["alice"]) == "dropped events_2023"
    assert [request.approvers for request in person.asked] == [("alice",)]


def test_a_wait_within_the_workflows_timeout_is_asked(person: Person):
    person.answers(submit(response="Laurie"))
    assert run(Asks(), ask={"prefix": "Name?"}, timeout=30)["response"] == "Laurie"
    assert person.asked[0].timeout == 30


# -- a real kernel, answered through the widget ------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CommInfo, KernelHarness, kernel_fixture  # noqa: E402

SETUP = f"""
import json, sys, nbask
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
from llama_index_scripted import agent
import nbask.integrations.llama_index as nbask_llama_index
"""

RUN = """\
ran = []
calls = [("drop_table", {"name": "events_2022"}), ("drop_table", {"name": "events_2023"})]
output = await nbask_llama_index.run(agent(calls, ran, timeout=None).run("Clean up."))
print(json.dumps({"ran": ran, "output": str(output), "batch": [e.outcome.batch_id for e in nbask.history()[-2:]]}))
"""

k = kernel_fixture(SETUP)


def response(action: str, reason: str = "") -> dict[str, Any]:
    return {"action": action, "edited_details": None, "reason": reason, "view_id": "t", "sent_at_ms": 0}


def next_approval(k: KernelHarness, shown: set[str]) -> CommInfo:
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == "approval" and comm.comm_id not in shown, timeout=30
    )


@pytest.mark.kernel
def test_in_a_kernel_both_tool_approvals_wait_together_and_are_answered_out_of_order(k: KernelHarness):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN)
    first = next_approval(k, set())
    second = next_approval(k, {first.comm_id})
    for widget in (first, second):  # both waiting before either is answered
        k.wait_until_waiting(widget)
    by_title = {widget.state["_title"]: widget for widget in (first, second)}
    assert sorted(by_title) == ["Drop table events_2022", "Drop table events_2023"]
    k.update_widget(by_title["Drop table events_2023"].comm_id, {"_response": response("approve")})
    k.update_widget(by_title["Drop table events_2022"].comm_id, {"_response": response("reject", "keep it")})
    result = k.result(cell, 60)
    assert result.ok, f"{result.error_text}\n{result.stderr}"
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["ran"] == ["events_2023"]
    assert out["output"] == "not dropped events_2022: keep it\ndropped events_2023"
    first_id, second_id = out["batch"]
    assert first_id is not None
    assert first_id == second_id
