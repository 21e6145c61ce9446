"""The approval kind: a proposed action and its details, approved, edited or rejected, with a
``Decision``. Its request, widget, summary, terminal prompt, unattended answer and replay.

Silence is never consent: every ending without an explicit approval rejects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

import traitlets

from ..contract import DECISION_TEXT, MAX_DETAILS_CHARS, MAX_REASON_CHARS, STATUS_TEXT
from ..core.history import HistoryEntry, Recording
from ..core.lifecycle import Ending, Request, Resolution
from ..errors import ReplayMissing
from ..models import AnsweredBy, Approval, Decision
from ..responses import ApprovalResponse, MalformedResponse, parse_approval_response
from ..summary import by_whom, code_block, escape_markdown
from ..terminal import Terminal, printable
from ..widget import InteractionWidget
from ._argcheck import edit_problems
from ._kind import RequestKind

UNATTENDED_REJECT = (
    "Not approved: this run is unattended (policy 'recommended'), and an unattended run does not "
    "approve actions on its own. Ask again where a person can decide, or replay a recorded decision."
)

# -- the request ------------------------------------------------------------------------------


@dataclass
class ApprovalRequest(Request[Decision]):
    """Asks to approve an action; decides a Decision."""

    kind: ClassVar[str] = "approval"
    approval: Approval = field(kw_only=True)

    def asked(self) -> dict[str, Any]:
        return self.approval.model_dump()

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
        if response.action != "approve" or edited is None or edited == self.approval.details or schema is None:
            return []
        return edit_problems(edited, schema)

    def decide(self, response: ApprovalResponse, answered_by: AnsweredBy = "person") -> Decision:
        if response.action == "dismiss":
            return self.ended("dismissed", "The person dismissed the request without approving it.", answered_by)
        if response.action == "reject":
            return Decision(status="answered", decision="reject", reason=response.reason, **self._ids(answered_by))
        edited = response.edited_details
        if edited is not None and edited != self.approval.details:
            return Decision(
                status="answered", decision="edit", edited=edited, reason=response.reason, **self._ids(answered_by)
            )
        return Decision(status="answered", decision="approve", reason=response.reason, **self._ids(answered_by))

    def ended(self, status: Ending | Literal["dismissed"], note: str, answered_by: AnsweredBy = "person") -> Decision:
        return Decision(status=status, decision="reject", reason=note, **self._ids(answered_by))


def refusal_text(problems: list[str]) -> str:
    """Why an edit was not accepted, for the person: every problem, then what to do."""
    text = "; ".join(problems)
    return f"The edit was not accepted: {text}. Fix the Details, then approve again."


# -- the widget -------------------------------------------------------------------------------


class ApprovalWidget(InteractionWidget[Decision]):
    """Asks the person to approve, edit or reject an action.

    Example::

        w = nbask.ApprovalWidget(action="Run shell command", details="rm -rf build/")
        display(w)
        decision = await w.await_answer(timeout=None)
    """

    # Mirrored by ApprovalModel in js/contract.ts.
    title = traitlets.Unicode("").tag(sync=True)
    details = traitlets.Unicode("").tag(sync=True)
    # The JSON Schema an edit of the details must fit (None: the details are not checked).
    details_schema = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    # Why the kernel refused the last reply ("" = none); the approval stays open to fix it.
    error = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        *,
        action: str | None = None,
        details: str = "",
        details_schema: dict[str, Any] | None = None,
        tool_call_id: str | None = None,
        resolution: Resolution[Decision] | None = None,
        **traits: Any,
    ) -> None:
        if resolution is None:
            if action is None:
                msg = "ApprovalWidget needs action='...' (or a resolution of an ApprovalRequest)"
                raise TypeError(msg)
            approval = Approval(action=action, details=details, details_schema=details_schema)
            request = ApprovalRequest(approval=approval, tool_call_id=tool_call_id)
            resolution = Resolution(request)
        if not isinstance(resolution.request, ApprovalRequest):
            msg = "ApprovalWidget shows approval requests only"
            raise TypeError(msg)
        self.approval = resolution.request.approval
        super().__init__(
            resolution,
            title=self.approval.action,
            details=self.approval.details,
            details_schema=self.approval.details_schema,
            **traits,
        )

    def summary_of(self, outcome: Decision | None) -> str:
        return approval_markdown(self.approval, outcome)

    def result_for(self, outcome: Decision) -> dict[str, Any]:
        return {"decision": outcome.decision, "edited": outcome.edited, "reason": outcome.reason, "note": ""}

    def refuse(self, error: MalformedResponse) -> None:
        with self.hold_sync():
            self.error = str(error)
            super().refuse(error)


# -- the summary ------------------------------------------------------------------------------


def approval_markdown(approval: Approval, decision: Decision | None) -> str:
    """The action, its details in a code block, and the decision with any edit or reason."""
    if decision is None:
        verdict = "pending"
    else:
        verdict = DECISION_TEXT[decision.decision]
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


# -- the terminal prompt ----------------------------------------------------------------------


def ask_at_terminal(term: Terminal, request: ApprovalRequest) -> Decision:
    """1 Approve, 2 Edit (new details, ended by a line holding only ``.``), 3 Reject (with an
    optional reason); Ctrl-D dismisses.
    """
    approval = request.approval
    term.say("")
    term.say(f"nbask: the agent asks for approval{term.tool_call(request.tool_call_id)}: {printable(approval.action)}")
    for line in printable(approval.details, keep_newlines=True).splitlines():
        term.say(f"    {line}")
    term.say("  1. Approve")
    term.say("  2. Edit the details, then approve")
    term.say("  3. Reject")
    try:
        while True:
            raw = term.line("Choose 1-3: ").strip().lower()
            if raw in ("1", "a", "approve"):
                decision = request.decide(ApprovalResponse(action="approve"))
            elif raw in ("2", "e", "edit"):
                edited = term.limited_text(MAX_DETAILS_CHARS)
                response = ApprovalResponse(action="approve", edited_details=edited)
                problems = request.edit_problems(response)
                if problems:
                    term.say(printable(refusal_text(problems)))
                    continue
                decision = request.decide(response)
            elif raw in ("3", "r", "reject"):
                reason = term.limited_line("Reason (optional): ", MAX_REASON_CHARS)
                decision = request.decide(ApprovalResponse(action="reject", reason=reason))
            else:
                term.say("Please type 1, 2 or 3.")
                continue
            break
    except EOFError:
        decision = request.decide(ApprovalResponse(action="dismiss"))
    term.say(f"  -> {decision.decision}")
    return decision


# -- replay: only for the exact action and details a person decided on -----------------------


@dataclass(frozen=True)
class _Record:
    status: str
    decision: str
    edited: str | None
    reason: str


def _index(entries: list[HistoryEntry]) -> dict[tuple[str, str], list[_Record]]:
    index: dict[tuple[str, str], list[_Record]] = {}
    for entry in entries:
        outcome = entry.outcome
        if isinstance(outcome, Decision):
            key = (str(entry.asked.get("action", "")), str(entry.asked.get("details", "")))
            index.setdefault(key, []).append(_Record(outcome.status, outcome.decision, outcome.edited, outcome.reason))
    return index


def replay_decision(request: ApprovalRequest, recording: Recording) -> Decision:
    """The recorded decision for exactly this action and details (answered_by "replay")."""
    approval = request.approval
    key = (approval.action, approval.details)
    records = recording.index(ApprovalKind.name, _index).get(key)
    if not records:
        msg = (
            f"replay: no recorded decision for the approval {approval.action!r} with these details in "
            f"{recording.source} ({recording.size} recorded interactions). Approvals replay only for the exact "
            "action and details a person decided on."
        )
        raise ReplayMissing(msg, asked=approval.action)
    record = recording.take(("approval", *key), records)
    if record.status != "answered":
        return request.ended(cast("Ending | Literal['dismissed']", record.status), record.reason, "replay")
    action: Literal["approve", "reject"] = "reject" if record.decision == "reject" else "approve"
    edited = record.edited if record.decision == "edit" else None
    return request.decide(
        ApprovalResponse(action=action, edited_details=edited, reason=record.reason), answered_by="replay"
    )


# -- the kind ---------------------------------------------------------------------------------


class ApprovalKind(RequestKind[ApprovalRequest, Decision]):
    """Approvals: the widget, the summary, the prompt; unattended, never approved."""

    name = "approval"
    request_type = ApprovalRequest
    outcome_type = Decision

    def widget(self, resolution: Resolution[Decision]) -> ApprovalWidget:
        return ApprovalWidget(resolution=resolution)

    def summary(self, request: ApprovalRequest, outcome: Decision | None) -> str:
        return approval_markdown(request.approval, outcome)

    def console_prompt(self, term: Terminal, request: ApprovalRequest) -> Decision:
        return ask_at_terminal(term, request)

    def recommended(self, request: ApprovalRequest) -> Decision:
        """An unattended run never approves on its own."""
        return request.decide(ApprovalResponse(action="reject", reason=UNATTENDED_REJECT), answered_by="policy")

    def replayed(self, request: ApprovalRequest, recording: Recording) -> Decision:
        return replay_decision(request, recording)
