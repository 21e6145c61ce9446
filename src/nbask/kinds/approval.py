"""The approval kind: a proposed action and its details, approved, edited or rejected, with a
``Decision``. Its request, widget, summary, terminal prompt, unattended answer and replay.

Silence is never consent: every ending without an explicit approval rejects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

import traitlets

from ..contract import (
    DECISION_TEXT,
    EDIT_SENT_BACK_TEXT,
    MAX_DETAILS_CHARS,
    MAX_REASON_CHARS,
    RISK_TEXT,
    STATUS_TEXT,
    agent_text,
)
from ..core.history import HistoryEntry, Recording, asked_again, current_workdir
from ..core.lifecycle import Ending, Request, Resolution
from ..errors import ReplayMissing
from ..markdown import by_whom, code_block, escape_markdown
from ..models import AnsweredBy, Approval, Decision, Risk
from ..replies import ApprovalResponse, MalformedResponse, parse_approval_response
from ..terminal import Terminal, printable
from ..widget import ShowsRefusals
from ._argcheck import edit_problems
from ._kind import RequestKind, quoted

UNATTENDED_REJECT = agent_text("unattended_rejected")

# -- the request ------------------------------------------------------------------------------


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


# -- the widget -------------------------------------------------------------------------------


class ApprovalWidget(ShowsRefusals[Decision]):
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
    # What is at stake: "low", "medium", "high", or "" (no tag, the default look).
    risk = traitlets.Unicode("").tag(sync=True)
    # What an edit does: "run", "sent_back" (to the model; the resolved card says so) or "off"
    # (no Edit offered).
    edits = traitlets.Unicode("run").tag(sync=True)

    def __init__(
        self,
        *,
        action: str | None = None,
        details: str = "",
        details_schema: dict[str, Any] | None = None,
        risk: Risk | None = None,
        tool_call_id: str | None = None,
        resolution: Resolution[Decision] | None = None,
        **traits: Any,
    ) -> None:
        if resolution is None:
            if action is None:
                msg = "ApprovalWidget needs action='...' (or a resolution of an ApprovalRequest)"
                raise TypeError(msg)
            approval = Approval(action=action, details=details, details_schema=details_schema, risk=risk)
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
            risk=self.approval.risk or "",
            edits=self.approval.edits,
            **traits,
        )

    def result_for(self, outcome: Decision) -> dict[str, Any]:
        return {"decision": outcome.decision, "edited": outcome.edited, "reason": outcome.reason, "note": ""}


# -- the summary ------------------------------------------------------------------------------


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


# -- the terminal prompt ----------------------------------------------------------------------


def ask_at_terminal(term: Terminal, request: ApprovalRequest) -> Decision:
    """1 Approve, 2 Edit (new details, ended by a line holding only ``.``), 3 Reject (with an
    optional reason); Ctrl-D dismisses.
    """
    approval = request.approval
    term.say("")
    term.say(f"nbask: the agent asks for approval{term.tool_call(request.tool_call_id)}: {printable(approval.action)}")
    if approval.risk is not None:
        mark = "!! " if approval.risk == "high" else ""
        term.say(f"  {mark}{RISK_TEXT[approval.risk]}")
    for line in printable(approval.details, keep_newlines=True).splitlines():
        term.say(f"    {line}")
    term.say("  1. Approve")
    if approval.edits != "off":
        term.say("  2. Edit the details, then approve")
    term.say("  3. Reject")
    try:
        decision = None
        while decision is None:
            decision = _terminal_choice(term, request, term.line("Choose 1-3: ").strip().lower())
    except EOFError:
        decision = request.decide(ApprovalResponse(action="dismiss"))
    term.say(f"  -> {decision.decision}")
    return decision


def _terminal_choice(term: Terminal, request: ApprovalRequest, raw: str) -> Decision | None:
    """The decision a typed choice makes, or None (said why) when it makes none yet."""
    if raw in ("1", "a", "approve"):
        return request.decide(ApprovalResponse(action="approve"))
    if raw in ("3", "r", "reject"):
        reason = term.limited_line("Reason (optional): ", MAX_REASON_CHARS)
        return request.decide(ApprovalResponse(action="reject", reason=reason))
    if raw not in ("2", "e", "edit"):
        term.say("Please type 1, 2 or 3.")
        return None
    if request.approval.edits == "off":
        term.say("This approval cannot be edited: type 1 to approve or 3 to reject.")
        return None
    response = ApprovalResponse(action="approve", edited_details=term.limited_text(MAX_DETAILS_CHARS))
    problems = request.edit_problems(response)
    if problems:
        term.say(printable(refusal_text(problems)))
        return None
    return request.decide(response)


# -- replay: only for the exact action and details a person decided on -----------------------


@dataclass(frozen=True)
class _Record:
    status: str
    decision: str
    edited: str | None
    reason: str
    #: The recorded outcome itself: who decided it then.
    source: Decision
    #: The working directory it was recorded in, and the details as recorded.
    workdir: str | None
    details: str


def _index(entries: list[HistoryEntry]) -> dict[str, list[_Record]]:
    """The recorded decisions by action, oldest first."""
    index: dict[str, list[_Record]] = {}
    for entry in entries:
        outcome = entry.outcome
        if isinstance(outcome, Decision):
            details = str(entry.asked.get("details", ""))
            record = _Record(
                outcome.status, outcome.decision, outcome.edited, outcome.reason, outcome, entry.workdir, details
            )
            index.setdefault(str(entry.asked.get("action", "")), []).append(record)
    return index


#: A character that continues a path's name: the recorded folder followed by one (``/a/proj``
#: in ``/a/proj-old``) or preceded by one (in ``/x/a/proj``) is another folder, never moved.
_NAME_CHAR = r"[\w.~-]"


def _as_here(text: str, workdir: str | None, here: str | None) -> str:
    """``text`` recorded in ``workdir`` as it would read in ``here``: a path under the recorded
    working directory (another checkout, another machine) becomes the same path under this one.
    Only the folder itself moves: where it is followed by a separator, a quote, a space or the
    end of the text, not where it is the start of a longer name or the end of another path.
    """
    if not text or workdir is None or here is None or workdir == here or workdir in ("", "/"):
        return text
    pattern = rf"(?<!{_NAME_CHAR}){re.escape(workdir)}(?!{_NAME_CHAR})"
    return re.sub(pattern, lambda _: here, text)


def replay_decision(request: ApprovalRequest, recording: Recording) -> Decision:
    """The recorded decision for exactly this action and details (answered_by "replay"); details
    recorded in another working directory match with its paths read as under this one.
    """
    approval = request.approval
    here = current_workdir()
    same_action = recording.index(ApprovalRequest.kind, _index).get(approval.action, [])
    records = [r for r in same_action if _as_here(r.details, r.workdir, here) == approval.details]
    if not records:
        raise ReplayMissing(_missing(approval, recording, same_action, here), asked=approval.action)
    record = recording.take((ApprovalRequest.kind, approval.action, approval.details), records)
    if record is None:
        raise ReplayMissing(
            asked_again(f"the approval {approval.action!r}", recording, len(records)), asked=approval.action
        )
    if record.status != "answered":
        ended = request.ended(cast("Ending | Literal['dismissed']", record.status), record.reason, "replay")
        return ended.replayed_from(record.source)
    action: Literal["approve", "reject"] = "reject" if record.decision == "reject" else "approve"
    edited = _as_here(record.edited, record.workdir, here) if record.decision == "edit" and record.edited else None
    response = ApprovalResponse(action=action, edited_details=edited, reason=record.reason)
    return request.decide(response, answered_by="replay").replayed_from(record.source)


def _missing(approval: Approval, recording: Recording, same_action: list[_Record], here: str | None) -> str:
    """Why no recorded decision fits: none for the action, or the details differ (and where)."""
    text = (
        f"replay: no recorded decision for the approval {approval.action!r} with these details in "
        f"{recording.source} ({recording.size} recorded interactions). Approvals replay only for the exact "
        "action and details a person decided on"
    )
    if not same_action:
        return text + "; none was recorded for this action."
    last = same_action[-1]
    recorded = _as_here(last.details, last.workdir, here).splitlines() or [""]
    asked = approval.details.splitlines() or [""]
    line = next(
        (n for n, (a, b) in enumerate(zip(recorded, asked, strict=False)) if a != b), min(len(recorded), len(asked))
    )
    was = recorded[line][:120] if line < len(recorded) else "(nothing)"
    now = asked[line][:120] if line < len(asked) else "(nothing)"
    text += f"; the details recorded for it differ at line {line + 1}: recorded {was!r}, asked {now!r}"
    if last.workdir is not None and here is not None and last.workdir != here:
        text += (
            f" (recorded in {last.workdir}, replayed in {here}: paths under the recorded folder were read as "
            "under this one, other paths must match exactly)"
        )
    return text + "."


# -- the kind ---------------------------------------------------------------------------------


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
