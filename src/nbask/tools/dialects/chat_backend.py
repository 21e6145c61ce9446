"""``ask_user_question``: the chat backend's stream/history protocol.

Arguments use camelCase (``multiSelect``; ``multi_select`` is accepted too) and may carry the
free-text option themselves, ``{"label": "Khác", "input": true}``: nbask's "Other" field is that
option, so it is dropped from the list (as is an option labelled like "Other"), and the backend's
rule "add Other when missing" holds because the widget always shows it. The whole
``content_block_delta`` payload is accepted as well (``{"action_requests": [{"name":
"ask_user_question", "args": {...}}], "timeout_seconds": 600}``), its time limit included.

Headers longer than nbask's 12-character chip (such a backend's own "Mục tiêu chính" has 14) are
shortened, at a word boundary where possible, with "…": nbask's models keep the 12-character
limit, and the question text, which is the answer key, is never changed.

The reply is the protocol's ``approval`` message: ``{"type": "approval", "answers": {question text:
answer}}``, a skipped question as "[No preference]", with ``"notes": {question text: note}`` for
the questions the person wrote a note on and their note on the whole set in ``"note"``; a
dismiss has empty answers and a note; a timeout is ``{"type": "approval_timeout", ...}`` (the
protocol's "approval_timeout" block).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ...errors import ArgumentError
from ...models import OTHER_LABELS, Answer, NonEmptyText, StrictModel
from ..result import ToolResult
from . import guidance
from ._arguments import Location, Plan, field_path, header_fields, renamed_key, validate, validated_question_set
from ._base import Dialect
from ._replies import answer_for, json_answered, json_dismissed, json_timed_out, with_notes


class ChatBackendOption(StrictModel):
    """One option; input: true marks the free-text choice."""

    label: NonEmptyText = Field(description="Short option text. End it with '(Recommended)' to suggest it.")
    description: str = Field(default="", description="What choosing it means.")
    input: bool = Field(default=False, description="True for the free-text choice; the UI always has one.")


class ChatBackendQuestion(StrictModel):
    """One question; its answer is keyed by the question text."""

    question: NonEmptyText = Field(description="The question shown to the person; its answer is keyed by this text.")
    header: str = Field(
        default="", description="Short group title for the chip (longer than 12 characters is shortened)."
    )
    multiSelect: bool = Field(default=False, description="true: several options may be chosen.")  # noqa: N815 - the protocol's name
    options: list[ChatBackendOption] = Field(
        min_length=2,
        max_length=5,
        description="2-4 choices, plus optionally the free-text choice {'label': ..., 'input': true}.",
    )


class ChatBackendArguments(StrictModel):
    """The args of an ask_user_question action request."""

    questions: list[ChatBackendQuestion] = Field(
        min_length=1, max_length=4, description="1-4 questions to ask together."
    )


class ChatBackend(Dialect):
    """The 001 dialect: questions sent as the backend's approval_request (see the module docstring).

    Not an nbask approval: nbask asks them as questions (``QuestionRequest``).
    """

    name = "ask_user_question"
    replies_in_json = True
    title = "Ask the user"
    origin = "a chat backend's approval_request stream protocol"
    arguments = ChatBackendArguments
    form = (
        '{"questions": [{"question": "...", "header": "...", "multiSelect": false, "options": [{"label": "...", '
        '"description": "..."}, ...]}, ...]} with 1-4 questions and 2-4 options each, besides the optional '
        'free-text one {"label": "...", "input": true}'
    )
    description = (
        "Ask the user 1-4 questions with options and wait for the answers. "
        f"{guidance.WHEN} {guidance.BATCH} "
        "Give each question 2-4 short options with descriptions; the free-text choice is always shown, so "
        f"you need not add it. {guidance.RECOMMENDED} "
        'The reply is {"type": "approval", "answers": {question text: answer}}. '
        f"{guidance.MULTI} {guidance.SILENCE}"
    )

    def parse(self, data: dict[str, Any]) -> Plan:
        data, timeout = _unwrap_delta(data)
        questions = data.get("questions")
        if isinstance(questions, list):
            camel = [renamed_key(i, q, "multi_select", "multiSelect") for i, q in enumerate(questions)]
            data = {**data, "questions": camel}
        args: ChatBackendArguments = validate(ChatBackendArguments, data)
        kept: list[list[int]] = []
        converted = []
        for qi, question in enumerate(args.questions):
            indices = [
                oi
                for oi, option in enumerate(question.options)
                if not option.input and option.label.casefold() not in OTHER_LABELS
            ]
            if not 2 <= len(indices) <= 4:  # noqa: PLR2004 - nbask's 2-4 options
                msg = (
                    f"questions[{qi}].options: give 2-4 choices besides the free-text one (input: true); "
                    f"got {len(indices)}"
                )
                raise ArgumentError(msg)
            kept.append(indices)
            converted.append(
                {
                    "question": question.question,
                    **header_fields(question.header),
                    "multi_select": question.multiSelect,
                    "options": [
                        {"label": question.options[oi].label, "description": question.options[oi].description}
                        for oi in indices
                    ],
                }
            )

        def locate(loc: Location) -> str:
            # nbask's option index -> the index in the arguments, before the free-text choice left.
            if len(loc) >= 4 and loc[:1] == ("questions",) and loc[2] == "options" and isinstance(loc[3], int):  # noqa: PLR2004
                qi, oi = int(loc[1]), loc[3]
                loc = (*loc[:3], kept[qi][oi], *loc[4:])
            return field_path(tuple("multiSelect" if part == "multi_select" else part for part in loc))

        question_set = validated_question_set(converted, locate)
        keys = tuple(question.question for question in args.questions)
        return Plan(question_set=question_set, keys=keys, timeout=timeout)

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        answers = {key: answer_for(answer, plan, index) for index, key in enumerate(plan.keys)}
        return json_answered(answer, with_notes({"type": "approval", "answers": answers}, answer, plan))

    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_dismissed(answer, {"type": "approval", "answers": {}})

    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_timed_out(answer, {"type": "approval_timeout", "answers": {}})


def _unwrap_delta(data: dict[str, Any]) -> tuple[dict[str, Any], float | None]:
    """The ``args`` of a ``content_block_delta`` payload and its ``timeout_seconds``, or ``data``."""
    if "action_requests" not in data:
        return data, None
    requests = data["action_requests"]
    if not isinstance(requests, list):
        raise ArgumentError("action_requests: must be a list of action requests")
    asks = [r for r in requests if isinstance(r, dict) and r.get("name") == "ask_user_question"]
    if len(asks) != 1:
        msg = f"action_requests: must hold exactly one ask_user_question request, found {len(asks)}"
        raise ArgumentError(msg)
    args = asks[0].get("args")
    if not isinstance(args, dict):
        raise ArgumentError("action_requests[].args: must be an object with 'questions'")
    timeout = data.get("timeout_seconds")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < float("inf"):
            raise ArgumentError(f"timeout_seconds: must be a positive number of seconds, got {timeout!r}")
        return args, float(timeout)
    return args, None
