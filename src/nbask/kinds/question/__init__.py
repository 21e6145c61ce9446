"""The question kind: 1-4 questions with 2-4 options each and a free "Other" text, answered
with an ``Answer``. Its request, widget, summary, terminal prompt, unattended answer and replay.
"""

from __future__ import annotations

from typing import Any

from ...core.history import Recording
from ...models import Answer, QuestionSet, one_question_set
from ...terminal import Terminal
from .._kind import RequestKind, quoted
from .markdown import questions_markdown
from .replay import replay_answer
from .request import QuestionRequest
from .terminal import ask_at_terminal
from .widget import QuestionWidget

__all__ = ["QuestionKind", "QuestionRequest", "QuestionWidget"]


class QuestionKind(RequestKind[QuestionRequest, Answer], widget=QuestionWidget):
    """Questions: the widget, the summary, the prompt; unattended, each "(Recommended)" option."""

    def summary(self, request: QuestionRequest, outcome: Answer | None) -> str:
        return questions_markdown(request.question_set, outcome)

    def console_prompt(self, term: Terminal, request: QuestionRequest) -> Answer:
        return ask_at_terminal(term, request)

    def recommended(self, request: QuestionRequest) -> Answer:
        """Each question's "(Recommended)" option, else its first."""
        selections = {question.question: [question.recommended_label()] for question in request.question_set.questions}
        return request.answered(selections, {}, "", "policy")

    def asked_from(self, kept: tuple[Any, ...]) -> dict[str, Any]:
        """The set the shorthand's arguments made, validated again (as it was when asked)."""
        question, labels, header, multi_select = kept
        return one_question_set(question, labels, header=header, multi_select=multi_select).model_dump()

    def request_of(self, asked: dict[str, Any]) -> QuestionRequest:
        return QuestionRequest(question_set=QuestionSet.model_validate(asked))

    def match_key(self, asked: dict[str, Any]) -> list[Any]:
        """A question set is matched by each question's text and option labels, whatever the
        labels' order or descriptions.
        """
        return [
            [
                str(question.get("question", "")),
                sorted(str(option.get("label", "")) for option in question.get("options", [])),
            ]
            for question in asked.get("questions", [])
        ]

    def replayed(self, request: QuestionRequest, recording: Recording) -> Answer:
        return replay_answer(request, recording)

    def late_answer_text(self, asked: dict[str, Any], outcome: Answer) -> str:  # noqa: ARG002 - the answer names its questions
        given = "; ".join(f"{quoted(q)} -> {quoted(a)}" for q, a in outcome.answers.items())
        what = f"answered an earlier question after it had timed out: {given}."
        if outcome.notes:
            notes = "; ".join(f"{quoted(q)} -> {quoted(n)}" for q, n in outcome.notes.items())
            what += f" Their notes: {notes}."
        if outcome.note:
            what += f" Note: {quoted(outcome.note)}."
        return what
