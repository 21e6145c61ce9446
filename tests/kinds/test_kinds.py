"""The kind registry: resolvers find a request's kind by name, a new kind is one module plus
its registration, and widgets displayed by hand go through the manager like nbask.ask.
"""

from __future__ import annotations

import asyncio
import io
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import pytest

import nbask
from nbask.core.history import HistoryEntry, Recording, load
from nbask.core.lifecycle import Ending, Request, Resolution
from nbask.core.manager import manager
from nbask.inbox_store import open_inbox
from nbask.kinds import KINDS, ApprovalRequest, QuestionRequest, QuestionWidget, RequestKind, kind_of, register
from nbask.models import Answer, AnsweredBy, Approval, QuestionSet
from nbask.resolvers.console import ConsoleResolver
from nbask.resolvers.run import run_request_sync
from nbask.terminal import Terminal

# -- a third kind, written as a new kind's module would be: one class per role, no edit elsewhere


@dataclass
class ConfirmRequest(Request[Answer]):
    """Asks one yes/no question."""

    kind: ClassVar[str] = "confirm-for-test"
    text: str = field(kw_only=True)

    def asked(self) -> dict[str, Any]:
        return {"text": self.text}

    def parse_and_decide(self, raw: dict[str, Any]) -> Answer:
        return self.answered(str(raw["choice"]), "person")

    def answered(self, choice: str, by: AnsweredBy) -> Answer:
        return Answer(status="answered", answers={self.text: choice}, **self._ids(by))

    def ended(self, status: Ending | Literal["dismissed"], note: str, answered_by: AnsweredBy = "person") -> Answer:
        return Answer(status=status, note=note, **self._ids(answered_by))


class ConfirmKind(RequestKind[ConfirmRequest, Answer], widget=QuestionWidget):  # not shown: these tests run headless
    def summary(self, request: ConfirmRequest, outcome: Answer | None) -> str:
        return f"{request.text}: {outcome.answers.get(request.text) if outcome else 'pending'}"

    def console_prompt(self, term: Terminal, request: ConfirmRequest) -> Answer:
        return request.answered(term.line(f"{request.text} [y/n] "), "person")

    def recommended(self, request: ConfirmRequest) -> Answer:
        return request.answered("n", "policy")

    def request_of(self, asked: dict[str, Any]) -> ConfirmRequest:
        return ConfirmRequest(text=str(asked["text"]))

    def replayed(self, request: ConfirmRequest, recording: Recording) -> Answer:
        records = [entry for entry in recording.entries(self.name) if entry.asked["text"] == request.text]
        record = recording.take(request.text, records)
        if record is None:
            raise nbask.ReplayMissing(f"no answer left for {request.text!r}", asked=request.text)
        return request.answered(record.outcome.answers[request.text], "replay")


@pytest.fixture
def headless(monkeypatch):
    """No policy from the environment or an earlier test, and an empty history, before and after."""
    monkeypatch.delenv("NBASK_POLICY", raising=False)
    monkeypatch.delenv("NBASK_REPLAY_FILE", raising=False)
    nbask.configure(policy=None, replay_file=None)
    manager().clear_history()
    yield
    nbask.configure(policy=None, replay_file=None)
    manager().clear_history()


@pytest.fixture
def confirm_kind():
    register(ConfirmKind())
    yield
    del KINDS["confirm-for-test"]


def test_the_built_in_kinds_are_registered_and_found_by_name():
    question = QuestionRequest(
        question_set=QuestionSet(questions=[{"question": "Q?", "options": [{"label": "A"}, {"label": "B"}]}])
    )
    approval = ApprovalRequest(approval=Approval(action="Run"))
    assert kind_of(question) is KINDS["question"]
    assert kind_of(approval) is KINDS["approval"]


def test_a_kind_reads_its_request_and_outcome_types_from_its_class_line():
    assert (ConfirmKind.request_type, ConfirmKind.outcome_type) == (ConfirmRequest, Answer)
    assert ConfirmKind.widget_type is QuestionWidget
    assert ConfirmKind().name == "confirm-for-test"
    with pytest.raises(TypeError, match=r"RequestKind\[<its request class>, <its outcome class>\]"):
        type("Unsubscripted", (RequestKind,), {}, widget=QuestionWidget)


