"""Plain-Markdown records of an interaction, for places widgets don't render (a notebook
saved and viewed on GitHub, nbconvert) and for terminals. Model text stays text.
"""

from __future__ import annotations

import re

from .contract import DECISION_TEXT, STATUS_TEXT
from .models import Answer, Approval, Decision, QuestionSet

_MARKDOWN_SPECIALS = set("\\`*_{}[]()<>#+-.!|&~")


def escape_markdown(text: str) -> str:
    """One line of literal text: no links, images, emphasis or HTML survive."""
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in text).replace("\r", " ").replace("\n", " ")


def code_block(text: str) -> str:
    """A fenced block whose fence is longer than any backtick run inside, so the text can't end it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def questions_markdown(question_set: QuestionSet, answer: Answer | None) -> str:
    """Each question with its answer (or the status it ended with)."""
    status = answer.status + _by_whom(answer) if answer else "pending"
    lines = [f"**nbask** ({status})", ""]
    for question in question_set.questions:
        given = answer.answers.get(question.question) if answer else None
        line = f"- {escape_markdown(question.question)}"
        lines.append(line + (f" — **{escape_markdown(given)}**" if given else ""))
    if answer and answer.note:
        lines += ["", escape_markdown(answer.note)]
    return "\n".join(lines)


def approval_markdown(approval: Approval, decision: Decision | None) -> str:
    """The action, its details in a code block, and the decision with any edit or reason."""
    if decision is None:
        verdict = "pending"
    else:
        verdict = DECISION_TEXT[decision.decision]
        if decision.status != "answered":
            verdict += f" · {STATUS_TEXT[decision.status]}"
        verdict += _by_whom(decision)
    lines = [f"**nbask approval** — {escape_markdown(approval.action)}: **{verdict}**"]
    if approval.details:
        lines += ["", code_block(approval.details)]
    if decision is not None and decision.edited is not None:
        lines += ["", "Edited to:", "", code_block(decision.edited)]
    if decision is not None and decision.reason:
        lines += ["", f"Reason: {escape_markdown(decision.reason)}"]
    return "\n".join(lines)


def _by_whom(outcome: Answer | Decision) -> str:
    """Names who decided when it was no person ("by policy", "by replay"); a person's outcome says nothing more."""
    return "" if outcome.answered_by == "person" else f" by {outcome.answered_by}"
