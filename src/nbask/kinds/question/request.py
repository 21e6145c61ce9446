"""The question kind's request: what is asked, and how a reply becomes its outcome."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeGuard

from ...contract import ANSWER_SEPARATOR, NO_PREFERENCE, agent_text
from ...core.history import json_text
from ...core.lifecycle import Ending, Request
from ...markdown import first_line
from ...models import Answer, AnsweredBy, Option, Question, QuestionSet, one_question_set
from ...replies import QuestionResponse, parse_question_response


@dataclass
class QuestionRequest(Request[Answer]):
    """Asks a QuestionSet; decides an Answer."""

    kind: ClassVar[str] = "question"
    question_set: QuestionSet = field(kw_only=True)
    #: The arguments of the one-question shorthand, ``(question, option labels, header,
    #: multi_select)``, when the set was made by it from labels alone: what the history keeps
    #: instead of the set's JSON (smaller, and cheaper on every headless ask).
    shorthand: tuple[str, tuple[str, ...], str, bool] | None = field(default=None, kw_only=True)

    def asked(self) -> dict[str, Any]:
        return self.question_set.model_dump()

    def headline(self) -> str:
        first = self.question_set.questions[0].question
        more = len(self.question_set.questions) - 1
        return first_line(first) + (f" (and {more} more)" if more else "")

    def asked_json(self) -> str:
        return json_text(self.question_set)

    def kept_asked(self) -> str | tuple[Any, ...]:
        return self.asked_json() if self.shorthand is None else self.shorthand

    def parse_and_decide(self, raw: dict[str, Any]) -> Answer:
        return self.decide(parse_question_response(raw, self.question_set))

    def decide(self, response: QuestionResponse, answered_by: AnsweredBy = "person") -> Answer:
        if response.action == "dismiss":
            return self.ended("dismissed", agent_text("question_dismissed"), answered_by)
        selections: dict[str, list[str]] = {}
        notes: dict[str, str] = {}
        for question, reply in zip(self.question_set.questions, response.replies, strict=True):
            selections[question.question] = [*reply.selected, *([reply.other] if reply.other is not None else [])]
            if reply.note:
                notes[question.question] = reply.note
        return self.answered(selections, notes, response.note, answered_by)

    def answered(
        self, selections: dict[str, list[str]], notes: dict[str, str], note: str, answered_by: AnsweredBy
    ) -> Answer:
        """The Answer giving each question the values ``selections`` holds under its text (in
        the set's order; empty: no preference), with the person's ``notes`` per question and
        ``note`` on the whole set.
        """
        answers: dict[str, str] = {}
        skipped = 0
        for text, values in selections.items():
            answers[text] = ANSWER_SEPARATOR.join(values) if values else NO_PREFERENCE
            skipped += not values
        # The person's own words first; nbask's remark about empty questions after them.
        if skipped:
            remark = agent_text("left_empty", count=skipped)
            note = f"{note}\n\n{remark}" if note else remark
        fields = self._ids(answered_by)
        fields.update(status="answered", answers=answers, selections=selections, notes=notes, note=note)
        return Answer.built(fields)

    def ended(self, status: Ending | Literal["dismissed"], note: str, answered_by: AnsweredBy = "person") -> Answer:
        return Answer(status=status, note=note, **self._ids(answered_by))


def one_question_request(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str,
    multi_select: bool,
    timeout: float | None,
    tool_call_id: str | None,
    source: str | None = None,
) -> QuestionRequest:
    """The request of a one-question ask. With options given as labels alone (text: nothing can
    change it after the ask), it carries the arguments, for the history to keep.
    """
    # Read once (an iterator would be empty the second time); a string is refused just below.
    labels = options if isinstance(options, str) else tuple(options)
    question_set = one_question_set(question, labels, header=header, multi_select=multi_select)
    shorthand = (question, labels, header, multi_select) if isinstance(labels, tuple) and _all_text(labels) else None
    return QuestionRequest(
        question_set=question_set, timeout=timeout, tool_call_id=tool_call_id, shorthand=shorthand, source=source
    )


def _all_text(values: tuple[object, ...]) -> TypeGuard[tuple[str, ...]]:
    """Whether every one of ``values`` is text: ``str.join`` takes text alone, the quickest check."""
    try:
        "".join(values)  # type: ignore[arg-type]  # what it refuses is the answer
    except TypeError:
        return False
    return True


def as_question_set(questions: Sequence[Question | dict[str, Any]] | QuestionSet) -> QuestionSet:
    """Validate a list of questions (or pass a QuestionSet through)."""
    return questions if isinstance(questions, QuestionSet) else QuestionSet(questions=list(questions))
