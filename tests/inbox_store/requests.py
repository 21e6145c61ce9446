"""Requests of each kind and their outcomes, for the inbox tests (and their worker processes)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from nbask.core.lifecycle import Request
from nbask.forms.fields import Form
from nbask.forms.schema import read_schema
from nbask.kinds import KINDS, ApprovalRequest, FormRequest, QuestionRequest
from nbask.models import Approval, Outcome, QuestionSet
from nbask.replies import ApprovalResponse, QuestionReply, QuestionResponse

QUESTION = "Which database holds the orders?"


def question(text: str = QUESTION, labels: tuple[str, ...] = ("SQLite", "Postgres"), **ids: Any) -> QuestionRequest:
    options = [{"label": label} for label in labels]
    question_set = QuestionSet(questions=[{"question": text, "header": "Database", "options": options}])
    return QuestionRequest(question_set=question_set, **ids)


def approval(action: str = "Drop table", details: str = "DROP TABLE users") -> ApprovalRequest:
    return ApprovalRequest(approval=Approval(action=action, details=details))


def form(message: str = "Where to deploy?") -> FormRequest:
    schema = {"type": "object", "properties": {"region": {"type": "string"}}, "required": ["region"]}
    return FormRequest(form=Form(message=message, fields=read_schema(schema)))


def outcome_of(request: Request[Any]) -> Outcome:
    """What a person answered: the first option, an approval, a region."""
    if isinstance(request, QuestionRequest):
        first = request.question_set.questions[0].options[0].label
        reply = QuestionReply(selected=(first,), other=None, note="")
        return request.decide(QuestionResponse(action="submit", replies=(reply,)))
    if isinstance(request, ApprovalRequest):
        return request.decide(ApprovalResponse(action="approve"))
    if isinstance(request, FormRequest):
        return request.decide({"region": "eu-west"})
    raise TypeError(type(request).__name__)


def rebuilt(kind: str, asked: dict[str, Any], request_id: str) -> Request[Any]:
    """The request an inbox item keeps, made again in another process by its kind."""
    return replace(KINDS[kind].request_of(asked), request_id=request_id)
