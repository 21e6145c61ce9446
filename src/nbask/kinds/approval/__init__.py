"""The approval kind: a proposed action and its details, approved, edited or rejected, with a
``Decision``. Its request, widget, summary, terminal prompt, unattended answer and replay.

Silence is never consent: every ending without an explicit approval rejects.
"""

from __future__ import annotations

from typing import Any

from ...core.history import Recording
from ...models import Approval, Decision
from ...replies import ApprovalResponse
from ...terminal import Terminal
from .._kind import RequestKind, quoted
from .markdown import approval_markdown
from .replay import replay_decision
from .request import UNATTENDED_REJECT, ApprovalRequest
from .terminal import ask_at_terminal
from .widget import ApprovalWidget

__all__ = ["ApprovalKind", "ApprovalRequest", "ApprovalWidget"]


class ApprovalKind(RequestKind[ApprovalRequest, Decision], widget=ApprovalWidget):
    """Approvals: the widget, the summary, the prompt; unattended, never approved."""

    def summary(self, request: ApprovalRequest, outcome: Decision | None) -> str:
        return approval_markdown(request.approval, outcome)

    def console_prompt(self, term: Terminal, request: ApprovalRequest) -> Decision:
        return ask_at_terminal(term, request)

    def recommended(self, request: ApprovalRequest) -> Decision:
        """An unattended run never approves on its own."""
        return request.decide(ApprovalResponse(action="reject", reason=UNATTENDED_REJECT), answered_by="policy")

    def request_of(self, asked: dict[str, Any]) -> ApprovalRequest:
        return ApprovalRequest(approval=Approval.model_validate(asked))

    def match_key(self, asked: dict[str, Any]) -> list[Any]:
        """An approval is matched by its exact action and details."""
        return [asked.get("action", ""), asked.get("details", "")]

    def replayed(self, request: ApprovalRequest, recording: Recording) -> Decision:
        return replay_decision(request, recording)

    def late_answer_text(self, asked: dict[str, Any], outcome: Decision) -> str:
        action = quoted(str(asked.get("action", "")))
        verdict = _LATE_VERDICTS[outcome.decision]
        what = f"{verdict} after the approval request {action} had timed out; it has not run since."
        if outcome.edited is not None:
            what += f" Edited to: {quoted(outcome.edited)}."
        if outcome.reason:
            what += f" Reason: {quoted(outcome.reason)}."
        return what


_LATE_VERDICTS = {"approve": "approved it", "edit": "approved it with edits", "reject": "rejected it"}
