"""The interrupt patterns LangGraph's docs teach, as nbask asks them (used by
nbask.integrations.langgraph), and what each resumes with.

- approve or reject, ``interrupt({"question": ..., "details": ...})`` -> an approval titled with
  the question, the details shown as text (JSON unless a string); resumes ``True`` for an approval
  and ``False`` for anything else (a rejection, a dismissal, a timeout, the policy, an edit: a bool
  cannot carry edited details, so an edit does not approve);
- a tool's own approval, ``interrupt({"action": "send_email", "to": ..., "subject": ..., "body":
  ..., "message": "Approve sending this email?"})`` ("Interrupts in tools") -> an approval titled
  with the message, the other fields (all but ``action`` and ``message``) as JSON, editable and
  checked as an object of those same fields; resumes ``{"action": "approve", **fields}`` with the
  fields as approved or edited, and ``{"action": "reject"}`` for anything else (a rejection, a
  dismissal, a timeout, no one to ask, an edit that is not an object of those fields);
- review and edit, ``interrupt({"instruction": ..., "content": "<text>"})`` -> an approval titled
  with the instruction, the content as its details, editable in a multi-line box; resumes with
  the text as approved (edited or not); a rejection leaves the graph paused
  (``InterruptNotAnswered``), so unreviewed content never goes on;
- a plain string, ``interrupt("What is your age?")`` -> asked as ``resume_type`` says: ``str`` a
  text field, ``int`` / ``float`` a number field, ``bool`` an approval (``True`` only for an
  approval), a pydantic model a form of its fields (resumes with the validated values as JSON
  data, ``model_dump(mode="json")``: a model instance in a checkpoint is a type LangGraph's
  serializer warns it will block; ``interrupt(..., response_schema=Model)`` gives the node an
  instance). Without a ``resume_type``, a prompt whose last sentence is a yes/no question of
  approval (``asks_for_approval``: "Do you approve this action?", "... Proceed?") is asked as
  ``bool`` is, so a person's "no" never resumes as the truthy ``"no"``; any other as ``str``;
- ``interrupt(value, response_schema=...)`` -> a typed form of the schema; a scalar schema
  (``response_schema=int``...) a one-field form resuming with the value, a boolean one an approval.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from langgraph.types import Interrupt
from pydantic import BaseModel

from ...errors import NotAnswered
from ...kinds.approval.edit_check import edit_problems, json_type
from ...kinds.form.request import form_request
from ...models import MAX_ACTION_CHARS, Decision, FormAnswer, Outcome
from .._seam import Asking, EditNotUsable, approval, arguments_text, edited_arguments

#: The types a plain string interrupt can resume with (besides a pydantic model class).
RESUME_TYPES: tuple[type, ...] = (str, bool, int, float)
#: What ``resume_type`` may be: one of RESUME_TYPES or a pydantic model class.
ResumeType = type
APPROVAL_KEYS = frozenset({"question", "details"})
REVIEW_KEYS = frozenset({"instruction", "content"})
#: The keys of a tool's own approval that are not the call's fields.
TOOL_ACTION_KEYS = ("action", "message")
#: The shapes of interrupt value nbask reads, for the error about one it does not.
SHAPES = (
    "HumanInTheLoopMiddleware's requests (action_requests + review_configs, or type 'tool_approval'); "
    '{"question": ..., "details": ...} (an approval, resumes True or False); '
    '{"instruction": ..., "content": "<text>"} (a review, resumes the edited text); '
    '{"action": "<tool>", ...its fields, "message": ...} (a tool\'s approval, resumes '
    '{"action": "approve", ...fields as approved or edited} or {"action": "reject"}); '
    'an nbask tool dialect\'s questions ({"questions": [...]} of AskUserQuestion, ...); '
    "a string (resumes with resume_type, str by default); "
    "or any value with interrupt(..., response_schema=...) (a typed form)"
)
_JSON_TYPES = {str: "string", int: "integer", float: "number"}


class InterruptNotAnswered(NotAnswered):
    """A form, text or review interrupt was not answered (declined, rejected, timed out, no one
    to ask): the graph stays paused at it (``run(graph, None, config)`` asks again;
    ``Command(resume=...)`` answers it yourself).
    """

    def __init__(self, interrupt: Interrupt, outcome: Outcome) -> None:
        self.interrupt = interrupt
        self.outcome = outcome
        why = str(getattr(outcome, "note", "") or getattr(outcome, "reason", "")).strip().rstrip(".")
        super().__init__(
            f"interrupt {interrupt.id} was not answered ({_ending(outcome)}){': ' + why if why else ''}. "
            "The graph stays paused at it: run(graph, None, config) asks again"
        )


def _ending(outcome: Outcome) -> str:
    if isinstance(outcome, Decision) and outcome.status == "answered":
        return "rejected by policy" if outcome.answered_by == "policy" else "rejected"
    return outcome.status


def check_resume_type(resume_type: object, where: str = "resume_type") -> None:
    """Raises TypeError unless ``resume_type`` is one of RESUME_TYPES or a pydantic model class."""
    if resume_type in RESUME_TYPES or (isinstance(resume_type, type) and issubclass(resume_type, BaseModel)):
        return
    msg = f"{where}: must be str, bool, int, float or a pydantic model class, got {resume_type!r}"
    raise TypeError(msg)


# -- the shapes ---------------------------------------------------------------------------------


def is_approval(value: object) -> bool:
    """``{"question": "<text>"[, "details": ...]}``, LangGraph's approve-or-reject pattern."""
    return (
        isinstance(value, Mapping)
        and set(value) <= APPROVAL_KEYS
        and isinstance(value.get("question"), str)
        and bool(value["question"].strip())
    )


