"""The approval kind's Markdown summary: what was asked and decided, readable without the widget."""

from __future__ import annotations

from ...contract import (
    DECISION_TEXT,
    EDIT_SENT_BACK_TEXT,
    STATUS_TEXT,
)
from ...markdown import by_whom, code_block, escape_markdown
from ...models import Approval, Decision


def approval_markdown(approval: Approval, decision: Decision | None) -> str:
    """The action, its details in a code block, and the decision with any edit or reason."""
    if decision is None:
        verdict = "pending"
    else:
        sent_back = decision.decision == "edit" and approval.edits == "sent_back"
        verdict = EDIT_SENT_BACK_TEXT if sent_back else DECISION_TEXT[decision.decision]
        if decision.status != "answered":
            verdict += f" · {STATUS_TEXT[decision.status]}"
        verdict += by_whom(decision)
    lines = [f"**nbask approval** — {escape_markdown(approval.action)}: **{verdict}**"]
    if approval.details:
        lines += ["", code_block(approval.details)]
    if decision is not None and decision.edited is not None:
        lines += ["", "Edited to:", "", code_block(decision.edited)]
    if decision is not None and decision.reason:
        lines += ["", f"Reason: {escape_markdown(decision.reason)}"]
    return "\n".join(lines)
