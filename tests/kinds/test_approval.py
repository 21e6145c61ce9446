"""Approvals without a kernel: the widget's decisions, the Approval limits, the summary,
and @requires_approval driven by a resolver that plays the person.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from pydantic import ValidationError

import nbask
from nbask.contract import MAX_REASON_CHARS
from nbask.core.lifecycle import Resolution
from nbask.core.manager import manager
from nbask.kinds import ApprovalRequest, ApprovalWidget
from nbask.kinds.approval.request import approval_request
from nbask.replies import MalformedResponse
from nbask.widget import LATE_ANSWER_NOTE


def respond(widget: ApprovalWidget, action: str, edited: str | None = None, reason: str = "") -> None:
    # Exactly what js/kinds/approval/view.ts sends (ApprovalResponse in js/contract/contract.ts).
    widget._response = {"action": action, "edited_details": edited, "reason": reason, "view_id": "v", "sent_at_ms": 0}


def make(details: str = "rm -rf build/") -> ApprovalWidget:
    return ApprovalWidget(action="Run shell command", details=details, tool_call_id="call_7")


def test_initial_synced_state():
    w = make("  indented\n\tcommand  ")
    state = w.get_state()
    assert state["_kind"] == "approval"
    assert state["_title"] == "Run shell command"
    assert state["_details"] == "  indented\n\tcommand  ", "details keep their whitespace"
    assert state["_status"] == "pending"
    assert w.answer is None


def test_approve():
    w = make()
    respond(w, "approve", reason="looks fine")
    d = w.answer
    assert (d.decision, d.status, d.edited, d.reason, d.approved) == ("approve", "answered", None, "looks fine", True)
    assert (d.tool_call_id, d.request_id, d.answered_by) == ("call_7", w._request_id, "person")
    assert w._result == {"decision": "approve", "edited": None, "reason": "looks fine", "note": ""}


def test_edit_sends_the_edited_text_and_unchanged_text_is_an_approval():
    w = make()
    respond(w, "approve", edited="rm -rf build/tmp")
    assert (w.answer.decision, w.answer.edited) == ("edit", "rm -rf build/tmp")
    same = make()
    respond(same, "approve", edited="rm -rf build/")
    assert (same.answer.decision, same.answer.edited) == ("approve", None)


def test_an_approval_answered_yes_or_no_refuses_an_edit_instead_of_dropping_it():
    """``edits="off"``: a caller that takes only yes or no (a bool) offers no Edit; an edit that
    arrives anyway is refused, the approval stays open, and an approval still goes through.
    """
    request = approval_request("Publish the post", "to the blog", edits="off")
    w = ApprovalWidget(resolution=Resolution(request))
    assert w.get_state()["_edits"] == "off"
    respond(w, "approve", edited="to the wiki")
    assert w.answer is None
    assert "cannot be edited" in w._error
    respond(w, "approve")
    assert (w.answer.decision, w.answer.edited) == ("approve", None)
    assert "edits" not in approval_request("Run", "ls").asked()  # the default is left out of records


def test_reject_with_reason():
    w = make()
    respond(w, "reject", reason="  not on prod  ")
    assert (w.answer.decision, w.answer.reason, w.answer.approved) == ("reject", "not on prod", False)
    assert w._status == "answered"


@pytest.mark.parametrize("status", ["timeout", "cancelled"])
def test_silence_is_a_rejection_with_a_reason_and_late_clicks_are_shown(status):
    w = make()
    ended = w._end(status, "why it ended")
    assert (ended.decision, ended.status, ended.reason) == ("reject", status, "why it ended")
    respond(w, "approve")
    assert w.answer is ended
    if status == "cancelled":
        assert w._result["note"] == LATE_ANSWER_NOTE
    else:  # after a timeout the click is a late answer: kept apart, the outcome unchanged
        assert w.late_answer is not None
        assert (w.late_answer.decision, w.late_answer.late) == ("approve", True)
        assert w._result["late"] is True


def test_dismiss_is_a_rejection():
    w = make()
    respond(w, "dismiss")
    assert (w.answer.decision, w.answer.status) == ("reject", "dismissed")
    assert "dismissed" in w.answer.reason


@pytest.mark.parametrize(
    "response",
    [
        {"action": "edit"},
        {"action": "approve", "edited_details": 42},
        {"action": "reject", "reason": ["x"]},
        {"action": "reject", "reason": "x" * (MAX_REASON_CHARS + 1)},
    ],
)
def test_malformed_responses_leave_it_open(response):
    w = make()
    w._response = response
    assert not w.done
    assert w._response == {}


def test_action_is_required_and_short():
    with pytest.raises(ValidationError, match="action"):
        ApprovalWidget(action="   ")
    with pytest.raises(ValidationError, match="at most 200 characters"):
        ApprovalWidget(action="x" * 201)


def test_markdown_summary_keeps_model_text_literal():
    w = ApprovalWidget(action="Run <b>this</b> [now](http://x)", details="echo ```` done")
    respond(w, "reject", reason="*no*")
    text = w.summary_markdown()
    assert "<b>" not in text
    assert "](http" not in text
    assert "Rejected" in text
    assert "`````text\necho ```` done\n`````" in text, "the fence outgrows the backticks inside"
    assert "\\*no\\*" in text
    assert w._repr_mimebundle_()[0]["text/markdown"] == text


class ScriptedPerson:
    """A resolver that answers every approval from a script, as a person would click; a reply
    the kernel refuses (as the widget would show it) is followed by the script's next one.
    """

    def __init__(self, *responses: dict[str, Any]) -> None:
        self.responses = list(responses)
        self.seen: list[ApprovalRequest] = []
        self.refused: list[str] = []

    def check_available(self, request: Any) -> None:
        del request

    def _decide(self, resolution: Resolution[Any]) -> Any:
        self.seen.append(resolution.request)
        while True:
            try:
                outcome = resolution.request.parse_and_decide(self.responses.pop(0))
            except MalformedResponse as error:
                self.refused.append(str(error))
                continue
            resolution.settle(outcome)
            return resolution.outcome

    async def resolve(self, resolution: Resolution[Any]) -> Any:
        return self._decide(resolution)

    def resolve_sync(self, resolution: Resolution[Any]) -> Any:
        return self._decide(resolution)


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch):
    def script(*responses: dict[str, Any]) -> ScriptedPerson:
        resolver = ScriptedPerson(*responses)
        monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: resolver)
        return resolver

    return script


def test_requires_approval_runs_approved_and_edited_calls_and_refuses_rejected(person):
    calls: list[tuple[str, int]] = []

    @nbask.requires_approval(action="Delete rows")
    def delete(table: str, limit: int = 10) -> str:
        calls.append((table, limit))
        return f"deleted {limit} from {table}"

    script = person(
        {"action": "approve"},
        {"action": "approve", "edited_details": json.dumps({"table": "staging", "limit": 2})},
        {"action": "reject", "reason": "wrong table"},
    )
    assert delete("users") == "deleted 10 from users"
    assert delete("users") == "deleted 2 from staging"
    with pytest.raises(nbask.ApprovalRejected, match="wrong table") as info:
        delete("users", limit=5)
    assert info.value.decision.decision == "reject"
    assert calls == [("users", 10), ("staging", 2)]
    assert json.loads(script.seen[0].approval.details) == {"table": "users", "limit": 10}
    assert script.seen[0].approval.action == "Delete rows"
    assert delete.__name__ == "delete", "the signature and name stay visible to agent frameworks"


def test_requires_approval_on_async_functions_and_bad_edits_stay_open(person):
    @nbask.requires_approval
    async def fetch(url: str) -> str:
        return url

    script = person(
        {"action": "approve", "edited_details": json.dumps({"url": "https://example.org"})},
        {"action": "approve", "edited_details": "{not json"},
        {"action": "approve", "edited_details": json.dumps({"link": "x"})},
        {"action": "approve", "edited_details": json.dumps({"url": 5})},
        {"action": "approve", "edited_details": json.dumps({"url": "https://example.com"})},
    )
    assert asyncio.run(fetch("http://x")) == "https://example.org"
    # The widget's bad edits are refused and the approval stays open until a good one arrives.
    assert asyncio.run(fetch("http://x")) == "https://example.com"
    assert len(script.seen) == 2, "one approval, refused three times, not three approvals"
    assert [text.split(":")[0] for text in script.refused] == ["The edit was not accepted"] * 3
    assert "not valid JSON" in script.refused[0]
    assert 'unknown argument "link" (the arguments are: url)' in script.refused[1]
    assert 'missing required argument "url"' in script.refused[1]
    assert 'argument "url" must be a string, not an integer' in script.refused[2]
    assert script.seen[0].approval.details_schema == {
        "additionalProperties": False,
        "properties": {"url": {"title": "Url", "type": "string"}},
        "required": ["url"],
        "type": "object",
    }


def test_history_keeps_the_request_beside_the_outcome(person):
    manager().clear_history()
    person({"action": "reject", "reason": "no"})
    decision = nbask.approve_sync("Send email", "to: all@example.org")
    entry = nbask.history()[-1]
    assert entry.kind == "approval"
    assert entry.asked == {"action": "Send email", "details": "to: all@example.org"}
    assert entry.outcome == decision
    assert (entry.status, entry.request_id, entry.answered_by) == ("answered", decision.request_id, "person")
