"""The approval kind's request: what is asked, and how a reply becomes its outcome."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from ...contract import (
    agent_text,
)
from ...core.lifecycle import DEFAULT_TIMEOUT, Ending, Request
from ...errors import MalformedResponse
from ...models import AnsweredBy, Approval, Decision, EditsMode, Risk
from ...replies import ApprovalResponse, parse_approval_response
from .edit_check import edit_problems

UNATTENDED_REJECT = agent_text("unattended_rejected")


@dataclass
class ApprovalRequest(Request[Decision]):
    """Asks to approve an action; decides a Decision."""

    kind: ClassVar[str] = "approval"
    keeps_workdir: ClassVar[bool] = True
    approval: Approval = field(kw_only=True)

    def asked(self) -> dict[str, Any]:
        return self.approval.model_dump()

    def headline(self) -> str:
        return self.approval.action

    def asked_json(self) -> str:
        return self.approval.model_dump_json()

    def parse_and_decide(self, raw: dict[str, Any]) -> Decision:
        """The front end's reply, decided; an edit that does not fit ``details_schema`` raises
        MalformedResponse naming the argument and the rule, so the approval stays open.
        """
        response = parse_approval_response(raw, self.approval)
        problems = self.edit_problems(response)
        if problems:
            raise MalformedResponse(refusal_text(problems))
        return self.decide(response)

    def edit_problems(self, response: ApprovalResponse) -> list[str]:
        """What is wrong with the response's edit of JSON arguments (none without a schema)."""
        edited = response.edited_details
        schema = self.approval.details_schema
        if response.action != "approve" or edited is None or edited == self.approval.details:
            return []
        if self.approval.edits == "off":
            return ["this approval cannot be edited: it is answered yes or no"]
        return edit_problems(edited, schema) if schema is not None else []

    def decide(self, response: ApprovalResponse, answered_by: AnsweredBy = "person") -> Decision:
        if response.action == "dismiss":
            return self.ended("dismissed", agent_text("approval_dismissed"), answered_by)
        if response.action == "reject":
            return Decision(status="answered", decision="reject", reason=response.reason, **self._ids(answered_by))
        edited = response.edited_details
        if edited is not None and edited != self.approval.details:
            return Decision(
                status="answered", decision="edit", edited=edited, reason=response.reason, **self._ids(answered_by)
            )
        return Decision(status="answered", decision="approve", reason=response.reason, **self._ids(answered_by))

    def decided_in_batch(self, *, approve: bool) -> Decision | None:
        """Approve all / Reject all: the details as shown (no edit), no reason. A high-risk
        approval is never approved in bulk (None: it waits for its own card's decision).
        """
        if approve and self.approval.risk == "high":
            return None
        return self.decide(ApprovalResponse("approve" if approve else "reject"))

    def ended(self, status: Ending | Literal["dismissed"], note: str, answered_by: AnsweredBy = "person") -> Decision:
        return Decision(status=status, decision="reject", reason=note, **self._ids(answered_by))

    def refused(self, reason: str) -> Decision:
        """No one could be asked: rejected by policy, never approved."""
        return Decision(status="answered", decision="reject", reason=reason, **self._ids("policy"))


def refusal_text(problems: list[str]) -> str:
    """Why an edit was not accepted, for the person: every problem, then what to do."""
    text = "; ".join(problems)
    return f"The edit was not accepted: {text}. Fix the Details, then approve again."


def approval_request(
    action: str,
    details: str,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    schema: Mapping[str, Any] | None = None,
    risk: Risk | None = None,
    edits: EditsMode = "run",
    source: str | None = None,
) -> ApprovalRequest:
    """An approval request, its edit checked against ``schema`` (a JSON Schema) where given,
    tagged with ``risk`` (ValidationError naming ``risk`` for anything but low, medium, high);
    ``edits`` saying what an edit does ("run", "sent_back" to the model, or "off": none offered).
    """
    checked = dict(schema) if schema is not None else None
    approval = Approval(action=action, details=details, details_schema=checked, risk=risk, edits=edits)
    return ApprovalRequest(approval=approval, timeout=timeout, tool_call_id=tool_call_id, source=source)