def is_review(value: object) -> bool:
    """``{"instruction": "<text>", "content": "<text>"}``, LangGraph's review-and-edit pattern."""
    return (
        isinstance(value, Mapping)
        and set(value) == REVIEW_KEYS
        and isinstance(value["instruction"], str)
        and bool(value["instruction"].strip())
        and isinstance(value["content"], str)
    )


def is_tool_action(value: object) -> bool:
    """``{"action": "<tool>", ..., "message": "<text>"}``, a tool's own approval (LangGraph's
    "Interrupts in tools"); the middleware's requests have no ``action`` key.
    """
    return (
        isinstance(value, Mapping)
        and all(isinstance(key, str) for key in value)
        and all(isinstance(value.get(key), str) and bool(value[key].strip()) for key in TOOL_ACTION_KEYS)
    )


def message_of(value: object) -> str:
    """What a form asked with a ``response_schema`` says: the string, the approval's question
    (and details), else the value as JSON.
    """
    if isinstance(value, str) and value.strip():
        return value.strip()
    if is_approval(value):
        assert isinstance(value, Mapping)  # noqa: S101 - is_approval checked it
        details = _details_text(value.get("details"))
        return str(value["question"]).strip() + (f"\n\n{details}" if details else "")
    if is_tool_action(value):
        assert isinstance(value, Mapping)  # noqa: S101 - is_tool_action checked it
        return f"{value['message'].strip()}\n\n{arguments_text(_tool_fields(value))}"
    return arguments_text(value)


# -- asking -------------------------------------------------------------------------------------


def ask_pattern(item: Interrupt, timeout: float | None) -> Asking[Any]:
    """The approve-or-reject pattern (True only for an approval), a tool's own approval (its
    fields as approved or edited) or the review-and-edit pattern (the content as approved, edited
    or not), by ``item.value``'s shape (``is_approval``, ``is_tool_action`` or ``is_review``).
    """
    value = item.value
    if is_tool_action(value):
        return ask_tool_action(value, timeout)
    if is_approval(value):
        return _yes_or_no(value["question"], _details_text(value.get("details")), timeout)
    title = _short(value["instruction"].strip())
    return _reviewed(item, approval(title, value["content"], timeout=timeout), value["content"])


def ask_tool_action(value: Mapping[str, Any], timeout: float | None) -> Asking[dict[str, Any]]:
    """A tool's own approval (``is_tool_action``): its fields shown as JSON, editable; a message
    too long for a title is shown whole below them.
    """
    fields = _tool_fields(value)
    message = value["message"].strip()
    note = message if len(message) > MAX_ACTION_CHARS else ""
    details = arguments_text(fields) + (f"\n\n{note}" if note else "")
    schema = _fields_schema(fields)
    request = approval(_short(message), details, timeout=timeout, schema=None if note else schema)
    return _tool_decided(request, fields, schema, note)


def _tool_decided(request: Any, fields: dict[str, Any], schema: dict[str, Any], note: str) -> Asking[dict[str, Any]]:
    decision = yield request
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.status != "answered" or decision.decision == "reject":
        return {"action": "reject"}
    if decision.decision != "edit":
        return {"action": "approve", **fields}
    text = (decision.edited or "").rstrip()
    text = text[: -len(note)] if note and text.endswith(note) else text
    try:
        edited = edited_arguments(decision.model_copy(update={"edited": text}))
    except EditNotUsable:
        return {"action": "reject"}
    return {"action": "reject"} if edit_problems(text, schema) else {"action": "approve", **edited}


def _tool_fields(value: Mapping[str, Any]) -> dict[str, Any]:
    return {key: item for key, item in value.items() if key not in TOOL_ACTION_KEYS}


def _fields_schema(fields: Mapping[str, Any]) -> dict[str, Any]:
    """An object of exactly these fields, each of its value's JSON type (any type for a null)."""
    properties = {
        name: {} if value is None else {"type": "number" if isinstance(value, float) else json_type(value)}
        for name, value in fields.items()
    }
    return {"type": "object", "properties": properties, "required": list(fields), "additionalProperties": False}


def _reviewed(item: Interrupt, request: Any, content: str) -> Asking[str]:
    decision = yield request
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.status != "answered" or decision.decision == "reject":
        raise InterruptNotAnswered(item, decision)
    return decision.edited if decision.decision == "edit" and decision.edited is not None else content


