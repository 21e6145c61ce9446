"""The approval kind at a terminal: the prompt the ``console`` policy shows."""

from __future__ import annotations

from ...contract import (
    MAX_DETAILS_CHARS,
    MAX_REASON_CHARS,
    RISK_TEXT,
)
from ...models import Decision
from ...replies import ApprovalResponse
from ...terminal import Terminal, printable
from .request import ApprovalRequest, refusal_text


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
