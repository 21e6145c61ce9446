"""Late answers and who answered, as the model reads them: each dialect's next tool result carries
an answer given after an earlier request timed out, once; the username only with share_username.

Late answers are made by the real widgets (their response trait written as the front end writes
it, after the request timed out); the calls that follow are answered by the scripted person.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from support.person import Person, pick, reject

import nbask
from nbask.core.lifecycle import Resolution
from nbask.kinds import ApprovalWidget, FormWidget, QuestionWidget
from nbask.kinds.approval import ApprovalRequest
from nbask.kinds.form.request import form_request
from nbask.models import Approval
from nbask.tools import call, call_sync
from nbask.tools.function import gate

LATE_QUESTION = [{"question": "Which region?", "options": [{"label": "eu-west"}, {"label": "us-east"}]}]
ASK = {"questions": [{"question": "Proceed?", "options": [{"label": "Yes"}, {"label": "No"}]}]}
ARGUMENTS = {
    "AskUserQuestion": ASK,
    "ask_user_question": {"questions": [{"question": "Proceed?", "options": [{"label": "Yes"}, {"label": "No"}]}]},
    "ask_user": {"question": "Proceed?", "choices": ["Yes", "No"]},
    "ask_followup_question": {"question": "Proceed?", "follow_up": json.dumps([{"text": "Yes"}, {"text": "No"}])},
    "request_user_input": {
        "questions": [
            {
                "id": "go",
                "header": "Go",
                "question": "Proceed?",
                "options": [{"label": "Yes", "description": ""}, {"label": "No", "description": ""}],
            }
        ]
    },
}


@pytest.fixture(autouse=True)
def username_off() -> Iterator[None]:
    nbask.configure(share_username=None)
    yield
    nbask.configure(share_username=None)


def late_question(answer: str = "us-east", user: str | None = None) -> QuestionWidget:
    """A question that timed out, then answered by the person through its widget."""
    widget = QuestionWidget(questions=LATE_QUESTION)
    widget._end("timeout", "No answer within 1 seconds.")
    response = {"action": "submit", "answers": [{"selected": [answer], "other": None}], "view_id": "v", "sent_at_ms": 0}
    if user is not None:
        response["user"] = user
    widget._response = response
    return widget


JSON_DIALECTS = ("AskUserQuestion", "ask_user_question", "request_user_input")


@pytest.mark.parametrize("tool_name", list(ARGUMENTS))
def test_each_dialect_delivers_a_late_answer_once_with_the_next_result(person: Person, tool_name: str):
    late_question()
    person.answers(pick("Yes"), pick("Yes"))
    first = asyncio.run(call(ARGUMENTS[tool_name], tool_name=tool_name))
    assert first.status == "answered"
    if tool_name in JSON_DIALECTS:  # a JSON reply: the texts under their own key, the answers unchanged
        payload = json.loads(first.output)
        (text,) = payload.pop("late_answers")
        assert "Yes" in json.dumps(payload)
    else:  # a text reply: the sentence follows the answer
        text = first.output[first.output.index("Late answer") :]
        assert first.output.index("Yes") < first.output.index("Late answer")
    assert text == (
        'Late answer: the person answered an earlier question after it had timed out: "Which region?" -> '
        '"us-east". The earlier call already returned without it; take it into account from now on.'
    )
    second = asyncio.run(call(ARGUMENTS[tool_name], tool_name=tool_name))
    assert "Late answer" not in second.output, "delivered once"


def test_a_late_answer_carries_the_persons_notes(person: Person):
    widget = QuestionWidget(questions=LATE_QUESTION)
    widget._end("timeout", "No answer within 1 seconds.")
    entry = {"selected": ["eu-west"], "other": None, "note": "Data must stay in the EU."}
    widget._response = {"action": "submit", "answers": [entry], "note": "Asked legal.", "view_id": "v", "sent_at_ms": 0}
    person.answers(pick("Yes"))
    (text,) = json.loads(asyncio.run(call(ASK, tool_name="AskUserQuestion")).output)["late_answers"]
    assert text == (
        'Late answer: the person answered an earlier question after it had timed out: "Which region?" -> '
        '"eu-west". Their notes: "Which region?" -> "Data must stay in the EU.". Note: "Asked legal.". '
        "The earlier call already returned without it; take it into account from now on."
    )


def test_a_late_answer_never_changes_what_the_timed_out_call_returned():
    widget = late_question()
    assert widget.answer is not None
    assert (widget.answer.status, widget.answer.answers) == ("timeout", {})
    assert widget.late_answer is not None
    assert widget.late_answer.answers == {"Which region?": "us-east"}


def test_several_late_answers_come_together_in_order_and_a_tool_error_carries_them(person: Person):
    late_question("eu-west")
    late_question("us-east")
    result = call_sync({"questions": "not a list"})
    assert result.is_error
    first, second = result.output.index('"eu-west"'), result.output.index('"us-east"')
    assert first < second
    person.answers(pick("Yes"))
    assert "Late answer" not in call_sync(ASK).output


def test_a_late_approval_and_a_late_form_are_described(person: Person):
    approval = ApprovalWidget(
        resolution=Resolution(ApprovalRequest(approval=Approval(action="Drop table", details="users")))
    )
    approval._end("timeout", "No answer.")
    approval._response = {
        "action": "reject",
        "edited_details": None,
        "reason": "wrong table",
        "view_id": "v",
        "sent_at_ms": 0,
    }
    form_schema = {"type": "object", "properties": {"replicas": {"type": "integer"}}, "required": ["replicas"]}
    form = FormWidget(resolution=Resolution(form_request("How many?", form_schema)))
    form._end("timeout", "No answer.")
    form._response = {"action": "submit", "values": {"replicas": 3}, "view_id": "v", "sent_at_ms": 0}
    person.answers(pick("Yes"))
    texts = json.loads(asyncio.run(call(ASK)).output)["late_answers"]
    assert texts[0].startswith(
        'Late answer: the person rejected it after the approval request "Drop table" had timed out'
    )
    assert 'Reason: "wrong table"' in texts[0]
    assert 'filled in the earlier form "How many?" after it had timed out: {"replicas": 3}' in texts[1]


def test_a_gate_rejection_carries_a_late_answer(person: Person):
    @gate(action="Drop a table")
    def drop(name: str) -> str:
        return f"dropped {name}"

    late_question()
    person.answers(reject("no"))
    text = drop("users")
    assert text.startswith("Not approved: Drop a table did not run.")
    assert '"Which region?" -> "us-east"' in text


def test_username_reaches_the_model_only_with_share_username(person: Person):
    late_question(user="alice")
    person.answers(pick("Yes"))
    assert "alice" not in asyncio.run(call(ASK)).output
    nbask.configure(share_username=True)
    late_question(user="alice")
    person.answers(pick("Yes"))
    assert "Late answer: the person (alice) answered" in asyncio.run(call(ASK)).output


def test_share_username_names_who_answered_a_call(monkeypatch: pytest.MonkeyPatch):
    class Alice(Person):
        def resolve_sync(self, resolution):  # the person's answer, with their username
            outcome = super().resolve_sync(resolution)
            return outcome.model_copy(update={"answered_by_user": "alice"})

    alice = Alice()
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: alice)
    alice.answers(pick("Yes"), pick("Yes"), pick("Yes"))
    assert "answered_by_user" not in json.loads(call_sync(ASK).output)
    monkeypatch.setenv("NBASK_SHARE_USERNAME", "1")
    assert json.loads(call_sync(ASK).output)["answered_by_user"] == "alice"
    assert "Answered by alice." in call_sync(ARGUMENTS["ask_user"], tool_name="ask_user").output


def test_a_gate_rejection_names_who_rejected_only_with_share_username(monkeypatch: pytest.MonkeyPatch):
    class Alice(Person):
        def resolve_sync(self, resolution):  # the person's rejection, with their username
            outcome = reject("not now")(resolution.request).model_copy(update={"answered_by_user": "alice"})
            resolution.settle(outcome)
            return resolution.outcome

    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: Alice())

    @gate(action="Drop a table")
    def drop(name: str) -> str:
        return f"dropped {name}"

    assert "The person rejected it. Reason: not now." in drop("users")
    nbask.configure(share_username=True)
    assert "The person (alice) rejected it. Reason: not now." in drop("users")
