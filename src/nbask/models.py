"""The question schema and the answer: what a model may ask, and what it gets back.

Every limit lives here, so bad input fails before anything reaches the screen, with
an error that names the field and the rule.
"""

from __future__ import annotations

import re
import time
import uuid
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
)

MAX_HEADER_CHARS = 12
NO_PREFERENCE = "[No preference]"
ANSWER_SEPARATOR = ", "

# The UI adds its own free-text "Other" choice to every question; a model-supplied one
# would show twice. These are the labels models typically use for it.
_OTHER_LABELS = {"other", "other...", "other…", "something else", "custom"}
_RECOMMENDED = re.compile(r"\(recommended\)\s*$", re.IGNORECASE)

NonEmptyText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

Status = Literal["answered", "dismissed", "timeout", "cancelled"]


def is_recommended(label: str) -> bool:
    """A label ending in "(Recommended)" marks the option the model suggests."""
    return bool(_RECOMMENDED.search(label))


class _Strict(BaseModel):
    # Unknown keys are mistakes (a typo such as "multiselect" would otherwise be dropped
    # silently and the question shown as single select).
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Option(_Strict):
    """One choice of a question."""

    label: NonEmptyText = Field(description="Short choice text (1-5 words). End it with '(Recommended)' to suggest it.")
    description: str = Field(default="", description="What this choice means or implies.")


class Question(_Strict):
    """One question with 2-4 options; the UI always adds a free-text "Other" choice."""

    question: NonEmptyText = Field(description="The full question, ending with '?'.")
    header: str = Field(
        default="",
        max_length=MAX_HEADER_CHARS,
        description=f"Very short label shown as a chip (at most {MAX_HEADER_CHARS} characters), e.g. 'Auth'.",
    )
    options: list[Option] = Field(
        min_length=2,
        max_length=4,
        description="2-4 distinct choices. Do not add an 'Other' option: the UI adds one.",
    )
    multi_select: bool = Field(default=False, description="Allow choosing several options.")

    @field_validator("options")
    @classmethod
    def _labels_are_distinct_and_not_other(cls, options: list[Option]) -> list[Option]:
        seen: set[str] = set()
        for option in options:
            if option.label.casefold() in _OTHER_LABELS:
                raise ValueError(
                    f"option label {option.label!r} is not allowed: the UI adds its own "
                    "free-text 'Other' choice, so leave it out"
                )
            if option.label in seen:
                raise ValueError(f"option labels must be unique within a question; {option.label!r} appears twice")
            seen.add(option.label)
        return options


class QuestionSet(_Strict):
    """What one ask shows: 1-4 questions, keyed by their text in the answer."""

    questions: list[Question] = Field(min_length=1, max_length=4, description="1-4 questions to ask together.")

    @field_validator("questions")
    @classmethod
    def _question_texts_are_distinct(cls, questions: list[Question]) -> list[Question]:
        seen: set[str] = set()
        for question in questions:
            if question.question in seen:
                raise ValueError(
                    f"question texts must be unique within a set (they are the answer keys); "
                    f"{question.question!r} appears twice"
                )
            seen.add(question.question)
        return questions


class Answer(BaseModel):
    """The outcome of one interaction."""

    model_config = ConfigDict(extra="forbid")

    status: Status
    answers: dict[str, str] = Field(default_factory=dict, description="Question text -> answer text.")
    selections: dict[str, list[str]] = Field(default_factory=dict, description="Question text -> chosen values.")
    note: str = ""
    request_id: str
    tool_call_id: str | None = None
    asked_at: float = Field(description="Unix time the question was shown.")
    resolved_at: float = Field(description="Unix time the interaction ended.")

    @property
    def seconds_waited(self) -> float:
        return max(0.0, self.resolved_at - self.asked_at)


def new_request_id() -> str:
    return uuid.uuid4().hex


def answer_from_response(
    question_set: QuestionSet,
    response: dict[str, Any],
    *,
    request_id: str,
    tool_call_id: str | None,
    asked_at: float,
) -> Answer:
    """Turn the front end's response payload into an Answer.

    The payload (see js/widget.ts, type Response) is untrusted: it comes over the comm
    from any front end, so its shape is checked and unknown labels are ignored rather
    than passed to the agent.
    """
    action = response.get("action")
    now = time.time()
    if action == "dismiss":
        return Answer(
            status="dismissed",
            note="The person dismissed the questions without answering.",
            request_id=request_id,
            tool_call_id=tool_call_id,
            asked_at=asked_at,
            resolved_at=now,
        )
    if action != "submit":
        raise ValueError(f"response.action must be 'submit' or 'dismiss', got {action!r}")
    raw_answers = response.get("answers")
    if not isinstance(raw_answers, list) or len(raw_answers) != len(question_set.questions):
        raise ValueError("response.answers must be a list with one entry per question")

    answers: dict[str, str] = {}
    selections: dict[str, list[str]] = {}
    skipped = []
    for question, raw in zip(question_set.questions, raw_answers):
        raw = raw if isinstance(raw, dict) else {}
        picked = raw.get("selected") or []
        picked_set = {p for p in picked if isinstance(p, str)}
        values = [o.label for o in question.options if o.label in picked_set]  # option order
        if not question.multi_select:
            values = values[:1]
        other = raw.get("other")
        if isinstance(other, str) and other.strip() and (question.multi_select or not values):
            values.append(other.strip())
        selections[question.question] = values
        if values:
            answers[question.question] = ANSWER_SEPARATOR.join(values)
        else:
            answers[question.question] = NO_PREFERENCE
            skipped.append(question.question)
    note = f"{len(skipped)} question(s) left without an answer." if skipped else ""
    return Answer(
        status="answered",
        answers=answers,
        selections=selections,
        note=note,
        request_id=request_id,
        tool_call_id=tool_call_id,
        asked_at=asked_at,
        resolved_at=now,
    )


def ended_answer(
    status: Literal["timeout", "cancelled"],
    *,
    request_id: str,
    tool_call_id: str | None,
    asked_at: float,
    note: str,
) -> Answer:
    """An Answer for an interaction that ended without the person's reply."""
    return Answer(
        status=status,
        note=note,
        request_id=request_id,
        tool_call_id=tool_call_id,
        asked_at=asked_at,
        resolved_at=time.time(),
    )
