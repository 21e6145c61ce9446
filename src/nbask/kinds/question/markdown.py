"""The question kind's Markdown summary: what was asked and decided, readable without the widget."""

from __future__ import annotations

from ...markdown import by_whom, escape_markdown
from ...models import Answer, QuestionSet


def questions_markdown(question_set: QuestionSet, answer: Answer | None) -> str:
    """Each question with its answer (or the status it ended with)."""
    status = answer.status + by_whom(answer) if answer else "pending"
    lines = [f"**nbask** ({status})", ""]
    for question in question_set.questions:
        given = answer.answers.get(question.question) if answer else None
        line = f"- {escape_markdown(question.question)}"
        lines.append(line + (f" — **{escape_markdown(given)}**" if given else ""))
        noted = answer.notes.get(question.question) if answer else None
        if noted:
            lines.append(f"  - Note: {escape_markdown(noted)}")
    if answer and answer.note:
        lines += ["", escape_markdown(answer.note)]
    return "\n".join(lines)