def test_an_unregistered_request_is_refused_with_its_name():
    with pytest.raises(TypeError, match="ConfirmRequest is not a registered request kind"):
        kind_of(ConfirmRequest(text="Go?"))


def test_a_new_kind_runs_under_every_policy_and_in_the_history(confirm_kind, tmp_path, headless):
    nbask.configure(policy="recommended")
    assert run_request_sync(ConfirmRequest(text="Go?")).answers == {"Go?": "n"}
    nbask.configure(policy="dismiss")
    assert run_request_sync(ConfirmRequest(text="Go?")).status == "dismissed"

    recording = nbask.save_history(tmp_path / "confirm.jsonl")
    lines = [json.loads(line) for line in recording.read_text().splitlines()]
    assert [(line["kind"], line["status"]) for line in lines] == [
        ("confirm-for-test", "answered"),
        ("confirm-for-test", "dismissed"),
    ]
    assert all(isinstance(entry, HistoryEntry) for entry in load(recording))

    nbask.configure(policy="replay", replay_file=recording)
    replayed = run_request_sync(ConfirmRequest(text="Go?"))
    assert (replayed.answers, replayed.answered_by) == ({"Go?": "n"}, "replay")

    # later: it waits in the inbox, is answered there by its kind's own request, and the run
    # asked again takes that answer
    nbask.configure(policy="later", replay_file=None, inbox=tmp_path / "inbox.sqlite3")
    with pytest.raises(nbask.AnswerLater) as stopped:
        run_request_sync(ConfirmRequest(text="Go?"))
    store = open_inbox(str(tmp_path / "inbox.sqlite3"))
    (item,) = store.pending()
    assert stopped.value.ids == (item.id,)
    store.answer(item.id, KINDS[item.kind].request_of(item.asked).answered("y", "person"), by="ana")
    later = run_request_sync(ConfirmRequest(text="Go?"))
    assert (later.answers, later.answered_by, later.answered_by_user) == ({"Go?": "y"}, "inbox", "ana")
    nbask.configure(inbox=None)


def test_a_new_kind_is_asked_at_a_terminal(confirm_kind):
    stdin, stdout = io.StringIO("y\n"), io.StringIO()
    resolution = Resolution(ConfirmRequest(text="Go?"))
    answer = ConsoleResolver(stdin, stdout).resolve_sync(resolution)
    assert answer.answers == {"Go?": "y"}
    assert "Go? [y/n]" in stdout.getvalue()


def test_a_history_entry_of_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="not a request kind nbask knows"):
        HistoryEntry.model_validate({"kind": "poll", "asked": {}, "outcome": {}})


# -- widgets displayed by hand ------------------------------------------------------------------

QUESTIONS = [{"question": "Proceed?", "options": [{"label": "Yes"}, {"label": "No"}]}]


def test_a_widget_answered_by_hand_is_recorded_once_in_the_history(headless):
    widget = nbask.QuestionWidget(questions=QUESTIONS)
    widget._response = {"action": "submit", "answers": [{"selected": ["Yes"], "other": None}]}
    answer = asyncio.run(widget.await_answer(timeout=5))
    assert answer.answers == {"Proceed?": "Yes"}
    assert asyncio.run(widget.await_answer(timeout=5)) is answer  # waiting again changes nothing
    assert [entry.request_id for entry in nbask.history()] == [answer.request_id]


def test_a_widget_displayed_by_hand_keeps_the_one_pending_rule(headless):
    pending = Resolution(ApprovalRequest(approval=Approval(action="Run")))
    manager()._claim_or_raise(pending, queue=False)
    try:
        widget = nbask.ApprovalWidget(action="Drop table")
        with pytest.raises(nbask.InteractionPending, match="approval"):
            widget.wait_answer_sync(timeout=5)
    finally:
        manager()._release(pending)