#: A yes/no question (it opens with a verb that asks one) ...
_YES_NO = re.compile(
    r"^(do|does|did|should|shall|can|could|may|might|will|would|is|are|am|ok|okay|approve|confirm|proceed|"
    r"continue|allow|permit|accept|go ahead)\b",
    re.IGNORECASE,
)
#: ... that asks for approval or confirmation.
_APPROVING = re.compile(
    r"\b(approve|approval|confirm|proceed|allow|permit|continue|accept|go ahead|ok to|okay to|are you sure)\b",
    re.IGNORECASE,
)


#: Where a prompt's last sentence starts: after a line break, or after a sentence's end and a space
#: (so "v1.2" or "a.b@example.com" are not split).
_SENTENCE_BREAK = re.compile(r"\n|(?<=[.!?:;])\s+")


def asks_for_approval(prompt: str) -> bool:
    """Whether a plain string interrupt asks for approval or confirmation, yes or no ("Do you
    approve this action?", "Proceed with the deletion?", "Are you sure?"): such a prompt is asked
    as Yes / No and resumes a ``bool`` unless ``resume_type`` says otherwise, so a person's typed
    "no" can never reach the node as the truthy string ``"no"``. What is asked is the prompt's
    last sentence: "This deletes 3 files. Proceed?" asks for approval as "Proceed?" does.
    """
    text = prompt.strip()
    last = _SENTENCE_BREAK.split(text)[-1].strip()
    return last.endswith("?") and bool(_YES_NO.match(last)) and bool(_APPROVING.search(last))


def ask_typed(item: Interrupt, prompt: str, resume_type: ResumeType | None, timeout: float | None) -> Asking[Any]:
    """A plain string interrupt, asked as ``resume_type`` says; without one, a yes/no question of
    approval (``asks_for_approval``) resumes a ``bool`` and any other a ``str``.
    """
    prompt = prompt.strip() or "Answer"
    # An approval, not a Yes / No question: its card reads as the approval it is, and what a policy
    # decides of it (recommended, dismiss, no one to ask) is a rejection, so it resumes False.
    if resume_type is bool or (resume_type is None and asks_for_approval(prompt)):
        return _yes_or_no(prompt, "", timeout)
    if isinstance(resume_type, type) and issubclass(resume_type, BaseModel):
        return _form(item, form_request(prompt, resume_type, timeout=timeout), _json_of(resume_type))
    kind = resume_type if resume_type in _JSON_TYPES else str
    field = {"type": _JSON_TYPES[kind], "title": prompt[:200]}
    return _one_field(item, prompt, field, timeout, kind)


def ask_schema(item: Interrupt, schema: Mapping[str, Any], timeout: float | None) -> Asking[Any]:
    """``interrupt(value, response_schema=...)``: an object schema a form resuming with its
    values; a boolean one an approval; a string, integer or number one a one-field form.
    """
    message = message_of(item.value)
    if schema.get("type") == "boolean":
        return _yes_or_no(message, "", timeout)
    if schema.get("type") in ("string", "integer", "number") or "enum" in schema:
        field = {**schema, "title": str(schema.get("title") or message)[:200]}
        return _one_field(item, message, field, timeout, None)
    return _form(item, form_request(message, schema, timeout=timeout), lambda answer: answer.values)


def _yes_or_no(question: str, details: str, timeout: float | None) -> Asking[bool]:
    title, shown = _title(question.strip(), details)
    # a bool carries no edit: the card offers none, rather than take an edit for a "no"
    decision = yield approval(title, shown, timeout=timeout, edits="off")
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    return decision.status == "answered" and decision.decision == "approve"


def _one_field(
    item: Interrupt, message: str, field: Mapping[str, Any], timeout: float | None, kind: type | None
) -> Asking[Any]:
    schema = {"type": "object", "properties": {"answer": dict(field)}, "required": ["answer"]}

    def value_of(answer: FormAnswer) -> Any:
        value = answer.values.get("answer", "")
        return kind(value) if kind in (int, float) and isinstance(value, (int, float)) else value

    return _form(item, form_request(message, schema, timeout=timeout), value_of)


def _form(item: Interrupt, request: Any, shape: Any) -> Asking[Any]:
    answer = yield request
    assert isinstance(answer, FormAnswer)  # noqa: S101 - the request's own outcome type
    if answer.status != "answered":
        raise InterruptNotAnswered(item, answer)
    return shape(answer)


def _json_of(model: type[BaseModel]) -> Any:
    """The form's values as the model validated them, as JSON data."""

    def shape(answer: FormAnswer) -> Any:
        instance = answer.data if isinstance(answer.data, model) else model.model_validate(answer.values)
        return instance.model_dump(mode="json")

    return shape


def _title(text: str, details: str) -> tuple[str, str]:
    """An approval's title and details: a text too long for a title is shown whole above the details."""
    text = text.strip()
    if len(text) <= MAX_ACTION_CHARS:
        return text, details
    return _short(text), text + (f"\n\n{details}" if details else "")


def _short(text: str) -> str:
    return text if len(text) <= MAX_ACTION_CHARS else text[: MAX_ACTION_CHARS - 1] + "…"


def _details_text(details: object) -> str:
    if details is None:
        return ""
    return details if isinstance(details, str) else arguments_text(details)
